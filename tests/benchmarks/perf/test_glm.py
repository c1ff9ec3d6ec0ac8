"""The two-way GLM fitter against statsmodels: the same model, timed in turn."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from perf import glm


@pytest.fixture
def scores():
    rng = np.random.default_rng(0)
    return pd.DataFrame(rng.uniform(0.05, 0.95, (12, 5)), index=[f"t{i}" for i in range(12)], columns=list("abcde"))


@pytest.mark.parametrize("link", ["identity", "logit"])
def test_both_fit_the_same_model_and_the_comparison_says_its_size(scores, link):
    result = glm.compare_fits(scores, "tiny", link=link, repeats=2, peer_repeats=1)
    assert result.relative_deviance_difference <= glm.AGREEMENT
    assert (result.observations, result.parameters, result.repeats) == (60, 16, 2)
    comparison = result.comparison
    assert comparison.input_size == "tiny, 12 topics x 5 runs (16 parameters)"
    assert comparison.measure == f"GLM fit, {link} link: time (median of 2, statsmodels 1 fit)"
    assert comparison.ratio == comparison.theirs / comparison.ours > 0


def test_equal_repetitions_are_named_once(scores):
    assert glm.compare_fits(scores, "tiny", repeats=1).comparison.measure.endswith("time (median of 1)")


def test_a_fit_is_needed_on_each_side(scores):
    with pytest.raises(ValueError, match="at least 1"):
        glm.compare_fits(scores, "tiny", repeats=2, peer_repeats=0)
