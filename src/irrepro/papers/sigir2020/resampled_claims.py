"""The paper's claims re-read on bootstrap replicates of the topics: one resampled check per claim.

:data:`CHECKS` follows the protocol of :mod:`irrepro.papers.robustness`: for every claim of
:data:`~irrepro.papers.sigir2020.claim_checks.CLAIMS` a function of the measures on ``B`` replicates
(:class:`~irrepro.papers.sigir2020.resampled.Replicates`) returning whether the claim holds in each
and the number it turns on. Each check mirrors the claim's own check, its data and its readings of
vague words (the same thresholds, imported from the claim modules); where it differs, its
``reading`` says so: a printed value is a fact of the print, not of the topics, so "equals the
printed 0.005" becomes the interval of the number. The panels of Figures 2 and 3 are the families
that fit the paper's words on all topics (:func:`~irrepro.papers.sigir2020.figures.panel_families`),
fixed for every replicate: the paper shows one family per panel whatever the sample.
"""

from __future__ import annotations

import numpy as np

from irrepro.papers.datasets import BASELINE, SYSTEMS
from irrepro.papers.printed import threshold_holds
from irrepro.papers.robustness import Outcome, ResampledChecks
from irrepro.papers.sigir2020.claim_checks import ALPHA, CLAIMS, LOW_KTU, MOSTLY
from irrepro.papers.sigir2020.correlation_claims import TABLE4_STATEMENTS, Table4Statement
from irrepro.papers.sigir2020.effect_claims import best_levels  # noqa: F401  (registers the effect claims)
from irrepro.papers.sigir2020.figures import panel_families
from irrepro.papers.sigir2020.hypothesis import LOW_TAU, PAPER_LOW_TAU
from irrepro.papers.sigir2020.published_scores import MEASURES
from irrepro.papers.sigir2020.resampled import Replicates, printed
from irrepro.reproducibility.resampling import kendall_tau_b
from irrepro.routing.constellations import FAMILIES, PRINTED

__all__ = ["CHECKS"]

#: The resampled check of every claim of the paper.
CHECKS = ResampledChecks(CLAIMS)
#: The range of Kendall's tau, to which recentred replicates are clipped.
_TAU = (-1.0, 1.0)
#: Positions of each family's five levels (1-5) among the 20 printed constellations.
_FAMILY = {f: [i for i, c in enumerate(PRINTED) if c.family == f] for f in FAMILIES}


# --------------------------------------------------------------------------- helpers on (B, ...) arrays


def _tau_with_levels(values: np.ndarray) -> np.ndarray:
    """Kendall's tau between the level (1-5) and ``values`` (B, 5), per replicate."""
    levels = np.broadcast_to(np.arange(values.shape[1], dtype=float), values.shape)
    return kendall_tau_b(np.stack([levels, values], axis=2))[:, 0, 1]


def _tau_between(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return kendall_tau_b(np.stack([first, second], axis=2))[:, 0, 1]


def _regions(er: np.ndarray, delta_ri: np.ndarray) -> np.ndarray:
    """The paper's region 1-4 of each point, 0 on an axis (as :func:`~irrepro.papers.sigir2020.figures.er_deltari_region`)."""
    conditions = [
        (er > 0) & (delta_ri > 0),
        (er < 0) & (delta_ri > 0),
        (er < 0) & (delta_ri < 0),
        (er > 0) & (delta_ri < 0),
    ]
    return np.select(conditions, [1, 2, 3, 4], default=0)


def _region_counts(regions: np.ndarray) -> np.ndarray:
    """(B, 5): points in region 0 (on an axis), 1, 2, 3, 4."""
    return np.stack([(regions == k).sum(axis=1) for k in range(5)], axis=1)


def _majority(regions: np.ndarray, region: int) -> np.ndarray:
    """Whether ``region`` holds more points than any other region (1-4), per replicate."""
    counts = _region_counts(regions)[:, 1:]
    others = np.delete(counts, region - 1, axis=1)
    return counts[:, region - 1] > others.max(axis=1)


def _effect(r: Replicates, setting: str, name: str) -> np.ndarray:
    return printed(r.effects[setting][name])


def _both_systems(r: Replicates, name: str) -> np.ndarray:
    """(B, 40): one measure of the printed replicated runs of both systems."""
    return np.concatenate([printed(r.replicability[s][name]) for s in SYSTEMS], axis=1)


# --------------------------------------------------------------------------- Section 5.1: replicability


@CHECKS.check("rbo-less-strict", label="RBO above KTU for every run", reading="RBO > KTU for all 40 printed replicated runs (both systems)",
              statistic="printed runs with RBO > KTU (of 40)")  # fmt: skip
def _rbo_less_strict(r: Replicates) -> Outcome:
    higher = (_both_systems(r, "RBO") > _both_systems(r, "KTU")).sum(axis=1)
    return Outcome(higher == 2 * len(PRINTED), higher)


@CHECKS.check("rmse-p-inconsistent", label="RMSE and p disagree for tf and C",
              reading="tau(RMSE:P@10, p:P@10) over the five levels > 0 for tf and C, < 0 for df and tol (WCrobust04)",
              statistic="families with the stated sign (of 4)")  # fmt: skip
def _rmse_p_inconsistent(r: Replicates) -> Outcome:
    rmse, p = printed(r.replicability[BASELINE]["RMSE:P@10"]), printed(r.replicability[BASELINE]["p:P@10"])
    signs = {"tf": 1, "C": 1, "df": -1, "tol": -1}
    stated = sum((np.sign(_tau_between(rmse[:, _FAMILY[f]], p[:, _FAMILY[f]])) == sign).astype(int)
                 for f, sign in signs.items())  # fmt: skip
    return Outcome(stated == len(signs), stated)


@CHECKS.check("rmse-p10-largest", label="RMSE largest for P@10", reading="RMSE:P@10 above RMSE:AP and RMSE:nDCG for more than half of the 40 runs",
              statistic="printed runs with the largest RMSE for P@10 (of 40)")  # fmt: skip
def _rmse_p10_largest(r: Replicates) -> Outcome:
    others = np.maximum(_both_systems(r, "RMSE:AP"), _both_systems(r, "RMSE:nDCG"))
    larger = (_both_systems(r, "RMSE:P@10") > others).sum(axis=1)
    return Outcome(larger > len(PRINTED), larger)


@CHECKS.check("figure1-cutoffs", label="RMSE falls with the cut-off, KTU low",
              reading=f"RMSE of nDCG@k falls at more than {MOSTLY:.0%} of the steps between cut-offs, and every mean "
              f"KTU stays below {LOW_KTU} (WCrobust04)",
              statistic="share of the steps at which RMSE falls")  # fmt: skip
def _figure1_cutoffs(r: Replicates) -> Outcome:
    steps = np.diff(r.cutoffs["RMSE:nDCG"], axis=1)
    falling = (steps < 0).mean(axis=(1, 2))
    return Outcome((falling > MOSTLY) & (r.cutoffs["KTU"].max(axis=(1, 2)) < LOW_KTU), falling)


def _distance_by_level(r: Replicates, family: str, measure: str) -> np.ndarray:
    """|1 - ER| (replicability) of one family's five pairs, levels 1-5: (B, 5)."""
    return np.abs(1.0 - _effect(r, "rpl", f"ER:{measure}")[:, _FAMILY[family]])


@CHECKS.check("er-p10-best-tf3", label="tf_3 best by ER of P@10", reading="tf_3 has the ER:P@10 closest to 1 among the tf family's five levels",
              statistic="margin of tf_3: next smallest |1 - ER:P@10| minus its own")  # fmt: skip
def _er_p10_best_tf3(r: Replicates) -> Outcome:
    distance = _distance_by_level(r, "tf", "P@10")
    margin = np.delete(distance, 2, axis=1).min(axis=1) - distance[:, 2]
    return Outcome(margin > 0, margin)


@CHECKS.check("er-no-agreement", label="measures disagree on the best level",
              reading="for tf and for C, the level with ER closest to 1 is not the same for P@10, AP and nDCG",
              statistic="families of tf and C without agreement (of 2)")  # fmt: skip
def _er_no_agreement(r: Replicates) -> Outcome:
    disagreeing = 0
    for family in ("tf", "C"):
        best = np.stack([_distance_by_level(r, family, m).argmin(axis=1) for m in MEASURES], axis=1)
        disagreeing = disagreeing + (best.min(axis=1) != best.max(axis=1)).astype(int)
    return Outcome(disagreeing == 2, disagreeing)


@CHECKS.check("er-further-from-one", label="ER moves away from 1 with the level",
              reading="tau(level, |1 - ER|) > 0 in more than half of the four families, for AP and for nDCG",
              statistic="families with ER moving away from 1 (of 4), the smaller count of AP and nDCG")  # fmt: skip
def _er_further_from_one(r: Replicates) -> Outcome:
    rising = [sum((_tau_with_levels(_distance_by_level(r, f, m)) > 0).astype(int) for f in FAMILIES)
              for m in ("AP", "nDCG")]  # fmt: skip
    fewest = np.minimum(*rising)
    return Outcome(fewest > len(FAMILIES) / 2, fewest)


def _family_regions(r: Replicates, setting: str, family: str, measure: str) -> np.ndarray:
    er, delta = _effect(r, setting, f"ER:{measure}"), _effect(r, setting, f"DeltaRI:{measure}")
    return _regions(er[:, _FAMILY[family]], delta[:, _FAMILY[family]])


@CHECKS.check("figure2-panels", label="Figure 2: panels (a) and (b) exist",
              reading="some family has its AP and nDCG points mostly in region 4 (panel a), another its AP points "
              "mostly in region 1 (panel b)",
              statistic="families fitting panel (b) (of 4)")  # fmt: skip
def _figure2_panels(r: Replicates) -> Outcome:
    fits_a = sum((_majority(_family_regions(r, "rpl", f, "AP"), 4) & _majority(_family_regions(r, "rpl", f, "nDCG"), 4))
                 .astype(int) for f in FAMILIES)  # fmt: skip
    fits_b = sum(_majority(_family_regions(r, "rpl", f, "AP"), 1).astype(int) for f in FAMILIES)
    return Outcome((fits_a > 0) & (fits_b > 0), fits_b)


# --------------------------------------------------------------------------- Section 5.2: reproducibility


@CHECKS.check("reproducing-harder", label="reproducing harder than replicating",
              reading="median |1 - ER| over the 20 printed pairs and 3 measures larger for reproducibility",
              statistic="median |1 - ER|, reproducibility minus replicability")  # fmt: skip
def _reproducing_harder(r: Replicates) -> Outcome:
    median = {
        setting: np.median(
            np.concatenate([np.abs(1.0 - _effect(r, setting, f"ER:{m}")) for m in MEASURES], axis=1), axis=1
        )
        for setting in ("rpl", "rpd")
    }
    gap = median["rpd"] - median["rpl"]
    return Outcome(gap > 0, gap)


@CHECKS.check("all-reproduced-different", label="every reproduced run differs",
              reading=f"p < {ALPHA} in all 120 cells (20 runs x 3 measures x 2 systems); the printed highest p-value "
              "(0.005) is a fact of the print: its interval is given instead",
              statistic="highest p-value of the reproduced WCrobust04 runs")  # fmt: skip
def _all_reproduced_different(r: Replicates) -> Outcome:
    cells = np.concatenate([printed(r.reproducibility[s][f"p:{m}"]) for s in SYSTEMS for m in MEASURES], axis=1)
    highest = np.concatenate([printed(r.reproducibility[BASELINE][f"p:{m}"]) for m in MEASURES], axis=1).max(axis=1)
    return Outcome((cells < ALPHA).all(axis=1), highest)


@CHECKS.check("twins-mostly-different", label="most twins differ, except df and tol",
              reading=f"p < {ALPHA} in more than half of the 120 cells, and every run with some p >= {ALPHA} is of "
              "the df or tol family",
              statistic=f"cells with p < {ALPHA} (of 120)")  # fmt: skip
def _twins_mostly_different(r: Replicates) -> Outcome:
    cells = np.stack(list(r.twins.values()), axis=2)  # (B, 20 runs, 6)
    different = (cells < ALPHA).sum(axis=(1, 2))
    similar = (cells >= ALPHA).any(axis=2)
    elsewhere = [i for i, c in enumerate(PRINTED) if c.family not in ("df", "tol")]
    return Outcome((different > cells[0].size / 2) & ~similar[:, elsewhere].any(axis=1), different)


@CHECKS.check("table2-right-extremes", label="reproduced ER outside replicated range",
              reading="ER:AP of more than half of the 20 reproduced pairs outside the range of the replicability ER:AP",
              statistic="reproduced pairs with ER:AP outside the replicability range (of 20)")  # fmt: skip
def _table2_right_extremes(r: Replicates) -> Outcome:
    rpl, rpd = _effect(r, "rpl", "ER:AP"), _effect(r, "rpd", "ER:AP")
    outside = ((rpd < rpl.min(axis=1, keepdims=True)) | (rpd > rpl.max(axis=1, keepdims=True))).sum(axis=1)
    return Outcome(outside > len(PRINTED) / 2, outside)


def _panel_points(r: Replicates, family: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Region, distance to (1, 0) and the replicability twin's distance of one family's AP points (B, 5)."""
    columns = _FAMILY[family]
    er, delta = _effect(r, "rpd", "ER:AP")[:, columns], _effect(r, "rpd", "DeltaRI:AP")[:, columns]
    twin_er, twin_delta = _effect(r, "rpl", "ER:AP")[:, columns], _effect(r, "rpl", "DeltaRI:AP")[:, columns]
    return _regions(er, delta), np.hypot(er - 1, delta), np.hypot(twin_er - 1, twin_delta)


@CHECKS.check("figure3a-far-region4", label="Figure 3(a): far from (1,0), region 4",
              reading="for every family that fits Figure 2(a) on all topics: most of its AP points in region 4 and "
              "farther from (1,0) than their replicability twins",
              statistic="such points of the least fitting family (of 5)")  # fmt: skip
def _figure3a_far_region4(r: Replicates) -> Outcome:
    far = []
    for family in panel_families()["a"]:
        regions, distance, twin = _panel_points(r, family)
        far.append(((regions == 4) & (distance > twin)).sum(axis=1))
    fewest = np.min(np.stack(far), axis=0)
    return Outcome(fewest > len(_FAMILY["tf"]) / 2, fewest)


@CHECKS.check("figure3b-one-in-region4", label="Figure 3(b): one point in region 4",
              reading="exactly one AP point of the family that fits Figure 2(b) on all topics in region 4",
              statistic="AP points of that family in region 4 (of 5)")  # fmt: skip
def _figure3b_one_in_region4(r: Replicates) -> Outcome:
    counts = np.stack([(_panel_points(r, f)[0] == 4).sum(axis=1) for f in panel_families()["b"]])
    return Outcome((counts == 1).all(axis=0), counts[0])


@CHECKS.check("figure3b-many-in-region2", label="Figure 3(b): most points in region 2",
              reading="region 2 holds the most AP points of the family that fits Figure 2(b) on all topics",
              statistic="AP points of that family in region 2 (of 5)")  # fmt: skip
def _figure3b_many_in_region2(r: Replicates) -> Outcome:
    families = panel_families()["b"]
    holds = np.stack([_majority(_panel_points(r, f)[0], 2) for f in families]).all(axis=0)
    return Outcome(holds, (_panel_points(r, families[0])[0] == 2).sum(axis=1))


# --------------------------------------------------------------------------- Section 5.3: correlations


def _largest_tau(r: Replicates, table: str, system: str, rows: list[str], columns: list[str]) -> np.ndarray:
    """The largest |tau| between two groups of measures (a measure with itself left out), per replicate."""
    pairs = [(a, b) for a in rows for b in columns if a != b]
    return np.max(np.abs(np.stack([r.tau(table, system, a, b) for a, b in pairs])), axis=0)


@CHECKS.check("arp-ktu-rbo-correlation", label="τ(ARP, KTU) < 0.29, RBO higher",
              reading=f"the largest tau(DeltaARP, KTU) below {PAPER_LOW_TAU}, unrounded, and the largest "
              "tau(DeltaARP, RBO) above it (WCrobust04); the printed 0.70 is a fact of the print",
              statistic="largest tau between a DeltaARP and KTU", recentred=True)  # fmt: skip
def _arp_ktu_rbo_correlation(r: Replicates) -> Outcome:
    arp = [f"DeltaARP:{m}" for m in MEASURES]
    ktu = r.moved(lambda x: np.max(np.stack([x.tau("table4", BASELINE, a, "KTU") for a in arp]), axis=0), bounds=_TAU)
    rbo = r.moved(lambda x: np.max(np.stack([x.tau("table4", BASELINE, a, "RBO") for a in arp]), axis=0), bounds=_TAU)
    return Outcome(threshold_holds(ktu, "below", PAPER_LOW_TAU) & (rbo > ktu), ktu)


def _register_table4(statement: Table4Statement) -> None:
    def check(r: Replicates) -> Outcome:
        def value(x: Replicates) -> np.ndarray:
            return statement.binding([statement.statistic(lambda a, b, s=s: x.tau("table4", s, a, b)) for s in SYSTEMS])

        moved = r.moved(value, bounds=_TAU)
        return Outcome(statement.holds(moved), moved)

    binding = "the larger" if statement.side == "below" else "the smaller"
    CHECKS.check(statement.name, label=statement.label, reading=f"{statement.what} {statement.side} {statement.bound:g} in both systems",
                 statistic=f"{statement.what}, {binding} of the two systems", recentred=True)(check)  # fmt: skip


for _statement in TABLE4_STATEMENTS:
    _register_table4(_statement)

_P = [f"p:{m}" for m in MEASURES]
_ER = [f"ER:{m}" for m in MEASURES]


@CHECKS.check("table5-er-vs-p-low", label="τ(ER, p) low (Table 5)", reading=f"every |tau| between an ER and a p-value below {LOW_TAU:.3f}, both systems",
              statistic="largest |tau| between an ER and a p-value", recentred=True)  # fmt: skip
def _table5_er_vs_p_low(r: Replicates) -> Outcome:
    largest = r.moved(lambda x: np.maximum(*(_largest_tau(x, "table5", s, _ER, _P) for s in SYSTEMS)), bounds=(0.0, 1.0))
    return Outcome(largest < LOW_TAU, largest)


@CHECKS.check("table5-er-self-low", label="τ among the ER low (Table 5)", reading=f"every |tau| among the ER of P@10, AP and nDCG below {LOW_TAU:.3f}",
              statistic="largest |tau| among the ER", recentred=True)  # fmt: skip
def _table5_er_self_low(r: Replicates) -> Outcome:
    largest = r.moved(lambda x: _largest_tau(x, "table5", SYSTEMS[0], _ER, _ER), bounds=(0.0, 1.0))  # ER: the same in both
    return Outcome(largest < LOW_TAU, largest)


def _p_block(r: Replicates, table: str, system: str) -> np.ndarray:
    return np.stack([r.tau(table, system, a, b) for a in _P for b in _P if a != b], axis=1)


@CHECKS.check("table5-p-stronger", label="p-values more correlated than in Table 4",
              reading=f"every tau among the p-values at least {LOW_TAU:.3f} in Table 5, and their mean above Table "
              "4's, both systems",
              statistic="mean tau among the p-values, Table 5 minus Table 4, the smaller of the two systems",
              recentred=True)  # fmt: skip
def _table5_p_stronger(r: Replicates) -> Outcome:
    holds, gaps = np.ones(r.n_resamples, dtype=bool), []
    for system in SYSTEMS:
        lowest = r.moved(lambda x, s=system: _p_block(x, "table5", s).min(axis=1), bounds=_TAU)
        gaps.append(r.moved(lambda x, s=system: _p_block(x, "table5", s).mean(axis=1) - _p_block(x, "table4", s).mean(axis=1)))
        holds &= (lowest >= LOW_TAU) & (gaps[-1] > 0)
    return Outcome(holds, np.minimum(*gaps))
