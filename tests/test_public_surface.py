"""The package's public surface says what it is (issue #17): every module lists its public
functions and classes in ``__all__``, ``__all__`` names only what exists, and no module imports a
private (underscored) name from another module of the package: what is shared is promoted."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "irrepro"
MODULES = sorted(path for path in PACKAGE.rglob("*.py") if path.name != "__main__.py")


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def _declared_all(tree: ast.Module, path: Path) -> list[str] | None:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            try:
                return list(ast.literal_eval(node.value))
            except ValueError:  # built from other lists: ask the module itself
                parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
                module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                return list(importlib.import_module(module).__all__)
    return None


def _defined(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                elements = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
                names |= {element.id for element in elements if isinstance(element, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def _public_functions_and_classes(tree: ast.Module) -> list[str]:
    return [
        node.name for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and not node.name.startswith("_")
    ]


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_public_functions_and_classes_are_listed_in_all(path):
    tree = ast.parse(path.read_text())
    public = _public_functions_and_classes(tree)
    declared = _declared_all(tree, path)
    if not public:
        return
    assert declared is not None, f"{_name(path)}: public {public[:5]} but no __all__"
    missing = [name for name in public if name not in declared]
    assert not missing, f"{_name(path)}: public but not in __all__ (list them or make them private): {missing}"
    unknown = [name for name in declared if name not in _defined(tree)]
    assert not unknown, f"{_name(path)}: __all__ names what the module does not define: {unknown}"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_private_name_is_imported_from_another_module(path):
    tree = ast.parse(path.read_text())
    private = [
        f"line {node.lineno}: {alias.name} from {node.module or '.'}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and ((node.module or "").startswith("irrepro") or node.level)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert not private, f"{_name(path)} imports private names (promote them): {private}"


# --------------------------------------------------------------------------- arguments a swap would change (issue #23.7)

#: Parameters that name a run's role: of one type, so a swap would go unnoticed and change the result.
RUN_ROLES = {"orig_baseline", "orig_advanced", "new_baseline", "new_advanced", "baseline", "advanced"}


def _public_functions():
    import inspect
    import pkgutil

    import irrepro

    seen = {}
    for info in pkgutil.walk_packages(irrepro.__path__, "irrepro."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            function = getattr(module, name, None)
            if inspect.isfunction(function):
                seen[f"{function.__module__}.{function.__qualname__}"] = function
    return seen


def test_arguments_a_swap_would_change_are_keyword_only():
    """Runs by role (ER, DeltaRI, RI, their intervals, compare_runs ...) and the mean difference's sides
    are keyword-only, as scikit-learn makes its options; symmetric pairs (RMSE, KTU, RBO, t-tests) stay positional."""
    import inspect

    functions = _public_functions()
    positional = [
        f"{name}({parameter.name})"
        for name, function in functions.items()
        for parameter in inspect.signature(function).parameters.values()
        if parameter.name in RUN_ROLES and parameter.kind is not parameter.KEYWORD_ONLY
    ]
    assert positional == []
    for name in ("irrepro.reproducibility.compare.compare_runs", "irrepro.reproducibility.scores.effect_ratio",
                 "irrepro.reproducibility.bootstrap.bootstrap_effect_ratio", "irrepro.reproducibility.bootstrap.bootstrap_mean_difference"):  # fmt: skip
        parameters = inspect.signature(functions[name]).parameters.values()
        assert all(p.kind is p.KEYWORD_ONLY for p in parameters), name


def test_a_positional_call_is_refused_and_a_keyword_call_in_any_order_agrees():
    import pandas as pd

    from irrepro.reproducibility.scores import delta_relative_improvement, effect_ratio

    better, worse = pd.Series([0.5, 0.7, 0.6]), pd.Series([0.3, 0.5, 0.2])
    with pytest.raises(TypeError):
        effect_ratio(better, worse, better, worse, paired=True)
    with pytest.raises(TypeError):
        delta_relative_improvement(better, worse, better, worse)
    roles = {"orig_baseline": worse, "orig_advanced": better, "new_baseline": worse * 1.1, "new_advanced": better}
    assert effect_ratio(**roles, paired=True) == effect_ratio(**dict(reversed(list(roles.items()))), paired=True)
