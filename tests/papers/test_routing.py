"""Tests of the routing-runs chapter's tables (irrepro.papers.routing) and figures (irrepro.plots.routing)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.figure import Figure

from irrepro.papers import routing as paper
from irrepro.plots import routing as plots


# --------------------------------------------------------------------------- section 1: real qrels


def test_topic_sets_match_the_paper():
    table = paper.topic_sets()
    got = {(t, r): n for t, r, n in zip(table["target"], table["training"], table["intersection"], strict=True)}
    assert got[("Core17", "Robust04")] == 50
    assert got[("Core17", "Robust05")] == 33
    assert got[("Core18", "Robust04")] == 25
    assert got[("Core18", "Robust05")] == 15
    assert got[("Core17", "Robust04 ∪ Robust05")] == 50  # complemented WCrobust0405
    assert got[("Core17 ∩ Core18", "Robust04 ∩ Robust05")] == 15
    printed = table.dropna(subset=["printed"])
    assert (printed["difference"] == 0).all()
    assert set(table["data"]) == {paper.TREC_DATA}


def test_common_topics_are_the_fifteen_of_the_figures():
    topics = paper.common_topics()
    assert len(topics) == 15
    assert topics[0] == "336" and topics[-1] == "439"


def test_official_scores_agree_with_the_sigir2020_files():
    table = paper.official_core17_scores()
    assert len(table) == 6
    assert (table["difference"].abs() < 1e-9).all()
    row = table[(table["system"] == "WCrobust0405") & (table["measure"] == "AP")].iloc[0]
    assert row["published"] == pytest.approx(0.4278)


# --------------------------------------------------------------------------- figures


def test_relevance_transfer_bars_are_in_decreasing_order():
    table = pd.DataFrame(
        {"target": ["A", "B", "C"], "training": ["B", "C", "A"], "MAP": [0.1, 0.3, 0.2], "topics": [5, 6, 7]}
    )
    figure = plots.relevance_transfer_bars(table)
    heights = [bar.get_height() for bar in figure.axes[0].patches]
    assert heights == sorted(heights, reverse=True)
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == ["B / C", "C / A", "A / B"]
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
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == ["2", "10"]  # numeric topic order
    plt.close(figure)
    sets = pd.DataFrame({"target": ["X", "X"], "training": ["a", "b"], "intersection": [3, 4]})
    figure = plots.topic_set_diagram(sets)
    assert sorted(t.get_text() for t in figure.axes[0].texts) == ["3", "4"]
    plt.close(figure)


def test_er_deltari_plane_draws_one_point_per_run():
    measures = pd.DataFrame({"ER": [1.0, 0.5], "DeltaRI": [0.0, 0.1], "label": ["a", "b"], "setting": ["x", "y"]})
    figure = plots.er_deltari_plane(measures)
    assert sum(len(c.get_offsets()) for c in figure.axes[0].collections) == 2
    plt.close(figure)


# --------------------------------------------------------------------------- command line


def test_write_tables_writes_csv_files(tmp_path):
    written = paper.write_tables(tmp_path)
    names = {p.name for p in written}
    assert "topic_sets.csv" in names
    assert all(p.is_file() for p in written)
    assert pd.read_csv(tmp_path / "topic_sets.csv")["intersection"].iloc[0] == 50
