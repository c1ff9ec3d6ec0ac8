"""Every statistic of a comparison on topic resamples shared by a whole analysis (beyond the paper).

A report on several reproduced pairs draws the topics once (:func:`draw_topics`, seeded): every pair,
measure and statistic is re-computed on the same ``B`` bootstrap resamples of the topics
(:mod:`irrepro.reproducibility.resampling`: weights, no run evaluated again). In the replicability
setting one draw serves all four runs, so each topic's pairing of original and new run is kept; in
the reproducibility setting the new collection's topics are drawn independently (seed + 1, as the
book's robustness analyses draw the Core18 topics).

:func:`comparison_replicates` gives, for one :class:`~irrepro.reproducibility.compare.Comparison`, a
``(B,)`` array per statistic keyed as the rows of :meth:`~irrepro.reproducibility.compare.Comparison.to_frame`
(``(statistic, run, measure)``): mean KTU and RBO, RMSE, DeltaARP, the p-value of the setting's
t-test, ER and DeltaRI. Each is the statistic's formula (Breuer et al., SIGIR 2020, Section 3) on the
drawn topics; a topic a run lacks (NaN, ``missing_topics="drop"``) is skipped as the statistic skips it
on all topics. On the identity resample they are ``compare_runs``' numbers (tested).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.reproducibility.compare import KINDS, Comparison
from irrepro.reproducibility.resampling import (
    paired_t_pvalues,
    resampled_means,
    student_t_pvalues,
    topic_resamples,
    topic_weights,
)
from irrepro.topic_order import sort_topics

__all__ = ["TopicDraws", "draw_topics", "comparison_replicates"]

Key = tuple[str, str, str]  # (statistic, run, measure), as the rows of Comparison.to_frame()


@dataclass(frozen=True)
class TopicDraws:
    """The topic resamples of one analysis, shared by every statistic of it.

    Parameters
    ----------
    topics : tuple of str
        The original collection's topics, in the package's topic order.
    weights : numpy.ndarray
        ``(B, topics)``: how many times each resample draws each topic.
    seed : int
        The seed of the original collection's draws (the new collection's is ``seed + 1``).
    new_topics : tuple of str, optional
        The new collection's topics, for reproducibility (``None`` for replicability).
    new_weights : numpy.ndarray, optional
        ``(B, new_topics)``, alike.
    """

    topics: tuple[str, ...]
    weights: np.ndarray
    seed: int
    new_topics: tuple[str, ...] | None = None
    new_weights: np.ndarray | None = None

    @property
    def n_resamples(self) -> int:
        """The number B of resamples."""
        return self.weights.shape[0]


def draw_topics(topics: Iterable[str], n_resamples: int, *, seed: int, new_topics: Iterable[str] | None = None) -> TopicDraws:
    """Draw ``n_resamples`` bootstrap resamples of ``topics``, and of ``new_topics`` if given.

    Parameters
    ----------
    topics : iterable of str
        The original collection's topics (put in the package's topic order).
    n_resamples : int
        How many resamples to draw.
    seed : int
        The seed of the draws of ``topics``; ``new_topics`` are drawn with ``seed + 1``.
    new_topics : iterable of str, optional
        The new collection's topics, for reproducibility.

    Returns
    -------
    TopicDraws
        The draws, as weights per resample and topic.
    """
    topics = tuple(sort_topics(set(map(str, topics))))
    weights = topic_weights(topic_resamples(len(topics), n_resamples, seed=seed))
    if new_topics is None:
        return TopicDraws(topics, weights, seed)
    new_topics = tuple(sort_topics(set(map(str, new_topics))))
    new_weights = topic_weights(topic_resamples(len(new_topics), n_resamples, seed=seed + 1))
    return TopicDraws(topics, weights, seed, new_topics, new_weights)


def _on(values: pd.Series, topics: tuple[str, ...]) -> np.ndarray:
    """Per-topic values on the drawn topics (NaN where there is none)."""
    values = values.set_axis(values.index.map(str))
    return values.reindex(list(topics)).to_numpy(dtype=float)


def _where_all(*arrays: np.ndarray) -> list[np.ndarray]:
    """The arrays with NaN wherever any of them is NaN (the topics a statistic of them has)."""
    missing = np.logical_or.reduce([np.isnan(a) for a in arrays])
    return [np.where(missing, np.nan, a) for a in arrays]


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return numerator / denominator


def _ranking(comparison: Comparison, draws: TopicDraws) -> dict[Key, np.ndarray]:
    """Mean KTU and RBO of each run kind (topics where they are undefined are skipped, as their mean skips them)."""
    return {
        (statistic, kind, ""): resampled_means(draws.weights, _on(per_kind[kind], draws.topics), skipna=True)
        for statistic, per_kind in (("KTU", comparison.ktu), ("RBO", comparison.rbo)) for kind in KINDS
    }  # fmt: skip


def _paired(scores: dict[str, np.ndarray], measure: str, weights: np.ndarray) -> dict[Key, np.ndarray]:
    """RMSE, DeltaARP and the paired t-test of each run kind, ER and DeltaRI: one draw for all four runs."""
    out: dict[Key, np.ndarray] = {}
    for kind in KINDS:
        before, after = scores[f"orig_{kind}"], scores[f"new_{kind}"]
        difference = after - before  # NaN where either run lacks the topic
        out[("RMSE", kind, measure)] = np.sqrt(resampled_means(weights, difference**2, skipna=True))
        # ARP of each run over its own topics, as compare_runs' ARP (the same as the mean difference without NaN)
        out[("DeltaARP", kind, measure)] = resampled_means(weights, after, skipna=True) - resampled_means(weights, before, skipna=True)
        out[("p", kind, measure)] = paired_t_pvalues(weights, difference, skipna=True)
    a, b, a_new, b_new = _where_all(*(scores[role] for role in ("orig_advanced", "orig_baseline", "new_advanced", "new_baseline")))
    out[("ER", "", measure)] = _ratio(resampled_means(weights, a_new - b_new, skipna=True), resampled_means(weights, a - b, skipna=True))
    out[("DeltaRI", "", measure)] = _relative(weights, "orig", scores) - _relative(weights, "new", scores)
    return out


def _relative(weights: np.ndarray, side: str, scores: dict[str, np.ndarray]) -> np.ndarray:
    """RI = (mean(a) - mean(b)) / mean(b) of one side's pair, over the drawn topics both runs have."""
    advanced, baseline = _where_all(scores[f"{side}_advanced"], scores[f"{side}_baseline"])
    mean_baseline = resampled_means(weights, baseline, skipna=True)
    return _ratio(resampled_means(weights, advanced, skipna=True) - mean_baseline, mean_baseline)


def _unpaired(original: dict[str, np.ndarray], new: dict[str, np.ndarray], measure: str, draws: TopicDraws) -> dict[Key, np.ndarray]:
    """DeltaARP and Student's t-test of each run kind, ER and DeltaRI: each collection's own draws."""
    weights, new_weights = draws.weights, draws.new_weights
    out: dict[Key, np.ndarray] = {}
    for kind in KINDS:
        before, after = original[f"orig_{kind}"], new[f"new_{kind}"]
        out[("DeltaARP", kind, measure)] = resampled_means(new_weights, after, skipna=True) - resampled_means(weights, before, skipna=True)
        out[("p", kind, measure)] = student_t_pvalues(weights, before, new_weights, after, skipna=True)
    a, b = _where_all(original["orig_advanced"], original["orig_baseline"])
    a_new, b_new = _where_all(new["new_advanced"], new["new_baseline"])
    out[("ER", "", measure)] = _ratio(resampled_means(new_weights, a_new - b_new, skipna=True), resampled_means(weights, a - b, skipna=True))
    out[("DeltaRI", "", measure)] = _relative(weights, "orig", original) - _relative(new_weights, "new", new)
    return out


def comparison_replicates(comparison: Comparison, draws: TopicDraws) -> dict[Key, np.ndarray]:
    """Compute every statistic of ``comparison`` (but ARP) on the resamples of ``draws``.

    Parameters
    ----------
    comparison : Comparison
        As :func:`~irrepro.reproducibility.compare.compare_runs` returns it, with its per-topic scores.
    draws : TopicDraws
        The resamples: with new topics for a reproducibility comparison, without for replicability.

    Returns
    -------
    dict of (statistic, run, measure) -> numpy.ndarray
        ``(B,)`` arrays keyed as the rows of :meth:`Comparison.to_frame`; NaN in a resample where
        the statistic is undefined (e.g. no drawn topic with a value, a zero original improvement
        for ER).

    Raises
    ------
    ValueError
        If ``draws`` do not fit the comparison's setting.
    """
    paired = comparison.setting == "replicability"
    if paired != (draws.new_weights is None):
        raise ValueError(f"a {comparison.setting} comparison needs draws {'without' if paired else 'with'} new topics")
    out = _ranking(comparison, draws) if paired else {}
    for measure in comparison.measures:
        per_topic = comparison.per_topic[measure]
        original = {role: _on(per_topic[role], draws.topics) for role in per_topic.columns}
        if paired:
            out.update(_paired(original, measure, draws.weights))
        else:
            new = {role: _on(per_topic[role], draws.new_topics) for role in per_topic.columns}
            out.update(_unpaired(original, new, measure, draws))
    return out
