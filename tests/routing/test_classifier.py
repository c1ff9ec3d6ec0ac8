"""Per-topic classifiers: scikit-learn's logistic regression, stacked for one product."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression

from irrepro.routing.classifier import train_topic_models


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
