"""A matplotlib figure as an SVG element to inline in HTML: accessible, self-contained, deterministic.

- glyphs are drawn as paths (``svg.fonttype = "path"``): no font is fetched or needed;
- no date in the output and a fixed hash salt for clip-path ids, so the same figure gives the
  same bytes;
- every ``id`` gets a per-figure prefix (several SVGs share one HTML document, ids must be unique)
  and the figure's ``<style>`` is scoped to it;
- ``role="img"`` with a ``<title>`` and a ``<desc>`` that screen readers announce.
"""

from __future__ import annotations

import io
import re
from html import escape

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["figure_svg"]

_SVG_SETTINGS = {"svg.fonttype": "path", "svg.hashsalt": "irrepro-report", "svg.image_inline": True}


def figure_svg(figure: Figure, *, prefix: str, title: str, description: str) -> str:
    """Write the figure as one ``<svg>`` element (no XML prolog); the figure is closed afterwards.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure.
    prefix : str
        An identifier that prefixes the element's ids, unique within the page.
    title : str
        The element's ``<title>``.
    description : str
        The element's ``<desc>``, for screen readers.

    Returns
    -------
    str
        The ``<svg>`` element.

    Raises
    ------
    ValueError
        If ``prefix`` is not an identifier.
    """
    if not re.fullmatch(r"[A-Za-z][\w-]*", prefix):
        raise ValueError(f"figure_svg: prefix must be an identifier, got {prefix!r}")
    buffer = io.StringIO()
    try:
        with matplotlib.rc_context(_SVG_SETTINGS):
            figure.savefig(buffer, format="svg", metadata={"Date": None})
    finally:
        plt.close(figure)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.DOTALL)
    text = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}-\1"', text)
    text = re.sub(r'((?:xlink:)?href)="#([^"]+)"', rf'\1="#{prefix}-\2"', text)
    text = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}-\1)", text)
    text = text.replace("*{", f"#{prefix} *{{")  # matplotlib's global style rule, scoped to this figure
    opening = re.match(r"<svg\b[^>]*>", text).group(0)
    attributes = (
        f' id="{prefix}" role="img" aria-labelledby="{prefix}-title {prefix}-desc"'
        ' style="max-width: 100%; height: auto"'
    )
    accessible = (
        opening[:-1] + attributes + ">"
        + f'<title id="{prefix}-title">{escape(title)}</title><desc id="{prefix}-desc">{escape(description)}</desc>'
    )  # fmt: skip
    return accessible + text[len(opening) :].strip()
