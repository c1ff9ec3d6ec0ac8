"""Figures of the routing-runs chapter (Breuer & Schaer, CENTRE@CLEF 2019).

Each function takes a table made by :mod:`irrepro.papers.clef2019` and returns a matplotlib
``Figure`` at most as wide as the book's text column (:mod:`irrepro.plots.style`); nothing here
computes a score. Used by ``chapters/routing_runs.md`` only.

- :func:`topic_set_diagram` – judged topics per collection and the training/target intersections;
- :func:`relevance_transfer_bars` – the paper's Figure 2: MAP per (target / training) pair, in
  decreasing order from the top, with the number of topics beside each bar;
- :func:`per_topic_ap_bars` – the paper's Figures 3 and 4: AP per topic for both systems, one panel
  per target, topics down the page (so that their names stay legible).

The ER–ΔRI plane of the chapter's own dataset is drawn by
:func:`irrepro.plots.reproducibility.er_deltari_figure`, the SIGIR 2020 chapter's figure, from
:func:`irrepro.papers.clef2019.own_dataset_er_deltari_points`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from irrepro.plots.style import MIN_FONT_PT, PALETTE, TEXT_WIDTH

__all__ = ["topic_set_diagram", "relevance_transfer_bars", "per_topic_ap_bars"]

_SYSTEM_COLOURS = {"WCrobust04": PALETTE[0], "WCrobust0405": PALETTE[1]}


def topic_set_diagram(topic_sets: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Heat map of the sizes of judged(target) ∩ judged(training), one cell per target × training corpus.

    A training label containing ``∩`` (both training corpora) is drawn as its own column.

    Parameters
    ----------
    topic_sets : pandas.DataFrame
        Columns ``target``, ``training`` and ``intersection`` (one row per pair, as
        :func:`irrepro.papers.clef2019.topic_sets` returns).
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    for column in ("target", "training", "intersection"):
        if column not in topic_sets.columns:
            raise ValueError(f"topic_set_diagram: column {column!r} missing (have {list(topic_sets.columns)})")
    grid = topic_sets.pivot(index="target", columns="training", values="intersection")
    width = min(TEXT_WIDTH, 1.6 + 1.2 * grid.shape[1])
    figure, ax = plt.subplots(figsize=(width, 1.1 + 0.6 * grid.shape[0]), layout="constrained")
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
    ax.grid(False)
    if title:
        ax.set_title(title)
    return figure


def relevance_transfer_bars(transfer: pd.DataFrame, *, value: str = "MAP", title: str | None = None) -> Figure:
    """Horizontal bars of ``value`` per ``target / training`` pair, highest at the top (the paper's Fig. 2).

    The number of topics is written beside each bar because MAPs over different topic sets are not
    directly comparable.

    Parameters
    ----------
    transfer : pandas.DataFrame
        Columns ``target``, ``training``, ``topics`` and the one ``value`` names.
    value : str, default "MAP"
        The column drawn.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    for column in ("target", "training", value, "topics"):
        if column not in transfer.columns:
            raise ValueError(f"relevance_transfer_bars: column {column!r} missing (have {list(transfer.columns)})")
    ordered = transfer.sort_values(value, ascending=False, kind="stable")
    labels = [f"{t} / {r}" for t, r in zip(ordered["target"], ordered["training"], strict=True)]
    figure, ax = plt.subplots(figsize=(TEXT_WIDTH, 0.9 + 0.24 * len(ordered)), layout="constrained")
    positions = np.arange(len(ordered))
    bars = ax.barh(positions, ordered[value].to_numpy(dtype=float), color=PALETTE[0], height=0.7)
    for bar, topics in zip(bars, ordered["topics"], strict=True):
        ax.annotate(
            f"{int(topics)}", (bar.get_width(), bar.get_y() + bar.get_height() / 2),
            ha="left", va="center", fontsize=MIN_FONT_PT, xytext=(3, 0), textcoords="offset points",
        )  # fmt: skip
    ax.set_yticks(positions, labels)
    ax.invert_yaxis()  # the highest value at the top
    ax.set_xlabel("mean average precision" if value == "MAP" else value)
    ax.set_ylabel("target / training (topics beside each bar)")
    ax.set_xlim(0, max(float(ordered[value].max()) * 1.12, 0.05))
    ax.grid(axis="y", visible=False)
    if title:
        ax.set_title(title)
    return figure


def per_topic_ap_bars(per_topic: pd.DataFrame, *, title: str | None = None) -> Figure:
    """AP per topic for both systems, one panel per target side by side (the paper's Figures 3 and 4).

    Topics run down the page in the same order on every panel; the dashed line is each system's mean
    over the shown topics.

    Parameters
    ----------
    per_topic : pandas.DataFrame
        Long: columns ``target``, ``system``, ``topic``, ``AP``.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    for column in ("target", "system", "topic", "AP"):
        if column not in per_topic.columns:
            raise ValueError(f"per_topic_ap_bars: column {column!r} missing (have {list(per_topic.columns)})")
    targets = list(dict.fromkeys(per_topic["target"]))
    systems = list(dict.fromkeys(per_topic["system"]))
    topics = sorted(dict.fromkeys(per_topic["topic"].astype(str)), key=_topic_key)
    figure, axes = plt.subplots(
        1, len(targets), figsize=(TEXT_WIDTH, 1.2 + 0.17 * len(topics)), sharey=True, squeeze=False,
        layout="constrained",
    )  # fmt: skip
    height = 0.8 / max(len(systems), 1)
    positions = np.arange(len(topics))
    for ax, target in zip(axes[0], targets, strict=False):
        on_target = per_topic[per_topic["target"] == target]
        for index, system in enumerate(systems):
            of_system = on_target[on_target["system"] == system]
            scores = pd.Series(of_system["AP"].to_numpy(dtype=float), index=of_system["topic"].astype(str))
            widths = scores.reindex(topics).to_numpy(dtype=float)
            colour = _SYSTEM_COLOURS.get(system, PALETTE[index % len(PALETTE)])
            offset = (index - (len(systems) - 1) / 2) * height
            ax.barh(positions + offset, widths, height, label=system, color=colour)
            ax.axvline(np.nanmean(widths), linestyle="--", linewidth=1.2, color=colour)
        ax.set_title(str(target))
        ax.set_xlabel("AP")
        ax.set_xlim(0, 1)
        ax.grid(axis="y", visible=False)
    axes[0, 0].set_yticks(positions, topics)
    axes[0, 0].invert_yaxis()
    axes[0, 0].set_ylabel("topic")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncol=len(labels))
    if title:
        figure.suptitle(title)
    return figure


def _topic_key(topic: str) -> tuple[int, str]:
    return (int(topic), topic) if topic.isdigit() else (10**9, topic)
