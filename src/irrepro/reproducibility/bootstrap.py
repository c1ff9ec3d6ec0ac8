"""Seeded bootstrap confidence intervals for the reproducibility measures (beyond the paper).

The SIGIR 2020 measures are point estimates over a sample of ~50 topics. Resampling the topics
with replacement (Efron & Tibshirani 1993; for IR evaluation Sakai 2006) gives a percentile
interval for each of them:

- replicability (``paired=True``): one topic sample is drawn and used for all four runs, so the
  per-topic pairing between original and replicated runs is kept;
- reproducibility (``paired=False``): the original pair's topics and the new collection's topics
  are resampled independently (each pair stays paired within itself, baseline with advanced).

Resamples in which the statistic is undefined (e.g. a zero original improvement for ER) are
left out; :attr:`ConfidenceInterval.n_undefined` counts them. Deterministic: fixed ``seed`` (an
integer >= 0). At most :data:`MAX_RESAMPLES` resamples (they are drawn at once).

Who computes what
-----------------
:func:`bootstrap_mean`, :func:`bootstrap_rmse` and :func:`bootstrap_mean_difference` are
``scipy.stats.bootstrap`` (``method="percentile"``, a generator seeded with ``seed``): their
statistic is defined in every resample (``tests/reproducibility/test_bootstrap.py`` checks the
intervals against the resampling written out). :func:`bootstrap_effect_ratio` and
:func:`bootstrap_delta_relative_improvement` keep their own resampling, for two things
``scipy.stats.bootstrap`` cannot do:

- leave out and count the resamples in which the ratio is undefined (a zero denominator): scipy
  takes every replicate into its quantiles, so one undefined resample makes the interval NaN;
- resample two pairs independently while keeping each pair paired (reproducibility: the original
  pair on its topics, the new pair on the new collection's topics): scipy pairs either all samples
  or none.

``scipy.stats`` is imported inside the functions that use it: ``irrepro compare`` imports this
module and computes no interval.

The runs of :func:`bootstrap_effect_ratio`, :func:`bootstrap_delta_relative_improvement` and
:func:`bootstrap_mean_difference` are keyword-only arguments: they have one type, and a swap would
silently change the interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.reproducibility.scores import as_topic_series, common_topics
from irrepro.validation import Boolean, Integer, Real, Scores, validate_params

__all__ = [
    "ConfidenceInterval",
    "bootstrap_effect_ratio",
    "bootstrap_delta_relative_improvement",
    "bootstrap_rmse",
    "bootstrap_mean",
    "bootstrap_mean_difference",
    "MAX_RESAMPLES",
]


@dataclass(frozen=True)
class ConfidenceInterval:
    """A point estimate with its bootstrap percentile interval.

    Parameters
    ----------
    estimate : float
        The statistic on the sample itself.
    low, high : float
        The interval's bounds: percentiles of the statistic over the resamples in which it is defined.
    level : float
        The confidence level.
    n_resamples : int
        How many resamples were drawn.
    n_undefined : int
        How many of them left the statistic undefined, and were left out.
    seed : int
        The seed of the resampling.
    """

    estimate: float
    low: float
    high: float
    level: float
    n_resamples: int
    n_undefined: int
    seed: int

    def as_dict(self) -> dict[str, float | int]:
        """Give the fields as a dict, for JSON.

        Returns
        -------
        dict of str -> float or int
            Field name -> value.
        """
        return {
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "level": self.level,
            "n_resamples": self.n_resamples,
            "n_undefined": self.n_undefined,
            "seed": self.seed,
        }


#: Resamples are drawn at once (memory grows as n_resamples x topics x runs): at most this many.
MAX_RESAMPLES = 100_000
_OPTIONS = {"n_resamples": Integer(1, MAX_RESAMPLES), "level": Real(0.0, 1.0, closed="neither"), "seed": Integer(0)}
_SCORES = Scores()
_PAIRS = {"orig_advanced": _SCORES, "orig_baseline": _SCORES, "new_advanced": _SCORES, "new_baseline": _SCORES}


def _aligned(*series: pd.Series, what: str) -> np.ndarray:
    """Stack series on their common topics without NaN: array (n_series, n_topics)."""
    series = [as_topic_series(s, what) for s in series]
    topics = common_topics(*(s.index for s in series), what=what)
    frame = pd.concat([s.reindex(topics) for s in series], axis=1).dropna()
    if len(frame) < 2:
        raise ValueError(f"{what}: fewer than 2 topics with scores in every run")
    return frame.to_numpy(dtype=float).T


def _interval(estimate: float, replicates: np.ndarray, *, level: float, n_resamples: int, seed: int) -> ConfidenceInterval:
    defined = replicates[np.isfinite(replicates)]
    if len(defined) == 0:
        raise ValueError("the statistic is undefined in every bootstrap resample")
    alpha = (1 - level) / 2
    low, high = np.quantile(defined, [alpha, 1 - alpha])
    return ConfidenceInterval(float(estimate), float(low), float(high), level, n_resamples, int(len(replicates) - len(defined)), seed)


def _resample_means(values: np.ndarray, rng: np.random.Generator, n_resamples: int) -> np.ndarray:
    """Means of each row of ``values`` (n_series, n_topics) over the same resampled topics."""
    n = values.shape[1]
    idx = rng.integers(0, n, size=(n_resamples, n))
    return values[:, idx].mean(axis=2)  # (n_series, n_resamples)


def _pair_means(orig_adv, orig_base, new_adv, new_base, *, paired, rng, n_resamples, what):
    if paired:
        values = _aligned(orig_adv, orig_base, new_adv, new_base, what=what)
        means = _resample_means(values, rng, n_resamples)
        return values.mean(axis=1), means
    orig = _aligned(orig_adv, orig_base, what=f"{what} (original pair)")
    new = _aligned(new_adv, new_base, what=f"{what} (new pair)")
    means = np.vstack([_resample_means(orig, rng, n_resamples), _resample_means(new, rng, n_resamples)])
    return np.r_[orig.mean(axis=1), new.mean(axis=1)], means


@validate_params(**_PAIRS, paired=Boolean(), **_OPTIONS)
def bootstrap_effect_ratio(
    *,
    orig_baseline: pd.Series,
    orig_advanced: pd.Series,
    new_baseline: pd.Series,
    new_advanced: pd.Series,
    paired: bool,
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
) -> ConfidenceInterval:
    """Percentile interval of ER = mean(a' - b') / mean(a - b), resampling topics.

    Parameters
    ----------
    orig_baseline, orig_advanced : pandas.Series
        Per-topic scores of the original pair (b, a), indexed by topic.
    new_baseline, new_advanced : pandas.Series
        Per-topic scores of the new pair (b', a').
    paired : bool
        True under replicability (one topic sample for all four runs), False under
        reproducibility (each pair resampled on its own topics).
    n_resamples : int, default 10000
        How many resamples to draw, at most :data:`MAX_RESAMPLES`.
    level : float, default 0.95
        The interval's confidence level, in (0, 1).
    seed : int, default 0
        The seed of the resampling (an integer >= 0).

    Returns
    -------
    ConfidenceInterval
        The estimate on all topics, the percentile interval and how many resamples left it undefined.

    Raises
    ------
    ValueError
        If ER is undefined on the sample itself (a zero mean improvement of the original pair).
    """
    rng = np.random.default_rng(seed)
    point, means = _pair_means(
        orig_advanced, orig_baseline, new_advanced, new_baseline, paired=paired, rng=rng, n_resamples=n_resamples, what="ER"
    )
    if point[0] - point[1] == 0:
        raise ValueError("ER is undefined: zero mean improvement of the original advanced over the original baseline")
    with np.errstate(invalid="ignore", divide="ignore"):
        replicates = (means[2] - means[3]) / (means[0] - means[1])
    return _interval((point[2] - point[3]) / (point[0] - point[1]), replicates, level=level, n_resamples=n_resamples, seed=seed)


@validate_params(**_PAIRS, paired=Boolean(), **_OPTIONS)
def bootstrap_delta_relative_improvement(
    *,
    orig_baseline: pd.Series,
    orig_advanced: pd.Series,
    new_baseline: pd.Series,
    new_advanced: pd.Series,
    paired: bool,
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
) -> ConfidenceInterval:
    """Percentile interval of DeltaRI = RI - RI', resampling topics.

    Parameters
    ----------
    orig_baseline, orig_advanced : pandas.Series
        Per-topic scores of the original pair (b, a), indexed by topic.
    new_baseline, new_advanced : pandas.Series
        Per-topic scores of the new pair (b', a').
    paired : bool
        True under replicability (one topic sample for all four runs), False under
        reproducibility (each pair resampled on its own topics).
    n_resamples : int, default 10000
        How many resamples to draw, at most :data:`MAX_RESAMPLES`.
    level : float, default 0.95
        The interval's confidence level, in (0, 1).
    seed : int, default 0
        The seed of the resampling (an integer >= 0).

    Returns
    -------
    ConfidenceInterval
        The estimate on all topics, the percentile interval and how many resamples left it undefined.

    Raises
    ------
    ValueError
        If DeltaRI is undefined on the sample itself (a zero baseline mean: the paper drops such runs).
    """
    rng = np.random.default_rng(seed)
    point, means = _pair_means(
        orig_advanced, orig_baseline, new_advanced, new_baseline, paired=paired, rng=rng, n_resamples=n_resamples, what="DeltaRI"
    )
    if point[1] == 0 or point[3] == 0:
        raise ValueError("DeltaRI is undefined: zero baseline mean (the paper drops such runs)")
    with np.errstate(invalid="ignore", divide="ignore"):
        replicates = (means[0] - means[1]) / means[1] - (means[2] - means[3]) / means[3]
    estimate = (point[0] - point[1]) / point[1] - (point[2] - point[3]) / point[3]
    return _interval(estimate, replicates, level=level, n_resamples=n_resamples, seed=seed)


def _scipy_interval(estimate: float, samples: tuple[np.ndarray, ...], statistic, *, paired: bool, n_resamples: int,
                    level: float, seed: int) -> ConfidenceInterval:
    """``scipy.stats.bootstrap``'s percentile interval of ``statistic(*samples)`` (vectorised over the last axis)."""
    from scipy import stats  # about a second to import: only where an interval is asked for

    result = stats.bootstrap(samples, lambda *resampled, axis: statistic(*resampled), paired=paired, vectorized=True,
                             method="percentile", n_resamples=n_resamples, confidence_level=level,
                             rng=np.random.default_rng(seed))  # fmt: skip
    interval = result.confidence_interval
    return ConfidenceInterval(float(estimate), float(interval.low), float(interval.high), level, n_resamples, 0, seed)


def _root_mean_square_difference(original: np.ndarray, replicated: np.ndarray) -> np.ndarray:
    return np.sqrt(((original - replicated) ** 2).mean(axis=-1))


@validate_params(original=_SCORES, replicated=_SCORES, **_OPTIONS)
def bootstrap_rmse(
    original: pd.Series, replicated: pd.Series, *, n_resamples: int = 10_000, level: float = 0.95, seed: int = 0
) -> ConfidenceInterval:
    """Percentile interval of RMSE between original and replicated per-topic scores (paired).

    Parameters
    ----------
    original, replicated : pandas.Series
        Per-topic scores of the original and the replicated run, indexed by topic; the topics both
        have are resampled.
    n_resamples : int, default 10000
        How many resamples to draw, at most :data:`MAX_RESAMPLES`.
    level : float, default 0.95
        The interval's confidence level, in (0, 1).
    seed : int, default 0
        The seed of the resampling (an integer >= 0).

    Returns
    -------
    ConfidenceInterval
        The estimate on all topics, the percentile interval and how many resamples left it undefined.

    Raises
    ------
    ValueError
        If the two runs have no topic in common.
    """
    values = _aligned(original, replicated, what="RMSE")
    estimate = _root_mean_square_difference(values[0], values[1])
    return _scipy_interval(estimate, (values[0], values[1]), _root_mean_square_difference, paired=True,
                           n_resamples=n_resamples, level=level, seed=seed)  # fmt: skip


@validate_params(per_topic=_SCORES, **_OPTIONS)
def bootstrap_mean(
    per_topic: pd.Series, *, n_resamples: int = 10_000, level: float = 0.95, seed: int = 0
) -> ConfidenceInterval:
    """Percentile interval of a mean over topics (mean KTU, mean RBO, ARP); NaN topics dropped.

    Parameters
    ----------
    per_topic : pandas.Series
        A value per topic, indexed by topic.
    n_resamples : int, default 10000
        How many resamples to draw, at most :data:`MAX_RESAMPLES`.
    level : float, default 0.95
        The interval's confidence level, in (0, 1).
    seed : int, default 0
        The seed of the resampling (an integer >= 0).

    Returns
    -------
    ConfidenceInterval
        The estimate on all topics, the percentile interval and how many resamples left it undefined.

    Raises
    ------
    ValueError
        If fewer than 2 topics have a value.
    """
    values = as_topic_series(per_topic, "bootstrap_mean").dropna().to_numpy(dtype=float)
    if len(values) < 2:
        raise ValueError("bootstrap_mean: fewer than 2 topics with a value")
    return _scipy_interval(values.mean(), (values,), lambda x: x.mean(axis=-1), paired=True, n_resamples=n_resamples,
                           level=level, seed=seed)  # fmt: skip


@validate_params(original=_SCORES, new=_SCORES, paired=Boolean(), **_OPTIONS)
def bootstrap_mean_difference(
    *,
    original: pd.Series,
    new: pd.Series,
    paired: bool,
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
) -> ConfidenceInterval:
    """Percentile interval of the difference of mean scores, ``mean(new) - mean(original)``.

    The interval that goes with the t-tests of the paper (Section 3.2): ``paired=True``
    (replicability) resamples the topics both runs have and keeps each topic's pair, so the
    estimate is the mean per-topic difference; ``paired=False`` (reproducibility: different
    topics) resamples each run's topics independently. NaN topics are dropped.

    Parameters
    ----------
    original, new : pandas.Series
        Per-topic scores of the original and the new run, indexed by topic.
    paired : bool
        Resample topic pairs (replicability) or each run on its own (reproducibility).
    n_resamples : int, default 10000
        How many resamples to draw, at most :data:`MAX_RESAMPLES`.
    level : float, default 0.95
        The interval's confidence level, in (0, 1).
    seed : int, default 0
        The seed of the resampling (an integer >= 0).

    Returns
    -------
    ConfidenceInterval
        The estimate on all topics, the percentile interval and how many resamples left it undefined.

    Raises
    ------
    ValueError
        If a run has fewer than 2 topics with a score.
    """
    options = {"n_resamples": n_resamples, "level": level, "seed": seed}
    if paired:
        values = _aligned(original, new, what="mean difference")
        return _scipy_interval((values[1] - values[0]).mean(), (values[0], values[1]),
                               lambda x, y: (y - x).mean(axis=-1), paired=True, **options)  # fmt: skip
    sides = []
    for series, what in ((new, "new"), (original, "original")):
        values = as_topic_series(series, f"mean difference ({what})").dropna().to_numpy(dtype=float)
        if len(values) < 2:
            raise ValueError(f"mean difference: fewer than 2 topics with a score in the {what} run")
        sides.append(values)
    return _scipy_interval(sides[0].mean() - sides[1].mean(), tuple(sides),
                           lambda y, x: y.mean(axis=-1) - x.mean(axis=-1), paired=False, **options)  # fmt: skip
