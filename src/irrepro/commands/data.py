"""``irrepro data list|fetch|verify``: the public data registry on the command line."""

from __future__ import annotations

from irrepro import data

NAME = "data"
HELP = "list, fetch or verify the public data files (registry in data/registry.tsv)"


def add_arguments(parser) -> None:
    parser.add_argument("action", choices=["list", "fetch", "verify"])
    parser.add_argument(
        "names", nargs="*", help="file names or prefixes (e.g. qrels/ or sigir2020/); default: all"
    )


def _selected(prefixes: list[str]) -> list[str]:
    names = list(data.registry())
    if not prefixes:
        return names
    chosen = [name for name in names if any(name.startswith(prefix) for prefix in prefixes)]
    unknown = [prefix for prefix in prefixes if not any(name.startswith(prefix) for name in names)]
    if unknown:
        raise data.DataError(f"not in the registry: {', '.join(unknown)}")
    return chosen


def run(args) -> int:
    names = _selected(args.names)
    if args.action == "list":
        entries = data.registry()
        for name in names:
            entry = entries[name]
            print(f"{name}\t{entry.sha256[:12]}\t{entry.url or '(mirror only) ' + entry.source}")
        return 0
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
