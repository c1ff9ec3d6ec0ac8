"""How often each of the paper's claims holds when the topics are resampled (beyond the paper).

The paper draws its conclusions from one sample of topics: 50 Core17 topics (and 25 Core18 topics
for reproducibility). Every claim of :data:`~irrepro.papers.sigir2020.claim_checks.CLAIMS` is
re-read here on :data:`RESAMPLES` bootstrap replicates of the topics (seed :data:`SEED`; the Core17
topics drawn once per replicate for every run and constellation, the Core18 topics independently,
seed + 1), with the measures of :mod:`~irrepro.papers.sigir2020.resampled`, by the checks of
:mod:`~irrepro.papers.sigir2020.resampled_claims`. :func:`robustness_table` gives, per claim, the share of replicates
in which it holds, whether that keeps its verdict on all topics in >= 95% of them (stable) or not
(fragile), and the 95% percentile interval of the number it turns on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.memo import cached
from irrepro.papers.datasets import SYSTEMS
from irrepro.papers.robustness import INTERVAL_LEVEL, STABLE_SHARE
from irrepro.papers.sigir2020.correlation import CORRELATION_COLUMNS, REPRODUCIBILITY_CORRELATION_COLUMNS
from irrepro.papers.sigir2020.resampled import Replicates, replicate_measures, topic_scores
from irrepro.papers.sigir2020.resampled_claims import CHECKS
from irrepro.reproducibility.resampling import identity_weights, percentile_interval, topic_resamples, topic_weights

__all__ = [
    "RESAMPLES", "SEED", "SECTION_TITLES", "CHECKS", "replicates", "robustness_table", "correlation_intervals",
    "robustness_numbers",
]  # fmt: skip

#: Bootstrap replicates of the topics, and the seed of the Core17 draws (Core18: seed + 1).
RESAMPLES = 1000
SEED = 0
#: The paper's sections the claims come from, as the robustness figure titles them.
SECTION_TITLES: dict[str, str] = {"5.1": "5.1 Replicability", "5.2": "5.2 Reproducibility", "5.3": "5.3 Correlations"}

@cached(maxsize=4)
def replicates(n_resamples: int = RESAMPLES, seed: int = SEED) -> Replicates:
    """Compute the paper's measures on ``n_resamples`` bootstrap replicates of the topics (cached).

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        The number of replicates.
    seed : int, default SEED
        The seed of the resampling.

    Returns
    -------
    Replicates
        The measures.
    """
    scores = topic_scores()
    core17 = topic_weights(topic_resamples(scores.n_core17, n_resamples, seed=seed))
    core18 = topic_weights(topic_resamples(scores.n_core18, n_resamples, seed=seed + 1))
    return replicate_measures(core17, core18)


@cached(maxsize=1)
def _on_all_topics() -> Replicates:
    scores = topic_scores()
    return replicate_measures(identity_weights(scores.n_core17), identity_weights(scores.n_core18))


def robustness_table(n_resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """Check each claim on all topics and under topic resampling (:mod:`irrepro.papers.robustness`).

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        The number of replicates.
    seed : int, default SEED
        The seed of the resampling.

    Returns
    -------
    pandas.DataFrame
        One row per claim: its verdict on all topics, the share of replicates in which it holds, its
        status, and the number it turns on with its 95% percentile interval.
    """
    return CHECKS.table(_on_all_topics(), replicates(n_resamples, seed))





def correlation_intervals(n_resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """Give every correlation of Tables 4 and 5 with its percentile interval over the topic resamples.

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        The number of replicates.
    seed : int, default SEED
        The seed of the resampling.

    Returns
    -------
    pandas.DataFrame
        One row per table, system and pair of measures (each pair once): ``tau`` on all topics (the
        chapter's tables), ``low`` and ``high`` (:data:`~irrepro.papers.robustness.INTERVAL_LEVEL`).
    """
    point, resampled = _on_all_topics(), replicates(n_resamples, seed)
    rows = []
    for table, columns in (("Table 4", CORRELATION_COLUMNS), ("Table 5", REPRODUCIBILITY_CORRELATION_COLUMNS)):
        name = "table4" if table == "Table 4" else "table5"
        for system in SYSTEMS:
            values, replicated = getattr(point, name)[system][0], getattr(resampled, name)[system]
            for i, j in zip(*np.triu_indices(len(columns), k=1), strict=True):
                low, high = percentile_interval(replicated[:, i, j], INTERVAL_LEVEL)
                rows.append({"table": table, "system": system, "first": columns[i], "second": columns[j],
                             "tau": float(values[i, j]), "low": low, "high": high})  # fmt: skip
    return pd.DataFrame(rows)


def _listed(rows: pd.DataFrame) -> str:
    """Conclusions as "label (X%)" by section ("in 5.1: a (55%); b (31%); in 5.3: ..."); "none" when none."""
    parts = []
    for section, part in rows.groupby("section", sort=False):
        parts.append(f"in {section}: " + "; ".join(f"{r['label']} ({r['share holding']:.0%})" for _, r in part.iterrows()))
    return "; ".join(parts) or "none"


def robustness_numbers(table: pd.DataFrame | None = None) -> dict[str, object]:
    """Compute what the chapter's prose says about :func:`robustness_table` (keys for glue).

    Counts of claims by verdict on all topics and status, the fragile ones listed with their shares, and
    ``outside_interval``: the statistics whose value on all topics lies outside their own 95% interval.

    Parameters
    ----------
    table : pandas.DataFrame, optional
        :func:`robustness_table`'s table; default: computed now.

    Returns
    -------
    dict of str -> object
        Name -> number or text.
    """
    table = robustness_table() if table is None else table
    holds, fragile = table["holds on all topics"], table["status"] == "fragile"
    outside = (table["on all topics"] < table["low"]) | (table["on all topics"] > table["high"])
    return {
        "resamples": RESAMPLES, "seed": SEED, "stable_share": f"{STABLE_SHARE:.0%}",
        "claims": len(table), "stable": int((~fragile).sum()), "fragile": int(fragile.sum()),
        "holding": int(holds.sum()), "holding_stable": int((holds & ~fragile).sum()),
        "holding_fragile": int((holds & fragile).sum()), "failing": int((~holds).sum()),
        "failing_fragile": int((~holds & fragile).sum()),
        "holding_fragile_list": _listed(table[holds & fragile]), "failing_fragile_list": _listed(table[~holds & fragile]),
        "failing_stable_list": _listed(table[~holds & ~fragile]),
        "outside_interval": int(outside.sum()), "outside_interval_list": ", ".join(table.loc[outside, "label"]) or "none",
    }  # fmt: skip
