"""Figures of the reproducibility measures (Breuer et al., SIGIR 2020, Figures 1-3), for chapters.

- :func:`cutoff_figure`: a measure (KTU, RBO, RMSE) against the cut-off, one panel per constellation
  family, one line per run (the paper's Figure 1).
- :func:`er_deltari_figure`: ER (x) against DeltaRI (y), one panel per family, the four regions of the
  plane labelled and the perfect replication (1, 0) marked (the paper's Figures 2 and 3).

Both take the long DataFrames of :mod:`irrepro.papers.sigir2020` (``cutoff_curves``,
``er_deltari_points``) and return a :class:`matplotlib.figure.Figure`; they compute nothing themselves.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

__all__ = ["cutoff_figure", "er_deltari_figure", "REGIONS"]

# The paper's four regions of the ER-DeltaRI plane (Section 3.3).
REGIONS: dict[int, str] = {
    1: "1: effect ok,\nabsolute scores not",
    2: "2: failure on both",
    3: "3: effect failed,\nabsolute scores ok",
    4: "4: success on both\n(preferred)",
}
_MEASURE_MARKERS = {"P@10": "o", "AP": "s", "nDCG": "^"}


def _require(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{what}: missing columns {missing}; got {list(frame.columns)}")


def _families(frame: pd.DataFrame) -> list[str]:
    family = frame["family"]
    if isinstance(family.dtype, pd.CategoricalDtype):
        return [value for value in family.cat.categories if (family == value).any()]
    return list(dict.fromkeys(family))


def cutoff_figure(curves: pd.DataFrame, *, statistic: str, title: str = "") -> Figure:
    """``statistic`` (a column of ``curves``) against the cut-off, one panel per family.

    ``curves`` has one row per (run, cut-off) with columns ``run``, ``family``, ``cutoff`` and the
    statistic. Cut-offs are spaced evenly, labelled by value, as in the paper.
    """
    _require(curves, ["run", "family", "cutoff", statistic], "cutoff_figure")
    families = _families(curves)
    cutoffs = sorted(curves["cutoff"].unique())
    positions = {cutoff: index for index, cutoff in enumerate(cutoffs)}
    figure, axes = plt.subplots(1, len(families), figsize=(3.2 * len(families), 3.2), sharey=True, squeeze=False)
    for axis, family in zip(axes[0], families):
        part = curves[curves["family"] == family]
        for run, lines in part.groupby("run", sort=False):
            lines = lines.sort_values("cutoff")
            axis.plot([positions[c] for c in lines["cutoff"]], lines[statistic], marker="x", label=run)
        axis.set_xticks(range(len(cutoffs)), [str(c) for c in cutoffs])
        axis.set_xlabel("cut-off")
        axis.set_title(family)
        axis.legend(fontsize="x-small")
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel(statistic)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    return figure


def er_deltari_figure(points: pd.DataFrame, *, title: str = "") -> Figure:
    """ER (x) against DeltaRI (y), one panel per family, regions labelled and (1, 0) marked.

    ``points`` has one row per (run, measure) with columns ``family``, ``level``, ``measure``, ``ER``,
    ``DeltaRI``. Each point is annotated with its level (1-5) within the family.
    """
    _require(points, ["family", "level", "measure", "ER", "DeltaRI"], "er_deltari_figure")
    families = _families(points)
    figure, axes = plt.subplots(1, len(families), figsize=(3.6 * len(families), 3.8), squeeze=False)
    for axis, family in zip(axes[0], families):
        part = points[points["family"] == family]
        x_low, x_high = min(part["ER"].min(), 0.0) - 0.25, max(part["ER"].max(), 1.0) + 0.25
        y_span = max(np.abs(part["DeltaRI"]).max(), 0.05) * 1.25
        axis.set_xlim(x_low, x_high)
        axis.set_ylim(-y_span, y_span)
        axis.axhline(0.0, color="grey", linewidth=0.8)
        axis.axvline(0.0, color="grey", linewidth=0.8)
        corners = {1: (x_high, y_span), 2: (x_low, y_span), 3: (x_low, -y_span), 4: (x_high, -y_span)}
        for region, (x, y) in corners.items():
            axis.text(
                x, y, REGIONS[region], fontsize="xx-small", color="dimgrey",
                ha="right" if x > 0 else "left", va="top" if y > 0 else "bottom",
            )  # fmt: skip
        for measure, marker in _MEASURE_MARKERS.items():
            chosen = part[part["measure"] == measure]
            if chosen.empty:
                continue
            axis.scatter(chosen["ER"], chosen["DeltaRI"], marker=marker, label=measure, alpha=0.8)
            for _, point in chosen.iterrows():
                axis.annotate(str(point["level"]), (point["ER"], point["DeltaRI"]), fontsize="xx-small",
                              xytext=(2, 2), textcoords="offset points")  # fmt: skip
        axis.scatter([1.0], [0.0], marker="*", s=120, color="black", label="(1, 0)", zorder=3)
        axis.set_title(family)
        axis.set_xlabel("ER")
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel("DeltaRI")
    handles, labels = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize="small")
    if title:
        figure.suptitle(title)
    figure.tight_layout(rect=(0, 0.08, 1, 1))
    return figure
