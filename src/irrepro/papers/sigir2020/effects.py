"""ER and DeltaRI of the constellation pairs (the paper's Table 2) and their bootstrap intervals.

WCrobust04 is the baseline b-run and WCrobust0405 the advanced a-run; constellation k of one is
paired with constellation k of the other (Section 5). With per-topic improvements
``Delta M_j = M_j(a) - M_j(b)`` (original) and ``Delta' M_j = M_j(a') - M_j(b')`` (new):

- ER (Eq. 5, replicability, the same 50 Core17 topics): ``mean_j Delta' M_j / mean_j Delta M_j``;
  (Eq. 7, reproducibility): the numerator's mean over the 25 Core18 topics, the denominator's over
  the 50 Core17 topics.
- DeltaRI (Eq. 6): ``RI - RI'`` with ``RI = (mean M(a) - mean M(b)) / mean M(b)``.

Both come from :mod:`irrepro.reproducibility.scores`. ``version="old"`` replaces the reproduced
WCrobust0405 AP by the authors' earlier file (:mod:`irrepro.papers.sigir2020.published_scores`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from irrepro.memo import cached
from irrepro.papers.datasets import ADVANCED, BASELINE
from irrepro.papers.sigir2020.published_scores import (
    CONSTELLATION_IDS,
    MEASURES,
    PRINTED_IDS,
    check_version,
    replicated_runs,
    reproduced_runs,
)
from irrepro.reproducibility import bootstrap, scores
from irrepro.routing.constellations import PRINTED

__all__ = [
    "EFFECT_SETTINGS",
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
    "BOOTSTRAP_LEVEL",
    "pair_scores",
    "effect_measures",
    "effect_ratio_intervals",
    "effect_ratio_table",
]

EFFECT_SETTINGS: tuple[str, ...] = ("rpl", "rpd")
BOOTSTRAP_RESAMPLES = 2_000
BOOTSTRAP_SEED = 0
BOOTSTRAP_LEVEL = 0.95


def _check_setting(setting: str) -> str:
    if setting not in EFFECT_SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; expected 'rpl' (replicability) or 'rpd' (reproducibility)")
    return setting


def pair_scores(setting: str, measure: str, ids: Sequence[int], *, version: str = "current") -> dict[str, pd.Series | pd.DataFrame]:
    """Give the per-topic scores of one measure by role, the keywords of :func:`~irrepro.reproducibility.scores.effect_ratio`.

    Use as ``effect_ratio(**pair, paired=...)``.

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        Replicability on Core17 or reproducibility on Core18.
    measure : str
        The measure's file part (``"ap"``, ``"p10"``, ``"ndcg1000"``; :data:`irrepro.papers.datasets.MEASURE_FILE_PARTS`).
    ids : sequence of int
        The constellation ids.
    version : {"current", "old"}
        ``"old"`` (reproducibility only) reads the earlier file of the reproduced advanced run
        where one exists.

    Returns
    -------
    dict of str -> pandas.Series or pandas.DataFrame
        ``orig_baseline`` and ``orig_advanced`` (Series), ``new_baseline`` and ``new_advanced`` (a
        column per constellation id).

    Raises
    ------
    ValueError
        For ``version="old"`` with ``setting="rpl"``.
    """
    _check_setting(setting)
    if check_version(version) == "old" and setting == "rpl":
        raise ValueError("no earlier version of the replicability files differs from the current one")
    if setting == "rpl":
        orig_advanced, new_advanced = replicated_runs(ADVANCED, measure, ids)
        orig_baseline, new_baseline = replicated_runs(BASELINE, measure, ids)
    else:
        orig_advanced, new_advanced = reproduced_runs(ADVANCED, measure, ids, version=version)
        orig_baseline, new_baseline = reproduced_runs(BASELINE, measure, ids)
    return {"orig_baseline": orig_baseline, "orig_advanced": orig_advanced, "new_baseline": new_baseline,
            "new_advanced": new_advanced}  # fmt: skip


def effect_measures(setting: str, *, ids: Sequence[int] = CONSTELLATION_IDS, version: str = "current") -> pd.DataFrame:
    """Compute ER and DeltaRI of every constellation pair (WCrobust0405 over WCrobust04), indexed by id.

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        ``"rpl"``: replicability on Core17 (paired ER, Eq. 5); ``"rpd"``: reproducibility on Core18
        (Eq. 7; the original improvement over 50 Core17 topics, the new one over 25 Core18 topics).
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.
    version : {"current", "old"}
        ``"old"`` (``rpd`` only): ``ER:AP`` and ``DeltaRI:AP`` from the earlier AP file of the
        reproduced WCrobust0405; the P@10 and nDCG columns have no earlier version and are the
        current ones.

    Returns
    -------
    pandas.DataFrame
        Columns ``ER:<m>`` and ``DeltaRI:<m>`` per measure.
    """
    return _effect_measures(_check_setting(setting), tuple(ids), version)


@cached(maxsize=16)
def _effect_measures(setting: str, ids: tuple[int, ...], version: str) -> pd.DataFrame:
    """:func:`effect_measures`, computed once per setting, ids and version (figures, tables and claims read it)."""
    runs = {label: pair_scores(setting, measure, ids, version=version) for label, measure in MEASURES.items()}
    columns: dict[str, pd.Series] = {}
    for label, pair in runs.items():
        columns[f"ER:{label}"] = scores.effect_ratio(**pair, paired=setting == "rpl")
    for label, pair in runs.items():
        columns[f"DeltaRI:{label}"] = scores.delta_relative_improvement(**pair)
    frame = pd.DataFrame(columns)
    frame.index.name = "constellation_id"
    return frame


def effect_ratio_intervals(
    setting: str, *, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED, level: float = BOOTSTRAP_LEVEL
) -> pd.DataFrame:
    """Compute bootstrap percentile intervals of ER and DeltaRI for the printed pairs (beyond the paper).

    Topics are resampled with replacement (:mod:`irrepro.reproducibility.bootstrap`): the same sample for
    all four runs in the replicability setting; the Core17 and Core18 topics independently in the
    reproducibility setting. Deterministic (``seed``); computed once per argument set and cached.

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        Replicability or reproducibility.
    n_resamples : int, default BOOTSTRAP_RESAMPLES
        The number of resamples.
    seed : int, default BOOTSTRAP_SEED
        The seed.
    level : float, default BOOTSTRAP_LEVEL
        The intervals' level.

    Returns
    -------
    pandas.DataFrame
        Columns ``ER:<m>:low``, ``ER:<m>:high``, ``DeltaRI:<m>:low``, ``DeltaRI:<m>:high``.
    """
    return _effect_ratio_intervals(_check_setting(setting), n_resamples, seed, level)


@cached(maxsize=8)
def _effect_ratio_intervals(setting: str, n_resamples: int, seed: int, level: float) -> pd.DataFrame:
    functions = {"ER": bootstrap.bootstrap_effect_ratio, "DeltaRI": bootstrap.bootstrap_delta_relative_improvement}
    printed_ids = [constellation.constellation_id for constellation in PRINTED]
    pairs = {label: pair_scores(setting, measure, printed_ids) for label, measure in MEASURES.items()}  # read once
    rows = {}
    for constellation in PRINTED:
        k = constellation.constellation_id
        row = {}
        for statistic, function in functions.items():
            for label, pair in pairs.items():
                interval = function(
                    orig_baseline=pair["orig_baseline"], orig_advanced=pair["orig_advanced"],
                    new_baseline=pair["new_baseline"][k], new_advanced=pair["new_advanced"][k],
                    paired=setting == "rpl", n_resamples=n_resamples, level=level, seed=seed,
                )  # fmt: skip
                row[f"{statistic}:{label}:low"] = interval.low
                row[f"{statistic}:{label}:high"] = interval.high
        rows[f"{setting}_{constellation.name}"] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "run"
    return table


def effect_ratio_table(setting: str, *, intervals: bool = True, version: str = "current") -> pd.DataFrame:
    """Give the paper's Table 2 (left: ``rpl``, right: ``rpd``) with DeltaRI: rows ``rpl_tf_1`` / ``rpd_tf_1`` ...

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        Replicability or reproducibility.
    intervals : bool, default True
        Add the 95% bootstrap percentile intervals (``ER:<m>:low``, ``ER:<m>:high``, ...; see
        :func:`effect_ratio_intervals`), which the paper does not report.
    version : {"current", "old"}
        ``"old"`` (``rpd``, without intervals): see :func:`effect_measures`.

    Returns
    -------
    pandas.DataFrame
        Columns ``ER:<m>`` and ``DeltaRI:<m>`` for m in P@10, AP, nDCG, and the intervals' bounds.

    Raises
    ------
    ValueError
        For intervals of the old version.
    """
    if intervals and check_version(version) == "old":
        raise ValueError("bootstrap intervals are computed for the current files only; pass intervals=False")
    table = effect_measures(setting, ids=PRINTED_IDS, version=version)
    table = table.set_axis([f"{setting}_{c.name}" for c in PRINTED])
    table.index.name = "run"
    if not intervals:
        return table
    bounds = effect_ratio_intervals(setting)
    order = []
    for statistic in ("ER", "DeltaRI"):
        for label in MEASURES:
            order += [f"{statistic}:{label}", f"{statistic}:{label}:low", f"{statistic}:{label}:high"]
    return table.join(bounds)[order]
