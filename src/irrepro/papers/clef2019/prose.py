"""The numbers (and verdict words) the CLEF 2019 chapter's sentences need, computed for the glue.

Each function returns a flat ``{name: value}`` mapping for :func:`irrepro.plots.tables.glue_values`,
so that no number of the chapter's prose is typed by hand: the published runs and topic sets
(:func:`published_numbers`, :func:`topic_numbers`, :func:`clef_text_numbers`), the divergences of the
authors' code (:func:`implementation_numbers`) and the stand-in's tables (:func:`transfer_extremes` ...
:func:`closing_numbers`, :func:`licensed_status`).
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.clef2019 import published_runs
from irrepro.papers.clef2019.published_facts import FAR, NEAR
from irrepro.papers.clef2019.routing_data import STAND_IN_ROLE_NAMES, SYSTEM_NAMES, RoutingData
from irrepro.papers.clef2019.tables import PREPROCESSING
from irrepro.routing import implementations

__all__ = [
    "clef_text_numbers",
    "implementation_numbers",
    "published_numbers",
    "topic_numbers",
    "transfer_extremes",
    "augmentation_summary",
    "preprocessing_summary",
    "tolerance_ratios",
    "tolerance_summary",
    "closing_numbers",
    "licensed_status",
]


def implementation_numbers(effects: pd.DataFrame) -> dict[str, object]:
    """Count the divergences, the measured ones and those that leave the run unchanged; name the largest.

    From :func:`~irrepro.papers.clef2019.implementation_effects.implementation_effects`; the largest
    has the lowest RBO.

    Parameters
    ----------
    effects : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.implementation_effects.implementation_effects`' table.

    Returns
    -------
    dict of str -> object
        Name -> number or text, for glue.
    """
    measured = effects.dropna(subset=["RBO"])
    unchanged = measured[(measured["RMSE:AP"] == 0) & (measured["MAP_with"] == measured["MAP_without"])
                         & (measured["RBO"] == 1)]  # fmt: skip
    largest = measured.loc[measured["RBO"].idxmin()]
    return {
        "divergences": len(implementations.DIVERGENCES),
        "measured": len(measured),
        "no-effect": len(unchanged),
        "largest": str(largest["divergence"]),
        "largest-rbo": float(largest["RBO"]),
        "largest-without": float(largest["MAP_without"]),
        "largest-with": float(largest["MAP_with"]),
    }


def published_numbers() -> dict[str, object]:
    """Count the topics and the enrichment gains of the published 2020 runs (:mod:`published_runs`).

    Returns
    -------
    dict of str -> object
        Name -> number, for glue.
    """
    gains = published_runs.published_gains().set_index("setting")
    return {
        "rpl-topics": len(next(iter(published_runs.topic_sets("replicability").values()))),
        "rpd-topics": len(next(iter(published_runs.topic_sets("reproducibility").values()))),
        "common": len(published_runs.common_topics()),
        "rpl-improved": int(gains.loc["replicability", "improved"]),
        "rpd-improved": int(gains.loc["reproducibility", "improved"]),
    }


def topic_numbers(topic_sets: pd.DataFrame) -> dict[str, int]:
    """Give the topic counts the chapter's prose states.

    Parameters
    ----------
    topic_sets : pandas.DataFrame
        :func:`irrepro.papers.clef2019.published_facts.topic_sets`.

    Returns
    -------
    dict of str -> int
        ``<target>-<training>`` (Core17/Core18 with Robust04, both Robust corpora, either) and
        ``common`` -> count.
    """
    keys = {"Robust04": "r04", "Robust04 ∩ Robust05": "both", "Robust04 ∪ Robust05": "either"}
    numbers = {}
    for row in topic_sets.itertuples(index=False):
        if row.target in ("Core17", "Core18") and row.training in keys:
            numbers[f"{row.target.lower()}-{keys[row.training]}"] = int(row.intersection)
    numbers["common"] = int(topic_sets.loc[topic_sets["target"] == "Core17 ∩ Core18", "intersection"].iat[0])
    return numbers


def clef_text_numbers() -> dict[str, float]:
    """Give the CLEF paper's two printed MAP values of Section 4.2 (:data:`published_runs.CLEF_TEXT_NUMBERS`).

    Returns
    -------
    dict of str -> float
        Name -> value.
    """
    plain, augmented = published_runs.CLEF_TEXT_NUMBERS
    return {"map-plain": plain.printed, "map-augmented": augmented.printed}


def transfer_extremes(transfer: pd.DataFrame) -> dict[str, object]:
    """Find the best and the worst pair of :func:`~irrepro.papers.clef2019.tables.relevance_transfer` by MAP, and their topics.

    Parameters
    ----------
    transfer : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.tables.relevance_transfer`' table.

    Returns
    -------
    dict of str -> object
        Name -> number or text, for glue.
    """
    ordered = transfer.sort_values("MAP", ascending=False, kind="stable")
    best, worst = ordered.iloc[0], ordered.iloc[-1]
    return {
        "best_target": best["target"], "best_training": best["training"], "best_map": float(best["MAP"]),
        "worst_target": worst["target"], "worst_training": worst["training"], "worst_map": float(worst["MAP"]),
        "topics": int(best["topics"]),
    }  # fmt: skip


def augmentation_summary(augmentation: pd.DataFrame, *, alpha: float = 0.05) -> dict[str, object]:
    """Count the pairs of :func:`~irrepro.papers.clef2019.tables.feature_augmentation` that differ at ``alpha``; the largest MAP change.

    Parameters
    ----------
    augmentation : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.tables.feature_augmentation`' table.
    alpha : float, default 0.05
        The significance level.

    Returns
    -------
    dict of str -> object
        Name -> number or text, for glue.
    """
    return {
        "significant": int((augmentation["p (paired t-test)"] < alpha).sum()),
        "pairs": len(augmentation),
        "largest_change": float(augmentation["difference"].abs().max()),
    }


def preprocessing_summary(effect: pd.DataFrame) -> dict[str, object]:
    """Sum up the preprocessing's effect on MAP in :func:`~irrepro.papers.clef2019.tables.preprocessing_effect`.

    In how many cases the preprocessing raises MAP, the range of the differences and whether
    WCrobust04 gains more than WCrobust0405 on every target (the paper: "Especially WCRobust04
    profits from our preprocessing proposal").

    Parameters
    ----------
    effect : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.tables.preprocessing_effect`' table.

    Returns
    -------
    dict of str -> object
        Name -> number or text, for glue.
    """
    gains = effect.set_index(["run", "target"])["difference"]
    wcr04 = gains[gains.index.get_level_values("run") == "WCrobust04"].droplevel("run")
    others = gains[gains.index.get_level_values("run") != "WCrobust04"]
    more = all(wcr04[target] > gain for (_, target), gain in others.items())
    return {
        "raised": int((gains > 0).sum()),
        "cases": len(gains),
        "smallest": float(gains.min()),
        "largest": float(gains.max()),
        "verdict": "it helps WCrobust04 more than WCrobust0405 on both targets, as in the paper"
        if more
        else "unlike in the paper, WCrobust04 is not the run that profits most on both targets",
    }


def tolerance_ratios(comparison: pd.DataFrame, *, system: str = "WCrobust0405") -> dict[str, float]:
    """Give the range of the tol constellations' AP relative to the default, ours and the SIGIR 2020 authors'.

    From :func:`~irrepro.papers.clef2019.own_dataset.constellation_arp_comparison`.

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.own_dataset.constellation_arp_comparison`' table.
    system : str, default "WCrobust0405"
        The system.

    Returns
    -------
    dict of str -> float
        Name -> ratio, for glue.
    """
    tol = comparison[(comparison["system"] == system) & comparison["constellation"].str.startswith("tol")]
    ours, theirs = tol["ratio to default (ours)"], tol["ratio to default (SIGIR 2020)"]
    return {"ours_min": ours.min(), "ours_max": ours.max(), "theirs_min": theirs.min(), "theirs_max": theirs.max()}


def tolerance_summary(tolerance: pd.DataFrame) -> dict[str, object]:
    """Sum up what :func:`~irrepro.papers.clef2019.tolerance.tolerance_check` shows for tol_1 ... tol_5.

    Topics stopped before the first step and the share of the default's AP kept, with tol on the
    mean loss and on the summed loss, next to the SIGIR 2020 runs, and whether each falls as tol
    grows.

    Parameters
    ----------
    tolerance : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.tolerance.tolerance_check`' table.

    Returns
    -------
    dict of str -> object
        Name -> number or text, for glue.
    """
    levels = tolerance[tolerance["constellation"] != "default"]
    mean = levels[levels["loss tol bounds"].str.startswith("mean")]
    summed = levels[levels["loss tol bounds"].str.startswith("sum")]

    def falling(ratios: pd.Series) -> str:
        return "falling" if bool((ratios.diff().dropna() <= 0).all()) else "not falling"

    low, high = f"{mean['ratio to default'].min():.1%}", f"{mean['ratio to default'].max():.1%}"
    published = summed["ratio to default (SIGIR 2020)"]
    return {
        "stopped": ", ".join(sorted(set(mean["topics stopped before the first step"]))),
        "mean_kept": low if low == high else f"{low} to {high}",
        "sum_max": summed["ratio to default"].max(), "sum_min": summed["ratio to default"].min(),
        "sum_falling": falling(summed["ratio to default"]),
        "published_max": published.max(), "published_min": published.min(),
        "published_falling": falling(published),
    }  # fmt: skip


def _improvement(replicated: pd.DataFrame, target: str) -> dict[str, object]:
    ours = replicated[(replicated["target"] == target) & (replicated["preprocessing"] == PREPROCESSING[True])]
    ours = ours.drop_duplicates("run").set_index("run")["MAP"]
    wcr04 = ours["WCrobust04"]
    wcr0405 = ours[[run for run in ours.index if run.startswith("WCrobust0405")][-1]]  # complemented
    verdict = "improves on" if wcr0405 > wcr04 else "does not improve on"
    return {"wcrobust04": float(wcr04), "wcrobust0405": float(wcr0405), "verdict": verdict}


def _near_far(size_check: pd.DataFrame, targets: str) -> dict[str, object]:
    part = size_check[size_check["targets"] == targets]
    near, far = part.iloc[0], part.iloc[1]  # target_size_check lists the near target first
    harder = [name for name in SYSTEM_NAMES.values() if far[f"MAP {name}"] < near[f"MAP {name}"]]
    verdict = (
        "the far target is harder for both systems" if len(harder) == 2
        else "the far target is easier for both systems" if not harder
        else f"the far target is harder only for {', '.join(harder)}"
    )  # fmt: skip
    numbers = {"near_stories": int(near["documents"]), "far_stories": int(far["documents"]),
               "topics": int(far["topics"]), "verdict": verdict}  # fmt: skip
    for key, name in SYSTEM_NAMES.items():
        numbers[f"near_{key}"], numbers[f"far_{key}"] = float(near[f"MAP {name}"]), float(far[f"MAP {name}"])
    numbers["far_minus_near"] = float(far["far − near WCrobust04"])
    return numbers


def closing_numbers(replicated: pd.DataFrame, size_check: pd.DataFrame) -> dict[str, object]:
    """Give the closing note's numbers.

    Does WCrobust0405 improve on WCrobust04 on each stand-in target (preprocessed runs), and is the
    far target harder, as built and with both targets cut to equal size
    (:func:`~irrepro.papers.clef2019.tables.target_size_check`)?

    Parameters
    ----------
    replicated : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.tables.replication`' table.
    size_check : pandas.DataFrame
        :func:`~irrepro.papers.clef2019.tables.target_size_check`' table.

    Returns
    -------
    dict of str -> object
        Keys ``near_*``, ``far_*``, ``built_*``, ``equal_*``, ``size`` and ``drift`` (the sentences'
        verdicts).
    """
    numbers: dict[str, object] = {}
    for role, target in (("near", STAND_IN_ROLE_NAMES[NEAR]), ("far", STAND_IN_ROLE_NAMES[FAR])):
        numbers.update({f"{role}_{key}": value for key, value in _improvement(replicated, target).items()})
    for prefix, targets in (("built", "as built"), ("equal", "cut to equal size")):
        numbers.update({f"{prefix}_{key}": value for key, value in _near_far(size_check, targets).items()})
    same_sign = (numbers["built_far_minus_near"] > 0) == (numbers["equal_far_minus_near"] > 0)
    numbers["size"] = "Size does not explain it" if same_sign else "Size explains the sign"
    numbers["drift"] = (
        "In the paper the far target (WaPo) was clearly harder; the stand-in does not show that drift."
        if numbers["equal_far_minus_near"] > 0
        else "As in the paper, the far target is harder."
    )
    return numbers


def licensed_status(data: RoutingData | None) -> str:
    """Say which corpora the licensed-data section below ran on, in a sentence.

    Parameters
    ----------
    data : RoutingData or None
        The licensed data, ``None`` without a configuration.

    Returns
    -------
    str
        The sentence.
    """
    if data is None:
        return (
            "No corpora configuration was found ($IRREPRO_ROUTING_CONFIG or ./routing-corpora.toml): this "
            "build ran on the Reuters-21578 stand-in only, and the two cells below show nothing."
        )
    return f"This build ran the cells below on {data.label}."
