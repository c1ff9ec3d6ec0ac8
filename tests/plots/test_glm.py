"""The GLM chapter's figures: panel grids that fit the text column (2 x 2, three links to a row)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from irrepro.glm.links import LINK_NAMES
from irrepro.plots import glm
from irrepro.plots.style import TEXT_WIDTH


def _grid(figure) -> list[tuple[int, int]]:
    return sorted({(axis.get_subplotspec().rowspan.start, axis.get_subplotspec().colspan.start) for axis in figure.axes})


def test_four_mean_variance_panels_are_a_two_by_two_grid():
    table = pd.DataFrame({"mean": [0.2, 0.3], "variance": [0.01, 0.02]})
    figure = glm.mean_variance_figure({name: table for name in "abcd"})
    assert _grid(figure) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert figure.get_size_inches()[0] <= TEXT_WIDTH
    three = glm.mean_variance_figure({name: table for name in "abc"})
    assert len(three.axes) == 3 and _grid(three)[-1] == (1, 0)
    plt.close("all")


def test_seven_links_fill_three_rows_of_three():
    rng = np.random.default_rng(0)
    residuals = pd.DataFrame(
        [{"link": link, "pearson": value, "fitted": 0.5, "observed": 0.5} for link in LINK_NAMES for value in rng.normal(size=20)]
    )
    for figure in (glm.qq_figure(residuals, links=list(LINK_NAMES)), glm.fitted_observed_figure(residuals, links=list(LINK_NAMES))):
        assert len(figure.axes) == 7 and max(column for _, column in _grid(figure)) == 2
        assert max(row for row, _ in _grid(figure)) == 2 and figure.get_size_inches()[0] <= TEXT_WIDTH
    plt.close("all")
