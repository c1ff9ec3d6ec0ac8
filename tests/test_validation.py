"""irrepro.validation: one wording for every bad argument, and every public function declares its checks.

The parametrised test at the end feeds every public function of the methods' modules bad types and
values, one parameter at a time (the others valid), and requires an :class:`InvalidParameterError`
(a ValueError and a TypeError) naming the function and the parameter -- never an IndexError,
AttributeError, ZeroDivisionError or OverflowError from deep inside.
"""

from __future__ import annotations

import inspect
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irrepro import evaluation, measures, runs
from irrepro.glm import consistency, contrasts, fit
from irrepro.reproducibility import bootstrap, compare, deterioration, ranking, scores
from irrepro.validation import (
    MAX_CUTOFF,
    Array,
    Boolean,
    Choice,
    Fields,
    FilePath,
    Frame,
    Integer,
    InvalidParameterError,
    Items,
    MappingOf,
    MeasureList,
    NameList,
    OneOrMany,
    Optional,
    Pair,
    Qrels,
    RankedRun,
    Real,
    RunFrame,
    Scores,
    Text,
    as_measure_list,
    check_bool,
    check_choice,
    check_frame,
    check_int,
    check_probability,
    validate_params,
)

# --------------------------------------------------------------------------- single constraints


def test_one_wording_names_parameter_allowed_and_given():
    with pytest.raises(InvalidParameterError) as caught:
        check_probability("rbo_p", 1.5)
    assert str(caught.value) == "rbo_p must be a number in (0, 1); got 1.5"
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TypeError)


@pytest.mark.parametrize("value", [2.5, "3", True, None, 0, 10**30, float("nan")])
def test_integers_are_integers_within_bounds(value):
    with pytest.raises(InvalidParameterError, match=r"^depth must be an integer in \[1, 2147483647\]; got "):
        check_int("depth", value, minimum=1, maximum=MAX_CUTOFF)


def test_an_integer_too_long_to_print_is_still_named():
    with pytest.raises(InvalidParameterError, match="depth must be an integer in .*; got an integer of 16610 bits"):
        check_int("depth", 10**5000, minimum=1, maximum=MAX_CUTOFF)


def test_integer_forms_that_are_accepted():
    assert check_int("depth", np.int64(5), minimum=1) == 5 and type(check_int("depth", np.int64(5))) is int


@pytest.mark.parametrize("value", [0, 1, 0.0, 1.0, -0.1, float("nan"), float("inf"), "0.5", True, None])
def test_probability_is_open_interval(value):
    with pytest.raises(InvalidParameterError, match=r"must be a number in \(0, 1\)"):
        check_probability("p", value)


def test_closed_probability_bounds():
    assert check_probability("alpha", 0.0, open_left=False) == 0.0
    assert check_probability("alpha", 1.0, open_right=False) == 1.0


@pytest.mark.parametrize("value", ["no", "yes", "False", 0, 1, None, np.array([True, False])])
def test_booleans_are_only_booleans(value):
    """``paired="no"`` was taken as true (a non-empty string is truthy)."""
    with pytest.raises(InvalidParameterError, match="paired must be True or False"):
        check_bool("paired", value)
    assert check_bool("paired", np.bool_(False)) is False


def test_choice_names_the_options():
    with pytest.raises(InvalidParameterError, match=r"variant must be one of 'ext', 'min'; got 'max'"):
        check_choice("variant", "max", ("ext", "min"))
    with pytest.raises(InvalidParameterError):
        check_choice("variant", ["ext"], ("ext", "min"))  # unhashable: refused, not a TypeError from `in`


def test_a_string_is_one_measure_not_letters():
    assert as_measure_list("measures", "AP") == ("AP",)
    assert as_measure_list("measures", ["AP", "P@10"]) == ("AP", "P@10")
    for bad in ([], "", 3, [3], b"AP", {"AP": 1}, ["AP", "AP"]):
        with pytest.raises(InvalidParameterError, match="measures must be a measure name"):
            as_measure_list("measures", bad)


def test_frames_say_what_is_wrong():
    with pytest.raises(InvalidParameterError, match=r"got a path \('qrels.txt'\)"):
        check_frame("qrels", Path("qrels.txt"), columns=["query_id"])
    with pytest.raises(InvalidParameterError, match="got a DataFrame without column.s. doc_id"):
        check_frame("qrels", pd.DataFrame({"query_id": ["1"]}), columns=["query_id", "doc_id"])
    with pytest.raises(InvalidParameterError, match=r"got a DataFrame with 0 row\(s\)"):
        check_frame("qrels", pd.DataFrame({"query_id": []}), columns=["query_id"])


@pytest.mark.parametrize(
    "grade,accepted",
    [(1, True), (1.0, True), (-1, True), (2**63 - 1, True), (1.5, False), (10**20, False), ("1", False),
     (float("nan"), False), (True, False)],
)
def test_relevance_grades_are_integers_within_int64(grade, accepted):
    """A 20-digit grade overflowed deep in the evaluator; 1.5 was truncated to 1 without a word."""
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": pd.Series([0, grade], dtype=object)})
    if accepted:
        Qrels().check("qrels", qrels)
    else:
        with pytest.raises(InvalidParameterError, match="relevance grade .* of document b in topic 1"):
            Qrels().check("qrels", qrels)


def test_float_column_of_integral_grades_is_accepted_and_nan_is_not():
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [0.0, 2.0]})
    Qrels().check("qrels", qrels)
    with pytest.raises(InvalidParameterError, match="nan"):
        Qrels().check("qrels", qrels.assign(relevance=[0.0, np.nan]))


@pytest.mark.parametrize(
    "constraint,text,expected",
    [(Integer(1, 10), "7", 7), (Real(0, 1, "neither"), "0.8", 0.8), (Real(0, 1, "neither"), ".5", 0.5),
     (Real(0, None, "neither"), "1e-8", 1e-8)],
)
def test_command_line_text_is_read(constraint, text, expected):
    assert constraint.from_text(text) == expected


@pytest.mark.parametrize(
    "constraint,text",
    [(Integer(1, 10), "1_0"), (Integer(1, 10), "2.5"), (Integer(1, 10), " 7"), (Integer(1, 10), "٣"),
     (Integer(1, MAX_CUTOFF), "9" * 5000), (Real(0, 1, "neither"), "nan"), (Real(0, 1, "neither"), "inf"),
     (Real(0, 1, "neither"), "0x1p-1"), (Real(0, 1, "neither"), "1_0"), (Real(0, 1, "neither"), "1.5")],
)
def test_command_line_text_is_strict(constraint, text):
    """Python's int()/float() read '1_0' as 10 and 'nan' as a number; an option value may not."""
    with pytest.raises(InvalidParameterError, match="must be"):
        constraint.from_text(text)


def test_decorator_checks_given_arguments_and_normalises_them():
    @validate_params(depth=Integer(1, 5), paired=Boolean())
    def measure(depth=3, *, paired=True):
        return depth, paired

    assert measure() == (3, True) and measure(np.int64(2)) == (2, True)
    with pytest.raises(InvalidParameterError, match=r"^measure: depth must be an integer in \[1, 5\]; got 9$"):
        measure(9)
    with pytest.raises(TypeError, match="unexpected keyword"):
        measure(deep=1)
    with pytest.raises(TypeError, match="no parameter"):
        validate_params(nope=Boolean())(measure.__wrapped__)


# --------------------------------------------------------------------------- every public function

MODULES = (evaluation, measures, scores, ranking, bootstrap, compare, deterioration, fit, contrasts, consistency)
PUBLIC_FUNCTIONS = [
    getattr(module, name)
    for module in MODULES
    for name in module.__all__
    if inspect.isfunction(getattr(module, name)) and getattr(module, name).__module__ == module.__name__
] + [runs.write_run]
# parse_measure checks its one argument itself (it is the measure registry's reader), and so do the
# two helpers the scores and bootstrap modules share (errors naming `what`); evaluate_prepared is
# evaluate's body for callers that prepared the qrels and validated the arguments (evaluate, compare_runs);
# system_effects_refit is fit_two_way's array core for many refits of resamples of a matrix already fitted
# (and so checked) by fit_two_way (irrepro.glm.resampling); without_rounding_noise is the contrasts' array
# core on differences of effects already checked (1-D or 2-D, NaN allowed for unconverged fits).
SELF_CHECKING = {measures.parse_measure, scores.as_topic_series, scores.common_topics, evaluation.evaluate_prepared,
                 fit.system_effects_refit, contrasts.without_rounding_noise}  # fmt: skip


def _frame(columns, rows):
    data = {
        "query_id": [str(i) for i in range(rows)], "doc_id": [f"d{i}" for i in range(rows)],
        "score": np.linspace(1, 0, rows), "rank": np.arange(1, rows + 1), "relevance": [1] * rows, "run": "r",
    }
    if not columns:
        return pd.DataFrame(np.full((rows, 2), 0.5), columns=["a", "b"])
    return pd.DataFrame({c: data[c] for c in columns})


def valid_value(constraint):
    """An argument the constraint accepts (the function body never runs: another is invalid)."""
    if isinstance(constraint, Integer):
        return constraint.minimum if constraint.minimum is not None else 0
    if isinstance(constraint, Real):
        low, high = constraint.minimum, constraint.maximum
        return (low + high) / 2 if low is not None and high is not None else (low + 1 if low is not None else 0.5)
    if isinstance(constraint, Optional):
        return None
    if isinstance(constraint, (Frame, RunFrame, Qrels)):
        return _frame(constraint.columns, max(constraint.min_rows, 2))
    simple = {
        Boolean: lambda c: True, Choice: lambda c: c.options[0], Text: lambda c: "tag", FilePath: lambda c: "x.run",
        NameList: lambda c: c.options[0] if c.options else "AP", Items: lambda c: [str(i) for i in range(c.min_length)],
        MeasureList: lambda c: "AP", Fields: lambda c: {},
        Array: lambda c: np.zeros((2,) * c.ndim), Scores: lambda c: pd.Series([0.1, 0.2], index=["1", "2"]),
        RankedRun: lambda c: ["a", "b"], MappingOf: lambda c: {"r": valid_value(c.inner)},
        Pair: lambda c: (valid_value(c.inner), valid_value(c.inner)),
        OneOrMany: lambda c: valid_value(c.single or c.inner),
    }
    return simple[type(constraint)](constraint)


def invalid_values(constraint) -> list:
    """Arguments the constraint must refuse: wrong types, out-of-range values, empty inputs, paths."""
    path = Path("no/such/file")
    if isinstance(constraint, Integer):
        out = [2.5, "3", True, None]
        out += [constraint.minimum - 1] if constraint.minimum is not None else []
        return out + ([constraint.maximum + 1, 10**30] if constraint.maximum is not None else [])
    if isinstance(constraint, Real):
        out = ["0.5", None, True, math.nan, math.inf]
        if constraint.minimum is not None:
            out.append(constraint.minimum if constraint.closed in ("neither", "right") else constraint.minimum - 1)
        if constraint.maximum is not None:
            out.append(constraint.maximum if constraint.closed in ("neither", "left") else constraint.maximum + 1)
        return out
    if isinstance(constraint, Optional):
        return [v for v in invalid_values(constraint.inner) if v is not None]
    if isinstance(constraint, (Frame, RunFrame, Qrels)):
        good = valid_value(constraint)
        out = [path, str(path), [], None, good.iloc[:0]]
        out += [good.drop(columns=constraint.columns[-1])] if constraint.columns else []
        if isinstance(constraint, RunFrame):
            out += [good.assign(score=np.nan), good.assign(score="high")]
        if isinstance(constraint, Qrels):
            out += [good.assign(relevance=1.5), good.assign(relevance=pd.Series([10**20, 1], dtype=object))]
        return out
    table = {
        Boolean: lambda c: ["no", "yes", 0, 1, None],
        Choice: lambda c: ["no-such-option", ["list"], None],
        Text: lambda c: ["", 3, None] + (["a tag"] if c.no_blanks else []),
        FilePath: lambda c: ["", 3, None, pd.DataFrame()],
        NameList: lambda c: ([] if c.allow_empty else [[]]) + [3, ["x", "x"], [1], b"AP", None]
        + (["nope"] if c.options else []),
        MeasureList: lambda c: ([] if c.allow_empty else [[]]) + [3, ["x", "x"], [1], b"AP", None],
        Fields: lambda c: ["actor: x", 3, ["a"], None],
        Items: lambda c: ["abcd", ["1"] * (c.min_length - 1), 5, None],
        Array: lambda c: ["abc", np.zeros((2,) * (c.ndim + 1)), [], None] + ([[2.0]] if c.maximum is not None else []),
        Scores: lambda c: [path, [0.1, 0.2], pd.Series([], dtype=float), pd.Series(["a", "b"]), None]
        + ([] if c.frame else [pd.DataFrame({"a": [0.1]})]),
        RankedRun: lambda c: ["abc", [], path, [1, 2], None, pd.DataFrame({"query_id": ["1"], "doc_id": ["a"]})],
        MappingOf: lambda c: [{}, {"r": invalid_values(c.inner)[0]}, None],
        Pair: lambda c: ["ab", [valid_value(c.inner)], (invalid_values(c.inner)[0], valid_value(c.inner)), None],
        OneOrMany: lambda c: [{}, {"r": invalid_values(c.inner)[0]}, *invalid_values(c.single or c.inner)],
    }
    return table[type(constraint)](constraint)


def _cases():
    for function in PUBLIC_FUNCTIONS:
        if function in SELF_CHECKING:
            continue
        for parameter, constraint in function.parameter_constraints.items():
            for index, bad in enumerate(invalid_values(constraint)):
                yield pytest.param(function, parameter, bad, id=f"{function.__name__}-{parameter}-{index}")


def test_every_public_function_declares_every_parameter():
    for function in PUBLIC_FUNCTIONS:
        if function in SELF_CHECKING:
            continue
        declared = getattr(function, "parameter_constraints", None)
        assert declared is not None, f"{function.__module__}.{function.__name__} has no validate_params"
        assert set(declared) == set(inspect.signature(function).parameters), function.__name__


@pytest.mark.parametrize("function,parameter,bad", list(_cases()))
def test_bad_argument_is_one_clear_error(function, parameter, bad):
    arguments = {name: valid_value(c) for name, c in function.parameter_constraints.items()}
    arguments[parameter] = bad
    with pytest.raises(InvalidParameterError) as caught:
        function(**arguments)
    assert str(caught.value).startswith(f"{function.__name__}: {parameter}"), str(caught.value)
    assert " must be " in str(caught.value) and "; got " in str(caught.value)


@pytest.mark.parametrize("name", ["P@100000000000000000000", "nDCG@2147483648", "recall@0", "AP,P@10", "A", "P", 3])
def test_measure_names_outside_the_registry(name):
    with pytest.raises(InvalidParameterError, match="measure"):
        measures.parse_measure(name)
