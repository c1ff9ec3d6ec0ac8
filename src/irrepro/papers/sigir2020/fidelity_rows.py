"""How closely the book reproduces each table and figure of the SIGIR 2020 paper (:mod:`irrepro.papers.fidelity`).

One :class:`~irrepro.papers.fidelity.FidelityRow` per table and figure of the paper and its online
appendix, and one for the worked examples of its Section 3.1. The compared values are counted here
from the functions the chapter shows: every printed cell of the appendix's Tables 1, 2 and 3
(:mod:`~irrepro.papers.sigir2020.appendix`), the values the text states about Table 3, Table 4 and
Figure 3 (:mod:`~irrepro.papers.sigir2020.printed_values`) and the two KTU examples
(:func:`~irrepro.papers.sigir2020.conventions.small_cases`). The main paper's printed tables and its
figures are not in the project's text copy, so the rest is computed from the authors' data but not
compared; the paper's statements about Table 2, Table 5 and Figure 3 are checked in the claims, and
their count is in the rows' notes. Cheap: reads the published files, fits nothing, runs no bootstrap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.papers import datasets
from irrepro.papers.fidelity import FidelityRow
from irrepro.papers.printed import rules_in_words
from irrepro.papers.sigir2020.appendix import PER_TOPIC_NOTE, appendix_comparison, match_counts
from irrepro.papers.sigir2020.conventions import small_cases
from irrepro.papers.sigir2020.figures import figure3_diagnosis, panel_families
from irrepro.papers.sigir2020.hypothesis import figure3_statements
from irrepro.papers.sigir2020.printed_values import text_value_counts, text_values_comparison

__all__ = ["PAPER_PDF", "fidelity", "statements_note"]

#: Where the paper's printed tables and figures are public (not in the project's text copy).
PAPER_PDF = "the paper's PDF (ACM Digital Library; arXiv:2010.13447)"
_NOT_IN_TEXT_COPY = (
    "the main paper's printed tables are not in the project's text copy (only the online appendix's Tables 1, 2 "
    "and 3 are), and its text states no value of this one"
)
_A_FIGURE = (
    "a figure: its image is not in the project's text copy and the text states no value of it; what the paper says "
    "about it is checked in the claims"
)
_RPL, _RPD, _ORG, _RPD_OLD = (
    d.label
    for d in (datasets.SIGIR2020_RPL, datasets.SIGIR2020_RPD, datasets.SIGIR2020_ORG, datasets.SIGIR2020_RPD_OLD)
)
_ITEM_STATEMENTS = {"Table 2": "table2-right", "Figure 3": "figure3", "Table 5": "table5"}
_PUBLISHED = "published, not transcribed"


#: What reproducing a printed table of the main paper takes: its transcription, from the public PDF.
_TRANSCRIBE = {
    "needs": f"transcribe its printed cells (those not yet compared) from {PAPER_PDF}; each is then compared",
    "reach": _PUBLISHED,
}
#: What reproducing a figure takes: its points read off the public figure, with a stated tolerance.
_READ_OFF = {
    "needs": f"read its plotted points off {PAPER_PDF} within a stated reading tolerance (e.g. ±0.02 on each "
    "axis); each is then compared",
    "reach": _PUBLISHED,
}


def _row(item: str, shows: str, data: str, **fields) -> FidelityRow:
    return FidelityRow("sigir2020", item, shows, data, papers_data=True, chapter="measuring_reproducibility", **fields)


def _item_statements(statements: pd.DataFrame, item: str) -> pd.DataFrame:
    return statements[statements["id"].str.startswith(f"sigir2020.{_ITEM_STATEMENTS[item]}")]


def statements_note(statements: pd.DataFrame, item: str) -> str:
    """Say how many of the paper's statements on ``item`` hold on the published files and with the earlier AP file.

    Parameters
    ----------
    statements : pandas.DataFrame
        Statements with columns ``item``, ``holds`` and ``holds old``.
    item : str
        The table or figure.

    Returns
    -------
    str
        The note.
    """
    part = _item_statements(statements, item)
    untestable = {v: int((part[column] == "cannot be tested here").sum()) for v, column in
                  (("published", "verdict"), ("earlier", "verdict old"))}  # fmt: skip
    undecided = "; ".join(f"undecided on the {v} files: {n}" for v, n in untestable.items() if n)
    return (
        f"the paper's statements on it that hold: {int(part['holds'].sum())} of {len(part)} on the published files, "
        f"{int(part['holds old'].sum())} of {len(part)} with the authors' earlier AP file of the reproduced "
        f"WCrobust0405{f' ({undecided})' if undecided else ''}"
    )


def _text_values(counts: pd.DataFrame, item: str) -> dict:
    """The compared values of an item whose printed form is not at hand: those its text states."""
    row = counts.loc[item]
    return {"cells": int(row["values"]), "matched": int(row["matched"]), "complete": False,
            "tolerance": row["tolerance"]}  # fmt: skip


def _misses(comparison: pd.DataFrame, item: str) -> str:
    """The text values of ``item`` that miss, each with its reproduced value and the rounding note, if any."""
    misses = comparison[(comparison["item"] == item) & ~comparison["match"]]
    return "; ".join(f"not matched: {m.value} (printed {m.printed}, reproduced {m.reproduced:.4f}"
                     f"{': ' + m.note if m.note else ''})" for m in misses.itertuples())  # fmt: skip


def _table_rows(statements: pd.DataFrame, counts: pd.DataFrame, comparison: pd.DataFrame) -> list[FidelityRow]:
    table4_misses = _misses(comparison, "Table 4")
    return [
        _row("Table 1", "replicability of WCrobust04 on Core17: ARP, KTU, RBO, RMSE, paired t-test p", _RPL,
             why_not=_NOT_IN_TEXT_COPY, **_TRANSCRIBE,
             note=f"KTU and RBO: means of the authors' per-topic values; {PER_TOPIC_NOTE}"),
        _row("Table 2", "ER of the printed constellation pairs: replicability (left), reproducibility (right)",
             f"{_RPL}; {_RPD}; {_ORG}", why_not=_NOT_IN_TEXT_COPY, **_TRANSCRIBE,
             note=f"DeltaRI and 95% bootstrap intervals added (not in the paper); right half: "
             f"{statements_note(statements, 'Table 2')}"),
        _row("Table 3", "reproducibility of WCrobust04 on Core18: ARP, unpaired t-test p", f"{_RPD}; {_ORG}",
             **_text_values(counts, "Table 3"), **_TRANSCRIBE,
             note=f"the value compared: the highest p-value its text states; {PER_TOPIC_NOTE}"),
        _row("Table 4", "Kendall's tau among the replicability measures (50 constellations per system)", _RPL,
             **_text_values(counts, "Table 4"), **_TRANSCRIBE,
             note="the values compared: the bounds and the one correlation its text states (Section 5.3), a bound "
             f"read strictly as worded at full precision{'; ' + table4_misses if table4_misses else ''}"),
        _row("Table 5", "Kendall's tau among the reproducibility measures (50 constellations per system)",
             f"{_RPD}; {_ORG}; {_RPD_OLD}", why_not=_NOT_IN_TEXT_COPY, **_TRANSCRIBE,
             note=f"computed on the published files and with the earlier AP file; "
             f"{statements_note(statements, 'Table 5')}"),
    ]  # fmt: skip


def _figure_rows(statements: pd.DataFrame, counts: pd.DataFrame) -> list[FidelityRow]:
    diagnosis = figure3_diagnosis()
    region2 = {v: int((diagnosis[f"region{s}"] == 2).sum()) for v, s in (("current", ""), ("old", "_old"))}
    panels = panel_families()
    return [
        _row("Figure 1", "KTU (a) and RMSE of nDCG@k (b) against the cut-off, WCrobust04", _RPL, why_not=_A_FIGURE,
             **_READ_OFF),
        _row("Figure 2", "ER against DeltaRI, replicability", _RPL, why_not=_A_FIGURE, **_READ_OFF,
             note="the paper's panels show two constellation families (the others in the online appendix); the "
             f"chapter plots all four; families fitting what the paper says of panel (a): {', '.join(panels['a'])}, "
             f"of panel (b): {', '.join(panels['b'])}"),
        _row("Figure 3", "ER against DeltaRI, reproducibility", f"{_RPD}; {_ORG}; {_RPD_OLD}",
             **_text_values(counts, "Figure 3"), reach="not published",
             needs="the per-topic files the figure was drawn from: of the earlier files only the AP file of the "
             "reproduced WCrobust0405 is published (the SIGIR chapter's Figure 3 puzzle), and its points read off "
             f"{PAPER_PDF}",
             note=f"the value compared: the points in region 4 of panel (b) its text states; drawn from the "
             f"published files and, side by side, with the earlier AP file (the only earlier reproducibility file); "
             f"AP points in region 2: {region2['current']} of {len(diagnosis)} (published), {region2['old']} "
             f"(earlier file); {statements_note(statements, 'Figure 3')}"),
    ]  # fmt: skip


def _appendix_row(number: int, counts: pd.DataFrame, data: str) -> FidelityRow:
    name = f"appendix Table {number}"
    comparison = appendix_comparison(number)
    misses = comparison[~comparison["match"]]
    note = "; ".join(
        f"{r.run} {r.cell}: {r.note or 'does not match'} (printed {r.printed}, reproduced "
        f"{r.reproduced:.6g}, difference {r.difference:+.3g})"
        for r in misses.itertuples()
    )
    if misses.empty:
        needs = "nothing: every printed cell is compared and matches"
    elif (misses["note"] != "").all():
        needs = "nothing: every printed cell is compared; the misses are misprints of the print itself"
    else:
        needs = "every printed cell is compared and the data is at hand: find why the missing cells differ"
    shows = {
        1: "replicability of WCrobust0405 on Core17",
        2: "reproducibility of WCrobust0405 on Core18",
        3: "unpaired t-test p between each replicated run (Core17) and its reproduced twin (Core18)",
    }[number]
    exact = {
        1: "; the original run's 1 and 0 exactly",
        3: "; each p-value column held to the rule its printed forms show (truncated or rounded)",
    }.get(number, "")
    return _row(
        name, shows, data, cells=int(counts.loc[name, "cells"]), matched=int(counts.loc[name, "matching"]),
        complete=True, tolerance=rules_in_words(["rounded", "truncated"]) + exact, needs=needs,
        reach="nothing missing", note=f"{note + '; ' if note else ''}{PER_TOPIC_NOTE}",
    )  # fmt: skip


def _appendix_rows() -> list[FidelityRow]:
    counts = match_counts()
    return [
        *(_appendix_row(number, counts, data)
          for number, data in ((1, _RPL), (2, f"{_RPD}; {_ORG}"), (3, f"{_RPL}; {_RPD}"))),
        _row("online appendix: further ER-DeltaRI plots", "ER against DeltaRI of the other constellation families",
             f"{_RPL}; {_RPD}; {_ORG}", why_not=_A_FIGURE, note="shown within Figures 2 and 3 of the chapter",
             needs="read its plotted points off the online appendix's PDF (appendix/appendix.pdf of "
             "irgroup/sigir2020-measure-reproducibility) within a stated reading tolerance; each is then compared",
             reach=_PUBLISHED),
    ]  # fmt: skip


def _ktu_examples_row() -> FidelityRow:
    printed = small_cases().dropna(subset=["KTU printed"])
    matched = int(np.isclose(printed["KTU"], printed["KTU printed"].astype(float), rtol=0, atol=1e-12).sum())
    return _row(
        "Section 3.1 (text): Kendall's tau Union examples", "KTU of the paper's two example rankings",
        "the paper's example rankings", kind="text", cells=len(printed), matched=matched, complete=True,
        tolerance="within 1e-12 of the stated 1 and 2/3", needs="nothing: both stated values are compared",
        reach="nothing missing",
    )  # fmt: skip


def fidelity() -> list[FidelityRow]:
    """List one row per table and figure of the paper and its online appendix (:mod:`irrepro.papers.fidelity`).

    The appendix rows carry the matching cells of :func:`~irrepro.papers.sigir2020.appendix.match_counts`;
    Table 3, Table 4 and Figure 3 those of the values the text states
    (:func:`~irrepro.papers.sigir2020.printed_values.text_value_counts`); the KTU-example row those of
    :func:`~irrepro.papers.sigir2020.conventions.small_cases`. The notes of Table 2, Table 5 and Figure
    3 say how many of the paper's statements hold on the published files and with the authors'
    earlier AP file (:func:`~irrepro.papers.sigir2020.hypothesis.figure3_statements`).

    Returns
    -------
    list of FidelityRow
        The rows.
    """
    statements, comparison = figure3_statements(), text_values_comparison()
    counts = text_value_counts(comparison)
    rows = {row.item: row for row in [*_table_rows(statements, counts, comparison), *_figure_rows(statements, counts)]}
    order = ["Table 1", "Table 2", "Table 3", "Table 4", "Table 5", "Figure 1", "Figure 2", "Figure 3"]
    return [*(rows[item] for item in order), *_appendix_rows(), _ktu_examples_row()]
