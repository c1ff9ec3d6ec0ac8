"""One order for topic ids, used wherever the package lists or sorts topics.

TREC topic ids are numbers written as text (``"301"``, ``"1001"``); in string order ``"1001"`` would
come before ``"301"``. Ids made of ASCII digits therefore sort by their number, and come before every
other id (``"q1"``, ``"301-a"``, the Reuters stand-in's category names), which sort as strings. Ties
between equal numbers written differently (``"0301"`` and ``"301"``) are broken by the text, so the
order is total and deterministic.

>>> sort_topics(["q2", "1001", "301", "q10", "0301"])
['0301', '301', '1001', 'q10', 'q2']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["topic_key", "sort_topics"]


def topic_key(topic: Any) -> tuple[int, int, str]:
    """Give the sort key of one topic id: ``(0, number, text)`` for a number, ``(1, 0, text)`` otherwise.

    Parameters
    ----------
    topic : object
        A topic id (a string or a number).

    Returns
    -------
    tuple of (int, int, str)
        The key.

    Examples
    --------
    >>> topic_key("301"), topic_key(301), topic_key("q1")
    ((0, 301, '301'), (0, 301, '301'), (1, 0, 'q1'))
    """
    text = str(topic)
    # isascii: str.isdigit accepts digits such as "²" that int() rejects
    if text.isascii() and text.isdigit():
        return (0, int(text), text)
    return (1, 0, text)


def sort_topics(topics: Iterable[Any]) -> list[str]:
    """Sort topic ids in the package's topic order (see the module docstring).

    Parameters
    ----------
    topics : iterable
        Topic ids (strings or numbers).

    Returns
    -------
    list of str
        The ids as strings, sorted.
    """
    return sorted((str(topic) for topic in topics), key=topic_key)
