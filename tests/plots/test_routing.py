"""The routing chapter's figures (irrepro.plots.routing)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.figure import Figure

from irrepro.plots import routing as plots


def test_relevance_transfer_bars_are_in_decreasing_order_from_the_top():
    table = pd.DataFrame(
        {"target": ["A", "B", "C"], "training": ["B", "C", "A"], "MAP": [0.1, 0.3, 0.2], "topics": [5, 6, 7]}
    )
    figure = plots.relevance_transfer_bars(table)
    axis = figure.axes[0]
    lengths = [bar.get_width() for bar in axis.patches]
    assert lengths == sorted(lengths, reverse=True)
    assert [t.get_text() for t in axis.get_yticklabels()] == ["B / C", "C / A", "A / B"]
    assert axis.yaxis_inverted()  # the first (highest) bar is drawn at the top
    plt.close(figure)


def test_figures_reject_missing_columns():
    with pytest.raises(ValueError, match="MAP"):
        plots.relevance_transfer_bars(pd.DataFrame({"target": [], "training": [], "topics": []}))
    with pytest.raises(ValueError, match="AP"):
        plots.per_topic_ap_bars(pd.DataFrame({"target": [], "system": [], "topic": []}))


def test_per_topic_and_topic_set_figures_draw():
    per_topic = pd.DataFrame(
        {
            "target": ["near"] * 4 + ["far"] * 4,
            "system": ["WCrobust04", "WCrobust04", "WCrobust0405", "WCrobust0405"] * 2,
            "topic": ["2", "10"] * 4,
            "AP": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
        }
    )
    figure = plots.per_topic_ap_bars(per_topic)
    assert isinstance(figure, Figure) and len(figure.axes) == 2
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["2", "10"]  # numeric topic order
    plt.close(figure)
    sets = pd.DataFrame({"target": ["X", "X"], "training": ["a", "b"], "intersection": [3, 4]})
    figure = plots.topic_set_diagram(sets)
    assert sorted(t.get_text() for t in figure.axes[0].texts) == ["3", "4"]
    plt.close(figure)
