"""The numbers behind the paper's statements about IR data and log-type links (its Sections 2 and 4).

- :func:`near_zero_uncertainty`: how the standard error of a system's effect grows as its mean score
  falls under the log and logit links (Section 2: near-zero systems get a high variance);
- :func:`boundary_observations`: the scores of exactly 0 or 1 that a logit *transformation* could
  not use and the logit GLM fits (Section 2);
- :func:`assumption_tests`: departures of the identity model's residuals from normality and from a
  constant variance across systems (Section 4: "non-normality and heteroscedasticity").

One row per setting (and link); the claims of :mod:`irrepro.papers.glm.claim_checks` read them.
"""

from __future__ import annotations

import pandas as pd
from scipy import stats

from irrepro.memo import cached
from irrepro.papers.glm.models import fits, residuals, system_effects
from irrepro.papers.glm.scores import analysis_scores, boundary_dropped, settings

__all__ = ["LOG_TYPE_LINKS", "near_zero_uncertainty", "boundary_observations", "assumption_tests"]

#: The links the paper calls log-based ("e.g., log and logit"), next to identity as the reference.
LOG_TYPE_LINKS = ("log", "logit")


@cached(maxsize=4)
def near_zero_uncertainty(*, links: tuple[str, ...] = ("identity", *LOG_TYPE_LINKS)) -> pd.DataFrame:
    """Compare, per setting and link, the lowest-mean system's centred standard error with the others'.

    Made once per process and ``links`` (the claims and the chapter's table read it).

    Parameters
    ----------
    links : tuple of str, optional
        The links; default: identity and the log-type links (``LOG_TYPE_LINKS``).

    Returns
    -------
    pandas.DataFrame
        Columns: ``lowest_system``, ``lowest_mean`` (its mean score), ``lowest_se`` and ``median_se``
        (centred standard errors, :func:`~irrepro.papers.glm.models.system_effects`), ``se_ratio`` =
        lowest_se / median_se, ``largest_se`` (is the lowest-mean system's SE the largest?) and
        ``spearman`` (rank correlation of the systems' means and SEs over all systems).
    """
    rows = []
    for collection, measure, removed in settings():
        means = analysis_scores(collection, measure, outliers_removed=removed).mean()
        lowest = means.idxmin()
        effects = system_effects(collection, measure, links=links, outliers_removed=removed)
        for link, part in effects.groupby("link", sort=False):
            se = part.set_index("system")["se"]
            rows.append(
                {"collection": collection, "measure": measure, "outliers_removed": removed, "link": link,
                 "lowest_system": lowest, "lowest_mean": means[lowest], "lowest_se": se[lowest],
                 "median_se": se.median(), "se_ratio": se[lowest] / se.median(), "largest_se": bool(se.idxmax() == lowest),
                 "spearman": float(stats.spearmanr(means[se.index], se).statistic)}
            )  # fmt: skip
    return pd.DataFrame(rows)


def boundary_observations(*, link: str = "logit") -> pd.DataFrame:
    """Count per setting the scores of exactly 0 and 1 in the fitted matrix, and how the ``link`` GLM fits them.

    A logit transformation of the scores cannot use a 0 or a 1 (logit(0) = -inf); the logit GLM
    models the mean, not the score, and keeps them. Topics and runs whose scores are *all* 0 (or
    all 1) are dropped before any fit: their effect would be infinite under every log-type link.

    Parameters
    ----------
    link : str, default "logit"
        The link.

    Returns
    -------
    pandas.DataFrame
        Columns ``collection``, ``measure``, ``outliers_removed``, ``link``, ``observations``,
        ``zeros``, ``ones``, ``used_in_fit``, ``converged``, ``iterations``, ``dropped_topics`` and
        ``dropped_runs``.
    """
    rows = []
    for collection, measure, removed in settings():
        scores = analysis_scores(collection, measure, outliers_removed=removed).to_numpy()
        topics, systems = boundary_dropped(collection, measure, outliers_removed=removed)
        fit = fits(collection, measure, outliers_removed=removed)[link]
        rows.append(
            {"collection": collection, "measure": measure, "outliers_removed": removed, "link": link,
             "observations": int(scores.size), "zeros": int((scores == 0).sum()), "ones": int((scores == 1).sum()),
             "used_in_fit": int(fit.n_obs), "converged": fit.converged, "iterations": fit.iterations,
             "dropped_topics": len(topics), "dropped_runs": len(systems)}
        )  # fmt: skip
    return pd.DataFrame(rows)


@cached(maxsize=4)
def assumption_tests(*, alpha: float = 0.05) -> pd.DataFrame:
    """Test per setting the normality and constant variance of the identity model's residuals.

    Made once per process and ``alpha`` (the claims read it twice).

    - normality: D'Agostino and Pearson's K^2 test (``scipy.stats.normaltest``) of the residuals,
      with their ``skewness`` and ``excess_kurtosis``;
    - constant variance across systems: the Brown-Forsythe test (Levene's test centred at the
      median, ``scipy.stats.levene``) of the residuals grouped by system;
    - ``mean_variance_spearman``: rank correlation of the systems' mean scores and score variances.

    Parameters
    ----------
    alpha : float, default 0.05
        The tests' level.

    Returns
    -------
    pandas.DataFrame
        One row per setting; ``non_normal`` and ``heteroscedastic`` are True when the test's
        p-value is below ``alpha``.
    """
    rows = []
    for collection, measure, removed in settings():
        table = residuals(collection, measure, outliers_removed=removed)
        identity = table[table["link"] == "identity"]
        values = identity["residual"].to_numpy()
        normality = stats.normaltest(values)
        groups = [group.to_numpy() for _, group in identity.groupby("system", sort=False)["residual"]]
        spread = stats.levene(*groups, center="median")
        scores = analysis_scores(collection, measure, outliers_removed=removed)
        rows.append(
            {"collection": collection, "measure": measure, "outliers_removed": removed,
             "observations": int(values.size), "skewness": float(stats.skew(values)),
             "excess_kurtosis": float(stats.kurtosis(values)), "normality_p": float(normality.pvalue),
             "brown_forsythe": float(spread.statistic), "brown_forsythe_p": float(spread.pvalue),
             "mean_variance_spearman": float(stats.spearmanr(scores.mean(), scores.var(ddof=1)).statistic),
             "non_normal": bool(normality.pvalue < alpha), "heteroscedastic": bool(spread.pvalue < alpha)}
        )  # fmt: skip
    return pd.DataFrame(rows)
