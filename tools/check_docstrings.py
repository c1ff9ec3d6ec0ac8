"""Check the numpydoc sections of the public API's docstrings with numpydoc's own validator.

Usage: python tools/check_docstrings.py [NAME ...]   (default: every function ``irrepro`` exposes)

``make lint`` runs it. Each NAME is an import path (``irrepro.runs.read_run``); the default is the
top-level API, ``irrepro.__all__``, each name checked where it is defined. Every problem prints as
one line, ``FILE:LINE: NAME: CODE message``, and the exit status is 1 when there is any.

Only the checks of :data:`CHECKS` apply: that a docstring exists, has a one-line summary and the
numpydoc sections in order, documents every parameter (with a type and a description) and the return
value. Left out, on purpose: an extended summary (ES01), "See Also" (SA01) and "Examples" (EX01) on
every function, and the capitalisation and full stops of descriptions (PR08, PR09, RT04, RT05).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from collections.abc import Iterable

from numpydoc.validate import validate

#: numpydoc's check codes applied (numpydoc.validate.ERROR_MSGS has the text of each)
CHECKS = frozenset({
    "GL02", "GL03", "GL06", "GL07", "GL08",  # layout: quotes, blank lines, known sections in order, present
    "SS01", "SS02", "SS03", "SS05", "SS06",  # a one-line summary, capitalised, imperative, with a full stop
    "PR01", "PR02", "PR03", "PR04", "PR07", "PR10",  # every parameter: documented, in order, typed, described
    "RT01", "RT02", "RT03",  # a Returns section: the type on its own line, then a description
})  # fmt: skip


def top_level_api() -> list[str]:
    """The import path of every function ``irrepro`` exposes, in the module that defines it."""
    import irrepro

    names = [name for name in irrepro.__all__ if not name.startswith("__")]
    return [f"{getattr(irrepro, name).__module__}.{name}" for name in names]


def _resolve(path: str):
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def problems(path: str, checks: Iterable[str] = CHECKS) -> list[str]:
    """One line per failed check of the docstring of the object at import path ``path``."""
    checks = set(checks)
    result = validate(path)
    where = inspect.unwrap(_resolve(path))  # the function under validate_params' wrapper
    location = f"{inspect.getsourcefile(where)}:{inspect.getsourcelines(where)[1]}"
    lines = [f"{location}: {path}: {code} {message}" for code, message in result["errors"] if code in checks]
    return list(dict.fromkeys(lines))  # numpydoc repeats some errors (one per line of a section)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="import paths (default: the top-level API of irrepro)")
    args = parser.parse_args(argv)
    names = args.names or top_level_api()
    found = [line for name in names for line in problems(name)]
    for line in found:
        print(line)
    print(f"check_docstrings: {len(names)} docstrings, {len(found)} problems", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
