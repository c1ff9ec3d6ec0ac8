"""The two-way GLM fitter (:func:`irrepro.glm.fit.fit_two_way`) against statsmodels' GLM, in one process.

The data: the per-topic scores of a collection and measure (Robust04 AP: 249 topics x 110 runs =
27,390 observations, 358 parameters). statsmodels fits the same model with the dense
treatment-coded design (:func:`irrepro.glm.fit.dense_design`), the same family and link, its
default IRLS. BLAS runs on one thread for both (two shared cores). The fits alternate (irrepro,
statsmodels, irrepro, ...); their deviances are compared before any time is reported.
"""

from __future__ import annotations

import statistics
import time
import warnings
from dataclasses import dataclass
from importlib import metadata

import pandas as pd

from perf.comparison import Comparison

#: Relative difference of the two deviances above which the fits are different models.
AGREEMENT = 1e-9


@dataclass(frozen=True)
class GlmComparison:
    """The fit time of both, the size of the problem, and how far the two deviances are apart."""

    comparison: Comparison
    observations: int
    parameters: int
    repeats: int
    relative_deviance_difference: float


def _seconds(fit) -> tuple[float, object]:
    start = time.perf_counter()
    result = fit()
    return time.perf_counter() - start, result


def compare_glm(collection: str = "Robust04", measure: str = "AP", *, link: str = "identity", repeats: int = 3,
                peer_repeats: int | None = None) -> GlmComparison:  # fmt: skip
    """:func:`compare_fits` on the per-topic ``measure`` scores of ``collection`` (the GLM paper's data)."""
    from irrepro.papers.glm import load_scores

    scores = load_scores(collection, measure)
    return compare_fits(scores, f"{collection} {measure}", link=link, repeats=repeats, peer_repeats=peer_repeats)


def compare_fits(scores: pd.DataFrame, label: str, *, link: str = "identity", repeats: int = 3,
                 peer_repeats: int | None = None) -> GlmComparison:  # fmt: skip
    """Fit the two-way model of ``scores`` (topics x runs) ``repeats`` times with irrepro and
    ``peer_repeats`` (default: as many) times with statsmodels, in turn while both have fits left.

    The time is each fitter's median (statsmodels' fit on Robust04 takes seconds, irrepro's
    milliseconds: one statsmodels fit may be all a budget allows, and its noise cannot change the
    ratio's order of magnitude). Raises :class:`RuntimeError` when the deviances differ
    (relatively) by more than :data:`AGREEMENT`.
    """
    # the same class as statsmodels.api.GLM; statsmodels.api would import all of statsmodels (0.3 s
    # more on the page, outside what is measured)
    from statsmodels.genmod.generalized_linear_model import GLM
    from threadpoolctl import threadpool_limits

    from irrepro.glm.fit import dense_design, fit_two_way, make_family

    peer_repeats = repeats if peer_repeats is None else peer_repeats
    if min(repeats, peer_repeats) < 1:
        raise ValueError(f"repeats and peer_repeats are at least 1; got {repeats!r} and {peer_repeats!r}")
    y, design = dense_design(scores)

    def theirs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return GLM(y, design, family=make_family("gaussian", link)).fit()

    ours_s, theirs_s = [], []
    with threadpool_limits(limits=1, user_api="blas"):
        for turn in range(max(repeats, peer_repeats)):
            if turn < repeats:
                seconds, fit = _seconds(lambda: fit_two_way(scores, link=link))
                ours_s.append(seconds)
            if turn < peer_repeats:
                seconds, reference = _seconds(theirs)
                theirs_s.append(seconds)
    relative = abs(fit.deviance - reference.deviance) / reference.deviance
    if relative > AGREEMENT:
        raise RuntimeError(f"the two fits' deviances differ by {relative:.3g} (relative): the times would compare different work")
    size = f"{label}, {scores.shape[0]} topics x {scores.shape[1]} runs ({design.shape[1]} parameters)"
    statistic = f"median of {repeats}" + (f", statsmodels {_fits(peer_repeats)}" if peer_repeats != repeats else "")
    comparison = Comparison(f"GLM fit, {link} link", f"time ({statistic})", f"statsmodels {metadata.version('statsmodels')}",
                            statistics.median(ours_s), statistics.median(theirs_s), "s", size)  # fmt: skip
    return GlmComparison(comparison, y.size, design.shape[1], repeats, float(relative))


def _fits(count: int) -> str:
    return "1 fit" if count == 1 else f"median of {count}"
