"""Figure 3 side by side: the panels of each family in both versions, from small hand-made points."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from irrepro.plots.figure3 import figure3_side_by_side


def _points() -> pd.DataFrame:
    rows = [("current", "tf", 1, "AP", 1.2, -0.3), ("current", "tf", 1, "nDCG", 2.0, -0.2),
            ("current", "df", 1, "AP", 0.7, -0.05), ("old", "tf", 1, "AP", 0.08, 0.12), ("old", "df", 1, "AP", -0.2, 0.2)]
    return pd.DataFrame(rows, columns=["version", "family", "level", "measure", "ER", "DeltaRI"])  # fmt: skip


def test_one_panel_per_family_and_version_with_the_measures_of_both():
    figure = figure3_side_by_side(_points(), families=("df", "tf"), title="t")
    titles = [axis.get_title() for axis in figure.axes]
    assert titles == ["df · published files", "df · earlier AP file", "tf · published files", "tf · earlier AP file"]
    tf_current = figure.axes[2]
    plotted = sum(len(collection.get_offsets()) for collection in tf_current.collections)
    assert plotted == 1 + 1  # the AP point and the (1, 0) star; nDCG has no earlier version, so it is left out
    plt.close(figure)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="missing columns"):
        figure3_side_by_side(_points().drop(columns="version"))
    with pytest.raises(ValueError, match="no points of families"):
        figure3_side_by_side(_points(), families=("tol",))
    with pytest.raises(ValueError, match="unknown versions"):
        figure3_side_by_side(_points().replace({"version": {"old": "older"}}))


def test_two_versions_one_panel_each_on_shared_axes_with_every_family():
    from irrepro.plots.figure3 import figure3_two_versions

    figure = figure3_two_versions(_points(), measure="AP")
    left, right = figure.axes[:2]
    assert [axis.get_title() for axis in (left, right)] == ["published files (AP)", "earlier AP file (AP)"]
    assert left.get_xlim() == right.get_xlim() and left.get_ylim() == right.get_ylim()
    assert left.get_yscale() == "symlog"
    for axis, expected in ((left, 2), (right, 2)):  # tf and df AP points of each version
        points = sum(len(c.get_offsets()) for c in axis.collections) - 1  # minus the (1, 0) star
        assert points == expected
    labels = [text.get_text() for text in figure.legends[0].get_texts()]
    assert labels == ["tf", "df", "(1, 0)"]
    plt.close(figure)


def test_two_versions_needs_the_measure_in_every_version():
    from irrepro.plots.figure3 import figure3_two_versions

    with pytest.raises(ValueError, match="no points in every version"):
        figure3_two_versions(_points(), measure="nDCG")
