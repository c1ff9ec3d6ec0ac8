"""Significantly different system pairs (ssd pairs) from the system effects of a fitted GLM.

For systems i < j the contrast d_ij = s_i - s_j is taken on the linear-predictor scale (where the
model is additive), with standard error se_ij = sqrt(C_ii + C_jj - 2 C_ij) from the covariance C of
the system effects, and t_ij = d_ij / se_ij.

- ``method="tukey"`` (the paper's choice, Tukey's HSD in the Tukey-Kramer form): the pair is
  significant when ``|t_ij| > q_{1-alpha}(k, df) / sqrt(2)``, q being the studentized-range quantile
  for k systems and the model's residual degrees of freedom (``scipy.stats.studentized_range``). It
  controls the family-wise error rate over all k (k - 1) / 2 pairs.
- ``method="holm"``: two-sided p-values ``p_ij = 2 P(T_df > |t_ij|)``, Holm's step-down adjustment, and
  significance at adjusted p < alpha.

A pair whose standard error is not a positive finite number (a fit that did not converge) is never
significant. A difference within floating-point rounding of the effects (``|d_ij| <= 1e-12 max |s|``) is
taken as exactly 0: on scores that fit the model exactly the residual variance is rounding noise too,
and the ratio of two noises would otherwise call identical systems different.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import stats

from irrepro.validation import Array, Choice, Integer, Real, Scores, validate_params

__all__ = [
    "pairwise_contrasts", "contrast_signs", "tukey_critical_value", "holm_adjust", "without_rounding_noise", "METHODS",
    "ROUNDING",
]  # fmt: skip

METHODS = ("tukey", "holm")
_ALPHA = Real(0.0, 1.0, closed="neither")
_DF = Real(0.0, None, closed="neither")
#: Differences of system effects at most this fraction of the largest effect are rounding noise.
ROUNDING = 1e-12


def without_rounding_noise(differences: np.ndarray, magnitude: float | np.ndarray) -> np.ndarray:
    """Set the differences within rounding of effects of size ``magnitude`` to exactly 0.

    ``|d| <= ROUNDING * magnitude`` becomes 0.

    Parameters
    ----------
    differences : numpy.ndarray
        Contrasts of system effects.
    magnitude : float or numpy.ndarray
        The largest absolute system effect: a number, or an array broadcast against
        ``differences[..., :1]``.

    Returns
    -------
    numpy.ndarray
        ``differences``, the rounding noise set to 0.
    """
    differences = np.asarray(differences, dtype=float)
    noise = np.abs(differences) <= ROUNDING * np.asarray(magnitude, dtype=float)
    return np.where(noise, 0.0, differences)


@validate_params(n_systems=Integer(2, 100_000), df_resid=_DF, alpha=_ALPHA)
@lru_cache(maxsize=256)
def tukey_critical_value(n_systems: int, df_resid: float, alpha: float = 0.05) -> float:
    """Give the bound on ``|t|`` of Tukey's HSD for ``n_systems`` means: q_{1-alpha}(k, df) / sqrt(2).

    Parameters
    ----------
    n_systems : int
        The number k of means compared (>= 2).
    df_resid : float
        The model's residual degrees of freedom.
    alpha : float, default 0.05
        The family-wise significance level, in (0, 1).

    Returns
    -------
    float
        The critical value of ``|t|``.
    """
    return float(stats.studentized_range.ppf(1 - alpha, n_systems, df_resid) / np.sqrt(2))


@validate_params(p_values=Array(1, 0.0, 1.0, what="p-values"))
def holm_adjust(p_values: np.ndarray) -> np.ndarray:
    """Compute Holm's step-down adjusted p-values: max over j <= i of (m - j + 1) p_(j), capped at 1.

    Parameters
    ----------
    p_values : numpy.ndarray
        Raw p-values in [0, 1], one dimension.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order of ``p_values``.
    """
    p_values = np.asarray(p_values, dtype=float)
    order = np.argsort(p_values, kind="stable")
    m = p_values.size
    adjusted_sorted = np.minimum(np.maximum.accumulate((m - np.arange(m)) * p_values[order]), 1.0)
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return adjusted


def _pair_statistics(values: np.ndarray, covariance: np.ndarray) -> tuple[np.ndarray, ...]:
    """(first, second, difference, se, valid, t) of every pair i < j of the effects ``values``."""
    n_systems = values.size
    if covariance.shape != (n_systems, n_systems):
        raise ValueError(f"covariance must be {n_systems} x {n_systems}, got {covariance.shape}")
    first, second = np.triu_indices(n_systems, k=1)
    difference = without_rounding_noise(values[first] - values[second], np.abs(values).max(initial=0.0))
    variance = covariance[first, first] + covariance[second, second] - 2 * covariance[first, second]
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(variance)
        valid = np.isfinite(se) & (se > 0) & np.isfinite(difference)
        t = np.where(valid, difference / np.where(valid, se, 1.0), np.nan)
    return first, second, difference, se, valid, t


def _p_values(t: np.ndarray, valid: np.ndarray, df_resid: float) -> np.ndarray:
    """Raw two-sided t-test p-values; 1 for a pair without a valid t."""
    return np.where(valid, 2 * stats.t.sf(np.abs(np.nan_to_num(t)), df_resid), 1.0)


def _significant(t: np.ndarray, valid: np.ndarray, n_systems: int, *, df_resid: float, method: str, alpha: float,
                 p_value: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Which pairs ``method`` finds significant (Holm's p-values computed here unless given)."""
    if method == "tukey":
        return valid & (np.abs(np.nan_to_num(t)) > tukey_critical_value(n_systems, float(df_resid), alpha))
    p_value = _p_values(t, valid, df_resid) if p_value is None else p_value
    return valid & (holm_adjust(p_value) < alpha)


@validate_params(
    effects=Scores(what="system effects indexed by system"),
    covariance=Array(2, finite=False),
    df_resid=_DF,
    method=Choice(METHODS),
    alpha=_ALPHA,
)
def pairwise_contrasts(
    effects: pd.Series,
    covariance: np.ndarray,
    *,
    df_resid: float,
    method: str = "tukey",
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Test every pair of system effects for a significant difference (ssd pairs).

    For systems i < j (in the order of ``effects``) the contrast ``d = s_i - s_j`` has standard
    error ``sqrt(C_ii + C_jj - 2 C_ij)``; see the module docstring for the two methods.

    Parameters
    ----------
    effects : pandas.Series
        System effects on the linear-predictor scale, indexed by system
        (:attr:`TwoWayFit.system_effects <irrepro.glm.fit.TwoWayFit>`).
    covariance : numpy.ndarray
        Their covariance matrix C, systems x systems in the same order.
    df_resid : float
        The model's residual degrees of freedom.
    method : {"tukey", "holm"}
        Tukey's HSD (the paper's choice) or Holm's step-down adjustment of the t-test p-values.
    alpha : float, default 0.05
        The family-wise significance level.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``system_a``, ``system_b``, ``difference`` (s_a - s_b), ``se``, ``t``,
        ``p_value`` (raw two-sided t p-value), ``significant`` (per ``method``) and ``sign``
        (+1 / -1 for a significant difference, 0 when not significant).
    """
    values = effects.to_numpy(dtype=float)
    first, second, difference, se, valid, t = _pair_statistics(values, np.asarray(covariance, dtype=float))
    p_value = _p_values(t, valid, df_resid)
    significant = _significant(t, valid, values.size, df_resid=df_resid, method=method, alpha=alpha, p_value=p_value)
    labels = effects.index.to_numpy()
    return pd.DataFrame(
        {
            "system_a": labels[first],
            "system_b": labels[second],
            "difference": difference,
            "se": se,
            "t": t,
            "p_value": p_value,
            "significant": significant,
            "sign": np.where(significant, np.sign(difference), 0).astype(int),
        }
    )


@validate_params(
    effects=Array(1, finite=False, what="system effects"),
    covariance=Array(2, finite=False),
    df_resid=_DF,
    method=Choice(METHODS),
    alpha=_ALPHA,
)
def contrast_signs(
    effects: np.ndarray,
    covariance: np.ndarray,
    *,
    df_resid: float,
    method: str = "tukey",
    alpha: float = 0.05,
) -> np.ndarray:
    """Give the ``sign`` column of :func:`pairwise_contrasts` alone, for code that tests many fits.

    The same pairs, in the same order, by the same arithmetic; without the table and, for Tukey's
    HSD, without the t-test p-values it does not need (the split-half consistency tests thousands of
    fits, :mod:`irrepro.glm.consistency`).

    Parameters
    ----------
    effects : numpy.ndarray
        System effects on the linear-predictor scale (NaN for a fit that failed).
    covariance : numpy.ndarray
        Their covariance matrix, systems x systems in the same order.
    df_resid : float
        The model's residual degrees of freedom.
    method : {"tukey", "holm"}
        As for :func:`pairwise_contrasts`.
    alpha : float, default 0.05
        The family-wise significance level.

    Returns
    -------
    numpy.ndarray
        One int per pair i < j: +1 / -1 for a significant difference s_i - s_j, 0 when not significant.
    """
    values = np.asarray(effects, dtype=float)
    _, _, difference, _, valid, t = _pair_statistics(values, np.asarray(covariance, dtype=float))
    significant = _significant(t, valid, values.size, df_resid=df_resid, method=method, alpha=alpha)
    return np.where(significant, np.sign(difference), 0).astype(int)
