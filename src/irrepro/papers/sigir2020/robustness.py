"""How often each of the paper's claims holds when the topics are resampled (beyond the paper).

The paper draws its conclusions from one sample of topics: 50 Core17 topics (and 25 Core18 topics
for reproducibility). Every claim of :data:`~irrepro.papers.sigir2020.claim_checks.CLAIMS` is
re-read here on :data:`RESAMPLES` bootstrap replicates of the topics for each of the :data:`SEEDS`
(the Core17 topics drawn once per replicate for every run and constellation with the seed, the Core18
topics independently with seed + 100), with the measures of :mod:`~irrepro.papers.sigir2020.resampled`,
by the checks of :mod:`~irrepro.papers.sigir2020.resampled_claims`. Kendall's tau of Tables 4 and 5 is
biased under the bootstrap, so its replicates are recentred on the value on all topics
(:func:`~irrepro.reproducibility.resampling.recentred`; :mod:`~irrepro.papers.sigir2020.resampling_design`
measures the bias). :func:`robustness_table` gives, per claim, the share of replicates in which it holds,
its status (stable, borderline or fragile: :mod:`irrepro.papers.robustness`), and the 95% percentile
interval of the number it turns on.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from irrepro.memo import cached
from irrepro.papers.datasets import SYSTEMS
from irrepro.papers.robustness import BORDERLINE_MARGIN, INTERVAL_LEVEL, INTERVALS, STABLE_SHARE
from irrepro.papers.sigir2020.correlation import CORRELATION_COLUMNS, REPRODUCIBILITY_CORRELATION_COLUMNS
from irrepro.papers.sigir2020.resampled import Replicates, replicate_measures, topic_scores
from irrepro.papers.sigir2020.resampled_claims import CHECKS
from irrepro.reproducibility.resampling import (
    identity_weights,
    percentile_interval,
    recentred,
    topic_resamples,
    topic_weights,
)

__all__ = [
    "RESAMPLES", "SEED", "SEEDS", "CORE18_SEED_OFFSET", "SECTION_TITLES", "CHECKS", "replicates", "robustness_table", "correlation_intervals",
    "robustness_numbers",
]  # fmt: skip

#: Bootstrap replicates of the topics per seed, and the seeds of the Core17 draws (Core18: seed +
#: CORE18_SEED_OFFSET, so that no seed's Core18 draws are another seed's Core17 draws). SEED: the first.
RESAMPLES = 1000
SEEDS: tuple[int, ...] = (0, 1, 2, 3, 4)
SEED = SEEDS[0]
CORE18_SEED_OFFSET = 100
#: The paper's sections the claims come from, as the robustness figure titles them.
SECTION_TITLES: dict[str, str] = {"5.1": "5.1 Replicability", "5.2": "5.2 Reproducibility", "5.3": "5.3 Correlations"}

@cached(maxsize=12)  # 5 seeds, drawn and with the values on all topics
def replicates(n_resamples: int = RESAMPLES, seed: int = SEED, *, recentre: bool = True) -> Replicates:
    """Compute the paper's measures on ``n_resamples`` bootstrap replicates of the topics (cached).

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        The number of replicates.
    seed : int, default SEED
        The seed of the Core17 draws (Core18: ``seed + CORE18_SEED_OFFSET``).
    recentre : bool, default True
        Hand the checks the measures on all topics, so that those built on Kendall's tau recentre
        their statistic on its value there (the bootstrap's bias removed:
        :meth:`~irrepro.papers.sigir2020.resampled.Replicates.moved`); ``False``: the replicates as drawn.

    Returns
    -------
    Replicates
        The measures.
    """
    if recentre:
        return dataclasses.replace(replicates(n_resamples, seed, recentre=False), on_all_topics=_on_all_topics())
    scores = topic_scores()
    core17 = topic_weights(topic_resamples(scores.n_core17, n_resamples, seed=seed))
    core18 = topic_weights(topic_resamples(scores.n_core18, n_resamples, seed=seed + CORE18_SEED_OFFSET))
    return replicate_measures(core17, core18)


@cached(maxsize=1)
def _on_all_topics() -> Replicates:
    scores = topic_scores()
    return replicate_measures(identity_weights(scores.n_core17), identity_weights(scores.n_core18))


def robustness_table(n_resamples: int = RESAMPLES, seeds: tuple[int, ...] = SEEDS) -> pd.DataFrame:
    """Check each claim on all topics and under topic resampling (:mod:`irrepro.papers.robustness`).

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        The number of replicates per seed.
    seeds : tuple of int, default SEEDS
        The seeds; their replicates are pooled, and each seed's share is reported.

    Returns
    -------
    pandas.DataFrame
        One row per claim: its verdict on all topics, the share of replicates in which it holds, its
        status, and the number it turns on with its 95% percentile interval.
    """
    return CHECKS.table(_on_all_topics(), *(replicates(n_resamples, seed) for seed in seeds))


def correlation_intervals(n_resamples: int = RESAMPLES, seeds: tuple[int, ...] = SEEDS) -> pd.DataFrame:
    """Give every correlation of Tables 4 and 5 with its percentile interval over the topic resamples.

    The replicates are recentred (:func:`replicates`), so every interval contains the value on all
    topics; those of the replicates as drawn (``drawn low``, ``drawn high``) are given beside them.

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        The number of replicates per seed.
    seeds : tuple of int, default SEEDS
        The seeds, pooled.

    Returns
    -------
    pandas.DataFrame
        One row per table, system and pair of measures (each pair once): ``tau`` on all topics (the
        chapter's tables), ``low`` and ``high`` (:data:`~irrepro.papers.robustness.INTERVAL_LEVEL`),
        ``drawn below``: the share of the replicates as drawn below ``tau``, and ``drawn low``,
        ``drawn high``.
    """
    point = _on_all_topics()
    drawn_by_seed = [replicates(n_resamples, seed, recentre=False) for seed in seeds]
    pooled = {False: drawn_by_seed, True: [dataclasses.replace(r, **{
        table: {s: recentred(getattr(r, table)[s], getattr(point, table)[s][0], bounds=(-1.0, 1.0)) for s in SYSTEMS}
        for table in ("table4", "table5")}) for r in drawn_by_seed]}  # fmt: skip
    rows = []
    for table, columns in (("Table 4", CORRELATION_COLUMNS), ("Table 5", REPRODUCIBILITY_CORRELATION_COLUMNS)):
        name = "table4" if table == "Table 4" else "table5"
        for system in SYSTEMS:
            values = getattr(point, name)[system][0]
            moved, drawn = (np.concatenate([getattr(r, name)[system] for r in pooled[k]]) for k in (True, False))
            for i, j in zip(*np.triu_indices(len(columns), k=1), strict=True):
                low, high = percentile_interval(moved[:, i, j], INTERVAL_LEVEL)
                drawn_low, drawn_high = percentile_interval(drawn[:, i, j], INTERVAL_LEVEL)
                finite = drawn[:, i, j][np.isfinite(drawn[:, i, j])]
                rows.append({"table": table, "system": system, "first": columns[i], "second": columns[j],
                             "tau": float(values[i, j]), "low": low, "high": high,
                             "drawn below": float((finite < values[i, j]).mean()) if finite.size else float("nan"),
                             "drawn low": drawn_low, "drawn high": drawn_high})  # fmt: skip
    return pd.DataFrame(rows)


def _listed(rows: pd.DataFrame) -> str:
    """Conclusions as "label (X%)" by section ("in 5.1: a (55%); b (31%); in 5.3: ..."); "none" when none."""
    parts = []
    for section, part in rows.groupby("section", sort=False):
        parts.append(f"in {section}: " + "; ".join(f"{r['label']} ({r['share holding']:.0%})" for _, r in part.iterrows()))
    return "; ".join(parts) or "none"


def robustness_numbers(table: pd.DataFrame | None = None) -> dict[str, object]:
    """Compute what the chapter's prose says about :func:`robustness_table` (keys for glue).

    Counts of claims by verdict on all topics and status, the fragile and borderline ones listed with
    their shares, and ``outside_interval``: the statistics whose value on all topics lies outside their
    own 95% interval.

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
    holds, status = table["holds on all topics"], table["status"]
    stable, borderline, fragile = (status == "stable"), (status == "borderline"), (status == "fragile")
    outside = (table["on all topics"] < table["low"]) | (table["on all topics"] > table["high"])
    seeds, pooled = int(table["seeds"].max()), int(table["resamples"].max())
    return {
        "resamples": pooled // seeds, "seed": SEED, "seeds": seeds, "seed_list": ", ".join(map(str, SEEDS[:seeds])),
        "pooled_resamples": pooled, "stable_share": f"{STABLE_SHARE:.0%}",
        "borderline_margin": f"{BORDERLINE_MARGIN * 100:.0f}",
        "claims": len(table), "stable": int(stable.sum()), "borderline": int(borderline.sum()), "fragile": int(fragile.sum()),
        "holding": int(holds.sum()), "holding_stable": int((holds & stable).sum()),
        "holding_borderline": int((holds & borderline).sum()), "holding_fragile": int((holds & fragile).sum()),
        "failing": int((~holds).sum()), "failing_fragile": int((~holds & fragile).sum()),
        "failing_borderline": int((~holds & borderline).sum()), "failing_stable": int((~holds & stable).sum()),
        "holding_fragile_list": _listed(table[holds & fragile]), "failing_fragile_list": _listed(table[~holds & fragile]),
        "borderline_list": _listed(table[borderline]), "failing_stable_list": _listed(table[~holds & stable]),
        "recentred": int((table["interval"] == INTERVALS[True]).sum()),
        "outside_interval": int(outside.sum()), "outside_interval_list": ", ".join(table.loc[outside, "label"]) or "none",
    }  # fmt: skip
