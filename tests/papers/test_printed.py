"""A printed number and the rule a reproduced value is held to (irrepro.papers.printed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.papers.printed import (
    RULES,
    PrintedValue,
    Reading,
    compare,
    printed_number,
    rounding_note,
    rules_in_words,
    threshold_holds,
)  # fmt: skip


def _value(printed: str, rule: str, quote: str | None = None) -> PrintedValue:
    return PrintedValue("sigir2020", "Table 4", "a value", printed, rule, quote=quote or f"it is {printed} here",
                        where="Section 5.3")  # fmt: skip


def test_printed_numbers_in_digits_words_and_powers_of_ten():
    assert printed_number("eight") == 8 and printed_number("One") == 1
    assert float(printed_number("5E-04")) == 5e-4 and float(printed_number("54E\u221206")) == 54e-6
    assert printed_number("0.90").as_tuple().exponent == -2  # the printed precision is kept
    with pytest.raises(ValueError, match="not a number"):
        printed_number("many")


@given(st.floats(min_value=0.0, max_value=1.0), st.integers(min_value=1, max_value=4))
def test_a_rounded_print_matches_exactly_the_values_that_round_to_it(value, decimals):
    printed = f"{value:.{decimals}f}"
    rule = _value(printed, "rounded")
    assert rule.matches(value)
    assert not rule.matches(float(printed) + 0.6 * 10.0**-decimals)
    assert not rule.matches(float(printed) - 0.6 * 10.0**-decimals)


@given(st.floats(min_value=1e-6, max_value=0.999), st.integers(min_value=2, max_value=4))
def test_a_truncated_print_matches_from_it_up_to_one_unit_of_its_last_digit(value, decimals):
    printed = f"{math.floor(value * 10**decimals) / 10**decimals:.{decimals}f}"
    rule = _value(printed, "truncated")
    assert rule.matches(float(printed)) and rule.matches(float(printed) + 0.9 * 10.0**-decimals)
    assert not rule.matches(float(printed) + 1.01 * 10.0**-decimals) and not rule.matches(float(printed) - 1e-9)


def test_bounds_are_read_strictly_at_full_precision_and_counts_exactly():
    below, above = _value("0.29", "below"), _value("0.9", "above")
    assert below.matches(0.2882) and below.matches(0.2899) and not below.matches(0.2901)
    assert not above.matches(0.8988) and above.matches(0.9001) and above.matches(0.95)  # 0.8988 only rounds to 0.9
    assert not above.matches(0.9) and _value("0.9", "at least").matches(
        0.9
    )  # equality: "above" fails, "at least" holds
    assert not below.matches(0.29) and _value("0.29", "at most").matches(0.29)
    one = _value("one", "exact", quote="just one point")
    assert one.matches(1.0) and not one.matches(8.0) and not one.matches(float("nan"))
    assert one.tolerance == "exactly (a count)" and "< 0.29" in below.tolerance and "unrounded" in above.tolerance


def test_the_strict_reading_on_small_known_cases():
    assert not threshold_holds(0.8988, "above", 0.9)  # rounds to 0.90, yet is not above 0.9
    assert threshold_holds(0.9001, "above", 0.9)
    assert not threshold_holds(0.9069, "above", 0.91) and threshold_holds(0.9118, "above", 0.90)
    assert not threshold_holds(0.9, "above", 0.9) and threshold_holds(0.9, "at least", 0.9)
    assert not threshold_holds(0.86, "below", 0.86) and threshold_holds(0.86, "at most", 0.86)
    assert threshold_holds(0.5, "between", 0.4, 0.6) and not threshold_holds(0.6, "between", 0.4, 0.6)
    assert not threshold_holds(float("nan"), "at least", 0.0)
    assert threshold_holds(np.array([0.8988, 0.9001]), "above", 0.9).tolist() == [False, True]
    with pytest.raises(ValueError, match="not one of"):
        threshold_holds(0.5, "around", 0.5)
    with pytest.raises(ValueError, match="upper bound"):
        threshold_holds(0.5, "between", 0.4)


def test_a_rounding_note_stands_beside_a_strict_failure_without_turning_it():
    assert "0.8988 rounds to 0.9" in rounding_note(0.8988, "above", 0.9, 1)
    assert "0.9069 rounds to 0.91" in rounding_note(0.9069, "above", 0.91, 2)
    assert rounding_note(0.9118, "above", 0.90, 2) == ""  # holds: nothing to explain
    assert rounding_note(0.85, "above", 0.9, 1) == ""  # fails even rounded
    assert "rounds to 0.29" in rounding_note(0.2901, "below", 0.29, 2)


def test_a_transcription_must_be_a_number_its_quote_holds_and_its_rule_known():
    with pytest.raises(ValueError, match="does not contain the printed"):
        _value("0.28", "below", quote="below 0.29")  # a typo in the number: the quote no longer holds it
    with pytest.raises(ValueError, match="rule 'about'"):
        _value("0.29", "about")
    with pytest.raises(ValueError, match="a count"):
        _value("0.5", "exact")
    with pytest.raises(ValueError, match="not a number"):
        _value("n/a", "rounded")


def test_compare_sets_reproduced_beside_printed_with_the_difference():
    values = (
        _value("0.70", "rounded"),
        PrintedValue(
            "glm", "Section 3 (text)", "runs", "eight", "exact", quote="remove eight outlier runs", where="Section 3"
        ),
    )
    readings = {"a value": Reading(0.7045, "WCrobust04"), "runs": Reading(7.0, "NIST")}
    table = compare(values, readings)
    assert table["difference"].round(6).tolist() == [0.0045, -1.0]
    assert table["match"].tolist() == [True, False]
    assert table["found at"].tolist() == ["WCrobust04", "NIST"]
    with pytest.raises(ValueError, match="no reproduced value for: runs"):
        compare(values, {"a value": Reading(0.7, "x")})


def test_rules_are_named_in_words_once_each():
    assert rules_in_words(["at most", "above", "below"]) == RULES["at most"]
    with pytest.raises(ValueError, match="unknown rule"):
        rules_in_words(["roughly"])
