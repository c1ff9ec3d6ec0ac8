"""Ranking-based replicability measures: Kendall's tau Union (KTU), RBO and label-free variants.

Breuer et al., SIGIR 2020, Section 3.1 compare the *document orderings* of an original run r
and a replicated run r' (same collection, i.e. the paper's replicability setting), topic by
topic, on the top-k documents of each run.

Kendall's tau Union (KTU), as the authors' code computes it (repro_eval ``_KTU``)
    take the top-k of each run; order the union of their documents by **docno**; map each run
    to the positions of its documents in that ordered union; Kendall's tau-b between the two
    position sequences. Paper examples: ``[d1,d2,d3]`` vs ``[d1,d2,d4]`` -> 1;
    ``[d1,d2,d3,d4]`` vs ``[d2,d5,d3,d6]`` -> 2/3. Positions in the docno-ordered union are a
    monotone function of the docno, so KTU equals Kendall's tau between the two sequences of
    docnos themselves, compared as strings: this is how it is computed here (no union is built).
    **KTU depends on the labels**: two disjoint rankings can score +1, and renaming one document
    can flip the sign. The reference implementation crashes on lists of different lengths and on
    topics missing from either run; here ``unequal_lengths`` and ``missing_topics`` say what happens.

Kendall's tau-b on the union with unretrieved documents tied below the cut-off (label-free)
    every document of the union gets its rank in each run, or rank k+1 (one tie) where that run
    did not retrieve it in its top k; Kendall's tau-b (Kendall 1945) between the two rank vectors.
    Identical rankings give 1, disjoint rankings give a negative value, and renaming documents
    changes nothing.

Kendall's tau on the intersection
    Kendall's tau between the ranks of the documents both runs retrieved in their top k
    (undefined, NaN, with fewer than two common documents; Sanderson & Soboroff 2007 recommend
    reading it together with the size of the overlap).

Rank-Biased Overlap (Webber, Moffat & Zobel 2010, TOIS 28(4)); with ``X_d`` the number of
documents shared by the top d of both lists and ``A_d = X_d / d``:

- ``"ext"``  (Eq. 32, extrapolated; for lists of lengths s <= l evaluated to depth k)
  ``(1-p)/p * (sum_{d<=l} X_d/d p^d + sum_{s<d<=l} X_s (d-s)/(s d) p^d) + ((X_l - X_s)/l + X_s/s) p^l``;
  for equal lengths ``X_k/k p^k + (1-p)/p sum_{d<=k} X_d/d p^d``. It is 1 for identical lists.
- ``"min"``  (Eq. 11, the lower bound, no overlap assumed below depth k)
  ``(1-p)/p * (sum_{d<=k} (X_d - X_k) p^d / d - X_k ln(1-p))``.
- ``"trunc"`` the normalised truncated sum repro_eval uses (after Clarke et al.):
  ``sum_{d<=k} p^(d-1) A_d / sum_{d<=k} p^(d-1)``.
- ``"sigir2020"`` the convention that reproduces the published per-topic values
  (``sigir2020/measures/*_rbo_K_p08.csv``): ``"ext"`` evaluated on the top **k-1** documents.
  Evidence (``tests/reproducibility/test_ranking.py``): every value in the K = 5 and K = 10 files is
  attainable by RBO_ext on lists of length K-1, while most of them are attainable neither by
  RBO_ext on lists of length K (25 of 35 distinct values at K = 5, 1613 of 1653 at K = 10) nor by
  the ``min`` or ``trunc`` forms at depth K-1, K or K+1. The ranked lists of those runs are not
  public, so this is a proof by numerical signature, not by recomputation.

Ranked lists come from run frames as :func:`irrepro.runs.read_run` returns them (columns
``query_id``, ``doc_id``, ``score``). Every measure orders a frame with a ``score`` column as
trec_eval does (score descending, ties by docno descending: :func:`irrepro.runs.rank_by_score`,
also the order repro_eval's ``break_ties`` gives a score-sorted file), whatever its ``rank``
column says, so that KTU and RBO see the ranking AP and RMSE see; a NaN score is refused. Only
a frame without scores is ordered by its ``rank`` column (1..n per topic). All measures are
vectorised over (run, topic) pairs with integer-coded document ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.run_dicts import block_starts
from irrepro.runs import in_trec_eval_order, rank_by_score
from irrepro.string_order import string_order
from irrepro.validation import (
    MAX_CUTOFF,
    Choice,
    Integer,
    InvalidParameterError,
    MappingOf,
    NameList,
    OneOrMany,
    RankedRun,
    Real,
    validate_params,
)

__all__ = [
    "RankedLists",
    "RBO_VARIANTS",
    "rank_lists",
    "kendall_tau_union",
    "kendall_tau_union_tied",
    "kendall_tau_intersection",
    "rbo",
    "ranking_measures",
    "RANKING_MEASURES",
]

RBO_VARIANTS = ("ext", "min", "trunc", "sigir2020")
_UNEQUAL = ("truncate", "raise")
_MISSING = ("nan", "raise")
# What the arguments may be (checked by validate_params before a function body runs).
_DEPTH = Integer(1, MAX_CUTOFF)
_PAIR = {"original": RankedRun(), "replicated": OneOrMany(RankedRun()), "depth": _DEPTH, "missing_topics": Choice(_MISSING)}
_P = Real(0.0, 1.0, closed="neither")


# --------------------------------------------------------------------------- ranked lists


@dataclass(frozen=True)
class RankedLists:
    """The top-``depth`` documents of several runs on a common topic index, integer coded.

    Codes are ranks in docno string order, so comparing codes compares docnos.

    Parameters
    ----------
    runs : tuple of str
        The runs' names, in the order of the first axis of ``codes``.
    topics : pandas.Index
        The topics, in the order of the second axis.
    codes : numpy.ndarray
        ``codes[run, topic, i]`` is the code of the document at rank i+1 (-1 past the list's end).
    lengths : numpy.ndarray
        ``lengths[run, topic]`` is the list length (0: the run has no line for that topic).
    depth : int
        The width of ``codes``: the requested depth, or the longest list if shorter.
    """

    runs: tuple[str, ...]
    topics: pd.Index
    codes: np.ndarray
    lengths: np.ndarray
    depth: int

    def index(self, run: str) -> int:
        """Give the position of the run named ``run`` in :attr:`runs`.

        Parameters
        ----------
        run : str
            A run's name.

        Returns
        -------
        int
            Its index on the first axis of :attr:`codes`.

        Raises
        ------
        ValueError
            If there is no run of that name.
        """
        try:
            return self.runs.index(run)
        except ValueError:
            raise ValueError(f"no run named {run!r}; runs are {list(self.runs)}") from None


def _sequence_frame(lists: Sequence[str]) -> pd.DataFrame:
    docs = list(lists)
    return pd.DataFrame({"query_id": "1", "doc_id": docs, "rank": np.arange(1, len(docs) + 1)})


def _topic_strings(query_ids: pd.Series) -> np.ndarray:
    if not pd.api.types.is_string_dtype(query_ids.dtype):
        query_ids = query_ids.astype(str)
    return query_ids.to_numpy(dtype=object)


def _factorize_blocks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(values, sort=True)``, computed on the first value of each block of equal
    neighbours (a run frame holds each topic in one block: 50 hashes instead of 50,000)."""
    starts = block_starts(values)
    head_codes, uniques = pd.factorize(values[starts], sort=True)
    return np.repeat(head_codes, np.diff(np.r_[starts, len(values)])), uniques


@validate_params(runs=MappingOf(RankedRun()), depth=_DEPTH)
def rank_lists(runs: Mapping[str, pd.DataFrame | Sequence[str]], *, depth: int) -> RankedLists:
    """Cut each run to its top ``depth`` documents per topic and code the documents as integers.

    Topics are the union over all runs, sorted.

    Parameters
    ----------
    runs : mapping of str -> pandas.DataFrame or sequence of str
        Run name -> run: a frame with ``query_id``, ``doc_id`` and ``score``, ranked in trec_eval's
        order (:func:`irrepro.runs.rank_by_score`; a ``rank`` column is ignored), or without scores,
        ordered by ``rank`` (1..n per topic); a plain sequence of docnos stands for a one-topic
        ranking (topic ``"1"``).
    depth : int
        The cut-off k of the top-k lists.

    Returns
    -------
    RankedLists
        The coded lists.

    Raises
    ------
    ValueError
        If a run lacks a column, or its ranks do not run 1..n per topic.
    """
    cut: dict[str, pd.DataFrame] = {}
    for name, frame in runs.items():
        if not isinstance(frame, pd.DataFrame):
            frame = _sequence_frame(frame)
        elif "score" in frame.columns and not in_trec_eval_order(frame):  # one ordering for every measure: trec_eval's
            frame = rank_by_score(frame[["query_id", "doc_id", "score"]])
        missing = {"query_id", "doc_id", "rank"} - set(frame.columns)
        if missing:
            raise ValueError(f"run {name!r} lacks column(s) {sorted(missing)}")
        top = frame.loc[frame["rank"].to_numpy() <= depth, ["query_id", "doc_id", "rank"]]
        cut[name] = top
    all_docs = np.concatenate([f["doc_id"].to_numpy(dtype=object) for f in cut.values()])
    all_topics = np.concatenate([_topic_strings(f["query_id"]) for f in cut.values()])
    doc_codes, doc_uniques = pd.factorize(all_docs, sort=False)
    order_of_unique = string_order(np.asarray(doc_uniques, dtype=object))
    rank_of_unique = np.empty(len(order_of_unique), dtype=np.int64)
    rank_of_unique[order_of_unique] = np.arange(len(order_of_unique))
    doc_codes = rank_of_unique[doc_codes]
    topic_codes, topic_uniques = _factorize_blocks(all_topics)
    topics = pd.Index(np.asarray(topic_uniques, dtype=object), name="query_id")
    longest = max((int(f["rank"].max()) for f in cut.values() if len(f)), default=1)
    width = max(1, min(depth, longest))  # no padding beyond the longest list
    codes = np.full((len(cut), len(topics), width), -1, dtype=np.int64)
    lengths = np.zeros((len(cut), len(topics)), dtype=np.int64)
    start = 0
    for r, (name, frame) in enumerate(cut.items()):
        n = len(frame)
        t = topic_codes[start : start + n]
        rank = frame["rank"].to_numpy(dtype=np.int64)
        c = doc_codes[start : start + n]
        start += n
        if (rank < 1).any():
            raise ValueError(f"run {name!r}: ranks must start at 1 (found {rank.min()})")
        flat = t * width + (rank - 1)
        counts = np.bincount(t, minlength=len(topics))
        if (n and np.bincount(flat).max() > 1) or (np.bincount(t, weights=rank, minlength=len(topics)) != counts * (counts + 1) / 2).any():
            raise ValueError(
                f"run {name!r}: the rank column must number each topic's documents 1..n without gaps "
                "or repeats (as irrepro.runs.read_run / rank_by_score set it)"
            )
        codes[r].reshape(-1)[flat] = c
        lengths[r] = counts
    return RankedLists(tuple(cut), topics, codes, lengths, width)


# --------------------------------------------------------------------------- core kernels


def _count_inversions(values: np.ndarray, *, chunk: int = 64) -> np.ndarray:
    """Inversions (pairs i < j with v_i > v_j) of each row of distinct non-negative integers.

    Bottom-up merge sort, vectorised over rows: at each of the log2(n) levels the sorted left
    halves of all blocks are laid end to end (offset per block, so they form one sorted array),
    one ``searchsorted`` counts for every right-half element the left-half elements above it,
    and a stable sort (linear on two sorted runs) merges the halves. Rows go in chunks for cache.
    """
    rows, n = values.shape
    if rows == 0 or n < 2:
        return np.zeros(rows, dtype=np.int64)
    if rows > chunk:
        return np.concatenate([_count_inversions(values[i : i + chunk], chunk=chunk) for i in range(0, rows, chunk)])
    width = int(values.max()) + 1
    m = 1 << int(np.ceil(np.log2(n)))
    current = np.empty((rows, m), dtype=np.int64)
    current[:, :n] = values
    current[:, n:] = width + np.arange(m - n)  # padding: larger than all, increasing: no inversions
    span = width + m
    total = np.zeros(rows, dtype=np.int64)
    half = 1
    while half < m:
        n_blocks = m // (2 * half)
        blocks = current.reshape(rows, n_blocks, 2 * half)
        offset = (np.arange(rows * n_blocks, dtype=np.int64) * span).reshape(rows, n_blocks, 1)
        left = (blocks[:, :, :half] + offset).reshape(-1)
        right = (blocks[:, :, half:] + offset).reshape(-1)
        not_above = np.searchsorted(left, right, side="right") - np.repeat(np.arange(rows * n_blocks, dtype=np.int64) * half, half)
        total += (half - not_above).reshape(rows, -1).sum(axis=1)
        current = np.sort(blocks, axis=2, kind="stable").reshape(rows, m)
        half *= 2
    return total


def _tau_from_inversions(inversions: np.ndarray, n: np.ndarray) -> np.ndarray:
    pairs = n * (n - 1) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = 1.0 - 2.0 * inversions / pairs
    return np.where(n >= 2, tau, np.nan)


def _ktu_pairs(x: np.ndarray, y: np.ndarray, n: np.ndarray) -> np.ndarray:
    """KTU of rows x, y (codes), each using its first n[row] entries."""
    rows, k = x.shape
    if k == 0:
        return np.full(rows, np.nan)
    pad = np.arange(k)[None, :] >= n[:, None]
    top = max(int(x.max(initial=0)), int(y.max(initial=0))) + 1
    filler = top + np.arange(k)[None, :]
    x = np.where(pad, filler, x)
    y = np.where(pad, filler, y)
    order = np.argsort(x, axis=1, kind="stable")
    permuted = np.take_along_axis(y, order, axis=1)
    return _tau_from_inversions(_count_inversions(permuted), n)


def _match_positions(x: np.ndarray, nx: np.ndarray, y: np.ndarray, ny: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each valid entry of x its 0-based position in the same row of y (or -1), and vice versa.

    One row-wise sort of the two lists side by side: a document in both appears twice in a row,
    x's copy first (stable sort), next to y's.
    """
    rows, k = x.shape
    columns = np.arange(k)[None, :]
    x_masked = np.where(columns < nx[:, None], x, -1 - columns)  # invalid entries: distinct negatives
    y_masked = np.where(columns < ny[:, None], y, -1 - k - columns)
    both = np.concatenate([x_masked, y_masked], axis=1)
    order = np.argsort(both, axis=1, kind="stable")
    ordered = np.take_along_axis(both, order, axis=1)
    row, i = np.nonzero((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0))
    in_x, in_y = order[row, i], order[row, i + 1] - k
    pos_x_in_y = np.full((rows, k), -1, dtype=np.int64)
    pos_y_in_x = np.full((rows, k), -1, dtype=np.int64)
    pos_x_in_y[row, in_x] = in_y
    pos_y_in_x[row, in_y] = in_x
    return pos_x_in_y, pos_y_in_x


def _intersection_inversions(pos_x_in_y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inversions among the common documents (x order, y positions) and their count."""
    rows, k = pos_x_in_y.shape
    common = pos_x_in_y >= 0
    order = np.argsort(~common, axis=1, kind="stable")  # common documents first, in x order
    # other documents get values above every position, increasing: they add no inversions
    seq = np.take_along_axis(np.where(common, pos_x_in_y, k + np.arange(k)[None, :]), order, axis=1)
    return _count_inversions(seq), common.sum(axis=1)


def _tau_union_tied(pos_x_in_y, nx, pos_y_in_x, ny, intersection=None) -> np.ndarray:
    inv_common, c = _intersection_inversions(pos_x_in_y) if intersection is None else intersection
    k = pos_x_in_y.shape[1]
    in_x = np.arange(k)[None, :] < nx[:, None]
    in_y = np.arange(pos_y_in_x.shape[1])[None, :] < ny[:, None]
    common_x = pos_x_in_y >= 0
    common_y = pos_y_in_x >= 0
    # For a document only in x: common documents above it in x minus those below it.
    above_x = np.cumsum(common_x, axis=1) - common_x
    cross_x = np.where(in_x & ~common_x, 2 * above_x - c[:, None], 0).sum(axis=1)
    above_y = np.cumsum(common_y, axis=1) - common_y
    cross_y = np.where(in_y & ~common_y, 2 * above_y - c[:, None], 0).sum(axis=1)
    only_x, only_y = nx - c, ny - c
    s = c * (c - 1) / 2.0 - 2.0 * inv_common + cross_x + cross_y - only_x * only_y
    u = c + only_x + only_y
    n0 = u * (u - 1) / 2.0
    ties_x = only_y * (only_y - 1) / 2.0  # documents x did not retrieve share x's bottom rank
    ties_y = only_x * (only_x - 1) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = s / np.sqrt((n0 - ties_x) * (n0 - ties_y))
    return np.where((n0 - ties_x > 0) & (n0 - ties_y > 0), tau, np.nan)


def _overlaps(pos_x_in_y: np.ndarray, depth: int) -> np.ndarray:
    """X_d for d = 1..depth: documents shared by the top d of both lists (rows x depth)."""
    rows, k = pos_x_in_y.shape
    entry = np.maximum(np.arange(k)[None, :], pos_x_in_y)  # depth index at which a match enters
    matched = (pos_x_in_y >= 0) & (entry < depth)
    flat = (np.arange(rows)[:, None] * depth + entry)[matched]
    counts = np.bincount(flat, minlength=rows * depth).reshape(rows, depth)
    return np.cumsum(counts, axis=1)


def _rbo_from_overlaps(x_d: np.ndarray, s: np.ndarray, l: np.ndarray,  # noqa: E741 (Webber et al.'s s and l)
                       *, p: float, depth: int, variant: str) -> np.ndarray:
    rows = x_d.shape[0]
    d = np.arange(1, depth + 1, dtype=float)[None, :]
    weight = p**d
    row = np.arange(rows)
    if variant == "trunc":
        geometric = p ** (d - 1)
        return (x_d / d * geometric).sum(axis=1) / geometric.sum()
    if variant == "min":
        k = np.maximum(l, 1)
        x_k = x_d[row, k - 1]
        within = d <= k[:, None]
        total = np.where(within, (x_d - x_k[:, None]) * weight / d, 0.0).sum(axis=1)
        value = (1 - p) / p * (total - x_k * np.log(1 - p))
        return np.where(l > 0, value, np.nan)
    # "ext" (Webber et al. 2010, Eq. 32; Eq. 30 when s == l)
    s_safe, l_safe = np.maximum(s, 1), np.maximum(l, 1)
    x_s, x_l = x_d[row, s_safe - 1].astype(float), x_d[row, l_safe - 1].astype(float)
    first = np.where(d <= l[:, None], x_d / d * weight, 0.0).sum(axis=1)
    tail = (d > s[:, None]) & (d <= l[:, None])
    with np.errstate(invalid="ignore", divide="ignore"):
        second = np.where(tail, x_s[:, None] * (d - s[:, None]) / (s_safe[:, None] * d) * weight, 0.0).sum(axis=1)
        last = ((x_l - x_s) / l_safe + x_s / s_safe) * p**l_safe
    value = (1 - p) / p * (first + second) + last
    return np.where(s > 0, value, np.nan)


# --------------------------------------------------------------------------- public measures


def _as_runs(replicated) -> tuple[dict, bool]:
    if isinstance(replicated, Mapping):
        return dict(replicated), False
    return {"replicated": replicated}, True


def _pairs(original, replicated, depth: int, missing_topics: str):
    if missing_topics not in _MISSING:
        raise ValueError(f"missing_topics must be one of {_MISSING}, got {missing_topics!r}")
    runs, single = _as_runs(replicated)
    if "\x00original" in runs:
        raise ValueError("reserved run name")
    lists = rank_lists({"\x00original": original, **runs}, depth=depth)
    n_runs = len(lists.runs) - 1
    width = lists.depth
    x = np.broadcast_to(lists.codes[0], (n_runs,) + lists.codes.shape[1:]).reshape(-1, width)
    y = lists.codes[1:].reshape(-1, width)
    nx = np.broadcast_to(lists.lengths[0], (n_runs, len(lists.topics))).reshape(-1)
    ny = lists.lengths[1:].reshape(-1)
    missing = (nx == 0) | (ny == 0)
    if missing_topics == "raise" and missing.any():
        where = [(lists.runs[1 + i // len(lists.topics)], lists.topics[i % len(lists.topics)]) for i in np.flatnonzero(missing)[:5]]
        raise ValueError(f"topics missing in the original or a replicated run (run, topic): {where}")
    return lists, x, y, nx, ny, missing, single


def _shape(values: np.ndarray, lists: RankedLists, single: bool, name: str):
    frame = pd.DataFrame(values.reshape(len(lists.runs) - 1, len(lists.topics)).T, index=lists.topics, columns=list(lists.runs[1:]))
    if single:
        return frame.iloc[:, 0].rename(name)
    frame.columns.name = name
    return frame


@validate_params(**_PAIR, unequal_lengths=Choice(_UNEQUAL))
def kendall_tau_union(
    original: pd.DataFrame | Sequence[str],
    replicated: pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[str],
    *,
    depth: int = 1000,
    unequal_lengths: str = "truncate",
    missing_topics: str = "nan",
) -> pd.Series | pd.DataFrame:
    """Compute Kendall's tau Union per topic, exactly as the SIGIR 2020 authors' code does.

    KTU (the paper's Section 3.1) is Kendall's tau (its Eq. 1) between the rank positions of the
    two top-``depth`` lists of a topic in the union of their documents; as in the authors' code
    (repro_eval ``_KTU``) the union is ordered by docno (see the module docstring). Topics are
    the union of both sides.

    Parameters
    ----------
    original : pandas.DataFrame or sequence of str
        The original run frame (as :func:`irrepro.runs.read_run` returns it), or the docnos of
        one topic in rank order.
    replicated : pandas.DataFrame, mapping of str to pandas.DataFrame, or sequence of str
        The replicated run frame (or docnos), or a mapping run name -> run frame.
    depth : int, default 1000
        The cut-off k of the top-k lists.
    unequal_lengths : {"truncate", "raise"}
        When the two top-k lists of a topic differ in length (a run retrieved fewer than
        ``depth`` documents): compare the top min(n, n') of both, or raise ``ValueError`` (the
        reference implementation fails there).
    missing_topics : {"nan", "raise"}
        A topic absent from either run is NaN or an error. A topic with fewer than two
        documents is NaN (tau undefined).

    Returns
    -------
    pandas.Series or pandas.DataFrame
        KTU per topic (a Series indexed by topic), or topics x runs for a mapping.

    Examples
    --------
    >>> float(kendall_tau_union(["d1", "d2", "d3"], ["d1", "d2", "d4"]).iloc[0])
    1.0
    >>> round(float(kendall_tau_union(["d1", "d2", "d3", "d4"], ["d2", "d5", "d3", "d6"]).iloc[0]), 6)
    0.666667
    """
    lists, x, y, nx, ny, missing, single = _pairs(original, replicated, depth, missing_topics)
    unequal = (nx != ny) & ~missing
    if unequal_lengths == "raise" and unequal.any():
        i = np.flatnonzero(unequal)[0]
        run, topic = lists.runs[1 + i // len(lists.topics)], lists.topics[i % len(lists.topics)]
        raise ValueError(
            f"KTU: run {run!r}, topic {topic}: top-{depth} lists of different lengths ({nx[i]} vs {ny[i]}); "
            "use unequal_lengths='truncate' to compare the top min(n, n') documents"
        )
    n = np.minimum(nx, ny)
    values = _ktu_pairs(x, y, n)
    values[missing] = np.nan
    return _shape(values, lists, single, "KTU")


@validate_params(**_PAIR)
def kendall_tau_union_tied(
    original: pd.DataFrame | Sequence[str],
    replicated: pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[str],
    *,
    depth: int = 1000,
    missing_topics: str = "nan",
) -> pd.Series | pd.DataFrame:
    """Label-free Kendall's tau-b on the union, unretrieved documents tied below the cut-off.

    Each document of the union of the two top-k lists gets its rank in each run, or one shared
    rank below the cut-off where the run did not retrieve it; Kendall's tau-b of the two rank
    vectors. Unlike KTU, renaming documents changes nothing; disjoint lists score below 0.

    Parameters
    ----------
    original : pandas.DataFrame or sequence of str
        The original run frame (as :func:`irrepro.runs.read_run` returns it), or the docnos of
        one topic in rank order.
    replicated : pandas.DataFrame, mapping of str to pandas.DataFrame, or sequence of str
        The replicated run frame (or docnos), or a mapping run name -> run frame.
    depth : int, default 1000
        The cut-off k of the top-k lists.
    missing_topics : {"nan", "raise"}
        A topic absent from either run is NaN or an error.

    Returns
    -------
    pandas.Series or pandas.DataFrame
        tau-b per topic (a Series indexed by topic), or topics x runs for a mapping.

    Examples
    --------
    >>> float(kendall_tau_union_tied(["d1", "d2", "d3"], ["d1", "d2", "d3"]).iloc[0])
    1.0
    """
    lists, x, y, nx, ny, missing, single = _pairs(original, replicated, depth, missing_topics)
    pos_x_in_y, pos_y_in_x = _match_positions(x, nx, y, ny)
    values = _tau_union_tied(pos_x_in_y, nx, pos_y_in_x, ny)
    values[missing] = np.nan
    return _shape(values, lists, single, "tau_b_union_tied")


@validate_params(**_PAIR)
def kendall_tau_intersection(
    original: pd.DataFrame | Sequence[str],
    replicated: pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[str],
    *,
    depth: int = 1000,
    missing_topics: str = "nan",
) -> pd.Series | pd.DataFrame:
    """Compute Kendall's tau between the ranks of the documents both top-k lists contain.

    Parameters
    ----------
    original : pandas.DataFrame or sequence of str
        The original run frame (as :func:`irrepro.runs.read_run` returns it), or the docnos of
        one topic in rank order.
    replicated : pandas.DataFrame, mapping of str to pandas.DataFrame, or sequence of str
        The replicated run frame (or docnos), or a mapping run name -> run frame.
    depth : int, default 1000
        The cut-off k of the top-k lists.
    missing_topics : {"nan", "raise"}
        A topic absent from either run is NaN or an error.

    Returns
    -------
    pandas.Series or pandas.DataFrame
        tau per topic (NaN with fewer than two common documents), a Series indexed by topic, or
        topics x runs for a mapping.

    Examples
    --------
    >>> float(kendall_tau_intersection(["d1", "d2", "d3", "d4"], ["d2", "d5", "d3", "d6"]).iloc[0])
    1.0
    """
    lists, x, y, nx, ny, missing, single = _pairs(original, replicated, depth, missing_topics)
    inversions, common = _intersection_inversions(_match_positions(x, nx, y, ny)[0])
    values = _tau_from_inversions(inversions, common)
    values[missing] = np.nan
    return _shape(values, lists, single, "tau_intersection")


def _rbo_depth(depth: int, variant: str, *, where: str, name: str = "depth") -> int:
    """The depth RBO is evaluated at: ``depth``, or ``depth - 1`` for the ``sigir2020`` convention."""
    if variant != "sigir2020":
        return depth
    if depth < 2:
        raise InvalidParameterError(
            f"{where}: {name} must be an integer >= 2 with the RBO variant 'sigir2020' (RBO on the top "
            f"depth - 1 documents); got {depth}"
        )
    return depth - 1


@validate_params(**_PAIR, p=_P, variant=Choice(RBO_VARIANTS))
def rbo(
    original: pd.DataFrame | Sequence[str],
    replicated: pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[str],
    *,
    p: float = 0.8,
    depth: int = 1000,
    variant: str = "ext",
    missing_topics: str = "nan",
) -> pd.Series | pd.DataFrame:
    """Compute Rank-Biased Overlap per topic (Webber et al. 2010) of the top-``depth`` lists.

    ``RBO = (1 - p) * sum_d p^(d-1) * A_d`` with ``A_d`` the overlap of the two top-d lists
    divided by d (the SIGIR 2020 paper's Eq. 2, its phi is ``p``); the variants differ in how
    they treat the lists' end. See the module docstring.

    Parameters
    ----------
    original : pandas.DataFrame or sequence of str
        The original run frame (as :func:`irrepro.runs.read_run` returns it), or the docnos of
        one topic in rank order.
    replicated : pandas.DataFrame, mapping of str to pandas.DataFrame, or sequence of str
        The replicated run frame (or docnos), or a mapping run name -> run frame.
    p : float, default 0.8
        The persistence, in (0, 1): the weight of depth d is proportional to ``p^(d-1)``.
    depth : int, default 1000
        The cut-off of the lists.
    variant : {"ext", "min", "trunc", "sigir2020"}
        ``"ext"`` (extrapolated, Webber's Eq. 32), ``"min"`` (lower bound, Eq. 11), ``"trunc"``
        (repro_eval's normalised truncated sum) or ``"sigir2020"`` (``"ext"`` on the top
        depth-1 documents: the convention of the published per-topic files).
    missing_topics : {"nan", "raise"}
        A topic absent from either run is NaN or an error.

    Returns
    -------
    pandas.Series or pandas.DataFrame
        RBO per topic (a Series indexed by topic), or topics x runs for a mapping.

    Examples
    --------
    >>> float(rbo(["d1", "d2", "d3"], ["d1", "d2", "d3"], depth=3).iloc[0])
    1.0
    >>> round(float(rbo(list("abcd"), list("wxyd"), depth=5, variant="sigir2020").iloc[0]), 6)  # 0.8**3 / 4
    0.128
    """
    effective = _rbo_depth(depth, variant, where="rbo")
    lists, x, y, nx, ny, missing, single = _pairs(original, replicated, effective, missing_topics)
    values = _rbo_pairs(x, nx, y, ny, p=p, depth=effective, variant="ext" if variant == "sigir2020" else variant)
    values[missing] = np.nan
    return _shape(values, lists, single, f"RBO_{variant}")


def _rbo_pairs(x, nx, y, ny, *, p, depth, variant, pos_x_in_y=None):
    x, y = x[:, :depth], y[:, :depth]
    nx, ny = np.minimum(nx, depth), np.minimum(ny, depth)
    if pos_x_in_y is None:
        pos = _match_positions(x, nx, y, ny)[0]
    else:  # positions in the full lists, cut to the top depth of both
        pos = pos_x_in_y[:, :depth]
        pos = np.where((pos < depth) & (np.arange(pos.shape[1])[None, :] < nx[:, None]), pos, -1)
    x_d = _overlaps(pos, depth)
    return _rbo_from_overlaps(x_d, np.minimum(nx, ny), np.maximum(nx, ny), p=p, depth=depth, variant=variant)


RANKING_MEASURES = ("KTU", "RBO", "tau_b_union_tied", "tau_intersection")


@validate_params(
    original=RankedRun(),
    replicated=OneOrMany(RankedRun()),
    depth=_DEPTH,
    rbo_p=_P,
    rbo_variant=Choice(RBO_VARIANTS),
    unequal_lengths=Choice(_UNEQUAL),
    measures=NameList("measure", RANKING_MEASURES),
)
def ranking_measures(
    original: pd.DataFrame | Sequence[str],
    replicated: pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[str],
    *,
    depth: int = 1000,
    rbo_p: float = 0.8,
    rbo_variant: str = "ext",
    unequal_lengths: str = "truncate",
    measures: Sequence[str] = RANKING_MEASURES,
) -> dict[str, pd.DataFrame | pd.Series]:
    """KTU, RBO, tau-b on the tied union and tau on the intersection, sharing one coding pass.

    Each result is shaped as the single function (:func:`kendall_tau_union`, :func:`rbo`,
    :func:`kendall_tau_union_tied`, :func:`kendall_tau_intersection`) returns it.

    Parameters
    ----------
    original : pandas.DataFrame or sequence of str
        The original run frame (as :func:`irrepro.runs.read_run` returns it), or the docnos of
        one topic in rank order.
    replicated : pandas.DataFrame, mapping of str to pandas.DataFrame, or sequence of str
        The replicated run frame (or docnos), or a mapping run name -> run frame.
    depth : int, default 1000
        The cut-off k of the top-k lists.
    rbo_p : float, default 0.8
        RBO's persistence, in (0, 1).
    rbo_variant : {"ext", "min", "trunc", "sigir2020"}
        How RBO treats the lists' end, as for :func:`rbo`.
    unequal_lengths : {"truncate", "raise"}
        As for :func:`kendall_tau_union`.
    measures : sequence of str, default RANKING_MEASURES
        The subset of :data:`RANKING_MEASURES` to compute (only those are computed).

    Returns
    -------
    dict of str -> pandas.Series or pandas.DataFrame
        ``{"KTU": ..., "RBO": ..., "tau_b_union_tied": ..., "tau_intersection": ...}``, or the
        subset named in ``measures``. Topics missing on either side are NaN.

    Raises
    ------
    ValueError
        If the KTU lists of a topic differ in length and ``unequal_lengths="raise"``.
    """
    rbo_depth = _rbo_depth(depth, rbo_variant, where="ranking_measures") if "RBO" in measures else depth
    lists, x, y, nx, ny, missing, single = _pairs(original, replicated, depth, "nan")
    if unequal_lengths == "raise" and ((nx != ny) & ~missing).any():
        raise ValueError("KTU: top-k lists of different lengths (unequal_lengths='raise')")
    results = {}
    if "KTU" in measures:
        results["KTU"] = _ktu_pairs(x, y, np.minimum(nx, ny))
    if set(measures) - {"KTU"}:
        pos_x_in_y, pos_y_in_x = _match_positions(x, nx, y, ny)
    if "RBO" in measures:
        results["RBO"] = _rbo_pairs(
            x, nx, y, ny, p=rbo_p, depth=rbo_depth, variant="ext" if rbo_variant == "sigir2020" else rbo_variant,
            pos_x_in_y=pos_x_in_y,
        )
    if {"tau_b_union_tied", "tau_intersection"} & set(measures):
        inversions, common = _intersection_inversions(pos_x_in_y)
        if "tau_b_union_tied" in measures:
            results["tau_b_union_tied"] = _tau_union_tied(pos_x_in_y, nx, pos_y_in_x, ny, (inversions, common))
        if "tau_intersection" in measures:
            results["tau_intersection"] = _tau_from_inversions(inversions, common)
    out = {}
    for name in RANKING_MEASURES:
        if name in results:
            values = results[name]
            values[missing] = np.nan
            out[name] = _shape(values, lists, single, name)
    return out
