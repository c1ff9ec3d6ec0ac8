"""Figures of the report: panels, points and lines; pairs told apart by shape and line style."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from irrepro.plots.report import cutoff_figure, effect_figure


def _points() -> pd.DataFrame:
    rows = []
    for number in (1, 2, 3):
        for measure in ("AP", "P@10"):
            rows.append({"number": number, "measure": measure, "ER": 0.5 * number, "DeltaRI": 0.1 - 0.05 * number,
                         "ER_low": 0.5 * number - 0.2, "ER_high": 0.5 * number + 0.2, "DeltaRI_low": np.nan, "DeltaRI_high": np.nan})
    return pd.DataFrame(rows)


def test_effect_figure_has_a_panel_per_measure_with_every_pair():
    figure = effect_figure(_points())
    assert [axis.get_title() for axis in figure.axes] == ["AP", "P@10"]
    for axis in figure.axes:
        labels = [text.get_text() for text in axis.texts]
        assert {"1", "2", "3"} <= set(labels) and any(label.startswith("4: success") for label in labels)
        x_low, x_high = axis.get_xlim()
        assert x_low < 0 and x_high > 1  # the plane's axis and the perfect reproduction are shown
    plt.close(figure)


def test_cutoff_figure_has_a_row_per_run_and_a_distinct_line_per_pair():
    rows = [{"number": n, "pair": f"p{n}", "run": run, "cutoff": k, "KTU": 0.1 * n, "RBO": 0.2, "RMSE": 0.3}
            for n in range(1, 6) for run in ("baseline", "advanced") for k in (5, 10, 1000)]  # fmt: skip
    figure = cutoff_figure(pd.DataFrame(rows), labels={"RMSE": "RMSE of nDCG@k"})
    assert len(figure.axes) == 6 and figure.axes[2].get_title() == "RMSE of nDCG@k, baseline"
    lines = figure.axes[0].get_lines()
    assert len(lines) == 5
    styles = {(line.get_linestyle(), line.get_marker()) for line in lines}
    assert len(styles) == 5  # told apart without colour
    assert [tick.get_text() for tick in figure.axes[3].get_xticklabels()] == ["5", "10", "1000"]
    plt.close(figure)
