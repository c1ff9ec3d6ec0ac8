"""The response figure: a row per mode, a panel per statistic, a line per share, within the text column."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd

from irrepro.plots.deterioration import PANELS, response_figure
from irrepro.plots.style import TEXT_WIDTH


def test_one_line_per_share_in_every_panel():
    rows = [
        {"mode": mode, "swaps": swaps, "replacements": 0, "topics share": share, "measure": measure,
         "KTU": 1 - 0.01 * swaps, "RBO": 1 - 0.02 * swaps, "nRMSE": 0.01 * swaps * share}
        for mode in ("worse", "better") for swaps in (1, 2, 4) for share in (0.2, 1.0) for measure in ("AP", "P@10")
    ]  # fmt: skip
    figure = response_figure(pd.DataFrame(rows))
    assert len(figure.axes) == 2 * len(PANELS) and figure.get_figwidth() <= TEXT_WIDTH
    assert all(len(axis.get_lines()) == 2 for axis in figure.axes)
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["20% of topics", "100% of topics"]
