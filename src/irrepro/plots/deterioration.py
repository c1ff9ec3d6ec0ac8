"""Figures of the reproducibility measures under controlled deterioration (:mod:`irrepro.papers.ipm2023`).

:func:`response_figure`: for each mode (a row), each statistic against the number of documents swapped
per topic, one line per share of topics deteriorated. The figure computes nothing; it sizes itself to
the text column (:mod:`irrepro.plots.style`).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from irrepro.plots.style import MARKERS, PALETTE, TEXT_WIDTH

__all__ = ["PANELS", "response_figure"]

#: The panels: (statistic, measure or None where the statistic is of the ranked lists).
PANELS: tuple[tuple[str, str | None], ...] = (("KTU", None), ("RBO", None), ("nRMSE", "AP"), ("nRMSE", "P@10"))


def response_figure(means: pd.DataFrame, *, panels: Sequence[tuple[str, str | None]] = PANELS) -> Figure:
    """Each statistic against the swaps per topic, one line per share of topics, a row per mode.

    Parameters
    ----------
    means : pandas.DataFrame
        :func:`irrepro.papers.ipm2023.grid.mean_over_seeds`: columns ``mode``, ``swaps``,
        ``replacements``, ``topics share``, ``measure`` and the statistics.
    panels : sequence of (str, str or None), default PANELS
        The columns: a statistic and the effectiveness measure it is of (None: the first measure's
        rows, for KTU and RBO, which do not depend on it).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    swaps = means[means["replacements"] == 0]
    modes = list(dict.fromkeys(swaps["mode"]))
    first = swaps["measure"].iloc[0]
    figure, axes = plt.subplots(len(modes), len(panels), figsize=(TEXT_WIDTH, 1.9 * len(modes) + 0.8),
                                layout="constrained", sharex=True, squeeze=False)  # fmt: skip
    shares = sorted(set(swaps["topics share"]))
    for row, mode in enumerate(modes):
        for column, (statistic, measure) in enumerate(panels):
            axis = axes[row, column]
            part = swaps[(swaps["mode"] == mode) & (swaps["measure"] == (measure or first))]
            for index, share in enumerate(shares):
                line = part[part["topics share"] == share].sort_values("swaps")
                axis.plot(line["swaps"], line[statistic], color=PALETTE[index], marker=MARKERS[index],
                          label=f"{share:.0%} of topics")  # fmt: skip
            axis.set_title(f"{statistic}" + (f" of {measure}" if measure else ""), fontsize=9)
            if column == 0:
                axis.set_ylabel(f"{mode} mode")
            axis.set_xticks(sorted(set(swaps["swaps"])))
            if row == len(modes) - 1:
                axis.set_xlabel("swaps per topic")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncol=len(shares), title="deteriorated")
    return figure
