"""Runs and qrels as the nested dicts trec_eval's code reads, a bounded batch of whole topics at a time.

``pytrec_eval`` takes a run as ``{topic: {docno: score}}`` and qrels as ``{topic: {docno:
grade}}``.  Built for a whole run of 10 million lines, that dict alone holds every line as Python
objects (about 100 bytes a line); trec_eval evaluates each topic on its own, so a run can be
given to it in batches of whole topics and the scores are the same, bit for bit.

- :func:`nested` builds the whole dict (qrels: they are needed whole);
- :func:`nested_batches` builds it from a frame in batches of whole topics of about
  ``batch_rows`` lines (a frame whose topics are not in blocks is sorted by topic first);
- :func:`grouped_batches` builds it from a stream of frames of consecutive run lines
  (:class:`irrepro.runs.RunStream`): a topic is complete when the next one starts, so each batch
  holds the topics completed by one piece (:func:`whole_topics`, which gives those rows as frames
  to other consumers too, e.g. ``irrepro deteriorate``).  It raises :class:`NotInBlocks` when a
  topic comes back after another one;
- :func:`sorted_batches` builds it from a stream whose topics are not in blocks: the lines are
  held as compactly as Python allows (topic codes, docnos, scores: no frame, no ranks), sorted by
  topic code and handed on in batches of whole topics.

Both raise :class:`NeedsWholeRun` when a topic lists a document twice or the stream holds no
line: the caller then reads the run whole, and the reader says what is wrong and on which line.

A document twice in one topic would silently keep one value in a dict, so every batch's size is
checked against its lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import pandas as pd

__all__ = ["BATCH_ROWS", "NeedsWholeRun", "NotInBlocks", "block_starts", "nested", "nested_batches", "grouped_batches",
           "whole_topics", "repeats_within_blocks", "sorted_batches"]

#: Lines per batch: the dicts of 200,000 lines take a few tens of MiB; per-batch costs vanish.
BATCH_ROWS = 200_000


class NeedsWholeRun(Exception):
    """A stream of run lines cannot be evaluated as it is read; read the whole run instead."""


class NotInBlocks(NeedsWholeRun):
    """A topic of a stream comes back after another one: :func:`sorted_batches` can evaluate it."""


def block_starts(values: np.ndarray) -> np.ndarray:
    """Give the start of each block of equal consecutive values (a run's topics, each in one block).

    Parameters
    ----------
    values : numpy.ndarray
        A one-dimensional array.

    Returns
    -------
    numpy.ndarray
        The index of each block's first value; empty for an empty array.

    Examples
    --------
    >>> block_starts(np.array(["301", "301", "302", "301"])).tolist()
    [0, 2, 3]
    """
    return np.flatnonzero(np.r_[True, values[1:] != values[:-1]]) if len(values) else np.zeros(0, dtype=np.intp)


def _dicts(topics: np.ndarray, docs: np.ndarray, values: np.ndarray, starts: np.ndarray, end: int) -> dict[str, dict]:
    """``{topic: {doc: value}}`` of the blocks starting at ``starts`` (the last ending at ``end``)."""
    offset = starts[0]
    doc_list, value_list = docs[offset:end].tolist(), values[offset:end].tolist()
    bounds = np.r_[starts, end] - offset
    return {
        str(topics[a + offset]): dict(zip(doc_list[a:b], value_list[a:b], strict=True))
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)
    }


def nested_batches(
    query_ids: pd.Series, doc_ids: pd.Series, values: pd.Series, *, what: str, batch_rows: int | None = BATCH_ROWS
) -> Iterator[dict[str, dict]]:
    """Give ``{topic: {doc: value}}`` dicts of whole topics, about ``batch_rows`` lines each.

    Topics come in string order when the frame is not in blocks of topics, else in frame order.

    Parameters
    ----------
    query_ids, doc_ids, values : pandas.Series
        Aligned columns of a run (``score``) or of qrels (``relevance``).
    what : str
        Names the input in the error: ``evaluate: {what} document D twice in topic T``.
    batch_rows : int or None, default BATCH_ROWS
        About how many lines a batch holds; ``None``: all in one batch.

    Yields
    ------
    dict of str -> dict of str -> value
        Topic -> document -> value, for whole topics.

    Raises
    ------
    ValueError
        Naming the first pair (in frame order) of a document twice in one topic.
    """
    topics = query_ids.astype("str").to_numpy(dtype=object)
    docs = doc_ids.astype("str").to_numpy(dtype=object)
    vals = values.to_numpy()
    starts = block_starts(topics)
    if len(set(topics[starts].tolist())) != len(starts):  # a topic in several blocks: sort first
        order = np.argsort(pd.factorize(topics, sort=True)[0], kind="stable")  # codes in string order
        topics, docs, vals = topics[order], docs[order], vals[order]
        starts = block_starts(topics)
    for batch, lines in _batches(topics, docs, vals, starts, batch_rows):
        if sum(map(len, batch.values())) != lines:
            frame = pd.DataFrame({"query_id": query_ids.astype("str"), "doc_id": doc_ids.astype("str")})
            row = frame[frame.duplicated()].iloc[0]
            raise ValueError(f"evaluate: {what} document {row['doc_id']} twice in topic {row['query_id']}")
        yield batch


def _batches(
    topics: np.ndarray, docs: np.ndarray, values: np.ndarray, starts: np.ndarray, batch_rows: int | None
) -> Iterator[tuple[dict[str, dict], int]]:
    """(dicts, lines) of batches of whole topics; each topic one block starting at ``starts``."""
    # Batch boundaries: the first block starting at or after each multiple of batch_rows.
    limit = batch_rows or max(len(topics), 1)
    firsts = np.unique(np.searchsorted(starts, np.arange(0, len(topics), limit)))
    firsts = firsts[firsts < len(starts)]
    for first, last in zip(firsts.tolist(), [*firsts[1:].tolist(), len(starts)], strict=True):
        end = starts[last] if last < len(starts) else len(topics)
        yield _dicts(topics, docs, values, starts[first:last], end), end - starts[first]


def nested(query_ids: pd.Series, doc_ids: pd.Series, values: pd.Series, *, what: str) -> dict[str, dict]:
    """Give the whole ``{topic: {doc: value}}`` dict (see :func:`nested_batches`).

    Parameters
    ----------
    query_ids, doc_ids, values : pandas.Series
        Aligned columns of a run (``score``) or of qrels (``relevance``).
    what : str
        Names the input in the error about a document twice in one topic.

    Returns
    -------
    dict of str -> dict of str -> value
        Topic -> document -> value.

    Raises
    ------
    ValueError
        If a topic lists a document twice.
    """
    whole: dict[str, dict] = {}
    for batch in nested_batches(query_ids, doc_ids, values, what=what, batch_rows=None):
        whole.update(batch)
    return whole


def grouped_batches(pieces: Iterable[pd.DataFrame]) -> Iterator[dict[str, dict[str, float]]]:
    """Give ``{topic: {doc: score}}`` of the topics each piece of consecutive run lines completes.

    The topics of :func:`whole_topics`, as the dicts trec_eval's code reads.

    Parameters
    ----------
    pieces : iterable of pandas.DataFrame
        Frames with ``query_id``, ``doc_id`` (str) and ``score`` (float64) in file order, as
        :class:`irrepro.runs.RunStream` yields them.

    Yields
    ------
    dict of str -> dict of str -> float
        Topic -> document -> score, for the topics completed so far.

    Raises
    ------
    NeedsWholeRun
        When the stream cannot be evaluated as it is read (see the module docstring):
        :class:`NotInBlocks` when a topic comes back after another one.
    """
    for rows in whole_topics(pieces):
        yield _checked(rows)


def whole_topics(pieces: Iterable[pd.DataFrame], *, distinct_documents: bool = False) -> Iterator[pd.DataFrame]:
    """Give the rows of the topics each piece of consecutive run lines completes, whole topics at a time.

    The last topic of a piece is held back until a later piece starts another topic (or the pieces
    end).

    Parameters
    ----------
    pieces : iterable of pandas.DataFrame
        Frames with a ``query_id`` column in file order, as :class:`irrepro.runs.RunStream` yields
        them (other columns are carried along).
    distinct_documents : bool, default False
        Also check that no topic lists a ``doc_id`` twice.

    Yields
    ------
    pandas.DataFrame
        The rows of the topics completed so far, in file order.

    Raises
    ------
    NeedsWholeRun
        When the stream holds no line, or (``distinct_documents``) a topic lists a document twice;
        :class:`NotInBlocks` when a topic comes back after another one.
    """
    started: set[str] = set()
    open_topic, open_rows = None, []  # the last topic so far, which may go on in the next piece
    for piece in pieces:
        topics = piece["query_id"].to_numpy(dtype=object)
        starts = block_starts(topics)
        heads = topics[starts].tolist()
        go_on = int(heads[0] == open_topic)  # the piece's first block continues the open topic
        new = heads[go_on:]
        if len(set(new)) != len(new) or not started.isdisjoint(new):
            raise NotInBlocks("a topic is in several blocks of lines")
        started.update(new)
        if not new:
            open_rows.append(piece)
            continue
        done = [*open_rows, piece.iloc[: starts[-1]]]
        if sum(map(len, done)):
            yield _distinct(pd.concat(done, ignore_index=True) if len(done) > 1 else done[0], distinct_documents)
        open_topic, open_rows = heads[-1], [piece.iloc[starts[-1] :]]
    if open_topic is None:
        raise NeedsWholeRun("no run lines")
    yield _distinct(pd.concat(open_rows, ignore_index=True) if len(open_rows) > 1 else open_rows[0], distinct_documents)


def _distinct(rows: pd.DataFrame, check: bool) -> pd.DataFrame:
    """``rows`` (whole topics, each one block); if ``check``, :class:`NeedsWholeRun` when a topic lists a document twice."""
    if check and repeats_within_blocks(rows["doc_id"].to_numpy(dtype=object), block_starts(rows["query_id"].to_numpy(dtype=object))):
        raise NeedsWholeRun("a topic lists a document twice")
    return rows


def repeats_within_blocks(values: np.ndarray, starts: np.ndarray) -> bool:
    """Tell whether a value occurs twice within one block (a document twice in one topic's block of lines).

    One set per block: about five times faster than hashing one (topic, document) key per line.

    Parameters
    ----------
    values : numpy.ndarray
        A one-dimensional array (e.g. docnos in file order).
    starts : numpy.ndarray
        The first index of each block, as :func:`block_starts` gives them.

    Returns
    -------
    bool
        True if some block holds a value twice.

    Examples
    --------
    >>> docs = np.array(["a", "b", "a", "a"], dtype=object)
    >>> repeats_within_blocks(docs, np.array([0, 2])), repeats_within_blocks(docs, np.array([0, 2, 3]))
    (True, False)
    """
    listed = values.tolist()
    bounds = np.r_[starts, len(listed)].tolist()
    return any(len(set(listed[a:b])) != b - a for a, b in zip(bounds[:-1], bounds[1:], strict=True))


def _checked(rows: pd.DataFrame) -> dict[str, dict[str, float]]:
    """The dicts of ``rows`` (topics in blocks); :class:`NeedsWholeRun` if a topic lists a document twice."""
    topics = rows["query_id"].to_numpy(dtype=object)
    batch = _dicts(topics, rows["doc_id"].to_numpy(dtype=object), rows["score"].to_numpy(), block_starts(topics), len(rows))
    if sum(map(len, batch.values())) != len(rows):
        raise NeedsWholeRun("a topic lists a document twice")
    return batch


def sorted_batches(pieces: Iterable[pd.DataFrame], *, batch_rows: int | None = BATCH_ROWS) -> Iterator[dict[str, dict[str, float]]]:
    """Give ``{topic: {doc: score}}`` of a stream of run lines in any order, in batches of whole topics.

    The pieces are held by ``_HeldLines``, then ordered by topic code (stably) and cut into batches
    of about ``batch_rows`` lines.

    Parameters
    ----------
    pieces : iterable of pandas.DataFrame
        As for :func:`grouped_batches`.
    batch_rows : int or None, default BATCH_ROWS
        About how many lines a batch holds; ``None``: all in one batch.

    Yields
    ------
    dict of str -> dict of str -> float
        Topic -> document -> score, for whole topics.

    Raises
    ------
    NeedsWholeRun
        When a topic lists a document twice or there is no line.
    """
    held = _HeldLines()
    for piece in pieces:
        held.add(piece)
    if not held.code_of:
        raise NeedsWholeRun("no run lines")
    topics, docs, scores, starts = held.sorted_by_topic()
    for batch, lines in _batches(topics, docs, scores, starts, batch_rows):
        if sum(map(len, batch.values())) != lines:
            raise NeedsWholeRun("a topic lists a document twice")
        yield batch


#: Lines whose docnos :class:`_HeldLines` deduplicates together.
DEDUP_ROWS = 1_000_000


class _HeldLines:
    """Run lines held compactly: topic codes (int64, in order of first appearance), docnos and scores.

    A docno is a Python str (about 60 bytes); the pieces of a stream each hold their own copies,
    and a docno retrieved for many topics would be held many times.  So the docnos of every
    ``DEDUP_ROWS`` lines are factorized together and kept as references to one str per distinct
    docno (the hash table lives only while a window is done; no table of all docnos is kept).
    """

    def __init__(self) -> None:
        self.code_of: dict[str, int] = {}
        self._codes: list[np.ndarray] = []
        self._docs: list[np.ndarray] = []
        self._scores: list[np.ndarray] = []
        self._pending: list[np.ndarray] = []  # docnos of the window not yet deduplicated

    def add(self, piece: pd.DataFrame) -> None:
        piece_codes, piece_topics = pd.factorize(piece["query_id"].to_numpy(dtype=object))
        known = np.array([self.code_of.setdefault(topic, len(self.code_of)) for topic in piece_topics], dtype=np.int64)
        self._codes.append(known[piece_codes])
        self._scores.append(piece["score"].to_numpy(dtype="float64"))
        self._pending.append(piece["doc_id"].to_numpy(dtype=object))
        if sum(map(len, self._pending)) >= DEDUP_ROWS:
            self._deduplicate()

    def _deduplicate(self) -> None:
        if self._pending:
            codes, distinct = pd.factorize(np.concatenate(self._pending))
            self._pending.clear()
            self._docs.append(np.asarray(distinct, dtype=object).take(codes))

    def sorted_by_topic(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(topics, docnos, scores, start of each topic's block), the lines ordered by topic code;
        the held arrays are released."""
        self._deduplicate()
        codes = np.concatenate(self._codes)
        self._codes.clear()
        order = np.argsort(codes, kind="stable")
        codes = codes[order]
        topics = np.array(list(self.code_of), dtype=object)[codes]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        docs, scores = np.concatenate(self._docs)[order], np.concatenate(self._scores)[order]
        self._docs.clear(), self._scores.clear()
        return topics, docs, scores, starts
