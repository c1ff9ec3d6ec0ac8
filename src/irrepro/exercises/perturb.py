"""Small, deliberate changes to a run, for exercises that ask "predict, then check".

Each function takes a run frame as :func:`irrepro.runs.read_run` returns it (``query_id``,
``doc_id``, ``score``, ``rank``; rank 1..n per topic) and returns a new frame in the same form;
the input is never modified.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from irrepro.runs import rank_by_score

__all__ = ["drop_topics", "swap_at_rank", "tie_at_rank"]


def _check_rank(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"rank k must be a positive integer, got {k!r}")


def swap_at_rank(run: pd.DataFrame, k: int) -> pd.DataFrame:
    """Exchange the documents at ranks k and k+1 in every topic that has at least k+1 documents.

    Scores stay with the ranks, so the run is still in trec_eval order (score descending) and
    re-reading it keeps the swap, unless the two scores tie.

    Parameters
    ----------
    run : pandas.DataFrame
        A run frame in trec_eval order.
    k : int
        The rank, from 1.

    Returns
    -------
    pandas.DataFrame
        The perturbed run.
    """
    _check_rank(k)
    swapped = run.copy()
    ranks = swapped["rank"].to_numpy()
    upper = np.flatnonzero(ranks == k)
    lower = np.flatnonzero(ranks == k + 1)
    at_k = pd.Series(upper, index=swapped["query_id"].to_numpy()[upper])
    below = pd.Series(lower, index=swapped["query_id"].to_numpy()[lower])
    both = at_k.index.intersection(below.index)
    i, j = at_k.loc[both].to_numpy(), below.loc[both].to_numpy()
    docs = swapped["doc_id"].to_numpy(copy=True)
    docs[i], docs[j] = docs[j], docs[i]
    swapped["doc_id"] = docs
    return swapped


def drop_topics(run: pd.DataFrame, topics: Iterable[str]) -> pd.DataFrame:
    """Leave the given topics out of a run.

    Parameters
    ----------
    run : pandas.DataFrame
        A run frame.
    topics : iterable of str
        Topics the run has.

    Returns
    -------
    pandas.DataFrame
        The run without them.

    Raises
    ------
    ValueError
        If the run lacks one of the topics.
    """
    topics = [str(topic) for topic in topics]
    present = set(run["query_id"].astype(str))
    unknown = [topic for topic in topics if topic not in present]
    if unknown:
        raise ValueError(f"drop_topics: the run has no topic(s) {unknown}")
    return run.loc[~run["query_id"].astype(str).isin(topics)].reset_index(drop=True)


def tie_at_rank(run: pd.DataFrame, k: int, *, width: int = 2) -> pd.DataFrame:
    """Give the documents at ranks k .. k+width-1 of every topic the score of the one at rank k.

    The run is then re-ranked as trec_eval does (score descending, ties by docno descending),
    so the tied documents end up in docno order, whatever order the system gave them.

    Parameters
    ----------
    run : pandas.DataFrame
        A run frame in trec_eval order.
    k : int
        The first tied rank, from 1.
    width : int, default 2
        How many documents are tied (at least 2).

    Returns
    -------
    pandas.DataFrame
        The perturbed, re-ranked run.

    Raises
    ------
    ValueError
        If ``width`` is below 2.
    """
    _check_rank(k)
    if width < 2:
        raise ValueError(f"width must be at least 2 (a tie needs two documents), got {width}")
    tied = run.copy()
    in_block = (tied["rank"] >= k) & (tied["rank"] < k + width)
    score_at_k = tied.loc[tied["rank"] == k].set_index("query_id")["score"]
    tied.loc[in_block, "score"] = tied.loc[in_block, "query_id"].map(score_at_k).to_numpy()
    return rank_by_score(tied)
