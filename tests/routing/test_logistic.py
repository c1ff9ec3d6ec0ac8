"""Logistic regressions fitted together (irrepro.routing.logistic) equal scikit-learn's, bit for bit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import normalize

from irrepro.routing import logistic
from irrepro.routing.logistic import fit_lbfgs

pytestmark = pytest.mark.skipif(not logistic.AVAILABLE, reason="this SciPy has no C L-BFGS-B to drive")


def _problem(seed: int, n_rows: int, n_columns: int, n_fits: int):
    rng = np.random.default_rng(seed)
    X = normalize(sp.random(n_rows, n_columns, density=0.15, format="csr", random_state=seed))
    labels = [(rng.random(n_rows) < 0.3).astype(np.int64) for _ in range(n_fits)]
    for y in labels:  # both classes present, as the routing runs ensure
        y[:2] = (0, 1)
    return X, labels


def _sklearn(X, y, *, C, tol, max_iter):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model = LogisticRegression(C=C, tol=tol, max_iter=max_iter).fit(X, y)
    return model, not any(issubclass(w.category, ConvergenceWarning) for w in caught)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_rows=st.integers(8, 120),
    n_columns=st.integers(2, 60),
    C=st.sampled_from([0.01, 0.1, 1.5, 10.0, 1e4]),
    tols=st.lists(st.sampled_from([1e-8, 1e-4, 1e-2, 0.5, 5.0]), min_size=1, max_size=4),
    max_iter=st.sampled_from([1, 3, 100]),
)
def test_each_fit_is_scikit_learns_bit_for_bit(seed, n_rows, n_columns, C, tols, max_iter):
    """Coefficients, intercept, iterations and convergence of every fit of a group equal those of
    LogisticRegression(solver="lbfgs") on the same rows and labels, whatever the other fits do."""
    X, labels = _problem(seed, n_rows, n_columns, len(tols))
    fits = fit_lbfgs(X, labels, C=C, tols=tols, max_iter=max_iter)
    for y, tol, fit in zip(labels, tols, fits, strict=True):
        model, converged = _sklearn(X, y, C=C, tol=tol, max_iter=max_iter)
        assert np.array_equal(fit.coef, model.coef_[0]) and fit.intercept == model.intercept_[0]
        assert (fit.iterations, fit.converged) == (model.n_iter_[0], converged)


def test_a_group_of_one_and_of_many_give_the_same_fit():
    X, labels = _problem(7, 80, 30, 5)
    together = fit_lbfgs(X, labels, C=1.5, tols=[1e-4] * 5, max_iter=100)
    for y, fit in zip(labels, together, strict=True):
        (alone,) = fit_lbfgs(X, [y], C=1.5, tols=[1e-4], max_iter=100)
        assert np.array_equal(alone.coef, fit.coef) and alone.intercept == fit.intercept


def test_stopping_early_is_reported_as_not_converged():
    X, labels = _problem(3, 60, 20, 2)
    fits = fit_lbfgs(X, labels, C=1e6, tols=[1e-12, 1e-12], max_iter=1)
    assert [(fit.iterations, fit.converged) for fit in fits] == [(1, False), (1, False)]


def test_one_tolerance_per_fit_is_required():
    X, labels = _problem(3, 20, 5, 2)
    with pytest.raises(ValueError, match="2 label vectors but 1 tolerances"):
        fit_lbfgs(X, labels, C=1.0, tols=[1e-4], max_iter=10)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_rows=st.integers(8, 120),
    n_columns=st.integers(2, 60),
    C=st.sampled_from([0.01, 1.5, 1e4]),
    tols=st.lists(st.sampled_from([1e-10, 1e-6, 1e-4, 1e-3, 1e-2, 0.1, 0.5, 5.0]), min_size=2, max_size=6),
    max_iter=st.sampled_from([1, 2, 5, 100]),
)
def test_fits_differing_only_in_tol_are_scikit_learns_bit_for_bit(seed, n_rows, n_columns, C, tols, max_iter):
    """Fits with equal labels share one trajectory; each still ends where scikit-learn's fit with
    its own tol ends: at the start point (a tol >= 1/2), at an iterate between, or at max_iter."""
    X, (y,) = _problem(seed, n_rows, n_columns, 1)
    fits = fit_lbfgs(X, [y] * len(tols), C=C, tols=tols, max_iter=max_iter)
    for tol, fit in zip(tols, fits, strict=True):
        model, converged = _sklearn(X, y, C=C, tol=tol, max_iter=max_iter)
        assert np.array_equal(fit.coef, model.coef_[0]) and fit.intercept == model.intercept_[0]
        assert (fit.iterations, fit.converged) == (model.n_iter_[0], converged)


def test_each_tol_stops_where_scikit_learn_stops_on_one_trajectory(monkeypatch):
    """One L-BFGS-B state for five tolerances of the same labels, and five different ends: met at
    the start, after some iterations, after more, and max_iter reached (not converged)."""
    X, (y,) = _problem(11, 150, 40, 1)
    tols = [5.0, 1e-2, 1e-4, 1e-3, 1e-12]
    made = []
    monkeypatch.setattr(logistic, "_Lbfgsb", lambda *a, **k: made.append(k["gtol"]) or _state(*a, **k))
    fits = fit_lbfgs(X, [y] * len(tols), C=100.0, tols=tols, max_iter=30)
    assert made == [1e-12]
    ends = [(fit.iterations, fit.converged) for fit in fits]
    for tol, fit in zip(tols, fits, strict=True):
        model, converged = _sklearn(X, y, C=100.0, tol=tol, max_iter=30)
        assert np.array_equal(fit.coef, model.coef_[0]) and fit.intercept == model.intercept_[0]
        assert (fit.iterations, fit.converged) == (model.n_iter_[0], converged)
    assert ends[0] == (0, True) and ends[-1] == (30, False)
    assert 0 < ends[1][0] < ends[3][0] < ends[2][0] < 30


_state = logistic._Lbfgsb
