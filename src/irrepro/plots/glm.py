"""Figures of the GLM chapter: mean-variance, residual QQ plots, fitted vs observed, system effects.

Each function takes the tables of :mod:`irrepro.papers.glm` and returns a matplotlib ``Figure``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

__all__ = ["mean_variance_figure", "qq_figure", "fitted_observed_figure", "system_effects_figure"]


def mean_variance_figure(tables: dict[str, pd.DataFrame]) -> Figure:
    """Per-system variance against mean, one panel per (label -> table with ``mean``, ``variance``).

    The curve mu (1 - mu) / 4 marks a binomial-like variance; the identity model assumes a constant one.
    """
    fig, axes = plt.subplots(1, len(tables), figsize=(4 * len(tables), 3.4), squeeze=False)
    grid = np.linspace(0, 1, 101)
    for ax, (label, table) in zip(axes[0], tables.items()):
        ax.scatter(table["mean"], table["variance"], s=10, alpha=0.7)
        ax.plot(grid, grid * (1 - grid) / 4, color="grey", lw=1, ls="--", label="mu(1-mu)/4")
        ax.set_xlim(0, max(0.05, float(table["mean"].max()) * 1.1))
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("system mean over topics")
    axes[0][0].set_ylabel("variance over topics")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def qq_figure(residuals: pd.DataFrame, *, links: list[str]) -> Figure:
    """Normal QQ plots of the standardised (Pearson) residuals, one panel per link."""
    fig, axes = plt.subplots(1, len(links), figsize=(2.6 * len(links), 2.8), sharey=True, squeeze=False)
    for ax, link in zip(axes[0], links):
        values = np.sort(residuals.loc[residuals["link"] == link, "pearson"].to_numpy())
        quantiles = stats.norm.ppf((np.arange(1, values.size + 1) - 0.5) / values.size)
        ax.plot(quantiles, values, ".", ms=1.5, alpha=0.5)
        ax.plot(quantiles, quantiles, color="grey", lw=1)
        ax.set_title(link, fontsize=10)
        ax.set_xlabel("normal quantile")
    axes[0][0].set_ylabel("Pearson residual")
    fig.tight_layout()
    return fig


def fitted_observed_figure(residuals: pd.DataFrame, *, links: list[str]) -> Figure:
    """Observed scores against fitted means, one panel per link (the diagonal is a perfect fit)."""
    fig, axes = plt.subplots(1, len(links), figsize=(2.6 * len(links), 2.8), sharey=True, squeeze=False)
    for ax, link in zip(axes[0], links):
        part = residuals.loc[residuals["link"] == link]
        ax.plot(part["fitted"], part["observed"], ".", ms=1.5, alpha=0.3)
        ax.plot([0, 1], [0, 1], color="grey", lw=1)
        ax.set_title(link, fontsize=10)
        ax.set_xlabel("fitted mean")
    axes[0][0].set_ylabel("observed score")
    fig.tight_layout()
    return fig


def system_effects_figure(effects: pd.DataFrame, *, order_by: str | None = None) -> Figure:
    """Centred system effects with intervals, one panel per link, systems in the order of ``order_by``."""
    links = list(dict.fromkeys(effects["link"]))
    reference = effects.loc[effects["link"] == (order_by or links[0])].sort_values("effect")
    order = {system: rank for rank, system in enumerate(reference["system"])}
    fig, axes = plt.subplots(1, len(links), figsize=(5 * len(links), 0.09 * len(order) + 1.5), sharey=True, squeeze=False)
    for ax, link in zip(axes[0], links):
        part = effects.loc[effects["link"] == link]
        rank = part["system"].map(order).to_numpy()
        ax.errorbar(
            part["effect"],
            rank,
            xerr=[part["effect"] - part["lower"], part["upper"] - part["effect"]],
            fmt="o",
            ms=2.5,
            elinewidth=0.8,
        )
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(f"{link} link (linear-predictor scale)", fontsize=10)
        ax.set_xlabel("centred system effect, 95% interval")
    axes[0][0].set_ylabel(f"systems, ordered by their {order_by or links[0]} effect")
    axes[0][0].set_yticks([])
    fig.tight_layout()
    return fig
