"""Figures of ``irrepro report``: the paper's Figures 1 and 2 for the user's own run pairs.

- :func:`effect_figure`: ER (x) against DeltaRI (y), one panel per measure, every pair a numbered
  point with its bootstrap intervals as error bars, the four regions labelled and the perfect
  reproduction (1, 0) starred (Breuer et al., SIGIR 2020, Figure 2).
- :func:`cutoff_figure`: mean KTU, mean RBO and RMSE of nDCG@k against the cut-off k, one row of
  panels per run (baseline, advanced), one line per pair (Figure 1).

Readable in greyscale: measures differ by marker shape, pairs by marker shape and line style, not
by colour alone. Both take long frames and compute nothing themselves.
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from irrepro.plots.reproducibility import REGIONS

__all__ = ["MEASURE_MARKERS", "cutoff_figure", "effect_figure"]

MEASURE_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")
_PAIR_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")
_LINE_STYLES = ("-", "--", ":", "-.")
_GREY = "#555555"


def _require(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{what}: missing columns {missing}; got {list(frame.columns)}")


def _limits(values: pd.Series, must_include: float, margin: float) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    low = min(finite.min() if len(finite) else must_include, must_include)
    high = max(finite.max() if len(finite) else must_include, must_include)
    return low - margin, high + margin


def _effect_panel(axis, part: pd.DataFrame, marker: str, limits) -> None:
    (x_low, x_high), (y_low, y_high) = limits
    axis.set_xlim(x_low, x_high)
    axis.set_ylim(y_low, y_high)
    axis.axhline(0.0, color=_GREY, linewidth=0.8)
    axis.axvline(0.0, color=_GREY, linewidth=0.8)
    corners = {1: (x_high, y_high), 2: (x_low, y_high), 3: (x_low, y_low), 4: (x_high, y_low)}
    for number, (x, y) in corners.items():
        axis.text(x, y, textwrap.fill(f"{number}: {REGIONS[number]}", 24), fontsize="xx-small", color="#333333",
                  ha="right" if number in (1, 4) else "left", va="top" if number in (1, 2) else "bottom")  # fmt: skip
    xerr = np.abs(np.vstack([part["ER"] - part["ER_low"], part["ER_high"] - part["ER"]]))
    yerr = np.abs(np.vstack([part["DeltaRI"] - part["DeltaRI_low"], part["DeltaRI_high"] - part["DeltaRI"]]))
    axis.errorbar(part["ER"], part["DeltaRI"], xerr=np.nan_to_num(xerr), yerr=np.nan_to_num(yerr), fmt="none",
                  ecolor="#b0b0b0", elinewidth=0.7, capsize=2.5)  # fmt: skip
    axis.scatter(part["ER"], part["DeltaRI"], marker=marker, s=28, facecolor="white", edgecolor="black", zorder=3)
    for _, point in part.iterrows():
        axis.annotate(str(point["number"]), (point["ER"], point["DeltaRI"]), fontsize="x-small",
                      xytext=(3, 3), textcoords="offset points")  # fmt: skip
    axis.scatter([1.0], [0.0], marker="*", s=150, facecolor="#c8c8c8", edgecolor="black", linewidth=0.8, zorder=2)  # under the points
    axis.set_xlabel("ER")
    axis.grid(alpha=0.3)


def effect_figure(points: pd.DataFrame) -> Figure:
    """ER against DeltaRI, one panel per measure (in order of appearance).

    Axes span the point estimates, (1, 0) and a margin; longer error bars are cut at the panel's edge.

    Parameters
    ----------
    points : pandas.DataFrame
        One row per (pair, measure) with ``number`` (the pair's label), ``measure``, ``ER``,
        ``DeltaRI`` and the interval bounds ``ER_low``, ``ER_high``, ``DeltaRI_low``,
        ``DeltaRI_high`` (NaN: no interval).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    _require(points, ["number", "measure", "ER", "DeltaRI", "ER_low", "ER_high", "DeltaRI_low", "DeltaRI_high"], "effect_figure")
    measures = list(dict.fromkeys(points["measure"]))
    shown = points[np.isfinite(points["ER"]) & np.isfinite(points["DeltaRI"])]
    x_span = _limits(shown["ER"], 1.0, 0.0)
    y_span = _limits(shown["DeltaRI"], 0.0, 0.0)
    x_margin = 0.15 * max(x_span[1] - x_span[0], 1.0)
    y_margin = 0.2 * max(y_span[1] - y_span[0], 0.1)
    limits = ((min(x_span[0], 0.0) - x_margin, x_span[1] + x_margin), (y_span[0] - y_margin, y_span[1] + y_margin))
    figure, axes = plt.subplots(1, len(measures), figsize=(3.3 * len(measures), 3.5), sharey=True, squeeze=False)
    for axis, measure, marker in zip(axes[0], measures, itertools.cycle(MEASURE_MARKERS)):
        _effect_panel(axis, shown[shown["measure"] == measure], marker, limits)
        axis.set_title(measure)
    axes[0][0].set_ylabel("\u0394RI")
    figure.tight_layout()
    return figure


def cutoff_figure(
    curves: pd.DataFrame,
    *,
    statistics: Sequence[str] = ("KTU", "RBO", "RMSE"),
    labels: Mapping[str, str] | None = None,
) -> Figure:
    """Each statistic against the cut-off, rows of panels per run (``run`` column), a line per pair.

    Cut-offs are spaced evenly and labelled by value, as in the paper.

    Parameters
    ----------
    curves : pandas.DataFrame
        One row per (pair, run, cut-off) with ``number``, ``pair``, ``run``, ``cutoff`` and the
        statistics.
    statistics : sequence of str, default ("KTU", "RBO", "RMSE")
        The statistics drawn, one panel column each.
    labels : mapping of str -> str, optional
        A statistic -> its axis label.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    _require(curves, ["number", "pair", "run", "cutoff", *statistics], "cutoff_figure")
    labels = dict(labels or {})
    runs = list(dict.fromkeys(curves["run"]))
    cutoffs = sorted(curves["cutoff"].unique())
    position = {cutoff: index for index, cutoff in enumerate(cutoffs)}
    pairs = list(dict.fromkeys(zip(curves["number"], curves["pair"], strict=True)))
    colours = plt.get_cmap("viridis")(np.linspace(0.0, 0.85, max(len(pairs), 1)))
    figure, axes = plt.subplots(len(runs), len(statistics), figsize=(3.0 * len(statistics) + 1.8, 2.5 * len(runs)),
                                sharex=True, squeeze=False)  # fmt: skip
    for row, run in enumerate(runs):
        for column, statistic in enumerate(statistics):
            axis = axes[row][column]
            for (number, pair), (line, marker), colour in zip(pairs, map(_pair_style, range(len(pairs))), colours, strict=True):
                part = curves[(curves["run"] == run) & (curves["number"] == number)].sort_values("cutoff")
                axis.plot([position[c] for c in part["cutoff"]], part[statistic], linestyle=line, marker=marker,
                          markersize=4, linewidth=1.1, color=colour, label=f"{number}: {pair}".replace("$", r"\$"))  # fmt: skip
            axis.set_xticks(range(len(cutoffs)), [str(c) for c in cutoffs])
            axis.grid(alpha=0.3)
            axis.set_title(f"{labels.get(statistic, statistic)}, {run}", fontsize="small")
            if row == len(runs) - 1:
                axis.set_xlabel("cut-off")
    handles, names = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, names, loc="center right", fontsize="x-small", frameon=False)
    figure.tight_layout(rect=(0, 0, 1 - 1.8 / (3.0 * len(statistics) + 1.8), 1))
    return figure


def _pair_style(i: int) -> tuple[str, str]:
    """Line style and marker of the i-th pair: the (4 x 10) combinations repeat only after 20 pairs."""
    return _LINE_STYLES[i % len(_LINE_STYLES)], _PAIR_MARKERS[i % len(_PAIR_MARKERS)]
