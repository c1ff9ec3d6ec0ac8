"""Answers are compared entry by entry, within the tolerance, without revealing the reference."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.exercises.comparison import compare, same_items

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(finite, st.floats(min_value=0, max_value=10))
def test_a_number_within_the_tolerance_matches_and_one_beyond_it_does_not(reference, tolerance):
    assert compare(reference + 0.5 * tolerance, reference, tolerance=tolerance) == []
    beyond = reference + 2 * tolerance + 1e-3 * max(1.0, abs(reference))
    assert compare(beyond, reference, tolerance=tolerance) != []


def test_the_message_gives_a_direction_and_never_the_reference():
    [problem] = compare(0.5, 0.61234, tolerance=0.01)
    assert "too low" in problem and "0.61234" not in problem and "0.612" not in problem
    [problem] = compare({"KTU": 0.9}, {"KTU": 0.61234}, tolerance=0.01)
    assert problem.startswith("KTU: 0.9 is too high")


def test_nan_matches_nan_only():
    assert compare(math.nan, math.nan, tolerance=0.1) == []
    assert compare(0.0, math.nan, tolerance=0.1) != []
    assert compare(math.nan, 0.0, tolerance=0.1) != []


def test_numpy_numbers_are_numbers_and_booleans_are_not():
    assert compare(np.float64(0.6), 0.6, tolerance=0) == []
    assert compare(True, 1.0, tolerance=0) == ["expected a number, got bool True"]
    assert compare(np.True_, True, tolerance=0) == []
    assert compare(1, True, tolerance=0) != []


def test_mappings_match_by_key_in_any_order_and_name_missing_and_extra_keys():
    assert compare({"b": 2.0, "a": 1.0}, {"a": 1.0, "b": 2.0}, tolerance=0) == []
    assert compare(pd.Series({"a": 1.0, "b": 2.0}), {"a": 1.0, "b": 2.0}, tolerance=0) == []
    problems = compare({"a": 1.0, "c": 3.0}, {"a": 1.0, "b": 2.0}, tolerance=0)
    assert problems == ["missing key(s) ['b']", "unexpected key(s) ['c']"]


def test_sequences_match_in_order_and_by_length():
    assert compare((1.0, 2.0), [1.0, 2.0], tolerance=0) == []
    assert compare(np.array([1.0, 2.0]), [1.0, 2.0], tolerance=0) == []
    assert compare([2.0, 1.0], [1.0, 2.0], tolerance=0.5) == ["[0]: 2 is too high (tolerance ±0.5)", "[1]: 1 is too low (tolerance ±0.5)"]
    assert compare([1.0], [1.0, 2.0], tolerance=0) == ["expected 2 entries, got 1"]
    assert compare("12", [1.0, 2.0], tolerance=0) != []


def test_strings_match_ignoring_case_and_blanks():
    assert compare("  RBO ", "rbo", tolerance=0) == []
    assert compare("KTU", "RBO", tolerance=0) == ["'KTU' is not right"]
    assert compare(1.0, "RBO", tolerance=0) == ["expected text, got float 1.0"]


def test_frames_match_by_labels_cell_by_cell():
    reference = pd.DataFrame({"KTU": [0.9, 0.8], "RBO": [0.7, 0.6]}, index=pd.Index([1, 10], name="k"))
    shuffled = reference.loc[[10, 1], ["RBO", "KTU"]]
    assert compare(shuffled, reference, tolerance=1e-9) == []
    wrong = reference.copy()
    wrong.loc[10, "RBO"] = 0.9
    assert compare(wrong, reference, tolerance=1e-3) == ["row 10, column 'RBO': 0.9 is too high (tolerance ±0.001)"]
    problems = compare(reference.drop(columns="RBO").rename(index={10: 100}), reference, tolerance=0)
    assert problems == ["missing row(s) [10]", "unexpected row(s) [100]", "missing column(s) ['RBO']"]
    assert compare(reference.to_dict(), reference, tolerance=0)[0].startswith("expected a DataFrame")


def test_a_reference_of_an_unknown_type_is_a_programming_error():
    with pytest.raises(TypeError, match="no comparison defined"):
        compare(1, object(), tolerance=0)


def test_same_items_ignores_order_and_repeats():
    assert same_items(["b", "a", "a"], {"a", "b"}, tolerance=0) == []
    assert same_items(["a"], {"a", "b"}, tolerance=0) == ["1 label(s) missing"]
    assert same_items(["a", "b", "z"], {"a", "b"}, tolerance=0) == ["['z'] should not be there"]
    assert same_items("ab", {"a", "b"}, tolerance=0) == ["expected a collection of labels, got str"]
