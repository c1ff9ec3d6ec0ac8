"""Significantly different system pairs on bootstrap resamples of the topics.

A resample draws the ``T`` topics of a topics x systems score matrix with replacement; a topic drawn
twice enters the model as two topics (two rows, each with its own topic effect), so the model, its
``(T - 1)(S - 1)`` residual degrees of freedom and Tukey's critical value are those of a ``T x S``
matrix in every resample. For each resample the ssd pairs are found as :mod:`irrepro.glm.contrasts`
finds them (Tukey's HSD, the contrast of system effects on the linear-predictor scale); the result is
a ``(resamples, pairs)`` matrix of signs, +1 / -1 for a significant pair (system a better / worse than
b, pairs i < j in the order of :func:`~irrepro.glm.contrasts.pairwise_contrasts`) and 0 otherwise.

- Identity link (:func:`identity_pair_signs`): the Gaussian model of a complete two-way layout is
  ordinary least squares with closed forms. With topic weights ``c_bt`` (how often resample ``b``
  drew topic ``t``) and the row-centred scores ``e_ts = y_ts - mean_s' y_ts'``, the system effects
  relative to their mean are ``m_bs = (1/T) sum_t c_bt e_ts``, the residual sum of squares is
  ``RSS_b = sum_t c_bt sum_s e_ts^2 - T sum_s m_bs^2``, and every contrast has the standard error
  ``sqrt(2 sigma_b^2 / T)`` with ``sigma_b^2 = RSS_b / ((T - 1)(S - 1))``: all resamples are two
  matrix products.
- Other links (:func:`refit_pair_signs`): IRLS on each resample, started from the fit on all topics
  at the drawn topics (:func:`irrepro.glm.fit.system_effects_refit`), which converges to the same fit
  as :func:`~irrepro.glm.fit.fit_two_way` in fewer iterations. About a hundred times slower than
  the identity closed form.
"""

from __future__ import annotations

import numpy as np

from irrepro.glm.contrasts import tukey_critical_value, without_rounding_noise
from irrepro.glm.fit import system_effects_refit

__all__ = ["identity_pair_signs", "refit_pair_signs", "pair_signs"]

_BLOCK = 64  # resamples whose pair contrasts are computed together


def pair_signs(differences: np.ndarray, se: np.ndarray, *, n_systems: int, df_resid: float, alpha: float) -> np.ndarray:
    """Give Tukey HSD signs of contrasts ``differences`` with standard errors ``se``.

    Significant when ``|d| > se q_{1-alpha}(k, df) / sqrt(2)``, i.e. ``|t|`` above Tukey's bound; a standard
    error that is not a positive finite number is never significant (as in
    :func:`~irrepro.glm.contrasts.pairwise_contrasts`).

    Parameters
    ----------
    differences : numpy.ndarray
        The contrasts.
    se : numpy.ndarray
        Their standard errors, broadcast to ``differences``.
    n_systems : int
        The number k of systems compared.
    df_resid : float
        The model's residual degrees of freedom.
    alpha : float
        The family-wise significance level.

    Returns
    -------
    numpy.ndarray
        int8 signs, shaped as ``differences``: +1 / -1 significant, 0 not (NaN never is).
    """
    critical = tukey_critical_value(n_systems, float(df_resid), alpha)
    se = np.asarray(se, dtype=float)
    with np.errstate(invalid="ignore"):
        bound = np.where(np.isfinite(se) & (se > 0), critical * se, np.inf)
    significant = np.abs(differences) > bound  # a NaN difference is never significant
    return (np.sign(differences) * significant).astype(np.int8)


def identity_pair_signs(scores: np.ndarray, weights: np.ndarray, *, alpha: float = 0.05) -> np.ndarray:
    """Give the signs of the identity-link ssd pairs of ``scores`` under each resample's topic weights.

    Closed form (module docstring); the identity weights (every topic once) give the pairs of
    :func:`~irrepro.glm.fit.fit_two_way` with ``link="identity"``.

    Parameters
    ----------
    scores : numpy.ndarray
        Topics x systems (T x S).
    weights : numpy.ndarray
        Topic weights, resamples x topics (B x T).
    alpha : float, default 0.05
        The family-wise significance level of Tukey's HSD.

    Returns
    -------
    numpy.ndarray
        ``(B, pairs)`` int8 signs: +1 / -1 for a significant difference, 0 when not significant.

    Raises
    ------
    ValueError
        If ``weights`` do not have one column per topic.
    """
    scores, weights = np.asarray(scores, dtype=float), np.asarray(weights, dtype=float)
    n_topics, n_systems = scores.shape
    if weights.ndim != 2 or weights.shape[1] != n_topics:
        raise ValueError(f"weights must be (resamples x {n_topics} topics), got {weights.shape}")
    centred = scores - scores.mean(axis=1, keepdims=True)
    effects = weights @ centred / n_topics  # (B, S), relative to their mean
    rss = weights @ (centred**2).sum(axis=1) - n_topics * (effects**2).sum(axis=1)
    df_resid = (n_topics - 1) * (n_systems - 1)
    se = np.sqrt(2.0 * np.maximum(rss, 0.0) / df_resid / n_topics)
    first, second = np.triu_indices(n_systems, k=1)
    magnitude = np.abs(effects - effects[:, :1]).max(axis=1, keepdims=True)  # as the fit's, relative to system 0
    signs = np.empty((len(effects), first.size), dtype=np.int8)
    # a block of resamples at a time: the (resamples, pairs) temporaries of all 1000 at once are
    # 50 MB each (110 systems), and allocating and filling them took most of the time
    for start in range(0, len(effects), _BLOCK):
        rows = slice(start, start + _BLOCK)
        differences = without_rounding_noise(effects[rows, first] - effects[rows, second], magnitude[rows])
        signs[rows] = pair_signs(differences, se[rows, None], n_systems=n_systems, df_resid=df_resid, alpha=alpha)
    return signs


def refit_pair_signs(
    scores: np.ndarray, indices: np.ndarray, start_eta: np.ndarray, *, link: str, alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray]:
    """Give the signs of the ssd pairs of the Gaussian GLM with ``link`` refitted on each resample.

    An unconverged refit counts no pair as significant, as
    :func:`~irrepro.glm.contrasts.pairwise_contrasts` does for a fit whose standard errors are not
    finite.

    Parameters
    ----------
    scores : numpy.ndarray
        Topics x systems (T x S).
    indices : numpy.ndarray
        The topics each resample draws (B x T).
    start_eta : numpy.ndarray
        The linear predictor of the fit on all topics (T x S), the warm start.
    link : str
        The link, of :data:`~irrepro.glm.links.LINK_NAMES`.
    alpha : float, default 0.05
        The family-wise significance level of Tukey's HSD.

    Returns
    -------
    signs : numpy.ndarray
        ``(B, pairs)`` int8 signs.
    converged : numpy.ndarray
        ``(B,)`` bool: whether each refit converged.
    """
    scores, start_eta = np.asarray(scores, dtype=float), np.asarray(start_eta, dtype=float)
    n_topics, n_systems = scores.shape
    first, second = np.triu_indices(n_systems, k=1)
    signs = np.zeros((len(indices), first.size), dtype=np.int8)
    converged = np.zeros(len(indices), dtype=bool)
    df_resid = (n_topics - 1) * (n_systems - 1)
    for row, drawn in enumerate(np.asarray(indices)):
        effects, covariance, converged[row] = system_effects_refit(scores[drawn], start_eta[drawn], link=link)
        if not converged[row]:
            continue
        variance = covariance[first, first] + covariance[second, second] - 2 * covariance[first, second]
        with np.errstate(invalid="ignore"):
            differences = without_rounding_noise(effects[first] - effects[second], np.abs(effects).max())
            signs[row] = pair_signs(differences, np.sqrt(variance), n_systems=n_systems,
                                    df_resid=df_resid, alpha=alpha)  # fmt: skip
    return signs, converged
