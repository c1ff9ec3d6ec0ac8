"""Link functions g for GLMs of per-topic scores, as statsmodels ``Link`` objects.

Faggioli, Ferro & Fuhr ("IR Systems Evaluation via Generalized Linear Models") compare seven links
g in g(E[y]) = eta. A link is named after g, the map from the mean mu to the linear predictor eta:

=========  ==========================  ======================  =======================================
name       g(mu)                       mu = g^-1(eta)           where the link is undefined
=========  ==========================  ======================  =======================================
identity   mu                          eta                      nowhere
log        log(mu)                     exp(eta)                 mu <= 0 (an all-zero topic or system)
exp        exp(mu)                     log(eta)                 eta <= 0 (no mean exists there)
tanh       tanh(mu)                    artanh(eta)              abs(eta) >= 1 (no mean exists there)
logit      log(mu / (1 - mu))          1 / (1 + exp(-eta))      mu <= 0 or mu >= 1
probit     Phi^-1(mu)                  Phi(eta)                 mu <= 0 or mu >= 1
cauchit    tan(pi (mu - 1/2))          1/2 + arctan(eta) / pi   mu <= 0 or mu >= 1
=========  ==========================  ======================  =======================================

identity, log and logit are statsmodels' own classes; :class:`Probit` and :class:`Cauchit` are
statsmodels' ``Probit`` and ``Cauchy``, computing the same numbers with less overhead.
:class:`Exp` and :class:`Tanh` are defined here. ``exp`` is g(mu) = e^mu, *not* the log link (whose
inverse is the exponential): it stretches high scores and compresses low ones. For ``tanh`` we take
g(mu) = tanh(mu), the function itself, for the same reason the other links are named by g; with scores
in [0, 1] this g is defined at both ends (tanh(0) = 0, tanh(1) = 0.76) and is a mildly concave version
of the identity. Its inverse artanh(eta) only exists for abs(eta) < 1.

Boundaries (scores are in [0, 1] with exact zeros and ones):

- ``log``, ``logit``, ``probit``, ``cauchit`` cannot fit a mean of exactly 0 (and the last three not
  of exactly 1): a topic or system whose scores are *all* 0 (or all 1) has an infinite effect, no
  finite estimate exists. :func:`open_bounds` tells which boundary values a link cannot reach; the
  fitter refuses such input with a ``ValueError`` (see :func:`irrepro.glm.outliers.boundary_constant`).
  Single zeros and ones are harmless under the Gaussian family (the deviance is the RSS).
- ``exp`` and ``tanh`` are undefined outside eta > 0 and abs(eta) < 1. An IRLS step may leave that
  range; as statsmodels does for logit probabilities, :meth:`Exp.inverse` and :meth:`Tanh.inverse`
  clip eta into the domain (to ``FLOAT_EPS`` and ``1 - FLOAT_EPS``). A fit that ends at the clip
  does not converge, which the fitter reports in ``converged``.
"""

from __future__ import annotations

import numpy as np
from statsmodels.genmod.families import links as sm_links
from statsmodels.genmod.families.links import FLOAT_EPS, Link

__all__ = ["Exp", "Tanh", "Probit", "Cauchit", "LINK_NAMES", "make_link", "open_bounds"]


class Exp(Link):
    """Exponential link g(mu) = exp(mu); inverse mu = log(eta), defined for eta > 0.

    g'(mu) = g''(mu) = exp(mu); (g^-1)'(eta) = 1 / eta; (g^-1)''(eta) = -1 / eta^2.
    ``inverse`` clips eta to at least ``FLOAT_EPS`` so that a wild IRLS step gives a finite mean.
    """

    def __call__(self, p):
        return np.exp(p)

    def inverse(self, z):
        return np.log(np.maximum(z, FLOAT_EPS))

    def deriv(self, p):
        return np.exp(p)

    def deriv2(self, p):
        return np.exp(p)

    def inverse_deriv(self, z):
        return 1.0 / np.maximum(z, FLOAT_EPS)

    def inverse_deriv2(self, z):
        return -1.0 / np.maximum(z, FLOAT_EPS) ** 2


class Tanh(Link):
    """Hyperbolic-tangent link g(mu) = tanh(mu); inverse mu = artanh(eta), defined for abs(eta) < 1.

    g'(mu) = 1 - tanh(mu)^2; g''(mu) = -2 tanh(mu) (1 - tanh(mu)^2);
    (g^-1)'(eta) = 1 / (1 - eta^2); (g^-1)''(eta) = 2 eta / (1 - eta^2)^2.
    ``inverse`` clips eta into [-1 + FLOAT_EPS, 1 - FLOAT_EPS].
    """

    def _clip(self, z):
        return np.clip(z, -1.0 + FLOAT_EPS, 1.0 - FLOAT_EPS)

    def __call__(self, p):
        return np.tanh(p)

    def inverse(self, z):
        return np.arctanh(self._clip(z))

    def deriv(self, p):
        return 1.0 - np.tanh(p) ** 2

    def deriv2(self, p):
        t = np.tanh(p)
        return -2.0 * t * (1.0 - t**2)

    def inverse_deriv(self, z):
        z = self._clip(z)
        return 1.0 / (1.0 - z**2)

    def inverse_deriv2(self, z):
        z = self._clip(z)
        return 2.0 * z / (1.0 - z**2) ** 2


class _DistributionFunctions:
    """statsmodels' CDF link (g = F^-1 of a scipy.stats distribution), computed by the distribution's own
    ``_ppf``, ``_pdf`` and ``_cdf``: the numbers statsmodels' link gives, bit for bit, without the
    argument checks of ``ppf``, ``pdf`` and ``cdf`` around them, which took most of an IRLS iteration
    (a standard distribution, no shape parameters; ``_clean`` keeps p inside (0, 1); a mean at a
    bound of the support comes out as from ``cdf``: ``tests/glm/test_links.py`` compares them)."""

    def __call__(self, p):
        return self.dbn._ppf(self._clean(p))

    def inverse(self, z):
        return self.dbn._cdf(np.asarray(z, dtype=float))

    def deriv(self, p):
        return 1.0 / self.dbn._pdf(self.dbn._ppf(self._clean(p)))


class Probit(_DistributionFunctions, sm_links.Probit):
    """The probit link g(mu) = Phi^-1(mu): statsmodels' ``Probit``, its values computed without scipy's checks.

    Parameters
    ----------
    dbn : scipy.stats distribution, default scipy.stats.norm
        The distribution whose quantile function is g (statsmodels' ``CDFLink``); the fitter takes the default.
    """


class Cauchit(_DistributionFunctions, sm_links.Cauchy):
    """The cauchit link g(mu) = tan(pi (mu - 1/2)): statsmodels' ``Cauchy``, its values computed without scipy's checks."""


_FACTORIES = {
    "identity": sm_links.Identity,
    "log": sm_links.Log,
    "exp": Exp,
    "tanh": Tanh,
    "logit": sm_links.Logit,
    "probit": Probit,
    "cauchit": Cauchit,
}
#: the seven links of the paper, in the order of its Table 1
LINK_NAMES: tuple[str, ...] = tuple(_FACTORIES)

_OPEN_BOUNDS = {"log": (0.0,), "logit": (0.0, 1.0), "probit": (0.0, 1.0), "cauchit": (0.0, 1.0)}


def make_link(name: str) -> Link:
    """Make a fresh statsmodels ``Link`` for one of :data:`LINK_NAMES`.

    Parameters
    ----------
    name : str
        The link's name.

    Returns
    -------
    statsmodels.genmod.families.links.Link
        The link.

    Raises
    ------
    ValueError
        For a name not in :data:`LINK_NAMES`.
    """
    try:
        return _FACTORIES[name]()
    except KeyError:
        raise ValueError(f"unknown link {name!r}; choose one of {', '.join(LINK_NAMES)}") from None


def open_bounds(name: str) -> tuple[float, ...]:
    """Give the score values a link's mean can approach but never reach (0 for log; 0 and 1 for logit, ...).

    Parameters
    ----------
    name : str
        The link's name, of :data:`LINK_NAMES`.

    Returns
    -------
    tuple of float
        The bounds; empty for a link without one.
    """
    make_link(name)  # validates the name
    return _OPEN_BOUNDS.get(name, ())
