"""Figures of how robust a paper's conclusions are under topic resampling.

- :func:`conclusions_figure`: one horizontal bar per conclusion, "holds in X% of the resamples",
  grouped by the paper's section, coloured by status (stable / borderline / fragile,
  :mod:`irrepro.papers.robustness`), with the bounds drawn at 5% and 95% and the borderline bands
  about them. Takes the table of
  :meth:`irrepro.papers.robustness.ResampledChecks.table`.
- :func:`ssd_stability_figure`: per setting and link, the significantly different system pairs split by
  how often a resample keeps them (>= 95%, 50-95%, < 50%). Takes
  :func:`irrepro.papers.glm.robustness.ssd_robustness`.
- :func:`bias_as_shown`, :func:`simulation_as_shown`: the measurements of the resampling design
  (:mod:`irrepro.papers.sigir2020.resampling_design`) as the chapter shows them.
- :func:`as_shown`: the robustness table as a chapter shows it, each number with its interval written
  to three significant digits (the numbers are counts, shares, correlations and p-values in one column).

The figures compute nothing; they size themselves to the text column (:mod:`irrepro.plots.style`).
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from irrepro.plots.style import PALETTE, TEXT_WIDTH
from irrepro.plots.tables import significant

__all__ = ["STATUS_STYLES", "conclusions_figure", "ssd_stability_figure", "as_shown", "bias_as_shown", "simulation_as_shown"]

_GREY = "#555555"
#: How a conclusion's bar is drawn, by (holds on all topics, status): legend label, colour, hatch.
STATUS_STYLES: dict[tuple[bool, str], tuple[str, str, str]] = {
    (True, "stable"): ("holds on all topics, stable", PALETTE[0], ""),
    (True, "borderline"): ("holds on all topics, borderline", PALETTE[2], ".."),
    (True, "fragile"): ("holds on all topics, fragile", PALETTE[1], "//"),
    (False, "borderline"): ("fails on all topics, borderline", PALETTE[4], ".."),
    (False, "fragile"): ("fails on all topics, fragile", PALETTE[3], "\\\\"),
    (False, "stable"): ("fails on all topics, stable", "#bbbbbb", ""),
}
_ROW_HEIGHT = 0.23  # inches per bar


def _rows(table: pd.DataFrame, sections: Mapping[str, str]) -> list[tuple[str, pd.Series | None]]:
    """The figure's rows top to bottom: a section header (label, None), then its conclusions."""
    rows: list[tuple[str, pd.Series | None]] = []
    for section, part in table.groupby("section", sort=False):
        rows.append((sections.get(section, f"Section {section}"), None))
        rows += [(row["label"], row) for _, row in part.iterrows()]
    return rows


def conclusions_figure(table: pd.DataFrame, *, sections: Mapping[str, str] | None = None,
                       stable_share: float = 0.95, borderline_margin: float = 0.02) -> Figure:  # fmt: skip
    """Each conclusion as a bar "holds in X% of the resamples", grouped by section.

    Dotted lines at ``1 - stable_share`` and ``stable_share``: a conclusion holding on all topics is
    stable right of the upper one, one failing on all topics left of the lower one; grey bands of
    ``borderline_margin`` about them, where a share is borderline.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``section``, ``label``, ``share holding``, ``holds on all topics``, ``status``,
        ``resamples``.
    sections : mapping of str -> str, optional
        Section -> its title.
    stable_share : float, default 0.95
        The share of resamples that makes a conclusion stable.
    borderline_margin : float, default 0.02
        The half-width of the borderline bands.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    missing = [c for c in ("section", "label", "share holding", "holds on all topics", "status") if c not in table]
    if missing:
        raise ValueError(f"conclusions_figure: missing columns {missing}")
    rows = _rows(table, sections or {})
    figure, axis = plt.subplots(figsize=(TEXT_WIDTH, 0.9 + _ROW_HEIGHT * len(rows)), layout="constrained")
    positions = np.arange(len(rows))[::-1]
    for y, (label, row) in zip(positions, rows, strict=True):
        if row is None:
            axis.text(-0.01, y, label, transform=axis.get_yaxis_transform(), ha="right", va="center", weight="bold")
            continue
        _, colour, hatch = STATUS_STYLES[(bool(row["holds on all topics"]), row["status"])]
        share = float(row["share holding"])
        axis.barh(y, share, height=0.7, color=colour, hatch=hatch, edgecolor="white", linewidth=0)
        axis.text(min(share, 1.0) + 0.01, y, f"{share:.0%}", va="center", fontsize=9)
    axis.set_yticks([y for y, (_, row) in zip(positions, rows, strict=True) if row is not None],
                    [label for label, row in rows if row is not None])  # fmt: skip
    axis.tick_params(axis="y", length=0)
    for bound in (1 - stable_share, stable_share):
        axis.fill_betweenx([0, 1], bound - borderline_margin, bound + borderline_margin, transform=axis.get_xaxis_transform(),
                           color="#e4e4e4", zorder=0, lw=0)  # a collection, not a patch: the bars are the patches
        axis.axvline(bound, color=_GREY, lw=1, ls=":")
    axis.set_xlim(0, 1.12)
    axis.set_ylim(-0.7, len(rows) - 0.3)
    axis.set_xticks(np.linspace(0, 1, 6), [f"{v:.0%}" for v in np.linspace(0, 1, 6)])
    axis.grid(axis="y", visible=False)
    resamples = " or ".join(f"{n:,}" for n in dict.fromkeys(table.get("resamples", pd.Series(dtype=int))))
    axis.set_xlabel(f"holds in this share of the {resamples} topic resamples".replace("the  topic", "the topic"))
    present = [key for key in STATUS_STYLES if ((table["holds on all topics"] == key[0]) & (table["status"] == key[1])).any()]
    handles = [Patch(facecolor=STATUS_STYLES[k][1], hatch=STATUS_STYLES[k][2], edgecolor="white", label=STATUS_STYLES[k][0])
               for k in present]  # fmt: skip
    bounds = (f"{1 - stable_share:.0%} and {stable_share:.0%}: stable outside, fragile between;\n"
              f"grey: borderline (\u00b1{borderline_margin * 100:.0f} points, or seeds on both sides)")
    handles.append(Line2D([], [], color=_GREY, lw=1, ls=":", label=bounds))
    figure.legend(handles=handles, loc="outside lower center", ncol=2)
    return figure


_SEGMENTS = (("stable", PALETTE[0]), ("borderline", PALETTE[2]), ("kept by most", PALETTE[1]), ("kept by few", PALETTE[3]))


def ssd_stability_figure(summary: pd.DataFrame, *, stable_share: float = 0.95) -> Figure:
    """Per setting and link, the ssd pairs on all topics as one bar split by the share of resamples keeping them.

    Bars are shares of the ssd pairs; the count of ssd pairs and the resamples are written at each bar.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`irrepro.papers.glm.robustness.ssd_robustness`: columns ``collection``, ``measure``,
        ``outliers_removed``, ``link``, ``resamples``, ``ssd pairs`` and the counts ``stable``
        (kept by at least ``stable_share`` of the resamples), ``borderline`` (by a share too close to
        it to tell), ``kept by most`` (by half or more) and ``kept by few``.
    stable_share : float, default 0.95
        The share of resamples that makes a pair stable.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If a column is missing.
    """
    missing = [c for c in ("collection", "measure", "outliers_removed", "link", "resamples", "ssd pairs",
                           *(column for column, _ in _SEGMENTS)) if c not in summary]  # fmt: skip
    if missing:
        raise ValueError(f"ssd_stability_figure: missing columns {missing}")
    labels = [f"{r.collection}{' w/o outliers' if r.outliers_removed else ''} {r.measure} · {r.link}"
              for r in summary.itertuples()]  # fmt: skip
    figure, axis = plt.subplots(figsize=(TEXT_WIDTH, 1.0 + _ROW_HEIGHT * len(summary)), layout="constrained")
    positions = np.arange(len(summary))[::-1]
    left = np.zeros(len(summary))
    names = {"stable": f"\u2265 {stable_share:.0%}", "borderline": f"about {stable_share:.0%}",
             "kept by most": f"50\u2013{stable_share:.0%}", "kept by few": "< 50%"}
    for column, colour in _SEGMENTS:
        label = names[column]
        share = summary[column].to_numpy() / summary["ssd pairs"].to_numpy()
        axis.barh(positions, share, left=left, height=0.7, color=colour, label=label, edgecolor="white", linewidth=0.5)
        left += share
    for y, pairs, resamples in zip(positions, summary["ssd pairs"], summary["resamples"], strict=True):
        axis.text(1.02, y, f"{pairs:,} ({resamples:,})", va="center", fontsize=9)
    axis.text(1.02, len(summary) - 0.4, "ssd pairs\n(resamples)", va="bottom", fontsize=9)
    axis.set_yticks(positions, labels)
    axis.tick_params(axis="y", length=0)
    axis.set_xlim(0, 1.3)
    axis.set_ylim(-0.7, len(summary) + 0.6)
    axis.set_xticks(np.linspace(0, 1, 6), [f"{v:.0%}" for v in np.linspace(0, 1, 6)])
    axis.grid(axis="y", visible=False)
    axis.set_xlabel("share of the ssd pairs on all topics")
    figure.legend(loc="outside lower center", ncol=4, title="significant, with the same sign, in this share of the resamples")
    return figure


def as_shown(table: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Lay out a robustness table as a chapter shows it.

    One row per conclusion (``section``, ``conclusion``): its verdict on all topics, the share of the
    resamples in which it holds (in %), its status, the number it turns on, and that number on all
    topics with its ``level`` percentile interval as text, three significant digits
    (``0.288 [0.0204, 0.363]``, ``40 [33, 40]``).

    Parameters
    ----------
    table : pandas.DataFrame
        :meth:`irrepro.papers.robustness.ResampledChecks.table`.
    level : float, default 0.95
        The intervals' level, named in a column's heading.

    Returns
    -------
    pandas.DataFrame
        The table shown.

    Examples
    --------
    >>> row = {"section": "1", "label": "x", "holds on all topics": True, "share holding": 0.5, "status": "fragile",
    ...        "statistic": "count", "on all topics": 40.0, "low": 33.0, "high": 40.0}
    >>> as_shown(pd.DataFrame([row])).iloc[0, -1]
    '40 [33, 40]'
    """
    number = significant(3)
    intervals = [f"{number(v)} [{number(lo)}, {number(hi)}]" for v, lo, hi in zip(table["on all topics"], table["low"],
                                                                               table["high"], strict=True)]  # fmt: skip
    shown = pd.DataFrame({
        "section": table["section"], "conclusion": table["label"],
        "on all topics": np.where(table["holds on all topics"], "holds", "fails"),
        "holds in % of resamples": 100.0 * table["share holding"], "status": table["status"],
        "the number it turns on": table["statistic"], f"value on all topics [{level:.0%} interval]": intervals,
    })  # fmt: skip
    if "seeds" in table and (table["seeds"] > 1).any():
        by_seed = [f"{100 * lo:.1f}\u2013{100 * hi:.1f}" for lo, hi in zip(table["kept lowest seed"], table["kept highest seed"], strict=True)]
        shown.insert(4, "verdict kept, by seed (%)", by_seed)
    return shown


def bias_as_shown(bias: pd.DataFrame) -> pd.DataFrame:
    """Lay out :func:`~irrepro.papers.sigir2020.resampling_design.bias_table` as the chapter shows it.

    One row per claim (``conclusion``); per design, the share of the resamples below the value on all
    topics in %, with the share equal to it in brackets where there is one (``74 (2)``).

    Parameters
    ----------
    bias : pandas.DataFrame
        The bias table.

    Returns
    -------
    pandas.DataFrame
        The table shown.
    """
    designs = [column[0] for column in bias.columns if isinstance(column, tuple) and column[1] == "below"]
    shown = pd.DataFrame({"conclusion": bias["label"], "recentred": np.where(bias["recentred"], "yes", "no")})
    for design in designs:
        below, at = 100 * bias[(design, "below")], 100 * bias[(design, "at")]
        shown[f"{design}: % below"] = [f"{b:.0f}" + (f" ({a:.0f})" if round(a) else "") for b, a in zip(below, at, strict=True)]
    return shown


def simulation_as_shown(simulation: pd.DataFrame) -> pd.DataFrame:
    """Lay out :func:`~irrepro.papers.sigir2020.resampling_design.coverage_simulation` as the chapter shows it.

    Parameters
    ----------
    simulation : pandas.DataFrame
        The simulation's table.

    Returns
    -------
    pandas.DataFrame
        One row per statistic and design, the shares in %.
    """
    return pd.DataFrame({
        "statistic": simulation["statistic"], "design": simulation["design"],
        "resamples below own value (%)": (100 * simulation["below"]).round(0),
        "intervals containing the target (%)": (100 * simulation["coverage"]).round(0),
        "estimated share of the claim (%)": (100 * simulation["estimated share"]).round(0),
        "true share (%)": (100 * simulation["true share"]).round(0),
    })  # fmt: skip
