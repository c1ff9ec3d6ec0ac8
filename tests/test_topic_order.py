"""One topic order for the package: numbers numerically, then other ids as strings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irrepro.topic_order import sort_topics, topic_key

topic_ids = st.one_of(st.integers(min_value=0, max_value=10**12).map(str), st.text(min_size=1, max_size=6))


def test_numbers_sort_numerically_before_other_ids():
    assert sort_topics(["q2", "1001", "301", "q10", "42"]) == ["42", "301", "1001", "q10", "q2"]
    assert sort_topics([700, 301, 1001]) == ["301", "700", "1001"]  # ids given as numbers come back as strings


def test_non_ascii_digits_are_not_numbers():
    assert topic_key("²") == (1, 0, "²")  # str.isdigit is True, int() would fail


@given(st.lists(topic_ids, max_size=30))
def test_sort_topics_is_a_total_deterministic_order(topics):
    ordered = sort_topics(topics)
    assert sorted(ordered) == sorted(topics)  # a permutation
    assert sort_topics(reversed(topics)) == ordered  # independent of the input order
    numbers = [t for t in ordered if t.isascii() and t.isdigit()]
    assert ordered[: len(numbers)] == numbers  # numbers first ...
    assert [int(t) for t in numbers] == sorted(int(t) for t in numbers)  # ... in numeric order
    others = ordered[len(numbers):]
    assert others == sorted(others)  # the rest in string order
