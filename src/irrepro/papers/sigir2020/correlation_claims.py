"""The paper's statements on Table 4 (Sections 5.1 and 5.3): how the replicability measures correlate.

Registered in :data:`~irrepro.papers.sigir2020.claim_checks.CLAIMS` after the effect claims. Table 4
holds WCrobust04 (upper triangle) and WCrobust0405 (lower triangle); a statement about the table must
hold in both. A threshold the paper states (0.86, 0.9, 0.90, 0.91) is compared with the unrounded
tau, strictly as worded ("above 0.9": tau > 0.9; :func:`~irrepro.papers.printed.threshold_holds`,
the one home of the rule); where the paper's own rounding could explain a miss (0.8988 rounds to
0.90), the finding says so beside the verdict, which stays the strict one. Vague words are our readings, as in
:mod:`~irrepro.papers.sigir2020.hypothesis`: "low" = below :data:`~irrepro.papers.sigir2020.hypothesis.LOW_TAU`
(midway between what the paper calls low, 0.29, and higher, 0.70); "highly" = at least 0.70.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.papers import datasets
from irrepro.papers.claims import Finding
from irrepro.papers.datasets import SYSTEMS
from irrepro.papers.printed import printed_number, rounding_note, threshold_holds
from irrepro.papers.sigir2020.claim_checks import CLAIMS
from irrepro.papers.sigir2020.correlation import CORRELATION_COLUMNS, correlation_table
from irrepro.papers.sigir2020.hypothesis import LOW_TAU, PAPER_HIGHER_TAU
from irrepro.papers.sigir2020.published_scores import MEASURES

__all__ = ["TABLE4_GROUPS", "Table4Statement", "TABLE4_STATEMENTS", "table4_statistics"]

#: The groups of Table 4's columns the statements name.
TABLE4_GROUPS: dict[str, list[str]] = {
    "ARP": [f"DeltaARP:{m}" for m in MEASURES],
    "RMSE": [f"RMSE:{m}" for m in MEASURES],
    "p": [f"p:{m}" for m in MEASURES],
    "ER": [f"ER:{m}" for m in MEASURES],
}
_DATA = (
    "Kendall's tau among the oriented replicability measures of the 50 constellations, both systems (Table 4); "
    f"{datasets.SIGIR2020_RPL.label}"
)
_LOW = f"low: below {LOW_TAU:.3f}, midway between the paper's low 0.29 and higher 0.70 (our reading)"
#: ``tau(first, second)``: one tau of Table 4 for one system: a float, or an array of one per replicate.
Tau = Callable[[str, str], "float | np.ndarray"]


def _largest(values) -> float | np.ndarray:
    return np.max(np.stack(values), axis=0)


def _smallest(values) -> float | np.ndarray:
    return np.min(np.stack(values), axis=0)


@dataclass(frozen=True)
class Table4Statement:
    """A statement on Table 4: the number it turns on (``statistic(tau)``, for one system) and its bound.

    The statement holds when it holds for both systems, i.e. for the larger statistic (below) or the
    smaller (above, at least).

    Parameters
    ----------
    name : str
        The claim's name.
    label : str
        The statement in a few words, for a figure.
    section : str
        Where the paper makes it.
    quote : str
        The paper's words.
    what : str
        What the statistic is, in words.
    statistic : callable
        Takes a ``Tau`` (a function of two measure names) and works on floats (the chapter's table)
        and arrays (replicates).
    side : {"below", "above", "at least"}
        statistic < bound, > bound or >= bound.
    bound : float
        The bound.
    reading : str
        What the resampled check tests.
    printed : str, default ""
        The bound as the paper prints it ("0.90"), when it is the paper's: its decimals are those at
        which the finding says whether rounding could explain a miss.
    """

    name: str
    label: str  # the statement in a few words, for a figure
    section: str
    quote: str
    what: str
    statistic: Callable[[Tau], float | np.ndarray]
    side: str
    bound: float
    reading: str
    printed: str = ""

    def binding(self, per_system: list) -> float | np.ndarray:
        """Give the statistic over both systems that decides: the largest for "below", else the smallest.

        Parameters
        ----------
        per_system : list of float or numpy.ndarray
            The statistic of each system.

        Returns
        -------
        float or numpy.ndarray
            The deciding statistic.
        """
        return _largest(per_system) if self.side == "below" else _smallest(per_system)

    def holds(self, value: float | np.ndarray) -> bool | np.ndarray:
        """Tell whether ``value`` is on the statement's side of its bound.

        Parameters
        ----------
        value : float or numpy.ndarray
            The deciding statistic (:meth:`binding`).

        Returns
        -------
        bool or numpy.ndarray
            True where the statement holds.
        """
        return threshold_holds(value, self.side, self.bound)

    def rounding_note(self, value: float) -> str:
        """Say whether the paper's rounding of its printed bound could explain a miss ("" otherwise).

        Parameters
        ----------
        value : float
            The deciding statistic (:meth:`binding`).

        Returns
        -------
        str
            :func:`~irrepro.papers.printed.rounding_note` at the printed bound's decimals.
        """
        if not self.printed:
            return ""
        decimals = max(0, -printed_number(self.printed).as_tuple().exponent)
        return rounding_note(value, self.side, self.bound, decimals)


def _others(tau: Tau) -> float | np.ndarray:
    """The largest |tau| between an ER and a measure that is not an ER."""
    others = [c for c in CORRELATION_COLUMNS if not c.startswith("ER:")]
    return _largest([np.abs(tau(e, c)) for e in TABLE4_GROUPS["ER"] for c in others])


def _pairs(columns: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(columns) for b in columns[i + 1 :]]


TABLE4_STATEMENTS: tuple[Table4Statement, ...] = (
    Table4Statement(
        "table4-rmse-ktu-low", "τ(RMSE, KTU) low", "5.1",
        "This is further corroborated by the correlation results in Table 4, which shows low correlation between "
        "RMSE and Kendall’s τ.",
        "largest |tau| between an RMSE and KTU",
        lambda tau: _largest([np.abs(tau(r, "KTU")) for r in TABLE4_GROUPS["RMSE"]]), "below", LOW_TAU, _LOW,
    ),
    Table4Statement(
        "table4-rbo-more-with-arp", "RBO closer to ARP than KTU is", "5.3",
        "Between τ and RBO, RBO correlates more with ARP than τ, especially with respect to AP and nDCG.",
        "smallest tau(ARP, RBO) - tau(ARP, KTU) for AP and nDCG",
        lambda tau: _smallest([tau(f"DeltaARP:{m}", "RBO") - tau(f"DeltaARP:{m}", "KTU") for m in ("AP", "nDCG")]),
        "above", 0.0, "must be positive",
    ),
    Table4Statement(
        "table4-ktu-rbo-low", "τ(KTU, RBO) low", "5.3", "Also, τ and RBO are low correlated with respect to each other.",
        "|tau| between KTU and RBO", lambda tau: np.abs(tau("KTU", "RBO")), "below", LOW_TAU, _LOW,
    ),
    Table4Statement(
        "table4-arp-rmse-below-086", "τ(ARP, RMSE) below 0.86", "5.3", "Nevertheless, the correlation is always lower than 0.86",
        "largest tau between an ARP difference and an RMSE",
        lambda tau: _largest([tau(a, r) for a in TABLE4_GROUPS["ARP"] for r in TABLE4_GROUPS["RMSE"]]),
        "below", 0.86, "the paper's 0.86, unrounded tau", "0.86",
    ),
    Table4Statement(
        "table4-rmse-ap-ndcg-above-09", "τ(RMSE of AP, of nDCG) above 0.9", "5.3",
        "Furthermore, the correlation between RMSE instantiated with AP and nDCG is high, above 0.9",
        "tau between RMSE:AP and RMSE:nDCG", lambda tau: tau("RMSE:AP", "RMSE:nDCG"), "above", 0.9,
        "the paper's 0.9, unrounded tau", "0.9",
    ),
    Table4Statement(
        "table4-arp-ap-ndcg-above-090", "τ(ARP of AP, of nDCG) above 0.90", "5.3",
        "as also shown by the correlation between ARP with AP and nDCG (above 0.90)",
        "tau between DeltaARP:AP and DeltaARP:nDCG", lambda tau: tau("DeltaARP:AP", "DeltaARP:nDCG"), "above", 0.90,
        "the paper's 0.90, unrounded tau", "0.90",
    ),
    Table4Statement(
        "table4-p-ap-ndcg-above-091", "τ(p of AP, of nDCG) above 0.91", "5.3", "and between p-values with AP and nDCG (above 0.91)",
        "tau between p:AP and p:nDCG", lambda tau: tau("p:AP", "p:nDCG"), "above", 0.91,
        "the paper's 0.91, unrounded tau", "0.91",
    ),
    Table4Statement(
        "table4-arp-p-high", "τ(ARP, p) high for one measure", "5.3",
        "When using the same performance measure, ARP and p-values approaches are highly correlated",
        "smallest tau between DeltaARP:m and p:m (same measure m)",
        lambda tau: _smallest([tau(f"DeltaARP:{m}", f"p:{m}") for m in MEASURES]), "at least", PAPER_HIGHER_TAU,
        f"\"highly\" read as: at least {PAPER_HIGHER_TAU:.2f}, what the paper calls higher (our reading)",
    ),
    Table4Statement(
        "table4-er-others-low", "τ(ER, any other measure) low", "5.3",
        "This is corroborated by correlation results, which show that this measure has low correlation with ARP "
        "and any other evaluation approach.",
        "largest |tau| between an ER and any measure but ER", _others, "below", LOW_TAU, _LOW,
    ),
    Table4Statement(
        "table4-er-self-low", "τ among the ER low (Table 4)", "5.3", "Moreover, even the correlation among ER instantiated with different measures is low",
        "largest |tau| among the ER of P@10, AP and nDCG",
        lambda tau: _largest([np.abs(tau(a, b)) for a, b in _pairs(TABLE4_GROUPS["ER"])]), "below", LOW_TAU, _LOW,
    ),
)  # fmt: skip


def table4_statistics() -> pd.DataFrame:
    """Give the number each Table 4 statement turns on, per system.

    Returns
    -------
    pandas.DataFrame
        Rows statements, columns systems.
    """
    tables = {system: correlation_table(system) for system in SYSTEMS}
    return pd.DataFrame(
        {s: {st.name: float(st.statistic(lambda a, b, t=tables[s]: t.at[a, b])) for st in TABLE4_STATEMENTS}
         for s in SYSTEMS}
    )  # fmt: skip


def _register(statement: Table4Statement) -> None:
    def check() -> Finding:
        values = table4_statistics().loc[statement.name]
        deciding = statement.binding([values[s] for s in SYSTEMS])
        note = statement.rounding_note(float(deciding))
        return Finding(
            bool(statement.holds(deciding)),
            f"{statement.what}: "
            + ", ".join(f"{s} {values[s]:.4f}" for s in SYSTEMS)
            + f" (must be {statement.side} {statement.bound:g} in both; {statement.reading})"
            + (f"; {note}" if note else "")
            + ".",
        )

    CLAIMS.claim(statement.name, section=statement.section, quote=statement.quote, data=_DATA)(check)


for _statement in TABLE4_STATEMENTS:
    _register(_statement)
