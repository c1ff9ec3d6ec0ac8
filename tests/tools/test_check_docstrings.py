"""tools/check_docstrings.py: numpydoc's validation of the top-level API, as `make lint` runs it."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("check_docstrings", ROOT / "tools" / "check_docstrings.py")
check_docstrings = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = check_docstrings
_spec.loader.exec_module(check_docstrings)


@pytest.fixture
def module(tmp_path, monkeypatch):
    """A module of two functions, one documented in numpydoc form and one not."""
    (tmp_path / "docmod.py").write_text(textwrap.dedent('''
        def good(frame, *, depth=10):
            """Count the rows of a frame.

            Parameters
            ----------
            frame : pandas.DataFrame
                Any frame.
            depth : int, default 10
                Ignored.

            Returns
            -------
            int
                The number of rows.
            """
            return len(frame)


        def bad(frame, depth):
            """counts the rows

            Parameters
            ----------
            frame : pandas.DataFrame
                Any frame.
            """
            return len(frame)
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "docmod"
    sys.modules.pop("docmod", None)


def test_a_numpydoc_docstring_passes(module):
    assert check_docstrings.problems(f"{module}.good") == []


def test_each_missing_section_is_one_line_naming_file_function_and_check(module):
    found = check_docstrings.problems(f"{module}.bad")
    codes = sorted(line.split(": ")[2].split()[0] for line in found)
    assert codes == ["PR01", "RT01", "SS02", "SS03", "SS05"]  # no depth, no Returns, "counts"
    assert all(line.startswith(f"{sys.modules[module].__file__}:") and f": {module}.bad: " in line for line in found)
    assert any("{'depth'}" in line for line in found if ": PR01 " in line)


def test_main_exits_1_on_a_problem_and_0_without(module, capsys):
    assert check_docstrings.main([f"{module}.good"]) == 0
    assert check_docstrings.main([f"{module}.good", f"{module}.bad"]) == 1
    assert "2 docstrings, 5 problems" in capsys.readouterr().err


def test_the_top_level_api_is_checked_where_each_function_is_defined():
    import irrepro

    paths = check_docstrings.top_level_api()
    assert len(paths) == len(irrepro.__all__) - 1  # every name but __version__
    assert "irrepro.runs.read_run" in paths and "irrepro.reproducibility.compare.compare_runs" in paths


def test_the_top_level_api_passes_the_checks():
    found = [line for path in check_docstrings.top_level_api() for line in check_docstrings.problems(path)]
    assert found == []
