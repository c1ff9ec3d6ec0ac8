"""The two-way IRLS fitter against statsmodels' GLM on the same data."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from irrepro.data import fetch
from irrepro.glm.fit import dense_design, fit_two_way, make_family
from irrepro.glm.links import LINK_NAMES


def _robust_subset(n_topics: int, n_systems: int) -> pd.DataFrame:
    scores = pd.read_csv(fetch("trec_scores/robust2004_ap.csv")).set_index("topic")
    return scores.iloc[:n_topics, :n_systems]


def _statsmodels(scores: pd.DataFrame, link: str, family: str = "gaussian"):
    y, design = dense_design(scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sm.GLM(y, design, family=make_family(family, link)).fit(tol=1e-12)


@pytest.mark.parametrize("link", LINK_NAMES)
def test_matches_statsmodels(link):
    scores = _robust_subset(40, 25)
    fit = fit_two_way(scores, link=link, tol=1e-12)
    reference = _statsmodels(scores, link)
    assert fit.converged and reference.converged
    # the deviance criterion stops both fitters within ~1e-5 of the optimum in the parameters, 1e-12 in deviance
    assert fit.deviance == pytest.approx(reference.deviance, rel=1e-8)
    n_systems = scores.shape[1]
    np.testing.assert_allclose(fit.system_effects.to_numpy()[1:], reference.params[-(n_systems - 1) :], rtol=1e-4, atol=1e-7)
    np.testing.assert_allclose(fit.system_se.to_numpy()[1:], reference.bse[-(n_systems - 1) :], rtol=1e-4)
    assert fit.intercept == pytest.approx(reference.params[0], rel=1e-4, abs=1e-7)
    assert fit.n_params == len(reference.params)


@pytest.mark.parametrize("link", ["logit", "probit"])
def test_quasibinomial_matches_statsmodels(link):
    scores = _robust_subset(30, 20)
    fit = fit_two_way(scores, link=link, family="quasibinomial", tol=1e-12)
    reference = _statsmodels(scores, link, family="quasibinomial")
    assert fit.deviance == pytest.approx(reference.deviance, rel=1e-8)
    assert fit.scale == pytest.approx(reference.pearson_chi2 / reference.df_resid, rel=1e-6)


@pytest.mark.slow
def test_full_robust04_matches_statsmodels():
    """Full size: 249 topics x 110 runs, 27,390 observations, 358 parameters (about 20 s)."""
    scores = _robust_subset(249, 110)
    fit = fit_two_way(scores, link="logit")
    reference = _statsmodels(scores, "logit")
    assert fit.n_params == 358
    assert fit.deviance == pytest.approx(reference.deviance, rel=1e-8)


def test_identity_is_two_way_anova():
    rng = np.random.default_rng(1)
    scores = pd.DataFrame(rng.uniform(size=(6, 4)), columns=list("abcd"))
    fit = fit_two_way(scores)
    # balanced two-way layout: system effect = difference of column means, RSS = interaction SS
    means = scores.mean()
    np.testing.assert_allclose(fit.system_effects, means - means.iloc[0], atol=1e-12)
    centred = scores - scores.mean(axis=1).to_numpy()[:, None] - means.to_numpy()[None, :] + scores.to_numpy().mean()
    assert fit.deviance == pytest.approx(float((centred**2).to_numpy().sum()))
    assert fit.iterations <= 2


def test_rejects_all_zero_system_for_log_but_not_identity():
    scores = pd.DataFrame({"a": [0.2, 0.4, 0.3], "b": [0.0, 0.0, 0.0]})
    with pytest.raises(ValueError, match="system 'b' scores 0 everywhere"):
        fit_two_way(scores, link="log")
    assert fit_two_way(scores, link="identity").converged


def test_rejects_missing_and_bad_options():
    scores = pd.DataFrame({"a": [0.2, np.nan], "b": [0.1, 0.3]})
    with pytest.raises(ValueError, match="missing"):
        fit_two_way(scores)
    good = pd.DataFrame({"a": [0.2, 0.1], "b": [0.1, 0.3]})
    with pytest.raises(ValueError, match="quasi-binomial"):
        fit_two_way(good, link="log", family="quasibinomial")
    with pytest.raises(ValueError, match="family must be one of"):
        fit_two_way(good, family="poisson")


def test_bad_arguments_name_the_parameter():
    good = pd.DataFrame({"a": [0.2, 0.1], "b": [0.1, 0.3]})
    for call, message in [
        (lambda: fit_two_way("scores.csv"), "fit_two_way: scores must be a pandas DataFrame"),
        (lambda: fit_two_way(good, max_iter=2.5), "max_iter must be an integer"),
        (lambda: fit_two_way(good, tol=-1), "tol must be a number > 0"),
        (lambda: fit_two_way(good, link=None), "link must be one of 'identity'"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()


def test_importing_the_glm_chapter_does_not_import_statsmodels_api():
    """``statsmodels.api`` imports all of statsmodels (1.5 s more than its GLM families): the fitter
    takes the families and links from ``statsmodels.genmod`` (the GLM chapter's and intro's first cells)."""
    import subprocess
    import sys

    probe = "import sys, irrepro.papers.glm\nprint('statsmodels.api' in sys.modules, 'statsmodels.genmod.families' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
