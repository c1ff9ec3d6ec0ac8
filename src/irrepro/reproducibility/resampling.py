"""Topic resampling as index arithmetic: many bootstrap replicates of per-topic statistics at once.

A bootstrap replicate draws ``n`` topics with replacement from the ``n`` topics of a collection
(Efron & Tibshirani 1993; for IR evaluation Sakai 2006). Every statistic the reproducibility
measures need is a function of sums over topics, so a replicate is fully described by its topic
*weights* ``c_bj`` (how often replicate ``b`` drew topic ``j``; ``sum_j c_bj = n``), and ``B``
replicates of a mean are one matrix product::

    mean_b(x) = (1/n) sum_j c_bj x_j          (weights @ values / n)

The functions here take a ``(B, n)`` weight matrix (:func:`topic_weights` of a ``(B, n)`` index
matrix from :func:`topic_resamples`) and per-topic arrays with topics on the first axis, and return
one value per replicate (and per run): means, RMSE (Eq. 3 of Breuer et al., SIGIR 2020), the
paired and Student's unpaired t-test p-values (as ``scipy.stats.ttest_rel`` / ``ttest_ind`` compute
them), Kendall's tau-b among columns, and the summaries of replicates (the share of replicates in
which a condition holds; percentile intervals; whether a verdict is stable). The weights of the
identity resample (every topic once) give the point estimates on all topics.

With ``skipna=True`` a NaN marks a topic without a value (a topic a run lacks): each replicate then
uses the drawn topics that have one, as often as they were drawn (``n_b = sum_j c_bj [x_j defined]``
topics), which is what the statistic computed on the drawn topics gives.

Kendall's tau between per-run statistics is biased under the bootstrap: a replicate's statistics carry
the noise of a second sample on top of the first, which pulls the correlation between them down (on the
SIGIR 2020 statistics 74-98% of the replicates lie below the value on all topics; drawing half of the
topics without replacement, :func:`topic_subsamples`, does not remove it). :func:`recentred` moves such
replicates so that their median is the value on all topics, the bootstrap's own estimate of the bias
removed (Efron & Tibshirani 1993, Sec. 10.6): the distribution a new sample of the same number of topics
would give, under the bootstrap's assumption that the replicates' spread is that of such samples.
Means, RMSE and the counts built on them need no such correction (their replicates lie about half below
the value on all topics); the chapter on SIGIR 2020 shows both measurements.

A verdict is **stable** when the replicates keep it in at least :data:`STABLE_SHARE` of the cases,
**fragile** when they keep it in fewer, and **borderline** when its share is too close to the threshold
to tell (:func:`stability`): within :data:`BORDERLINE_MARGIN`, within twice its own standard error, or
on both sides of it for different seeds.

Deterministic: the index matrix comes from ``numpy.random.default_rng(seed)``; the first ``B``
rows drawn with one seed are the same whatever the total number of rows, so an analysis run with
fewer replicates uses a prefix of the same resamples.

>>> indices = topic_resamples(4, 3, seed=0)
>>> indices.shape, topic_weights(indices).sum(axis=1).tolist()
((3, 4), [4.0, 4.0, 4.0])
>>> resampled_means(identity_weights(3), np.array([0.2, 0.4, 0.9])).round(6).tolist()
[0.5]
"""

from __future__ import annotations

import warnings

import numpy as np

__all__ = [
    "STABLE_SHARE",
    "STABILITY",
    "TIE_TOLERANCE",
    "BORDERLINE_MARGIN",
    "topic_resamples",
    "topic_subsamples",
    "topic_weights",
    "identity_weights",
    "resampled_means",
    "resampled_rmse",
    "paired_t_pvalues",
    "student_t_pvalues",
    "kendall_tau_b",
    "share_holding",
    "percentile_interval",
    "recentred",
    "stability",
]

#: A verdict kept in at least this share of the resamples is stable; below it, fragile (our threshold:
#: the usual 95% of a percentile interval). The book's chapters and ``irrepro report`` use it alike.
STABLE_SHARE = 0.95
#: A kept share closer than this to :data:`STABLE_SHARE` is borderline (ours: two percentage points, more
#: than the seed-to-seed spread of 1,000 resamples, about 0.7 points at 95%).
BORDERLINE_MARGIN = 0.02
STABILITY: tuple[str, ...] = ("stable", "borderline", "fragile")

#: Two values closer than this, relative to their size, are tied in :func:`kendall_tau_b`: the same mean
#: summed in another order differs in its last bits, which must not break a tie.
TIE_TOLERANCE = 1e-12


def topic_resamples(n_topics: int, n_resamples: int, *, seed: int) -> np.ndarray:
    """Draw topic indices with replacement, one row per replicate.

    Parameters
    ----------
    n_topics : int
        How many topics there are to draw from (>= 1).
    n_resamples : int
        How many replicates B to draw (>= 1).
    seed : int
        The seed of the generator (an integer >= 0).

    Returns
    -------
    numpy.ndarray
        ``(n_resamples, n_topics)`` topic indices (row ``b``: replicate ``b``).

    Raises
    ------
    ValueError
        For no topic, no resample or a negative seed.
    """
    if n_topics < 1 or n_resamples < 1:
        raise ValueError(f"need at least one topic and one resample, got {n_topics} topics, {n_resamples} resamples")
    if seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed}")
    return np.random.default_rng(seed).integers(0, n_topics, size=(n_resamples, n_topics))


def topic_subsamples(n_topics: int, n_resamples: int, *, size: int, seed: int) -> np.ndarray:
    """Draw ``size`` distinct topics per replicate (without replacement), one row per replicate.

    Half-sampling (``size = n // 2``) and the delete-d jackknife (``size = n - d``) draw this way; the
    chapter on SIGIR 2020 measures their bias beside the bootstrap's.

    Parameters
    ----------
    n_topics : int
        How many topics there are to draw from (>= 1).
    n_resamples : int
        How many replicates to draw (>= 1).
    size : int
        Topics per replicate, in [1, n_topics].
    seed : int
        The seed of the generator (an integer >= 0).

    Returns
    -------
    numpy.ndarray
        ``(n_resamples, size)`` topic indices; :func:`topic_weights` with ``n_topics`` turns them into weights.

    Raises
    ------
    ValueError
        For no topic or resample, a size outside [1, n_topics] or a negative seed.

    Examples
    --------
    >>> weights = topic_weights(topic_subsamples(6, 2, size=3, seed=0), 6)
    >>> weights.sum(axis=1).tolist(), float(weights.max())
    ([3.0, 3.0], 1.0)
    """
    if n_topics < 1 or n_resamples < 1:
        raise ValueError(f"need at least one topic and one resample, got {n_topics} topics, {n_resamples} resamples")
    if not 1 <= size <= n_topics:
        raise ValueError(f"size must lie in [1, {n_topics}] (the number of topics), got {size}")
    if seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed}")
    keys = np.random.default_rng(seed).random((n_resamples, n_topics))
    return np.argsort(keys, axis=1)[:, :size]


def topic_weights(indices: np.ndarray, n_topics: int | None = None) -> np.ndarray:
    """Count how often each replicate drew each topic.

    Parameters
    ----------
    indices : numpy.ndarray
        ``(B, draws)`` topic indices, as :func:`topic_resamples` gives them.
    n_topics : int, optional
        How many topics there are; default: the number of draws.

    Returns
    -------
    numpy.ndarray
        ``(B, n_topics)`` float weights.

    Raises
    ------
    ValueError
        If ``indices`` is not a matrix.
    """
    indices = np.asarray(indices)
    if indices.ndim != 2:
        raise ValueError(f"indices must be a (resamples x draws) matrix, got shape {indices.shape}")
    n_topics = indices.shape[1] if n_topics is None else n_topics
    rows = np.repeat(np.arange(indices.shape[0]), indices.shape[1])
    counts = np.bincount(rows * n_topics + indices.ravel(), minlength=indices.shape[0] * n_topics)
    return counts.reshape(indices.shape[0], n_topics).astype(float)


def identity_weights(n_topics: int) -> np.ndarray:
    """Give the weights of the resample that draws every topic once: the point estimate.

    Parameters
    ----------
    n_topics : int
        How many topics there are.

    Returns
    -------
    numpy.ndarray
        ``(1, n_topics)`` ones.
    """
    return np.ones((1, n_topics))


def _check(weights: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    weights, values = np.asarray(weights, dtype=float), np.asarray(values, dtype=float)
    if weights.ndim != 2 or values.ndim < 1 or weights.shape[1] != values.shape[0]:
        raise ValueError(f"weights (B x topics) {weights.shape} and values (topics first) {values.shape} do not match")
    return weights, values


def _drawn_counts(weights: np.ndarray, ndim: int) -> np.ndarray:
    """Per replicate, the number of topics drawn (``sum_j c_bj``: ``n`` for a bootstrap replicate, ``m`` for a
    subsample), shaped to divide a ``(B, ...)`` result of ``ndim - 1`` further axes."""
    return weights.sum(axis=1).reshape((-1,) + (1,) * (ndim - 1))


def _drawn(weights: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per replicate: how many drawn topics have a value (not NaN), and the sum of their values."""
    present = ~np.isnan(values)
    counts = np.tensordot(weights, present.astype(float), axes=(1, 0))
    return counts, np.tensordot(weights, np.where(present, values, 0.0), axes=(1, 0))


def resampled_means(weights: np.ndarray, values: np.ndarray, *, skipna: bool = False) -> np.ndarray:
    """Average ``values`` over topics in every replicate.

    Parameters
    ----------
    weights : numpy.ndarray
        ``(B, topics)`` weights, as :func:`topic_weights` gives them.
    values : numpy.ndarray
        Topics first, any further axes.
    skipna : bool, default False
        Average over the drawn topics with a value; NaN in a replicate that drew none.

    Returns
    -------
    numpy.ndarray
        ``(B, ...)`` means.
    """
    weights, values = _check(weights, values)
    if not skipna:
        return np.tensordot(weights, values, axes=(1, 0)) / _drawn_counts(weights, values.ndim)
    counts, sums = _drawn(weights, values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts


def resampled_rmse(weights: np.ndarray, original: np.ndarray, new: np.ndarray, *, skipna: bool = False) -> np.ndarray:
    """RMSE ``sqrt(mean_j (original_j - new_j)^2)`` per replicate and run.

    Parameters
    ----------
    weights : numpy.ndarray
        ``(B, topics)`` weights, as :func:`topic_weights` gives them.
    original : numpy.ndarray
        ``(topics,)``, or ``(topics, runs)`` as ``new``.
    new : numpy.ndarray
        ``(topics, runs)``.
    skipna : bool, default False
        Over the drawn topics both have.

    Returns
    -------
    numpy.ndarray
        ``(B, runs)`` RMSE.
    """
    original, new = np.asarray(original, dtype=float), np.asarray(new, dtype=float)
    difference = (original[:, None] if original.ndim < new.ndim else original) - new
    return np.sqrt(resampled_means(weights, difference**2, skipna=skipna))


def _two_sided_p(t: np.ndarray, df) -> np.ndarray:
    from scipy.special import stdtr  # scipy.special takes a moment to import: only where it is needed

    return 2.0 * stdtr(df, -np.abs(t))


def _mean_and_spread(weights: np.ndarray, values: np.ndarray, skipna: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per replicate: the number of topics (drawn topics with a value, if ``skipna``), the mean and
    the sum of squared deviations from it."""
    if not skipna:
        n = _drawn_counts(weights, values.ndim)
        mean = resampled_means(weights, values)
        return np.float64(n), mean, np.maximum(resampled_means(weights, values**2) - mean**2, 0.0) * n
    n, sums = _drawn(weights, values)
    squares = _drawn(weights, values**2)[1]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / n
        return n, mean, np.maximum(squares / n - mean**2, 0.0) * n


def paired_t_pvalues(weights: np.ndarray, differences: np.ndarray, *, skipna: bool = False) -> np.ndarray:
    """Two-tailed paired t-test p-value of per-topic ``differences`` per replicate.

    ``t = mean(d) / sqrt(var(d, ddof=1) / n)`` with ``n - 1`` degrees of freedom, ``scipy.stats.ttest_rel``'s
    formula; all differences zero in a replicate (0/0) gives p = 1, as
    :func:`irrepro.reproducibility.scores.paired_ttest` reports a perfect replication.

    Parameters
    ----------
    weights : numpy.ndarray
        ``(B, topics)`` weights, as :func:`topic_weights` gives them.
    differences : numpy.ndarray
        ``(topics, runs)`` per-topic differences.
    skipna : bool, default False
        Over the drawn topics with a difference; NaN in a replicate with fewer than 2 of them.

    Returns
    -------
    numpy.ndarray
        ``(B, runs)`` p-values.
    """
    weights, differences = _check(weights, differences)
    n, mean, spread = _mean_and_spread(weights, differences, skipna)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = spread / (n - 1)
        p = _two_sided_p(mean / np.sqrt(variance / n), n - 1)
    p = np.where((variance == 0) & (mean == 0), 1.0, p)
    return np.where(n < 2, np.nan, p)


def student_t_pvalues(weights_a: np.ndarray, a: np.ndarray, weights_b: np.ndarray, b: np.ndarray, *,
                      skipna: bool = False) -> np.ndarray:  # fmt: skip
    """Two-tailed Student's t-test (pooled variance) p-value between samples ``a`` and ``b`` per replicate.

    The two samples' topics are different: independent resamples, the same number of rows.
    ``scipy.stats.ttest_ind(equal_var=True)``'s formula, ``n_a + n_b - 2`` degrees of freedom.

    Parameters
    ----------
    weights_a : numpy.ndarray
        ``(B, topics_a)`` weights resampling ``a``.
    a : numpy.ndarray
        ``(topics_a,)`` or ``(topics_a, runs)``.
    weights_b : numpy.ndarray
        ``(B, topics_b)`` weights resampling ``b``.
    b : numpy.ndarray
        ``(topics_b, runs)``.
    skipna : bool, default False
        Each sample over its drawn topics with a value.

    Returns
    -------
    numpy.ndarray
        ``(B, runs)`` p-values.
    """
    weights_a, a = _check(weights_a, a)
    weights_b, b = _check(weights_b, b)
    n_a, mean_a, spread_a = _mean_and_spread(weights_a, a, skipna)
    n_b, mean_b, spread_b = _mean_and_spread(weights_b, b, skipna)
    if mean_a.ndim < mean_b.ndim:
        n_a, mean_a, spread_a = (np.asarray(x)[..., None] if np.ndim(x) else x for x in (n_a, mean_a, spread_a))
    df = n_a + n_b - 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = (spread_a + spread_b) / df * (1.0 / n_a + 1.0 / n_b)
        p = _two_sided_p((mean_a - mean_b) / np.sqrt(pooled), df)
    p = np.where((pooled == 0) & (mean_a == mean_b), 1.0, p)
    return np.where((n_a < 2) | (n_b < 2), np.nan, p)


def _pair_signs(values: np.ndarray, tolerance: float) -> np.ndarray:
    """Sign of ``x_j - x_i`` for every pair of items i < j: ``(B, pairs, columns)``, near-ties 0."""
    first, second = np.triu_indices(values.shape[1], k=1)
    low, high = values[:, first, :], values[:, second, :]
    difference = high - low
    scale = np.maximum(np.abs(low), np.abs(high))
    return np.where(np.abs(difference) <= tolerance * scale, 0.0, np.sign(difference))


def kendall_tau_b(values: np.ndarray, *, tolerance: float = TIE_TOLERANCE, chunk: int = 100) -> np.ndarray:
    """Compute Kendall's tau-b between every two columns of ``values``, per replicate.

    ``tau_b(x, y) = sum_{i<j} s_x s_y / sqrt(sum s_x^2 * sum s_y^2)`` with ``s = sign(x_j - x_i)``: the
    ``(P - Q) / sqrt((n0 - n1)(n0 - n2))`` of ``scipy.stats.kendalltau`` and pandas' ``corr("kendall")``.

    Parameters
    ----------
    values : numpy.ndarray
        ``(B, items, columns)``, at least 2 items.
    tolerance : float, default TIE_TOLERANCE
        Values closer than this (relative) are tied.
    chunk : int, default 100
        Replicates computed at a time (memory: chunk x items^2 / 2 x columns).

    Returns
    -------
    numpy.ndarray
        ``(B, columns, columns)``; NaN where a column is constant.

    Raises
    ------
    ValueError
        If ``values`` is not ``(replicates, items >= 2, columns)``.

    Examples
    --------
    >>> x = np.array([[[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]]])
    >>> kendall_tau_b(x)[0].round(4).tolist()
    [[1.0, 0.3333], [0.3333, 1.0]]
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 3 or values.shape[1] < 2:
        raise ValueError(f"values must be (replicates, items >= 2, columns), got shape {values.shape}")
    result = np.empty((values.shape[0], values.shape[2], values.shape[2]))
    for start in range(0, values.shape[0], chunk):
        signs = _pair_signs(values[start : start + chunk], tolerance)
        concordance = np.matmul(signs.transpose(0, 2, 1), signs)
        untied = np.diagonal(concordance, axis1=1, axis2=2)  # pairs not tied in each column
        with np.errstate(invalid="ignore", divide="ignore"):
            result[start : start + chunk] = concordance / np.sqrt(untied[:, :, None] * untied[:, None, :])
    return result


def share_holding(holds: np.ndarray) -> float:
    """Give the share of replicates in which a condition holds.

    Parameters
    ----------
    holds : numpy.ndarray
        One bool per replicate.

    Returns
    -------
    float
        The share, in [0, 1].

    Raises
    ------
    ValueError
        If there is no replicate.
    """
    holds = np.asarray(holds, dtype=bool)
    if holds.size == 0:
        raise ValueError("no replicate to count")
    return float(holds.mean())


def stability(kept_share: float, *, seed_shares=(), resamples: int | None = None) -> str:
    """Call a verdict stable, borderline or fragile under topic resampling.

    **Borderline** when the share cannot tell: it lies within ``max(BORDERLINE_MARGIN, 2 SE)`` of
    :data:`STABLE_SHARE`, with ``SE = sqrt(p (1 - p) / resamples)`` the binomial standard error of the
    share ``p``, or the shares of the seeds lie on both sides of it. Otherwise **stable** at or above
    :data:`STABLE_SHARE` and **fragile** below. The rule and its margin are ours.

    Parameters
    ----------
    kept_share : float
        The share of resamples in which the verdict is kept (all seeds pooled).
    seed_shares : sequence of float, optional
        The same share for each seed on its own.
    resamples : int, optional
        The number of resamples behind ``kept_share`` (for its standard error); without it, the margin alone.

    Returns
    -------
    str
        One of :data:`STABILITY`.

    Examples
    --------
    >>> stability(0.97), stability(0.6), stability(0.955), stability(0.975, seed_shares=[0.99, 0.94])
    ('stable', 'fragile', 'borderline', 'borderline')
    >>> stability(0.9, resamples=10)  # SE 0.095: 0.95 is within two of them
    'borderline'
    """
    error = np.sqrt(kept_share * (1.0 - kept_share) / resamples) if resamples else 0.0
    seed_shares = np.asarray(seed_shares, dtype=float)
    straddles = seed_shares.size > 0 and seed_shares.min() < STABLE_SHARE <= seed_shares.max()
    # a share exactly at the margin's edge is outside it, on either side (whatever the float of 0.97 - 0.95)
    if straddles or abs(kept_share - STABLE_SHARE) < max(BORDERLINE_MARGIN, 2.0 * error) - 1e-12:
        return "borderline"
    return "stable" if kept_share >= STABLE_SHARE else "fragile"


def recentred(replicates: np.ndarray, on_all_topics, *, bounds: tuple[float, float] | None = None) -> np.ndarray:
    """Move replicates so that their median is the value on all topics (the bootstrap's bias removed).

    ``x*_b - (median_b x*_b - x)`` for each entry (NaN replicates left out of the median, and left NaN):
    the bias correction of Efron & Tibshirani (1993, Sec. 10.6) with the median as the centre, so that
    half of the corrected replicates lie on each side of ``x``. For statistics whose bootstrap replicates
    are biased, such as Kendall's tau between per-run statistics (see the module's docstring).

    Parameters
    ----------
    replicates : numpy.ndarray
        ``(B, ...)`` the statistic on each replicate.
    on_all_topics : float or numpy.ndarray
        The statistic on all topics, shaped as one replicate (``(...)``).
    bounds : tuple of (float, float), optional
        The statistic's range (``(-1, 1)`` for a correlation): moved replicates are clipped to it.

    Returns
    -------
    numpy.ndarray
        ``(B, ...)`` the recentred replicates.

    Examples
    --------
    >>> recentred(np.array([0.5, 0.6, 0.7, 0.8]), 0.8).round(2).tolist()
    [0.65, 0.75, 0.85, 0.95]
    """
    replicates = np.asarray(replicates, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN entry: its centre is NaN, as its replicates
        centre = np.nanmedian(replicates, axis=0)
    moved = replicates - (centre - np.asarray(on_all_topics, dtype=float))
    return moved if bounds is None else np.clip(moved, *bounds)


def percentile_interval(replicates: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Give the percentile interval of the finite replicates of one statistic.

    Parameters
    ----------
    replicates : numpy.ndarray
        The statistic in each replicate.
    level : float, default 0.95
        The confidence level, in (0, 1).

    Returns
    -------
    tuple of (float, float)
        The low and high bounds; NaN if no replicate is finite.

    Raises
    ------
    ValueError
        If ``level`` is not in (0, 1).
    """
    if not 0 < level < 1:
        raise ValueError(f"level lies in (0, 1), got {level}")
    finite = np.asarray(replicates, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        return float("nan"), float("nan")
    low, high = np.quantile(finite, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)
