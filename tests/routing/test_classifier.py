"""Per-topic classifiers: scikit-learn's logistic regression, stacked for one product."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression

from irrepro.routing import logistic
from irrepro.routing.classifier import train_tolerances, train_topic_models


def _data():
    rng = np.random.default_rng(7)
    features = sp.random(40, 30, density=0.3, format="csr", random_state=7)
    grades = rng.integers(0, 3, size=40)
    return features, grades


def test_stacked_models_equal_separate_predict_proba():
    features, grades = _data()
    examples = {"a": (np.arange(0, 30), grades[:30]), "b": (np.arange(10, 40), grades[10:])}
    models = train_topic_models(features, examples, C=1.5, tol=1e-4)
    assert models.topics == ["a", "b"]
    for column, (rows, topic_grades) in enumerate(examples.values()):
        reference = LogisticRegression(C=1.5, tol=1e-4, solver="lbfgs").fit(features[rows], topic_grades >= 1)
        np.testing.assert_allclose(models.probabilities(features)[:, column], reference.predict_proba(features)[:, 1], rtol=1e-6)
    assert models.training_sizes["a"] == (int((grades[:30] >= 1).sum()), int((grades[:30] == 0).sum()))


def test_single_class_topic_is_skipped_with_reason():
    features, _ = _data()
    models = train_topic_models(features, {"only-relevant": (np.arange(5), np.ones(5, dtype=int))})
    assert models.topics == [] and models.coef.shape == (30, 0)
    assert "5 relevant and 0 non-relevant" in models.skipped["only-relevant"]


def test_non_convergence_is_recorded_not_warned(recwarn):
    features, grades = _data()
    models = train_topic_models(features, {"t": (np.arange(40), grades)}, C=1e6, tol=1e-12, max_iter=1)
    assert models.not_converged == ["t"]
    assert len(recwarn) == 0


def _summed_objective_gradient(features, labels, coef, intercept, C):
    """Gradient of scikit-learn < 1.4's objective: summed log-loss + ||w||^2 / (2 C), intercept free."""
    probabilities = 1 / (1 + np.exp(-(features @ coef + intercept)))
    residual = probabilities - labels
    return np.r_[features.T @ residual + coef / C, residual.sum()]


def _tfidf_like(seed, rows=60, columns=25):
    rng = np.random.default_rng(seed)
    matrix = sp.random(rows, columns, density=0.3, format="csr", random_state=seed)
    matrix = sp.csr_matrix(normalize_rows(matrix.toarray() + 1e-3))  # no empty row; unit L2 norm
    labels = (rng.random(rows) < 0.3).astype(int)
    labels[:2] = [0, 1]  # both classes
    return matrix, labels


def normalize_rows(dense):
    return dense / np.linalg.norm(dense, axis=1, keepdims=True)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), tol=st.floats(0.5, 100))
def test_tol_of_a_half_or_more_on_the_mean_loss_stops_before_the_first_step(seed, tol):
    """The module's claim: with L2-normalised rows no entry of the mean loss's gradient at 0 exceeds
    1/2, so tol >= 1/2 leaves every weight 0 (scikit-learn >= 1.4; why the tol presets collapse)."""
    features, labels = _tfidf_like(seed)
    models = train_topic_models(features, {"t": (np.arange(len(labels)), labels)}, tol=tol)
    assert models.iterations == {"t": 0}
    assert not models.coef.any() and models.intercept[0] == 0
    np.testing.assert_array_equal(models.probabilities(features), 0.5)


@pytest.mark.parametrize("tol", [1.0, 5.0, 25.0])
def test_tol_on_the_summed_loss_bounds_that_loss_gradient(tol):
    """tol_scale="sum": lbfgs runs until the *summed* objective's gradient is within tol, as in
    scikit-learn < 1.4; on the mean loss the same tol stops before the first step."""
    features, labels = _tfidf_like(3, rows=400)
    examples = {"t": (np.arange(len(labels)), labels)}
    summed = train_topic_models(features, examples, tol=tol, tol_scale="sum")
    mean = train_topic_models(features, examples, tol=tol)
    gradient = _summed_objective_gradient(features, labels, summed.coef[:, 0], summed.intercept[0], 1.5)
    at_zero = _summed_objective_gradient(features, labels, np.zeros(features.shape[1]), 0.0, 1.5)
    assert np.abs(at_zero).max() > tol  # the old criterion did not hold at the start ...
    assert np.abs(gradient).max() <= tol * (1 + 1e-9)  # ... and holds where lbfgs stopped
    assert summed.iterations["t"] > 0 and mean.iterations["t"] == 0


def test_unknown_tol_scale_is_an_error():
    features, grades = _data()
    with pytest.raises(ValueError, match="tol_scale"):
        train_topic_models(features, {"t": (np.arange(40), grades)}, tol_scale="median")


@pytest.mark.skipif(not logistic.AVAILABLE, reason="this SciPy has no C L-BFGS-B to drive")
@pytest.mark.parametrize("tol_scale", ["mean", "sum"])
def test_topics_on_the_same_rows_fitted_together_equal_one_fit_per_topic(monkeypatch, tol_scale):
    """Topics judged on the same documents are fitted together (irrepro.routing.logistic); every
    topic's classifier, iterations and convergence equal those of one LogisticRegression per topic,
    bit for bit, with topics on other rows and a topic that cannot be fitted in between."""
    features, grades = _data()
    rng = np.random.default_rng(11)
    every = np.arange(40)
    examples = {
        "a": (every, grades), "b": (np.arange(10, 40), grades[10:]), "c": (every, rng.integers(0, 2, size=40)),
        "none": (every[:5], np.zeros(5, dtype=int)), "d": (every, rng.integers(0, 2, size=40)),
    }  # fmt: skip
    together = train_topic_models(features, examples, C=10.0, tol=1e-2, tol_scale=tol_scale)
    monkeypatch.setattr(logistic, "AVAILABLE", False)  # one scikit-learn LogisticRegression per topic
    apart = train_topic_models(features, examples, C=10.0, tol=1e-2, tol_scale=tol_scale)
    assert together.topics == apart.topics == ["a", "b", "c", "d"] and together.skipped == apart.skipped
    assert np.array_equal(together.coef, apart.coef) and np.array_equal(together.intercept, apart.intercept)
    assert together.iterations == apart.iterations and together.not_converged == apart.not_converged


def _same_models(a, b) -> bool:
    return (a.topics == b.topics and np.array_equal(a.coef, b.coef) and np.array_equal(a.intercept, b.intercept)
            and a.iterations == b.iterations and a.not_converged == b.not_converged and a.skipped == b.skipped
            and a.training_sizes == b.training_sizes)  # fmt: skip


@pytest.mark.parametrize("solver", ["lbfgs", "liblinear"])
def test_several_tolerances_at_once_are_each_trained_alone_bit_for_bit(solver):
    """train_tolerances gives, for each (tol, tol_scale), exactly train_topic_models' models: on the
    mean and the summed loss, a tol stopping before the first step and one hitting max_iter."""
    features, grades = _data()
    examples = {"a": (np.arange(40), grades), "b": (np.arange(40), (grades + 1) % 3),
                "one-class": (np.arange(3), np.ones(3, dtype=int))}  # fmt: skip
    tolerances = [(1e-4, "mean"), (0.6, "mean"), (1e-12, "mean"), (1e-2, "mean")]
    tolerances += [(1.0, "sum"), (1e-4, "sum")] if solver == "lbfgs" else []
    together = train_tolerances(features, examples, tolerances=tolerances, C=10.0, max_iter=8, solver=solver)
    for (tol, tol_scale), models in zip(tolerances, together, strict=True):
        alone = train_topic_models(features, examples, C=10.0, tol=tol, max_iter=8, tol_scale=tol_scale, solver=solver)
        assert _same_models(models, alone)
    iterations = [models.iterations["a"] for models in together]
    assert len(set(iterations)) > 1 and together[0].skipped == {"one-class": together[0].skipped["one-class"]}
    if solver == "lbfgs":  # before the first step (|gradient| < 1/2 at 0) and at max_iter
        assert iterations[1] == 0 and iterations[2] == 8 and "a" in together[2].not_converged


def test_several_tolerances_share_one_trajectory_per_topic(monkeypatch):
    """Four tolerances of two topics: two L-BFGS-B states, not eight."""
    features, grades = _data()
    examples = {"a": (np.arange(40), grades), "b": (np.arange(40), (grades + 1) % 3)}
    states = []
    made = logistic._Lbfgsb
    monkeypatch.setattr(logistic, "_Lbfgsb", lambda *a, **k: states.append(k["gtol"]) or made(*a, **k))
    train_tolerances(features, examples, tolerances=[(1e-4, "mean"), (1.0, "mean"), (1e-2, "mean"), (1.0, "sum")])
    assert sorted(states) == [1e-4, 1e-4]
