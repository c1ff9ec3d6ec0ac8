"""Exercises of the book's chapters, with a self-check for students.

Every exercise has an id (its ``:label:`` on the page), a kind (by hand, predict-then-check,
interpretation, experiment, GLM), an absolute tolerance and a hint. Its reference answer is
computed by the package each time :func:`solution` is called; nothing is stored::

    >>> from irrepro import exercises
    >>> "sigir2020-ktu-by-hand" in exercises.ids()
    True
    >>> exercises.check("sigir2020-ktu-by-hand", {"KTU": 0.1, "RBO": 0.5})
    sigir2020-ktu-by-hand: not yet.
      - KTU: 0.1 is too low (tolerance ±0.005)
      - RBO: 0.5 is too low (tolerance ±0.005)
      Hint: ...
    False

Exercises live in one module per chapter, named by its paper's key (:mod:`.sigir2020`, :mod:`.clef2019`,
:mod:`.glm`; the CLEF 2019 chapter's ids keep their prefix ``routing-``), each a
small function decorated with :func:`exercise` (see :mod:`irrepro.exercises.registry`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from irrepro.exercises.comparison import compare, same_items
from irrepro.exercises.registry import (
    KINDS,
    Exercise,
    UnknownExerciseError,
    exercise,
    lookup,
    registered,
)

# The chapter modules register their exercises on import; their heavy imports are inside the solvers.
from irrepro.exercises import glm, clef2019, sigir2020  # noqa: F401  isort: skip (the order of registration)

__all__ = [
    "KINDS",
    "Exercise",
    "UnknownExerciseError",
    "catalogue",
    "check",
    "compare",
    "exercise",
    "get",
    "ids",
    "same_items",
    "solution",
]


def ids(chapter: str | None = None) -> list[str]:
    """The ids of all exercises, or of one chapter's (``chapter`` is the page's file stem)."""
    return [key for key, item in registered().items() if chapter is None or item.chapter == chapter]


def get(exercise_id: str) -> Exercise:
    """The :class:`Exercise` record (title, kind, tolerance, hint); an unknown id lists the known ones."""
    return lookup(exercise_id)


def solution(exercise_id: str) -> Any:
    """The reference answer of an exercise, computed now by the package."""
    return lookup(exercise_id).solve()


def check(exercise_id: str, answer: Any) -> bool:
    """Print whether ``answer`` is right within the exercise's tolerance (with a hint if not).

    Returns True or False. A wrong type or shape is a wrong answer, never an exception.
    """
    item = lookup(exercise_id)
    problems = item.compare(answer, item.solve(), tolerance=item.tolerance)
    if not problems:
        within = f"every number within ±{item.tolerance:g} of the reference" if item.tolerance else "exact"
        print(f"{item.id}: right ({within}).")
        return True
    print(f"{item.id}: not yet.")
    for problem in problems:
        print(f"  - {problem}")
    print(f"  Hint: {item.hint}")
    return False


def catalogue() -> pd.DataFrame:
    """All exercises as a table: id, chapter, title, kind, tolerance (for a course page)."""
    rows = [
        {"id": item.id, "chapter": item.chapter, "title": item.title, "kind": item.kind, "tolerance": item.tolerance}
        for item in registered().values()
    ]
    return pd.DataFrame(rows, columns=["id", "chapter", "title", "kind", "tolerance"]).set_index("id")
