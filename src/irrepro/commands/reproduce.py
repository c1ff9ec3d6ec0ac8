"""``irrepro reproduce PAPER --out DIR``: write every table of a paper's chapter as CSV.

Each paper package in :mod:`irrepro.papers` has ``write_tables(out_dir) -> list[Path]``; the chapter
reads the same tables, so page and files never disagree. The files are written as one set through
:mod:`irrepro.outputs`: each atomically (a symlink in ``DIR`` is replaced, never followed), and
``MANIFEST.json`` last, so a folder is a complete set exactly when its manifest verifies.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from irrepro.outputs import MANIFEST

__all__ = ["NAME", "HELP", "PAPERS", "OLD_NAMES", "add_arguments", "run"]

NAME = "reproduce"
HELP = "write the tables of one paper (sigir2020, clef2019, glm) as CSV files"
#: paper name on the command line -> its package in irrepro.papers (= the key of irrepro.papers.PAPERS)
PAPERS = {"sigir2020": "sigir2020", "clef2019": "clef2019", "glm": "glm"}
#: names a user may have typed before the paper's key changed -> the paper's name now
OLD_NAMES = {"routing": "clef2019"}


def add_arguments(parser) -> None:
    """Add the options of ``irrepro reproduce`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``reproduce``.
    """
    old = ", ".join(f"{old} (the old name of {new})" for old, new in OLD_NAMES.items())
    parser.add_argument(
        "paper", choices=[*PAPERS, *OLD_NAMES], metavar="paper", help=f"one of {', '.join(PAPERS)}; also {old}"
    )
    parser.add_argument("--out", required=True, type=Path, help="folder for the CSV files")


def run(args) -> int:
    """Run ``irrepro reproduce`` with the parsed arguments.

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
    paper = OLD_NAMES.get(args.paper, args.paper)
    module = importlib.import_module(f"irrepro.papers.{PAPERS[paper]}")
    for path in module.write_tables(args.out):
        print(path)
    print(args.out / MANIFEST)  # written last: a folder with it holds a complete set (verify_table_set)
    return 0
