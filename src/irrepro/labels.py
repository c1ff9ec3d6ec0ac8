"""Unique labels for runs read from files: the run tag, told apart by file name or path where tags collide.

Two runs must never print under one label: one run's numbers would stand under the other's name,
and in a mapping keyed by label one run would silently replace the other. The rule, applied by
:func:`run_labels` in command-line order and deterministic:

1. every run starts with its tag;
2. while several runs share a label, those of them whose label is the least specific move on one
   level: tag -> file name -> the path as given -> ``path#i`` (i = the run's 1-based position);
3. ``path#i`` labels are distinct from each other (the text after the last ``#`` is the
   position), so the loop ends: each round moves at least one run up, at most 3 levels each.

A label at a more specific level keeps it when a less specific one collides with it: a run tagged
like another run's path gives way, not the run whose path it is.

>>> run_labels(["X", "X", "Y"], ["a/x.run", "b/x.run", "c.run"])
['a/x.run', 'b/x.run', 'Y']
>>> run_labels(["X", "X", "a/x.run"], ["a/x.run", "b/x.run", "c.run"])
['a/x.run', 'b/x.run', 'c.run']
>>> run_labels(["X", "X"], ["x.run", "x.run"])
['x.run#1', 'x.run#2']
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence

__all__ = ["run_labels"]

_LEVELS = 4  # tag, file name, path, path#position


def _candidate(level: int, tag: str, path: str, position: int) -> str:
    if level == 0:
        return tag
    if level == 1:
        return os.path.basename(path.rstrip("/")) or path
    if level == 2:
        return path
    return f"{path}#{position}"


def run_labels(tags: Sequence[str], paths: Sequence[str | os.PathLike]) -> list[str]:
    """Give one distinct label per run, in the given order (see the module docstring for the rule).

    Parameters
    ----------
    tags : sequence of str
        The runs' tags.
    paths : sequence of str or path-like
        The runs' files, one per tag.

    Returns
    -------
    list of str
        The labels.

    Raises
    ------
    ValueError
        If there are not as many paths as tags.
    """
    if len(tags) != len(paths):
        raise ValueError(f"run_labels: {len(tags)} tags for {len(paths)} paths")
    texts = [os.fspath(path) for path in paths]
    levels = [0] * len(tags)
    while True:
        labels = [_candidate(level, tag, path, i + 1) for i, (level, tag, path) in enumerate(zip(levels, tags, texts, strict=True))]
        holders: dict[str, list[int]] = defaultdict(list)
        for index, label in enumerate(labels):
            holders[label].append(index)
        clashes = [indexes for indexes in holders.values() if len(indexes) > 1]
        if not clashes:
            return labels
        for indexes in clashes:
            lowest = min(levels[i] for i in indexes)
            for i in indexes:
                if levels[i] == lowest:
                    levels[i] += 1
        assert max(levels) < _LEVELS, "path#position labels are distinct"
