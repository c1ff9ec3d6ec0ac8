"""The ratios as one figure: a horizontal bar per comparison, on a log scale, with 1 (the peer's cost) marked."""

from __future__ import annotations

import re
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from irrepro.plots.style import PALETTE, figure_size
from perf.comparison import Comparison

_STATISTIC = re.compile(r"\s*\([^)]*\)$")


def bar_label(comparison: Comparison) -> str:
    """Task and quantity without the statistic in brackets ("irrepro evaluate: peak memory"), the peer below."""
    return f"{comparison.task}: {_STATISTIC.sub('', comparison.quantity)}\nvs {comparison.peer}"


def ratio_text(ratio: float) -> str:
    """A ratio as written beside its bar: three significant digits, whole numbers from 100 on (``1,999``)."""
    return f"{ratio:,.0f}" if ratio >= 100 else f"{ratio:.3g}"


def ratio_figure(comparisons: Sequence[Comparison]):
    """Bars of ``peer / irrepro`` on a log axis, each from 1 to its ratio: right of the line at 1 irrepro
    needs less, left of it the peer does."""
    ratios = np.array([c.ratio for c in comparisons])
    rows = np.arange(len(comparisons))[::-1]  # first comparison on top
    fig, ax = plt.subplots(figsize=figure_size(1.0, aspect=0.1 * len(comparisons) + 0.2))
    colours = [PALETTE[0] if r >= 1 else PALETTE[1] for r in ratios]
    ax.barh(rows, ratios - 1.0, left=1.0, color=colours, height=0.6)
    ax.set_xscale("log")
    # 0.1, 1, 10, 1,000 rather than powers of ten, whose exponents would be set below the book's 9 pt
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,g}"))
    # room for the numbers written beyond the bars' ends, on both sides
    ax.set_xlim(min(ratios.min(), 1.0) / 8, max(ratios.max(), 1.0) * 8)
    ax.axvline(1.0, color="black", linewidth=1.2)
    ax.text(1.08, rows.max() + 0.5, "1: the peer's cost", va="bottom", ha="left", fontsize=9)
    for row, ratio in zip(rows, ratios, strict=True):
        right = ratio >= 1
        ax.text(ratio * (1.1 if right else 1 / 1.1), row, ratio_text(ratio), va="center", ha="left" if right else "right", fontsize=9)
    ax.set_yticks(rows, [bar_label(c) for c in comparisons], fontsize=9)
    ax.set_ylim(-0.6, rows.max() + 1.2)
    ax.set_xlabel("ratio peer / irrepro (log scale; > 1: irrepro needs less)")
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig
