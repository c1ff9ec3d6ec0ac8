"""The tables and figures of Breuer et al., SIGIR 2020, from the per-topic scores the authors published.

"How to Measure the Reproducibility of System-oriented IR Experiments" (Breuer, Ferro, Fuhr, Maistro,
Sakai, Schaer, Soboroff; SIGIR 2020). The authors re-implemented the TREC Common Core 2017 runs
WCrobust04 (baseline b-run) and WCrobust0405 (advanced a-run), derived 50 constellations of each,
and published per-topic scores (``sigir2020/measures``: 50 Core17 topics, replicability;
``sigir2020/measures_rpd``: 25 Core18 topics, reproducibility). Every function here computes one table
or figure of the paper from those files with :mod:`irrepro.reproducibility`, returning a DataFrame
with rows named as the paper prints them (``WCrobust04``, ``rpl_wcr04_tf_1``, ``rpd_tf_1``) and one
column per cell, named ``statistic:measure`` (``ARP:P@10``, ``KTU``, ``RMSE:AP``, ``p:nDCG``, ...).

Conventions, each checked against the paper's printed values (see the chapter):

- "nDCG" is trec_eval's ``ndcg`` cut at 1000 (files ``*_ndcg1000.csv``).
- KTU and RBO are the means over topics of the published per-topic ``kendalls_tau_1000`` and
  ``rbo_1000_p08`` values (the 200 runs' ranked lists are not public).
- Replicability p-values: two-tailed paired t-test over the 50 Core17 topics; reproducibility: two-tailed
  Student's t-test between the original run on Core17 (50 topics) and the reproduced run on Core18 (25).
- ER / DeltaRI: WCrobust04 is the baseline, WCrobust0405 the advanced run; constellation k of one is
  paired with constellation k of the other.
- Correlations among measures (Tables 4 and 5) use all 50 constellations, as the authors' script does.

:func:`write_tables` writes the nine CSV files of ``irrepro reproduce sigir2020 --out DIR``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import itertools

import numpy as np
import pandas as pd

from irrepro.data import fetch
from irrepro.papers import published
from irrepro.reproducibility import bootstrap, ranking, scores
from irrepro.routing.constellations import FAMILIES, PRINTED, Constellation

__all__ = [
    "BASELINE",
    "ADVANCED",
    "SYSTEMS",
    "MEASURES",
    "CUTOFFS",
    "CONSTELLATION_IDS",
    "per_topic",
    "replicability_table",
    "reproducibility_table",
    "effect_ratio_table",
    "rpl_vs_rpd_pvalues",
    "replicability_measures",
    "correlation_table",
    "reproducibility_correlation_table",
    "cutoff_curves",
    "er_deltari_points",
    "er_deltari_regions",
    "appendix_comparison",
    "match_counts",
    "ndcg_cutoff_check",
    "claims",
    "data_files",
    "small_cases",
    "rbo_depth_convention",
    "write_tables",
    "DATA_LABELS",
    "as_printed",
    "worst_cells",
]

BASELINE = "WCrobust04"
ADVANCED = "WCrobust0405"
SYSTEMS: tuple[str, ...] = (BASELINE, ADVANCED)
MEASURES: dict[str, str] = {"P@10": "p10", "AP": "ap", "nDCG": "ndcg1000"}  # paper name -> file name
CUTOFFS: tuple[int, ...] = (5, 10, 20, 50, 100, 1000)
CONSTELLATION_IDS: tuple[int, ...] = tuple(range(1, 51))  # the paper's 50; rpd WCrobust04 has 51-58 extra
SETTINGS = ("rpl", "org", "rpd")
# The original run compared with itself: KTU and RBO are 1 by definition (no per-topic file holds them).
_SELF_AGREEMENT = {"KTU": 1.0, "RBO": 1.0}


def _check_system(system: str) -> str:
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; the SIGIR 2020 data has {', '.join(SYSTEMS)}")
    return system


def _file_name(setting: str, system: str, measure: str) -> str:
    folder = "measures" if setting == "rpl" else "measures_rpd"
    return f"sigir2020/{folder}/{setting}_{system.lower()}_{measure}.csv"


@lru_cache(maxsize=128)
def _read(setting: str, system: str, measure: str) -> pd.DataFrame:
    name = _file_name(setting, system, measure)
    path = fetch(name)
    frame = pd.read_csv(path)
    topic_column = frame.columns[0]  # "Row" in most files, "topic_id" in the RBO files
    if topic_column not in ("Row", "topic_id"):
        raise ValueError(f"{name}: first column is {topic_column!r}, expected the topic column 'Row' or 'topic_id'")
    frame = frame.set_index(topic_column).sort_index()
    frame.index = frame.index.astype(str)
    frame.index.name = "topic"
    if frame.index.has_duplicates:
        raise ValueError(f"{name}: duplicate topics {sorted(frame.index[frame.index.duplicated()])[:5]}")
    if frame.isna().any().any():
        bad = frame.columns[frame.isna().any()].tolist()
        raise ValueError(f"{name}: missing scores in columns {bad[:5]}")
    return frame.astype(float)


def data_files() -> list[str]:
    """The registry names of every published file the tables and figures read."""
    names = []
    for system in SYSTEMS:
        measures = ["p10", "ap", *(f"ndcg{k}" for k in CUTOFFS)]
        measures += [f"kendalls_tau_{k}" for k in CUTOFFS] + [f"rbo_{k}_p08" for k in CUTOFFS]
        names += [_file_name("rpl", system, measure) for measure in measures]
        for setting in ("org", "rpd"):
            names += [_file_name(setting, system, measure) for measure in MEASURES.values()]
    return names


def per_topic(setting: str, system: str, measure: str) -> pd.DataFrame:
    """Per-topic scores, topics x runs, of one published file.

    Parameters
    ----------
    setting : {"rpl", "org", "rpd"}
        ``rpl``: Core17, the original run (column named after the system) and the 50 replicated runs
        (``rpl_<system>_<k>``); ``org``: the original run on Core17; ``rpd``: the 50 reproduced runs
        on 25 Core18 topics (``rpd_<system>_<k>``; the 8 extra WCrobust04 runs 51-58 are dropped).
    system : {"WCrobust04", "WCrobust0405"}
    measure : str
        The file's measure: ``p10``, ``ap``, ``ndcg1000``, ``ndcg<k>``, ``kendalls_tau_<k>``, ``rbo_<k>_p08``.
    """
    if setting not in SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; expected one of {', '.join(SETTINGS)}")
    system = _check_system(system)
    frame = _read(setting, system, measure)
    if setting == "rpd":
        wanted = [f"rpd_{system.lower()}_{k}" for k in CONSTELLATION_IDS]
        missing = [column for column in wanted if column not in frame.columns]
        if missing:
            raise ValueError(f"{_file_name(setting, system, measure)}: missing runs {missing[:5]}")
        frame = frame[wanted]
    return frame.copy()


def _replicated(system: str, measure: str, ids=CONSTELLATION_IDS) -> tuple[pd.Series, pd.DataFrame]:
    """(original run, replicated runs with columns = constellation ids) on Core17."""
    frame = per_topic("rpl", system, measure)
    columns = [f"rpl_{system.lower()}_{k}" for k in ids]
    return frame[system], frame[columns].set_axis(list(ids), axis=1)


def _reproduced(system: str, measure: str, ids=CONSTELLATION_IDS) -> tuple[pd.Series, pd.DataFrame]:
    """(original run on Core17, reproduced runs on Core18 with columns = constellation ids)."""
    original = per_topic("org", system, measure)[system]
    frame = per_topic("rpd", system, measure)
    return original, frame[[f"rpd_{system.lower()}_{k}" for k in ids]].set_axis(list(ids), axis=1)


def _agreement(system: str, statistic: str, depth: int, ids=CONSTELLATION_IDS) -> pd.Series:
    """Mean over topics of the published per-topic KTU or RBO at ``depth``, by constellation id."""
    measure = f"kendalls_tau_{depth}" if statistic == "KTU" else f"rbo_{depth}_p08"
    frame = per_topic("rpl", system, measure)
    columns = [f"rpl_{system.lower()}_{k}" for k in ids]
    return frame[columns].mean().set_axis(list(ids))


# --------------------------------------------------------------------------- per-run measures


def replicability_measures(system: str, *, ids=CONSTELLATION_IDS) -> pd.DataFrame:
    """Every replicability measure of the replicated runs of ``system``, indexed by constellation id.

    Columns: ``ARP:<m>``, ``DeltaARP:<m>`` (|ARP(original) - ARP(replicated)|), ``KTU``, ``RBO``,
    ``RMSE:<m>``, ``p:<m>`` (paired t-test) for m in P@10, AP, nDCG.
    """
    system = _check_system(system)
    columns: dict[str, pd.Series] = {}
    for label, measure in MEASURES.items():
        original, replicated = _replicated(system, measure, ids)
        columns[f"ARP:{label}"] = scores.arp(replicated)
        columns[f"DeltaARP:{label}"] = (scores.arp(original) - scores.arp(replicated)).abs()
    columns["KTU"] = _agreement(system, "KTU", 1000, ids)
    columns["RBO"] = _agreement(system, "RBO", 1000, ids)
    for label, measure in MEASURES.items():
        original, replicated = _replicated(system, measure, ids)
        columns[f"RMSE:{label}"] = scores.rmse(original, replicated)
    for label, measure in MEASURES.items():
        original, replicated = _replicated(system, measure, ids)
        columns[f"p:{label}"] = scores.paired_ttest(original, replicated)
    frame = pd.DataFrame(columns)
    frame.index.name = "constellation_id"
    return frame


TABLE1_COLUMNS: tuple[str, ...] = published.TABLE1_COLUMNS  # the printed table's cells, in its order


def replicability_table(system: str) -> pd.DataFrame:
    """The paper's Table 1 (WCrobust04) / appendix Table 1 (WCrobust0405): replicability on Core17.

    One row for the original run and one per printed constellation (``rpl_wcr04_tf_1`` ...), columns
    ARP, KTU, RBO (depth 1000, p = 0.8), RMSE and paired t-test p-values of P@10, AP and nDCG. The
    original row compares the run with itself: RMSE 0 and p = 1 are computed, KTU = RBO = 1 by definition.
    """
    system = _check_system(system)
    ids = [c.constellation_id for c in PRINTED]
    measures = replicability_measures(system, ids=ids)
    table = measures[list(TABLE1_COLUMNS)].set_axis([c.replicated_name(system) for c in PRINTED])
    original_row = {}
    for label, measure in MEASURES.items():
        original, _ = _replicated(system, measure, ids=())
        original_row[f"ARP:{label}"] = scores.arp(original)
        original_row[f"RMSE:{label}"] = scores.rmse(original, original)
        original_row[f"p:{label}"] = scores.paired_ttest(original, original)
    original_row.update(_SELF_AGREEMENT)
    table = pd.concat([pd.DataFrame([original_row], index=[system]), table])[list(TABLE1_COLUMNS)]
    table.index.name = "run"
    return table


REPRODUCIBILITY_COLUMNS: tuple[str, ...] = published.TABLE2_COLUMNS


def reproducibility_measures(system: str, *, ids=CONSTELLATION_IDS) -> pd.DataFrame:
    """ARP on Core18 and unpaired t-test p-values (original on Core17 vs reproduced on Core18), by id."""
    system = _check_system(system)
    columns: dict[str, pd.Series] = {}
    for label, measure in MEASURES.items():
        _, reproduced = _reproduced(system, measure, ids)
        columns[f"ARP:{label}"] = scores.arp(reproduced)
    for label, measure in MEASURES.items():
        original, reproduced = _reproduced(system, measure, ids)
        columns[f"p:{label}"] = scores.unpaired_ttest(original, reproduced, equal_var=True)
    frame = pd.DataFrame(columns)
    frame.index.name = "constellation_id"
    return frame


def reproducibility_table(system: str) -> pd.DataFrame:
    """The paper's Table 3 (WCrobust04) / appendix Table 2 (WCrobust0405): reproducibility on Core18.

    Rows ``rpd_tf_1`` ... ``rpd_C_5``; ARP over the 25 Core18 topics and two-tailed Student's t-test
    p-values against the original run's 50 Core17 scores.
    """
    ids = [c.constellation_id for c in PRINTED]
    table = reproducibility_measures(system, ids=ids).set_axis([c.reproduced_name for c in PRINTED])
    table.index.name = "run"
    return table[list(REPRODUCIBILITY_COLUMNS)]


# --------------------------------------------------------------------------- ER and DeltaRI


def _effects(setting: str, measure: str, ids) -> tuple[pd.Series, pd.Series, pd.DataFrame, pd.DataFrame]:
    """(original advanced, original baseline, new advanced, new baseline) for one measure."""
    loader = _replicated if setting == "rpl" else _reproduced
    orig_advanced, new_advanced = loader(ADVANCED, measure, ids)
    orig_baseline, new_baseline = loader(BASELINE, measure, ids)
    return orig_advanced, orig_baseline, new_advanced, new_baseline


def effect_measures(setting: str, *, ids=CONSTELLATION_IDS) -> pd.DataFrame:
    """ER and DeltaRI of every constellation pair (WCrobust0405 over WCrobust04), indexed by id.

    ``setting="rpl"``: replicability on Core17 (paired ER, Eq. 5); ``"rpd"``: reproducibility on
    Core18 (Eq. 7; the original improvement over 50 Core17 topics, the new one over 25 Core18 topics).
    """
    if setting not in ("rpl", "rpd"):
        raise ValueError(f"unknown setting {setting!r}; expected 'rpl' (replicability) or 'rpd' (reproducibility)")
    columns: dict[str, pd.Series] = {}
    for label, measure in MEASURES.items():
        runs = _effects(setting, measure, ids)
        columns[f"ER:{label}"] = scores.effect_ratio(*runs, paired=setting == "rpl")
    for label, measure in MEASURES.items():
        runs = _effects(setting, measure, ids)
        columns[f"DeltaRI:{label}"] = scores.delta_relative_improvement(*runs)
    frame = pd.DataFrame(columns)
    frame.index.name = "constellation_id"
    return frame


BOOTSTRAP_RESAMPLES = 2_000
BOOTSTRAP_SEED = 0
BOOTSTRAP_LEVEL = 0.95


def effect_ratio_intervals(
    setting: str, *, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED, level: float = BOOTSTRAP_LEVEL
) -> pd.DataFrame:
    """Bootstrap percentile intervals of ER and DeltaRI for the printed pairs (beyond the paper).

    Topics are resampled with replacement (:mod:`irrepro.reproducibility.bootstrap`): the same sample for
    all four runs in the replicability setting; the Core17 and Core18 topics independently in the
    reproducibility setting. Columns ``ER:<m>:low``, ``ER:<m>:high``, ``DeltaRI:<m>:low``, ``DeltaRI:<m>:high``.
    Deterministic (``seed``); computed once per argument set and cached.
    """
    if setting not in ("rpl", "rpd"):
        raise ValueError(f"unknown setting {setting!r}; expected 'rpl' (replicability) or 'rpd' (reproducibility)")
    return _effect_ratio_intervals(setting, n_resamples, seed, level).copy()


@lru_cache(maxsize=8)
def _effect_ratio_intervals(setting: str, n_resamples: int, seed: int, level: float) -> pd.DataFrame:
    functions = {"ER": bootstrap.bootstrap_effect_ratio, "DeltaRI": bootstrap.bootstrap_delta_relative_improvement}
    rows = {}
    for constellation in PRINTED:
        k = constellation.constellation_id
        row = {}
        for statistic, function in functions.items():
            for label, measure in MEASURES.items():
                orig_advanced, orig_baseline, new_advanced, new_baseline = _effects(setting, measure, [k])
                interval = function(
                    orig_advanced, orig_baseline, new_advanced[k], new_baseline[k],
                    paired=setting == "rpl", n_resamples=n_resamples, level=level, seed=seed,
                )  # fmt: skip
                row[f"{statistic}:{label}:low"] = interval.low
                row[f"{statistic}:{label}:high"] = interval.high
        rows[f"{setting}_{constellation.name}"] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "run"
    return table


def effect_ratio_table(setting: str, *, intervals: bool = True) -> pd.DataFrame:
    """The paper's Table 2 (left: ``rpl``, right: ``rpd``) with DeltaRI: rows ``rpl_tf_1`` / ``rpd_tf_1`` ...

    Columns ``ER:<m>`` and ``DeltaRI:<m>`` for m in P@10, AP, nDCG; with ``intervals`` (the default) also
    their 95% bootstrap percentile intervals (``ER:<m>:low``, ``ER:<m>:high``, ...; see
    :func:`effect_ratio_intervals`), which the paper does not report.
    """
    ids = [c.constellation_id for c in PRINTED]
    table = effect_measures(setting, ids=ids).set_axis([f"{setting}_{c.name}" for c in PRINTED])
    table.index.name = "run"
    if not intervals:
        return table
    bounds = effect_ratio_intervals(setting)
    order = []
    for statistic in ("ER", "DeltaRI"):
        for label in MEASURES:
            order += [f"{statistic}:{label}", f"{statistic}:{label}:low", f"{statistic}:{label}:high"]
    return table.join(bounds)[order]


# --------------------------------------------------------------------------- same system, two collections


def rpl_vs_rpd_pvalues() -> pd.DataFrame:
    """Unpaired t-test p-values between each replicated run (Core17) and its reproduced twin (Core18).

    The paper's online appendix: rows ``rpd_tf_1`` ...; columns ``p:<measure>:<run>``.
    """
    ids = [c.constellation_id for c in PRINTED]
    columns: dict[str, pd.Series] = {}
    for system in SYSTEMS:
        for label, measure in MEASURES.items():
            _, replicated = _replicated(system, measure, ids)
            _, reproduced = _reproduced(system, measure, ids)
            columns[f"p:{label}:{system}"] = pd.Series(
                {k: scores.unpaired_ttest(replicated[k], reproduced[k], equal_var=True) for k in ids}
            )
    table = pd.DataFrame(columns).set_axis([c.reproduced_name for c in PRINTED])
    table.index.name = "run"
    return table


# --------------------------------------------------------------------------- correlations (Tables 4, 5)

CORRELATION_COLUMNS: tuple[str, ...] = (
    "DeltaARP:P@10", "DeltaARP:AP", "DeltaARP:nDCG", "KTU", "RBO",
    "RMSE:P@10", "RMSE:AP", "RMSE:nDCG", "p:P@10", "p:AP", "p:nDCG", "ER:P@10", "ER:AP", "ER:nDCG",
)  # fmt: skip


def oriented_replicability_measures(system: str) -> pd.DataFrame:
    """The replicability measures of all 50 constellations, oriented so that lower is better.

    As the paper (Section 5.3) and the authors' script do: DeltaARP and RMSE as they are; the
    opposite of KTU, RBO and the p-values (here ``1 - KTU``, ``1 - RBO``, ``-p``); ``|1 - ER|``.
    """
    measures = replicability_measures(system)
    effects = effect_measures("rpl")
    oriented = pd.DataFrame(index=measures.index)
    for column in CORRELATION_COLUMNS:
        if column in ("KTU", "RBO"):
            oriented[column] = 1.0 - measures[column]
        elif column.startswith("p:"):
            oriented[column] = -measures[column]
        elif column.startswith("ER:"):
            oriented[column] = (1.0 - effects[column]).abs()
        else:
            oriented[column] = measures[column]
    return oriented


def correlation_table(system: str) -> pd.DataFrame:
    """The paper's Table 4 for one run: Kendall's tau (tau-b) among the oriented replicability measures."""
    table = oriented_replicability_measures(system).corr(method="kendall")
    table.index.name = "measure"
    return table


def reproducibility_correlation_table(system: str) -> pd.DataFrame:
    """The paper's Table 5 for one run: Kendall's tau among ``-p`` (unpaired) and ``|1 - ER|`` (rpd)."""
    measures = reproducibility_measures(system)
    effects = effect_measures("rpd")
    oriented = pd.DataFrame(index=measures.index)
    for label in MEASURES:
        oriented[f"p:{label}"] = -measures[f"p:{label}"]
    for label in MEASURES:
        oriented[f"ER:{label}"] = (1.0 - effects[f"ER:{label}"]).abs()
    table = oriented.corr(method="kendall")
    table.index.name = "measure"
    return table


# --------------------------------------------------------------------------- Figure 1


def cutoff_curves(system: str) -> pd.DataFrame:
    """The paper's Figure 1: KTU, RBO and RMSE of nDCG@k against the cut-off k, per printed run.

    Long format: one row per (run, cut-off) with columns ``run``, ``family``, ``level``, ``cutoff``,
    ``KTU``, ``RBO``, ``RMSE:nDCG`` (the authors' plot script uses nDCG@k for RMSE).
    """
    system = _check_system(system)
    ids = [c.constellation_id for c in PRINTED]
    rows = []
    for cutoff in CUTOFFS:
        ktu = _agreement(system, "KTU", cutoff, ids)
        rbo = _agreement(system, "RBO", cutoff, ids)
        original, replicated = _replicated(system, f"ndcg{cutoff}", ids)
        error = scores.rmse(original, replicated)
        for constellation in PRINTED:
            k = constellation.constellation_id
            rows.append(
                {
                    "run": constellation.replicated_name(system),
                    "family": constellation.family,
                    "level": constellation.level,
                    "cutoff": cutoff,
                    "KTU": ktu[k],
                    "RBO": rbo[k],
                    "RMSE:nDCG": error[k],
                }
            )
    return pd.DataFrame(rows)


def er_deltari_points(setting: str) -> pd.DataFrame:
    """The points of Figures 2 (``rpl``) and 3 (``rpd``): one row per (run, measure) with ER and DeltaRI."""
    table = effect_ratio_table(setting, intervals=False)
    by_name: dict[str, Constellation] = {f"{setting}_{c.name}": c for c in PRINTED}
    rows = []
    for run, values in table.iterrows():
        for label in MEASURES:
            rows.append(
                {
                    "run": run,
                    "family": by_name[run].family,
                    "level": by_name[run].level,
                    "measure": label,
                    "ER": values[f"ER:{label}"],
                    "DeltaRI": values[f"DeltaRI:{label}"],
                }
            )
    points = pd.DataFrame(rows)
    points["family"] = pd.Categorical(points["family"], categories=list(FAMILIES), ordered=True)
    return points


def er_deltari_regions(setting: str) -> pd.DataFrame:
    """How many points of Figure 2 (``rpl``) or 3 (``rpd``) fall in each region of the ER-DeltaRI plane.

    The paper's regions (Section 3.3): 1 = ER > 0 and DeltaRI > 0; 2 = ER < 0 and DeltaRI > 0;
    3 = ER < 0 and DeltaRI < 0; 4 = ER > 0 and DeltaRI < 0 (preferred). Points on an axis count as
    ``on an axis``. Rows: families; columns: regions.
    """
    points = er_deltari_points(setting)
    er, delta = points["ER"], points["DeltaRI"]
    region = np.select(
        [(er > 0) & (delta > 0), (er < 0) & (delta > 0), (er < 0) & (delta < 0), (er > 0) & (delta < 0)],
        ["region 1", "region 2", "region 3", "region 4"],
        default="on an axis",
    )
    counts = pd.crosstab(points["family"], pd.Categorical(region, categories=[
        "region 1", "region 2", "region 3", "region 4", "on an axis"]), dropna=False)  # fmt: skip
    counts.columns.name = "region"
    return counts


# --------------------------------------------------------------------------- measures on small cases

_SMALL_CASES: tuple[tuple[str, str, str, float | None], ...] = (
    ("paper's KTU example 1", "d1 d2 d3", "d1 d2 d4", 1.0),
    ("paper's KTU example 2", "d1 d2 d3 d4", "d2 d5 d3 d6", 2 / 3),
    ("identical", "d1 d2 d3 d4 d5", "d1 d2 d3 d4 d5", None),
    ("reversed", "d1 d2 d3 d4 d5", "d5 d4 d3 d2 d1", None),
    ("swap at the top", "d1 d2 d3 d4 d5", "d2 d1 d3 d4 d5", None),
    ("swap at the bottom", "d1 d2 d3 d4 d5", "d1 d2 d3 d5 d4", None),
    ("disjoint", "d1 d2 d3", "d4 d5 d6", None),
    ("example 1, d4 renamed d0", "d1 d2 d3", "d1 d2 d0", None),
    ("disjoint, other names", "d1 d2 d3", "d6 d5 d4", None),
)


def small_cases() -> pd.DataFrame:
    """KTU, its label-free alternative, tau on the intersection and RBO on small hand-made rankings.

    Columns: ``original``, ``replicated``, ``KTU`` (the paper's Kendall's tau Union, as the authors'
    code computes it), ``KTU printed`` (the paper's value for its two examples), ``tau-b union tied``
    (label-independent: unretrieved documents tied below the cut-off), ``tau intersection``,
    ``RBO ext`` (Webber et al.'s extrapolated RBO, p = 0.8, on the whole lists) and ``RBO sigir2020``
    (the published files' convention: RBO ext at depth k on the top k - 1 documents, here k = list length).
    """
    rows = []
    for case, original, replicated, printed in _SMALL_CASES:
        x, y = original.split(), replicated.split()
        k = max(len(x), len(y))
        rows.append(
            {
                "case": case,
                "original": original,
                "replicated": replicated,
                "KTU": float(ranking.kendall_tau_union(x, y, depth=k).iloc[0]),
                "KTU printed": printed,
                "tau-b union tied": float(ranking.kendall_tau_union_tied(x, y, depth=k).iloc[0]),
                "tau intersection": float(ranking.kendall_tau_intersection(x, y, depth=k).iloc[0]),
                "RBO ext": float(ranking.rbo(x, y, p=0.8, depth=k, variant="ext").iloc[0]),
                "RBO sigir2020": float(ranking.rbo(x, y, p=0.8, depth=k, variant="sigir2020").iloc[0]),
            }
        )
    return pd.DataFrame(rows).set_index("case")


def _attainable_rbo(length: int, *, depth: int, variant: str, decimals: int) -> set[float]:
    """Every RBO value (p = 0.8) two rankings of ``length`` distinct documents can have."""
    universe = [f"d{i:02d}" for i in range(2 * length)]
    choices = list(itertools.permutations(range(2 * length), length))  # all overlap patterns
    topics = np.repeat(np.arange(len(choices)).astype(str), length)
    ranks = np.tile(np.arange(1, length + 1), len(choices))
    original = pd.DataFrame({"query_id": topics, "doc_id": np.tile(universe[:length], len(choices)), "rank": ranks})
    replicated = pd.DataFrame(
        {"query_id": topics, "doc_id": [universe[i] for choice in choices for i in choice], "rank": ranks}
    )
    values = ranking.rbo(original, replicated, p=0.8, depth=depth, variant=variant)
    return set(np.round(values.to_numpy(), decimals))


def rbo_depth_convention(cutoff: int = 5, *, decimals: int = 9) -> pd.DataFrame:
    """Which RBO convention the published ``rbo_<cutoff>_p08`` files follow, by numerical signature.

    The ranked lists of the 200 runs are not public, so RBO cannot be recomputed; but at a small
    cut-off every RBO value two rankings can have is enumerable. For each convention: how many of the
    distinct published per-topic values (both systems, rounded to ``decimals``) are attainable at all.
    Only a convention that attains all of them can be the one the authors used.
    """
    published_values: set[float] = set()
    for system in SYSTEMS:
        values = per_topic("rpl", system, f"rbo_{cutoff}_p08").to_numpy().ravel()
        published_values |= set(np.round(values, decimals))
    conventions = {
        f"RBO ext on the top {cutoff - 1} (variant 'sigir2020')": (cutoff - 1, "sigir2020"),
        f"RBO ext on the top {cutoff}": (cutoff, "ext"),
        f"RBO min (lower bound) on the top {cutoff}": (cutoff, "min"),
        f"normalised truncated RBO on the top {cutoff}": (cutoff, "trunc"),
    }
    rows = []
    for name, (length, variant) in conventions.items():
        attainable = _attainable_rbo(length, depth=cutoff, variant=variant, decimals=decimals)
        rows.append(
            {
                "convention": name,
                "attainable values": len(attainable),
                "published distinct values": len(published_values),
                "published values attainable": len(published_values & attainable),
            }
        )
    return pd.DataFrame(rows).set_index("convention")


# --------------------------------------------------------------------------- printed vs reproduced

_MISPRINTS = {
    ("appendix Table 2", "rpd_C_1", "p:nDCG"): "misprint: '54E-06' is not in the table's one-digit "
    "'xE-yy' format; the reproduced value's leading digit is shown in the 'reproduced as printed' column",
}


def appendix_comparison(table: int) -> pd.DataFrame:
    """Printed versus reproduced cells of the online appendix's Table 1 or Table 2 (WCrobust0405).

    One row per printed cell: ``run``, ``cell``, ``printed`` (text), ``reproduced`` (full precision),
    ``difference`` (reproduced minus the printed number), ``match`` and ``note``.

    Matching rule: a rounded cell (ARP, KTU, RBO, RMSE; four decimals) matches when the reproduced
    value rounds to it, i.e. lies within half a unit of the last printed digit; a p-value is printed
    truncated, so ``0.046`` matches [0.046, 0.047) and ``5E-04`` (leading digit, truncated) matches
    [5e-4, 6e-4); integers printed for the original run compared with itself (``1``, ``0``) must be
    exact. A tolerance of 1e-12 absorbs floating-point noise at interval edges.
    """
    if table == 1:
        printed, reproduced, name = published.appendix_table1(), replicability_table(ADVANCED), "appendix Table 1"
    elif table == 2:
        printed, reproduced, name = published.appendix_table2(), reproducibility_table(ADVANCED), "appendix Table 2"
    else:
        raise ValueError(f"the SIGIR 2020 online appendix has Tables 1 and 2, not {table!r}")
    if list(printed.index) != list(reproduced.index) or list(printed.columns) != list(reproduced.columns):
        raise ValueError(f"{name}: printed and reproduced tables differ in rows or columns")
    rows = []
    for run in printed.index:
        for cell in printed.columns:
            text = printed.at[run, cell]
            value = float(reproduced.at[run, cell])
            truncated = cell.startswith("p:")
            low, high = published.printed_interval(text, truncated=truncated)
            tolerance = 1e-12
            if low == high:
                match = abs(value - low) <= tolerance
            elif truncated:
                match = low * (1 - tolerance) <= value < high
            else:
                match = low - tolerance <= value <= high + tolerance
            shown = _format_like(value, text, truncated=truncated)
            note = _MISPRINTS.get((name, run, cell), "") if not match else ""
            rows.append(
                {
                    "run": run,
                    "cell": cell,
                    "printed": text,
                    "reproduced": value,
                    "reproduced as printed": shown,
                    "difference": value - float(text),
                    "match": bool(match),
                    "note": note,
                }
            )
    return pd.DataFrame(rows)


def _format_like(value: float, printed: str, *, truncated: bool) -> str:
    """``value`` in the print's format: 4 rounded decimals, 3 truncated decimals or a truncated 'xE-yy'."""
    text = printed.upper()
    if "E" in text:
        exponent = int(np.floor(np.log10(value))) if value > 0 else 0
        digit = int(np.floor(value / 10.0**exponent + 1e-9))
        return f"{digit}E-{-exponent:02d}" if exponent < 0 else f"{digit}E+{exponent:02d}"
    if "." not in text:
        return f"{value:g}"
    decimals = len(text.split(".")[1])
    if truncated:
        return f"{np.floor(value * 10**decimals + 1e-9) / 10**decimals:.{decimals}f}"
    return f"{value:.{decimals}f}"


def ndcg_cutoff_check() -> pd.DataFrame:
    """Which nDCG cut-off is the paper's "nDCG": ARP of WCrobust0405 at every published cut-off vs the print.

    Appendix Table 1 prints ARP nDCG 0.6956 for the original WCrobust0405 and 0.6859 for rpl_wcr0405_tf_1.
    Columns ``<run>:printed`` and ``<run>:reproduced`` per run, and ``matches both``.
    """
    printed = published.appendix_table1()["ARP:nDCG"]
    rows = []
    for cutoff in CUTOFFS:
        original, replicated = _replicated(ADVANCED, f"ndcg{cutoff}", ids=(45,))
        row = {"cut-off": cutoff}
        for run, value in ((ADVANCED, scores.arp(original)), ("rpl_wcr0405_tf_1", scores.arp(replicated[45]))):
            row[f"{run}:printed"] = printed[run]
            row[f"{run}:reproduced"] = value
        row["matches both"] = all(
            round(row[f"{run}:reproduced"], 4) == float(printed[run]) for run in (ADVANCED, "rpl_wcr0405_tf_1")
        )
        rows.append(row)
    return pd.DataFrame(rows).set_index("cut-off")


def match_counts() -> pd.DataFrame:
    """Matching cells per appendix table: ``table``, ``cells``, ``matching``, ``missing``."""
    rows = []
    for number in (1, 2):
        comparison = appendix_comparison(number)
        rows.append(
            {
                "table": f"appendix Table {number}",
                "cells": len(comparison),
                "matching": int(comparison["match"].sum()),
                "missing": int((~comparison["match"]).sum()),
            }
        )
    return pd.DataFrame(rows).set_index("table")


# --------------------------------------------------------------------------- the paper's claims


def _family_trend(table: pd.DataFrame, family: str, first: str, second: str) -> float:
    """Kendall's tau between two columns over the five levels of one family (rows ``*_<family>_<level>``)."""
    rows = [name for name in table.index if name.rsplit("_", 2)[-2] == family]
    return float(table.loc[rows, [first, second]].corr(method="kendall").iloc[0, 1])


def claims() -> pd.DataFrame:
    """The paper's claims (Section 5), each checked on the reproduced numbers.

    One row per claim: ``claim`` (the paper's words), ``evidence`` (a sentence with the computed
    numbers) and ``holds`` (whether the reproduced numbers support the claim).
    """
    rows = []

    # 1. RBO is less strict than KTU (Section 5.1)
    pairs = pd.concat([replicability_table(system).iloc[1:][["KTU", "RBO"]] for system in SYSTEMS])
    higher = int((pairs["RBO"] > pairs["KTU"]).sum())
    rows.append(
        {
            "claim": "Replicated runs achieve higher RBO than Kendall's tau: RBO is less strict.",
            "evidence": f"RBO > KTU for {higher} of the {len(pairs)} printed replicated runs (both systems); "
            f"mean KTU {pairs['KTU'].mean():.4f}, mean RBO {pairs['RBO'].mean():.4f}.",
            "holds": higher == len(pairs),
        }
    )

    # 2. RMSE and the t-test disagree for tf and C (P@10), agree for df and tol
    table = replicability_table(BASELINE).iloc[1:]
    trend = {family: _family_trend(table, family, "RMSE:P@10", "p:P@10") for family in FAMILIES}
    described = ", ".join(f"{family} {value:+.2f}" for family, value in trend.items())
    rows.append(
        {
            "claim": "For rpl_wcr04_tf and rpl_wcr04_C, RMSE of P@10 and the p-value are not consistent: "
            "RMSE increases (more error) while p increases too (runs look more similar).",
            "evidence": "Kendall's tau between RMSE:P@10 and p:P@10 over the five levels of each family "
            f"(positive = both rise together, i.e. the two disagree on which run replicates better): {described}.",
            "holds": trend["tf"] > 0 and trend["C"] > 0 and trend["df"] < 0 and trend["tol"] < 0,
        }
    )

    # 3. Reproducibility is harder than replicability (ER further from 1)
    distance = {
        setting: (1.0 - effect_ratio_table(setting, intervals=False)[[f"ER:{m}" for m in MEASURES]]).abs().stack()
        for setting in ("rpl", "rpd")
    }
    covers_one = {}
    for setting in ("rpl", "rpd"):
        bounds = effect_ratio_intervals(setting)
        covers_one[setting] = sum(
            int(((bounds[f"ER:{m}:low"] <= 1) & (bounds[f"ER:{m}:high"] >= 1)).sum()) for m in MEASURES
        )
    rows.append(
        {
            "claim": "If it is hard to perfectly replicate an experiment, it is even harder to reproduce it "
            "(ER further from 1).",
            "evidence": f"median |1 - ER| over the 20 printed pairs and 3 measures: replicability "
            f"{distance['rpl'].median():.3f}, reproducibility {distance['rpd'].median():.3f}; "
            f"|1 - ER| > 1 for {int((distance['rpl'] > 1).sum())} replicability and "
            f"{int((distance['rpd'] > 1).sum())} reproducibility cells of 60. The 95% bootstrap interval of ER "
            f"contains 1 for {covers_one['rpl']} replicability and {covers_one['rpd']} reproducibility cells of 60: "
            "with 25 to 50 topics, many ER values are not distinguishable from a perfect replication.",
            "holds": distance["rpd"].median() > distance["rpl"].median(),
        }
    )

    # 4. The unpaired t-test calls (almost) every reproduced run different
    p_columns = [f"p:{m}" for m in MEASURES]
    values = {system: reproducibility_table(system)[p_columns].stack() for system in SYSTEMS}
    below = sum(int((v < 0.05).sum()) for v in values.values())
    total = sum(len(v) for v in values.values())
    highest = values[BASELINE].max()
    rows.append(
        {
            "claim": "All reproduced runs are significantly different from the original run (unpaired t-test), "
            "the highest p-value for WCrobust04 being just 0.005.",
            "evidence": f"p < 0.05 in {below} of {total} cells (20 runs x 3 measures x 2 systems); the highest "
            f"p-value for WCrobust04 is {highest:.4f} (truncated: {np.floor(highest * 1000) / 1000:.3f}), for "
            f"WCrobust0405 {values[ADVANCED].max():.2E}.",
            "holds": below == total and np.floor(highest * 1000) / 1000 == 0.005,
        }
    )

    # 5. Same system on two collections: still mostly 'different', except some df and tol runs
    twins = rpl_vs_rpd_pvalues()
    different = int((twins < 0.05).to_numpy().sum())
    similar_runs = sorted({run for run, row in twins.iterrows() if (row >= 0.05).any()})
    families_similar = sorted({run.split("_")[1] for run in similar_runs})
    rows.append(
        {
            "claim": "Even a replicated run and its reproduced twin (the same system on Core17 and Core18) are "
            "mostly called different, except a few cases for df and tol.",
            "evidence": f"p < 0.05 in {different} of {twins.size} cells; runs with some p >= 0.05: "
            f"{', '.join(similar_runs) or 'none'}.",
            "holds": different > twins.size / 2 and set(families_similar) <= {"df", "tol"},
        }
    )

    # 6. Table 4: ARP vs KTU low (< 0.29), ARP vs RBO up to 0.70
    correlation = correlation_table(BASELINE)
    arp_rows = [f"DeltaARP:{m}" for m in MEASURES]
    ktu, rbo = correlation.loc[arp_rows, "KTU"].max(), correlation.loc[arp_rows, "RBO"].max()
    rows.append(
        {
            "claim": "The correlation between ARP and Kendall's tau is low, below 0.29, and higher for RBO, 0.70 "
            "(Table 4, WCrobust04).",
            "evidence": f"highest Kendall's tau between a DeltaARP and KTU: {ktu:.4f}; between a DeltaARP and RBO: "
            f"{rbo:.4f}.",
            "holds": round(ktu, 2) <= 0.29 and round(rbo, 2) == 0.70,
        }
    )

    # 7. RMSE of P@10 is larger than that of AP and nDCG
    both = pd.concat([replicability_table(system).iloc[1:] for system in SYSTEMS])
    larger = int((both["RMSE:P@10"] > both[["RMSE:AP", "RMSE:nDCG"]].max(axis=1)).sum())
    rows.append(
        {
            "claim": "In general, RMSE values of P@10 are larger than those of AP and nDCG.",
            "evidence": f"RMSE:P@10 exceeds both RMSE:AP and RMSE:nDCG for {larger} of the {len(both)} printed "
            "replicated runs (both systems).",
            "holds": larger > len(both) / 2,
        }
    )

    # 8. Figure 1(b): RMSE decreases as the cut-off grows
    curves = cutoff_curves(BASELINE).sort_values(["run", "cutoff"])
    steps = curves.groupby("run", sort=False)["RMSE:nDCG"].diff().dropna()
    ends = curves.groupby("run", sort=False)["RMSE:nDCG"].agg(["first", "last"])
    rows.append(
        {
            "claim": "RMSE decreases almost consistently as the cut-off value increases (Figure 1(b)), while "
            "Kendall's tau stays low at every cut-off (Figure 1(a)).",
            "evidence": f"RMSE of nDCG@k falls at {int((steps < 0).sum())} of {len(steps)} steps between consecutive "
            f"cut-offs and is lower at 1000 than at 5 for {int((ends['last'] < ends['first']).sum())} of {len(ends)} "
            f"WCrobust04 runs; the largest mean KTU at any cut-off is {curves['KTU'].max():.3f}.",
            "holds": (steps < 0).mean() > 0.75 and curves["KTU"].max() < 0.2,
        }
    )

    # 9. Figure 3: points far from (1, 0), many in region 2
    regions = er_deltari_regions("rpd")
    in_region2 = int(regions["region 2"].sum())
    in_region4 = int(regions["region 4"].sum())
    rows.append(
        {
            "claim": "Figure 3 (reproducibility): most points are far from (1, 0); in one panel many points are in "
            "region 2 (ER < 0, DeltaRI > 0), a failure in both effect and relative improvement.",
            "evidence": f"of the {int(regions.to_numpy().sum())} reproducibility points, {in_region4} are in region 4, "
            f"{int(regions['region 1'].sum())} in region 1 and {in_region2} in region 2; no reproduced pair has ER < 0 "
            f"(the smallest ER is {effect_ratio_table('rpd', intervals=False)[[f'ER:{m}' for m in MEASURES]].min().min():.3f}).",
            "holds": in_region2 > 0,
        }
    )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- files


def tables() -> dict[str, pd.DataFrame]:
    """Every table of the chapter by its CSV file name (without ``.csv``)."""
    return {
        "table1_rpl_wcrobust04": replicability_table(BASELINE),
        "table1_rpl_wcrobust0405": replicability_table(ADVANCED),
        "er_deltari_rpl": effect_ratio_table("rpl"),
        "er_deltari_rpd": effect_ratio_table("rpd"),
        "rpd_wcrobust04": reproducibility_table(BASELINE),
        "rpd_wcrobust0405": reproducibility_table(ADVANCED),
        "rpl_vs_rpd_pvalues": rpl_vs_rpd_pvalues(),
        "correlation_rpl_wcrobust04": correlation_table(BASELINE),
        "correlation_rpl_wcrobust0405": correlation_table(ADVANCED),
    }


def write_tables(out_dir: Path) -> list[Path]:
    """Write the nine tables as CSV files (full precision) into ``out_dir``; return their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in tables().items():
        path = out_dir / f"{name}.csv"
        table.to_csv(path)  # shortest repr that reads back to the same float: full precision
        written.append(path)
    return written


# --------------------------------------------------------------------------- for the chapter's text

#: What each table of the chapter ran on, as its caption says it.
DATA_LABELS: dict[str, str] = {
    "rpl": "the authors' published per-topic scores on the 50 TREC Core 2017 topics",
    "rpd": "the authors' published per-topic scores, originals on the 50 Core 2017 topics, "
    "reproductions on 25 Core 2018 topics",
    "both": "the authors' published per-topic scores on Core 2017 (50 topics) and Core 2018 (25 topics)",
    "cases": "rankings made up to show the measures' behaviour",
}


def as_printed(table: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Appendix Table 1 or 2 reproduced in the print's own format, and where it differs from the print.

    Returns (cells, differs): the reproduced values written as the appendix writes them (runs x
    cells, the appendix's row and column order) and a boolean frame of the same shape, True where the
    reproduced value does not fall in the interval the printed text stands for.
    """
    comparison = appendix_comparison(table)
    runs = list(dict.fromkeys(comparison["run"]))
    cells = list(TABLE1_COLUMNS if table == 1 else REPRODUCIBILITY_COLUMNS)
    shown = comparison.pivot(index="run", columns="cell", values="reproduced as printed").loc[runs, cells]
    differs = ~comparison.pivot(index="run", columns="cell", values="match").loc[runs, cells].astype(bool)
    return shown, differs


def worst_cells(comparison: pd.DataFrame, *, n: int = 5) -> pd.DataFrame:
    """The cells of :func:`appendix_comparison` that do not match; if all match, the ``n`` largest
    differences between the reproduced value and the printed number."""
    misses = comparison[~comparison["match"]]
    if len(misses):
        return misses
    return comparison.loc[comparison["difference"].abs().sort_values(ascending=False).index[:n]]
