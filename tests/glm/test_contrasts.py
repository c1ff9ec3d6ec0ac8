"""ssd pairs: Tukey HSD and Holm on system effects."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from irrepro.glm.contrasts import contrast_signs, holm_adjust, pairwise_contrasts, tukey_critical_value


def test_tukey_matches_textbook_value():
    # q_{0.95}(3, 10) = 3.877 (studentized range tables)
    assert tukey_critical_value(3, 10.0) * np.sqrt(2) == pytest.approx(3.877, abs=1e-3)


def test_pairs_and_signs():
    effects = pd.Series([0.0, 1.0, 5.0], index=["a", "b", "c"])
    covariance = np.diag([0.0, 0.25, 0.25])
    table = pairwise_contrasts(effects, covariance, df_resid=100)
    assert list(zip(table["system_a"], table["system_b"], strict=True)) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert table["se"].tolist() == pytest.approx([0.5, 0.5, np.sqrt(0.5)])
    assert table["significant"].tolist() == [False, True, True]
    assert table["sign"].tolist() == [0, -1, -1]


def test_holm_adjust_known_values():
    np.testing.assert_allclose(holm_adjust(np.array([0.01, 0.04, 0.03])), [0.03, 0.06, 0.06])


@given(st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=30))
def test_holm_never_below_raw_and_monotone(p_values):
    p = np.array(p_values)
    adjusted = holm_adjust(p)
    assert (adjusted >= p - 1e-15).all() and (adjusted <= 1).all()
    order = np.argsort(p, kind="stable")
    assert (np.diff(adjusted[order]) >= -1e-15).all()


def test_tukey_is_stricter_than_unadjusted():
    rng = np.random.default_rng(0)
    effects = pd.Series(rng.normal(size=20))
    covariance = np.eye(20) * 0.05
    table = pairwise_contrasts(effects, covariance, df_resid=200)
    unadjusted = (table["p_value"] < 0.05).sum()
    assert table["significant"].sum() <= unadjusted
    assert pairwise_contrasts(effects, covariance, df_resid=200, method="holm")["significant"].sum() <= unadjusted
    assert stats.t.ppf(0.975, 200) < tukey_critical_value(20, 200.0)


def test_nan_covariance_is_never_significant_and_bad_method_raises():
    effects = pd.Series([0.0, 3.0])
    assert not pairwise_contrasts(effects, np.full((2, 2), np.nan), df_resid=10)["significant"].any()
    with pytest.raises(ValueError, match="method must be one of"):
        pairwise_contrasts(effects, np.eye(2), df_resid=10, method="bonferroni")


@pytest.mark.parametrize("seed", range(20))
def test_identical_systems_on_exactly_additive_scores_are_never_different(seed):
    """Scores that fit the model exactly leave rounding noise as residual variance; noise over noise
    must not call two identical systems significantly different, in the fit or in the closed form."""
    from irrepro.glm.fit import fit_two_way
    from irrepro.glm.resampling import identity_pair_signs

    rng = np.random.default_rng(seed)
    topics, systems = rng.uniform(0.1, 0.5, 25), np.array([0.1, 0.2, 0.2, 0.05, 0.3])
    scores = pd.DataFrame(topics[:, None] + systems[None, :], columns=list("abcde"))
    fit = fit_two_way(scores, link="identity")
    pairs = pairwise_contrasts(fit.system_effects, fit.system_cov, df_resid=fit.df_resid).set_index(
        ["system_a", "system_b"]
    )
    assert not pairs.loc[("b", "c"), "significant"] and pairs.loc[("b", "c"), "difference"] == 0
    closed_form = pd.Series(identity_pair_signs(scores.to_numpy(), np.ones((1, len(topics))))[0], index=pairs.index)
    assert closed_form[("b", "c")] == 0


@pytest.mark.parametrize("method", ["tukey", "holm"])
@pytest.mark.parametrize("seed", range(5))
def test_contrast_signs_are_the_sign_column_of_pairwise_contrasts(method, seed):
    """The split-half consistency counts signs from contrast_signs: they must be the table's, NaN
    covariances (an unconverged fit), ties and effects within rounding noise included."""
    rng = np.random.default_rng(seed)
    n_systems = 12
    effects = rng.normal(0, 1.0, n_systems)
    effects[3] = effects[4]  # a tie
    effects[5] = effects[6] * (1 + 1e-14)  # within rounding noise
    root = rng.normal(0, 0.05, (n_systems, n_systems))
    covariance = root @ root.T
    if seed == 0:
        covariance[:, 2] = covariance[2, :] = np.nan
    table = pairwise_contrasts(pd.Series(effects), covariance, df_resid=150, method=method, alpha=0.1)
    signs = contrast_signs(effects, covariance, df_resid=150, method=method, alpha=0.1)
    assert signs.dtype == table["sign"].dtype
    np.testing.assert_array_equal(signs, table["sign"].to_numpy())
    assert 0 < np.count_nonzero(signs) < signs.size  # both outcomes occur: the comparison is not vacuous
