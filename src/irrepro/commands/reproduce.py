"""``irrepro reproduce PAPER --out DIR``: write every table of a paper's chapter as CSV.

Each paper module in :mod:`irrepro.papers` has ``write_tables(out_dir) -> list[Path]``; the chapter
reads the same tables, so page and files never disagree. The files are written as one set through
:mod:`irrepro.outputs`: each atomically (a symlink in ``DIR`` is replaced, never followed), and
``MANIFEST.json`` last, so a folder is a complete set exactly when its manifest verifies.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from irrepro.outputs import MANIFEST

__all__ = ["NAME", "HELP", "PAPERS", "add_arguments", "run"]

NAME = "reproduce"
HELP = "write the tables of one paper (sigir2020, routing, glm) as CSV files"
PAPERS = {"sigir2020": "sigir2020", "routing": "routing", "glm": "glm"}


def add_arguments(parser) -> None:
    parser.add_argument("paper", choices=sorted(PAPERS))
    parser.add_argument("--out", required=True, type=Path, help="folder for the CSV files")


def run(args) -> int:
    module = importlib.import_module(f"irrepro.papers.{PAPERS[args.paper]}")
    for path in module.write_tables(args.out):
        print(path)
    print(args.out / MANIFEST)  # written last: a folder with it holds a complete set (verify_table_set)
    return 0
