"""The top-level ``irrepro`` module: the main functions reachable from the top, imported lazily."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import irrepro

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "pandas", "scipy", "statsmodels", "sklearn", "matplotlib", "pytrec_eval")


def _fresh_python(code: str) -> str:
    """Run ``code`` in a new interpreter (this one has imported everything already); return stdout."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout


def test_import_irrepro_loads_no_scientific_library():
    loaded = json.loads(_fresh_python(
        "import json, sys, irrepro\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))"
    ))
    assert loaded == []


def test_the_first_use_of_a_name_imports_its_module_and_nothing_is_imported_before():
    out = _fresh_python(
        "import sys, irrepro\n"
        "before = 'irrepro.reproducibility.scores' in sys.modules\n"
        "irrepro.effect_ratio\n"
        "print(before, 'irrepro.reproducibility.scores' in sys.modules, 'pandas' in sys.modules)"
    )
    assert out.split() == ["False", "True", "True"]


@pytest.mark.parametrize("name", [name for name in irrepro.__all__ if name != "__version__"])
def test_every_public_name_resolves_to_the_function_of_its_module(name):
    value = getattr(irrepro, name)
    assert callable(value)
    module = importlib.import_module(value.__module__)
    assert getattr(module, name) is value
    assert name in module.__all__  # the top level re-exports public names only


def test_all_and_dir_list_the_lazy_names():
    assert len(irrepro.__all__) == len(set(irrepro.__all__))
    assert set(irrepro.__all__) == {"__version__", *irrepro._LAZY}
    assert set(irrepro.__all__) <= set(dir(irrepro))
    assert {"read_run", "evaluate", "compare_runs", "effect_ratio", "rbo", "fit_two_way"} <= set(irrepro.__all__)


def test_an_unknown_name_is_an_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="no attribute 'read_runs'"):
        irrepro.read_runs  # noqa: B018


def test_type_checkers_see_the_same_names_as_the_run_time():
    """The ``if TYPE_CHECKING:`` imports name every lazy function, from the module defining it."""
    tree = ast.parse(inspect.getsource(irrepro))
    block = next(node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
    seen = {(alias.name, node.module) for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert seen == {(name, getattr(irrepro, name).__module__) for name in irrepro.__all__ if name != "__version__"}


def test_the_package_declares_its_type_hints():
    assert (ROOT / "src" / "irrepro" / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["irrepro"]
