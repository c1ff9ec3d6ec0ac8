"""How the report writes numbers and topic lists: one place, so HTML, LaTeX and readings agree.

>>> fmt(0.123456), fmt(None), fmt_p(0.00001234), fmt_interval(-0.0123, 1.5)
('0.1235', 'undefined', '1.23e-05', '[-0.012, 1.500]')
>>> topic_ranges(["301", "302", "303", "305", "401a"])
'301-303, 305, 401a'
>>> one_line("a title" + chr(13) + "ending" + chr(0x2028) + "twice")
'a title ending twice'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

__all__ = ["LINE_BREAKING", "defined", "fmt", "fmt_interval", "fmt_p", "full_precision", "one_line", "percent", "topic_ranges"]

UNDEFINED = "undefined"


# Control characters (Unicode category Cc: \r, \v, \f, NEL U+0085, ...) and the line and paragraph
# separators (U+2028, U+2029): whatever a TeX engine, a browser or an editor may take for a line's end.
LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text) -> str:
    """``text`` on one line: every line-ending or other control character becomes a space.

    User text (a title, a file or pair name, the command line) goes through this wherever it
    enters the report: a carriage return in a ``%`` comment of the LaTeX file would end the
    comment, and what follows would run as TeX.
    """
    return LINE_BREAKING.sub(" ", str(text))


def defined(value) -> bool:
    """Whether ``value`` is a finite number (None, NaN and infinities are undefined)."""
    return value is not None and not (isinstance(value, float) and not math.isfinite(value))


def fmt(value, digits: int = 4) -> str:
    """A score as the paper prints it (four decimals); ``undefined`` for None/NaN."""
    return f"{value:.{digits}f}" if defined(value) else UNDEFINED


def fmt_p(value) -> str:
    """A p-value: four decimals, or two significant digits below 1e-4 (keeps its magnitude)."""
    if not defined(value):
        return UNDEFINED
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.2e}"


def fmt_interval(low, high, digits: int = 3) -> str:
    return f"[{fmt(low, digits)}, {fmt(high, digits)}]"


def full_precision(value) -> str:
    """The exact float (``repr`` round-trips), for ``data-value`` attributes; empty if undefined."""
    return repr(float(value)) if defined(value) else ""


def percent(part, whole) -> str:
    if not (defined(part) and defined(whole)) or whole == 0:
        return UNDEFINED
    return f"{100 * part / whole:.0f}%"


def topic_ranges(topics: Iterable[str], limit: int = 40) -> str:
    """Topic ids as compact ranges (``301-303, 305``); numeric ids by value, others as they are."""
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
