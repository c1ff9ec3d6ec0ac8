"""Render a report context (:func:`irrepro.report.build.build_context`) with the package's Jinja2 templates.

- :func:`render_html`: ``templates/report.html.j2``, autoescaped; one self-contained file (inline CSS
  and SVG, no script, nothing fetched).
- :func:`render_latex`: ``templates/tables.tex.j2``, booktabs tables of the same cells, with
  ``<< >>`` / ``<% %>`` delimiters so that TeX's braces need no escaping in the template.

Every value a template prints passes :func:`~irrepro.report.formatting.one_line` (Jinja2's
``finalize``), so no user text can end a line: in the LaTeX a carriage return would end a ``%``
comment and run what follows. Text outside comments is also escaped (HTML: autoescape; LaTeX:
the ``tex`` filter, :func:`tex_escape`).

>>> tex_escape("rpl_wcr04_tf & 50% {x}")
'rpl\\\\_wcr04\\\\_tf \\\\& 50\\\\% \\\\{x\\\\}'
"""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2
from markupsafe import Markup

from irrepro.report.formatting import one_line

__all__ = ["render_html", "render_latex", "tex_escape"]

_TEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "\u2014": "---", "\u2013": "--", "\u2212": "$-$", "\u2032": "$'$", "\u0394": r"$\Delta$", "\u03c4": r"$\tau$",
    "\u2265": r"$\geq$", "\u2264": r"$\leq$", "\u2260": r"$\neq$", "\u2020": r"$^\dagger$", "\u2713": "", "\u2717": "",
    "\u25d0": "",
}  # fmt: skip
_TEX_PATTERN = re.compile("|".join(re.escape(character) for character in _TEX_SPECIAL))


def tex_escape(text) -> str:
    """Make text safe for LaTeX's text mode (specials escaped, the report's few Unicode signs spelled out).

    Parameters
    ----------
    text : object
        The text (converted with ``str``).

    Returns
    -------
    str
        The escaped text.
    """
    return _TEX_PATTERN.sub(lambda match: _TEX_SPECIAL[match.group(0)], str(text))


def _printed(value):
    """What a template prints of ``value``: on one line, unless it is the package's own markup (SVG, macros)."""
    return value if isinstance(value, Markup) or not isinstance(value, str) else one_line(value)


@lru_cache(maxsize=2)
def _environment(kind: str) -> jinja2.Environment:
    loader = jinja2.PackageLoader("irrepro.report", "templates")
    common = {"loader": loader, "trim_blocks": True, "lstrip_blocks": True, "undefined": jinja2.StrictUndefined, "finalize": _printed}
    if kind == "html":
        environment = jinja2.Environment(autoescape=True, **common)
    else:
        environment = jinja2.Environment(
            autoescape=False, block_start_string="<%", block_end_string="%>", variable_start_string="<<",
            variable_end_string=">>", comment_start_string="<#", comment_end_string="#>", **common,
        )  # fmt: skip
        environment.filters["tex"] = tex_escape
    return environment


def render_html(context: dict) -> str:
    """Render the report as one HTML document.

    Parameters
    ----------
    context : dict
        :func:`~irrepro.report.build.build_context`'s context.

    Returns
    -------
    str
        The HTML document.
    """
    return _environment("html").get_template("report.html.j2").render(**context)


def render_latex(context: dict) -> str:
    r"""Render the report's tables as LaTeX (``\usepackage{booktabs}``).

    Parameters
    ----------
    context : dict
        :func:`~irrepro.report.build.build_context`'s context.

    Returns
    -------
    str
        The LaTeX text.
    """
    return _environment("tex").get_template("tables.tex.j2").render(**context)
