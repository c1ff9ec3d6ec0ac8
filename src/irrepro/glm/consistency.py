"""Consistency of significantly different system pairs across random split-halves of the topics.

Following Faggioli, Ferro & Fuhr (after Voorhees' and Sanderson & Zobel's swap experiments): the
topics are shuffled (seeded) and cut into two disjoint halves; the GLM is fitted on each half and the
ssd pairs are found in each (:mod:`irrepro.glm.contrasts`). For every system pair:

- *active agreement*: significant in both halves, same sign (a consistent ssd pair);
- *active disagreement*: significant in both halves, opposite signs (a swap);
- *passive disagreement*: significant in exactly one half;
- *passive agreement*: significant in neither.

``consistent_share`` = active agreements / pairs significant in at least one half.
The same splits are used for every link (they depend on ``seed`` only), so links compare on equal
terms. Systems whose scores are all 0 or all 1 within a half cannot be fitted by log-type links
(:func:`irrepro.glm.outliers.boundary_constant`); they are dropped from both halves of that split for
every link, and ``dropped_systems`` says how many.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from irrepro.glm.contrasts import METHODS, contrast_signs
from irrepro.glm.fit import FAMILIES, fit_two_way
from irrepro.glm.links import LINK_NAMES
from irrepro.glm.outliers import boundary_constant
from irrepro.validation import (
    Choice,
    Frame,
    Integer,
    Items,
    NameList,
    Real,
    validate_params,
)

__all__ = ["split_halves", "split_half_consistency", "COUNT_COLUMNS"]

_SPLITS = {"n_splits": Integer(1, 100_000), "seed": Integer(0)}
COUNT_COLUMNS = ("active_agreements", "active_disagreements", "passive_disagreements", "passive_agreements")


@validate_params(topics=Items("topics", min_length=4), **_SPLITS)
def split_halves(topics: Sequence, *, n_splits: int, seed: int) -> list[tuple[list, list]]:
    """Draw ``n_splits`` seeded random partitions of ``topics`` into two halves.

    Parameters
    ----------
    topics : sequence
        The topics, at least 4.
    n_splits : int
        How many partitions to draw.
    seed : int
        The seed of the shuffles (an integer >= 0).

    Returns
    -------
    list of (list, list)
        The two halves of each partition, of sizes floor(T/2) and ceil(T/2).
    """
    topics = list(topics)
    rng = np.random.default_rng(seed)
    half = len(topics) // 2
    splits = []
    for _ in range(n_splits):
        order = rng.permutation(len(topics))
        splits.append(([topics[i] for i in order[:half]], [topics[i] for i in order[half:]]))
    return splits


@validate_params(
    scores=Frame(min_rows=4, hint="topics as rows, systems as columns"),
    links=NameList("link", LINK_NAMES),
    **_SPLITS,
    family=Choice(FAMILIES),
    method=Choice(METHODS),
    alpha=Real(0.0, 1.0, closed="neither"),
)
def split_half_consistency(
    scores: pd.DataFrame,
    *,
    links: Sequence[str],
    n_splits: int = 10,
    seed: int = 0,
    family: str = "gaussian",
    method: str = "tukey",
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Count, per link and split, how the ssd pairs of the two halves agree.

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics as rows (at least 4), systems as columns.
    links : sequence of str
        The links to fit, of :data:`~irrepro.glm.links.LINK_NAMES`.
    n_splits : int, default 10
        How many split-halves to draw (the same for every link).
    seed : int, default 0
        The seed of the splits.
    family : {"gaussian", "quasibinomial"}
        The GLM's family, as for :func:`~irrepro.glm.fit.fit_two_way`.
    method : {"tukey", "holm"}
        The multiple-comparison rule, as for :func:`~irrepro.glm.contrasts.pairwise_contrasts`.
    alpha : float, default 0.05
        The family-wise significance level, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        One row per link and split: ``link``, ``split``, the four :data:`COUNT_COLUMNS`, ``pairs``,
        ``consistent_share`` (NaN when no pair is significant in either half), ``converged`` (both
        fits) and ``dropped_systems``.
    """
    rows = []
    for split, (first, second) in enumerate(split_halves(scores.index, n_splits=n_splits, seed=seed)):
        halves = [scores.loc[first], scores.loc[second]]
        dropped = sorted({s for half in halves for s in boundary_constant(half)[1]}, key=list(scores.columns).index)
        halves = [half.drop(columns=dropped) for half in halves]
        for link in links:
            fits = [fit_two_way(half, link=link, family=family) for half in halves]
            signs = [
                contrast_signs(
                    fit.system_effects.to_numpy(), fit.system_cov, df_resid=fit.df_resid, method=method, alpha=alpha
                )
                for fit in fits
            ]
            both = (signs[0] != 0) & (signs[1] != 0)
            one = (signs[0] != 0) ^ (signs[1] != 0)
            agreements = int(np.sum(both & (signs[0] == signs[1])))
            disagreements = int(np.sum(both & (signs[0] != signs[1])))
            passive_disagreements = int(one.sum())
            significant_somewhere = agreements + disagreements + passive_disagreements
            rows.append(
                {
                    "link": link,
                    "split": split,
                    "active_agreements": agreements,
                    "active_disagreements": disagreements,
                    "passive_disagreements": passive_disagreements,
                    "passive_agreements": int(np.sum((signs[0] == 0) & (signs[1] == 0))),
                    "pairs": int(signs[0].size),
                    "consistent_share": agreements / significant_somewhere if significant_somewhere else float("nan"),
                    "converged": all(fit.converged for fit in fits),
                    "dropped_systems": len(dropped),
                }
            )
    return pd.DataFrame(rows)
