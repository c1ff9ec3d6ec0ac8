"""Student's t distribution's two-sided tail probability, for the t-tests of :mod:`scores`.

For T with nu degrees of freedom (Abramowitz & Stegun 26.7.1 and 26.5.27)::

    P(|T| >= |t|) = I_x(nu / 2, 1 / 2),    x = nu / (nu + t^2),

with I the regularised incomplete beta function, here evaluated by its continued fraction
(Abramowitz & Stegun 26.5.8) with the modified Lentz method (Press et al., *Numerical Recipes*,
3rd ed., section 6.4), and the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction would
converge slowly. 1 - x is passed as t^2 / (nu + t^2), never formed by subtraction.

Why not ``scipy.special.stdtr`` (what ``scipy.stats.ttest_rel`` and ``ttest_ind`` call: their
p-value is ``2 * stdtr(df, -|t|)`` to the last bit): ``irrepro compare`` computes a t-test in every
run, so a lazy import would not spare it, and importing ``scipy.special`` after numpy and pandas
costs about a tenth of the whole process (``scipy.stats`` six times that), which is time the
command's goal against repro_eval (at least 5x faster as whole processes) does not have:
``benchmarks/bench_reproducibility.py --processes-only`` prints the speed-up, the import time and
the speed-up stdtr would leave. The values agree with scipy's to 1e-11 (relative) for nu up to 500
and 1e-9 up to 20,000, where ``math.lgamma``'s rounding in the prefactor dominates; on the t-tests
of topic sets (nu < 500) to 1e-12; near p = 1 they are closer to the closed forms for nu = 1, 2 than
scipy's (``tests/reproducibility/test_student_t.py``). p-values are printed with four digits.

>>> round(two_sided_p(2.0, 10), 6)   # scipy.stats.t.sf(2, 10) * 2
0.073388
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["two_sided_p", "two_sided_p_array"]

_TINY = 1e-300  # keeps Lentz's denominators away from zero
_EPSILON = 1e-16
_MAX_TERMS = 100_000


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (A&S 26.5.8), by the modified Lentz method."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    value = d
    for m in range(1, _MAX_TERMS):
        even = m * (b - m) * x / ((a + 2 * m - 1.0) * (a + 2 * m))
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1.0))
        for term in (even, odd):
            d = 1.0 + term * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + term / c
            c = c if abs(c) > _TINY else _TINY
            value *= d * c
        if abs(d * c - 1.0) < _EPSILON:
            return value
    raise ArithmeticError(f"incomplete beta: no convergence for a={a}, b={b}, x={x}")


def _regularised_beta(a: float, b: float, x: float, y: float) -> float:
    """I_x(a, b) for x in [0, 1] with y = 1 - x given separately."""
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = a * math.log(x) + b * math.log(y) - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, y) / b


def two_sided_p(t: float, df: float) -> float:
    """Compute ``P(|T| >= |t|)`` for Student's t with ``df`` degrees of freedom.

    Parameters
    ----------
    t : float
        The t statistic.
    df : float
        The degrees of freedom, > 0.

    Returns
    -------
    float
        The two-sided p-value; NaN for a NaN argument.
    """
    if math.isnan(t) or math.isnan(df):
        return math.nan
    if math.isinf(t):
        return 0.0
    square = t * t
    return _regularised_beta(df / 2.0, 0.5, df / (df + square), square / (df + square))


two_sided_p_array = np.vectorize(two_sided_p, otypes=[float])
two_sided_p_array.__doc__ = """:func:`two_sided_p` element-wise over broadcast arrays of t and df."""
