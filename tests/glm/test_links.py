"""The custom links (exp, tanh) and the link registry: inverses and derivatives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.genmod.families import links as sm_links

from irrepro.glm.links import LINK_NAMES, Exp, Tanh, make_link, open_bounds

MEANS = st.floats(min_value=0.01, max_value=0.99)


@given(MEANS)
def test_exp_inverse_undoes_link(mu):
    link = Exp()
    assert link.inverse(link(mu)) == pytest.approx(mu, abs=1e-12)


@given(MEANS)
def test_tanh_inverse_undoes_link(mu):
    link = Tanh()
    assert link.inverse(link(mu)) == pytest.approx(mu, abs=1e-10)


def test_exp_is_not_log():
    assert Exp()(0.5) == pytest.approx(np.exp(0.5))
    assert make_link("log")(0.5) == pytest.approx(np.log(0.5))


@pytest.mark.parametrize("link", [Exp(), Tanh()])
@pytest.mark.parametrize("mu", [0.0, 0.1, 0.5, 0.9, 1.0])
def test_derivatives_match_finite_differences(link, mu):
    h = 1e-6
    assert link.deriv(mu) == pytest.approx((link(mu + h) - link(mu - h)) / (2 * h), rel=1e-7)
    assert link.deriv2(mu) == pytest.approx((link.deriv(mu + h) - link.deriv(mu - h)) / (2 * h), rel=1e-6, abs=1e-8)
    eta = link(mu)
    assert link.inverse_deriv(eta) == pytest.approx((link.inverse(eta + h) - link.inverse(eta - h)) / (2 * h), rel=1e-6)
    assert link.inverse_deriv2(eta) == pytest.approx(
        (link.inverse_deriv(eta + h) - link.inverse_deriv(eta - h)) / (2 * h), rel=1e-5, abs=1e-6
    )


def test_inverse_clips_outside_domain():
    assert np.isfinite(Exp().inverse(np.array([-1.0, 0.0]))).all()
    assert np.isfinite(Tanh().inverse(np.array([-2.0, 1.0, 3.0]))).all()


def test_registry():
    assert LINK_NAMES == ("identity", "log", "exp", "tanh", "logit", "probit", "cauchit")
    assert open_bounds("log") == (0.0,)
    assert open_bounds("logit") == (0.0, 1.0)
    assert open_bounds("tanh") == ()
    with pytest.raises(ValueError, match="unknown link"):
        make_link("sqrt")


@pytest.mark.parametrize(("name", "reference"), [("probit", sm_links.Probit), ("cauchit", sm_links.Cauchy)])
def test_probit_and_cauchit_give_statsmodels_numbers_bit_for_bit(name, reference):
    """The fitter's probit and cauchit links skip scipy's argument checks; their values must stay
    exactly statsmodels' (the fits of the GLM chapter are compared to the last digit)."""
    link, theirs = make_link(name), reference()
    assert isinstance(link, reference)
    rng = np.random.default_rng(0)
    means = np.r_[0.0, 1e-300, 1e-17, 0.5, 1 - 1e-16, 1.0, -0.5, 2.0, np.nan, rng.random(1000)]
    etas = np.r_[-np.inf, -1e300, -40.0, -0.0, 0.0, 1e-300, 40.0, 1e300, np.inf, np.nan, rng.normal(0, 3, 1000)]
    np.testing.assert_array_equal(link(means), theirs(means))
    np.testing.assert_array_equal(link.deriv(means), theirs.deriv(means))
    np.testing.assert_array_equal(link.inverse(etas), theirs.inverse(etas))
