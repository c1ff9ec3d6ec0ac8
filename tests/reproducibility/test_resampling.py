"""Topic resampling as index arithmetic: identity = point estimate, weights = explicit resampling, seeded."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from irrepro.reproducibility import scores
from irrepro.reproducibility.resampling import (
    BORDERLINE_MARGIN,
    STABILITY,
    STABLE_SHARE,
    identity_weights,
    kendall_tau_b,
    paired_t_pvalues,
    percentile_interval,
    recentred,
    resampled_means,
    resampled_rmse,
    share_holding,
    stability,
    student_t_pvalues,
    topic_resamples,
    topic_subsamples,
    topic_weights,
)

SCORES = st.floats(0.0, 1.0, allow_nan=False, allow_subnormal=False)


def _matrix(rows: int, columns: int):
    return hnp.arrays(float, (rows, columns), elements=SCORES)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 12), k=st.integers(1, 4), data=st.data())
def test_the_identity_resample_gives_the_point_estimates(n, k, data):
    original = data.draw(hnp.arrays(float, n, elements=SCORES))
    new = data.draw(_matrix(n, k))
    other = data.draw(_matrix(n + 2, k))
    weights = identity_weights(n)
    np.testing.assert_allclose(resampled_means(weights, new)[0], new.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(resampled_rmse(weights, original, new)[0],
                               scores.rmse(pd.Series(original), pd.DataFrame(new)).to_numpy(), atol=1e-12)  # fmt: skip
    expected_paired = scores.paired_ttest(pd.Series(original), pd.DataFrame(new)).to_numpy()
    expected_unpaired = scores.unpaired_ttest(pd.Series(original), pd.DataFrame(other)).to_numpy()
    finite = np.isfinite(expected_paired)
    np.testing.assert_allclose(paired_t_pvalues(weights, original[:, None] - new)[0][finite], expected_paired[finite],
                               rtol=1e-6, atol=1e-9)  # fmt: skip
    # both samples constant: 0/0, decided by float noise in either implementation (scipy's too)
    finite = np.isfinite(expected_unpaired) & ((np.ptp(original) > 1e-9) | (np.ptp(other, axis=0) > 1e-9))
    np.testing.assert_allclose(student_t_pvalues(weights, original, identity_weights(n + 2), other)[0][finite],
                               expected_unpaired[finite], rtol=1e-6, atol=1e-9)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 10), data=st.data())
def test_kendall_tau_b_is_scipys_on_every_pair_of_columns(n, data):
    values = data.draw(hnp.arrays(float, (n, 3), elements=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.7, 1.0])))
    tau = kendall_tau_b(values[None])[0]
    for i in range(3):
        for j in range(3):
            expected = stats.kendalltau(values[:, i], values[:, j]).statistic
            if np.isnan(expected):
                assert np.isnan(tau[i, j])
            else:
                assert tau[i, j] == pytest.approx(expected, abs=1e-12)


def test_values_equal_up_to_float_noise_tie():
    noisy = np.array([[[0.1 + 0.2, 1.0], [0.3, 1.0], [0.5, 2.0]]])
    assert kendall_tau_b(noisy)[0, 0, 1] == pytest.approx(1.0)
    assert kendall_tau_b(noisy, tolerance=0.0)[0, 0, 1] < 1.0  # the noise alone breaks the tie
    tiny = np.array([[[1e-20, 1.0], [2e-20, 2.0], [3e-20, 3.0]]])  # small but distinct p-values stay distinct
    assert kendall_tau_b(tiny)[0, 0, 1] == pytest.approx(1.0)


def test_every_resample_equals_computing_on_the_drawn_topics():
    rng = np.random.default_rng(3)
    original, new, other = rng.random(20), rng.random((20, 4)), rng.random((15, 4))
    indices, other_indices = topic_resamples(20, 30, seed=1), topic_resamples(15, 30, seed=2)
    weights, other_weights = topic_weights(indices), topic_weights(other_indices)
    means = resampled_means(weights, new)
    rmse = resampled_rmse(weights, original, new)
    paired = paired_t_pvalues(weights, original[:, None] - new)
    unpaired = student_t_pvalues(weights, original, other_weights, other)
    for b in range(30):
        drawn, drawn_other = indices[b], other_indices[b]
        np.testing.assert_allclose(means[b], new[drawn].mean(axis=0), atol=1e-12)
        np.testing.assert_allclose(rmse[b], np.sqrt(((original[drawn, None] - new[drawn]) ** 2).mean(axis=0)), atol=1e-12)
        np.testing.assert_allclose(paired[b], stats.ttest_rel(original[drawn, None], new[drawn]).pvalue, rtol=1e-8)
        np.testing.assert_allclose(unpaired[b], stats.ttest_ind(original[drawn, None], other[drawn_other]).pvalue,
                                   rtol=1e-8)  # fmt: skip


def test_resamples_are_seeded_and_share_their_first_rows():
    first, again, other = (topic_resamples(50, 100, seed=s) for s in (7, 7, 8))
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert np.array_equal(topic_resamples(50, 1000, seed=7)[:100], first)  # fewer resamples: a prefix of more
    weights = topic_weights(first)
    assert weights.shape == (100, 50) and (weights.sum(axis=1) == 50).all() and (weights >= 0).all()


@settings(max_examples=50, deadline=None)
@given(holds=hnp.arrays(bool, st.integers(1, 200)), values=hnp.arrays(float, st.integers(1, 200), elements=SCORES))
def test_shares_lie_in_the_unit_interval_and_intervals_are_ordered(holds, values):
    share = share_holding(holds)
    assert 0.0 <= share <= 1.0 and share == pytest.approx(holds.mean())
    low, high = percentile_interval(values)
    assert values.min() <= low <= high <= values.max()


def test_a_perfect_replication_has_p_one_and_bad_input_is_refused():
    assert paired_t_pvalues(identity_weights(4), np.zeros((4, 2))).tolist() == [[1.0, 1.0]]
    assert np.isnan(percentile_interval(np.array([np.nan, np.inf]))).all()
    with pytest.raises(ValueError, match="do not match"):
        resampled_means(identity_weights(3), np.ones(4))
    with pytest.raises(ValueError, match="at least one topic"):
        topic_resamples(0, 10, seed=0)
    with pytest.raises(ValueError, match="seed"):
        topic_resamples(5, 10, seed=-1)
    with pytest.raises(ValueError, match="items >= 2"):
        kendall_tau_b(np.ones((2, 1, 3)))
    with pytest.raises(ValueError, match="no replicate"):
        share_holding(np.array([], dtype=bool))
    with pytest.raises(ValueError, match="level"):
        percentile_interval(np.ones(3), level=1.0)


def test_skipna_computes_on_the_drawn_topics_that_have_a_value():
    """A topic a run lacks (NaN) is skipped: each replicate is the statistic on its drawn topics with a value."""
    rng = np.random.default_rng(4)
    original, new, other = rng.random(20), rng.random((20, 3)), rng.random((15, 3))
    new[[2, 5, 11], 0], new[7, 2], other[[0, 3], 1] = np.nan, np.nan, np.nan
    indices, other_indices = topic_resamples(20, 25, seed=3), topic_resamples(15, 25, seed=4)
    weights, other_weights = topic_weights(indices), topic_weights(other_indices)
    means = resampled_means(weights, new, skipna=True)
    rmse = resampled_rmse(weights, original, new, skipna=True)
    paired = paired_t_pvalues(weights, original[:, None] - new, skipna=True)
    unpaired = student_t_pvalues(weights, original, other_weights, other, skipna=True)
    for b in range(25):
        for run in range(3):
            drawn = new[indices[b], run]
            kept = ~np.isnan(drawn)
            assert means[b, run] == pytest.approx(drawn[kept].mean())
            assert rmse[b, run] == pytest.approx(np.sqrt(((original[indices[b]][kept] - drawn[kept]) ** 2).mean()))
            assert paired[b, run] == pytest.approx(stats.ttest_rel(original[indices[b]][kept], drawn[kept]).pvalue, rel=1e-8)
            drawn_other = other[other_indices[b], run]
            expected = stats.ttest_ind(original[indices[b]], drawn_other[~np.isnan(drawn_other)]).pvalue
            assert unpaired[b, run] == pytest.approx(expected, rel=1e-8)
    # without NaN, skipna changes nothing
    complete = new[:, 1]
    np.testing.assert_allclose(resampled_means(weights, complete, skipna=True), resampled_means(weights, complete), rtol=1e-12)
    np.testing.assert_allclose(paired_t_pvalues(weights, (original - complete)[:, None], skipna=True),
                               paired_t_pvalues(weights, (original - complete)[:, None]), rtol=1e-9)  # fmt: skip


def test_a_replicate_without_enough_drawn_topics_is_undefined():
    values = np.array([[np.nan], [0.5], [0.2]])
    weights = np.array([[3.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 3.0, 0.0]])
    assert np.isnan(resampled_means(weights, values, skipna=True)[0, 0])
    p = paired_t_pvalues(weights, values, skipna=True)[:, 0]
    assert np.isnan(p[0]) and np.isfinite(p[1]) and p[2] == 0.0  # three draws of one topic: no spread, a nonzero mean


def test_stability_is_the_books_threshold():
    from irrepro.papers import robustness

    assert robustness.STABLE_SHARE is STABLE_SHARE
    assert robustness.STATUSES == STABILITY == ("stable", "borderline", "fragile")
    shares = (1.0, STABLE_SHARE + BORDERLINE_MARGIN, STABLE_SHARE, 0.9499, STABLE_SHARE - BORDERLINE_MARGIN - 1e-9, 0.0)
    assert [stability(share) for share in shares] == ["stable", "stable", "borderline", "borderline", "fragile", "fragile"]


@pytest.mark.parametrize(
    ("share", "seed_shares", "resamples", "expected"),
    [
        (0.975, (), None, "stable"),  # 2.5 points above: outside the margin
        (0.969, (), None, "borderline"),  # 1.9 points: inside it
        (0.975, (0.99, 0.96, 0.94), None, "borderline"),  # one seed below 95%: the seeds straddle it
        (0.935, (0.92, 0.94), None, "borderline"),  # 1.5 points below, all seeds below: within the margin
        (0.93, (0.92, 0.94), None, "fragile"),  # exactly 2 points below: the edge is outside the margin
        (0.92, (0.91, 0.93), None, "fragile"),
        (0.99, (), 20, "borderline"),  # 20 resamples: SE 2.2 points, 0.95 within two of them
        (0.99, (), 5000, "stable"),
    ],
)
def test_borderline_rule_on_known_cases(share, seed_shares, resamples, expected):
    assert stability(share, seed_shares=seed_shares, resamples=resamples) == expected


def test_recentred_replicates_have_the_value_on_all_topics_as_median():
    rng = np.random.default_rng(0)
    replicates = rng.normal(0.7, 0.05, size=(999, 3))
    moved = recentred(replicates, np.array([0.9, 0.5, 0.7]))
    assert np.allclose(np.median(moved, axis=0), [0.9, 0.5, 0.7])
    assert np.allclose(moved.std(axis=0), replicates.std(axis=0))  # moved, not rescaled
    clipped = recentred(replicates, np.array([0.99, 0.5, 0.7]), bounds=(-1.0, 1.0))
    assert clipped.max() <= 1.0 and np.median(clipped[:, 0]) == pytest.approx(0.99)


def test_recentred_leaves_nan_replicates_out_and_nan():
    replicates = np.array([[0.1, np.nan], [0.3, np.nan], [np.nan, np.nan]])
    moved = recentred(replicates, np.array([0.5, 0.2]))
    assert moved[:2, 0].tolist() == pytest.approx([0.4, 0.6]) and np.isnan(moved[2, 0]) and np.isnan(moved[:, 1]).all()


def test_subsamples_draw_distinct_topics():
    indices = topic_subsamples(10, 50, size=5, seed=1)
    assert indices.shape == (50, 5) and all(len(set(row)) == 5 for row in indices.tolist())
    weights = topic_weights(indices, 10)
    assert set(np.unique(weights)) <= {0.0, 1.0} and (weights.sum(axis=1) == 5).all()
    with pytest.raises(ValueError, match="size must lie in"):
        topic_subsamples(10, 5, size=11, seed=0)


def test_means_and_t_tests_of_a_subsample_are_those_of_its_topics():
    values = np.random.default_rng(2).normal(size=(12, 2))
    indices = topic_subsamples(12, 4, size=7, seed=3)
    weights = topic_weights(indices, 12)
    for row, chosen in zip(weights, indices, strict=True):
        drawn = values[chosen]
        assert resampled_means(row[None], values)[0] == pytest.approx(drawn.mean(axis=0))
        assert paired_t_pvalues(row[None], values)[0] == pytest.approx(stats.ttest_1samp(drawn, 0.0).pvalue)
