"""Rules for the systems and topics a GLM with a log-type link cannot handle.

Near-zero systems. Faggioli, Ferro & Fuhr note that when a system's expected score is close to zero,
log-based links (log, logit, ...) give its coefficient a very large variance, and they drop "eight
outlier runs, performing extremely low in terms of MAP" from TREC 2018 Core, naming neither the runs
nor a threshold. The rule here is ours: a system is an outlier when its mean score on the reference
measure (AP, i.e. its MAP) is below ``threshold`` = 0.01. We chose 0.01 because on NIST's official
Core18 results it selects exactly the eight runs that stand apart from the rest, ``feup-run1..8``
(MAP at most 0.0070; the next run has 0.0471), which we take to be the paper's eight (checked in
``tests/glm/test_outliers.py`` when that summary file is available). The same systems are then removed
for every measure of the collection.

Boundary-constant topics and systems. A topic (or system) whose scores are all 0 (or all 1) has an
infinite effect under a link that cannot reach that value (log: 0; logit, probit, cauchit: 0 and 1),
and no finite estimate exists. :func:`boundary_constant` finds them so that they can be dropped
*for all links*, which keeps the deviances of different links comparable.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["NEAR_ZERO_MAP", "near_zero_systems", "boundary_constant"]

#: this package's cut-off (the paper states none): runs with MAP below 0.01 are outliers
NEAR_ZERO_MAP = 0.01


def near_zero_systems(mean_scores: pd.Series, *, threshold: float = NEAR_ZERO_MAP) -> list[str]:
    """Find the systems whose mean score is below ``threshold``, in the order of ``mean_scores``.

    Parameters
    ----------
    mean_scores : pandas.Series
        Mean score per system, indexed by system.
    threshold : float, default NEAR_ZERO_MAP
        The bound, > 0.

    Returns
    -------
    list of str
        The systems below it.

    Raises
    ------
    ValueError
        If a mean score is missing or ``threshold`` is not positive.

    Examples
    --------
    >>> near_zero_systems(pd.Series({"a": 0.25, "b": 0.007, "c": 0.012}))
    ['b']
    """
    if mean_scores.isna().any():
        raise ValueError(f"mean score missing for system {mean_scores.index[mean_scores.isna()][0]!r}")
    if threshold <= 0:
        raise ValueError(f"threshold must be positive, got {threshold}")
    return [str(system) for system in mean_scores.index[mean_scores < threshold]]


def boundary_constant(scores: pd.DataFrame, *, bounds: tuple[float, ...] = (0.0, 1.0)) -> tuple[list, list]:
    """Find the topics and systems of a matrix whose scores all equal one of ``bounds``.

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics as rows, systems as columns.
    bounds : tuple of float, default (0.0, 1.0)
        The values a link cannot fit when a whole row or column sits on one of them.

    Returns
    -------
    topics : list
        The topics (rows) constant at a bound.
    systems : list
        The systems (columns) constant at a bound.
    """
    values = scores.to_numpy()
    constant_topics = np.zeros(values.shape[0], dtype=bool)
    constant_systems = np.zeros(values.shape[1], dtype=bool)
    for bound in bounds:
        at_bound = values == bound
        constant_topics |= at_bound.all(axis=1)
        constant_systems |= at_bound.all(axis=0)
    return scores.index[constant_topics].tolist(), scores.columns[constant_systems].tolist()
