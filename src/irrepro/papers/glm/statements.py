"""The paper's statements about its Table 1, each a check on every column of :func:`~irrepro.papers.glm.models.table1`.

A statement is checked column by column (collection x measure, with and without outliers) and holds
on a group of columns (:mod:`irrepro.papers.glm.data_groups`) as the paper quantifies it: in ``"all"``
columns ("systematically", "in all scenarios") or in ``"most"`` (more than half: "in most cases",
"tend to", or no quantifier).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from irrepro.papers.claims import Finding
from irrepro.papers.glm.data_groups import DATA_GROUPS, DataGroup, columns_of
from irrepro.papers.glm.models import table1

__all__ = ["QUANTIFIERS", "DevianceStatement", "DEVIANCE_STATEMENTS", "statement_finding", "deviance_claims"]

QUANTIFIERS = ("all", "most")
SIGMOID_LINKS = ("logit", "probit", "cauchit")


@dataclass(frozen=True)
class DevianceStatement:
    """A statement of the paper about its Table 1, checked in every column of :func:`table1`.

    Parameters
    ----------
    name : str
        The claim is ``glm.<name>.<data group>``.
    statement : str
        The check, in words.
    quote : str
        The paper's words.
    check : callable
        Table 1 -> one bool per (collection, measure) column.
    quantifier : {"most", "all"}
        Holds in "all" columns, or in "most".
    """

    name: str  # the claim is glm.<name>.<data group>
    statement: str  # the check, in words
    quote: str  # the paper's words
    check: Callable[[pd.DataFrame], pd.Series]  # table1 -> one bool per (collection, measure) column
    quantifier: str = "most"  # holds in "all" columns, or in "most"

    def __post_init__(self):
        if self.quantifier not in QUANTIFIERS:
            raise ValueError(f"statement {self.name}: quantifier {self.quantifier!r} is not one of {QUANTIFIERS}")


def _identity_above_others(wide: pd.DataFrame) -> pd.Series:
    return wide.loc["identity"] > wide.drop(index=["identity", "exp"]).max()


def _exp_highest(wide: pd.DataFrame) -> pd.Series:
    return wide.idxmax() == "exp"


def _identity_above_log(wide: pd.DataFrame) -> pd.Series:
    return wide.loc["identity"] > wide.loc["log"]


def _tanh_between(wide: pd.DataFrame) -> pd.Series:
    best = wide.drop(index=["identity", "exp", "tanh"]).min()
    return (wide.loc["tanh"] < wide.loc["identity"]) & (wide.loc["tanh"] > best)


def _logit_lowest(wide: pd.DataFrame) -> pd.Series:
    return wide.idxmin() == "logit"


def _sigmoid_links_close(wide: pd.DataFrame) -> pd.Series:
    sigmoid = wide.loc[list(SIGMOID_LINKS)]
    return (sigmoid.max() - sigmoid.min()) < (sigmoid - wide.loc["identity"]).abs().min()


#: The paper's statements about its Table 1 (Section 3), in the order of its text.
DEVIANCE_STATEMENTS: tuple[DevianceStatement, ...] = (
    DevianceStatement(
        "identity-poor-fit", "identity has a higher deviance than every link but exp",
        "The traditional GLiM approach based on the identity link, (corresponding to the current evaluation "
        "methodology) presents a low goodness-of-fit, given its high deviance compared to other links.",
        _identity_above_others,
    ),
    DevianceStatement(
        "exp-worst", "exp has the highest deviance (worst fit)",
        "The exponential link is the worst, systematically underperforming on all experimental conditions and its "
        "high deviance indicates poor goodness-of-fit compared to all the other links.", _exp_highest, "all",
    ),
    DevianceStatement(
        "log-better-than-identity", "log has a lower deviance than identity",
        "The log link shows improved goodness-of-fit compared to identity one, especially for the Core 18 collection "
        "(both with and without outliers).", _identity_above_log,
    ),
    DevianceStatement(
        "tanh-intermediate", "tanh lies between identity and the best of log, logit, probit and cauchit",
        "The tanh link exhibits an intermediate behaviour in all scenarios: it appears slightly better than the "
        "identity without providing substantial improvements.", _tanh_between, "all",
    ),
    DevianceStatement(
        "logit-best", "logit has the lowest deviance",
        "Finally, The logit link has the best goodness-of-fit in most cases, achieving the lowest deviance.", _logit_lowest,
    ),
    DevianceStatement(
        "sigmoid-links-similar", "the deviances of logit, probit and cauchit are closer to each other than any of them is "
        "to identity's", "Logit, probit and cauchit links tend to perform quite similarly.", _sigmoid_links_close,
    ),
)  # fmt: skip


def _columns_named(columns) -> str:
    return ", ".join(f"{collection} {measure}" for collection, measure in columns) or "none"


def statement_finding(statement: DevianceStatement, wide: pd.DataFrame, group: DataGroup) -> Finding:
    """Tell whether ``statement`` holds on the columns of ``wide`` that belong to ``group``.

    Parameters
    ----------
    statement : DevianceStatement
        The statement.
    wide : pandas.DataFrame
        Table 1 layout.
    group : DataGroup
        The data group.

    Returns
    -------
    Finding
        Whether it holds, with the columns where it does as evidence.
    """
    holds = statement.check(columns_of(wide, group))
    count, total = int(holds.sum()), len(holds)
    verdict = count == total if statement.quantifier == "all" else count > total / 2
    return Finding(
        bool(verdict),
        f"{statement.statement} in {count} of {total} columns of Table 1 (it must in {statement.quantifier}); "
        f"not in: {_columns_named(holds.index[~holds.to_numpy()])}.",
    )


def deviance_claims(wide: pd.DataFrame | None = None) -> pd.DataFrame:
    """Check the paper's statements about Table 1 on each data group's columns.

    Parameters
    ----------
    wide : pandas.DataFrame, optional
        Table 1 layout; default: computed now.

    Returns
    -------
    pandas.DataFrame
        One row per statement of :data:`DEVIANCE_STATEMENTS` (the claims ``glm.<name>.<group>`` read
        the same checks): the statement, its quantifier, and per data group with Table 1 columns
        (Robust04, the substitutes) the columns where it holds, the columns, and whether it holds.
    """
    wide = table1() if wide is None else wide
    rows = []
    for statement in DEVIANCE_STATEMENTS:
        row = {"paper's statement": statement.statement, "must hold in": statement.quantifier}
        for group in DATA_GROUPS:
            if not group.collections:
                continue
            holds = statement.check(columns_of(wide, group))
            row[f"{group.name}: columns where it holds"] = int(holds.sum())
            row[f"{group.name}: columns"] = len(holds)
            row[f"{group.name}: holds"] = statement_finding(statement, wide, group).holds
        rows.append(row)
    return pd.DataFrame(rows)
