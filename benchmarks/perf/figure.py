"""The ratios as one figure: a horizontal bar per comparison, on a log scale, with 1 (the peer's cost) marked."""

from __future__ import annotations

import re
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from irrepro.plots.style import PALETTE, figure_size
from perf.comparison import Comparison

_STATISTIC = re.compile(r"\s*\([^)]*\)$")


def bar_label(comparison: Comparison) -> str:
    """The measure without its statistic in brackets ("irrepro evaluate: peak memory"), the peer on a second line."""
    return f"{_STATISTIC.sub('', comparison.measure)}\nvs {comparison.peer}"


def ratio_figure(comparisons: Sequence[Comparison]):
    """Bars of ``peer / irrepro`` on a log axis; right of the line at 1 irrepro needs less, left the peer does."""
    ratios = np.array([c.ratio for c in comparisons])
    rows = np.arange(len(comparisons))[::-1]  # first comparison on top
    fig, ax = plt.subplots(figsize=figure_size(1.0, aspect=0.14 * len(comparisons) + 0.15))
    colours = [PALETTE[0] if r >= 1 else PALETTE[1] for r in ratios]
    ax.barh(rows, ratios - 1.0, left=1.0, color=colours, height=0.6)  # from 1 (the peer) to the ratio
    ax.set_xscale("log")
    low, high = min(ratios.min(), 1.0) / 2, max(ratios.max(), 1.0) * 4
    ax.set_xlim(low, high)
    ax.axvline(1.0, color="black", linewidth=1.2)
    ax.text(1.0, rows.max() + 0.55, " 1: same cost as the peer", va="bottom", ha="left", fontsize=9)
    for row, ratio in zip(rows, ratios, strict=True):
        right = ratio >= 1
        ax.text(ratio * (1.08 if right else 1 / 1.08), row, f"{ratio:,.3g}", va="center", ha="left" if right else "right", fontsize=9)
    ax.set_yticks(rows, [bar_label(c) for c in comparisons], fontsize=9)
    ax.set_ylim(-0.6, rows.max() + 1.1)
    ax.set_xlabel("ratio peer / irrepro (log scale); > 1: irrepro is faster or uses less memory")
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig
