"""How the report writes text: topic lists, user text on one line, exact values for ``data-value``.

Numbers are written by :mod:`irrepro.formatting` (medium ``REPORT``), as every output of the package
writes them.

>>> topic_ranges(["301", "302", "303", "305", "401a"])
'301-303, 305, 401a'
>>> one_line("a title" + chr(13) + "ending" + chr(0x2028) + "twice")
'a title ending twice'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from irrepro.formatting import REPORT, defined

__all__ = ["LINE_BREAKING", "full_precision", "one_line", "percent", "topic_ranges"]


# Control characters (Unicode category Cc: \r, \v, \f, NEL U+0085, ...) and the line and paragraph
# separators (U+2028, U+2029): whatever a TeX engine, a browser or an editor may take for a line's end.
LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text) -> str:
    """Put ``text`` on one line: every line-ending or other control character becomes a space.

    User text (a title, a file or pair name, the command line) goes through this wherever it
    enters the report: a carriage return in a ``%`` comment of the LaTeX file would end the
    comment, and what follows would run as TeX.

    Parameters
    ----------
    text : object
        The text (converted with ``str``).

    Returns
    -------
    str
        The text on one line.
    """
    return LINE_BREAKING.sub(" ", str(text))


def full_precision(value) -> str:
    """Write the exact float (``repr`` round-trips), for ``data-value`` attributes.

    Parameters
    ----------
    value : float or None
        A number.

    Returns
    -------
    str
        Its ``repr``; empty if undefined.
    """
    return repr(float(value)) if defined(value) else ""


def percent(part, whole) -> str:
    """Write ``part`` as a whole percentage of ``whole``.

    Parameters
    ----------
    part, whole : float or None
        The numbers.

    Returns
    -------
    str
        ``"42%"``; the report's mark for an undefined value when either is undefined or
        ``whole`` is 0.
    """
    if not (defined(part) and defined(whole)) or whole == 0:
        return REPORT.undefined
    return f"{100 * part / whole:.0f}%"


def topic_ranges(topics: Iterable[str], limit: int = 40) -> str:
    """Write topic ids as compact ranges (``301-303, 305``); numeric ids by value, others as they are.

    Parameters
    ----------
    topics : iterable of str
        The topic ids.
    limit : int, default 40
        The most ranges written before the rest is elided.

    Returns
    -------
    str
        The ranges.
    """
    topics = list(dict.fromkeys(str(t) for t in topics))
    numeric = sorted(int(t) for t in topics if t.isdigit() and str(int(t)) == t)
    others = sorted(t for t in topics if not (t.isdigit() and str(int(t)) == t))
    parts: list[str] = []
    start = previous = None
    for topic in numeric:
        if previous is not None and topic == previous + 1:
            previous = topic
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = topic
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}-{previous}")
    parts += others
    if len(parts) > limit:
        return ", ".join(parts[:limit]) + f", ... ({len(parts) - limit} more groups)"
    return ", ".join(parts)
