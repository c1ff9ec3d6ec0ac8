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
    """Give the ids of all exercises, or of one chapter's.

    Parameters
    ----------
    chapter : str, optional
        The chapter's page file stem.

    Returns
    -------
    list of str
        The ids, in registration order.
    """
    return [key for key, item in registered().items() if chapter is None or item.chapter == chapter]


def get(exercise_id: str) -> Exercise:
    """Give the :class:`Exercise` record (title, kind, tolerance, hint).

    Parameters
    ----------
    exercise_id : str
        The exercise's id.

    Returns
    -------
    Exercise
        The record.

    Raises
    ------
    KeyError
        For an unknown id, listing the known ones.
    """
    return lookup(exercise_id)


def solution(exercise_id: str) -> Any:
    """Compute the reference answer of an exercise now, by the package.

    Parameters
    ----------
    exercise_id : str
        The exercise's id.

    Returns
    -------
    object
        The answer, of the exercise's shape.
    """
    return lookup(exercise_id).solve()


def check(exercise_id: str, answer: Any) -> bool:
    """Print whether ``answer`` is right within the exercise's tolerance (with a hint if not).

    A wrong type or shape is a wrong answer, never an exception.

    Parameters
    ----------
    exercise_id : str
        The exercise's id (:func:`ids`).
    answer : object
        The answer, of the exercise's shape (a number, a dict, a frame ...).

    Returns
    -------
    bool
        True if the answer is right.
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
    """List all exercises as a table, for a course page.

    Returns
    -------
    pandas.DataFrame
        Index ``id``; columns ``chapter``, ``title``, ``kind`` and ``tolerance``.
    """
    rows = [
        {"id": item.id, "chapter": item.chapter, "title": item.title, "kind": item.kind, "tolerance": item.tolerance}
        for item in registered().values()
    ]
    return pd.DataFrame(rows, columns=["id", "chapter", "title", "kind", "tolerance"]).set_index("id")
