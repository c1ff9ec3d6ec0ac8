"""The protocol of conclusions re-read on topic resamples: shares, statuses, intervals, registration."""

from __future__ import annotations

import numpy as np
import pytest

from irrepro.papers.claims import ClaimList, Finding
from irrepro.papers.robustness import COLUMNS, STABLE_SHARE, Outcome, ResampledChecks, status


def _checks() -> ResampledChecks:
    claims = ClaimList("toy")
    for name in ("positive", "large"):
        claims.claim(name, section="1", quote=f"The mean is {name}.", data="toy data")(lambda: Finding(True, "x"))
    checks = ResampledChecks(claims)
    checks.check("positive", label="positive mean", reading="mean > 0", statistic="mean")(
        lambda means: Outcome(means > 0, means)
    )
    checks.check("large", label="large mean", reading="mean > 1", statistic="mean")(lambda means: Outcome(means > 1, means))
    return checks


def test_the_table_counts_the_share_of_replicates_and_judges_the_verdict_on_all_topics():
    replicates = np.tile([0.2, -0.1, 0.3, 0.1, 0.5, 0.4, 0.6, 0.7, 0.8, 0.9], 20)
    table = _checks().table(np.array([0.1]), replicates)
    assert list(table.columns) == list(COLUMNS) and list(table["id"]) == ["toy.positive", "toy.large"]
    positive, large = table.iloc[0], table.iloc[1]
    assert positive["holds on all topics"] and positive["share holding"] == pytest.approx(0.9)
    assert positive["status"] == "fragile"  # 90% < 95%, more than two standard errors (2.1 points) below
    assert not large["holds on all topics"] and large["share holding"] == 0.0 and large["verdict kept"] == 1.0
    assert large["status"] == "stable"  # fails on all topics and in every replicate
    assert positive["on all topics"] == 0.1 and positive["low"] < positive["high"] and positive["resamples"] == 200
    assert positive["seeds"] == 1 and positive["interval"] == "percentile"
    assert positive["claim"] == "The mean is positive." and positive["label"] == "positive mean"


def test_seeds_are_pooled_and_a_share_straddling_the_threshold_is_borderline():
    # seed 1: holds in 100 of 100; seed 2: in 90 of 100 -> pooled 95%, the seeds on both sides of it
    first, second = np.full(100, 0.2), np.r_[np.full(90, 0.2), np.full(10, -0.1)]
    table = _checks().table(np.array([0.1]), first, second)
    positive = table.iloc[0]
    assert positive["share holding"] == pytest.approx(0.95) and positive["resamples"] == 200 and positive["seeds"] == 2
    assert (positive["kept lowest seed"], positive["kept highest seed"]) == (pytest.approx(0.9), 1.0)
    assert positive["status"] == "borderline"
    with pytest.raises(ValueError, match="no replicates"):
        _checks().table(np.array([0.1]))


def test_a_share_well_clear_of_the_threshold_on_every_seed_keeps_its_status():
    seeds = [np.r_[np.full(990, 0.2), np.full(10, -0.1)] for _ in range(5)]
    assert _checks().table(np.array([0.1]), *seeds).iloc[0]["status"] == "stable"  # 99% on every seed
    seeds = [np.r_[np.full(800, 0.2), np.full(200, -0.1)] for _ in range(5)]
    assert _checks().table(np.array([0.1]), *seeds).iloc[0]["status"] == "fragile"  # 80% on every seed


def test_status_is_symmetric_around_the_verdict_on_all_topics():
    assert status(True, STABLE_SHARE + 0.03) == status(False, 1 - STABLE_SHARE - 0.03) == "stable"
    assert status(True, STABLE_SHARE - 0.01) == status(False, 1 - STABLE_SHARE + 0.01) == "borderline"
    assert status(True, STABLE_SHARE - 0.03) == status(False, 1 - STABLE_SHARE + 0.03) == "fragile"
    assert status(True, 0.97, seed_shares=[0.99, 0.94]) == status(False, 0.03, seed_shares=[0.01, 0.06]) == "borderline"


def test_a_check_needs_a_registered_claim_once_and_one_value_per_replicate():
    checks = _checks()
    with pytest.raises(ValueError, match="no claim toy.small"):
        checks.check("small", label="l", reading="r", statistic="s")
    with pytest.raises(ValueError, match="has a resampled check already"):
        checks.check("positive", label="l", reading="r", statistic="s")
    with pytest.raises(ValueError, match="one value per replicate"):
        Outcome(np.array([True, False]), np.array([1.0]))
    with pytest.raises(ValueError, match="must be one replicate"):
        checks.table(np.array([0.1, 0.2]), np.array([0.3]))

