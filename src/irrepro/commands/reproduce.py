"""``irrepro reproduce PAPER --out DIR``: write every table of a paper's chapter as CSV.

Each paper module in :mod:`irrepro.papers` has ``write_tables(out_dir) -> list[Path]``; the chapter
reads the same tables, so page and files never disagree.
"""

from __future__ import annotations

import importlib
from pathlib import Path

NAME = "reproduce"
HELP = "write the tables of one paper (sigir2020, routing, glm) as CSV files"
PAPERS = {"sigir2020": "sigir2020", "routing": "routing", "glm": "glm"}


def add_arguments(parser) -> None:
    parser.add_argument("paper", choices=sorted(PAPERS))
    parser.add_argument("--out", required=True, type=Path, help="folder for the CSV files")


def run(args) -> int:
    module = importlib.import_module(f"irrepro.papers.{PAPERS[args.paper]}")
    args.out.mkdir(parents=True, exist_ok=True)
    for path in module.write_tables(args.out):
        print(path)
    return 0
