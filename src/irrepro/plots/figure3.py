"""Figure 3 of Breuer et al. (SIGIR 2020) in two versions side by side: published files and earlier AP file.

:func:`figure3_side_by_side` takes the long points of :func:`irrepro.papers.sigir2020.figure3_points`
(a ``version`` column besides those :func:`irrepro.plots.reproducibility.er_deltari_figure` needs)
and draws, for each chosen family, the panel of each version next to each other, by calling
:func:`~irrepro.plots.reproducibility.er_deltari_figure` on panels named "family · version". It
computes nothing itself.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from irrepro.plots.reproducibility import er_deltari_figure

__all__ = ["VERSION_LABELS", "figure3_side_by_side"]

#: How the two data versions are named in the panel titles.
VERSION_LABELS: dict[str, str] = {"current": "published files", "old": "earlier AP file"}


def figure3_side_by_side(
    points: pd.DataFrame,
    *,
    families: tuple[str, ...] | None = None,
    measures: tuple[str, ...] | None = None,
    title: str = "",
) -> Figure:
    """ER (x) against DeltaRI (y), one panel per (family, version), the versions of a family side by side.

    ``families``: the families to draw (default: all in ``points``, in their order); ``measures``: the
    measures to draw (default: those present in every version, i.e. AP when one version has AP only,
    so that the panels compare like with like).
    """
    missing = [c for c in ("version", "family", "level", "measure", "ER", "DeltaRI") if c not in points.columns]
    if missing:
        raise ValueError(f"figure3_side_by_side: missing columns {missing}; got {list(points.columns)}")
    versions = list(dict.fromkeys(points["version"]))
    unknown = [v for v in versions if v not in VERSION_LABELS]
    if unknown:
        raise ValueError(f"figure3_side_by_side: unknown versions {unknown}; known: {', '.join(VERSION_LABELS)}")
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
