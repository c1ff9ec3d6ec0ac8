"""Figures of the GLM chapter: mean-variance, residual QQ plots, fitted vs observed, system effects.

Each function takes the tables of :mod:`irrepro.papers.glm` and returns a matplotlib ``Figure`` as
wide as the book's text column (:mod:`irrepro.plots.style`): one panel per link in a grid of three
columns, so seven links fit the page at a legible size; the mean-variance panels in a 2 x 2 grid. Clouds of many thousand points are rasterised (the axes, labels
and text stay vector), which keeps the SVG small.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from irrepro.plots.style import PALETTE, TEXT_WIDTH

__all__ = ["mean_variance_figure", "qq_figure", "fitted_observed_figure", "system_effects_figure"]

_GREY = "#555555"
_PANELS_PER_ROW = 3


def _link_grid(links: list[str], *, panel_height: float) -> tuple[Figure, list]:
    """One panel per link, four to a row, shared axes; unused panels removed."""
    rows = -(-len(links) // _PANELS_PER_ROW)
    columns = min(len(links), _PANELS_PER_ROW)
    figure, axes = plt.subplots(
        rows, columns, figsize=(TEXT_WIDTH, panel_height * rows), sharex=True, sharey=True, squeeze=False,
        layout="constrained",
    )  # fmt: skip
    flat = list(axes.ravel())
    for axis in flat[len(links):]:
        axis.remove()
    for index, axis in enumerate(flat[: len(links)]):
        below = index + columns
        if below < len(links):  # another panel below shows the x tick labels
            axis.tick_params(labelbottom=False)
    return figure, flat[: len(links)]


def mean_variance_figure(tables: dict[str, pd.DataFrame]) -> Figure:
    """Per-system variance against mean, one panel per table, two panels to a row (2 x 2 for four tables).

    The curve mu (1 - mu) / 4 marks a binomial-like variance; the identity model assumes a constant one.

    Parameters
    ----------
    tables : dict of str -> pandas.DataFrame
        Panel label -> table with columns ``mean`` and ``variance``, one row per system.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    rows = -(-len(tables) // 2)
    columns = min(len(tables), 2)
    figure, axes = plt.subplots(
        rows, columns, figsize=(TEXT_WIDTH, 2.6 * rows), squeeze=False, layout="constrained"
    )
    flat = list(axes.ravel())
    for axis in flat[len(tables):]:
        axis.remove()
    grid = np.linspace(0, 1, 101)
    for index, (axis, (label, table)) in enumerate(zip(flat, tables.items(), strict=False)):
        axis.scatter(table["mean"], table["variance"], s=10, alpha=0.7, color=PALETTE[0])
        axis.plot(grid, grid * (1 - grid) / 4, color=_GREY, lw=1, ls="--", marker="", label="\u03bc(1\u2212\u03bc)/4")
        axis.set_xlim(0, max(0.05, float(table["mean"].max()) * 1.1))
        axis.set_title(label)
        if index >= len(tables) - columns:
            axis.set_xlabel("system mean")
        if index % columns == 0:
            axis.set_ylabel("variance over topics")
    flat[0].legend(loc="upper left")
    return figure


def qq_figure(residuals: pd.DataFrame, *, links: list[str]) -> Figure:
    """Normal QQ plots of the standardised (Pearson) residuals, one panel per link.

    Parameters
    ----------
    residuals : pandas.DataFrame
        Columns ``link`` and ``pearson``, one row per score.
    links : list of str
        The links drawn, in panel order.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    figure, axes = _link_grid(links, panel_height=1.75)
    for index, (axis, link) in enumerate(zip(axes, links, strict=False)):
        values = np.sort(residuals.loc[residuals["link"] == link, "pearson"].to_numpy())
        quantiles = stats.norm.ppf((np.arange(1, values.size + 1) - 0.5) / values.size)
        axis.plot(quantiles, values, ".", ms=2, alpha=0.5, color=PALETTE[0], rasterized=True)
        axis.plot(quantiles, quantiles, color=_GREY, lw=1, marker="")
        axis.set_title(link)
        if index % _PANELS_PER_ROW == 0:
            axis.set_ylabel("Pearson residual")
    for axis in axes[-_PANELS_PER_ROW:]:
        axis.set_xlabel("normal quantile")
    return figure


def fitted_observed_figure(residuals: pd.DataFrame, *, links: list[str]) -> Figure:
    """Observed scores against fitted means, one panel per link (the diagonal is a perfect fit).

    Parameters
    ----------
    residuals : pandas.DataFrame
        Columns ``link``, ``fitted`` and ``observed``, one row per score.
    links : list of str
        The links drawn, in panel order.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    figure, axes = _link_grid(links, panel_height=1.75)
    for index, (axis, link) in enumerate(zip(axes, links, strict=False)):
        part = residuals.loc[residuals["link"] == link]
        axis.plot(part["fitted"], part["observed"], ".", ms=2, alpha=0.3, color=PALETTE[0], rasterized=True)
        axis.plot([0, 1], [0, 1], color=_GREY, lw=1, marker="")
        axis.set_title(link)
        if index % _PANELS_PER_ROW == 0:
            axis.set_ylabel("observed score")
    for axis in axes[-_PANELS_PER_ROW:]:
        axis.set_xlabel("fitted mean")
    return figure


def system_effects_figure(effects: pd.DataFrame, *, order_by: str | None = None) -> Figure:
    """Centred system effects with intervals, one panel per link, systems in the order of ``order_by``.

    Parameters
    ----------
    effects : pandas.DataFrame
        Columns ``link``, ``system``, ``effect``, ``lower`` and ``upper``.
    order_by : str, optional
        The link whose effects order the systems; default: the first link.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    links = list(dict.fromkeys(effects["link"]))
    reference = effects.loc[effects["link"] == (order_by or links[0])].sort_values("effect")
    order = {system: rank for rank, system in enumerate(reference["system"])}
    figure, axes = plt.subplots(
        1, len(links), figsize=(TEXT_WIDTH, 1.5 + 0.045 * len(order)), sharey=True, squeeze=False,
        layout="constrained",
    )  # fmt: skip
    for axis, link in zip(axes[0], links, strict=False):
        part = effects.loc[effects["link"] == link]
        rank = part["system"].map(order).to_numpy()
        axis.errorbar(
            part["effect"], rank, xerr=[part["effect"] - part["lower"], part["upper"] - part["effect"]],
            fmt="o", ms=2.5, elinewidth=0.8, color=PALETTE[0],
        )  # fmt: skip
        axis.axvline(0, color=_GREY, lw=0.8)
        axis.set_title(f"{link} link")
        axis.set_xlabel("centred effect, 95% interval")
        axis.grid(axis="y", visible=False)
    axes[0][0].set_ylabel(f"systems, ordered by their {order_by or links[0]} effect")
    axes[0][0].set_yticks([])
    return figure
