"""How many of the chapter's significantly different system pairs survive a resample of the topics.

The ssd pairs of :func:`~irrepro.papers.glm.models.ssd_table` (Tukey HSD, alpha 0.05) are found on one
sample of topics. Here the topics of each setting are drawn again with replacement (bootstrap) and the
ssd pairs are found on every replicate (:mod:`irrepro.glm.resampling`); for each pair significant on all
topics we count the share of replicates in which it is significant with the same sign ("kept").

What is resampled, and how often (the chapter states it):

- the identity link in every setting, :data:`RESAMPLES` replicates (a closed form: seconds);
- the links the paper calls the most promising, log and logit (:data:`REFIT_LINKS`), on Robust04, the
  paper's collection, :data:`REFIT_RESAMPLES` replicates: each replicate is an IRLS refit (about
  0.02 s for 249 topics x 110 runs), so a thousand would add minutes to the book;
- the other links and the log-type links on the substitutes are not resampled.

The replicates of one setting use the same topic draws for every link (seed :data:`SEED`; the refits
use the first :data:`REFIT_RESAMPLES` of the identity's draws), so links compare on equal terms; the
claim ``glm.more-ssd-pairs.robust04`` is re-read on those shared replicates (:data:`CHECKS`). A
refit that does not converge is left out of the shares and counted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.glm.contrasts import pairwise_contrasts
from irrepro.glm.resampling import identity_pair_signs, refit_pair_signs
from irrepro.memo import cached
from irrepro.papers.glm.claim_checks import CLAIMS
from irrepro.papers.glm.data_groups import ROBUST04
from irrepro.papers.glm.diagnostics import LOG_TYPE_LINKS
from irrepro.papers.glm.models import fits, ssd_table
from irrepro.papers.glm.scores import analysis_scores, settings
from irrepro.papers.robustness import BORDERLINE_MARGIN, INTERVAL_LEVEL, STABLE_SHARE, Outcome, ResampledChecks
from irrepro.reproducibility.resampling import percentile_interval, stability, topic_resamples, topic_weights

__all__ = [
    "RESAMPLES", "REFIT_RESAMPLES", "REFIT_LINKS", "SEED", "CHECKS", "resampled_settings", "pair_replicates",
    "ssd_pair_robustness", "ssd_robustness", "claim_robustness", "robustness_numbers",
]  # fmt: skip

RESAMPLES = 1000
REFIT_RESAMPLES = 200
REFIT_LINKS: tuple[str, ...] = LOG_TYPE_LINKS
SEED = 0
_SETTING = ["collection", "measure", "outliers_removed"]

CHECKS = ResampledChecks(CLAIMS)


def resampled_settings() -> list[tuple[str, str, bool, str]]:
    """List every resampled fit, in the chapter's order.

    Returns
    -------
    list of (str, str, bool, str)
        (collection, measure, outliers_removed, link).
    """
    chosen = []
    for collection, measure, removed in settings():
        links = ("identity", *REFIT_LINKS) if collection in ROBUST04.collections else ("identity",)
        chosen += [(collection, measure, removed, link) for link in links]
    return chosen


def _all_topics_signs(collection: str, measure: str, removed: bool, link: str) -> np.ndarray:
    fit = fits(collection, measure, outliers_removed=removed)[link]
    contrasts = pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid)
    return contrasts["sign"].to_numpy()


@cached(maxsize=64)
def pair_replicates(collection: str, measure: str, removed: bool, link: str) -> tuple[np.ndarray, np.ndarray]:
    """Give the signs of the ssd pairs of one setting and link on its replicates, and which refits converged.

    Parameters
    ----------
    collection : str
        The collection.
    measure : str
        The measure.
    removed : bool
        Outliers removed.
    link : str
        The link.

    Returns
    -------
    signs : numpy.ndarray
        (resamples, pairs) int8 signs.
    converged : numpy.ndarray
        (resamples,) bool.

    Raises
    ------
    ValueError
        If the setting and link are not resampled.
    """
    scores = analysis_scores(collection, measure, outliers_removed=removed).to_numpy(dtype=float)
    indices = topic_resamples(scores.shape[0], RESAMPLES, seed=SEED)
    if link == "identity":
        return identity_pair_signs(scores, topic_weights(indices)), np.ones(RESAMPLES, dtype=bool)
    if link not in REFIT_LINKS or collection not in ROBUST04.collections:
        raise ValueError(f"{collection} {measure} {link}: not resampled (see irrepro.papers.glm.robustness)")
    start = fits(collection, measure, outliers_removed=removed)[link].linear_predictor.to_numpy()
    return refit_pair_signs(scores, indices[:REFIT_RESAMPLES], start, link=link)


def _kept(collection: str, measure: str, removed: bool, link: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sign on all topics per pair, share of converged replicates keeping it, ssd count per replicate)."""
    signs, converged = pair_replicates(collection, measure, removed, link)
    signs = signs[converged]
    point = _all_topics_signs(collection, measure, removed, link)
    return point, (signs == point).mean(axis=0), (signs != 0).sum(axis=1)


def ssd_pair_robustness() -> pd.DataFrame:
    """Give, per ssd pair on all topics, resampled setting and link, the share of replicates keeping it.

    Returns
    -------
    pandas.DataFrame
        Columns: setting, ``link``, ``system_a``, ``system_b``, ``sign`` (+1: a better than b),
        ``share kept``.
    """
    frames = []
    for collection, measure, removed, link in resampled_settings():
        point, kept, _ = _kept(collection, measure, removed, link)
        names = analysis_scores(collection, measure, outliers_removed=removed).columns.to_numpy()
        first, second = np.triu_indices(len(names), k=1)
        ssd = point != 0
        frames.append(pd.DataFrame({
            "collection": collection, "measure": measure, "outliers_removed": removed, "link": link,
            "system_a": names[first][ssd], "system_b": names[second][ssd], "sign": point[ssd], "share kept": kept[ssd],
        }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


@cached(maxsize=2)
def ssd_robustness() -> pd.DataFrame:
    """Count per resampled setting and link the ssd pairs on all topics and how many the replicates keep.

    Returns
    -------
    pandas.DataFrame
        ``stable``: kept by at least :data:`~irrepro.papers.robustness.STABLE_SHARE` of the
        replicates; ``borderline``: by a share too close to it to tell
        (:func:`~irrepro.reproducibility.resampling.stability`); ``kept by most``: by at least half,
        fewer than that; ``kept by few``: by fewer than half; ``median share kept``; ``reversed somewhere``: significant with the opposite sign
        in some replicate; ``ssd per resample``, ``low``, ``high``: the number of ssd pairs per
        replicate, median and 95% percentile interval. ``resamples``: the converged replicates used;
        ``unconverged``: those left out.
    """
    rows = []
    for collection, measure, removed, link in resampled_settings():
        point, kept, counts = _kept(collection, measure, removed, link)
        signs, converged = pair_replicates(collection, measure, removed, link)
        ssd = point != 0
        low, high = percentile_interval(counts)
        status = np.array([stability(share, resamples=int(converged.sum())) for share in kept[ssd]], dtype=object)
        borderline = status == "borderline"
        rows.append({
            "collection": collection, "measure": measure, "outliers_removed": removed, "link": link,
            "resamples": int(converged.sum()), "unconverged": int((~converged).sum()), "pairs": point.size,
            "ssd pairs": int(ssd.sum()), "stable": int((status == "stable").sum()), "borderline": int(borderline.sum()),
            "kept by most": int(((kept[ssd] >= 0.5) & (status == "fragile")).sum()),
            "kept by few": int((kept[ssd] < 0.5).sum()), "median share kept": float(np.median(kept[ssd])),
            "reversed somewhere": int(((signs[converged] == -point) & ssd).any(axis=0).sum()),
            "ssd per resample": float(np.median(counts)), "low": low, "high": high,
        })  # fmt: skip
    table = pd.DataFrame(rows)
    table["stable share"] = table["stable"] / table["ssd pairs"]
    return table


def _robust04_counts(n_resamples: int | None) -> dict[tuple[str, str, bool, str], np.ndarray]:
    """ssd counts per Robust04 setting and link: on the first ``n_resamples`` shared replicates, or on all
    topics (``None``: the counts of :func:`~irrepro.papers.glm.models.ssd_table`, one value each)."""
    counts = {}
    if n_resamples is None:
        table = ssd_table()
        for row in table[table["collection"].isin(ROBUST04.collections)].itertuples():
            counts[(row.collection, row.measure, row.outliers_removed, row.link)] = np.array([row.ssd_pairs])
        return counts
    for key in resampled_settings():
        if key[0] in ROBUST04.collections:
            signs, converged = pair_replicates(*key)
            counts[key] = np.where(converged[:n_resamples], (signs[:n_resamples] != 0).sum(axis=1), -1)
    return counts


@CHECKS.check("more-ssd-pairs.robust04", label="log and logit find more ssd pairs",
              reading="log and logit each find more ssd pairs (Tukey HSD) than identity in more than half of the "
              "Robust04 settings, on the same resampled topics (an unconverged refit counts as not more)",
              statistic="smallest margin: ssd pairs of log or logit minus identity's, over the settings")  # fmt: skip
def _more_ssd_pairs(counts: dict[tuple[str, str, bool, str], np.ndarray]) -> Outcome:
    holds, margins = True, []
    for link in LOG_TYPE_LINKS:
        more = []
        for key, values in counts.items():
            if key[3] == link:
                margin = np.where(values >= 0, values - counts[(*key[:3], "identity")], np.nan)
                margins.append(margin)
                more.append(margin > 0)
        holds = holds & (np.sum(more, axis=0) > len(more) / 2)
    return Outcome(holds, np.nanmin(np.stack(margins), axis=0))


def claim_robustness() -> pd.DataFrame:
    """Re-read the GLM claims on the shared replicates (:data:`CHECKS`; :mod:`irrepro.papers.robustness`).

    Returns
    -------
    pandas.DataFrame
        As :meth:`irrepro.papers.robustness.ResampledChecks.table` returns it.
    """
    return CHECKS.table(_robust04_counts(None), _robust04_counts(REFIT_RESAMPLES))


def robustness_numbers(summary: pd.DataFrame | None = None, claims: pd.DataFrame | None = None) -> dict[str, object]:
    """Compute what the chapter's prose says about :func:`ssd_robustness` and :func:`claim_robustness` (keys for glue).

    Parameters
    ----------
    summary : pandas.DataFrame, optional
        :func:`ssd_robustness`; default: computed now.
    claims : pandas.DataFrame, optional
        :func:`claim_robustness`; default: computed now.

    Returns
    -------
    dict of str -> object
        Name -> number or text.
    """
    summary = ssd_robustness() if summary is None else summary
    claims = claim_robustness() if claims is None else claims
    identity = summary[summary["link"] == "identity"]
    robust04 = summary[summary["collection"].isin(ROBUST04.collections)]
    claim = claims.iloc[0]
    return {
        "resamples": RESAMPLES, "refit_resamples": REFIT_RESAMPLES, "refit_links": " and ".join(REFIT_LINKS),
        "seed": SEED, "stable_share": f"{STABLE_SHARE:.0%}", "interval_level": f"{INTERVAL_LEVEL:.0%}",
        "fits": len(summary), "ssd_pairs": int(summary["ssd pairs"].sum()),
        "kept_by_few": int(summary["kept by few"].sum()), "borderline": int(summary["borderline"].sum()),
        "borderline_margin": f"{BORDERLINE_MARGIN * 100:.0f}",
        "unconverged": int(summary["unconverged"].sum()), "reversed": int(summary["reversed somewhere"].sum()),
        "stable_low": f"{summary['stable share'].min():.0%}", "stable_high": f"{summary['stable share'].max():.0%}",
        "robust04_stable_low": f"{robust04['stable share'].min():.0%}",
        "robust04_stable_high": f"{robust04['stable share'].max():.0%}",
        "substitutes_stable_low": f"{identity.loc[~identity['collection'].isin(ROBUST04.collections), 'stable share'].min():.0%}",
        "core18_stable_high": f"{summary.loc[summary['collection'] == 'Core18', 'stable share'].max():.0%}",
        "claim_holds": "holds" if claim["holds on all topics"] else "does not hold",
        "claim_share": f"{claim['share holding']:.0%}", "claim_status": claim["status"],
        "claim_resamples": int(claim["resamples"]),
        "claim_margin": int(claim["on all topics"]), "claim_low": f"{claim['low']:.0f}".replace("-", "\u2212"),
        "claim_high": f"{claim['high']:.0f}".replace("-", "\u2212"),
    }  # fmt: skip
