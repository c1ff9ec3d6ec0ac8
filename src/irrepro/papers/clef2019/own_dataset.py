"""The book's own reproducibility dataset: the SIGIR 2020 measures on this compendium's routing runs.

The 20 printed constellations of the SIGIR 2020 paper (:data:`irrepro.routing.constellations.PRINTED`)
x 2 systems x 2 targets, measured against the default runs on the near target as the originals
(:func:`own_dataset_measures`), laid out as the SIGIR 2020 appendix does (:func:`own_dataset_table`),
as points of its ER/DeltaRI figure (:func:`own_dataset_er_deltari_points`) and next to the SIGIR 2020
authors' own runs of the same constellations (:func:`constellation_arp_comparison`).
"""

from __future__ import annotations

import warnings

import pandas as pd

from irrepro.data import fetch
from irrepro.papers.clef2019.published_facts import FAR, NEAR
from irrepro.papers.clef2019.routing_data import SYSTEM_NAMES, RoutingData, data_or_stand_in
from irrepro.papers.clef2019.run_requests import own_dataset_requests
from irrepro.papers.datasets import file_part, sigir2020_file
from irrepro.reproducibility import ranking, scores
from irrepro.routing.constellations import DEFAULT, FAMILIES, PRINTED, TRAINING_COLLECTIONS, by_name
from irrepro.routing.experiment import MEASURES
from irrepro.routing.pipeline import RoutingResult

__all__ = [
    "OWN_SETTINGS",
    "PAIR",
    "RANKING_DEPTH",
    "RBO_P",
    "own_dataset_sharing",
    "own_dataset_measures",
    "own_dataset_table",
    "own_dataset_er_deltari_points",
    "constellation_arp_comparison",
]


#: Depth of KTU and RBO in the own dataset (the deepest cut-off of the SIGIR 2020 paper).
RANKING_DEPTH = 1000
RBO_P = 0.8
#: the own dataset's two settings: replicability on the near target, reproducibility on the far one
OWN_SETTINGS: tuple[tuple[str, str], ...] = (("replicability", NEAR), ("reproducibility", FAR))
PAIR = "WCrobust0405 vs WCrobust04"


def own_dataset_sharing() -> dict[str, int]:
    """Count how the own dataset's runs share their work.

    Returns
    -------
    dict of str -> int
        ``runs``; ``feature_sets``: distinct tf-idf models with their training and target rows, one
        per system, target and feature parameters; ``models``: distinct tf-idf models and training
        rows, one per system and feature parameters (a model fitted on the training corpora alone
        serves both targets, :attr:`~irrepro.routing.experiment.RunRequest.training_key`).
    """
    requests = own_dataset_requests()
    return {"runs": len(requests), "feature_sets": len({r.feature_key for r in requests}),
            "models": len({r.training_key for r in requests})}  # fmt: skip


def _own_runs(data: RoutingData, system: str, target: str) -> dict[str, RoutingResult]:
    return {c.name: data.system_run(system, target, constellation=c) for c in PRINTED}


def _measured(function, *arguments, **options) -> tuple[object, str]:
    """``function(*arguments, **options)`` and, where a value is undefined (NaN), the reason."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", scores.UndefinedMeasureWarning)
        values = function(*arguments, **options)
    return values, "; ".join(str(w.message) for w in caught if issubclass(w.category, scores.UndefinedMeasureWarning))


def _measure_rows(data: RoutingData, setting: str, system: str, measure: str, statistic: str, values,
                  note: str = "") -> list[dict]:
    """One row of the long table per constellation in ``values`` (constellation name -> value)."""
    rows = []
    for name, value in values.items():
        c = by_name(name)
        rows.append({
            "setting": setting, "constellation": name, "family": c.family if c is not DEFAULT else "default",
            "level": c.level if c is not DEFAULT else 0, "system": system, "measure": measure,
            "statistic": statistic, "value": float(value), "note": note if pd.isna(value) else "", "data": data.label,
        })  # fmt: skip
    return rows


def _original_rows(data: RoutingData, original_scores: dict[str, pd.DataFrame]) -> list[dict]:
    """Step 1: ARP of the originals (the default runs on the near target)."""
    return [
        row for system in TRAINING_COLLECTIONS for measure in MEASURES
        for row in _measure_rows(data, "original", SYSTEM_NAMES[system], measure, "ARP",
                                 {"default": original_scores[system][measure].mean()})
    ]  # fmt: skip


def _per_measure(data: RoutingData, runs: dict[str, RoutingResult], target: str) -> dict[str, pd.DataFrame]:
    """Per measure: topics x constellations of the per-topic scores of ``runs``."""
    frames = {name: data.scores(result, target) for name, result in runs.items()}
    return {m: pd.DataFrame({name: frame[m] for name, frame in frames.items()}) for m in MEASURES}


def _score_rows(data: RoutingData, setting: str, system: str, original: pd.DataFrame,
                new: dict[str, pd.DataFrame]) -> list[dict]:
    """Step 2: ARP, RMSE (replicability) and the t-test of one system's runs against its original."""
    rows = []
    for measure in MEASURES:
        orig, runs = original[measure], new[measure]
        calls = [("ARP", scores.arp, (runs,))]
        if setting == "replicability":
            calls += [("RMSE", scores.rmse, (orig, runs)), ("p-value", scores.paired_ttest, (orig, runs))]
        else:
            calls += [("p-value", scores.unpaired_ttest, (orig, runs))]
        for statistic, function, arguments in calls:
            rows += _measure_rows(data, setting, SYSTEM_NAMES[system], measure, statistic, *_measured(function, *arguments))
    return rows


def _ranking_rows(data: RoutingData, system: str, original: RoutingResult, runs: dict[str, RoutingResult]) -> list[dict]:
    """Step 3 (replicability only): KTU and RBO of the ranked lists against the original's."""
    ranked = ranking.ranking_measures(
        original.run, {name: result.run for name, result in runs.items()}, depth=RANKING_DEPTH, rbo_p=RBO_P,
        measures=("KTU", "RBO"),
    )
    label = SYSTEM_NAMES[system]
    return [row for m in ("KTU", "RBO") for row in _measure_rows(data, "replicability", label, "ranking", m, ranked[m].mean())]


def _effect_rows(data: RoutingData, setting: str, original_scores: dict[str, pd.DataFrame],
                 new: dict[str, dict[str, pd.DataFrame]]) -> list[dict]:
    """Step 4: ER and DeltaRI of WCrobust0405's improvement over WCrobust04, against the originals'."""
    rows = []
    for measure in MEASURES:
        runs = {"orig_baseline": original_scores["wcrobust04"][measure], "orig_advanced": original_scores["wcrobust0405"][measure],
                "new_baseline": new["wcrobust04"][measure], "new_advanced": new["wcrobust0405"][measure]}  # fmt: skip
        er = _measured(scores.effect_ratio, **runs, paired=setting == "replicability")
        rows += _measure_rows(data, setting, PAIR, measure, "ER", *er)
        rows += _measure_rows(data, setting, PAIR, measure, "DeltaRI", *_measured(scores.delta_relative_improvement, **runs))
    return rows


def own_dataset_measures(data: RoutingData | None = None, *, client=None) -> pd.DataFrame:
    """Compute the SIGIR 2020 measures on this compendium's own runs.

    20 printed constellations x 2 systems x 2 targets, against the default runs on the near target
    as the originals. Replicability (near target, same qrels): ARP, KTU and RBO (p = 0.8, depth
    1000; computed from the ranked lists by :mod:`irrepro.reproducibility.ranking`), RMSE, ER
    (paired), DeltaRI and the paired t-test, per measure. Reproducibility (far target): ARP, ER
    (unpaired), DeltaRI and the unpaired t-test (:mod:`irrepro.reproducibility.scores`). ER and
    DeltaRI compare the improvement of WCrobust0405 (advanced) over WCrobust04 (baseline) with the
    originals' improvement, so they belong to the pair (``system`` = "WCrobust0405 vs WCrobust04").

    The runs (:func:`~irrepro.papers.clef2019.run_requests.own_dataset_requests`) are made on the
    Dask cluster of ``client`` if given (:func:`irrepro.routing.experiment.local_cluster`), else
    here; the same runs either way.

    Parameters
    ----------
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in's.
    client : dask.distributed.Client, optional
        A Dask client to make the runs on.

    Returns
    -------
    pandas.DataFrame
        Long table: setting, constellation, family, level, system, measure, statistic, value, note,
        data; an undefined value (e.g. ER when the originals' improvement is zero) is NaN and
        ``note`` says why.
    """
    data = data_or_stand_in(data)
    data.prefetch(own_dataset_requests(), client=client)
    originals = {s: data.system_run(s, NEAR) for s in TRAINING_COLLECTIONS}
    original_scores = {s: data.scores(r, NEAR) for s, r in originals.items()}
    rows = _original_rows(data, original_scores)
    for setting, target in OWN_SETTINGS:
        new: dict[str, dict[str, pd.DataFrame]] = {}
        for system in TRAINING_COLLECTIONS:
            runs = _own_runs(data, system, target)
            new[system] = _per_measure(data, runs, target)
            rows += _score_rows(data, setting, system, original_scores[system], new[system])
            if setting == "replicability":
                rows += _ranking_rows(data, system, originals[system], runs)
        rows += _effect_rows(data, setting, original_scores, new)
    return pd.DataFrame(rows)


def own_dataset_table(measures: pd.DataFrame, *, setting: str, system: str) -> pd.DataFrame:
    """Lay out one system's rows of :func:`own_dataset_measures` as the SIGIR 2020 appendix does.

    Parameters
    ----------
    measures : pandas.DataFrame
        :func:`own_dataset_measures`' table.
    setting : {"replicability", "reproducibility"}
        The setting.
    system : str
        The system.

    Returns
    -------
    pandas.DataFrame
        One row per constellation (the first: the original, the default run on the near target),
        columns (statistic, measure).
    """
    part = measures[(measures["setting"].isin([setting, "original"])) & (measures["system"] == system)]
    table = part.pivot(index="constellation", columns=["statistic", "measure"], values="value")
    statistics = ["ARP", "KTU", "RBO", "RMSE", "p-value"]
    table = table[[c for s in statistics for c in table.columns if c[0] == s]]
    order = ["default"] + [c.name for c in PRINTED]
    table = table.reindex([name for name in order if name in table.index])
    return table.rename(index={"default": "original (default, near target)"})


def own_dataset_er_deltari_points(measures: pd.DataFrame, *, setting: str) -> pd.DataFrame:
    """Give ER and DeltaRI per constellation and measure of :func:`own_dataset_measures`.

    Not :func:`irrepro.papers.sigir2020.er_deltari_points` (the SIGIR 2020 figures' points, from a
    setting alone).

    Parameters
    ----------
    measures : pandas.DataFrame
        :func:`own_dataset_measures`' table.
    setting : {"replicability", "reproducibility"}
        The setting.

    Returns
    -------
    pandas.DataFrame
        The layout of :func:`irrepro.plots.reproducibility.er_deltari_figure` (family, level,
        measure, ER, DeltaRI).
    """
    part = measures[(measures["setting"] == setting) & measures["statistic"].isin(["ER", "DeltaRI"])]
    points = part.pivot(index=["constellation", "family", "level", "measure"], columns="statistic", values="value")
    points = points.reset_index()
    points.columns.name = None
    points["family"] = pd.Categorical(points["family"], categories=list(FAMILIES))
    return points.sort_values(["family", "level", "measure"]).reset_index(drop=True)


def constellation_arp_comparison(measures: pd.DataFrame, *, measure: str = "AP") -> pd.DataFrame:
    """Compare ARP per printed constellation: the SIGIR 2020 authors' replicated runs and this chapter's.

    The authors' runs on the licensed Core17 (mean of their published per-topic files,
    ``sigir2020/measures/rpl_<system>_<measure>.csv``) next to this chapter's runs on the near
    target of ``measures``' data, both relative to the default. The two columns ran on different
    data and cannot be compared value by value; the ratios to the default show whether a
    constellation moves effectiveness the same way.

    Parameters
    ----------
    measures : pandas.DataFrame
        :func:`own_dataset_measures`' table.
    measure : str, default "AP"
        The measure.

    Returns
    -------
    pandas.DataFrame
        One row per constellation.
    """
    rows = []
    for system, name in SYSTEM_NAMES.items():
        published = pd.read_csv(fetch(sigir2020_file("rpl", system, file_part(measure))))
        ours = measures[
            (measures["system"] == name) & (measures["measure"] == measure) & (measures["statistic"] == "ARP")
            & measures["setting"].isin(["original", "replicability"])
        ].set_index("constellation")["value"]
        default_published = float(published[DEFAULT.dataset_column(name)].mean())
        for constellation in (DEFAULT, *PRINTED):
            value = float(published[constellation.dataset_column(name)].mean())
            rows.append(
                {
                    "system": name,
                    "constellation": constellation.name,
                    f"{measure} SIGIR 2020 (Core17)": value,
                    "ratio to default (SIGIR 2020)": value / default_published,
                    f"{measure} ours": float(ours[constellation.name]),
                    "ratio to default (ours)": float(ours[constellation.name] / ours["default"]),
                    "data": f"SIGIR 2020 per-topic files (licensed NYT) | {measures['data'].iat[0]}",
                }
            )
    return pd.DataFrame(rows)
