"""Exercises of the chapter "Comparing IR systems with generalised linear models" (Faggioli, Ferro & Fuhr).

Five exercises, each a small function computing its reference answer with the package (ids ``glm-…``,
the exercise labels on the page ``chapters/glm.md``):

- ``glm-refit-another-link``: fit the two-way GLM with the probit link and read its fit;
- ``glm-count-ssd-pairs``: count significantly different pairs with two procedures at alpha 0.01;
- ``glm-split-consistency``: one split-half of the topics, agreements and disagreements per link;
- ``glm-read-deviance-table``: which link fits best, read from the chapter's Table 1;
- ``glm-remove-outliers``: predict, then measure, what removing the near-zero runs does under log.

Each solution fits at most a few small models (well under a second each on Robust04).
"""

from __future__ import annotations

from irrepro.exercises.registry import exercise

__all__ = [
    "CHAPTER", "REFIT", "SSD_SETTING", "SSD_ALPHA", "SSD_LINKS", "SPLIT_SETTING", "SPLIT_SEED", "OUTLIER_SETTING",
    "refit_another_link", "count_ssd_pairs", "split_consistency", "read_deviance_table", "remove_outliers",
]

CHAPTER = "glm"
#: The settings of the exercises.
REFIT = ("Robust04", "AP", "probit")
SSD_SETTING = ("Core18", "AP")
SSD_ALPHA = 0.01
SSD_LINKS = ("identity", "logit")
SPLIT_SETTING = ("Robust04", "AP")
SPLIT_SEED = 7
OUTLIER_SETTING = ("Core18", "AP", "log")


@exercise(
    "glm-refit-another-link",
    chapter=CHAPTER,
    title="Refit with another link",
    kind="GLM",
    tolerance=1e-4,
    hint=(
        "fit_two_way(paper.analysis_scores('Robust04', 'AP'), link='probit') returns the fit: its deviance "
        "and iterations; count the pairs of pairwise_contrasts(fit.system_effects, fit.system_cov, "
        "df_resid=fit.df_resid) whose 'significant' column is True (Tukey HSD, alpha 0.05)."
    ),
)
def refit_another_link() -> dict[str, float]:
    """Fit the Gaussian GLM with the probit link on Robust04 AP: deviance, IRLS iterations and Tukey ssd pairs.

    Returns
    -------
    dict of str -> float
        ``deviance``, ``iterations`` and ``ssd_pairs``.
    """
    from irrepro.glm import fit_two_way, pairwise_contrasts
    from irrepro.papers import glm as paper

    collection, measure, link = REFIT
    fit = fit_two_way(paper.analysis_scores(collection, measure), link=link)
    pairs = pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid)
    return {"deviance": float(fit.deviance), "iterations": int(fit.iterations), "ssd_pairs": int(pairs["significant"].sum())}


@exercise(
    "glm-count-ssd-pairs",
    chapter=CHAPTER,
    title="Count significantly different pairs",
    kind="GLM",
    tolerance=0,
    hint=(
        "Fit Core18 AP (paper.analysis_scores('Core18', 'AP'), outliers kept) under identity and logit; for each, "
        "call pairwise_contrasts(..., method='tukey', alpha=0.01) and method='holm', and count the significant pairs."
    ),
)
def count_ssd_pairs() -> dict[str, dict[str, int]]:
    """Count the ssd pairs at alpha 0.01 of Core18 AP, per link (identity, logit) and procedure (tukey, holm).

    Returns
    -------
    dict of str -> dict of str -> int
        Link -> procedure -> count.
    """
    from irrepro.glm import fit_two_way, pairwise_contrasts
    from irrepro.papers import glm as paper

    scores = paper.analysis_scores(*SSD_SETTING)
    counts = {}
    for link in SSD_LINKS:
        fit = fit_two_way(scores, link=link)
        counts[link] = {
            method: int(pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid,
                                           method=method, alpha=SSD_ALPHA)["significant"].sum())
            for method in ("tukey", "holm")
        }  # fmt: skip
    return counts


@exercise(
    "glm-split-consistency",
    chapter=CHAPTER,
    title="Check consistency on one split of the topics",
    kind="experiment",
    tolerance=0,
    hint=(
        "split_half_consistency(paper.analysis_scores('Robust04', 'AP'), links=['identity', 'logit'], n_splits=1, "
        "seed=7) (irrepro.glm.consistency) gives one row per link; keep the columns active_agreements, "
        "active_disagreements and passive_disagreements, with the link as the index."
    ),
)
def split_consistency():
    """Count active agreements and active/passive disagreements of one seeded split-half, Robust04 AP, per link.

    Returns
    -------
    pandas.DataFrame
        Index the link; columns ``active_agreements``, ``active_disagreements`` and
        ``passive_disagreements``.
    """
    from irrepro.glm.consistency import split_half_consistency
    from irrepro.papers import glm as paper

    runs = split_half_consistency(paper.analysis_scores(*SPLIT_SETTING), links=list(SSD_LINKS), n_splits=1, seed=SPLIT_SEED)
    columns = ["active_agreements", "active_disagreements", "passive_disagreements"]
    return runs.set_index("link")[columns].astype(int)


@exercise(
    "glm-read-deviance-table",
    chapter=CHAPTER,
    title="Read the deviance table",
    kind="interpretation",
    tolerance=5e-3,
    hint=(
        "In the chapter's deviance table, find the lowest value of each Robust04 and Core18 row (with and without "
        "outliers); for the share, compute 1 - deviance(logit) / deviance(identity) on Robust04 AP."
    ),
)
def read_deviance_table() -> dict[str, object]:
    """Read the deviance table: the link with the lowest deviance per setting, and what logit removes.

    The link per Robust04/Core18 setting, and the share of identity's deviance that logit removes on
    Robust04 AP.

    Returns
    -------
    dict of str -> object
        ``lowest`` (``"collection measure"`` -> link) and ``logit_gain_robust04_ap`` (the share).
    """
    from irrepro.papers import glm as paper

    wide = paper.table1()
    lowest = paper.lowest_deviance(wide)
    best = {f"{collection} {measure}": str(link) for (collection, measure), link in lowest.items()
            if not collection.startswith("Core17")}  # fmt: skip
    gain = 1 - wide.loc["logit", ("Robust04", "AP")] / wide.loc["identity", ("Robust04", "AP")]
    return {"lowest": best, "logit_gain_robust04_ap": float(gain)}


@exercise(
    "glm-remove-outliers",
    chapter=CHAPTER,
    title="Predict, then check: remove the near-zero runs",
    kind="predict-then-check",
    tolerance=5e-3,
    hint=(
        "For Core18 AP with and without outliers (paper.system_effects('Core18', 'AP', links=('log',), "
        "outliers_removed=...)), divide the largest 'se' by the median 'se'; for the share, count the significant "
        "pairs of the log fit (paper.fits(...)['log'], pairwise_contrasts) and divide by the number of pairs."
    ),
)
def remove_outliers() -> dict[str, dict[str, float]]:
    """Compare the log link on Core18 AP with and without the outlier runs.

    The largest centred SE over the median SE, and the share of system pairs that are
    significantly different (Tukey, alpha 0.05).

    Returns
    -------
    dict of str -> dict of str -> float
        ``with outliers`` and ``without outliers`` -> ``se_ratio`` and ``ssd_share``.
    """
    from irrepro.glm import pairwise_contrasts
    from irrepro.papers import glm as paper

    collection, measure, link = OUTLIER_SETTING
    answer = {}
    for removed, key in ((False, "with outliers"), (True, "without outliers")):
        se = paper.system_effects(collection, measure, links=(link,), outliers_removed=removed)["se"]
        fit = paper.fits(collection, measure, outliers_removed=removed)[link]
        pairs = pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid)
        answer[key] = {"se_ratio": float(se.max() / se.median()), "ssd_share": float(pairs["significant"].mean())}
    return answer
