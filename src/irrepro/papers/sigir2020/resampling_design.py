"""Which topic resampling gives intervals centred on what they estimate: the bias, measured (beyond the paper).

The robustness analysis (:mod:`~irrepro.papers.sigir2020.robustness`) re-reads each claim on resamples
of the topics. A resampling design is right for a statistic when its replicates are centred on the
statistic's value on all topics: then about half of them lie below it. Two measurements choose the
design, both computed when the book is built:

- :func:`bias_table`: on the paper's own data, for every claim's statistic, the share of the replicates
  below (and equal to) its value on all topics, for the bootstrap as drawn, the bootstrap recentred
  (:func:`~irrepro.reproducibility.resampling.recentred`) and half-sampling (half of the topics drawn
  without replacement, :func:`~irrepro.reproducibility.resampling.topic_subsamples`);
- :func:`coverage_simulation`: a population of topics whose truth is known, a Gaussian with the mean and
  covariance of the Core17 per-topic AP and nDCG of WCrobust04 and its 20 printed replicated runs. Each
  simulated study draws :data:`STUDY_TOPICS` topics from it and resamples them; its target is what a
  new sample of as many topics gives: the median of the statistic over :data:`FRESH_SAMPLES` fresh
  samples, and the share of them in which "statistic > threshold" holds. Two statistics: Kendall's tau
  between the paired t-test p-values of AP and of nDCG over the 20 runs (a Table 4 correlation), and
  the mean AP difference of one run (a mean).

The simulation is ours and small; it shows the direction and rough size of the bias, not its exact size
on the paper's data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.memo import cached
from irrepro.papers.datasets import BASELINE
from irrepro.papers.sigir2020.resampled import PRINTED_POSITIONS, replicate_measures, topic_scores
from irrepro.papers.sigir2020.resampled_claims import CHECKS
from irrepro.papers.sigir2020.robustness import CORE18_SEED_OFFSET, RESAMPLES, SEED, replicates
from irrepro.reproducibility.resampling import (
    kendall_tau_b,
    paired_t_pvalues,
    percentile_interval,
    recentred,
    topic_resamples,
    topic_subsamples,
    topic_weights,
)

__all__ = [
    "DESIGNS", "STUDIES", "STUDY_RESAMPLES", "STUDY_TOPICS", "FRESH_SAMPLES", "SIMULATION_SEED", "bias_table",
    "coverage_simulation", "design_numbers",
]  # fmt: skip

#: The designs compared, as the tables name them.
DESIGNS: tuple[str, ...] = ("bootstrap, as drawn", "bootstrap, recentred", "half-sampling")
#: The simulation's size: studies, resamples per study, topics per study, fresh samples for the target.
STUDIES = 120
STUDY_RESAMPLES = 400
STUDY_TOPICS = 50
FRESH_SAMPLES = 2000
SIMULATION_SEED = 2020
#: The simulated claim "statistic > threshold" puts its threshold at this quantile of the fresh samples.
THRESHOLD_QUANTILE = 0.3


def _half_samples(n_resamples: int, seed: int):
    scores = topic_scores()
    core17 = topic_weights(topic_subsamples(scores.n_core17, n_resamples, size=scores.n_core17 // 2, seed=seed), scores.n_core17)
    core18 = topic_weights(
        topic_subsamples(scores.n_core18, n_resamples, size=scores.n_core18 // 2, seed=seed + CORE18_SEED_OFFSET),
        scores.n_core18,
    )
    return replicate_measures(core17, core18)


@cached(maxsize=1)
def bias_table(n_resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """Measure, for every claim's statistic, where its replicates lie against its value on all topics.

    Parameters
    ----------
    n_resamples : int, default RESAMPLES
        Replicates per design.
    seed : int, default SEED
        The seed of the draws.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``id``, ``label``, ``statistic``, ``recentred`` (whether the robustness table
        recentres it), and per design of :data:`DESIGNS` the share of replicates ``below`` the value on
        all topics and ``at`` it (a count's ties).
    """
    drawn = replicates(n_resamples, seed, recentre=False)
    outcomes = {
        DESIGNS[0]: CHECKS.outcomes(drawn),
        DESIGNS[1]: CHECKS.outcomes(replicates(n_resamples, seed)),
    }
    with np.errstate(invalid="ignore"):  # a half sample can leave a ratio 0/0 or inf - inf: NaN, dropped below
        outcomes[DESIGNS[2]] = CHECKS.outcomes(_half_samples(n_resamples, seed))
    point = CHECKS.outcomes(replicates(n_resamples, seed).on_all_topics)
    recentred_ids = {check.id for check in CHECKS._checks if check.recentred}
    rows = []
    for claim_id in CHECKS.ids():
        value = point[claim_id].statistic[0]
        row = {"id": claim_id, "label": next(c.label for c in CHECKS._checks if c.id == claim_id),
               "recentred": claim_id in recentred_ids}  # fmt: skip
        for design, by_id in outcomes.items():
            statistic = by_id[claim_id].statistic
            statistic = statistic[np.isfinite(statistic)]
            row[(design, "below")] = float((statistic < value).mean())
            row[(design, "at")] = float((statistic == value).mean())
        rows.append(row)
    return pd.DataFrame(rows)


def _simulated_statistics(differences_ap: np.ndarray, differences_ndcg: np.ndarray, weights: np.ndarray):
    """tau(p of AP, p of nDCG) over the runs and run 1's mean AP difference, per replicate of weights."""
    p_ap, p_ndcg = paired_t_pvalues(weights, differences_ap), paired_t_pvalues(weights, differences_ndcg)
    tau = kendall_tau_b(np.stack([p_ap, p_ndcg], axis=2))[:, 0, 1]
    return tau, (weights @ differences_ap[:, 0]) / weights.sum(axis=1)


@cached(maxsize=1)
def coverage_simulation(*, studies: int = STUDIES, resamples: int = STUDY_RESAMPLES, seed: int = SIMULATION_SEED) -> pd.DataFrame:
    """Simulate studies from a known population of topics and score each design's replicates against the truth.

    Parameters
    ----------
    studies : int, default STUDIES
        Simulated studies.
    resamples : int, default STUDY_RESAMPLES
        Replicates per study and design.
    seed : int, default SIMULATION_SEED
        The seed of the population's draws and of the resampling.

    Returns
    -------
    pandas.DataFrame
        One row per statistic and design: ``below`` (mean share of a study's replicates below its own
        value), ``coverage`` (share of the studies whose 95% interval contains the target), ``estimated
        share`` (mean share of replicates in which "statistic > threshold" holds) beside ``true share``
        (the share of fresh samples in which it holds), and ``target``, ``threshold``.
    """
    scores = topic_scores()
    columns = list(PRINTED_POSITIONS)
    original_ap, runs_ap = scores.replicated[(BASELINE, "AP")]
    original_ndcg, runs_ndcg = scores.replicated[(BASELINE, "nDCG")]
    data = np.concatenate([original_ap[:, None] - runs_ap[:, columns], original_ndcg[:, None] - runs_ndcg[:, columns]], axis=1)
    mean, spread = data.mean(axis=0), (data - data.mean(axis=0)).T / np.sqrt(len(data) - 1)
    rng = np.random.default_rng(seed)
    runs = len(columns)

    def sample(count: int) -> np.ndarray:  # (count, topics, 2 runs) from N(mean, covariance of the data)
        return mean + rng.standard_normal((count, STUDY_TOPICS, len(data))) @ spread.T

    from scipy.stats import ttest_1samp  # the paired t-test of the differences, all fresh samples at once

    fresh = sample(FRESH_SAMPLES)
    p_values = ttest_1samp(fresh, 0.0, axis=1).pvalue  # (samples, 2 runs)
    truth = np.stack([kendall_tau_b(np.stack([p_values[:, :runs], p_values[:, runs:]], axis=2))[:, 0, 1],
                      fresh[:, :, 0].mean(axis=1)], axis=1)  # fmt: skip
    ones = np.ones((1, STUDY_TOPICS))
    target, threshold = np.median(truth, axis=0), np.quantile(truth, THRESHOLD_QUANTILE, axis=0)
    true_share = (truth > threshold).mean(axis=0)
    records = {(k, d): {"below": [], "coverage": [], "estimated share": []} for k in range(2) for d in DESIGNS}
    for study, x in enumerate(sample(studies)):
        value = [s[0] for s in _simulated_statistics(x[:, :runs], x[:, runs:], ones)]
        boot = topic_weights(topic_resamples(STUDY_TOPICS, resamples, seed=seed + study))
        half = topic_weights(topic_subsamples(STUDY_TOPICS, resamples, size=STUDY_TOPICS // 2, seed=seed + study), STUDY_TOPICS)
        drawn, halved = _simulated_statistics(x[:, :runs], x[:, runs:], boot), _simulated_statistics(x[:, :runs], x[:, runs:], half)
        for k in range(2):
            by_design = {DESIGNS[0]: drawn[k], DESIGNS[1]: recentred(drawn[k], value[k]), DESIGNS[2]: halved[k]}
            for design, replicated in by_design.items():
                low, high = percentile_interval(replicated)
                records[(k, design)]["below"].append((replicated < value[k]).mean())
                records[(k, design)]["coverage"].append(low <= target[k] <= high)
                records[(k, design)]["estimated share"].append((replicated > threshold[k]).mean())
    names = ("tau(p of AP, p of nDCG), 20 runs", "mean AP difference, one run")
    return pd.DataFrame([
        {"statistic": names[k], "design": design, **{key: float(np.mean(v)) for key, v in values.items()},
         "true share": float(true_share[k]), "target": float(target[k]), "threshold": float(threshold[k])}
        for (k, design), values in records.items()
    ])  # fmt: skip


def design_numbers(bias: pd.DataFrame | None = None, simulation: pd.DataFrame | None = None) -> dict[str, object]:
    """Compute what the chapter's prose says about :func:`bias_table` and :func:`coverage_simulation` (keys for glue).

    Parameters
    ----------
    bias : pandas.DataFrame, optional
        :func:`bias_table`; default: computed now.
    simulation : pandas.DataFrame, optional
        :func:`coverage_simulation`; default: computed now.

    Returns
    -------
    dict of str -> object
        Name -> number or text.
    """
    bias = bias_table() if bias is None else bias
    simulation = coverage_simulation() if simulation is None else simulation
    tau, other = bias[bias["recentred"]], bias[~bias["recentred"]]
    drawn, moved, half = ((d, "below") for d in DESIGNS)

    def cell(statistic: int, design: str, column: str) -> float:
        names = simulation["statistic"].unique()
        row = simulation[(simulation["statistic"] == names[statistic]) & (simulation["design"] == design)]
        return float(row[column].iloc[0])

    return {
        "tau_checks": len(tau), "other_checks": len(other),
        "tau_below_low": f"{tau[drawn].min():.0%}", "tau_below_high": f"{tau[drawn].max():.0%}",
        "tau_below_median": f"{tau[drawn].median():.0%}",
        "tau_half_below_low": f"{tau[half].min():.0%}", "tau_half_below_high": f"{tau[half].max():.0%}",
        "tau_recentred_below_low": f"{tau[moved].min():.0%}", "tau_recentred_below_high": f"{tau[moved].max():.0%}",
        "other_below_low": f"{other[drawn].min():.0%}", "other_below_high": f"{other[drawn].max():.0%}",
        "other_below_median": f"{other[drawn].median():.0%}",
        "studies": STUDIES, "study_resamples": STUDY_RESAMPLES, "study_topics": STUDY_TOPICS,
        "fresh_samples": FRESH_SAMPLES, "threshold_quantile": f"{THRESHOLD_QUANTILE:.0%}",
        **{f"sim_{k}_{key}_{column.replace(' ', '_')}": f"{cell(k, design, column):.0%}"
           for k in range(2) for key, design in zip(("drawn", "recentred", "half"), DESIGNS, strict=True)
           for column in ("below", "coverage", "estimated share")},
        "sim_0_true_share": f"{cell(0, DESIGNS[0], 'true share'):.0%}",
        "sim_1_true_share": f"{cell(1, DESIGNS[0], 'true share'):.0%}",
    }  # fmt: skip
