"""The paper's statements on Table 2 (left) and Figure 2 (Section 5.1): which constellations replicate the effect best.

Registered in :data:`~irrepro.papers.sigir2020.claim_checks.CLAIMS` after the claims of that module.
"Best" is read as: the ER closest to 1 (the paper: "the closer the score to 1, the more successful
the replication"); the levels 1-5 of a family are taken in the paper's order, which it calls
deteriorating the replicability runs.
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers import datasets
from irrepro.papers.claims import ELISION, Finding
from irrepro.papers.sigir2020.claim_checks import CLAIMS
from irrepro.papers.sigir2020.effects import effect_ratio_table
from irrepro.papers.sigir2020.figures import FIGURE2_PANEL_STATEMENTS, figure2_panels
from irrepro.papers.sigir2020.published_scores import MEASURES
from irrepro.routing.constellations import FAMILIES

__all__ = ["best_levels", "level_trends"]

_ER_DATA = f"ER of the 20 printed replicated pairs, P@10, AP and nDCG (Table 2, left); {datasets.SIGIR2020_RPL.label}"


def _distance_by_level(family: str, measure: str) -> pd.Series:
    """``|1 - ER|`` of one family's five replicated pairs and one measure, indexed by level 1-5."""
    table = effect_ratio_table("rpl", intervals=False)
    rows = [run for run in table.index if run.split("_")[1] == family]
    distance = (1.0 - table.loc[rows, f"ER:{measure}"]).abs()
    return distance.set_axis([int(run.rsplit("_", 1)[1]) for run in rows])


def best_levels() -> pd.DataFrame:
    """Find the level (1-5) whose ER is closest to 1, per family and measure.

    Returns
    -------
    pandas.DataFrame
        Rows families, columns measures.
    """
    return pd.DataFrame({m: {f: int(_distance_by_level(f, m).idxmin()) for f in FAMILIES} for m in MEASURES})


def level_trends() -> pd.DataFrame:
    """Compute Kendall's tau between the level (1-5) and ``|1 - ER|``, per family and measure.

    Positive: ER moves away from 1 as the level rises.

    Returns
    -------
    pandas.DataFrame
        Rows families, columns measures.
    """
    trends = {}
    for m in MEASURES:
        trends[m] = {f: _distance_by_level(f, m).reset_index().corr(method="kendall").iloc[0, 1] for f in FAMILIES}
    return pd.DataFrame(trends)


@CLAIMS.claim(
    "er-p10-best-tf3",
    section="5.1",
    quote="For example, for ER with P@10, the best replicability runs are rpl_wcr04_tf3 and rpl_wcr0405_tf3",
    data=_ER_DATA,
)
def _er_p10_best_tf3() -> Finding:
    distance = _distance_by_level("tf", "P@10")
    return Finding(
        int(distance.idxmin()) == 3,
        "|1 - ER:P@10| of the tf pairs by level: " + ", ".join(f"{k} {v:.3f}" for k, v in distance.items())
        + " (\"best\" read as: closest to 1 among the tf family's five levels, our reading).",
    )


@CLAIMS.claim(
    "er-no-agreement",
    section="5.1",
    quote="Note that, for the constellations of runs rpl_wcr04_tf and rpl_wcr04_C, there is no agreement among the "
    "best replication experiment when different effectiveness measures are considered.",
    data=_ER_DATA,
)
def _er_no_agreement() -> Finding:
    best = best_levels()
    disagree = {family: best.loc[family].nunique() > 1 for family in FAMILIES}
    described = "; ".join(f"{f}: " + ", ".join(f"{m} {best.at[f, m]}" for m in MEASURES) for f in FAMILIES)
    return Finding(
        disagree["tf"] and disagree["C"],
        f"level with ER closest to 1 per measure: {described} (\"no agreement\" read as: not the same level for all "
        "three measures).",
    )


@CLAIMS.claim(
    "er-further-from-one",
    section="5.1",
    quote="while for AP and nDCG, ER values tends to move further from 1, as we deteriorate the replicability runs.",
    data=_ER_DATA,
)
def _er_further_from_one() -> Finding:
    trends = level_trends()
    rising = {m: int((trends[m] > 0).sum()) for m in ("AP", "nDCG")}
    described = "; ".join(f"{m}: " + ", ".join(f"{f} {trends.at[f, m]:+.2f}" for f in FAMILIES) for m in ("AP", "nDCG"))
    return Finding(
        all(n > len(FAMILIES) / 2 for n in rising.values()),
        f"Kendall's tau between level and |1 - ER|, per family: {described} (\"tends to\" read as: positive in more "
        f"than half of the {len(FAMILIES)} families, for AP and for nDCG; our reading).",
    )


@CLAIMS.claim(
    "figure2-panels",
    section="5.1",
    quote=f"For example, in Figure 2(a), for AP and nDCG the point (1,0) is reached from Region 4{ELISION}"
    "Conversely, in Figure 2(b), it is clear that for AP the point (1,0) is reached from Region 1",
    data=f"ER and DeltaRI of the 20 printed replicated pairs (Figure 2); {datasets.SIGIR2020_RPL.label}",
)
def _figure2_panels() -> Finding:
    panels = figure2_panels()
    fits = {panel: list(panels.index[panels[f"fits ({panel})"]]) for panel in FIGURE2_PANEL_STATEMENTS}
    return Finding(
        bool(fits["a"]) and bool(fits["b"]),  # disjoint: a family's AP points have one majority region
        f"families fitting panel (a) (AP and nDCG points mostly in region 4): {', '.join(fits['a']) or 'none'}; "
        f"panel (b) (AP points mostly in region 1): {', '.join(fits['b']) or 'none'} (\"reached from region R\" "
        "read as: region R holds the most of the family's five points, our reading).",
    )
