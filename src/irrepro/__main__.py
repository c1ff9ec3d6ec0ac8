import sys

from irrepro.cli import main

sys.exit(main())
