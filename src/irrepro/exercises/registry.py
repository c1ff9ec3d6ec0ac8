"""The exercise record and the registry that chapter modules add to with one decorator.

An exercise is one small function returning its reference answer, computed by the package
whenever it is called (never stored), decorated with what a student and the self-check need::

    @exercise(
        "sigir2020-ktu-by-hand",
        chapter="measuring_reproducibility",
        title="KTU and RBO of two five-document rankings, by hand",
        kind="by hand",
        tolerance=5e-3,
        hint="...",
    )
    def ktu_and_rbo_by_hand():
        return {"KTU": ..., "RBO": ...}

The id is also the exercise's ``:label:`` in the chapter, so the page, the student notebook and
``irrepro.exercises.check`` name an exercise the same way.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from irrepro.exercises.comparison import compare

__all__ = ["KINDS", "Exercise", "UnknownExerciseError", "exercise", "lookup", "registered"]

KINDS = ("by hand", "predict-then-check", "interpretation", "experiment", "GLM")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")

Comparison = Callable[..., list[str]]


@dataclass(frozen=True)
class Exercise:
    """One exercise: where it is, what kind it is, and how an answer to it is checked.

    Parameters
    ----------
    id : str
        Lower-case words joined by hyphens, starting with the chapter's prefix.
    chapter : str
        The chapter's page file stem.
    title : str
        The exercise's title.
    kind : str
        One of :data:`KINDS`.
    tolerance : float
        The absolute tolerance on every number of the answer.
    hint : str
        Printed with a wrong answer.
    solve : callable
        ``solve()`` computes the reference answer with the package.
    compare : callable, default compare
        ``compare(answer, reference, tolerance=...)`` lists what is wrong with an answer (empty:
        right).
    """

    id: str
    chapter: str
    title: str
    kind: str
    tolerance: float
    hint: str
    solve: Callable[[], Any] = field(repr=False)
    compare: Comparison = field(default=compare, repr=False)


_REGISTRY: dict[str, Exercise] = {}


def exercise(
    exercise_id: str,
    *,
    chapter: str,
    title: str,
    kind: str,
    tolerance: float,
    hint: str,
    compare: Comparison = compare,
) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
    """Register the decorated function as the solver of exercise ``exercise_id``.

    The function is returned unchanged.

    Parameters
    ----------
    exercise_id : str
        Lower-case words joined by hyphens, starting with the chapter's prefix (``sigir2020-``,
        ``routing-`` for the CLEF 2019 chapter, ``glm-``).
    chapter : str
        The chapter's page file stem.
    title : str
        The exercise's title.
    kind : str
        One of :data:`KINDS`.
    tolerance : float
        Absolute (0 for exact answers).
    hint : str
        Printed with a wrong answer.
    compare : callable, default compare
        Lists what is wrong with an answer.

    Returns
    -------
    callable
        The decorator.

    Raises
    ------
    ValueError
        For an id not of that form or registered twice, an unknown kind, a negative tolerance, or
        no title or hint.
    """
    if not _ID.match(exercise_id):
        raise ValueError(f"exercise id {exercise_id!r}: use lower-case words joined by hyphens, e.g. 'sigir2020-ktu-by-hand'")
    if exercise_id in _REGISTRY:
        raise ValueError(f"exercise id {exercise_id!r} is registered twice ({_REGISTRY[exercise_id].chapter})")
    if kind not in KINDS:
        raise ValueError(f"exercise {exercise_id!r}: kind must be one of {KINDS}, got {kind!r}")
    if not tolerance >= 0:
        raise ValueError(f"exercise {exercise_id!r}: tolerance must be >= 0, got {tolerance}")
    if not hint.strip() or not title.strip():
        raise ValueError(f"exercise {exercise_id!r}: give a title and a hint")

    def register(solve: Callable[[], Any]) -> Callable[[], Any]:
        _REGISTRY[exercise_id] = Exercise(exercise_id, chapter, title, kind, tolerance, hint, solve, compare)
        return solve

    return register


def registered() -> dict[str, Exercise]:
    """Give the registry, in registration order (chapter modules' order).

    Returns
    -------
    dict of str -> Exercise
        Id -> exercise.
    """
    return dict(_REGISTRY)


def lookup(exercise_id: str) -> Exercise:
    """Give the exercise named ``exercise_id``.

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
    UnknownExerciseError
        A ``KeyError`` listing the known ids.
    """
    try:
        return _REGISTRY[exercise_id]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(exercise_id), list(_REGISTRY), n=1)
        suggestion = f" Did you mean {close[0]!r}?" if close else ""
        raise UnknownExerciseError(
            f"no exercise {exercise_id!r}.{suggestion} Known exercises: {', '.join(_REGISTRY) or '(none)'}"
        ) from None


class UnknownExerciseError(KeyError):
    """An exercise id that is not registered; the message lists the registered ones."""

    def __str__(self) -> str:  # KeyError would print the message with quotes around it
        return str(self.args[0])
