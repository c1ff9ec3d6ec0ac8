"""Figures of the reproducibility measures (Breuer et al., SIGIR 2020, Figures 1-3), for chapters.

- :func:`cutoff_figure`: a measure (KTU, RBO, RMSE) against the cut-off, one panel per constellation
  family (2 x 2), one line per level of the family (the paper's Figure 1).
- :func:`er_deltari_figure`: ER (x) against DeltaRI (y), one panel per family (2 x 2), the four
  regions of the plane numbered in their corners and the perfect replication (1, 0) marked (the
  paper's Figures 2 and 3).

Both take the long DataFrames of :mod:`irrepro.papers.sigir2020` (``cutoff_curves``,
``er_deltari_points``) and return a :class:`matplotlib.figure.Figure` as wide as the book's text
column (:mod:`irrepro.plots.style`); they compute nothing themselves.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from irrepro.plots.style import MARKERS, MIN_FONT_PT, PALETTE, TEXT_WIDTH

__all__ = ["cutoff_figure", "er_deltari_figure", "draw_regions", "REGIONS"]

# The paper's four regions of the ER-DeltaRI plane (Section 3.3); the figure numbers them in their
# corners, the caption says what they mean.
REGIONS: dict[int, str] = {
    1: "effect reproduced, absolute scores not",
    2: "failure on both",
    3: "effect failed, absolute scores reproduced",
    4: "success on both (preferred)",
}
_MEASURE_STYLE = {"P@10": ("o", PALETTE[0]), "AP": ("s", PALETTE[1]), "nDCG": ("^", PALETTE[2])}
_GREY = "#555555"


def _require(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{what}: missing columns {missing}; got {list(frame.columns)}")


def _families(frame: pd.DataFrame) -> list[str]:
    family = frame["family"]
    if isinstance(family.dtype, pd.CategoricalDtype):
        return [value for value in family.cat.categories if (family == value).any()]
    return list(dict.fromkeys(family))


def _panels(count: int, height: float) -> tuple[Figure, np.ndarray]:
    """Up to four panels in two columns, as wide as the text column; unused panels removed."""
    rows = max(1, -(-count // 2))
    columns = 1 if count == 1 else 2
    figure, axes = plt.subplots(
        rows, columns, figsize=(TEXT_WIDTH, height * rows), squeeze=False, layout="constrained"
    )
    flat = axes.ravel()
    for axis in flat[count:]:
        axis.remove()
    return figure, flat[:count]


def cutoff_figure(curves: pd.DataFrame, *, statistic: str, ylabel: str | None = None, title: str = "") -> Figure:
    """Draw ``statistic`` against the cut-off, one panel per family.

    Cut-offs are spaced evenly, labelled by value, as in the paper; the levels 1-5 of a family share
    colours and markers across panels, explained by one legend.

    Parameters
    ----------
    curves : pandas.DataFrame
        One row per (run, cut-off) with columns ``run``, ``family``, ``level``, ``cutoff`` and
        the statistic.
    statistic : str
        The column drawn.
    ylabel : str, optional
        The y axis label; default: ``statistic``.
    title : str, default ""
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    _require(curves, ["run", "family", "level", "cutoff", statistic], "cutoff_figure")
    families = _families(curves)
    cutoffs = sorted(curves["cutoff"].unique())
    positions = {cutoff: index for index, cutoff in enumerate(cutoffs)}
    levels = sorted(curves["level"].unique())
    figure, axes = _panels(len(families), 2.35)
    for axis, family in zip(axes, families, strict=False):
        part = curves[curves["family"] == family]
        for _, lines in part.groupby("run", sort=False):
            lines = lines.sort_values("cutoff")
            index = levels.index(lines["level"].iat[0]) % len(MARKERS)
            axis.plot(
                [positions[c] for c in lines["cutoff"]], lines[statistic],
                marker=MARKERS[index], color=PALETTE[index], label=str(lines["level"].iat[0]),
            )  # fmt: skip
        axis.set_xticks(range(len(cutoffs)), [str(c) for c in cutoffs])
        axis.set_title(str(family))
    for axis in axes[-2:]:
        axis.set_xlabel("cut-off k")
    for axis in axes[::2]:
        axis.set_ylabel(ylabel or statistic)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, title="level within the family", loc="outside lower center", ncol=len(labels))
    if title:
        figure.suptitle(title)
    return figure


def _limits(part: pd.DataFrame) -> tuple[float, float, float]:
    """x range (including 0 and 1) and the symmetric y half-range of one panel."""
    x_low, x_high = min(part["ER"].min(), 0.0) - 0.25, max(part["ER"].max(), 1.0) + 0.25
    y_span = max(np.abs(part["DeltaRI"]).max(), 0.05) * 1.25
    return x_low, x_high, y_span


def draw_regions(axis, x_low: float, x_high: float, y_span: float) -> None:
    """Draw axes through (0, 0) and the region numbers in the panel's corners.

    Parameters
    ----------
    axis : matplotlib.axes.Axes
        The panel.
    x_low, x_high : float
        The panel's x range.
    y_span : float
        The panel's y range, symmetric about 0.
    """
    axis.axhline(0.0, color=_GREY, linewidth=0.8)
    axis.axvline(0.0, color=_GREY, linewidth=0.8)
    corners = {1: (x_high, y_span), 2: (x_low, y_span), 3: (x_low, -y_span), 4: (x_high, -y_span)}
    for region, (x, y) in corners.items():
        axis.text(
            x, y, str(region), fontsize=MIN_FONT_PT + 1, fontweight="bold", color=_GREY,
            ha="right" if x > 0 else "left", va="top" if y > 0 else "bottom",
        )  # fmt: skip


def er_deltari_figure(points: pd.DataFrame, *, title: str = "") -> Figure:
    """ER (x) against DeltaRI (y), one panel per family, regions numbered and (1, 0) marked.

    Each point is annotated with its level (1-5) within the family; the region numbers are those
    of :data:`REGIONS`.

    Parameters
    ----------
    points : pandas.DataFrame
        One row per (run, measure) with columns ``family``, ``level``, ``measure``, ``ER``,
        ``DeltaRI``.
    title : str, default ""
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    _require(points, ["family", "level", "measure", "ER", "DeltaRI"], "er_deltari_figure")
    families = _families(points)
    figure, axes = _panels(len(families), 2.75)
    for axis, family in zip(axes, families, strict=False):
        part = points[points["family"] == family]
        x_low, x_high, y_span = _limits(part)
        axis.set_xlim(x_low, x_high)
        axis.set_ylim(-y_span, y_span)
        draw_regions(axis, x_low, x_high, y_span)
        for measure, (marker, colour) in _MEASURE_STYLE.items():
            chosen = part[part["measure"] == measure]
            if chosen.empty:
                continue
            axis.scatter(chosen["ER"], chosen["DeltaRI"], marker=marker, color=colour, label=measure, alpha=0.85, s=24)
            for _, point in chosen.iterrows():
                axis.annotate(str(point["level"]), (point["ER"], point["DeltaRI"]), fontsize=MIN_FONT_PT,
                              xytext=(3, 2), textcoords="offset points")  # fmt: skip
        axis.scatter([1.0], [0.0], marker="*", s=140, color="black", label="(1, 0)", zorder=3)
        axis.set_title(str(family))
    for axis in axes[-2:]:
        axis.set_xlabel("ER")
    for axis in axes[::2]:
        axis.set_ylabel("\u0394RI")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncol=len(labels))
    if title:
        figure.suptitle(title)
    return figure
