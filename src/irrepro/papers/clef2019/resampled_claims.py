"""The paper's claims on the published 2020 runs re-read on bootstrap replicates of the topics.

:data:`CHECKS` follows :mod:`irrepro.papers.robustness`: for every claim of
:data:`~irrepro.papers.clef2019.claim_checks.CLAIMS` a function of the per-topic scores on ``B``
replicates (:class:`~irrepro.papers.clef2019.claim_scores.Resampled`) returning whether the claim
holds in each and the number it turns on. Each mirrors the claim's own check on the same runs,
measures and topic sets; where it reads the words differently, its ``reading`` says so. Two readings
differ by construction: "14 out of 15 topics" is a printed count, read as the printed *share* (at
least 14 of 15 drawn topics); and NIST's official scores are the original runs' means over the 50
Core17 topics, so on a replicate the 2020 runs are held against the original runs' mean on the
same drawn topics.
"""

from __future__ import annotations

import numpy as np

from irrepro.papers.clef2019.claim_checks import CLAIMS
from irrepro.papers.clef2019.claim_scores import Resampled
from irrepro.papers.clef2019.printed_values import FIGURE3_ENRICHED
from irrepro.papers.clef2019.published_runs import MEASURE_NAMES, SETTINGS
from irrepro.papers.datasets import ADVANCED, BASELINE, SYSTEMS, run_column
from irrepro.papers.robustness import Outcome, ResampledChecks

__all__ = ["ALPHA", "CHECKS"]

#: The significance level of the paired t-tests (the claim's own).
ALPHA = 0.05
CHECKS = ResampledChecks(CLAIMS)
_GROUP = {"replicability": "core17", "reproducibility": "core18"}


def _run(setting: str, system: str, constellation: int = 1) -> str:
    return run_column(SETTINGS[setting][0], system, constellation)


def _profiting(r: Resampled, setting: str) -> np.ndarray:
    """Drawn common topics on which WCrobust0405 has the higher AP (constellation 1), per replicate."""
    common = r.scores.frames["common"]
    better = common[(setting, ADVANCED, "MAP")] > common[(setting, BASELINE, "MAP")]
    return r.counts("common", better.to_numpy())


@CHECKS.check("enrichment-replicated", label="14 of 15 topics profit, replicated",
              reading=f"WCrobust0405 beats WCrobust04 (AP) on at least {FIGURE3_ENRICHED.printed} of the 15 drawn "
              "common topics (the printed share; a topic drawn twice counts twice), Core17",
              statistic="drawn topics on which WCrobust0405 beats WCrobust04 (of 15)")  # fmt: skip
def _enrichment_replicated(r: Resampled) -> Outcome:
    profiting = _profiting(r, "replicability")
    return Outcome(profiting >= FIGURE3_ENRICHED.number, profiting)


@CHECKS.check("enrichment-reproduced-fewer", label="reproduced: fewer profit, all lower",
              reading="on the same drawn common topics, WCrobust0405 beats WCrobust04 on fewer of them reproduced "
              "than replicated, and all 6 means (2 systems x MAP, P@10, nDCG) are lower reproduced",
              statistic="topics profiting replicated minus reproduced")  # fmt: skip
def _enrichment_reproduced_fewer(r: Resampled) -> Outcome:
    margin = _profiting(r, "replicability") - _profiting(r, "reproducibility")
    means = r.means("common")
    lower = np.all([means[("reproducibility", s, m)] < means[("replicability", s, m)]
                    for s in SYSTEMS for m in MEASURE_NAMES], axis=0)  # fmt: skip
    return Outcome((margin > 0) & lower, margin)


@CHECKS.check("enrichment-improves", label="WCrobust0405 better everywhere",
              reading="WCrobust0405 has the higher mean in every setting, topic set and measure; a topic set's "
              "mean is over its topics among the drawn ones of its collection",
              statistic="cases with the higher mean for WCrobust0405")  # fmt: skip
def _enrichment_improves(r: Resampled) -> Outcome:
    better = []
    for setting, group in _GROUP.items():
        for (of, subset) in r.scores.subsets:
            if of == group:
                means = r.means(group, subset=subset)
                better += [means[(_run(setting, ADVANCED), m)] > means[(_run(setting, BASELINE), m)] for m in MEASURE_NAMES]
    count = np.sum(better, axis=0)
    return Outcome(count == len(better), count)


def _below_original(r: Resampled, measure: str) -> Outcome:
    """Both 2020 replicated runs' mean ``measure`` below their original TREC run's on the drawn Core17 topics."""
    means = r.means("core17")
    excess = np.max([means[(_run("replicability", s), measure)] - means[(s, measure)] for s in SYSTEMS], axis=0)
    return Outcome(excess < 0, excess)


@CHECKS.check("map-below-baseline", label="MAP below the original runs'",
              reading="both 2020 runs' MAP below the original run's MAP on the same drawn Core17 topics (on all "
              "topics the original runs' means are NIST's official scores)",
              statistic="largest MAP difference, 2020 run minus original")  # fmt: skip
def _map_below_baseline(r: Resampled) -> Outcome:
    return _below_original(r, "MAP")


@CHECKS.check("p10-slightly-below", label="P@10 below the original runs'",
              reading="both 2020 runs' P@10 below the original run's P@10 on the same drawn Core17 topics "
              "(\"slightly\" is not tested)",
              statistic="largest P@10 difference, 2020 run minus original")  # fmt: skip
def _p10_slightly_below(r: Resampled) -> Outcome:
    return _below_original(r, "P@10")


@CHECKS.check("augmentation-not-significant", label="augmenting never significant",
              reading=f"no paired t-test on AP (constellation 7 against 1; 2 systems x Core17, Core18) with p < {ALPHA}",
              statistic=f"tests with p < {ALPHA} (of 4)")  # fmt: skip
def _augmentation_not_significant(r: Resampled) -> Outcome:
    significant = 0
    for setting, group in _GROUP.items():
        frame = r.scores.frames[group]
        augmented, plain = (frame[[(_run(setting, s, c), "MAP") for s in SYSTEMS]].to_numpy() for c in (7, 1))
        significant = significant + (r.paired_p(group, augmented - plain) < ALPHA).sum(axis=1)
    return Outcome(significant == 0, significant)


@CHECKS.check("preprocessing-wcrobust04", label="preprocessing helps WCrobust04 most",
              reading="MAP with minus without preprocessing (constellation 1 minus 8) of WCrobust04 positive and "
              "above WCrobust0405's, in both settings",
              statistic="smallest margin: WCrobust04's gain, or its excess over WCrobust0405's")  # fmt: skip
def _preprocessing_wcrobust04(r: Resampled) -> Outcome:
    margins = []
    for setting, group in _GROUP.items():
        means = r.means(group)
        gain = {s: means[(_run(setting, s, 1), "MAP")] - means[(_run(setting, s, 8), "MAP")] for s in SYSTEMS}
        margins += [gain[BASELINE], gain[BASELINE] - gain[ADVANCED]]
    margin = np.min(margins, axis=0)
    return Outcome(margin > 0, margin)
