"""Figures of the reproducibility measures: structure, not pixels."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from irrepro.plots.reproducibility import REGIONS, cutoff_figure, er_deltari_figure


def _curves() -> pd.DataFrame:
    rows = []
    for family in ("tf", "C"):
        for level in (1, 2):
            for cutoff in (5, 10, 1000):
                rows.append(
                    {"run": f"rpl_{family}_{level}", "family": family, "level": level, "cutoff": cutoff, "KTU": 0.1 * level}
                )
    return pd.DataFrame(rows)


def _points() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "family": ["tf", "tf", "df"],
            "level": [1, 2, 1],
            "measure": ["AP", "nDCG", "P@10"],
            "ER": [0.9, 1.2, -0.5],
            "DeltaRI": [0.01, -0.02, 0.3],
        }
    )


def test_cutoff_figure_has_one_panel_per_family_and_one_line_per_run():
    figure = cutoff_figure(_curves(), statistic="KTU")
    assert [axis.get_title() for axis in figure.axes] == ["tf", "C"]
    assert all(len(axis.get_lines()) == 2 for axis in figure.axes)
    assert [tick.get_text() for tick in figure.axes[0].get_xticklabels()] == ["5", "10", "1000"]
    # the levels share one legend across panels
    assert [text.get_text() for text in figure.legends[0].get_texts()] == ["1", "2"]
    plt.close(figure)


def test_er_deltari_figure_marks_the_perfect_point_and_labels_regions():
    figure = er_deltari_figure(_points())
    assert [axis.get_title() for axis in figure.axes] == ["tf", "df"]
    for axis in figure.axes:
        texts = {text.get_text() for text in axis.texts}
        assert {str(region) for region in REGIONS} <= texts
        offsets = [tuple(collection.get_offsets()[0]) for collection in axis.collections]
        assert (1.0, 0.0) in offsets
        # every point is inside the drawn area
        x_low, x_high = axis.get_xlim()
        y_low, y_high = axis.get_ylim()
        for x, y in offsets:
            assert x_low < x < x_high and y_low < y < y_high
    plt.close(figure)


def test_missing_columns_raise():
    with pytest.raises(ValueError, match="missing columns"):
        cutoff_figure(_curves(), statistic="RBO")
    with pytest.raises(ValueError, match="missing columns"):
        er_deltari_figure(_points().drop(columns="DeltaRI"))
