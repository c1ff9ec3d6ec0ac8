"""How closely the book reproduces each table and figure of the SIGIR 2020 paper (:mod:`irrepro.papers.fidelity`).

One :class:`~irrepro.papers.fidelity.FidelityRow` per table and figure of the paper and its online
appendix. Every count in a row (matching cells, statements that hold, points per region) is computed
here from the same functions the chapter shows. Cheap: reads the published files, fits nothing, runs
no bootstrap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.papers import datasets
from irrepro.papers.fidelity import FidelityRow
from irrepro.papers.sigir2020.appendix import PER_TOPIC_NOTE, appendix_comparison, match_counts
from irrepro.papers.sigir2020.conventions import small_cases
from irrepro.papers.sigir2020.figures import figure3_diagnosis, panel_families
from irrepro.papers.sigir2020.hypothesis import figure3_statements

__all__ = ["fidelity", "statements_note"]

_NOT_IN_PUBLIC_TEXT = (
    "the main paper's printed tables are not in any public text (only the online appendix's Tables 1 and 2 are)"
)
_NO_TABLE5_VALUES = (
    "the paper's text states no Table 5 value and its printed table is not in any public text (only the online "
    "appendix's Tables 1 and 2 are)"
)
_A_FIGURE = "a figure: no printed values; what the paper says about it is checked in the claims"
_RPL, _RPD, _ORG, _RPD_OLD = (
    d.label
    for d in (datasets.SIGIR2020_RPL, datasets.SIGIR2020_RPD, datasets.SIGIR2020_ORG, datasets.SIGIR2020_RPD_OLD)
)
_ITEM_STATEMENTS = {"Table 2": "table2-right", "Figure 3": "figure3", "Table 5": "table5"}


def _row(item: str, shows: str, data: str, **fields) -> FidelityRow:
    fields.setdefault("reproduced", "yes")
    fields.setdefault("printed_shown", False)
    return FidelityRow("sigir2020", item, shows, data, chapter="measuring_reproducibility", **fields)


def _item_statements(statements: pd.DataFrame, item: str) -> pd.DataFrame:
    return statements[statements["id"].str.startswith(f"sigir2020.{_ITEM_STATEMENTS[item]}")]


def statements_note(statements: pd.DataFrame, item: str) -> str:
    """How many of the paper's statements on ``item`` hold on the published files and with the earlier AP file."""
    part = _item_statements(statements, item)
    untestable = {v: int((part[column] == "cannot be tested here").sum()) for v, column in
                  (("published", "verdict"), ("earlier", "verdict old"))}  # fmt: skip
    undecided = "; ".join(f"undecided on the {v} files: {n}" for v, n in untestable.items() if n)
    return (
        f"the paper's statements on it that hold: {int(part['holds'].sum())} of {len(part)} on the published files, "
        f"{int(part['holds old'].sum())} of {len(part)} with the authors' earlier AP file of the reproduced "
        f"WCrobust0405{f' ({undecided})' if undecided else ''}"
    )


def _reproduced(statements: pd.DataFrame, item: str) -> str:
    """"yes" when every statement of the paper on ``item`` holds on the published files, else "partly"."""
    return "yes" if _item_statements(statements, item)["holds"].all() else "partly"


def _effect_rows(statements: pd.DataFrame) -> list[FidelityRow]:
    diagnosis = figure3_diagnosis()
    region2 = {v: int((diagnosis[f"region{s}"] == 2).sum()) for v, s in (("current", ""), ("old", "_old"))}
    panels = panel_families()
    return [
        _row("Table 2", "ER of the printed constellation pairs: replicability (left), reproducibility (right)",
             f"{_RPL}; {_RPD}; {_ORG}", reproduced=_reproduced(statements, "Table 2"), why_not=_NOT_IN_PUBLIC_TEXT,
             note=f"DeltaRI and 95% bootstrap intervals added (not in the paper); right half: "
             f"{statements_note(statements, 'Table 2')}"),
        _row("Figure 2", "ER against DeltaRI, replicability", _RPL, why_not=_A_FIGURE,
             note="the paper's panels show two constellation families (the others in the online appendix); the "
             f"chapter plots all four; families fitting what the paper says of panel (a): {', '.join(panels['a'])}, "
             f"of panel (b): {', '.join(panels['b'])}"),
        _row("Figure 3", "ER against DeltaRI, reproducibility", f"{_RPD}; {_ORG}; {_RPD_OLD}",
             reproduced=_reproduced(statements, "Figure 3"), why_not=_A_FIGURE,
             note=f"drawn from the published files and, side by side, with the earlier AP file (the only earlier "
             f"reproducibility file); AP points in region 2: {region2['current']} of {len(diagnosis)} (published), "
             f"{region2['old']} (earlier file); {statements_note(statements, 'Figure 3')}"),
    ]  # fmt: skip


def _table_rows(statements: pd.DataFrame) -> list[FidelityRow]:
    return [
        _row("Table 1", "replicability of WCrobust04 on Core17: ARP, KTU, RBO, RMSE, paired t-test p", _RPL,
             why_not=_NOT_IN_PUBLIC_TEXT,
             note=f"KTU and RBO: means of the authors' per-topic values; {PER_TOPIC_NOTE}"),
        _row("Table 3", "reproducibility of WCrobust04 on Core18: ARP, unpaired t-test p", f"{_RPD}; {_ORG}",
             why_not=_NOT_IN_PUBLIC_TEXT, note=PER_TOPIC_NOTE),
        _row("Table 4", "Kendall's tau among the replicability measures (50 constellations per system)", _RPL,
             why_not=_NOT_IN_PUBLIC_TEXT),
        _row("Table 5", "Kendall's tau among the reproducibility measures (50 constellations per system)",
             f"{_RPD}; {_ORG}; {_RPD_OLD}", reproduced=_reproduced(statements, "Table 5"), why_not=_NO_TABLE5_VALUES,
             note="computed on the published files and with the earlier AP file; "
             f"{statements_note(statements, 'Table 5')}"),
        _row("Figure 1", "KTU (a) and RMSE of nDCG@k (b) against the cut-off, WCrobust04", _RPL, why_not=_A_FIGURE),
    ]  # fmt: skip


def _appendix_row(number: int, counts: pd.DataFrame, data: str) -> FidelityRow:
    name = f"appendix Table {number}"
    comparison = appendix_comparison(number)
    misses = comparison[~comparison["match"]]
    note = "; ".join(f"{r.run} {r.cell}: {r.note or 'does not match'}" for r in misses.itertuples())
    shows = {1: "replicability of WCrobust0405 on Core17", 2: "reproducibility of WCrobust0405 on Core18"}[number]
    return FidelityRow(
        "sigir2020", name, shows, data, reproduced="yes", printed_shown=True,
        cells=int(counts.loc[name, "cells"]), matched=int(counts.loc[name, "matching"]),
        chapter="measuring_reproducibility", note=f"{note + '; ' if note else ''}{PER_TOPIC_NOTE}",
    )  # fmt: skip


def _ktu_examples_row() -> FidelityRow:
    printed = small_cases().dropna(subset=["KTU printed"])
    matched = int(np.isclose(printed["KTU"], printed["KTU printed"].astype(float), rtol=0, atol=1e-12).sum())
    return FidelityRow(
        "sigir2020", "Section 3.1 (text): Kendall's tau Union examples", "KTU of the paper's two example rankings",
        "the paper's example rankings", reproduced="yes", printed_shown=True, cells=len(printed), matched=matched,
        chapter="measuring_reproducibility",
    )  # fmt: skip


def fidelity() -> list[FidelityRow]:
    """One row per table and figure of the paper and its online appendix (:mod:`irrepro.papers.fidelity`).

    The appendix rows carry the matching cells of :func:`~irrepro.papers.sigir2020.appendix.match_counts`;
    the KTU-example row those of :func:`~irrepro.papers.sigir2020.conventions.small_cases`; the rows of
    Table 2, Table 5 and Figure 3 how many of the paper's statements hold on the published files and with
    the authors' earlier AP file (:func:`~irrepro.papers.sigir2020.hypothesis.figure3_statements`).
    """
    statements, counts = figure3_statements(), match_counts()
    rows = {row.item: row for row in [*_table_rows(statements), *_effect_rows(statements)]}
    order = ["Table 1", "Table 2", "Table 3", "Table 4", "Table 5", "Figure 1", "Figure 2", "Figure 3"]
    return [
        *(rows[item] for item in order),
        *(_appendix_row(number, counts, data) for number, data in ((1, _RPL), (2, f"{_RPD}; {_ORG}"))),
        _row("online appendix: replicated vs reproduced p-values",
             "unpaired t-test p between each replicated run and its reproduced twin", f"{_RPL}; {_RPD}",
             why_not="not transcribed: the project's text copy of the appendix holds its Tables 1 and 2 only"),
        _row("online appendix: further ER-DeltaRI plots", "ER against DeltaRI of the other constellation families",
             f"{_RPL}; {_RPD}; {_ORG}", why_not=_A_FIGURE, note="shown within Figures 2 and 3 of the chapter"),
        _ktu_examples_row(),
    ]  # fmt: skip
