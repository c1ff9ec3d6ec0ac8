"""Figures of the routing-runs chapter (Breuer & Schaer, CENTRE@CLEF 2019).

Each function takes a table made by :mod:`irrepro.papers.routing` and returns a matplotlib
``Figure``; nothing here computes a score. Used by ``chapters/routing_runs.md`` only.

- :func:`topic_set_diagram` – judged topics per collection and the training/target intersections;
- :func:`relevance_transfer_bars` – the paper's Figure 2: MAP per (target / training) pair, in
  decreasing order, with the number of topics on each bar;
- :func:`per_topic_ap_bars` – the paper's Figures 3 and 4: AP per topic for both systems, one panel
  per target.

The ER–ΔRI plane of the chapter's own dataset is drawn by
:func:`irrepro.plots.reproducibility.er_deltari_figure`, the SIGIR 2020 chapter's figure, from
:func:`irrepro.papers.routing.er_deltari_points`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

__all__ = ["topic_set_diagram", "relevance_transfer_bars", "per_topic_ap_bars"]

_SYSTEM_COLOURS = {"WCrobust04": "#4C72B0", "WCrobust0405": "#DD8452"}


def topic_set_diagram(topic_sets: pd.DataFrame) -> Figure:
    """Heat map of |judged(target) ∩ judged(training)|, one cell per target × training corpus.

    ``topic_sets`` has columns ``target``, ``training`` and ``intersection`` (one row per pair, as
    :func:`irrepro.papers.routing.topic_sets` returns); a training label containing ``∩`` (both
    training corpora) is drawn as its own column.
    """
    for column in ("target", "training", "intersection"):
        if column not in topic_sets.columns:
            raise ValueError(f"topic_set_diagram: column {column!r} missing (have {list(topic_sets.columns)})")
    grid = topic_sets.pivot(index="target", columns="training", values="intersection")
    figure, ax = plt.subplots(figsize=(1.6 + 1.5 * grid.shape[1], 1.0 + 0.7 * grid.shape[0]), layout="constrained")
    values = grid.to_numpy(dtype=float)
    ax.imshow(values, cmap="Blues", vmin=0, vmax=np.nanmax(values) * 1.3, aspect="auto")
    for (row, column), value in np.ndenumerate(values):
        if not np.isnan(value):
            ax.text(column, row, f"{int(value)}", ha="center", va="center", fontsize=12)
    # Combined training sets ("Robust04 ∩ Robust05") get a line each, so the labels do not overlap.
    ax.set_xticks(range(grid.shape[1]), [str(c).replace(" ∩ ", "\n∩ ").replace(" ∪ ", "\n∪ ") for c in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(i) for i in grid.index])
    ax.set_xlabel("training corpus (judged topics)")
    ax.set_ylabel("target corpus")
    ax.set_title("Topics judged in both target and training corpus")
    return figure


def relevance_transfer_bars(transfer: pd.DataFrame, *, value: str = "MAP", title: str | None = None) -> Figure:
    """Bar chart of ``value`` per ``target / training`` pair in decreasing order (the paper's Fig. 2).

    ``transfer`` has columns ``target``, ``training``, ``value`` and ``topics``; the number of topics
    is written above each bar because MAPs over different topic sets are not directly comparable.
    """
    for column in ("target", "training", value, "topics"):
        if column not in transfer.columns:
            raise ValueError(f"relevance_transfer_bars: column {column!r} missing (have {list(transfer.columns)})")
    ordered = transfer.sort_values(value, ascending=False, kind="stable")
    labels = [f"{t} / {r}" for t, r in zip(ordered["target"], ordered["training"], strict=True)]
    figure, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(ordered) + 2), 4.0), layout="constrained")
    positions = np.arange(len(ordered))
    bars = ax.bar(positions, ordered[value].to_numpy(dtype=float), color="#4C72B0")
    for bar, topics in zip(bars, ordered["topics"], strict=True):
        ax.annotate(
            f"{int(topics)}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=8,
            xytext=(0, 2),
            textcoords="offset points",
        )
    ax.set_xticks(positions, labels, rotation=45, ha="right")
    ax.set_ylabel("Mean Average Precision" if value == "MAP" else value)
    ax.set_xlabel("target / training (number of topics above each bar)")
    ax.set_title(title or "Relevance transfer across corpus combinations")
    ax.set_ylim(0, max(float(ordered[value].max()) * 1.15, 0.05))
    return figure


def per_topic_ap_bars(per_topic: pd.DataFrame, *, title: str | None = None) -> Figure:
    """AP per topic for both systems, one panel per target (the paper's Figures 3 and 4).

    ``per_topic`` is long: columns ``target``, ``system``, ``topic``, ``AP``. Topics are in the same
    order on every panel; the dashed line is each system's mean over the shown topics.
    """
    for column in ("target", "system", "topic", "AP"):
        if column not in per_topic.columns:
            raise ValueError(f"per_topic_ap_bars: column {column!r} missing (have {list(per_topic.columns)})")
    targets = list(dict.fromkeys(per_topic["target"]))
    systems = list(dict.fromkeys(per_topic["system"]))
    topics = sorted(dict.fromkeys(per_topic["topic"].astype(str)), key=_topic_key)
    figure, axes = plt.subplots(
        len(targets), 1, figsize=(max(6.0, 0.45 * len(topics) + 2), 2.8 * len(targets)), sharey=True, squeeze=False
    )
    width = 0.8 / max(len(systems), 1)
    positions = np.arange(len(topics))
    for ax, target in zip(axes[:, 0], targets, strict=True):
        on_target = per_topic[per_topic["target"] == target]
        for index, system in enumerate(systems):
            of_system = on_target[on_target["system"] == system]
            scores = pd.Series(of_system["AP"].to_numpy(dtype=float), index=of_system["topic"].astype(str))
            heights = scores.reindex(topics).to_numpy(dtype=float)
            colour = _SYSTEM_COLOURS.get(system)
            ax.bar(positions + (index - (len(systems) - 1) / 2) * width, heights, width, label=system, color=colour)
            ax.axhline(np.nanmean(heights), linestyle="--", linewidth=1, color=colour or "grey")
        ax.set_title(str(target), fontsize=10)
        ax.set_ylabel("AP")
        ax.set_xticks(positions, topics, rotation=90 if len(topics) > 20 else 0, fontsize=8)
    axes[0, 0].legend(fontsize=8, loc="upper right")
    axes[-1, 0].set_xlabel("topic")
    figure.suptitle(title or "AP per topic on the topics common to all sub-collections")
    figure.set_layout_engine("constrained")
    return figure


def _topic_key(topic: str) -> tuple[int, str]:
    return (int(topic), topic) if topic.isdigit() else (10**9, topic)
