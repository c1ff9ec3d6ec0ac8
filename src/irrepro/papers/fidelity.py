"""How closely the book reproduces each table and figure of the three papers: the fidelity protocol.

Every paper module has a function ``fidelity()`` returning one :class:`FidelityRow` per table and
figure of its paper (and per result the paper states only in its text, when a chapter computes
it): the data the book used, whether the item is reproduced, whether the paper's printed values are
shown beside the reproduced ones (and why not), and, where printed cells are compared, how many
match, computed by the build. :func:`fidelity_table` collects the rows of all papers; the intro
shows it. A module's ``fidelity()`` must be cheap: no routing run, no model fit.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass

import pandas as pd

from irrepro.papers import PAPERS

__all__ = ["REPRODUCED", "FidelityRow", "fidelity_counts", "fidelity_table", "for_page"]

#: "yes": on the paper's data (or its published per-topic scores); "partly": on other data (a
#: stand-in, substitute runs) or only some of its cells; "no": not reproduced.
REPRODUCED: tuple[str, ...] = ("yes", "partly", "no")


@dataclass(frozen=True)
class FidelityRow:
    """One table or figure of a paper and how the book reproduces it."""

    paper: str
    item: str  # as the paper names it: "Table 1", "Figure 3", "appendix Table 2", "Section 4.2 (text)"
    shows: str  # what the item shows, briefly
    data: str  # the data the book used for it
    reproduced: str  # one of REPRODUCED
    printed_shown: bool  # are the paper's printed values shown beside the reproduced ones?
    why_not: str = ""  # why the printed values are not shown (required when they are not)
    cells: int | None = None  # printed cells compared with reproduced ones
    matched: int | None = None  # of those, how many match (computed by the build)
    chapter: str = ""  # the chapter showing it
    note: str = ""

    def __post_init__(self):
        where = f"{self.paper} {self.item}"
        if self.paper not in PAPERS:
            raise ValueError(f"{where}: unknown paper; known: {', '.join(PAPERS)}")
        if self.reproduced not in REPRODUCED:
            raise ValueError(f"{where}: reproduced={self.reproduced!r}, expected one of {', '.join(REPRODUCED)}")
        if not self.printed_shown and not self.why_not.strip():
            raise ValueError(f"{where}: the printed values are not shown; say why (why_not)")
        if (self.cells is None) != (self.matched is None):
            raise ValueError(f"{where}: give both cells and matched, or neither")
        if self.cells is not None and not 0 <= self.matched <= self.cells:
            raise ValueError(f"{where}: matched={self.matched} is not between 0 and cells={self.cells}")


def _rows_as_table(rows: list[FidelityRow]) -> pd.DataFrame:
    table = pd.DataFrame([asdict(row) for row in rows], columns=list(FidelityRow.__dataclass_fields__))
    return table.astype({"cells": "Int64", "matched": "Int64", "printed_shown": bool})


def fidelity_table(papers: tuple[str, ...] | None = None) -> pd.DataFrame:
    """The fidelity rows of ``papers`` (default: all, in :data:`irrepro.papers.PAPERS` order)."""
    papers = tuple(PAPERS) if papers is None else papers
    unknown = [paper for paper in papers if paper not in PAPERS]
    if unknown:
        raise ValueError(f"unknown paper(s) {', '.join(unknown)}; known: {', '.join(PAPERS)}")
    rows: list[FidelityRow] = []
    for paper in papers:
        module = importlib.import_module(f"irrepro.papers.{paper}")  # the paper modules import this one
        for row in module.fidelity():
            if row.paper != paper:
                raise ValueError(f"irrepro.papers.{paper}.fidelity() returned a row of {row.paper!r}")
            rows.append(row)
    return _rows_as_table(rows)


def for_page(table: pd.DataFrame, paper: str, *, item_notes: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """The rows of ``paper`` in ``table`` (from :func:`fidelity_table`) as the intro prints them.

    Returns the frame (index ``item``; columns ``what it shows``, ``data used``, ``reproduced``,
    ``printed values``, ``cells matched``) and the notes to print under it. The data used and the
    reasons why printed values are not shown repeat across items, so the frame names them by a
    letter (data) and a number (reason) that the notes spell out, as a journal's table footnotes do.
    With ``item_notes``, each row's own note follows (a chapter shows them; the intro does not).
    """
    rows = table[table["paper"] == paper]
    if rows.empty:
        raise ValueError(f"no fidelity rows of paper {paper!r}; papers: {', '.join(table['paper'].unique())}")
    data_keys = {text: "abcdefghijklmnopqrstuvwxyz"[i] for i, text in enumerate(dict.fromkeys(rows["data"]))}
    reasons = list(dict.fromkeys(rows.loc[~rows["printed_shown"], "why_not"]))
    reason_keys = {text: str(i + 1) for i, text in enumerate(reasons)}
    printed = [
        "shown" if shown else f"not shown ({reason_keys[why]})"
        for shown, why in zip(rows["printed_shown"], rows["why_not"], strict=True)
    ]
    matched = [
        "" if pd.isna(cells) else f"{matched} of {cells}"
        for cells, matched in zip(rows["cells"], rows["matched"], strict=True)
    ]
    frame = pd.DataFrame({
        "item": rows["item"].to_numpy(),
        "what it shows": rows["shows"].to_numpy(),
        "data used": rows["data"].map(data_keys).to_numpy(),  # not "data": show() would take it for the caption
        "reproduced": rows["reproduced"].to_numpy(),
        "printed values": printed,
        "cells matched": matched,
    }).set_index("item")
    notes = [f"Data ({key}): {text}." for text, key in data_keys.items()]
    notes += [f"Not shown ({key}): {text}." for text, key in reason_keys.items()]
    if item_notes:
        notes += [f"{item}: {note}." for item, note in zip(rows["item"], rows["note"], strict=True) if note]
    return frame, notes


def fidelity_counts(table: pd.DataFrame) -> dict[str, int]:
    """Counts the intro's sentence quotes: items, items per :data:`REPRODUCED` value, printed shown, cells."""
    counts = {"items": len(table), "printed_shown": int(table["printed_shown"].sum())}
    for value in REPRODUCED:
        counts[f"reproduced_{value}"] = int((table["reproduced"] == value).sum())
    compared = table.dropna(subset=["cells"])
    counts["compared_items"] = len(compared)
    counts["cells"] = int(compared["cells"].sum())
    counts["matched"] = int(compared["matched"].sum())
    return counts
