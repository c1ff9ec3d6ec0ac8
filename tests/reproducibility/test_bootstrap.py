"""Bootstrap confidence intervals: determinism, coverage of the estimate, pairing, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.reproducibility import scores
from irrepro.reproducibility.bootstrap import (
    bootstrap_delta_relative_improvement,
    bootstrap_effect_ratio,
    bootstrap_mean,
    bootstrap_mean_difference,
    bootstrap_rmse,
)

rng = np.random.default_rng(0)
TOPICS = [str(t) for t in range(301, 351)]
OB = pd.Series(rng.random(50) * 0.5, TOPICS)
OA = OB + 0.1 + rng.normal(0, 0.05, 50)
NB = OB + rng.normal(0, 0.05, 50)
NA = OA + rng.normal(0, 0.05, 50)


def test_seeded_and_deterministic():
    first = bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=500, seed=3)
    again = bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=500, seed=3)
    other = bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=500, seed=4)
    assert first == again and first != other


def test_estimates_are_the_point_measures_and_inside_the_interval():
    er = bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=2000)
    dri = bootstrap_delta_relative_improvement(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=2000)
    rmse = bootstrap_rmse(OB, NB, n_resamples=2000)
    mean = bootstrap_mean(NB, n_resamples=2000)
    assert er.estimate == pytest.approx(scores.effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True))
    assert dri.estimate == pytest.approx(scores.delta_relative_improvement(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB))
    assert rmse.estimate == pytest.approx(scores.rmse(OB, NB))
    assert mean.estimate == pytest.approx(NB.mean())
    for ci in (er, dri, rmse, mean):
        assert ci.low <= ci.estimate <= ci.high and ci.n_undefined == 0


def test_pairing_narrows_the_interval():
    # the new runs track the originals topic by topic: keeping the pairing removes topic variance
    paired = bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=2000)
    unpaired = bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=False, n_resamples=2000)
    assert paired.high - paired.low < unpaired.high - unpaired.low


def test_undefined_estimate_raises():
    with pytest.raises(ValueError, match="zero mean improvement"):
        bootstrap_effect_ratio(orig_advanced=OB, orig_baseline=OB, new_advanced=NA, new_baseline=NB, paired=True, n_resamples=10)
    with pytest.raises(ValueError, match="fewer than 2"):
        bootstrap_mean(pd.Series([0.5]), n_resamples=10)
    with pytest.raises(ValueError, match="level"):
        bootstrap_rmse(OB, NB, level=1.5)


def test_mean_difference_paired_and_unpaired():
    paired = bootstrap_mean_difference(original=OB, new=NB, paired=True, n_resamples=2000)
    unpaired = bootstrap_mean_difference(original=OB, new=NB, paired=False, n_resamples=2000)
    assert paired.estimate == pytest.approx((NB - OB).mean())
    assert unpaired.estimate == pytest.approx(NB.mean() - OB.mean())
    assert paired.low <= paired.estimate <= paired.high
    # NB tracks OB topic by topic: the paired interval is much narrower
    assert paired.high - paired.low < 0.5 * (unpaired.high - unpaired.low)


def test_mean_difference_unpaired_takes_different_topics():
    other = pd.Series(rng.random(25), [str(t) for t in range(401, 426)])
    ci = bootstrap_mean_difference(original=OB, new=other, paired=False, n_resamples=500)
    assert ci.estimate == pytest.approx(other.mean() - OB.mean())
    with pytest.raises(ValueError, match="no common topics"):
        bootstrap_mean_difference(original=OB, new=other, paired=True, n_resamples=10)
    with pytest.raises(ValueError, match="fewer than 2 topics with a score in the new run"):
        bootstrap_mean_difference(original=OB, new=other.iloc[:1], paired=False, n_resamples=10)


@settings(max_examples=30, deadline=None)
@given(shift=st.floats(-1, 1), paired=st.booleans())
def test_mean_difference_shifts_with_the_new_scores(shift, paired):
    base = bootstrap_mean_difference(original=OB, new=NB, paired=paired, n_resamples=300, seed=1)
    moved = bootstrap_mean_difference(original=OB, new=NB + shift, paired=paired, n_resamples=300, seed=1)
    for field in ("estimate", "low", "high"):
        assert getattr(moved, field) == pytest.approx(getattr(base, field) + shift, abs=1e-9)


def test_bad_arguments_name_the_parameter():
    """n_resamples=10**15 asked numpy for 21 PiB; 2.5 and a string seed failed inside numpy."""
    for kwargs, message in [
        ({"n_resamples": 10**15}, r"n_resamples must be an integer in \[1, 100000\]"),
        ({"n_resamples": 2.5}, "n_resamples must be an integer"),
        ({"seed": "x"}, "seed must be an integer >= 0; got 'x'"),
        ({"level": 2}, r"level must be a number in \(0, 1\); got 2"),
    ]:
        with pytest.raises(ValueError, match=message):
            bootstrap_mean(OB, **kwargs)
    with pytest.raises(ValueError, match="paired must be True or False"):
        bootstrap_effect_ratio(orig_advanced=OA, orig_baseline=OB, new_advanced=OA, new_baseline=OB, paired="yes")


# --------------------------------------------------------------------------- scipy.stats.bootstrap


def _percentile_reference(estimate_of, samples, *, paired, n_resamples, level, seed):
    """The percentile bootstrap written out: one index draw (n_resamples x n) per resampled sample,
    in the order given (one draw for all when paired), then numpy's linear quantiles."""
    generator = np.random.default_rng(seed)
    if paired:
        index = generator.integers(0, len(samples[0]), size=(n_resamples, len(samples[0])))
        resampled = [sample[index] for sample in samples]
    else:
        resampled = [sample[generator.integers(0, len(sample), size=(n_resamples, len(sample)))] for sample in samples]
    replicates = estimate_of(*resampled)
    return tuple(np.quantile(replicates, [(1 - level) / 2, 1 - (1 - level) / 2]))


@pytest.mark.parametrize("n_resamples, level, seed", [(1000, 0.95, 0), (999, 0.9, 7), (20, 0.5, 2**32)])
def test_scipy_bootstrap_gives_the_intervals_of_the_percentile_bootstrap(n_resamples, level, seed):
    """bootstrap_mean, bootstrap_rmse and bootstrap_mean_difference: scipy.stats.bootstrap's percentile
    intervals, equal to the resampling written out (same draws from the seeded generator)."""
    from scipy import stats

    options = {"n_resamples": n_resamples, "level": level, "seed": seed}
    ob, nb = OB.to_numpy(), NB.to_numpy()
    unpaired_new = NB.iloc[:37]
    cases = [
        (bootstrap_mean(NB, **options), lambda x: x.mean(axis=-1), (nb,), True),
        (bootstrap_rmse(OB, NB, **options), lambda x, y: np.sqrt(((x - y) ** 2).mean(axis=-1)), (ob, nb), True),
        (bootstrap_mean_difference(original=OB, new=NB, paired=True, **options), lambda x, y: (y - x).mean(axis=-1), (ob, nb), True),
        (bootstrap_mean_difference(original=OB, new=unpaired_new, paired=False, **options),
         lambda y, x: y.mean(axis=-1) - x.mean(axis=-1), (unpaired_new.to_numpy(), ob), False),
    ]  # fmt: skip
    for interval, statistic, samples, paired in cases:
        expected = _percentile_reference(statistic, samples, paired=paired, **options)
        assert (interval.low, interval.high) == pytest.approx(expected, rel=1e-14, abs=1e-15)
        direct = stats.bootstrap(samples, lambda *s, axis, f=statistic: f(*s), paired=paired, vectorized=True, method="percentile",
                                 n_resamples=n_resamples, confidence_level=level, rng=np.random.default_rng(seed))  # fmt: skip
        assert (interval.low, interval.high) == (direct.confidence_interval.low, direct.confidence_interval.high)
        assert interval.estimate == pytest.approx(statistic(*samples)) and interval.n_undefined == 0
