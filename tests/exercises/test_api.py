"""The self-check API: every registered exercise accepts its own solution and rejects a wrong one."""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
import pytest

from irrepro import exercises
from irrepro.exercises import registry
from irrepro.exercises.comparison import same_items


def _wrong(answer, tolerance: float):
    """A clearly wrong answer of the same shape: every number moved by far more than the tolerance."""
    shift = max(1.0, 100 * tolerance)
    if isinstance(answer, pd.DataFrame):
        return answer.apply(lambda column: column + shift if pd.api.types.is_numeric_dtype(column) else column + " (no)")
    if isinstance(answer, pd.Series):
        return _wrong(answer.to_dict(), tolerance)
    if isinstance(answer, dict):
        return {key: _wrong(value, tolerance) for key, value in answer.items()}
    if isinstance(answer, (bool, np.bool_)):
        return not answer
    if isinstance(answer, numbers.Real):
        return float(answer) + shift if not math.isnan(answer) else 0.0
    if isinstance(answer, str):
        return answer + " (no)"
    if isinstance(answer, (set, frozenset)):
        return sorted(answer)[1:] + ["not-a-label"]
    return [_wrong(item, tolerance) for item in answer]


@pytest.fixture(scope="module")
def solutions():
    return {exercise_id: exercises.solution(exercise_id) for exercise_id in exercises.ids()}


def test_there_are_exercises_and_their_records_are_complete():
    assert exercises.ids(), "no exercise is registered"
    for exercise_id in exercises.ids():
        item = exercises.get(exercise_id)
        assert item.id == exercise_id and item.kind in exercises.KINDS
        assert item.title and item.hint and item.tolerance >= 0
    assert set(exercises.catalogue().index) == set(exercises.ids())


@pytest.mark.parametrize("exercise_id", exercises.ids())
def test_the_solution_passes_its_own_check(exercise_id, solutions, capsys):
    assert exercises.check(exercise_id, solutions[exercise_id]) is True
    assert "right" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", exercises.ids())
def test_a_clearly_wrong_answer_fails_with_the_hint(exercise_id, solutions, capsys):
    item = exercises.get(exercise_id)
    assert exercises.check(exercise_id, _wrong(solutions[exercise_id], item.tolerance)) is False
    out = capsys.readouterr().out
    assert "not yet" in out and item.hint in out


@pytest.mark.parametrize("exercise_id", exercises.ids())
def test_an_answer_of_the_wrong_type_fails_without_an_exception(exercise_id, capsys):
    assert exercises.check(exercise_id, None) is False
    assert "Hint:" in capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", exercises.ids())
def test_the_solution_is_computed_each_time_not_stored(exercise_id, solutions):
    again = exercises.solution(exercise_id)
    assert again is not solutions[exercise_id]
    assert exercises.get(exercise_id).compare(again, solutions[exercise_id], tolerance=0) == []


def test_an_unknown_id_is_an_error_listing_the_known_ids():
    with pytest.raises(KeyError) as error:
        exercises.check("sigir2020-ktu-by-hnd", 0.6)
    message = str(error.value)
    assert "no exercise 'sigir2020-ktu-by-hnd'" in message and "Did you mean 'sigir2020-ktu-by-hand'" in message
    for exercise_id in exercises.ids():
        assert exercise_id in message
    with pytest.raises(KeyError, match="Known exercises"):
        exercises.solution("nothing-here")


def test_the_wrong_answer_helper_builds_wrong_answers():
    assert _wrong({"a": 1.0, "b": [0.5]}, 0.01) == {"a": 2.0, "b": [1.5]}
    assert same_items(_wrong({"x", "y"}, 0), {"x", "y"}, tolerance=0)


@pytest.fixture
def scratch_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", {})
    return registry


def test_the_decorator_registers_and_returns_the_function(scratch_registry):
    @scratch_registry.exercise("demo-answer", chapter="demo", title="A demo", kind="by hand", tolerance=0.1, hint="h")
    def answer():
        return 42.0

    assert answer() == 42.0
    assert list(scratch_registry.registered()) == ["demo-answer"]
    assert scratch_registry.lookup("demo-answer").solve is answer


@pytest.mark.parametrize(
    ("exercise_id", "options", "message"),
    [
        ("Demo answer", {}, "lower-case words joined by hyphens"),
        ("demo", {}, "lower-case words joined by hyphens"),
        ("demo-answer", {"kind": "essay"}, "kind must be one of"),
        ("demo-answer", {"tolerance": -1.0}, "tolerance must be >= 0"),
        ("demo-answer", {"hint": " "}, "give a title and a hint"),
    ],
)
def test_the_decorator_rejects_bad_records(scratch_registry, exercise_id, options, message):
    arguments = {"chapter": "demo", "title": "A demo", "kind": "by hand", "tolerance": 0.0, "hint": "h"} | options
    with pytest.raises(ValueError, match=message):
        scratch_registry.exercise(exercise_id, **arguments)


def test_an_id_registered_twice_is_an_error(scratch_registry):
    scratch_registry.exercise("demo-answer", chapter="demo", title="t", kind="GLM", tolerance=0, hint="h")(lambda: 1)
    with pytest.raises(ValueError, match="registered twice"):
        scratch_registry.exercise("demo-answer", chapter="demo", title="t", kind="GLM", tolerance=0, hint="h")
