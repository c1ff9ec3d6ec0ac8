"""Figure 3 of Breuer et al. (SIGIR 2020) in two versions side by side: published files and earlier AP file.

:func:`figure3_two_versions` draws one figure of two panels, the published files left and the
earlier AP file right, every family's AP points in each (family by colour and marker), on shared
axes so the two can be compared point for point. :func:`figure3_side_by_side` takes the long points of :func:`irrepro.papers.sigir2020.figure3_points`
(a ``version`` column besides those :func:`irrepro.plots.reproducibility.er_deltari_figure` needs)
and draws, for each chosen family, the panel of each version next to each other, by calling
:func:`~irrepro.plots.reproducibility.er_deltari_figure` on panels named "family · version". It
computes nothing itself.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullLocator

from irrepro.plots.reproducibility import draw_regions, er_deltari_figure
from irrepro.plots.style import MARKERS, PALETTE, TEXT_WIDTH

__all__ = ["VERSION_LABELS", "SYMLOG_THRESHOLD", "figure3_side_by_side", "figure3_two_versions"]

#: How the two data versions are named in the panel titles.
VERSION_LABELS: dict[str, str] = {"current": "published files", "old": "earlier AP file"}
#: ΔRI axis of :func:`figure3_two_versions`: linear within ± this value, logarithmic beyond.
SYMLOG_THRESHOLD = 0.25
_DELTA_TICKS = (-10.0, -1.0, -0.25, 0.0, 0.25, 1.0, 10.0)


def _checked(points: pd.DataFrame, what: str) -> list[str]:
    """The versions in ``points`` (in order), after checking its columns and version names."""
    missing = [c for c in ("version", "family", "level", "measure", "ER", "DeltaRI") if c not in points.columns]
    if missing:
        raise ValueError(f"{what}: missing columns {missing}; got {list(points.columns)}")
    versions = list(dict.fromkeys(points["version"]))
    unknown = [v for v in versions if v not in VERSION_LABELS]
    if unknown:
        raise ValueError(f"{what}: unknown versions {unknown}; known: {', '.join(VERSION_LABELS)}")
    return versions


def figure3_two_versions(points: pd.DataFrame, *, measure: str = "AP") -> Figure:
    """ER (x) against ΔRI (y) of ``measure``: one panel per version, all families in each, shared axes.

    Family by colour and marker (one legend), regions numbered in the corners and (1, 0) starred as
    in :func:`~irrepro.plots.reproducibility.er_deltari_figure`. The ΔRI axis is linear within
    ± :data:`SYMLOG_THRESHOLD` and logarithmic beyond, so that a few points far below (ΔRI < -6 in
    the published files) do not flatten the rest. Points are not labelled (they would overlap);
    the chapter's table lists each one.

    Parameters
    ----------
    points : pandas.DataFrame
        As for :func:`figure3_side_by_side`.
    measure : str, default "AP"
        The measure drawn.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If ``measure`` has no points in every version.
    """
    versions = _checked(points, "figure3_two_versions")
    chosen = points[points["measure"] == measure]
    if chosen.empty or set(chosen["version"]) != set(versions):
        raise ValueError(f"figure3_two_versions: {measure} has no points in every version {versions}")
    x_low, x_high = min(chosen["ER"].min(), 0.0) - 0.25, max(chosen["ER"].max(), 1.0) + 0.25
    y_span = max(np.abs(chosen["DeltaRI"]).max(), 0.05) * 1.4
    families = list(dict.fromkeys(chosen["family"].astype(str)))
    figure, axes = plt.subplots(1, len(versions), figsize=(TEXT_WIDTH, 3.6), sharey=True, squeeze=False,
                                layout="constrained")  # fmt: skip
    for axis, version in zip(axes[0], versions, strict=True):
        axis.set_yscale("symlog", linthresh=SYMLOG_THRESHOLD, linscale=1.5)
        axis.set_xlim(x_low, x_high)
        axis.set_ylim(-y_span, y_span)
        axis.set_yticks([tick for tick in _DELTA_TICKS if abs(tick) <= y_span])
        axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}".replace("-", "\u2212")))
        axis.yaxis.set_minor_locator(NullLocator())
        draw_regions(axis, x_low, x_high, y_span)
        part = chosen[chosen["version"] == version]
        for index, family in enumerate(families):
            mine = part[part["family"].astype(str) == family]
            axis.scatter(mine["ER"], mine["DeltaRI"], marker=MARKERS[index % len(MARKERS)],
                         color=PALETTE[index % len(PALETTE)], label=family, alpha=0.85, s=30)  # fmt: skip
        axis.scatter([1.0], [0.0], marker="*", s=140, color="black", label="(1, 0)", zorder=3)
        axis.set_title(f"{VERSION_LABELS[version]} ({measure})")
        axis.set_xlabel(f"ER ({measure})")
    axes[0][0].set_ylabel(f"\u0394RI ({measure})")
    handles, labels = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, labels, title="constellation family", loc="outside lower center", ncol=len(labels))
    return figure


def figure3_side_by_side(
    points: pd.DataFrame,
    *,
    families: tuple[str, ...] | None = None,
    measures: tuple[str, ...] | None = None,
    title: str = "",
) -> Figure:
    """ER (x) against DeltaRI (y), one panel per (family, version), the versions of a family side by side.

    Parameters
    ----------
    points : pandas.DataFrame
        One row per (run, measure): columns ``family``, ``version``, ``level``, ``measure``,
        ``ER`` and ``DeltaRI``.
    families : tuple of str, optional
        The families to draw; default: all in ``points``, in their order.
    measures : tuple of str, optional
        The measures to draw; default: those present in every version (i.e. AP when one version has
        AP only), so that the panels compare like with like.
    title : str, default ""
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If ``points`` has none of the families, or none of the measures in them.
    """
    versions = _checked(points, "figure3_side_by_side")
    if measures is None:
        by_version = (set(points.loc[points["version"] == version, "measure"]) for version in versions)
        measures = tuple(sorted(set.intersection(*by_version)))
    present = list(dict.fromkeys(points["family"].astype(str)))
    families = tuple(present) if families is None else families
    absent = [f for f in families if f not in present]
    if absent:
        raise ValueError(f"figure3_side_by_side: no points of families {absent}; present: {', '.join(present)}")
    chosen = points[points["family"].astype(str).isin(families) & points["measure"].isin(measures)].copy()
    if chosen.empty:
        raise ValueError(f"figure3_side_by_side: no points of measures {list(measures)} in families {list(families)}")
    panels = [f"{family} · {VERSION_LABELS[version]}" for family in families for version in versions]
    labels = chosen["family"].astype(str) + " · " + chosen["version"].map(VERSION_LABELS)
    chosen["family"] = pd.Categorical(labels, categories=panels, ordered=True)
    return er_deltari_figure(chosen, title=title)
