"""Set-up for every pytest run, including the docstring examples of ``src/irrepro`` (``--doctest-modules``).

The examples get the same environment as the tests (Agg backend, the local data mirror, a test cache):
``tests/conftest.py`` sets it up and is imported here, so a run of ``pytest src/irrepro`` alone has it too.
"""

import tests.conftest  # noqa: F401  (sets the environment on import)

# Modules whose docstring examples fail today, in files this branch does not own; remove each line once fixed.
collect_ignore: list[str] = []
