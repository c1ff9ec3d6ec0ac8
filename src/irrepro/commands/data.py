"""``irrepro data list|fetch|verify``: the public data registry on the command line.

``list`` prints a header and one tab-separated line per file: name, the start of its sha256,
whether a copy is in the cache (``yes``: present, not re-hashed, ``verify`` checks the hash) and
where it is or comes from (the cached copy's path, else its URL or the source it is mirrored from).
"""

from __future__ import annotations

import sys

__all__ = ["NAME", "HELP", "add_arguments", "run"]

NAME = "data"
HELP = "list, fetch or verify the public data files (registry in data/registry.tsv)"


def add_arguments(parser) -> None:
    """Add the options of ``irrepro data`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``data``.
    """
    parser.add_argument("action", choices=["list", "fetch", "verify"])
    parser.add_argument(
        "names", nargs="*", help="file names or prefixes (e.g. qrels/ or sigir2020/); default: all"
    )


def _selected(prefixes: list[str]) -> list[str]:
    from irrepro import data

    names = list(data.registry())
    if not prefixes:
        return names
    chosen = [name for name in names if any(name.startswith(prefix) for prefix in prefixes)]
    unknown = [prefix for prefix in prefixes if not any(name.startswith(prefix) for name in names)]
    if unknown:
        raise data.DataError(f"not in the registry: {', '.join(unknown)}")
    return chosen


def _list(names: list[str]) -> int:
    from irrepro import data

    entries, cache = data.registry(), data.cache_dir()
    print("name\tsha256\tcached\tlocation")
    cached = 0
    for name in names:
        entry, copy = entries[name], cache / name
        present = copy.is_file()
        cached += present
        where = str(copy) if present else entry.url or f"(mirror only) {entry.source}"
        print(f"{name}\t{entry.sha256[:12]}\t{'yes' if present else 'no'}\t{where}")
    print(f"{cached} of {len(names)} file(s) cached in {cache}", file=sys.stderr)
    return 0


def run(args) -> int:
    """Run ``irrepro data`` with the parsed arguments.

    Errors in the user's input raise; :func:`irrepro.cli.main` prints them as one line (exit
    status 2).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    int
        The exit status: 0, or 1 when ``verify`` finds a file missing or with a bad hash.
    """
    from irrepro import data

    names = _selected(args.names)
    if args.action == "list":
        return _list(names)
    if args.action == "fetch":
        for name in names:
            print(f"{name}\t{data.fetch(name)}")
        print(f"fetched {len(names)} files into {data.cache_dir()}")
        return 0
    status = data.verify(names)
    for name, state in status.items():
        print(f"{name}\t{state}")
    bad = [name for name, state in status.items() if state != "ok"]
    print(f"{len(status) - len(bad)} ok, {len(bad)} missing or bad (cache: {data.cache_dir()})")
    return 1 if bad else 0
