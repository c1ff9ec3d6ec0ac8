"""The package outside the lock: pyproject.toml declares what the code imports, and one version.

CI installs from requirements.txt, which pins far more than irrepro needs, so a module imported by
the package but missing from ``[project.dependencies]`` would go unnoticed there and break a plain
``pip install irrepro``. Here every import statement is read (ast), its top-level module mapped to
the distribution that provides it (``importlib.metadata.packages_distributions()``), and checked
against the declared requirements, extras expanded (``dask[distributed]`` brings ``distributed``).
``tools/check_wheel.sh`` (run by ``.ci/run``) installs the wheel alone and runs the commands.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
FIRST_PARTY = {"irrepro", "tests", "_ext"}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _covered(requirements: list[str]) -> set[str]:
    """The distributions the requirements install by name, with those their extras bring."""
    names = set()
    for text in requirements:
        requirement = Requirement(text)
        names.add(_normal(requirement.name))
        for extra in requirement.extras:
            for dependency in map(Requirement, metadata.requires(requirement.name) or []):
                if dependency.marker is not None and dependency.marker.evaluate({"extra": extra}):
                    names.add(_normal(dependency.name))
    return names


def _guarded(node: ast.AST, parents: dict) -> bool:
    """Is the import inside ``try: ... except ImportError`` (an optional module)?"""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Try):
            caught = [ast.unparse(handler.type) for handler in node.handlers if handler.type is not None]
            if any("ImportError" in text or "ModuleNotFoundError" in text for text in caught):
                return True
    return False


def _imports(paths) -> dict[str, list[tuple[str, bool, bool]]]:
    """Third-party top-level module -> [(file, at module level, guarded)] for every import of it."""
    found: dict[str, list[tuple[str, bool, bool]]] = {}
    local = {path.stem for path in paths}  # scripts importing their neighbours (tools/, benchmarks/)
    # and the packages beside the scripts (benchmarks/perf, which its tests import from there)
    local |= {init.parent.name for init in (ROOT / "benchmarks").glob("*/__init__.py")}
    local |= {path.stem for path in (ROOT / "_ext").glob("*.py")}  # the book's extensions (tools/build_book.py)
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or top in FIRST_PARTY or top in local or top == "__future__":
                    continue
                found.setdefault(top, []).append((str(path.relative_to(ROOT)), parents[node] is tree, _guarded(node, parents)))
    return found


@functools.cache
def _providers() -> dict[str, list[str]]:
    return metadata.packages_distributions()  # scans every installed distribution: once


def _distributions(module: str) -> set[str]:
    provided = _providers().get(module)
    assert provided, f"no installed distribution provides the module {module!r}"
    return {_normal(name) for name in provided}


def _python_files(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))] if folders else []


def test_every_module_the_package_imports_is_a_declared_dependency():
    """A module imported by ``src/irrepro`` is in ``[project.dependencies]``, or optional: imported
    under ``except ImportError``, or only inside a function and listed in the ``book`` extra (the
    notebook-only helpers of ``irrepro.plots``)."""
    declared = _covered(PROJECT["dependencies"])
    book = _covered(PROJECT["optional-dependencies"]["book"])
    missing = []
    for module, places in _imports(_python_files("src/irrepro")).items():
        required = [(file, top_level) for file, top_level, guarded in places if not guarded]
        if not required or _distributions(module) & declared:
            continue
        if _distributions(module) & book and not any(top_level for _, top_level in required):
            continue
        missing.append(f"{module} ({', '.join(sorted({file for file, _ in required}))})")
    assert not missing, "imported by the package but not in [project.dependencies]: " + "; ".join(missing)


@pytest.mark.parametrize("extra", ["test", "book"])
def test_the_extras_cover_what_the_tests_tools_and_book_import(extra):
    """``pip install irrepro[test]`` runs the tests; ``irrepro[book]`` builds and checks the book."""
    folders = {"test": ("tests", "tools"), "book": ("_ext", "tools")}[extra]
    available = _covered(PROJECT["dependencies"]) | _covered(PROJECT["optional-dependencies"][extra])
    missing = sorted(
        f"{module} ({places[0][0]})"
        for module, places in _imports(_python_files(*folders)).items()
        if not all(guarded for _, _, guarded in places) and not _distributions(module) & available
    )
    if extra == "book":  # extensions named in _config.yml and the kernel the pages run in
        config = (ROOT / "_config.yml").read_text()
        for extension in re.findall(r"^\s*-\s*(sphinx_\w+)", config, flags=re.MULTILINE):
            if not _distributions(extension) & available:
                missing.append(f"{extension} (_config.yml)")
        missing += [name for name in ("jupyter-book", "ipykernel", "django-static-mathjax") if name not in available]
    assert not missing, f"not in [project.optional-dependencies] {extra}: " + "; ".join(missing)


def test_one_version_everywhere(capsys):
    """``irrepro.version.__version__`` is the one place: the package's face hands it on, the
    wheel's metadata reads it, the CLI prints it (and the book's footer, tests/ext/test_book_extensions.py)."""
    import irrepro
    import irrepro.version
    from irrepro.cli import main

    assert "version" in PROJECT["dynamic"] and "version" not in PROJECT
    setuptools_config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools_config["dynamic"]["version"] == {"attr": "irrepro.version.__version__"}
    assert irrepro.__version__ is irrepro.version.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", irrepro.__version__)
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"irrepro {irrepro.__version__}\n"


def test_the_licence_is_declared_the_way_the_build_backend_reads_it():
    """``license = "MIT"`` (an SPDX expression, PEP 639) needs setuptools >= 77 to build."""
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    [setuptools] = [Requirement(text) for text in build["requires"] if Requirement(text).name == "setuptools"]
    assert PROJECT["license"] == "MIT" and not setuptools.specifier.contains("76.9")
    assert setuptools.specifier.contains("77.0")
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 The irrepro contributors")
    assert PROJECT["license-files"] == ["LICENSE"]


def test_the_data_registry_ships_inside_the_package():
    """``irrepro data`` and the Reuters stand-in read the registry: an installed wheel must have it,
    the same bytes as ``data/registry.tsv`` (in the repository, a link to it)."""
    from importlib import resources

    from irrepro import data

    packaged = resources.files("irrepro").joinpath("registry.tsv")
    assert packaged.is_file() and packaged.read_bytes() == (ROOT / "data" / "registry.tsv").read_bytes()
    assert data._registry_path().resolve() == (ROOT / "data" / "registry.tsv").resolve()


def test_ci_runs_the_wheel_alone_check():
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^tools/check_wheel\.sh$", ci, flags=re.MULTILINE)
    script = ROOT / "tools" / "check_wheel.sh"
    assert script.stat().st_mode & 0o111  # executable, as .ci/run calls it
    for command in ("--version", "--help", " evaluate ", " compare ", " report ", "routing run"):
        assert command in script.read_text(), command


def test_the_changelog_has_a_section_for_this_version():
    import irrepro

    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(irrepro.__version__)}\]", changelog, flags=re.MULTILINE)
