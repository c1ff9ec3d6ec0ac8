"""irrepro.string_order: the bytes shortcut gives Python's order, whatever the strings."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.string_order import string_codes, string_order

# ASCII (the shortcut), NUL (refused by the shortcut: NumPy's bytes drop a trailing NUL), non-ASCII
# and ids longer than one 8-byte word.
TEXT = st.text(alphabet=st.sampled_from(["a", "b", "B", "0", "-", " ", "\x00", "\x7f", "é", "€"]), max_size=19)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(TEXT, max_size=40))
def test_string_order_sorts_as_python_and_keeps_equal_strings_in_order(strings):
    values = np.array(strings, dtype=object)
    order = string_order(values)
    assert values[order].tolist() == sorted(strings)
    assert order.tolist() == sorted(range(len(strings)), key=lambda i: (strings[i], i))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(TEXT, max_size=40))
def test_string_codes_are_factorize_in_sorted_order(strings):
    values = np.array(strings, dtype=object)
    assert string_codes(values).tolist() == pd.factorize(values, sort=True)[0].tolist()


def test_values_that_are_not_strings_sort_as_python_sorts_them():
    assert string_order(np.array([10, 9, 100], dtype=object)).tolist() == [1, 0, 2]  # not "10" < "100" < "9"
