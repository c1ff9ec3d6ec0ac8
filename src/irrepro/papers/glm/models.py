"""The GLMs of the chapter and the tables made from them: Table 1, iterations, ssd pairs, consistency.

Every (collection, measure, outliers_removed) of :func:`irrepro.papers.glm.scores.settings` is fitted
once per link (Gaussian family: the deviance is the residual sum of squares, comparable across links,
as the paper compares it); results are cached and handed out as copies (:func:`irrepro.memo.cached`).
Long tables have one row per setting and link; :func:`setting_matrix` turns one of their columns into
settings x links, :func:`table1` into the paper's layout (links x settings).
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
from scipy import stats
from threadpoolctl import threadpool_limits

from irrepro.glm.consistency import COUNT_COLUMNS, split_half_consistency
from irrepro.glm.contrasts import METHODS, pairwise_contrasts
from irrepro.glm.fit import TwoWayFit, fit_two_way
from irrepro.glm.links import LINK_NAMES
from irrepro.memo import cached
from irrepro.papers.glm.scores import (
    analysis_scores,
    boundary_dropped,
    load_scores,
    settings,
)

__all__ = [
    "SETTING",
    "WITHOUT_OUTLIERS",
    "CONSISTENCY_SPLITS",
    "CONSISTENCY_SEED",
    "fits",
    "deviance_table",
    "setting_matrix",
    "table1",
    "lowest_deviance",
    "iteration_table",
    "ssd_table",
    "consistency_runs",
    "consistency_table",
    "system_effects",
    "mean_variance",
    "residuals",
    "qq_points",
    "by_link",
    "unconverged_fits",
    "convergence_summary",
    "lowest_deviance_counts",
]

#: The columns naming a setting in every long table of this module.
SETTING = ["collection", "measure", "outliers_removed"]
#: Appended to a collection's name in :func:`table1` when its outliers are removed.
WITHOUT_OUTLIERS = " w/o outliers"
CONSISTENCY_SPLITS = 10
CONSISTENCY_SEED = 20220417


@cached(maxsize=256)
def fits(collection: str, measure: str, *, outliers_removed: bool = False, family: str = "gaussian") -> dict[str, TwoWayFit]:
    """Fit the GLM for every link, keyed by link name.

    Fitted once per argument set; every call returns copies (:func:`irrepro.memo.cached`).

    Parameters
    ----------
    collection : str
        The collection (:data:`~irrepro.papers.glm.scores.COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).
    outliers_removed : bool, default False
        Leave out the outlier runs (MAP below 0.01).
    family : {"gaussian", "quasibinomial"}
        The GLM's family.

    Returns
    -------
    dict of str -> TwoWayFit
        Link -> fit.
    """
    scores = analysis_scores(collection, measure, outliers_removed=outliers_removed)
    links = LINK_NAMES if family == "gaussian" else ("logit", "probit", "cauchit")
    with threadpool_limits(limits=1, user_api="blas"):
        return {link: fit_two_way(scores, link=link, family=family) for link in links}


@cached(maxsize=2)
def deviance_table() -> pd.DataFrame:
    """Tabulate every fit: one row per setting and link.

    Made once per process (the chapter reads it twenty times: Table 1, iterations, claims, exercises).

    Returns
    -------
    pandas.DataFrame
        Deviance, convergence, iterations, AIC, BIC and the matrix's size.
    """
    rows = []
    for collection, measure, removed in settings():
        scores = analysis_scores(collection, measure, outliers_removed=removed)
        topics, _ = boundary_dropped(collection, measure, outliers_removed=removed)
        for link, fit in fits(collection, measure, outliers_removed=removed).items():
            rows.append(
                {
                    "collection": collection,
                    "measure": measure,
                    "outliers_removed": removed,
                    "link": link,
                    "deviance": fit.deviance,
                    "converged": fit.converged,
                    "iterations": fit.iterations,
                    "aic": fit.aic,
                    "bic": fit.bic,
                    "topics": scores.shape[0],
                    "systems": scores.shape[1],
                    "dropped_topics": len(topics),
                }
            )
    return pd.DataFrame(rows)


def setting_matrix(table: pd.DataFrame, values: str) -> pd.DataFrame:
    """Lay out one column of a long per-setting-and-link table as settings (rows, in table order) x links.

    Parameters
    ----------
    table : pandas.DataFrame
        A long per-setting-and-link table.
    values : str
        The column.

    Returns
    -------
    pandas.DataFrame
        Settings x links.
    """
    wide = table.pivot_table(index=SETTING, columns="link", values=values, sort=False, aggfunc="first")
    wide = wide[[link for link in LINK_NAMES if link in wide.columns]]
    wide.columns.name = None
    return wide


def table1(deviances: pd.DataFrame | None = None) -> pd.DataFrame:
    """Lay out the paper's Table 1: links as rows, (collection, measure) as columns, deviance as values.

    A collection without its outliers is named ``"<collection> w/o outliers"`` (:data:`WITHOUT_OUTLIERS`). A fit that did not
    converge is still shown with its last deviance; see :func:`deviance_table`.

    Parameters
    ----------
    deviances : pandas.DataFrame, optional
        :func:`deviance_table`; default: computed now.

    Returns
    -------
    pandas.DataFrame
        Links x (collection, measure).
    """
    deviances = deviance_table() if deviances is None else deviances
    labelled = deviances.assign(
        collection=np.where(deviances["outliers_removed"], deviances["collection"] + WITHOUT_OUTLIERS, deviances["collection"])
    )
    wide = labelled.pivot(index="link", columns=["collection", "measure"], values="deviance")
    columns = list(dict.fromkeys(zip(labelled["collection"], labelled["measure"], strict=True)))
    return wide[columns].reindex(list(LINK_NAMES))


def lowest_deviance(wide: pd.DataFrame | None = None) -> pd.Series:
    """Find, for each column of :func:`table1`, the link with the lowest deviance.

    Parameters
    ----------
    wide : pandas.DataFrame, optional
        :func:`table1`; default: computed now.

    Returns
    -------
    pandas.Series
        (collection, measure) -> link.
    """
    wide = table1() if wide is None else wide
    return wide.idxmin()


def iteration_table(deviances: pd.DataFrame | None = None) -> pd.DataFrame:
    """Tabulate IRLS iterations per setting and link, with convergence and the link's rank by iterations.

    ``rank`` 1 is the link needing the most iterations in its setting (ties share the lower rank);
    the paper says, without numbers, that exp needs more iterations.

    Parameters
    ----------
    deviances : pandas.DataFrame, optional
        :func:`deviance_table`; default: computed now.

    Returns
    -------
    pandas.DataFrame
        One row per setting and link.
    """
    deviances = deviance_table() if deviances is None else deviances
    table = deviances[[*SETTING, "link", "iterations", "converged"]].copy()
    table["rank"] = table.groupby(SETTING, sort=False)["iterations"].rank(method="min", ascending=False).astype(int)
    return table.reset_index(drop=True)


@cached(maxsize=4)
def ssd_table(*, alpha: float = 0.05) -> pd.DataFrame:
    """Count the ssd pairs per setting and link: Tukey HSD (``ssd_pairs``) and Holm (``ssd_pairs_holm``).

    Parameters
    ----------
    alpha : float, default 0.05
        The family-wise significance level.

    Returns
    -------
    pandas.DataFrame
        One row per setting and link.
    """
    rows = []
    for collection, measure, removed in settings():
        for link, fit in fits(collection, measure, outliers_removed=removed).items():
            counts = {}
            for method in METHODS:
                pairs = pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid, method=method, alpha=alpha)
                counts[method] = int(pairs["significant"].sum())
            rows.append(
                {
                    "collection": collection,
                    "measure": measure,
                    "link": link,
                    "ssd_pairs": counts["tukey"],
                    "pairs": len(pairs),
                    "outliers_removed": removed,
                    "ssd_pairs_holm": counts["holm"],
                    "converged": fit.converged,
                }
            )
    return pd.DataFrame(rows)


@cached(maxsize=4)
def consistency_runs(*, n_splits: int = CONSISTENCY_SPLITS, seed: int = CONSISTENCY_SEED) -> pd.DataFrame:
    """Count split-half consistency of every setting, link and split (integers; Tukey HSD, alpha 0.05).

    Parameters
    ----------
    n_splits : int, default CONSISTENCY_SPLITS
        The number of seeded split-halves.
    seed : int, default CONSISTENCY_SEED
        The seed of the splits.

    Returns
    -------
    pandas.DataFrame
        One row per setting, link and split (:func:`~irrepro.glm.consistency.split_half_consistency`).
    """
    frames = []
    with threadpool_limits(limits=1, user_api="blas"):
        for collection, measure, removed in settings():
            runs = split_half_consistency(
                analysis_scores(collection, measure, outliers_removed=removed), links=LINK_NAMES, n_splits=n_splits, seed=seed
            )
            frames.append(runs.assign(collection=collection, measure=measure, outliers_removed=removed))
    table = pd.concat(frames, ignore_index=True)
    return table[[*SETTING, *(column for column in table.columns if column not in SETTING)]]


def consistency_table(*, n_splits: int = CONSISTENCY_SPLITS, seed: int = CONSISTENCY_SEED) -> pd.DataFrame:
    """Sum split-half consistency per setting and link over the splits (Tukey HSD, alpha 0.05).

    Parameters
    ----------
    n_splits : int, default CONSISTENCY_SPLITS
        The number of seeded split-halves.
    seed : int, default CONSISTENCY_SEED
        The seed of the splits.

    Returns
    -------
    pandas.DataFrame
        Counts are means over ``n_splits`` seeded splits; ``consistent_share`` = all active
        agreements / all pairs significant in at least one half; ``all_converged`` is False if any
        half failed to converge.
    """
    runs = consistency_runs(n_splits=n_splits, seed=seed)
    keys = [*SETTING, "link"]
    grouped = runs.groupby(keys, sort=False)
    table = grouped[[*COUNT_COLUMNS, "pairs"]].mean()  # sums of integers over n_splits: no float noise
    significant = grouped[["active_agreements", "active_disagreements", "passive_disagreements"]].sum().sum(axis=1)
    table["consistent_share"] = grouped["active_agreements"].sum() / significant.where(significant > 0)
    table["splits"] = grouped.size()
    table["all_converged"] = grouped["converged"].all()
    table["max_dropped_systems"] = grouped["dropped_systems"].max()
    return table.reset_index()


def system_effects(
    collection: str, measure: str, *, links: tuple[str, ...] = ("identity", "logit"), outliers_removed: bool = False
) -> pd.DataFrame:
    """Centre the system effects (mean zero over systems), with 95% t intervals.

    Centring makes the effects independent of the reference system: with C = I - 11'/S, the centred
    effects are C s and their covariance C Sigma C'.

    Parameters
    ----------
    collection : str
        The collection (:data:`~irrepro.papers.glm.scores.COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).
    links : tuple of str, default ("identity", "logit")
        The links.
    outliers_removed : bool, default False
        Leave out the outlier runs (MAP below 0.01).

    Returns
    -------
    pandas.DataFrame
        One row per link and system: the effect, its standard error ``se`` and the interval's
        ``lower`` and ``upper`` bounds.
    """
    rows = []
    fitted = fits(collection, measure, outliers_removed=outliers_removed)
    for link in links:
        fit = fitted[link]
        n_systems = len(fit.system_effects)
        centre = np.eye(n_systems) - 1.0 / n_systems
        effects = centre @ fit.system_effects.to_numpy()
        se = np.sqrt(np.diag(centre @ fit.system_cov @ centre.T))
        half_width = stats.t.ppf(0.975, fit.df_resid) * se
        rows.append(
            pd.DataFrame(
                {"link": link, "system": fit.system_effects.index, "effect": effects, "se": se,
                 "lower": effects - half_width, "upper": effects + half_width}
            )
        )  # fmt: skip
    return pd.concat(rows, ignore_index=True)


def mean_variance(collection: str, measure: str) -> pd.DataFrame:
    """Compute per-system mean and variance of the scores over topics (the GLM motivation: variance depends on mean).

    P@10 scores are tenths: its means and variances are computed from the integer counts of relevant
    documents in the top 10, so they are the correctly rounded fractions (no float noise from summing
    tenths).

    Parameters
    ----------
    collection : str
        The collection (:data:`~irrepro.papers.glm.scores.COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).

    Returns
    -------
    pandas.DataFrame
        One row per system: ``mean`` and ``variance``.

    Raises
    ------
    ValueError
        If a P@10 score is not a multiple of 1/10.
    """
    scores = load_scores(collection, measure)
    if measure == "P@10":
        hits = np.rint(scores.to_numpy() * 10).astype(np.int64)
        if not np.allclose(scores.to_numpy() * 10, hits, rtol=0, atol=1e-9):
            raise ValueError(f"{collection} P@10: a score is not a multiple of 1/10")
        n_topics = hits.shape[0]
        total, squares = hits.sum(axis=0), (hits**2).sum(axis=0)
        mean = total / (10 * n_topics)
        variance = (n_topics * squares - total**2) / (100 * n_topics * (n_topics - 1))
        frame = pd.DataFrame({"mean": mean, "variance": variance}, index=scores.columns)
    else:
        frame = pd.DataFrame({"mean": scores.mean(), "variance": scores.var(ddof=1)})
    return frame.rename_axis("system").reset_index()


def residuals(collection: str, measure: str, *, outliers_removed: bool = False) -> pd.DataFrame:
    """Tabulate the residuals of every Gaussian fit of a setting.

    Parameters
    ----------
    collection : str
        The collection (:data:`~irrepro.papers.glm.scores.COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).
    outliers_removed : bool, default False
        Leave out the outlier runs (MAP below 0.01).

    Returns
    -------
    pandas.DataFrame
        Long: ``link``, ``topic``, ``system``, ``observed``, ``fitted``, ``residual``, ``pearson``.
    """
    scores = analysis_scores(collection, measure, outliers_removed=outliers_removed)
    topic = np.repeat(scores.index.to_numpy(), scores.shape[1])
    system = np.tile(scores.columns.to_numpy(), scores.shape[0])
    frames = []
    for link, fit in fits(collection, measure, outliers_removed=outliers_removed).items():
        residual = (scores - fit.fitted).to_numpy().ravel()
        frames.append(
            pd.DataFrame(
                {"link": link, "topic": topic, "system": system, "observed": scores.to_numpy().ravel(),
                 "fitted": fit.fitted.to_numpy().ravel(), "residual": residual, "pearson": residual / np.sqrt(fit.scale)}
            )
        )  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def qq_points(residual_table: pd.DataFrame) -> pd.DataFrame:
    """Compute the normal QQ points of the Pearson residuals, per link.

    Plotting positions (i - 1/2) / n, i = 1..n: the quantiles Phi^-1((i - 1/2) / n) against the i-th
    smallest residual.

    Parameters
    ----------
    residual_table : pandas.DataFrame
        :func:`residuals`' table.

    Returns
    -------
    pandas.DataFrame
        ``link``, ``normal_quantile`` and sorted ``pearson``.
    """
    frames = []
    for link, part in residual_table.groupby("link", sort=False):
        values = np.sort(part["pearson"].to_numpy())
        quantiles = stats.norm.ppf((np.arange(1, values.size + 1) - 0.5) / values.size)
        frames.append(pd.DataFrame({"link": link, "normal_quantile": quantiles, "pearson": values}))
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------- tables for the chapter


def by_link(table: pd.DataFrame, values: str, *, first: str | None = None) -> pd.DataFrame:
    """Lay out one statistic of a per-(collection, measure, outliers, link) table with the links as columns.

    The settings are rows, in the paper's link order (a page is too narrow for the paper's 14
    setting columns). Rows are (collection, measure), the collection named "... w/o outliers" when
    the outliers are removed.

    Parameters
    ----------
    table : pandas.DataFrame
        The long table.
    values : str
        The statistic's column.
    first : str, optional
        A per-setting column (e.g. ``pairs``) to add before the links.

    Returns
    -------
    pandas.DataFrame
        Settings x links.
    """
    labelled = table.assign(
        collection=np.where(table["outliers_removed"], table["collection"] + " w/o outliers", table["collection"])
    )
    wide = labelled.pivot_table(index=["collection", "measure"], columns="link", values=values, sort=False)
    wide = wide[list(LINK_NAMES)]
    wide.columns.name = None
    if first is not None:
        wide.insert(0, first, labelled.groupby(["collection", "measure"], sort=False)[first].first())
    return wide


def unconverged_fits(deviances: pd.DataFrame) -> pd.DataFrame:
    """List the fits of :func:`deviance_table` that did not converge.

    Parameters
    ----------
    deviances : pandas.DataFrame
        :func:`deviance_table`.

    Returns
    -------
    pandas.DataFrame
        Setting, link, iterations, deviance.
    """
    columns = ["collection", "measure", "outliers_removed", "link", "iterations", "deviance"]
    return deviances.loc[~deviances["converged"], columns]


def convergence_summary(deviances: pd.DataFrame) -> dict[str, object]:
    """Count the fits :func:`deviance_table` made and how many converged, with the fitter's stopping rule.

    The rule: ``tolerance`` on the change of deviance, ``max_iterations``: the defaults of
    :func:`~irrepro.glm.fit.fit_two_way`, with which every fit here is made.

    Parameters
    ----------
    deviances : pandas.DataFrame
        :func:`deviance_table`.

    Returns
    -------
    dict of str -> object
        The counts and the rule.
    """
    defaults = inspect.signature(fit_two_way).parameters
    return {
        "fits": len(deviances),
        "converged": int(deviances["converged"].sum()),
        "tolerance": defaults["tol"].default,
        "max_iterations": defaults["max_iter"].default,
    }


def lowest_deviance_counts(wide: pd.DataFrame | None = None) -> str:
    """Count in how many settings (columns of :func:`table1`) each link has the lowest deviance, as text.

    Parameters
    ----------
    wide : pandas.DataFrame, optional
        :func:`table1`; default: computed now.

    Returns
    -------
    str
        ``logit 6, probit 4, ...`` (most often first).
    """
    counts = lowest_deviance(wide).value_counts()
    return ", ".join(f"{link} {count}" for link, count in counts.items())
