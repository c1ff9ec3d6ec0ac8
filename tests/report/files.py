"""Tiny TREC files for the report's tests (written by ``conftest.py``'s fixtures) and the command line.

Runs score documents by ``weight * relevance + shared + 0.3 * own noise``, rounded to two decimals
(so every run has ties): runs that share the ``shared`` noise rank alike, and a run with a larger
``weight`` is better. The pair ``good`` reproduces the original pair; in the pair ``bad`` the new
advanced run ignores relevance, so it is significantly worse than the original advanced run.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import numpy as np

TOPICS = [str(t) for t in range(301, 316)]
NEW_TOPICS = [str(t) for t in range(401, 411)]
POOL = 150


def _grades(rng, topics) -> dict[str, np.ndarray]:
    grades = {}
    for topic in topics:
        grade = np.zeros(POOL, dtype=int)
        relevant = rng.choice(POOL, 25, replace=False)
        grade[relevant] = rng.integers(1, 3, size=25)
        grades[topic] = grade
    return grades


def write_qrels(path: Path, grades: dict[str, np.ndarray], *, judged: int = 60, extra: str = "") -> Path:
    with path.open("w") as out:
        for topic, grade in grades.items():
            judged_docs = np.r_[np.flatnonzero(grade), np.flatnonzero(grade == 0)[: judged - np.count_nonzero(grade)]]
            for doc in sorted(judged_docs):
                out.write(f"{topic} 0 DOC-{doc:03d} {grade[doc]}\n")
        out.write(extra)
    return path


def write_run(path: Path, grades, shared, rng, *, weight: float, depth: int = 100, skip=()) -> Path:
    with path.open("w") as out:
        for topic, grade in grades.items():
            if topic in skip:
                continue
            scores = np.round(weight * grade + shared[topic] + 0.3 * rng.random(POOL), 2)
            top = np.argsort(-scores, kind="stable")[:depth]
            for rank, doc in enumerate(top, start=1):
                out.write(f"{topic} Q0 DOC-{doc:03d} {rank} {scores[doc]} {path.name}\n")
    return path


def _shared(rng, topics) -> dict[str, np.ndarray]:
    return {topic: rng.random(POOL) for topic in topics}


def report_args(files: dict[str, Path], out: Path, *, pairs: bool = False, reproducibility: bool = False, extra=()) -> list[str]:
    args = ["report", "--qrels", str(files["qrels"]), "--orig-baseline", str(files["orig_baseline"]),
            "--orig-advanced", str(files["orig_advanced"])]  # fmt: skip
    if reproducibility:
        args += ["--new-qrels", str(files["new_qrels"]), "--new-baseline", str(files["rpd_baseline"]), "--new-advanced", str(files["rpd_advanced"])]
    elif pairs:
        args += ["--pairs", str(files["pairs"])]
    else:
        args += ["--new-baseline", str(files["new_baseline"]), "--new-advanced", str(files["new_advanced"])]
    return [*args, "--bootstrap", "200", "--out", str(out), *extra]


class _NumberCells(HTMLParser):
    """Every element that carries ``data-stat``: its data-* attributes and its text."""

    def __init__(self):
        super().__init__()
        self.cells: list[dict] = []
        self._open: list[dict | None] = []

    def handle_starttag(self, tag, attrs):
        attributes = {k[5:]: v for k, v in attrs if k.startswith("data-")}
        cell = {**attributes, "text": ""} if "stat" in attributes else None
        if cell is not None:
            self.cells.append(cell)
        self._open.append(cell)

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for cell in self._open:
            if cell is not None:
                cell["text"] += data


def number_cells(html: str) -> list[dict]:
    """Every element of a report that carries ``data-stat``: its data-* attributes and its ``text``."""
    parser = _NumberCells()
    parser.feed(html)
    return parser.cells
