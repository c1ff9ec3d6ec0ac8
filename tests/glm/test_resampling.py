"""ssd pairs on topic resamples: the identity closed form and the warm-started refits equal fitting the
resampled matrix with fit_two_way and counting with pairwise_contrasts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from irrepro.glm import fit_two_way, pairwise_contrasts
from irrepro.glm.fit import system_effects_refit
from irrepro.glm.resampling import identity_pair_signs, pair_signs, refit_pair_signs
from irrepro.reproducibility.resampling import identity_weights, topic_resamples, topic_weights


def _signs(scores: np.ndarray, link: str = "identity") -> np.ndarray:
    fit = fit_two_way(pd.DataFrame(scores), link=link)
    return pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid)["sign"].to_numpy()


def _matrix(seed: int, topics: int = 30, systems: int = 8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.2, 0.7, systems)
    difficulty = rng.uniform(-0.15, 0.15, size=(topics, 1))
    return np.clip(quality + difficulty + rng.normal(0, 0.08, size=(topics, systems)), 0.01, 0.99)


@settings(max_examples=25, deadline=None)
@given(topics=st.integers(3, 12), systems=st.integers(2, 6), data=st.data())
def test_identity_closed_form_is_the_fitted_model_on_all_topics(topics, systems, data):
    scores = data.draw(hnp.arrays(float, (topics, systems), elements=st.floats(0, 1, allow_subnormal=False)))
    residuals = scores - scores.mean(axis=1, keepdims=True) - scores.mean(axis=0) + scores.mean()
    assume((residuals**2).sum() > 1e-12)  # an exactly additive matrix: fit_two_way's contrasts are float noise
    assert np.array_equal(identity_pair_signs(scores, identity_weights(topics))[0], _signs(scores))


def test_identity_closed_form_is_the_fitted_model_on_every_resample():
    scores = _matrix(1)
    indices = topic_resamples(30, 12, seed=5)
    signs = identity_pair_signs(scores, topic_weights(indices))
    assert signs.shape == (12, 8 * 7 // 2) and (signs != 0).any()
    for row, drawn in enumerate(indices):
        assert np.array_equal(signs[row], _signs(scores[drawn])), row


def test_identity_signs_are_computed_block_by_block_as_row_by_row():
    """The resamples' contrasts are computed in blocks (bounded temporaries): a block's rows, the last
    partial block included, must be those of the resample alone."""
    scores = _matrix(3, topics=40, systems=12)
    weights = topic_weights(topic_resamples(40, 150, seed=7))  # two whole blocks of 64 and a partial one
    signs = identity_pair_signs(scores, weights)
    alone = np.vstack([identity_pair_signs(scores, weights[row : row + 1]) for row in range(len(weights))])
    assert signs.dtype == np.int8 and (signs != 0).any() and (signs == 0).any()
    np.testing.assert_array_equal(signs, alone)


@pytest.mark.parametrize("link", ["log", "logit"])
def test_warm_started_refits_are_the_fits_of_the_resampled_matrices(link):
    scores = _matrix(2)
    start = fit_two_way(pd.DataFrame(scores), link=link).linear_predictor.to_numpy()
    indices = topic_resamples(30, 5, seed=6)
    signs, converged = refit_pair_signs(scores, indices, start, link=link)
    assert converged.all()
    for row, drawn in enumerate(indices):
        assert np.array_equal(signs[row], _signs(scores[drawn], link)), row
        # the same optimum from another start: equal to the precision the stopping rule asks for
        effects, covariance, _ = system_effects_refit(scores[drawn], start[drawn], link=link, tol=1e-13)
        reference = fit_two_way(pd.DataFrame(scores[drawn]), link=link, tol=1e-13)
        np.testing.assert_allclose(effects, reference.system_effects.to_numpy(), atol=1e-8)
        np.testing.assert_allclose(covariance, reference.system_cov, rtol=1e-6, atol=1e-12)


def test_a_pair_without_a_positive_finite_standard_error_is_never_significant():
    differences = np.array([[1.0, -1.0, 1.0, 1.0]])
    se = np.array([[0.01, 0.01, 0.0, np.nan]])
    assert pair_signs(differences, se, n_systems=3, df_resid=20, alpha=0.05).tolist() == [[1, -1, 0, 0]]
