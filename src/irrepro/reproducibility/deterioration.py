"""Runs made worse (or better) on purpose, by the rules of Maistro et al., IP&M 2023.

Maistro, Breuer, Schaer and Ferro, "An in-depth investigation on the behaviour of measures to
quantify reproducibility" (Information Processing & Management 60(3), 2023) study how the
reproducibility measures react to a run that is known to differ from the original: they
*deteriorate* a real run by moving and replacing documents around known rank positions, in a grid of
settings, and score the result as a "reproduction". :func:`deteriorate` applies their rules
(repository ``irgroup/ipm-reproducibility``, ``deterioration_functions/deteriorate_run.py``) to a
run frame; it is our own implementation of those rules, on whole frames.

The rules
---------
- **Topics**: ``round(n_topics * topics_share)`` of the run's topics, drawn at random, are
  deteriorated; the others are copied. ``round`` is Python's (half to even: 2.5 topics is 2), as in
  the reference.
- **Rankings** are trec_eval's (score descending, ties by docno descending;
  :mod:`irrepro.runs`). ``source`` and ``destination`` are intervals of 1-based rank positions,
  both ends included, that must not overlap (either may come first).
- **Relevant** means a grade > 0 in the qrels; an unjudged document counts as non-relevant.
- **Swaps first, then replacements.** A swap exchanges a document in the source interval with one
  in the destination interval; a replacement puts another document at a source position. Both
  keep every rank position's score: documents move, scores stay, so the run's scores per topic are
  the same numbers before and after. Which documents are chosen, among those that qualify, is random.
- **Modes** say which documents qualify:

  ===============  =========================================  ==============================================
  mode             swap: source document <-> destination one  replacement of a source document by
  ===============  =========================================  ==============================================
  ``worse``        relevant <-> non-relevant                  relevant -> ``'fake' + docno`` (unjudged)
  ``better``       non-relevant <-> relevant                  non-relevant -> a relevant document the run
                                                              did not retrieve (from the qrels)
  ``betterworse``  non-relevant <-> relevant                  relevant -> ``'fake' + docno``
  ``worsebetter``  relevant <-> non-relevant                  non-relevant -> a relevant unretrieved one
  ===============  =========================================  ==============================================

- **When a topic lacks documents** the counts shrink, per topic, in the reference's order:

  - ``worse`` and ``better`` (swaps and replacements draw on the same source documents): without a
    source document that qualifies there is nothing to do. Otherwise swaps are cut to the destination
    documents that qualify (``better``: replacements to the relevant documents not retrieved); then,
    if the source holds fewer qualifying documents ``n`` than swaps plus replacements, the
    **coefficient-ratio rule** keeps the requested swap:replacement ratio as near as it goes:
    ``swaps = min(int(round(swaps_asked * n / (swaps_asked + replacements_asked))),
    destination documents that qualify)`` and ``replacements = n - swaps`` (``better``: at most the
    relevant documents not retrieved). ``round`` is half to even, as numpy and the reference round.
  - ``betterworse`` and ``worsebetter`` (swaps and replacements draw on different source documents):
    each count is cut on its own: swaps to the qualifying documents of the destination, then of the
    source; replacements to the qualifying documents of the source (``worsebetter``: then to the
    relevant documents not retrieved).

  :attr:`Deterioration.topics` says per topic what was done and why a count shrank.

Where this differs from the reference
-------------------------------------
- **Randomness**: one ``numpy.random.default_rng(seed)`` draws the topics and, per topic, the
  documents; the reference draws from numpy's global generator in another order. The rules are the
  same, the draws are not: a seed here does not give the reference's run for that seed.
- **Bad parameters are refused** (:class:`~irrepro.validation.InvalidParameterError`, a
  ``ValueError`` naming the parameter) where the reference prints a warning and goes on: an unknown
  mode, a share outside [0, 1], a negative count, an interval starting before rank 1 or ending before
  it starts, overlapping intervals, more swaps plus replacements than the source interval has
  positions, more swaps than the destination interval has, and run topics the qrels do not judge
  (the reference fails on them with a ``KeyError`` when it draws one). No swap and no replacement is
  allowed: the run comes back unchanged (a grid's starting point).
- **A ranking shorter than an interval** holds only the documents it has: the reference counts the
  missing positions as non-relevant documents, and fails (an ``IndexError``) when it draws one.
- **Ties**: the new run is put in trec_eval order again. Where a moved document ties in score with
  its neighbours it takes the place its docno gives it among them, as trec_eval would rank the
  reference's run too.
- **Replacement documents** in ``better``/``worsebetter`` are drawn at random among the relevant
  documents not retrieved (the reference takes them in the order of a Python ``set``, which changes
  with every interpreter start). A ``'fake' + docno`` that the topic's ranking already holds is
  refused rather than written twice.

>>> import pandas as pd
>>> run = pd.DataFrame({"query_id": "1", "doc_id": list("abcdef"), "score": [6.0, 5, 4, 3, 2, 1]})
>>> qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "relevance": [1, 2]})
>>> done = deteriorate(run, qrels, mode="worse", swaps=2, replacements=0, topics_share=1.0,
...                    source=(1, 2), destination=(5, 6), seed=0)
>>> sorted(done.run["doc_id"].iloc[4:]), done.run["score"].tolist()
(['a', 'b'], [6.0, 5.0, 4.0, 3.0, 2.0, 1.0])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.run_dicts import block_starts
from irrepro.runs import METADATA_ATTR, RUN_COLUMNS, in_trec_eval_order, rank_by_score
from irrepro.string_order import string_codes
from irrepro.validation import (
    Choice,
    Fields,
    Integer,
    InvalidParameterError,
    Optional,
    Pair,
    Qrels,
    Real,
    RunFrame,
    validate_params,
)

__all__ = ["MODES", "FAKE_PREFIX", "TOPIC_COLUMNS", "Deterioration", "deteriorate", "settings_problem", "rows_read",
           "rows_reader"]

#: The modes of :func:`deteriorate`, the reference's names.
MODES = ("worse", "better", "betterworse", "worsebetter")
#: What a replacement in ``worse``/``betterworse`` puts before the replaced docno (an unjudged document).
FAKE_PREFIX = "fake"


@dataclass(frozen=True)
class _Rule:
    """Which documents a mode moves: relevant source ones swapped down (else non-relevant ones), relevant
    source ones replaced by fakes (else non-relevant ones by unretrieved relevant ones), one shared budget."""

    swap_relevant: bool
    replace_relevant: bool
    shared: bool


_RULES = {
    "worse": _Rule(swap_relevant=True, replace_relevant=True, shared=True),
    "better": _Rule(swap_relevant=False, replace_relevant=False, shared=True),
    "betterworse": _Rule(swap_relevant=False, replace_relevant=True, shared=False),
    "worsebetter": _Rule(swap_relevant=True, replace_relevant=False, shared=False),
}

#: The per-topic frame's columns (:attr:`Deterioration.topics`).
TOPIC_COLUMNS = ("query_id", "selected", "swaps", "replacements", "shrunk", "reason", "relevant_source",
                 "nonrelevant_source", "relevant_destination", "nonrelevant_destination", "unretrieved_relevant")


@dataclass(frozen=True)
class Deterioration:
    """A deteriorated run and, per topic, what was done to it.

    Parameters
    ----------
    run : pandas.DataFrame
        The new run, in :func:`irrepro.runs.read_run`'s columns and trec_eval order (ranks 1..n per
        topic); the score at each rank position is the original one. Without the original's
        ir_metadata header: it no longer describes this run.
    topics : pandas.DataFrame
        One row per topic of the run, in the run's order: ``query_id``; ``selected`` (drawn by the
        share); the ``swaps`` and ``replacements`` done; ``shrunk`` (selected, and fewer done than
        asked) and the ``reason`` ("" when nothing shrank); and for selected topics the documents the
        rules counted: ``relevant_source``, ``nonrelevant_source``, ``relevant_destination``,
        ``nonrelevant_destination`` and, for modes that need them, ``unretrieved_relevant``
        (nullable integers, ``<NA>`` where not counted).
    mode : str
        The mode.
    swaps, replacements : int
        The counts asked for, per selected topic.
    changed_rows : numpy.ndarray
        The rows of ``run`` (positions, ascending) whose document is not the one the original
        ranking had at that rank: the edit, for a writer that changes only those lines
        (``irrepro deteriorate``).
    """

    run: pd.DataFrame
    topics: pd.DataFrame
    mode: str
    swaps: int
    replacements: int
    changed_rows: np.ndarray

    def summary(self) -> str:
        """Say in one line what was done.

        Returns
        -------
        str
            Topics changed of those in the run, swaps and replacements in total, topics with counts shrunk.
        """
        topics = self.topics
        changed = int(((topics["swaps"] + topics["replacements"]) > 0).sum())
        return (f"{self.mode}: {changed} of {len(topics)} topics changed ({int(topics['selected'].sum())} drawn), "
                f"{int(topics['swaps'].sum())} swaps and {int(topics['replacements'].sum())} replacements in all; "
                f"counts shrunk in {int(topics['shrunk'].sum())} topics")

    def changed_lines(self, original: pd.DataFrame) -> dict[int, tuple[str, str]]:
        """Say which lines of the run file a deterioration changed, for :func:`irrepro.runs.edit_run`.

        A moved document takes the line of the rank it moved to (a line keeps its score), and ties
        reordered after it move with their lines, so the lines of :attr:`changed_rows`, compared
        line by line, are exactly the edit.

        Parameters
        ----------
        original : pandas.DataFrame
            The run given to :func:`deteriorate`, in trec_eval order (as ``read_run(...,
            line_numbers=True)`` reads it, its ``line`` column kept), so that its rows are those
            :attr:`changed_rows` counts.

        Returns
        -------
        dict of int to (str, str)
            Line number -> (the original docno, the new one).
        """
        rows = self.changed_rows
        before = dict(zip(original["line"].to_numpy()[rows].tolist(),
                          original["doc_id"].to_numpy(dtype=object)[rows].tolist(), strict=True))  # fmt: skip
        after = zip(self.run["line"].to_numpy()[rows].tolist(), self.run["doc_id"].to_numpy(dtype=object)[rows].tolist(),
                    strict=True)  # fmt: skip
        return {line: (before[line], doc) for line, doc in after if before[line] != doc}


_INTERVAL = Pair(Integer(minimum=1), what="an interval of rank positions (start, end)")
_COUNT = Integer(minimum=0)


@validate_params(run=RunFrame(), qrels=Qrels(), mode=Choice(MODES), swaps=_COUNT, replacements=_COUNT,
                 topics_share=Real(0.0, 1.0), source=_INTERVAL, destination=_INTERVAL, seed=Integer(minimum=0))
def deteriorate(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    *,
    mode: str,
    swaps: int,
    replacements: int,
    topics_share: float,
    source: tuple[int, int],
    destination: tuple[int, int],
    seed: int,
) -> Deterioration:
    """Deteriorate (or improve) a run by swapping and replacing documents, as Maistro et al. (2023) do.

    The rules, and where they differ from the reference code, are in the module docstring.

    Parameters
    ----------
    run : pandas.DataFrame
        The run, as :func:`irrepro.runs.read_run` reads one (``query_id``, ``doc_id``, ``score``; a
        frame in another order is ranked first).
    qrels : pandas.DataFrame
        Its judgments, as :func:`irrepro.runs.read_qrels` reads them; they must judge every topic
        of the run.
    mode : {"worse", "better", "betterworse", "worsebetter"}
        Which documents swaps and replacements move (:data:`MODES`).
    swaps : int
        Swaps per selected topic, >= 0.
    replacements : int
        Replacements per selected topic, >= 0.
    topics_share : float
        The share of the run's topics to deteriorate, in [0, 1]: ``round(n_topics * topics_share)``
        topics (half to even).
    source, destination : tuple of int
        Rank intervals ``(start, end)``, 1-based, both ends included, ``1 <= start <= end``, not
        overlapping. Swaps exchange documents between them; replacements happen in ``source``.
    seed : int
        Seeds ``numpy.random.default_rng``: the same seed gives the same run.

    Returns
    -------
    Deterioration
        The new run and, per topic, what was done and why a count shrank.

    Raises
    ------
    InvalidParameterError
        A ``ValueError`` naming the parameter: a value of the wrong type or range, ``start > end``,
        overlapping intervals, ``swaps + replacements`` beyond the positions of ``source``, ``swaps``
        beyond those of ``destination``, run topics the qrels do not judge (named), or a fake docno
        the ranking already holds.

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": list("abcd"), "score": [4.0, 3, 2, 1]})
    >>> qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "relevance": [1]})
    >>> done = deteriorate(run, qrels, mode="worse", swaps=0, replacements=1, topics_share=1.0,
    ...                    source=(1, 2), destination=(3, 4), seed=0)
    >>> done.run["doc_id"].tolist()
    ['fakea', 'b', 'c', 'd']
    >>> done.topics[["swaps", "replacements", "shrunk"]].values.tolist()
    [[0, 1, False]]
    """
    problem = settings_problem(swaps=swaps, replacements=replacements, source=source, destination=destination)
    if problem is not None:
        raise InvalidParameterError(f"deteriorate: {problem}")
    rule = _RULES[mode]
    ranked = _as_text_ids(run)
    if not in_trec_eval_order(ranked):
        ranked = rank_by_score(ranked)
        ranked = ranked[[*(c for c in RUN_COLUMNS if c in ranked), *(c for c in ranked if c not in RUN_COLUMNS)]]
    topics = ranked["query_id"].to_numpy()
    starts = np.flatnonzero(np.r_[True, topics[1:] != topics[:-1]])
    lengths = np.diff(np.r_[starts, len(topics)])
    topic_ids = topics[starts]
    _check_judged(topic_ids, _as_text_ids(qrels))

    rng = np.random.default_rng(seed)
    n_selected = round(len(topic_ids) * topics_share)
    selected = np.sort(rng.permutation(len(topic_ids))[:n_selected])
    relevant, relevant_pairs = _relevant(qrels)
    docs = ranked["doc_id"].to_numpy(dtype=object)

    def interval(bounds):
        rows, groups = _interval_rows(starts[selected], lengths[selected], bounds)
        pairs = zip(topics[rows].tolist(), docs[rows].tolist(), strict=True)
        return rows, groups, np.fromiter((pair in relevant_pairs for pair in pairs), dtype=bool, count=len(rows))

    source_rows, source_groups, source_relevant = interval(source)
    destination_rows, destination_groups, destination_relevant = interval(destination)
    counts = {
        "relevant_source": np.bincount(source_groups[source_relevant], minlength=n_selected),
        "nonrelevant_source": np.bincount(source_groups[~source_relevant], minlength=n_selected),
        "relevant_destination": np.bincount(destination_groups[destination_relevant], minlength=n_selected),
        "nonrelevant_destination": np.bincount(destination_groups[~destination_relevant], minlength=n_selected),
    }
    unretrieved = None
    if not rule.replace_relevant:
        unretrieved = _unretrieved_relevant(relevant, topic_ids[selected], topics, docs)
        counts["unretrieved_relevant"] = np.bincount(unretrieved[1], minlength=n_selected)
    done_swaps, done_replacements, reasons = _shrunk_counts(rule, counts, swaps=swaps, replacements=replacements)

    # Draw the documents: per topic a random order of the qualifying ones, the first ones taken.
    swap_side = source_relevant if rule.swap_relevant else ~source_relevant
    swapped_order, swapped_position = _shuffled_within(source_groups[swap_side], rng)
    candidates = source_rows[swap_side][swapped_order]
    groups = source_groups[swap_side][swapped_order]
    take = swapped_position < done_swaps[groups]
    swap_from = candidates[take]
    if rule.shared:
        replaced = candidates[(swapped_position >= done_swaps[groups])
                              & (swapped_position < (done_swaps + done_replacements)[groups])]
    else:
        replace_side = source_relevant if rule.replace_relevant else ~source_relevant
        order, position = _shuffled_within(source_groups[replace_side], rng)
        replaced_groups = source_groups[replace_side][order]
        replaced = source_rows[replace_side][order][position < done_replacements[replaced_groups]]
    destination_side = ~destination_relevant if rule.swap_relevant else destination_relevant
    order, position = _shuffled_within(destination_groups[destination_side], rng)
    destination_candidates_groups = destination_groups[destination_side][order]
    swap_to = destination_rows[destination_side][order][position < done_swaps[destination_candidates_groups]]

    if rule.replace_relevant:
        replacing = np.array([FAKE_PREFIX + doc for doc in docs[replaced].tolist()], dtype=object)
        _check_fakes_are_new(topics, docs, starts, lengths, replaced, replacing)
    else:
        unretrieved_docs, unretrieved_groups = unretrieved
        order, position = _shuffled_within(unretrieved_groups, rng)
        replacing = unretrieved_docs[order][position < done_replacements[unretrieved_groups[order]]]
    changed = np.concatenate([swap_from, swap_to, replaced])
    new_docs = ranked["doc_id"].array.copy()  # set in place: only the new values are checked as strings
    new_docs[changed] = np.concatenate([docs[swap_to], docs[swap_from], replacing])
    result = ranked.reset_index(drop=True)  # new columns below: the caller's frame is left as it is
    scores = ranked["score"].to_numpy(dtype="float64")
    order, tied = _tie_order(new_docs, scores, starts, lengths, changed)
    result["doc_id"] = new_docs if order is None else new_docs.take(order)
    if order is not None:  # other columns than the run's own move with their documents (e.g. a line number)
        for column in result.columns.difference(RUN_COLUMNS):
            result[column] = result[column].array.take(order)
    candidates = np.union1d(changed, tied)
    changed_rows = candidates[result["doc_id"].array[candidates] != docs[candidates]]
    result.attrs = {key: value for key, value in ranked.attrs.items() if key != METADATA_ATTR}
    return Deterioration(
        run=result, topics=_topic_frame(topic_ids, selected, done_swaps, done_replacements, reasons, counts),
        mode=mode, swaps=swaps, replacements=replacements, changed_rows=changed_rows,
    )  # fmt: skip


# --------------------------------------------------------------------------- checks


@validate_params(swaps=_COUNT, replacements=_COUNT, source=_INTERVAL, destination=_INTERVAL,
                 names=Optional(Fields("a mapping of parameter names to the names to call them")))
def settings_problem(
    *, swaps: int, replacements: int, source: tuple[int, int], destination: tuple[int, int], names: Mapping | None = None
) -> str | None:
    """Say what is wrong with settings of :func:`deteriorate` that relate to each other, before any run is read.

    :func:`deteriorate` refuses what this finds; ``irrepro deteriorate`` asks it first, with the
    options' names.

    Parameters
    ----------
    swaps, replacements : int
        The counts asked for, >= 0.
    source, destination : tuple of int
        The rank intervals ``(start, end)``, each start >= 1.
    names : mapping, optional
        What to call ``swaps``, ``replacements``, ``source`` and ``destination`` in the text (a command's
        options); default: those names.

    Returns
    -------
    str or None
        The first problem ("source and destination must not overlap; got ..."), or ``None``: a start
        after its end, overlapping intervals, more swaps plus replacements than the source has
        positions, more swaps than the destination has.

    Examples
    --------
    >>> settings_problem(swaps=2, replacements=1, source=(1, 2), destination=(5, 6))
    'swaps + replacements must be at most the 2 position(s) of source (1, 2); got 2 + 1'
    """
    called = {key: key for key in ("swaps", "replacements", "source", "destination")} | dict(names or {})
    for key, (start, end) in (("source", source), ("destination", destination)):
        if start > end:
            return f"{called[key]} must be an interval (start, end) with start <= end; got {(start, end)}"
    if min(source[1], destination[1]) >= max(source[0], destination[0]):
        return (f"{called['source']} and {called['destination']} must not overlap; got {called['source']} {source} "
                f"and {called['destination']} {destination}")
    source_positions, destination_positions = source[1] - source[0] + 1, destination[1] - destination[0] + 1
    if swaps + replacements > source_positions:
        return (f"{called['swaps']} + {called['replacements']} must be at most the {source_positions} position(s) "
                f"of {called['source']} {source}; got {swaps} + {replacements}")
    if swaps > destination_positions:
        return (f"{called['swaps']} must be at most the {destination_positions} position(s) of "
                f"{called['destination']} {destination}; got {swaps}")
    return None


@validate_params(ranked=RunFrame(), qrels=Qrels(), mode=Choice(MODES), source=_INTERVAL, destination=_INTERVAL)
def rows_read(ranked: pd.DataFrame, qrels: pd.DataFrame, *, mode: str, source: tuple[int, int],
              destination: tuple[int, int]) -> np.ndarray:
    """Say which rows of a ranked run :func:`deteriorate` looks at with these settings; it copies the others.

    :func:`deteriorate` of the run restricted to these rows (all topics keep at least their first
    row) draws the same topics and documents and makes the same changes, on the same rows, as on
    the whole run: a tool can read a large run topic by topic, keep these rows only, and edit the
    file where they changed (``irrepro deteriorate`` does). The rows:

    - every rank up to the deeper interval's end, and the rest of the tie (equal scores) that the
      row at that rank is in: a document moved there is put among its ties by docno;
    - for ``better`` and ``worsebetter`` (replacements by relevant documents the run did not
      retrieve), every row whose document is relevant to its topic: it is retrieved;
    - for ``worse`` and ``betterworse`` (replacements by ``'fake' + docno``), every row whose docno
      starts with :data:`FAKE_PREFIX`: a fake must not be a document the ranking holds.

    The rows are whole ties, so the order within a tie does not change them: ``ranked`` need not
    have its ties in trec_eval's order (by docno), nor its topics in any order.

    Parameters
    ----------
    ranked : pandas.DataFrame
        Whole topics of a run, each one block of rows sorted by score, descending, with ``rank``
        the position in its block (as :func:`irrepro.runs.rank_by_score` gives them, or a file
        written in that order).
    qrels : pandas.DataFrame
        The judgments, as :func:`irrepro.runs.read_qrels` reads them.
    mode : {"worse", "better", "betterworse", "worsebetter"}
        The mode (:data:`MODES`).
    source, destination : tuple of int
        The rank intervals, as for :func:`deteriorate`.

    Returns
    -------
    numpy.ndarray
        A boolean mask of the rows.

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": list("abcdef"), "score": [6.0, 5, 4, 4, 4, 1],
    ...                     "rank": [1, 2, 3, 4, 5, 6]})
    >>> qrels = pd.DataFrame({"query_id": "1", "doc_id": ["f"], "relevance": [1]})
    >>> rows_read(run, qrels, mode="better", source=(1, 1), destination=(2, 3)).tolist()
    [True, True, True, True, True, True]
    >>> rows_read(run, qrels, mode="worse", source=(1, 1), destination=(2, 3)).tolist()
    [True, True, True, True, True, False]
    """
    return rows_reader(qrels, mode=mode, source=source, destination=destination)(ranked)


@validate_params(qrels=Qrels(), mode=Choice(MODES), source=_INTERVAL, destination=_INTERVAL)
def rows_reader(qrels: pd.DataFrame, *, mode: str, source: tuple[int, int],
                destination: tuple[int, int]) -> Callable[[pd.DataFrame], np.ndarray]:
    """:func:`rows_read` with the qrels prepared once, for a run read topic by topic.

    Parameters
    ----------
    qrels : pandas.DataFrame
        The judgments, as :func:`irrepro.runs.read_qrels` reads them.
    mode : {"worse", "better", "betterworse", "worsebetter"}
        The mode (:data:`MODES`).
    source, destination : tuple of int
        The rank intervals, as for :func:`deteriorate`.

    Returns
    -------
    callable
        ``read(ranked)``: the mask :func:`rows_read` gives for whole topics ``ranked`` (as it
        takes them), with these qrels and settings.
    """
    depth = max(source[1], destination[1])
    if _RULES[mode].replace_relevant:
        relevant_pairs, relevant_docs = None, None
    else:
        relevant, relevant_pairs = _relevant(qrels)
        relevant_docs = pd.Index(pd.unique(relevant["doc_id"].to_numpy(dtype=object)))

    def read(ranked: pd.DataFrame) -> np.ndarray:
        ranked = _as_text_ids(ranked)
        topics = ranked["query_id"].to_numpy(dtype=object)
        scores = ranked["score"].to_numpy(dtype="float64")
        starts = block_starts(topics)
        lengths = np.diff(np.r_[starts, len(topics)])
        deepest = starts + np.minimum(depth, lengths) - 1  # the row at the deeper interval's end (or the topic's last)
        keep = (ranked["rank"].to_numpy() <= depth) | (scores == np.repeat(scores[deepest], lengths))
        docs = ranked["doc_id"].to_numpy(dtype=object)
        if relevant_pairs is None:
            keep[~keep] = _starts_with(docs[~keep], FAKE_PREFIX)
            return keep
        rows = np.flatnonzero((relevant_docs.get_indexer(docs) >= 0) & ~keep)
        keep[rows] = [pair in relevant_pairs for pair in zip(topics[rows].tolist(), docs[rows].tolist(), strict=True)]
        return keep

    return read


def _relevant(qrels: pd.DataFrame) -> tuple[pd.DataFrame, set[tuple[str, str]]]:
    """The judgments with a grade > 0 (``query_id``, ``doc_id`` as text), and their (topic, docno) pairs."""
    relevant = _as_text_ids(qrels.loc[qrels["relevance"].to_numpy() > 0, ["query_id", "doc_id"]])
    return relevant, set(zip(relevant["query_id"].tolist(), relevant["doc_id"].tolist(), strict=True))


def _starts_with(docs: np.ndarray, prefix: str) -> np.ndarray:
    """Which of ``docs`` start with ``prefix``: their first bytes compared as one fixed-width array
    (about ten times faster than ``str.startswith`` per docno); Python's test for non-ASCII docnos."""
    try:
        heads = docs.astype(f"S{len(prefix)}")  # truncated to the prefix's length
    except UnicodeEncodeError:
        return np.fromiter((doc.startswith(prefix) for doc in docs.tolist()), dtype=bool, count=len(docs))
    return heads == prefix.encode("ascii")


def _check_judged(topic_ids: np.ndarray, qrels: pd.DataFrame) -> None:
    """Every topic of the run has judgments (else which do not)."""
    judged_topics = qrels["query_id"].to_numpy(dtype=object)
    judged = set(judged_topics[np.r_[True, judged_topics[1:] != judged_topics[:-1]]].tolist())  # qrels come in blocks
    unjudged = [topic for topic in topic_ids.tolist() if topic not in judged]
    if unjudged:
        shown = ", ".join(unjudged[:5]) + (f" and {len(unjudged) - 5} more" if len(unjudged) > 5 else "")
        raise InvalidParameterError(f"deteriorate: qrels must judge every topic of run; got none for {len(unjudged)} "
                                    f"topic(s): {shown} (leave them out of the run first, e.g. "
                                    f"run[run['query_id'].isin(qrels['query_id'])])")


def _check_fakes_are_new(topics: np.ndarray, docs: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                         replaced: np.ndarray, fakes: np.ndarray) -> None:
    """A fake docno must not be a document the topic's ranking holds already (it would be listed twice).

    Only the rankings of topics with a replacement are looked at (``starts``, ``lengths``: the topics' rows)."""
    blocks = np.searchsorted(starts, replaced, side="right") - 1
    for block in np.unique(blocks).tolist():
        held = set(docs[starts[block]:starts[block] + lengths[block]].tolist())
        for row, fake in zip(replaced[blocks == block].tolist(), fakes[blocks == block].tolist(), strict=True):
            if fake in held:
                raise InvalidParameterError(f"deteriorate: run must not hold a document named as a fake one; got "
                                            f"{fake} in topic {topics[row]}, where {docs[row]} is replaced by {fake}")


def _tie_order(docs, scores: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
               changed: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """The order of rows that puts ``docs`` back in trec_eval order after the ``changed`` rows got new
    ones, and the rows of the ties it reorders.

    The rows were in trec_eval order before; only runs of equal scores in one topic that hold a
    changed row can be out of order now, and within such a run only the documents move: ranks,
    topics and scores stay. So ``docs[order]`` (and any other column taken in that order) is
    :func:`~irrepro.runs.rank_by_score`'s result without a sort of the whole run; ``None`` when
    no row moves. Each changed row's tie is found by bisection in its topic's scores (descending).
    """
    blocks = np.searchsorted(starts, changed, side="right") - 1
    bounds = set()
    for block in np.unique(blocks).tolist():
        start = int(starts[block])
        ascending = -scores[start:start + int(lengths[block])]
        wanted = -scores[changed[blocks == block]]
        lows = start + np.searchsorted(ascending, wanted, side="left")
        highs = start + np.searchsorted(ascending, wanted, side="right")
        bounds.update((low, high) for low, high in zip(lows.tolist(), highs.tolist(), strict=True) if high - low > 1)
    if not bounds:
        return None, np.zeros(0, dtype=np.intp)
    ties = sorted(bounds)
    rows = np.concatenate([np.arange(low, high) for low, high in ties])
    tie = np.repeat(np.arange(len(ties)), [high - low for low, high in ties])
    order = np.arange(len(scores))
    order[rows] = rows[np.lexsort((-string_codes(np.asarray(docs[rows], dtype=object)), tie))]
    return order, rows


def _as_text_ids(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its topic and document ids as strings (as read_run and read_qrels give them)."""
    numeric = [column for column in ("query_id", "doc_id") if not pd.api.types.is_string_dtype(frame[column])]
    return frame.astype(dict.fromkeys(numeric, str)) if numeric else frame


# --------------------------------------------------------------------------- the rules


def _interval_rows(starts: np.ndarray, lengths: np.ndarray, bounds: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The rows of each topic's rank positions ``bounds`` (1-based, inclusive; a shorter ranking has
    fewer), and each row's topic (its index among ``starts``)."""
    low = bounds[0] - 1
    counts = np.maximum(np.minimum(bounds[1], lengths) - low, 0)
    total = int(counts.sum())
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts + low, counts) + offsets, np.repeat(np.arange(len(starts)), counts)


def _shuffled_within(groups: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """An order of items that keeps groups ascending and shuffles each one, and each item's place in its group."""
    order = np.lexsort((rng.random(len(groups)), groups))
    ordered = groups[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(ordered) else np.zeros(0, dtype=int)
    return order, np.arange(len(ordered)) - np.repeat(starts, np.diff(np.r_[starts, len(ordered)]))


def _unretrieved_relevant(relevant: pd.DataFrame, selected_ids: np.ndarray, topics: np.ndarray, docs: np.ndarray):
    """The relevant documents of the selected topics that their rankings lack, and each one's topic
    (its index among ``selected_ids``)."""
    position = pd.Index(selected_ids).get_indexer(relevant["query_id"])
    candidates = relevant.loc[position >= 0]
    groups = position[position >= 0]
    candidate_topics = candidates["query_id"].to_numpy(dtype=object)
    candidate_docs = candidates["doc_id"].to_numpy(dtype=object)
    wanted = set(candidate_docs.tolist())
    maybe = np.fromiter(map(wanted.__contains__, docs), dtype=bool, count=len(docs))  # few docnos, probed once each
    retrieved_pairs = set(zip(topics[maybe].tolist(), docs[maybe].tolist(), strict=True))
    pairs = zip(candidate_topics.tolist(), candidate_docs.tolist(), strict=True)
    retrieved = np.fromiter((pair in retrieved_pairs for pair in pairs), dtype=bool, count=len(candidate_docs))
    return candidate_docs[~retrieved], groups[~retrieved]


def _shrunk_counts(rule: _Rule, counts: dict[str, np.ndarray], *, swaps: int, replacements: int):
    """Swaps and replacements per selected topic, by the reference's rules, and why each one shrank."""
    relevant_source, nonrelevant_source = counts["relevant_source"], counts["nonrelevant_source"]
    n = len(relevant_source)
    quality = ("relevant", "non-relevant") if rule.swap_relevant else ("non-relevant", "relevant")
    swap_source = relevant_source if rule.swap_relevant else nonrelevant_source
    swap_destination = counts["nonrelevant_destination"] if rule.swap_relevant else counts["relevant_destination"]
    replace_source = relevant_source if rule.replace_relevant else nonrelevant_source
    replaced_what = "relevant" if rule.replace_relevant else "non-relevant"
    unretrieved = counts.get("unretrieved_relevant")
    reasons: list[list[str]] = [[] for _ in range(n)]

    def note(where: np.ndarray, text) -> None:
        for index in np.flatnonzero(where):
            reasons[index].append(text(index))

    done_swaps = np.full(n, swaps, dtype=np.int64)
    done_replacements = np.full(n, replacements, dtype=np.int64)
    if rule.shared:
        idle = swap_source == 0
        note(idle & (swaps + replacements > 0), lambda i: f"no {quality[0]} document in the source interval")
        cut = done_swaps > swap_destination
        note(cut & ~idle, lambda i: f"{swap_destination[i]} {quality[1]} document(s) in the destination interval")
        done_swaps = np.minimum(done_swaps, swap_destination)
        if unretrieved is not None:
            cut = done_replacements > unretrieved
            note(cut & ~idle, lambda i: f"{unretrieved[i]} relevant document(s) not retrieved")
            done_replacements = np.minimum(done_replacements, unretrieved)
        short = swap_source < done_swaps + done_replacements
        note(short & ~idle, lambda i: f"{swap_source[i]} {quality[0]} document(s) in the source interval "
                                      f"(swaps:replacements kept near {swaps}:{replacements})")
        if short.any():  # short is never true when swaps + replacements == 0
            ratio = np.rint(swaps * swap_source / (swaps + replacements)).astype(np.int64)
            ratio_swaps = np.minimum(ratio, swap_destination)
            ratio_replacements = swap_source - ratio_swaps
            if unretrieved is not None:
                ratio_replacements = np.minimum(ratio_replacements, unretrieved)
            done_swaps = np.where(short, ratio_swaps, done_swaps)
            done_replacements = np.where(short, ratio_replacements, done_replacements)
        done_swaps[idle], done_replacements[idle] = 0, 0
    else:
        idle = relevant_source + nonrelevant_source == 0
        note(idle & (swaps + replacements > 0), lambda i: "no document in the source interval")
        caps = [(done_swaps, swap_destination, f"{quality[1]} document(s) in the destination interval"),
                (done_swaps, swap_source, f"{quality[0]} document(s) in the source interval to swap"),
                (done_replacements, replace_source, f"{replaced_what} document(s) in the source interval to replace")]
        if unretrieved is not None:
            caps.append((done_replacements, unretrieved, "relevant document(s) not retrieved"))
        for done, cap, what in caps:
            note((done > cap) & ~idle, lambda i, cap=cap, what=what: f"{cap[i]} {what}")
            np.minimum(done, cap, out=done)
    return done_swaps, done_replacements, ["; ".join(reason) for reason in reasons]


def _topic_frame(topic_ids, selected, done_swaps, done_replacements, reasons, counts) -> pd.DataFrame:
    """:attr:`Deterioration.topics`: one row per topic of the run."""
    n = len(topic_ids)
    chosen = np.zeros(n, dtype=bool)
    chosen[selected] = True
    swaps, replacements = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    swaps[selected], replacements[selected] = done_swaps, done_replacements
    why = np.full(n, "", dtype=object)
    why[selected] = reasons
    frame = pd.DataFrame({"query_id": topic_ids, "selected": chosen, "swaps": swaps, "replacements": replacements,
                          "shrunk": why != "", "reason": why})
    for column in TOPIC_COLUMNS[6:]:
        values = pd.array([pd.NA] * n, dtype="Int64")
        if column in counts:
            values[selected] = counts[column]
        frame[column] = values
    return frame
