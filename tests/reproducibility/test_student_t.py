"""The t distribution's two-sided tail equals scipy's (the t-tests no longer import scipy)."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import stdtr

from irrepro.reproducibility import student_t
from irrepro.reproducibility.student_t import two_sided_p, two_sided_p_array


def test_docstring_example():
    assert doctest.testmod(student_t).failed == 0


@settings(max_examples=800, deadline=None)
@given(
    st.floats(-60, 60, allow_nan=False) | st.floats(-1e-6, 1e-6),
    st.integers(1, 500).map(float) | st.floats(0.5, 500),
)
def test_equals_scipy_for_the_degrees_of_freedom_of_topic_sets(t, df):
    """Relative 1e-11 in the tail (math.lgamma's rounding grows with df); near p = 1 (tiny t)
    absolute 1e-8, where scipy itself is off by up to 4e-9 (for df = 1 and 2 the closed forms below
    show ours is the closer one)."""
    expected = 2 * stdtr(df, -abs(t))
    tolerance = {"rel": 1e-11, "abs": 1e-300} if expected < 0.5 else {"abs": 1e-8}
    assert two_sided_p(t, df) == pytest.approx(expected, **tolerance)


@settings(max_examples=300, deadline=None)
@given(st.floats(-1e4, 1e4, allow_nan=False))
def test_closed_forms_for_one_and_two_degrees_of_freedom(t):
    """df = 1 (Cauchy): 1 - 2 atan|t| / pi; df = 2: 1 - |t| / sqrt(2 + t^2) = 2 / (sqrt(2 + t^2) (sqrt(2 + t^2) + |t|))."""
    cauchy = math.atan2(1.0, abs(t)) * 2 / math.pi  # = 1 - 2 atan|t| / pi without cancellation
    root = math.sqrt(2 + t * t)
    assert two_sided_p(t, 1.0) == pytest.approx(cauchy, rel=1e-13)
    assert two_sided_p(t, 2.0) == pytest.approx(2 / (root * (root + abs(t))), rel=1e-13)


@settings(max_examples=200, deadline=None)
@given(st.floats(-20, 20, allow_nan=False), st.floats(500, 20_000))
def test_equals_scipy_to_lgamma_precision_for_large_df(t, df):
    assert two_sided_p(t, df) == pytest.approx(2 * stdtr(df, -abs(t)), rel=1e-9, abs=1e-300)


def test_edges():
    assert two_sided_p(0.0, 7) == 1.0
    assert two_sided_p(math.inf, 7) == 0.0 and two_sided_p(-math.inf, 7) == 0.0
    assert math.isnan(two_sided_p(math.nan, 7)) and math.isnan(two_sided_p(1.0, math.nan))
    assert 0 < two_sided_p(40.0, 3) < 1e-4  # far tail: relative precision, not 0
    values = two_sided_p_array(np.array([[0.5], [2.0]]), np.array([5.0, 50.0]))
    assert values.shape == (2, 2) and np.allclose(values, 2 * stdtr(np.array([5.0, 50.0]), -np.array([[0.5], [2.0]])))


@pytest.mark.parametrize("n_topics", [5, 25, 50, 250])
def test_the_t_tests_p_values_are_scipys(n_topics):
    """On topic sets: scipy's ttest_rel / ttest_ind p-value is 2 * stdtr(df, -|t|) to the last bit, and
    the t-tests of irrepro.reproducibility.scores give it to 1e-12 (relative)."""
    from scipy import stats

    from irrepro.reproducibility.scores import paired_ttest, unpaired_ttest

    generator = np.random.default_rng(n_topics)
    for _ in range(50):
        original = generator.random(n_topics)
        new = original + generator.normal(generator.normal(0, 0.05), 0.1, n_topics)
        for test, ours, df in ((stats.ttest_rel, paired_ttest, n_topics - 1), (stats.ttest_ind, unpaired_ttest, 2 * n_topics - 2)):
            reference = test(original, new)
            assert 2 * stdtr(df, -abs(reference.statistic)) == reference.pvalue
            assert ours(pd.Series(original), pd.Series(new)) == pytest.approx(reference.pvalue, rel=1e-12, abs=0)
