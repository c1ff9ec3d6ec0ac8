"""The numbers (and verdict words) the CLEF 2019 chapter's sentences need, computed for the glue.

Each function returns a flat ``{name: value}`` mapping for :func:`irrepro.plots.tables.glue_values`,
so that no number of the chapter's prose is typed by hand.
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.clef2019 import published_runs
from irrepro.routing import implementations

__all__ = ["clef_text_numbers", "implementation_numbers", "published_numbers", "topic_numbers"]


def implementation_numbers(effects: pd.DataFrame) -> dict[str, object]:
    """From :func:`~irrepro.papers.clef2019.implementation_effects.implementation_effects`: how many
    divergences, how many measured, how many leave the run unchanged, and the largest (lowest RBO)."""
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
    """Topic counts and the enrichment counts of the published 2020 runs (:mod:`published_runs`)."""
    gains = published_runs.published_gains().set_index("setting")
    return {
        "rpl-topics": len(next(iter(published_runs.topic_sets("replicability").values()))),
        "rpd-topics": len(next(iter(published_runs.topic_sets("reproducibility").values()))),
        "common": len(published_runs.common_topics()),
        "rpl-improved": int(gains.loc["replicability", "improved"]),
        "rpd-improved": int(gains.loc["reproducibility", "improved"]),
    }


def topic_numbers(topic_sets: pd.DataFrame) -> dict[str, int]:
    """The topic counts the chapter's prose states, from :func:`irrepro.papers.clef2019.published_facts.topic_sets`
    (``<target>-<training>``: Core17/Core18 with Robust04, both Robust corpora, either; ``common``)."""
    keys = {"Robust04": "r04", "Robust04 ∩ Robust05": "both", "Robust04 ∪ Robust05": "either"}
    numbers = {}
    for row in topic_sets.itertuples(index=False):
        if row.target in ("Core17", "Core18") and row.training in keys:
            numbers[f"{row.target.lower()}-{keys[row.training]}"] = int(row.intersection)
    numbers["common"] = int(topic_sets.loc[topic_sets["target"] == "Core17 ∩ Core18", "intersection"].iat[0])
    return numbers


def clef_text_numbers() -> dict[str, float]:
    """The CLEF paper's two printed MAP values of Section 4.2 (:data:`published_runs.CLEF_TEXT_NUMBERS`)."""
    plain, augmented = published_runs.CLEF_TEXT_NUMBERS
    return {"map-plain": plain.printed, "map-augmented": augmented.printed}
