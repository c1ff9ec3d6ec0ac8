"""The book's figure style: sizes that fit the text column, legible fonts, a colour-blind-safe palette, SVG.

A chapter calls :func:`use_book_style` once, in a hidden cell at its top. Afterwards every figure

- is drawn as SVG with its text kept as text (``svg.fonttype = "none"``), so it stays sharp and the
  page check can measure its font sizes;
- uses fonts of at least :data:`MIN_FONT_PT` points (tick labels, legends and annotations included)
  and is at most :data:`TEXT_WIDTH` inches wide, so the browser shows it at its own size and the
  fonts stay at least 9 pt as rendered (a wider figure would be scaled down, and its text with it);
- cycles through seaborn's ``colorblind`` palette and distinct marker shapes, so lines and points
  can be told apart in grey print too.

The figure functions of :mod:`irrepro.plots` size themselves with :func:`figure_size` and
:data:`TEXT_WIDTH`; they never set a font below :data:`MIN_FONT_PT`.
"""

from __future__ import annotations

import matplotlib as mpl
from cycler import cycler

from irrepro.plots import tables

__all__ = ["MARKERS", "MIN_FONT_PT", "PALETTE", "RC_PARAMS", "TEXT_WIDTH", "figure_size", "use_book_style"]

#: The book's text column is 688 CSS px at a 1280 px wide window (516 pt = 7.17 in); figures stay
#: narrower so that they are never scaled down.
TEXT_WIDTH = 6.8
#: The smallest font size (points) any text of a figure may have as rendered.
MIN_FONT_PT = 9
#: seaborn's colour-blind-safe palette (Okabe-Ito-like), ``seaborn.color_palette("colorblind").as_hex()``,
#: written out: importing seaborn for it took a second of every page's first cell (it imports
#: scipy.stats); ``tests/plots/test_style.py`` checks it against seaborn's.
PALETTE: tuple[str, ...] = (
    "#0173b2", "#de8f05", "#029e73", "#d55e00", "#cc78bc", "#ca9161", "#fbafe4", "#949494", "#ece133", "#56b4e9",
)  # fmt: skip
#: Marker shapes that tell series apart without colour.
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X")

RC_PARAMS: dict[str, object] = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9,
    "figure.titlesize": 10,
    "figure.figsize": (TEXT_WIDTH, 0.6 * TEXT_WIDTH),
    "figure.dpi": 100,
    "axes.prop_cycle": cycler(color=PALETTE[: len(MARKERS)]) + cycler(marker=MARKERS),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.markersize": 5,
    "lines.linewidth": 1.4,
    "legend.frameon": False,
}


def figure_size(width_fraction: float = 1.0, aspect: float = 0.6) -> tuple[float, float]:
    """Give a figure's (width, height) in inches.

    Parameters
    ----------
    width_fraction : float, default 1.0
        The share of the text column's width, in (0, 1].
    aspect : float, default 0.6
        Height = ``aspect`` x width.

    Returns
    -------
    tuple of (float, float)
        Width and height in inches.

    Raises
    ------
    ValueError
        If ``width_fraction`` is not in (0, 1].
    """
    if not 0 < width_fraction <= 1:
        raise ValueError(f"width_fraction lies in (0, 1]; got {width_fraction!r}")
    width = TEXT_WIDTH * width_fraction
    return (width, width * aspect)


def use_book_style() -> None:
    """Set the book's figure style, SVG output in notebooks, and restart the page's table numbers."""
    mpl.rcParams.update(RC_PARAMS)
    if _in_notebook():
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("svg")
    tables.reset_numbering()


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None
