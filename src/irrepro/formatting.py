"""How every output writes a number: one rule per kind of value, the characters of each medium.

``irrepro compare``'s table, the report (HTML and LaTeX) and the book's tables show the same string
for the same number; only the signs of the medium differ (:class:`Medium`):

==========  ==================  ===============  =============================================
medium      minus sign          undefined        where
==========  ==================  ===============  =============================================
``TEXT``    ``-`` (ASCII)       ``undefined``    the terminal: ``irrepro compare``'s table
``REPORT``  ``−`` (U+2212)      ``undefined``    the report's HTML; its LaTeX writes ``$-$``
``BOOK``    ``−`` (U+2212)      ``–`` (en dash)  the book's tables (:mod:`irrepro.plots.tables`)
==========  ==================  ===============  =============================================

JSON (``irrepro compare --format json``) carries the numbers themselves: full precision, ``null``
where undefined. The rules:

- **a number** has a fixed number of decimals, the caller's (4 for scores, as the SIGIR 2020 paper
  prints them); a value that rounds to zero is written without a sign (``0.0000``, never
  ``-0.0000``); None, NaN and infinities are undefined;
- **a p-value** has three decimals from 0.001 up, as the SIGIR 2020 paper prints them and as APA
  style asks; below 0.001, two significant digits in scientific notation (``1.2e-05``), so that its
  magnitude stays readable beside a printed ``5E-04`` (``style="threshold"`` writes ``< 0.001``
  instead); exactly 0 and 1 are ``0`` and ``1``;
- **an interval** is ``[low, high]`` with the decimals of its estimate; in one cell
  ``estimate [low, high]``.

>>> format_number(-0.04567, 3), format_number(-0.00004, 4, medium=TEXT), format_number(None, medium=TEXT)
('−0.046', '0.0000', 'undefined')
>>> format_pvalue(0.0462), format_pvalue(1.234e-05), format_pvalue(1.234e-05, style="threshold")
('0.046', '1.2e-05', '< 0.001')
>>> format_interval(1.2724, 0.4502, 2.6508, 2), format_bounds(-0.0123, 1.5, 3, medium=TEXT)
('1.27 [0.45, 2.65]', '[-0.012, 1.500]')
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

__all__ = [
    "BOOK",
    "MINUS",
    "P_DIGITS",
    "REPORT",
    "TEXT",
    "Medium",
    "defined",
    "format_bounds",
    "format_interval",
    "format_number",
    "format_pvalue",
    "format_significant",
]

MINUS = "\u2212"
#: Decimals of a p-value from 10^-P_DIGITS up (the SIGIR 2020 paper's print).
P_DIGITS = 3


@dataclass(frozen=True)
class Medium:
    """The characters an output writes numbers with: its minus sign and its word for an undefined value.

    Parameters
    ----------
    name : str
        The output (``"text"``, ``"book"``, ...).
    minus : str
        Its minus sign.
    undefined : str
        Its word (or sign) for an undefined value.
    """

    name: str
    minus: str
    undefined: str


TEXT = Medium("text", "-", "undefined")
REPORT = Medium("report", MINUS, "undefined")
BOOK = Medium("book", MINUS, "\u2013")


def defined(value) -> bool:
    """Tell whether ``value`` is a finite number (None, pandas' NA, NaN and infinities are undefined).

    Parameters
    ----------
    value : object
        Anything.

    Returns
    -------
    bool
        True for a finite number.
    """
    if value is None or not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    return math.isfinite(value)


def _signed(text: str, medium: Medium) -> str:
    """``text`` (Python's formatting of a number) without a sign on zero, with the medium's minus."""
    if text.startswith("-") and float(text) == 0:
        text = text[1:]  # -0.00004 at four decimals: "0.0000", never "-0.0000"
    return medium.minus + text[1:] if text.startswith("-") else text


def format_number(value, digits: int = 4, *, medium: Medium = BOOK) -> str:
    """Write ``value`` with ``digits`` decimals; the medium's minus sign and word for undefined.

    Parameters
    ----------
    value : float or None
        The number.
    digits : int, default 4
        Decimals.
    medium : Medium, default BOOK
        The output written for: its minus sign and its word for an undefined value.

    Returns
    -------
    str
        The number's text.
    """
    if not defined(value):
        return medium.undefined
    return _signed(f"{float(value):.{digits}f}", medium)


def format_significant(value, digits: int, *, medium: Medium = BOOK) -> str:
    """Write ``value`` with ``digits`` significant digits (for differences spanning many orders of magnitude).

    Parameters
    ----------
    value : float or None
        The number.
    digits : int
        Significant digits.
    medium : Medium, default BOOK
        The output written for: its minus sign and its word for an undefined value.

    Returns
    -------
    str
        The number's text.

    Examples
    --------
    >>> format_significant(-0.000123456, 3), format_significant(12345.0, 2)
    ('−0.000123', '1.2e+04')
    """
    if not defined(value):
        return medium.undefined
    return _signed(f"{float(value):.{digits}g}", medium)


def format_pvalue(p, *, digits: int = P_DIGITS, style: str = "scientific", medium: Medium = BOOK) -> str:
    """Write a p-value: ``digits`` decimals from 10^-digits up; below, ``1.2e-05`` or ``< 0.001``.

    Parameters
    ----------
    p : float or None
        The p-value, in [0, 1].
    digits : int, default P_DIGITS
        Decimals from 10^-digits up.
    style : {"scientific", "threshold"}
        Below 10^-digits: two significant digits (``1.2e-05``) or ``< 0.001``.
    medium : Medium, default BOOK
        The output written for: its minus sign and its word for an undefined value.

    Returns
    -------
    str
        The p-value's text.

    Raises
    ------
    ValueError
        For another style, or a p-value outside [0, 1].

    Examples
    --------
    >>> format_pvalue(1.0), format_pvalue(0.0), format_pvalue(0.00095), format_pvalue(None, medium=TEXT)
    ('1', '0', '9.5e-04', 'undefined')
    """
    if style not in ("scientific", "threshold"):
        raise ValueError(f"style is 'scientific' or 'threshold', not {style!r}")
    if not defined(p):
        return medium.undefined
    p = float(p)
    if p < 0 or p > 1:
        raise ValueError(f"a p-value lies in [0, 1]; got {p!r}")
    if p in (0.0, 1.0):
        return f"{p:.0f}"
    floor = 10.0**-digits
    if p >= floor:
        return f"{p:.{digits}f}"
    return f"< {floor:.{digits}f}" if style == "threshold" else f"{p:.1e}"


def format_bounds(low, high, digits: int, *, medium: Medium = BOOK) -> str:
    """Write an interval ``[low, high]``.

    Parameters
    ----------
    low, high : float or None
        The bounds.
    digits : int
        Decimals of each bound.
    medium : Medium, default BOOK
        The output written for: its minus sign and its word for an undefined value.

    Returns
    -------
    str
        The interval.
    """
    return f"[{format_number(low, digits, medium=medium)}, {format_number(high, digits, medium=medium)}]"


def format_interval(estimate, low, high, digits: int, *, medium: Medium = BOOK) -> str:
    """Write an estimate with its interval in one cell, ``1.27 [0.45, 2.65]``.

    Parameters
    ----------
    estimate : float or None
        The estimate.
    low, high : float or None
        The bounds; the estimate alone without them.
    digits : int
        Decimals of each number.
    medium : Medium, default BOOK
        The output written for: its minus sign and its word for an undefined value.

    Returns
    -------
    str
        The cell's text.
    """
    value = format_number(estimate, digits, medium=medium)
    if not defined(low) and not defined(high):
        return value
    return f"{value} {format_bounds(low, high, digits, medium=medium)}"
