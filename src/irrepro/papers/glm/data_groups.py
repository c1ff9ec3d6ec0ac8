"""Whose data a verdict rests on: the paper's own collection, or the substitutes.

The paper's experiments use TREC 2004 Robust and TREC 2018 Core with their submitted runs. This book
has the Robust04 submissions (:data:`ROBUST04`: its verdicts speak for the paper) but not the per-topic
scores of the Core 2018 submissions; in their place it uses matrices of the SIGIR 2020 replications and
reproductions of two runs, on Core17 and Core18 (:data:`SUBSTITUTES`: a different kind of data, many
variants of two systems, so their verdicts say whether a statement carries over, not whether the
paper's numbers are right). For Core 2018, NIST's official per-run means of the submitted runs are
public (:data:`NIST_CORE18`): they speak for the paper on what means alone can show.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from irrepro.papers import datasets
from irrepro.papers.glm.models import WITHOUT_OUTLIERS

__all__ = ["DataGroup", "ROBUST04", "SUBSTITUTES", "NIST_CORE18", "DATA_GROUPS", "rows_of", "columns_of"]


@dataclass(frozen=True)
class DataGroup:
    """The data a claim's verdict is computed on: its ``collections`` (rows of the chapter's tables).

    Parameters
    ----------
    key : str
        The suffix of a claim id: ``glm.<claim>.<key>``.
    name : str
        Short, for a table's column.
    label : str
        What the data are, for a claim's ``data``.
    collections : tuple of str
        The collections in it.
    speaks_for_paper : bool
        Whether they are the paper's own runs.
    """

    key: str  # the suffix of a claim id: glm.<claim>.<key>
    name: str  # short, for a table's column
    label: str  # what the data are, for a claim's ``data``
    collections: tuple[str, ...]
    speaks_for_paper: bool  # the paper's own runs?


ROBUST04 = DataGroup(
    "robust04",
    "Robust04 (the paper's collection)",
    f"Robust04, the paper's collection: the 110 runs submitted to TREC 2004 Robust, 249 topics, AP and P@10 "
    f"({datasets.TREC_SCORES_ROBUST04.label})",
    ("Robust04",),
    True,
)
SUBSTITUTES = DataGroup(
    "substitutes",
    "Core17 and Core18 (substitutes)",
    f"Core17 and Core18, substitutes: replications (Core17, 50 topics x 102 runs) and reproductions (Core18, 25 "
    f"topics x 108 runs) of WCrobust04 and WCrobust0405, AP, P@10 and nDCG, with and without outliers "
    f"({datasets.SIGIR2020_RPL.label}; {datasets.SIGIR2020_RPD.label})",
    ("Core17", "Core18"),
    False,
)
NIST_CORE18 = DataGroup(
    "nist-core18",
    "Core18 submitted runs (NIST's MAP)",
    f"Core18, the paper's runs by their official means only: the MAP of the 72 runs submitted to TREC 2018 Core "
    f"({datasets.NIST_SUMMARIES.label})",
    (),
    True,
)
DATA_GROUPS: tuple[DataGroup, ...] = (ROBUST04, SUBSTITUTES, NIST_CORE18)


def rows_of(table: pd.DataFrame, group: DataGroup) -> pd.DataFrame:
    """Pick the rows of a long per-setting table (column ``collection``) that belong to ``group``.

    Parameters
    ----------
    table : pandas.DataFrame
        A long per-setting table.
    group : DataGroup
        The data group.

    Returns
    -------
    pandas.DataFrame
        Its rows.
    """
    return table[table["collection"].isin(group.collections)]


def columns_of(wide: pd.DataFrame, group: DataGroup) -> pd.DataFrame:
    """Pick the columns of a Table 1 layout in ``group``.

    Parameters
    ----------
    wide : pandas.DataFrame
        Columns ``(collection, measure)``, the collection maybe ``"... w/o outliers"``.
    group : DataGroup
        The data group.

    Returns
    -------
    pandas.DataFrame
        Its columns.
    """
    return wide[[column for column in wide.columns if column[0].removesuffix(WITHOUT_OUTLIERS) in group.collections]]
