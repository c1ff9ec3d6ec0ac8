"""Check the numpydoc sections of the public API's docstrings with numpydoc's own validator.

Usage: python tools/check_docstrings.py [NAME ...]   (default: every public object of ``irrepro``)

``make lint`` runs it. The public surface is every function and class named in the ``__all__`` of
a module under ``irrepro`` (private modules too: ``routing.corpora._common`` is re-exported by
its package), each checked once, in the module that defines it: a name a module re-exports from
another is skipped there. A class is checked with its public methods and properties, because they
are part of what a user calls (``Comparison.to_frame``); its ``__init__`` parameters are checked
in the class docstring, where numpydoc documents them. A method without a docstring of its own
that overrides a documented method of a base class is skipped: it keeps the base's contract, and
the API pages show the base's docstring for it (autodoc inherits docstrings). A NAME is an import
path, of an object (``irrepro.runs.read_run``) or of a module or package (``irrepro.runs``: its
public objects, those of its submodules too).

Every problem prints as one line, ``FILE:LINE: NAME: CODE message``, and the exit status is 1
when there is any. Modules of :data:`NOT_YET_CONVERTED` are left out of the default run (their
count is printed, so nothing is hidden); naming one on the command line checks it. Only the checks of :data:`CHECKS` apply: that a docstring exists,
has a one-line summary and the numpydoc sections in order, documents every parameter (with a type
and a description) and the return value. Left out, on purpose: an extended summary (ES01), "See
Also" (SA01) and "Examples" (EX01) on every function, and the capitalisation and full stops of
descriptions (PR08, PR09, RT04, RT05).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import os
import pkgutil
import sys
import time
from collections.abc import Iterable, Iterator

from numpydoc.validate import validate

#: numpydoc's check codes applied (numpydoc.validate.ERROR_MSGS has the text of each)
CHECKS = frozenset({
    "GL02", "GL03", "GL06", "GL07", "GL08",  # layout: quotes, blank lines, known sections in order, present
    "SS01", "SS02", "SS03", "SS05", "SS06",  # a one-line summary, capitalised, imperative, with a full stop
    "PR01", "PR02", "PR03", "PR04", "PR07", "PR10",  # every parameter: documented, in order, typed, described
    "RT01", "RT02", "RT03",  # a Returns section: the type on its own line, then a description
})  # fmt: skip

# Modules whose docstrings are still free-form, to be written in numpydoc form and then removed
# from here: the default run skips them and prints how many are left. Empty: every public module
# is converted; a module added later starts here only while its docstrings are being written.
NOT_YET_CONVERTED: frozenset[str] = frozenset()

_MEMBER_TYPES = (property, functools.cached_property, classmethod, staticmethod)


def modules(package: str = "irrepro") -> list[str]:
    """The import path of ``package`` and of every module under it, sorted (``__main__`` left out)."""
    found = [package]
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(getattr(root, "__path__", []), prefix=f"{package}."):
        if info.name.rpartition(".")[2] != "__main__":  # importing it would run the command line
            found.append(info.name)
    return sorted(found)


def _defined_here(module, name: str):
    """The function or class ``module.name`` if ``module`` defines it, else None (a re-export, a constant)."""
    value = getattr(module, name, None)
    if not (inspect.isfunction(value) or inspect.isclass(value)):
        return None
    return value if inspect.unwrap(value).__module__ == module.__name__ else None


def _inherits_a_docstring(cls: type, name: str, member) -> bool:
    """Whether ``cls.name`` has no docstring of its own and overrides a documented base member."""
    if getattr(_function_of(member), "__doc__", None):
        return False
    return any(getattr(_function_of(vars(base).get(name)), "__doc__", None) for base in cls.__mro__[1:])


def _function_of(member):
    """The function holding a class member's docstring (a property's getter, a classmethod's function)."""
    if isinstance(member, property):
        return member.fget
    if isinstance(member, functools.cached_property):
        return member.func
    return getattr(member, "__func__", member)


def methods(cls: type) -> list[str]:
    """The public methods and properties ``cls`` defines itself, by name, in source order."""
    return [
        name for name, member in vars(cls).items()
        if not name.startswith("_")
        and (inspect.isfunction(member) or isinstance(member, _MEMBER_TYPES))
        and not _inherits_a_docstring(cls, name, member)
    ]  # fmt: skip


def public_objects(package: str = "irrepro") -> list[str]:
    """The import path of every public function, class and method under ``package``, each once."""
    paths: list[str] = []
    for module_name in modules(package):
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            value = _defined_here(module, name)
            if value is None:
                continue
            paths.append(f"{module_name}.{name}")
            if inspect.isclass(value):
                paths += [f"{module_name}.{name}.{method}" for method in methods(value)]
    return paths


def _module_of(path: str) -> str:
    """The module part of an import path from :func:`public_objects`: its longest imported prefix."""
    parts = path.split(".")
    while len(parts) > 1 and not inspect.ismodule(sys.modules.get(".".join(parts))):
        parts.pop()
    return ".".join(parts)


def checked_objects(package: str = "irrepro") -> tuple[list[str], list[str]]:
    """The public objects the default run checks, and those it leaves for :data:`NOT_YET_CONVERTED`."""
    paths = public_objects(package)
    left = [path for path in paths if _module_of(path) in NOT_YET_CONVERTED]
    return [path for path in paths if _module_of(path) not in NOT_YET_CONVERTED], left


def _expand(names: Iterable[str]) -> Iterator[str]:
    """Each name, or a module's public objects for a module's name."""
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            yield name
        else:
            yield from public_objects(name)


def _where(result: dict) -> str:
    """``FILE:LINE`` of a validated object, the file relative to the working directory when under it."""
    path = result["file"] or "?"
    if path != "?" and os.path.abspath(path).startswith(os.getcwd() + os.sep):
        path = os.path.relpath(path)
    return f"{path}:{result['file_line'] or 1}"


def problems(path: str, checks: Iterable[str] = CHECKS) -> list[str]:
    """One line per failed check of the docstring of the object at import path ``path``."""
    checks = set(checks)
    result = validate(path)
    where = _where(result)
    lines = [f"{where}: {path}: {code} {message}" for code, message in result["errors"] if code in checks]
    return list(dict.fromkeys(lines))  # numpydoc repeats some errors (one per line of a section)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="import paths of objects or modules (default: irrepro)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    left: list[str] = []
    if args.names:
        names = list(_expand(args.names))
    else:
        names, left = checked_objects()
    found = [line for name in names for line in problems(name)]
    for line in found:
        print(line)
    seconds = time.perf_counter() - start
    print(f"check_docstrings: {len(names)} docstrings, {len(found)} problems ({seconds:.1f} s)", file=sys.stderr)
    if left:
        modules_left = {_module_of(path) for path in left}
        print(f"check_docstrings: {len(modules_left)} modules ({len(left)} docstrings) NOT_YET_CONVERTED, unchecked",
              file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
