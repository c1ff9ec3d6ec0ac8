"""The values the paper printed in its online appendix, kept as text, and the intervals they stand for."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.papers import published


@given(st.floats(min_value=1e-30, max_value=0.999), st.integers(min_value=1, max_value=6))
def test_printed_interval_contains_the_rounded_value(value, decimals):
    text = f"{value:.{decimals}f}"
    low, high = published.printed_interval(text, truncated=False)
    if float(text) == 0:
        return
    assert low - 1e-15 <= value <= high + 1e-15


@given(st.floats(min_value=1e-30, max_value=0.999))
def test_printed_interval_contains_the_truncated_leading_digit(value):
    exponent = math.floor(math.log10(value))
    digit = int(value / 10.0**exponent + 1e-12)
    if digit == 0 or digit > 9:  # float noise at an exact power of ten
        return
    low, high = published.printed_interval(f"{digit}E-{-exponent:02d}" if exponent < 0 else f"{digit}E{exponent}",
                                           truncated=True)  # fmt: skip
    assert low * (1 - 1e-9) <= value < high * (1 + 1e-9)


def test_printed_tables_have_the_papers_shape():
    assert published.appendix_table1().shape == (21, 11)
    assert published.appendix_table2().shape == (20, 6)
    with pytest.raises(ValueError, match="not a number"):
        published.printed_interval("n/a", truncated=True)
