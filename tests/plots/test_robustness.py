"""Figures of conclusions under topic resampling: one bar per conclusion, grouped by section; ssd pairs by stability."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle

from irrepro.plots.robustness import STATUS_STYLES, as_shown, conclusions_figure, ssd_stability_figure
from irrepro.plots.style import TEXT_WIDTH


def conclusions() -> pd.DataFrame:
    return pd.DataFrame({
        "section": ["5.1", "5.1", "5.2", "5.3"], "label": ["a holds", "b fragile", "c fails", "d fails, fragile"],
        "share holding": [1.0, 0.6, 0.01, 0.3], "holds on all topics": [True, True, False, False],
        "status": ["stable", "fragile", "stable", "fragile"], "resamples": [1000] * 4,
    })  # fmt: skip


def ssd_summary() -> pd.DataFrame:
    return pd.DataFrame({
        "collection": ["Robust04", "Core18"], "measure": ["AP", "AP"], "outliers_removed": [False, True],
        "link": ["logit", "identity"], "resamples": [200, 1000], "ssd pairs": [100, 40], "stable": [80, 10],
        "borderline": [0, 0], "kept by most": [15, 30], "kept by few": [5, 0],
    })  # fmt: skip


def _bars(axis) -> list[Rectangle]:
    return [patch for patch in axis.patches if isinstance(patch, Rectangle) and patch.get_width() > 0]


def test_one_bar_per_conclusion_as_long_as_its_share_under_its_section():
    figure = conclusions_figure(conclusions(), sections={"5.1": "Replicability"})
    axis = figure.axes[0]
    assert sorted(round(bar.get_width(), 6) for bar in _bars(axis)) == [0.01, 0.3, 0.6, 1.0]
    ticks = sorted(zip(axis.get_yticks(), [t.get_text() for t in axis.get_yticklabels()], strict=True), reverse=True)
    assert [label for _, label in ticks] == ["a holds", "b fragile", "c fails", "d fails, fragile"]  # top to bottom
    texts = {t.get_text() for t in axis.texts}
    assert {"Replicability", "Section 5.2", "Section 5.3", "60%", "1%"} <= texts
    legend = [t.get_text() for t in figure.legends[0].get_texts()]
    present = [STATUS_STYLES[key][0] for key in STATUS_STYLES if key[1] != "borderline"]  # the toy table has none
    assert present == legend[:4] and "5% and 95%" in legend[4] and "borderline" in legend[4]
    assert figure.get_figwidth() <= TEXT_WIDTH
    with pytest.raises(ValueError, match="missing columns"):
        conclusions_figure(conclusions().drop(columns="status"))
    plt.close("all")


def test_ssd_bars_stack_the_stable_the_mostly_kept_and_the_rarely_kept_to_one():
    figure = ssd_stability_figure(ssd_summary(), stable_share=0.9)
    axis = figure.axes[0]
    widths = {}
    for bar in _bars(axis):
        widths.setdefault(round(bar.get_y(), 6), []).append(bar.get_width())
    assert sorted(np.round(sum(w), 9) for w in widths.values()) == [1.0, 1.0]
    ticks = sorted(zip(axis.get_yticks(), [t.get_text() for t in axis.get_yticklabels()], strict=True), reverse=True)
    assert [label for _, label in ticks] == ["Robust04 AP · logit", "Core18 w/o outliers AP · identity"]
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["\u2265 90%", "about 90%", "50\u201390%", "< 50%"]
    assert {"100 (200)", "40 (1,000)"} <= {t.get_text() for t in axis.texts}
    with pytest.raises(ValueError, match="missing columns"):
        ssd_stability_figure(ssd_summary().drop(columns="kept by few"))
    plt.close("all")


def test_as_shown_writes_each_number_with_its_interval():
    table = conclusions().assign(statistic=["count", "tau", "p", "x"], **{
        "on all topics": [40.0, 0.28816, 0.0054573, float("nan")], "low": [33.0, 0.0204, 3.6e-06, 1.0],
        "high": [40.0, 0.36335, 0.45, 2.0]})  # fmt: skip
    shown = as_shown(table, level=0.9)
    assert list(shown["on all topics"]) == ["holds", "holds", "fails", "fails"]
    assert shown["holds in % of resamples"].tolist() == [100.0, 60.0, 1.0, 30.0]
    assert shown["value on all topics [90% interval]"].tolist() == [
        "40 [33, 40]", "0.288 [0.0204, 0.363]", "0.00546 [3.6e-06, 0.45]", "\u2013 [1, 2]"]
