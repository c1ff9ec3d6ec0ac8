"""``irrepro metadata show|annotate|group``: the ir_metadata headers of run files (:mod:`irrepro.metadata`).

::

    irrepro metadata show RUN                          # the header as YAML (--format json)
    irrepro metadata annotate RUN --from fields.yaml   # write the fields into RUN's header (or --out FILE)
    irrepro metadata group FOLDER --reference RUN      # the folder's runs by PRIMAD string against RUN (--glob '*.run')

``show`` exits with 1 when the run has no header. ``annotate`` checks the run and the fields first,
keeps a header the run has (the file's fields laid over it) and the run lines as they are.
``group`` reads only the headers, groups the folder's files as repro_eval's
``MetadataAnalyzer.analyze_directory`` does (one upper-case letter per PRIMAD component that differs
from the reference's), and names the kind of experiment each group is (:func:`irrepro.metadata.experiment_kind`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from irrepro.commands._common import InputError, dump_json, input_path, read_input

__all__ = ["NAME", "HELP", "add_arguments", "run"]

NAME = "metadata"
HELP = "show, write and compare the ir_metadata (PRIMAD) headers of run files"


def add_arguments(parser) -> None:
    """Add the options of ``irrepro metadata`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``metadata``.
    """
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="print a run's ir_metadata header")
    show.add_argument("run", type=input_path, metavar="RUN")
    show.add_argument("--format", choices=("yaml", "json"), default="yaml", help="output format (default yaml)")
    annotate = actions.add_parser("annotate", help="write ir_metadata fields from a YAML file into a run's header")
    annotate.add_argument("run", type=input_path, metavar="RUN")
    annotate.add_argument("--from", dest="fields", required=True, type=input_path, metavar="YAML",
                          help="YAML file of ir_metadata fields (laid over a header the run has)")
    annotate.add_argument("--out", type=Path, help="write the annotated run here (default: RUN itself, replaced)")
    group = actions.add_parser("group", help="a folder's runs grouped by PRIMAD string against a reference run")
    group.add_argument("folder", type=Path, metavar="FOLDER")
    group.add_argument("--reference", required=True, type=input_path, metavar="RUN", help="the reference run")
    group.add_argument("--glob", default="*", metavar="PATTERN",
                       help="the folder's files to group, e.g. '*.run' (default: every file)")
    group.add_argument("--format", choices=("table", "json"), default="table", help="output format (default table)")


def _show(args) -> int:
    from irrepro.metadata import yaml_text
    from irrepro.runs import read_metadata

    header = read_input(read_metadata, args.run, "RUN")
    if header is None:
        print(f"irrepro metadata: {args.run}: no ir_metadata header", file=sys.stderr)
        return 1
    print(dump_json(header.to_dict()) if args.format == "json" else yaml_text(header), end="" if args.format == "yaml" else "\n")
    return 0


def _annotate(args) -> int:
    from irrepro.runs import annotate_run, read_metadata_file

    fields = read_input(read_metadata_file, args.fields, "--from")
    if args.out is None and args.run == "-":
        raise InputError("annotate: give --out to annotate a run read from standard input")
    header = read_input(lambda path: annotate_run(path, fields, out=args.out), args.run, "RUN")
    print(f"irrepro metadata: wrote {args.out or args.run} with a header of {len(header)} fields", file=sys.stderr)
    return 0


def _headers(folder: Path, reference: Path | str, pattern: str) -> dict:
    """Each regular file of ``folder`` matching ``pattern`` (sorted; the reference left out) -> its
    header or ``None``."""
    from irrepro.runs import read_metadata

    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder")
    skip = Path(reference).resolve() if reference != "-" else None
    files = sorted(path for path in folder.glob(pattern) if path.is_file() and path.resolve() != skip)
    return {str(path): read_input(read_metadata, path, "FOLDER") for path in files}


def _group(args) -> int:
    from irrepro.metadata import experiment_kind, group_by_primad, missing_components, same_test_collection
    from irrepro.runs import read_metadata

    reference = read_input(read_metadata, args.reference, "--reference")
    if reference is None or missing_components(reference):
        lacking = "no ir_metadata header" if reference is None else f"a header without {', '.join(missing_components(reference))}"
        raise InputError(f"--reference {args.reference}: {lacking}; a PRIMAD string needs all six components")
    headers = _headers(args.folder, args.reference, args.glob)
    groups = group_by_primad(reference, headers)
    rows = []
    for key, names in groups.items():
        kinds = sorted({experiment_kind(key, same_collection=same_test_collection(reference, headers[name]) or None).name
                        for name in names}) if key.lower() == "primad" else []
        rows.append({"primad": key, "kinds": kinds, "runs": names})
    if args.format == "json":
        print(dump_json({"reference": str(args.reference), "folder": str(args.folder), "groups": rows}))
        return 0
    lines = [f"reference {args.reference}"]
    for row in rows:
        kind = f" ({', '.join(row['kinds'])})" if row["kinds"] else ""
        lines.append(f"{row['primad']}{kind}: {len(row['runs'])} run(s)")
        lines += [f"  {name}" for name in row["runs"]]
    print("\n".join(lines))
    return 0


def run(args) -> int:
    """Run ``irrepro metadata`` with the parsed arguments.

    Errors in the user's input raise; :func:`irrepro.cli.main` prints them as one line (exit
    status 2).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    int
        The exit status: 0 on success.
    """
    return {"show": _show, "annotate": _annotate, "group": _group}[args.action](args)
