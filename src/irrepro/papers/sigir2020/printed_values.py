"""The values the paper's text states about its Table 3, Table 4 and Figure 3, printed beside reproduced.

The main paper's tables and figures are not in the project's text copy (only the online appendix's
Tables 1, 2 and 3 are, compared cell by cell in :mod:`~irrepro.papers.sigir2020.appendix`), but its
Section 5 states some of their values in words. Each is transcribed in :data:`TEXT_VALUES` (one fact,
one home: the printed string, the rule it is held to and the paper's sentence holding it, which the
tests find in the text copy) and read off the reproduced tables by one small function, named like the
value; :func:`text_values_comparison` sets them side by side.

How a value is read (ours, stated): a bound over a part of Table 4 ("below 0.29") is held by the
extreme of that part over both triangles (WCrobust04 above the diagonal, WCrobust0405 below, as the
paper prints them); Figure 3(b) is the family that fits what the paper says of Figure 2(b)
(:func:`~irrepro.papers.sigir2020.figures.panel_families`), its points those of P@10, AP and nDCG.

>>> [value.item for value in TEXT_VALUES][:2]
['Table 3', 'Table 4']
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from irrepro.papers.datasets import BASELINE, SYSTEMS
from irrepro.papers.printed import PrintedValue, Reading, compare, rules_in_words
from irrepro.papers.sigir2020.correlation import correlation_table
from irrepro.papers.sigir2020.figures import er_deltari_points, er_deltari_region, panel_families
from irrepro.papers.sigir2020.measure_tables import reproducibility_table
from irrepro.papers.sigir2020.published_scores import MEASURES

__all__ = ["TEXT_VALUES", "text_values_comparison", "text_value_counts"]

_53 = "Section 5.3 (Table 4)"
_TABLE4_ARP = "The correlation between ARP and τ is low, below 0.29, and higher for RBO 0.70."
_TABLE4_RMSE = "Nevertheless, the correlation is always lower than 0.86"
_TABLE4_HIGH = (
    "the correlation between RMSE instantiated with AP and nDCG is high, above 0.9, this is due to AP and nDCG being "
    "highly correlated, as also shown by the correlation between ARP with AP and nDCG (above 0.90) and between "
    "p-values with AP and nDCG (above 0.91)."
)


def _value(item: str, name: str, printed: str, rule: str, quote: str, where: str) -> PrintedValue:
    return PrintedValue("sigir2020", item, name, printed, rule, quote=quote, where=where)


#: The values Section 5 states about the main paper's tables and figures, as printed.
TEXT_VALUES: tuple[PrintedValue, ...] = (
    _value("Table 3", "highest p-value", "0.005", "truncated",
           "From p-values in Table 3, we can conclude that all the reproducibility runs are statistically "
           "significantly different from the original run, being the highest p-value just 0.005.",
           "Section 5.2 (Table 3)"),
    _value("Table 4", "ARP vs KTU, highest", "0.29", "below", _TABLE4_ARP, _53),
    _value("Table 4", "ARP vs RBO, highest", "0.70", "rounded", _TABLE4_ARP, _53),
    _value("Table 4", "ARP vs RMSE, highest", "0.86", "below", _TABLE4_RMSE, _53),
    _value("Table 4", "RMSE of AP vs RMSE of nDCG, lowest", "0.9", "above", _TABLE4_HIGH, _53),
    _value("Table 4", "ARP of AP vs ARP of nDCG, lowest", "0.90", "above", _TABLE4_HIGH, _53),
    _value("Table 4", "p of AP vs p of nDCG, lowest", "0.91", "above", _TABLE4_HIGH, _53),
    _value("Figure 3", "points of panel (b) in region 4", "one", "exact",
           "In Figure 3(b) just one point is in the preferred region 4", "Section 5.2 (Figure 3)"),
)  # fmt: skip


def _highest_p() -> Reading:
    p_values = reproducibility_table(BASELINE)[[f"p:{m}" for m in MEASURES]].stack()
    run, column = p_values.idxmax()
    return Reading(float(p_values.max()), f"{BASELINE}: {column} of {run}")


def _table4_extreme(rows: list[str], columns: list[str], *, highest: bool) -> Reading:
    """The highest (or lowest) Kendall's tau between ``rows`` and ``columns`` of Table 4, both triangles."""
    found = []
    for system in SYSTEMS:
        block = correlation_table(system).loc[rows, columns].stack()
        key = block.idxmax() if highest else block.idxmin()
        found.append((float(block[key]), f"{system}: {key[0]} vs {key[1]}"))
    value, found_at = (max if highest else min)(found)
    return Reading(value, found_at)


_ARP = [f"DeltaARP:{m}" for m in MEASURES]
_RMSE = [f"RMSE:{m}" for m in MEASURES]


def _panel_b_region4() -> Reading:
    families = panel_families()["b"]
    if len(families) != 1:  # the panel cannot be told: no value is read
        return Reading(float("nan"), f"Figure 2(b) fits {len(families)} families ({', '.join(families) or 'none'})")
    points = er_deltari_points("rpd")
    points = points[points["family"] == families[0]]
    in_region4 = er_deltari_region(points["ER"], points["DeltaRI"]) == 4
    per_measure = ", ".join(f"{m} {int(in_region4[points['measure'] == m].sum())}" for m in MEASURES)
    return Reading(float(in_region4.sum()), f"family {families[0]}, {len(points)} points: {per_measure}")


_READINGS: dict[str, Callable[[], Reading]] = {
    "highest p-value": _highest_p,
    "ARP vs KTU, highest": lambda: _table4_extreme(_ARP, ["KTU"], highest=True),
    "ARP vs RBO, highest": lambda: _table4_extreme(_ARP, ["RBO"], highest=True),
    "ARP vs RMSE, highest": lambda: _table4_extreme(_ARP, _RMSE, highest=True),
    "RMSE of AP vs RMSE of nDCG, lowest": lambda: _table4_extreme(["RMSE:AP"], ["RMSE:nDCG"], highest=False),
    "ARP of AP vs ARP of nDCG, lowest": lambda: _table4_extreme(["DeltaARP:AP"], ["DeltaARP:nDCG"], highest=False),
    "p of AP vs p of nDCG, lowest": lambda: _table4_extreme(["p:AP"], ["p:nDCG"], highest=False),
    "points of panel (b) in region 4": _panel_b_region4,
}


def text_values_comparison() -> pd.DataFrame:
    """Set each value of :data:`TEXT_VALUES` beside the reproduced one (:func:`irrepro.papers.printed.compare`).

    Computed from the published per-topic files (Table 3: the unpaired p-values of the 20 printed
    reproduced WCrobust04 runs; Table 4: Kendall's tau among the oriented replicability measures of
    the 50 constellations of each system; Figure 3: the reproduced pairs' ER and DeltaRI).

    Returns
    -------
    pandas.DataFrame
        As :func:`irrepro.papers.printed.compare` returns it.
    """
    return compare(TEXT_VALUES, {name: read() for name, read in _READINGS.items()})


def text_value_counts(comparison: pd.DataFrame | None = None) -> pd.DataFrame:
    """Count compared and matching text values per item.

    Parameters
    ----------
    comparison : pandas.DataFrame, optional
        :func:`text_values_comparison`'s table; default: computed now.

    Returns
    -------
    pandas.DataFrame
        Index ``item``; columns ``values``, ``matched``, ``tolerance`` (the rules of the item's
        values in words, :func:`irrepro.papers.printed.rules_in_words`).
    """
    comparison = text_values_comparison() if comparison is None else comparison
    rules = {value.name: value.rule for value in TEXT_VALUES}
    grouped = comparison.groupby("item", sort=False)
    counts = pd.DataFrame({"values": grouped.size(), "matched": grouped["match"].sum()}).astype(int)
    counts["tolerance"] = grouped["value"].agg(lambda names: rules_in_words([rules[name] for name in names]))
    return counts
