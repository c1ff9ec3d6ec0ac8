"""The ratios as a figure: one bar per comparison from 1 to its ratio, on a log axis, 1 marked."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from perf.comparison import Comparison
from perf.figure import bar_label, ratio_figure, ratio_text


@pytest.fixture
def comparisons():
    return [
        Comparison("irrepro evaluate", "peak memory (median of 3)", "ir_measures 0.4.3", 120.0, 90.0, "MiB", "300 lines"),
        Comparison("GLM fit", "time (median of 3, statsmodels 1 fit)", "statsmodels", 0.002, 5.0, "s", "Robust04"),
    ]


def test_a_label_drops_the_statistic_and_names_the_peer(comparisons):
    assert bar_label(comparisons[0]) == "irrepro evaluate: peak memory\nvs ir_measures 0.4.3"
    assert bar_label(comparisons[1]) == "GLM fit: time\nvs statsmodels"


@pytest.mark.parametrize(("ratio", "text"), [(0.61634, "0.616"), (4.8512, "4.85"), (99.94, "99.9"), (1998.87, "1,999")])
def test_a_ratio_is_written_without_an_exponent(ratio, text):
    assert ratio_text(ratio) == text


def test_each_bar_runs_from_one_to_its_ratio_on_a_log_axis(comparisons):
    figure = ratio_figure(comparisons)
    try:
        (axes,) = figure.axes
        assert axes.get_xscale() == "log"
        bars = sorted(axes.patches, key=lambda bar: -bar.get_y())  # the first comparison on top
        ends = [(bar.get_x(), bar.get_x() + bar.get_width()) for bar in bars]
        assert ends == [(1.0, pytest.approx(0.75)), (1.0, pytest.approx(2500.0))]
        assert any(list(line.get_xdata()) == [1.0, 1.0] for line in axes.lines)
        labelled = sorted(zip(axes.get_yticks(), axes.get_yticklabels(), strict=True), key=lambda tick: -tick[0])
        assert [label.get_text() for _, label in labelled] == [bar_label(c) for c in comparisons]
        low, high = axes.get_xlim()
        assert low < 0.75 and high > 2500.0
        assert sorted(text.get_text() for text in axes.texts) == sorted(["1: the peer's cost", "0.75", "2,500"])
        figure.canvas.draw()
        shown = [label.get_text() for label in axes.get_xticklabels() if label.get_text()]
        assert "1" in shown and "1,000" in shown and not any("$" in text for text in shown)  # no exponents
    finally:
        plt.close(figure)
