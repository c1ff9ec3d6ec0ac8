"""IRLS for the GLM of a complete topics x systems score matrix, specialised to the two-way layout.

Model (Faggioli, Ferro & Fuhr): g(E[y_ts]) = mu + tau_t + s_s, with treatment coding (the first topic
and the first system are the references, tau_1 = s_1 = 0), i.e. ``1 + (T - 1) + (S - 1)`` parameters,
as statsmodels' ``y ~ C(topic) + C(system)``.

Each IRLS iteration solves a weighted least-squares problem with weights w_ts = 1 / (g'(mu)^2 V(mu))
and working response z_ts = eta_ts + g'(mu_ts) (y_ts - mu_ts). Writing eta_ts = a_t + b_s (a_t topic
level including the intercept, b_1 = 0), the normal equations have the block form

    [ D_a   W   ] [a]   [r_a]      D_a = diag(sum_s w_ts),  D_b = diag(sum_t w_ts),
    [ W'    D_b ] [b] = [r_b],     r_a = sum_s w_ts z_ts,   r_b = sum_t w_ts z_ts,

with W the T x S weight matrix. The topic block is diagonal, so it is eliminated exactly (Schur
complement): (D_b - W' D_a^-1 W) b = r_b - W' D_a^-1 r_a, an (S-1) x (S-1) positive definite system
(Cholesky), then a = D_a^-1 (r_a - W b). An iteration costs O(T S^2) instead of the O(n p^2) of a dense
QR/SVD of the n x p design (n = T S). The inverse Schur complement, times the dispersion, is the
covariance matrix of the system effects, which is what system comparisons need.

The iteration (start mu = family.starting_mu(y), convergence when the deviance changes by at most
``tol``, at most ``max_iter`` iterations) is statsmodels' ``GLM.fit()`` IRLS; the same data give the
same deviance to machine precision (``tests/glm/test_fit.py``). Its steps, one function each:

1. ``_working_response``: weights and working response at the current mean;
2. ``_solve_two_way``: the normal equations through ``_schur_complement`` (the one place the
   Schur complement is formed; ``_system_covariance`` inverts it at the final mean);
3. the deviance of the new mean (the family's);
4. ``_irls``: repeat until the deviance changes by at most ``tol``.

Families: ``"gaussian"`` (default; the deviance is the residual sum of squares, comparable across
links, as the paper compares it) or ``"quasibinomial"`` (binomial variance mu (1 - mu), dispersion
from Pearson's chi^2; only for links mapping into (0, 1): logit, probit, cauchit).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.linalg import lapack
from statsmodels.genmod import families  # not statsmodels.api: a second and a half more to import

from irrepro.glm.links import LINK_NAMES, make_link, open_bounds
from irrepro.validation import Choice, Frame, Integer, Real, validate_params

__all__ = ["TwoWayFit", "fit_two_way", "system_effects_refit", "make_family", "dense_design", "FAMILIES"]

FAMILIES = ("gaussian", "quasibinomial")
_UNIT_INTERVAL_LINKS = ("logit", "probit", "cauchit")
#: A topics x systems matrix of scores: at least 2 x 2 (checked further by _check_scores).
SCORE_MATRIX = Frame(min_rows=2, hint="topics as rows, systems as columns")


@dataclass(frozen=True)
class TwoWayFit:
    """One fitted GLM g(E[y_ts]) = mu + tau_t + s_s and its summary statistics.

    Parameters
    ----------
    link : str
        The link g, of :data:`~irrepro.glm.links.LINK_NAMES`.
    family : str
        ``"gaussian"`` or ``"quasibinomial"``.
    deviance : float
        Family deviance (Gaussian: residual sum of squares).
    converged : bool
        Whether IRLS converged.
    iterations : int
        How many IRLS iterations it took.
    scale : float
        Dispersion phi (Pearson chi^2 / df_resid).
    aic, bic : float
        Gaussian log-likelihood at the ML variance D / n, counting the ``n_params`` coefficients
        plus the variance: AIC = -2 llf + 2 (p + 1), BIC = -2 llf + (p + 1) log n; NaN for the
        quasi-binomial family (no likelihood).
    n_obs : int
        The number of scores fitted.
    n_params : int
        The number of coefficients.
    intercept : float
        mu.
    topic_effects : pandas.Series
        tau_t on the linear-predictor scale (first topic = 0).
    system_effects : pandas.Series
        s_s on the linear-predictor scale (first system = 0).
    system_se : pandas.Series
        Their standard errors, the root diagonal of ``system_cov``.
    system_cov : numpy.ndarray
        Their covariance (phi times the inverse Schur complement).
    fitted : pandas.DataFrame
        The fitted means, topics x systems.
    linear_predictor : pandas.DataFrame
        The fitted linear predictor, topics x systems.
    """

    link: str
    family: str
    deviance: float
    converged: bool
    iterations: int
    scale: float
    aic: float
    bic: float
    n_obs: int
    n_params: int
    intercept: float
    topic_effects: pd.Series
    system_effects: pd.Series
    system_se: pd.Series
    system_cov: np.ndarray = field(repr=False)
    fitted: pd.DataFrame = field(repr=False)
    linear_predictor: pd.DataFrame = field(repr=False)

    @property
    def df_resid(self) -> int:
        """The residual degrees of freedom, ``n_obs - n_params``."""
        return self.n_obs - self.n_params


@validate_params(family=Choice(FAMILIES), link_name=Choice(LINK_NAMES))
def make_family(family: str, link_name: str) -> families.Family:
    """Make the statsmodels family ``family`` with the link ``link_name``.

    The quasi-binomial family is statsmodels' ``Binomial``: same variance mu (1 - mu) and IRLS; the
    dispersion is estimated from Pearson's chi^2 by :func:`fit_two_way`, not fixed at 1.

    Parameters
    ----------
    family : {"gaussian", "quasibinomial"}
        The family.
    link_name : str
        The link, of :data:`~irrepro.glm.links.LINK_NAMES`.

    Returns
    -------
    statsmodels.genmod.families.Family
        The family with that link.

    Raises
    ------
    ValueError
        For an unknown family, or a link the family does not take.
    """
    link = make_link(link_name)
    if family == "gaussian":
        return families.Gaussian(link, check_link=False)
    if family == "quasibinomial":
        if link_name not in _UNIT_INTERVAL_LINKS:
            raise ValueError(
                f"the quasi-binomial family needs a link into (0, 1) ({', '.join(_UNIT_INTERVAL_LINKS)}), not {link_name!r}"
            )
        return families.Binomial(link, check_link=False)
    raise ValueError(f"unknown family {family!r}; choose one of {', '.join(FAMILIES)}")


def _check_scores(scores: pd.DataFrame, link_name: str) -> np.ndarray:
    if not isinstance(scores, pd.DataFrame):
        raise ValueError("scores must be a DataFrame with topics as rows and systems as columns")
    n_topics, n_systems = scores.shape
    if n_topics < 2 or n_systems < 2:
        raise ValueError(f"need at least 2 topics and 2 systems, got {n_topics} x {n_systems}")
    values = scores.to_numpy(dtype=float)
    if not np.isfinite(values).all():
        row, col = np.argwhere(~np.isfinite(values))[0]
        raise ValueError(f"score of system {scores.columns[col]!r} on topic {scores.index[row]!r} is missing or infinite")
    for bound in open_bounds(link_name):
        for axis, kind, labels in ((1, "topic", scores.index), (0, "system", scores.columns)):
            constant = (values == bound).all(axis=axis)
            if constant.any():
                raise ValueError(
                    f"{kind} {labels[np.argmax(constant)]!r} scores {bound:g} everywhere: the {link_name} link "
                    f"cannot reach a mean of {bound:g}, its effect would be infinite (drop it first, see "
                    "irrepro.glm.outliers.boundary_constant)"
                )
    return values


# --------------------------------------------------------------------------- the steps of one IRLS iteration


def _working_response(family, y: np.ndarray, mu: np.ndarray, eta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step 1: weights w = 1 / (g'(mu)^2 V(mu)) and working response z = eta + g'(mu) (y - mu).

    The weights as statsmodels' ``Family.weights`` computes them, with g'(mu) computed once for both.
    """
    slope = family.link.deriv(mu)
    return 1.0 / (slope**2 * family.variance(mu)), eta + slope * (y - mu)


def _schur_complement(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The system block of the two-way normal equations after eliminating the topic block.

    Returns (S, D_a, W D_a^-1): S = D_b - W' D_a^-1 W without the reference system's row and column
    (an (S-1) x (S-1) positive definite matrix), the topic weight sums D_a = sum_s w_ts, and the
    weights scaled by them. Used to solve each iteration and, at the end, for the covariance.
    """
    topic_weight = weights.sum(axis=1)
    scaled = weights / topic_weight[:, None]
    schur = np.diag(weights.sum(axis=0)) - weights.T @ scaled
    return schur[1:, 1:], topic_weight, scaled


def _cholesky(matrix: np.ndarray) -> np.ndarray:
    """The upper Cholesky factor of a positive definite matrix; ``LinAlgError`` when it is not one.

    LAPACK's ``dpotrf``, called as ``scipy.linalg.cho_factor(matrix, check_finite=False)`` calls it
    (the same numbers), without the argument handling around it: a fitter calls it once per IRLS
    iteration, tens of thousands of times for the GLM chapter, where that handling took a third of
    the solve.
    """
    factor, info = lapack.dpotrf(matrix, lower=0, clean=0)
    if info > 0:
        raise np.linalg.LinAlgError(f"{info}-th leading minor of the array is not positive definite")
    return factor


def _cholesky_solve(factor: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Solve ``A x = rhs`` from the upper Cholesky factor of A (``dpotrs``, as ``scipy.linalg.cho_solve``)."""
    solution, info = lapack.dpotrs(factor, rhs, lower=0)
    if info != 0:
        raise ValueError(f"illegal value in argument {-info} of LAPACK's dpotrs")
    return solution


def _solve_two_way(weights: np.ndarray, working: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step 2: weighted LS for z_ts ~ a_t + b_s with b_1 = 0; returns the topic and system levels (a, b).

    S b = r_b - W' D_a^-1 r_a by Cholesky (raises ``LinAlgError`` when S is not positive definite),
    then a = D_a^-1 (r_a - W b).
    """
    schur, topic_weight, scaled = _schur_complement(weights)
    weighted = weights * working
    topic_rhs = weighted.sum(axis=1)
    rhs = weighted.sum(axis=0) - scaled.T @ topic_rhs
    factor = _cholesky(schur)
    system_levels = np.zeros(weights.shape[1])
    system_levels[1:] = _cholesky_solve(factor, rhs[1:])
    topic_levels = (topic_rhs - weights @ system_levels) / topic_weight
    return topic_levels, system_levels


@dataclass
class _Iterate:
    """Where IRLS stands: linear predictor, mean, deviance, the last levels solved (None before any)."""

    eta: np.ndarray
    mu: np.ndarray
    deviance: float
    topic_levels: np.ndarray | None = None
    system_levels: np.ndarray | None = None
    iterations: int = 0
    converged: bool = False


def _irls(values: np.ndarray, family, *, tol: float, max_iter: int, start_eta: np.ndarray | None = None) -> _Iterate:
    """IRLS from mu = family.starting_mu(y) until the deviance changes by at most ``tol`` (step 4).

    ``start_eta`` (topics x systems): start from this linear predictor instead (a warm start, e.g. the
    fit on all topics when refitting a resample of them). Stops early, unconverged, when the weights
    or working response stop being finite or the Schur complement is not positive definite (a link
    whose inverse was clipped).
    """
    n_topics, n_systems = values.shape
    y = values.ravel()
    if start_eta is None:
        mu = family.starting_mu(y)
        eta = family.link(mu)
    else:
        eta = np.asarray(start_eta, dtype=float).ravel()
        mu = family.fitted(eta)
    state = _Iterate(eta=eta, mu=mu, deviance=family.deviance(y, mu))
    for iteration in range(1, max_iter + 1):
        state.iterations = iteration
        weights, working = _working_response(family, y, state.mu, state.eta)
        if not (np.isfinite(weights).all() and np.isfinite(working).all()):
            break
        try:
            state.topic_levels, state.system_levels = _solve_two_way(
                weights.reshape(n_topics, n_systems), working.reshape(n_topics, n_systems)
            )
        except np.linalg.LinAlgError:
            break
        state.eta = (state.topic_levels[:, None] + state.system_levels[None, :]).ravel()
        state.mu = family.fitted(state.eta)
        previous, state.deviance = state.deviance, family.deviance(y, state.mu)  # step 3
        if abs(state.deviance - previous) <= tol:
            state.converged = bool(np.isfinite(state.deviance))
            break
    return state


# --------------------------------------------------------------------------- statistics of the final fit


def _information_criteria(family_name: str, deviance: float, n_obs: int, n_params: int) -> tuple[float, float]:
    """Gaussian AIC and BIC at the ML variance D / n, counting the variance as a parameter; NaN otherwise."""
    if family_name != "gaussian":
        return float("nan"), float("nan")
    llf = -0.5 * n_obs * (np.log(2 * np.pi * deviance / n_obs) + 1)
    return -2 * llf + 2 * (n_params + 1), -2 * llf + (n_params + 1) * np.log(n_obs)


def _system_covariance(family, mu: np.ndarray, shape: tuple[int, int], scale: float) -> np.ndarray:
    """Covariance of the system effects: phi times the inverse Schur complement at the final mean.

    NaN when the final weights are not finite or the Schur complement is not positive definite.
    """
    n_systems = shape[1]
    covariance = np.full((n_systems, n_systems), np.nan)
    if not np.isfinite(mu).all():
        return covariance
    weights = family.weights(mu).reshape(shape)
    if not (np.isfinite(weights).all() and (weights.sum(axis=1) > 0).all()):
        return covariance
    schur, _, _ = _schur_complement(weights)
    try:
        factor = _cholesky(schur)
    except np.linalg.LinAlgError:
        return covariance
    covariance = np.zeros((n_systems, n_systems))
    covariance[1:, 1:] = scale * _cholesky_solve(factor, np.eye(n_systems - 1))
    return covariance


@validate_params(
    scores=SCORE_MATRIX,
    link=Choice(LINK_NAMES),
    family=Choice(FAMILIES),
    tol=Real(0.0, None, closed="neither"),
    max_iter=Integer(1, 100_000),
)
def fit_two_way(
    scores: pd.DataFrame,
    *,
    link: str = "identity",
    family: str = "gaussian",
    tol: float = 1e-8,
    max_iter: int = 100,
) -> TwoWayFit:
    """Fit g(E[y_ts]) = mu + tau_t + s_s to a complete topics x systems matrix by IRLS.

    The topic + system model of Faggioli, Ferro & Fuhr, with treatment coding (the first topic and
    system are the references), fitted as statsmodels' ``GLM(y ~ C(topic) + C(system))`` would be,
    to the same deviance (see the module docstring for the algorithm).

    Parameters
    ----------
    scores : pandas.DataFrame
        Per-topic scores, topics as rows and systems as columns, no missing values.
    link : str, default "identity"
        One of :data:`irrepro.glm.links.LINK_NAMES`.
    family : {"gaussian", "quasibinomial"}
        The variance function: constant, or binomial ``mu (1 - mu)`` with a free dispersion.
    tol : float, default 1e-8
        Convergence when the deviance changes by at most ``tol`` (statsmodels' criterion).
    max_iter : int, default 100
        Give up after this many iterations (``converged`` is then False); no warning is emitted.

    Returns
    -------
    TwoWayFit
        The effects, their covariance, deviance, dispersion, AIC/BIC and convergence.

    Raises
    ------
    ValueError
        For missing scores, fewer than 2 topics or systems, an unknown link or family, and a
        topic or system constant at a score the link cannot reach (e.g. all zeros with log).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame([[0.2, 0.4], [0.3, 0.5], [0.1, 0.35]], columns=["a", "b"])
    >>> round(float(fit_two_way(scores).system_effects["b"]), 4)
    0.2167
    """
    values = _check_scores(scores, link)
    glm_family = make_family(family, link)
    n_topics, n_systems = values.shape
    n_obs, n_params = values.size, n_topics + n_systems - 1
    with np.errstate(all="ignore"):
        state = _irls(values, glm_family, tol=tol, max_iter=max_iter)
        y, mu = values.ravel(), state.mu
        scale = float(np.sum((y - mu) ** 2 / glm_family.variance(mu))) / (n_obs - n_params)  # Pearson chi^2 / df
        aic, bic = _information_criteria(family, state.deviance, n_obs, n_params)
        system_cov = _system_covariance(glm_family, mu, values.shape, scale)
    topic_levels = np.full(n_topics, np.nan) if state.topic_levels is None else state.topic_levels
    system_levels = np.full(n_systems, np.nan) if state.system_levels is None else state.system_levels
    as_matrix = {"index": scores.index, "columns": scores.columns}
    return TwoWayFit(
        link=link,
        family=family,
        deviance=float(state.deviance),
        converged=state.converged,
        iterations=state.iterations,
        scale=float(scale),
        aic=float(aic),
        bic=float(bic),
        n_obs=n_obs,
        n_params=n_params,
        intercept=float(topic_levels[0] + system_levels[0]),
        topic_effects=pd.Series(topic_levels - topic_levels[0], index=scores.index, name="topic_effect"),
        system_effects=pd.Series(system_levels - system_levels[0], index=scores.columns, name="system_effect"),
        system_se=pd.Series(np.sqrt(np.diag(system_cov)), index=scores.columns, name="system_se"),
        system_cov=system_cov,
        fitted=pd.DataFrame(mu.reshape(n_topics, n_systems), **as_matrix),
        linear_predictor=pd.DataFrame(state.eta.reshape(n_topics, n_systems), **as_matrix),
    )


def system_effects_refit(
    values: np.ndarray, start_eta: np.ndarray, *, link: str, tol: float = 1e-8, max_iter: int = 100
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Fit the Gaussian GLM on ``values`` again, from a warm start: the array core of :func:`fit_two_way`.

    For many refits of closely related matrices (bootstrap resamples of the topics,
    :mod:`irrepro.glm.resampling`): no checks, no frames, and IRLS started from ``start_eta``, e.g.
    the fit on all topics at the resampled topics. It converges to the same fit as
    :func:`fit_two_way` (same iteration, same stopping rule), in fewer iterations. The caller
    ensures what :func:`fit_two_way` checks (finite scores, no topic or system constant at a bound
    of the link).

    Parameters
    ----------
    values : numpy.ndarray
        Scores, topics x systems.
    start_eta : numpy.ndarray
        The linear predictor IRLS starts from, topics x systems.
    link : str
        The link, of :data:`~irrepro.glm.links.LINK_NAMES`.
    tol : float, default 1e-8
        Convergence when the deviance changes by at most ``tol`` (statsmodels' criterion).
    max_iter : int, default 100
        The most IRLS iterations.

    Returns
    -------
    effects : numpy.ndarray
        System effects (first system = 0).
    covariance : numpy.ndarray
        Their covariance.
    converged : bool
        Whether IRLS converged.
    """
    family = make_family("gaussian", link)
    n_topics, n_systems = values.shape
    with np.errstate(all="ignore"):
        state = _irls(values, family, tol=tol, max_iter=max_iter, start_eta=start_eta)
        df_resid = values.size - (n_topics + n_systems - 1)
        scale = float(np.sum((values.ravel() - state.mu) ** 2 / family.variance(state.mu))) / df_resid
        covariance = _system_covariance(family, state.mu, values.shape, scale)
    levels = np.full(n_systems, np.nan) if state.system_levels is None else state.system_levels
    return levels - levels[0], covariance, state.converged


@validate_params(scores=SCORE_MATRIX)
def dense_design(scores: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Build the response vector and dense treatment-coded design (intercept, T-1 topic, S-1 system dummies).

    Rows in the order of ``scores.to_numpy().ravel()`` (topic-major); the reference for statsmodels.

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics as rows (at least 2), systems as columns.

    Returns
    -------
    response : numpy.ndarray
        The scores, topic-major.
    design : numpy.ndarray
        The design matrix, one row per score.
    """
    n_topics, n_systems = scores.shape
    topic = np.repeat(np.arange(n_topics), n_systems)
    system = np.tile(np.arange(n_systems), n_topics)
    design = np.zeros((n_topics * n_systems, n_topics + n_systems - 1))
    design[:, 0] = 1.0
    rows = np.arange(design.shape[0])
    has_topic = topic > 0
    design[rows[has_topic], topic[has_topic]] = 1.0
    has_system = system > 0
    design[rows[has_system], n_topics - 1 + system[has_system]] = 1.0
    return scores.to_numpy(dtype=float).ravel(), design
