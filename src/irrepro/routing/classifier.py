"""One logistic-regression classifier per topic, trained on judged documents.

Grossman & Cormack's routing runs, as Breuer & Schaer re-implement them (CENTRE@CLEF 2019, Sec. 3.2):
for each topic, the documents judged for it in the training corpus are the examples, judged relevant
(grade >= 1; grade 2 is folded into 1, ``core/training.py:48`` of irgroup/sigir2020-measure-
reproducibility @ 3b4e760) positive and judged non-relevant negative, and scikit-learn's
``LogisticRegression(C=1.5, tol=1e-4, max_iter=100)`` is fitted on their tf-idf rows with one of two
solvers:

* ``solver="lbfgs"`` (default; the SIGIR 2020 code, ``config/param.py:6``, ``core/training.py:71-73``):
  L2 penalty on the weights only, the intercept unpenalised;
* ``solver="liblinear"``: the CLEF 2019 code calls ``LogisticRegression(C=1.5)``
  (breuert/wcrobust0405-code ``core/training.py:75``) under scikit-learn 0.20.2, whose default
  solver was liblinear. liblinear appends a constant feature of value ``intercept_scaling=1`` and
  penalises its weight (the intercept) with the others; it stops when the gradient norm falls to
  ``tol * max(min(#pos, #neg), 1) / n`` times its initial value. Today's scikit-learn runs the same
  trust-region Newton code (``sklearn/svm/src/liblinear``, changed since 0.20 only in its random
  numbers, used by other liblinear solvers, and in memory fixes), so this is the 2019 fit as far
  as a library can say; ``tol_scale`` does not apply to it.

A document's score is the probability of relevance

    P(rel | d) = 1 / (1 + exp(-(w_q . x_d + b_q))),

so all topics are scored at once by ``X @ W + b`` with the weights stacked in one matrix.

What ``tol`` bounds changed with scikit-learn 1.4 (PR #26721): L-BFGS-B stops when the largest
projected-gradient entry is <= ``tol``, and the objective is now the *mean* log-loss plus
``||w||^2 / (2 C n)``, where scikit-learn < 1.4 (the authors' 0.20.2, with lbfgs in the 2020 code) minimised the *summed*
log-loss plus ``||w||^2 / (2 C)`` -- the same model, an objective n times larger, so the same ``tol``
stopped far later. ``tol_scale="sum"`` applies ``tol`` to the summed loss as before 1.4 (it passes
``tol / n``); L-BFGS-B's other stopping settings (``ftol``, ``maxls``), changed at the same time, are
not emulated. At the start (all weights 0) the mean loss's gradient is ``(1/n) sum_i (1/2 - y_i) x_i``
and ``1/2 - share relevant`` for the intercept: with L2-normalised tf-idf rows no entry exceeds 1/2,
so with ``tol_scale="mean"`` a ``tol`` >= 1/2 ends lbfgs before its first step (0 iterations, every
weight 0, every document scored 1/2). :attr:`TopicModels.iterations` records the iterations per topic.

A topic whose training examples are all of one class cannot be fitted: it is left out and named in
:attr:`TopicModels.skipped`. Non-convergence (the solver hits ``max_iter``, which the large ``C`` and
small ``tol`` constellations can) does not warn: the topics are listed in
:attr:`TopicModels.not_converged`, so a chapter stays free of warnings and the fact is not lost.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits

from irrepro.routing import logistic
from irrepro.routing.constellations import TOL_SCALES
from irrepro.routing.logistic import LbfgsFit

__all__ = ["SOLVERS", "TopicModels", "train_topic_models", "train_tolerances"]

#: the logistic-regression solvers of the two implementations of the authors' code
SOLVERS = ("lbfgs", "liblinear")


def _model(solver: str, *, C: float, tol: float, max_iter: int) -> LogisticRegression:
    if solver == "liblinear":  # intercept_scaling=1: the intercept is penalised as in scikit-learn 0.20
        return LogisticRegression(C=C, tol=tol, solver="liblinear", max_iter=max_iter, intercept_scaling=1.0, random_state=0)
    return LogisticRegression(C=C, tol=tol, solver="lbfgs", max_iter=max_iter)


@dataclass
class TopicModels:
    """Stacked per-topic linear models: column ``j`` of ``coef`` and ``intercept[j]`` belong to ``topics[j]``.

    Parameters
    ----------
    topics : list of str
        The topics with a model.
    coef : numpy.ndarray
        n_features x n_topics.
    intercept : numpy.ndarray
        n_topics.
    skipped : dict of str -> str, optional
        Topic -> why it has no model.
    not_converged : list of str, optional
        Topics whose solver stopped at ``max_iter``.
    training_sizes : dict of str -> (int, int), optional
        Topic -> (positives, negatives).
    iterations : dict of str -> int, optional
        Topic -> solver iterations.
    """

    topics: list[str]
    coef: np.ndarray  # n_features x n_topics
    intercept: np.ndarray  # n_topics
    skipped: dict[str, str] = field(default_factory=dict)  # topic -> reason
    not_converged: list[str] = field(default_factory=list)
    training_sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # topic -> (positives, negatives)
    iterations: dict[str, int] = field(default_factory=dict)  # topic -> solver iterations

    def decision(self, features: sp.csr_matrix) -> np.ndarray:
        """Compute ``X @ W + b``: one row per document, one column per topic.

        Parameters
        ----------
        features : scipy.sparse.csr_matrix
            tf-idf rows of the documents.

        Returns
        -------
        numpy.ndarray
            Documents x topics decision values.
        """
        return np.asarray(features @ self.coef) + self.intercept

    def probabilities(self, features: sp.csr_matrix) -> np.ndarray:
        """Compute the probability of relevance (``predict_proba[:, 1]`` of every topic's classifier).

        Parameters
        ----------
        features : scipy.sparse.csr_matrix
            tf-idf rows of the documents.

        Returns
        -------
        numpy.ndarray
            Documents x topics probabilities.
        """
        return expit(self.decision(features))


def train_topic_models(
    features: sp.csr_matrix,
    examples: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    C: float = 1.5,
    tol: float = 1e-4,
    max_iter: int = 100,
    tol_scale: str = "mean",
    solver: str = "lbfgs",
) -> TopicModels:
    """Fit one classifier per topic.

    Parameters
    ----------
    features : scipy.sparse.csr_matrix
        tf-idf rows of all judged training documents.
    examples : mapping topic -> (row indices into ``features``, relevance grades)
        The judged documents of each topic; grade >= 1 is relevant.
    C : float, default 1.5
        The logistic regression's inverse regularisation strength (the authors' default).
    tol : float, default 1e-4
        The solver's tolerance (the authors' default).
    max_iter : int, default 100
        The solver's most iterations (the authors' default).
    tol_scale : {"mean", "sum"}
        ``tol`` bounds the gradient of the mean log-loss (scikit-learn >= 1.4, default) or of the
        summed log-loss (scikit-learn < 1.4, which the authors used); lbfgs only (see above).
    solver : {"lbfgs", "liblinear"}
        Intercept unpenalised or penalised (see above).

    Returns
    -------
    TopicModels
        The models; a topic without both relevant and non-relevant training documents is skipped.

    Raises
    ------
    ValueError
        For an unknown solver or tol_scale, or ``tol_scale="sum"`` with liblinear.
    """
    return train_tolerances(features, examples, tolerances=[(tol, tol_scale)], C=C, max_iter=max_iter,
                            solver=solver)[0]  # fmt: skip


def train_tolerances(
    features: sp.csr_matrix,
    examples: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    tolerances: Sequence[tuple[float, str]],
    C: float = 1.5,
    max_iter: int = 100,
    solver: str = "lbfgs",
) -> list[TopicModels]:
    """Fit one classifier per topic for each ``(tol, tol_scale)``: :func:`train_topic_models` of each.

    With lbfgs, a topic's fits that differ only in the bound on the gradient follow one L-BFGS-B
    trajectory, each stopping where its own bound stops it
    (:func:`~irrepro.routing.logistic.fit_lbfgs`): the result of each is, bit for bit, that of
    :func:`train_topic_models` with that ``tol`` and ``tol_scale``.

    Parameters
    ----------
    features : scipy.sparse.csr_matrix
        tf-idf rows of all judged training documents.
    examples : mapping topic -> (row indices into ``features``, relevance grades)
        The judged documents of each topic; grade >= 1 is relevant.
    tolerances : sequence of (float, str)
        ``(tol, tol_scale)`` of each training (:func:`train_topic_models`).
    C : float, default 1.5
        The inverse regularisation strength, shared.
    max_iter : int, default 100
        The solver's most iterations, shared.
    solver : {"lbfgs", "liblinear"}
        The solver, shared.

    Returns
    -------
    list of TopicModels
        One per entry of ``tolerances``, in order.

    Raises
    ------
    ValueError
        For an unknown solver or tol_scale, or ``tol_scale="sum"`` with liblinear.
    """
    for _, tol_scale in tolerances:
        _check_solver(solver, tol_scale)
    sizes, skipped, fittable = _fittable(examples)
    # One BLAS thread for all fits: the many small products of lbfgs are several times slower with
    # busy-waiting BLAS threads (measured 5x on the 2-core machine); the result does not change. This is
    # the routing runs' only BLAS-heavy step (scoring is a sparse product, which uses no BLAS), so the
    # cap lives here and callers need none of their own.
    with threadpool_limits(limits=1, user_api="blas"):
        fits = _fits(features, fittable, tolerances, solver=solver, C=C, max_iter=max_iter)
    return [_stacked(features.shape[1], fittable, each, sizes, skipped) for each in fits]


def _fittable(examples: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> tuple[dict, dict, dict]:
    """Each topic's (positives, negatives); why a topic of one class is skipped; the others' rows and 0/1 labels."""
    sizes: dict[str, tuple[int, int]] = {}
    skipped: dict[str, str] = {}
    fittable: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for topic, (rows, grades) in examples.items():
        labels = (np.asarray(grades) >= 1).astype(np.int64)
        positives = int(labels.sum())
        negatives = int(len(labels) - positives)
        sizes[topic] = (positives, negatives)
        if positives == 0 or negatives == 0:
            skipped[topic] = f"{positives} relevant and {negatives} non-relevant judged training documents"
        else:
            fittable[topic] = (np.asarray(rows), labels)
    return sizes, skipped, fittable


def _stacked(n_features: int, fittable: Mapping, fits: Mapping[str, LbfgsFit], sizes: dict, skipped: dict) -> TopicModels:
    """The topics' fits as one :class:`TopicModels`, in the examples' order."""
    models = TopicModels(topics=list(fittable), coef=np.zeros((n_features, 0)), intercept=np.zeros(0),
                         skipped=dict(skipped), training_sizes=dict(sizes))  # fmt: skip
    models.not_converged = [topic for topic in fittable if not fits[topic].converged]
    models.iterations = {topic: fits[topic].iterations for topic in fittable}
    if fittable:
        models.coef = np.column_stack([fits[topic].coef for topic in fittable])
    models.intercept = np.asarray([fits[topic].intercept for topic in fittable], dtype=np.float64)
    return models


def _bound(tol: float, tol_scale: str, labels: np.ndarray) -> float:
    """What lbfgs's ``tol`` is: ``tol``, or for the summed loss, whose gradient is n times the mean's, ``tol / n``."""
    return tol if tol_scale == "mean" else tol / len(labels)


def _fits(features: sp.csr_matrix, fittable: Mapping[str, tuple[np.ndarray, np.ndarray]],
          tolerances: Sequence[tuple[float, str]], *, solver: str, C: float, max_iter: int) -> list[dict[str, LbfgsFit]]:
    """Each tolerance's fit of each topic. lbfgs: topics training on the same rows (every topic, where
    every document is judged for every topic) are fitted together, every tolerance at once, by
    :func:`~irrepro.routing.logistic.fit_lbfgs`, which gives scikit-learn's fits bit for bit;
    liblinear (or a SciPy without the C L-BFGS-B): one ``LogisticRegression`` per topic and tolerance."""
    fits: list[dict[str, LbfgsFit]] = [{} for _ in tolerances]
    if solver == "lbfgs" and logistic.AVAILABLE:
        groups: dict[bytes, list[str]] = {}
        for topic, (rows, _) in fittable.items():
            groups.setdefault(rows.astype(np.int64).tobytes(), []).append(topic)
        for topics in groups.values():
            rows = fittable[topics[0]][0]
            wanted = [(each, topic) for each in range(len(tolerances)) for topic in topics]
            labels = [fittable[topic][1] for _, topic in wanted]
            tols = [_bound(*tolerances[each], fittable[topic][1]) for each, topic in wanted]
            group_fits = logistic.fit_lbfgs(features[rows], labels, C=C, tols=tols, max_iter=max_iter)
            for (each, topic), fit in zip(wanted, group_fits, strict=True):
                fits[each][topic] = fit
        return fits
    for each, (tol, tol_scale) in enumerate(tolerances):
        for topic, (rows, labels) in fittable.items():
            model = _model(solver, C=C, tol=_bound(tol, tol_scale, labels), max_iter=max_iter)
            model, converged = _fit(model, features[rows], labels)
            fits[each][topic] = LbfgsFit(model.coef_[0], float(model.intercept_[0]), int(model.n_iter_[0]), converged)
    return fits


def _check_solver(solver: str, tol_scale: str) -> None:
    if tol_scale not in TOL_SCALES:
        raise ValueError(f"tol_scale must be one of {TOL_SCALES}, got {tol_scale!r}")
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")
    if solver == "liblinear" and tol_scale != "mean":
        raise ValueError("tol_scale='sum' applies to lbfgs only; liblinear scales its tol by its own rule")


def _fit(model: LogisticRegression, rows: sp.csr_matrix, labels: np.ndarray) -> tuple[LogisticRegression, bool]:
    """``model`` fitted, and whether it converged (a ConvergenceWarning is recorded, not shown)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(rows, labels)
    return model, not any(issubclass(w.category, ConvergenceWarning) for w in caught)
