"""Many binary logistic regressions on the same rows, fitted together: scikit-learn's lbfgs fit, bit for bit.

The routing runs fit one L2-penalised logistic regression per topic (:mod:`irrepro.routing.classifier`).
On a corpus where every document is judged for every topic (the Reuters-21578 stand-in), all topics
train on the same rows and differ only in their labels. :func:`fit_lbfgs` fits such a group at once,
each fit exactly as ``LogisticRegression(C=C, tol=tol, max_iter=max_iter).fit(X, y)`` of scikit-learn
>= 1.4 fits it: the objective (``sklearn.linear_model._linear_loss.LinearModelLoss``, binary case)

    f(w, b) = (1/n) sum_i [log(1 + exp(x_i . w + b)) - y_i (x_i . w + b)] + ||w||^2 / (2 C n),

its gradient, and one L-BFGS-B state per fit (SciPy's ``setulb`` with the options scikit-learn
passes: ``maxiter=max_iter``, ``maxls=50``, ``gtol=tol``, ``ftol=64 eps``, ten corrections), driven as
``scipy.optimize.minimize`` drives it. Only the sparse products are shared: the raw predictions of
every fit that asks for an evaluation are one product ``X @ W`` and their gradients one product
``X.T @ G``, which SciPy sums in the same order as the one-vector products (tested bit for bit
against scikit-learn), so every fit takes the same steps and ends on the same coefficients. The
rows are read once per round instead of once per fit, and scikit-learn's per-fit overhead is gone
(``benchmarks/bench_fits.py`` measures the ratio against one ``LogisticRegression`` per topic).

Fits that differ only in ``tol`` share one trajectory. scikit-learn passes ``tol`` to L-BFGS-B only
as ``gtol`` (``pgtol`` of ``setulb``), which enters nothing but the stopping test
``max_i |proj g_i| <= pgtol``, made at the start point and at each new iterate (SciPy's
``__lbfgsb.c``, ``mainlb``); every iterate, line search and update is the same whatever it is. So of
the fits with equal labels only the one with the smallest ``tol`` is run, and each looser one takes
the first iterate at which the projected gradient meets its ``tol`` -- after the driver's checks of
``max_iter`` and of the evaluation count at that iterate, as ``scipy.optimize.minimize`` orders them
-- or, where none does, the tightest fit's end (tested bit for bit against scikit-learn).

The L-BFGS-B state is SciPy's private ``scipy.optimize._lbfgsb.setulb`` (the C implementation of
SciPy >= 1.15); :data:`AVAILABLE` says whether this SciPy has it, and callers fall back to one
``LogisticRegression`` per fit when it does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy
import scipy.sparse as sp

__all__ = ["AVAILABLE", "LbfgsFit", "fit_lbfgs"]

try:  # SciPy's L-BFGS-B in C (1.15 on); its Python driver is _minimize_lbfgsb
    from scipy.optimize._lbfgsb import setulb as _setulb
    from sklearn._loss.loss import HalfBinomialLoss
except ImportError:  # pragma: no cover - another SciPy or scikit-learn
    _setulb = None

_SCIPY = tuple(int(part) for part in scipy.__version__.split(".")[:2])
#: whether this SciPy's L-BFGS-B can be driven here (its C ``setulb`` with the 1.15+ signature)
AVAILABLE = _setulb is not None and (1, 15) <= _SCIPY < (2, 0)

_CORRECTIONS = 10  # maxcor: scipy.optimize.minimize's default, which scikit-learn keeps
_MAX_LINE_SEARCH = 50  # maxls: scikit-learn's choice (SciPy's default is 20)
_FTOL = 64 * np.finfo(float).eps  # scikit-learn's ftol
_MAX_EVALUATIONS = 15_000  # maxfun: SciPy's default
_FG, _NEW_X, _CONVERGED, _STOP = 3, 1, 4, 5  # setulb's task codes
_FG_START = 301  # setulb's request of f and g at the start point
_MAX_ITER_REACHED, _MAX_EVALUATIONS_REACHED = 504, 502


@dataclass
class LbfgsFit:
    """One fitted logistic regression.

    Parameters
    ----------
    coef : numpy.ndarray
        The weights, one per feature.
    intercept : float
        The intercept.
    iterations : int
        L-BFGS-B iterations, as scikit-learn's ``n_iter_`` counts them.
    converged : bool
        ``False`` where scikit-learn warns with a ``ConvergenceWarning``.
    """

    coef: np.ndarray
    intercept: float
    iterations: int
    converged: bool


class _Lbfgsb:
    """One unbounded L-BFGS-B minimisation, stepped from outside (the loop of SciPy's ``_minimize_lbfgsb``)."""

    def __init__(self, n: int, *, gtol: float, max_iter: int):
        m = _CORRECTIONS
        self.x = np.zeros(n)
        self.f, self.g = np.array(0.0), np.zeros(n)
        self.bounds = (np.zeros(n), np.zeros(n), np.zeros(n, np.int32))  # lower, upper, none bounded
        self.work = (np.zeros(2 * m * n + 5 * n + 11 * m * m + 8 * m), np.zeros(3 * n, np.int32))
        self.task, self.line_task = np.zeros(2, np.int32), np.zeros(2, np.int32)
        self.saved = (np.zeros(4, np.int32), np.zeros(44, np.int32), np.zeros(29))
        self.factr, self.gtol, self.max_iter = _FTOL / np.finfo(float).eps, gtol, max_iter
        self.iterations, self.evaluations = 0, 0
        self.evaluated_at: np.ndarray | None = None
        self.looser: list[tuple[int, float]] = []  # (fit, its tol): fits stopping on this trajectory
        self.stopped_early: dict[int, LbfgsFit] = {}  # fit -> its result, where a looser tol stopped it

    def _checkpoint(self) -> None:
        """setulb's test at the start point or a new iterate, for every looser fit still running: its
        ``tol`` met by ``max |proj g|`` (``projgr``: for unbounded variables the largest ``|g_i|``,
        NaN ignored as C's ``fmax`` does) ends it here."""
        if not self.looser:
            return
        norm = float(np.fmax.reduce(np.abs(self.g), initial=0.0))
        for fit, _ in [entry for entry in self.looser if norm <= entry[1]]:
            self.stopped_early[fit] = LbfgsFit(self.x[:-1].copy(), float(self.x[-1]), self.iterations, True)
        self.looser = [entry for entry in self.looser if entry[0] not in self.stopped_early]

    def wants_evaluation(self) -> bool:
        """Advance until L-BFGS-B asks for f and g at :attr:`x` (True) or stops (False)."""
        while True:
            self.g = self.g.astype(np.float64)
            if self.task[0] == _FG and self.task[1] == _FG_START and self.evaluations:  # f, g of the start given
                self._checkpoint()
            lower, upper, bounded = self.bounds
            _setulb(_CORRECTIONS, self.x, lower, upper, bounded, self.f, self.g, self.factr, self.gtol, *self.work,
                    self.task, *self.saved, _MAX_LINE_SEARCH, self.line_task)  # fmt: skip
            if self.task[0] == _FG:
                return True
            if self.task[0] != _NEW_X:
                return False
            self.iterations += 1
            if self.iterations >= self.max_iter:
                self.task[:] = (_STOP, _MAX_ITER_REACHED)
            elif self.evaluations > _MAX_EVALUATIONS:
                self.task[:] = (_STOP, _MAX_EVALUATIONS_REACHED)
            else:  # setulb tests this iterate when called next
                self._checkpoint()

    def take(self, f: float, g: np.ndarray) -> None:
        """The objective and gradient at :attr:`x` (SciPy counts an evaluation only at a new ``x``)."""
        if self.evaluated_at is None or not np.array_equal(self.x, self.evaluated_at):
            self.evaluations += 1
            self.evaluated_at = self.x.copy()
        self.f, self.g = f, g

    def result(self) -> LbfgsFit:
        converged = self.task[0] == _CONVERGED
        return LbfgsFit(self.x[:-1].copy(), float(self.x[-1]), min(self.iterations, self.max_iter), bool(converged))


def _objectives(X: sp.csr_matrix, XT: sp.csr_matrix, labels: list[np.ndarray], states: list[_Lbfgsb], l2: float):
    """f and gradient of scikit-learn's binary ``LinearModelLoss.loss_gradient`` for every state, the
    two sparse products shared; the rest is scikit-learn's own arithmetic, fit by fit. ``XT`` is
    ``X.T`` as CSR: its rows hold each feature's entries in row order of ``X``, so ``XT @ G`` sums in
    the order of scikit-learn's ``X.T @ g`` (CSC), and faster."""
    n_samples, n_features = X.shape
    # the products' operands and results are (rows, fits) in C order; each fit's vector is taken
    # from, and put into, a contiguous row of the transpose (one bulk copy, not a strided column each)
    raw = (X @ np.ascontiguousarray(np.array([state.x[:-1] for state in states]).T)).T.copy()
    pointwise_gradients = np.empty((len(states), n_samples))
    losses, intercept_gradients = [], []
    base_loss = HalfBinomialLoss()
    for row, (state, y) in enumerate(zip(states, labels, strict=True)):
        w = state.x[:-1]
        loss, gradient = base_loss.loss_gradient(y_true=y, raw_prediction=raw[row] + state.x[-1],
                                                 sample_weight=None, n_threads=1)  # fmt: skip
        value = float(np.sum(loss) / n_samples)
        value += float(0.5 * l2 * (w @ w))
        gradient /= n_samples
        losses.append(value)
        intercept_gradients.append(np.sum(gradient))
        pointwise_gradients[row] = gradient
    feature_gradients = (XT @ np.ascontiguousarray(pointwise_gradients.T)).T.copy()
    for row, state in enumerate(states):
        g = np.empty(n_features + 1)
        g[:n_features] = feature_gradients[row] + l2 * state.x[:-1]
        g[-1] = intercept_gradients[row]
        yield losses[row], g


def fit_lbfgs(X: sp.csr_matrix, labels: Sequence[np.ndarray], *, C: float, tols: Sequence[float],
              max_iter: int) -> list[LbfgsFit]:
    """Fit one logistic regression per entry of ``labels`` with lbfgs, all on the rows of ``X``.

    Fit ``j`` is, bit for bit, ``LogisticRegression(C=C, tol=tols[j], max_iter=max_iter,
    solver="lbfgs").fit(X, labels[j])`` (module docstring).

    Parameters
    ----------
    X : scipy.sparse.csr_matrix
        The training rows (samples x features).
    labels : sequence of numpy.ndarray
        One 0/1 label per row of ``X`` for each fit.
    C : float
        Inverse regularisation strength, shared by the fits.
    tols : sequence of float
        Each fit's bound on the projected gradient.
    max_iter : int
        The most L-BFGS-B iterations of a fit.

    Returns
    -------
    list of LbfgsFit
        The fits, in the order of ``labels``.

    Raises
    ------
    RuntimeError
        If this SciPy has no C L-BFGS-B to drive (:data:`AVAILABLE`).
    ValueError
        If ``tols`` and ``labels`` differ in length.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.5]]))
    >>> fits = fit_lbfgs(X, [np.array([1, 0, 1, 0]), np.array([0, 1, 1, 1])], C=1.5, tols=[1e-4, 1e-4], max_iter=100)
    >>> [bool(fit.coef[0] > 0) for fit in fits], [fit.converged for fit in fits]
    ([True, False], [True, True])
    """
    if not AVAILABLE:
        raise RuntimeError(f"fit_lbfgs needs SciPy's C L-BFGS-B (SciPy >= 1.15), not SciPy {scipy.__version__}")
    if len(tols) != len(labels):
        raise ValueError(f"fit_lbfgs: {len(labels)} label vectors but {len(tols)} tolerances")
    X = sp.csr_matrix(X, dtype=np.float64)
    targets = [np.asarray(y == 1, dtype=np.float64) for y in labels]  # scikit-learn's y_bin: classes_[1] is 1
    l2 = 1.0 / (C * X.shape[0])
    followers = _trajectories(targets, tols)  # leader -> the looser fits on its trajectory
    leaders = list(followers)
    states = [_Lbfgsb(X.shape[1] + 1, gtol=tols[leader], max_iter=max_iter) for leader in leaders]
    for state, leader in zip(states, leaders, strict=True):
        state.looser = [(fit, tols[fit]) for fit in followers[leader]]
    XT = X.T.tocsr()
    asking = [j for j, state in enumerate(states) if state.wants_evaluation()]
    while asking:
        evaluated = _objectives(X, XT, [targets[leaders[j]] for j in asking], [states[j] for j in asking], l2)
        for j, (f, g) in zip(asking, evaluated, strict=True):
            states[j].take(f, g)
        asking = [j for j in asking if states[j].wants_evaluation()]
    fits: list[LbfgsFit] = [None] * len(targets)  # type: ignore[list-item] (each filled below)
    for state, leader in zip(states, leaders, strict=True):
        fits[leader] = end = state.result()
        for fit in followers[leader]:  # a looser fit not stopped earlier ended with the tightest
            fits[fit] = state.stopped_early.get(fit) or dataclasses.replace(end, coef=end.coef.copy())
    return fits


def _trajectories(targets: list[np.ndarray], tols: Sequence[float]) -> dict[int, list[int]]:
    """Fits with equal labels share one L-BFGS-B trajectory (module docstring): the fit of the
    smallest ``tol`` among them (the first of equals) -> the other fits of its labels."""
    by_labels: dict[bytes, list[int]] = {}
    for fit, y in enumerate(targets):
        by_labels.setdefault(y.tobytes(), []).append(fit)
    leaders: dict[int, list[int]] = {}
    for fits in by_labels.values():
        leader = min(fits, key=lambda fit: (tols[fit], fit))
        leaders[leader] = [fit for fit in fits if fit != leader]
    return dict(sorted(leaders.items()))
