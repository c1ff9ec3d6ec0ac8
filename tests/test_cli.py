"""irrepro.cli: the command's start-up stays light."""

from __future__ import annotations

import subprocess
import sys


def test_building_the_parser_imports_no_heavy_library():
    """Every command builds the whole parser; the routing pipeline's and the GLMs' libraries
    (scikit-learn, NLTK, statsmodels, matplotlib) must load only when their command runs."""
    code = (
        "import sys; from irrepro.cli import build_parser; build_parser(); "
        "print(' '.join(sorted(m for m in ('sklearn', 'nltk', 'statsmodels', 'matplotlib') if m in sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == ""
