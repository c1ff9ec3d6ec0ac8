"""Top-k selection over a streamed target corpus: the ranking step of the routing runs.

Every target document is scored for every topic (one sparse-dense matrix product per chunk of
documents); :class:`TopK` keeps, per topic, the ``k`` best documents seen so far with a partial sort
(``numpy.argpartition``), so memory is ``O(k * topics + chunk)`` whatever the corpus size.

Order: score descending; equal scores keep the document met first in the stream (smaller
position, ``ties="first"``, irrepro's rule) or the one met last (``ties="last"``: the authors' code
sorts ``(doc id, score)`` pairs by score with Python's stable ``sorted`` and then pops the highest
from the end of an ``OrderedDict``, so of equal scores the later one comes first; breuert/
wcrobust0405-code ``core/ranking.py:20-26``). The rule decides which documents are kept when the
``k``-th score is tied, and the order of tied documents in the frame (a run file written by
:func:`irrepro.runs.write_run` is in trec_eval's order, ties by docno). A full sort of all scores
with the same rule gives the same top ``k`` (tested).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["TIES", "TopK", "top_k_positions"]

#: which of equally scored documents comes first: the one met first or the one met last
TIES = ("first", "last")


def top_k_positions(scores: np.ndarray, positions: np.ndarray, k: int, *, ties: str = "first") -> np.ndarray:
    """Find the indices into ``scores`` of its ``k`` best entries, best first.

    Parameters
    ----------
    scores : numpy.ndarray
        The scores.
    positions : numpy.ndarray
        Each entry's position in the stream, for ties.
    k : int
        How many.
    ties : {"first", "last"}
        Ties: smaller position first, or larger position first.

    Returns
    -------
    numpy.ndarray
        The indices.
    """
    if len(scores) > k:
        # argpartition on -scores; the k-th value may be tied, so take all entries at least as good
        threshold = np.partition(-scores, k - 1)[k - 1]
        candidates = np.flatnonzero(-scores <= threshold)
    else:
        candidates = np.arange(len(scores))
    tie_key = positions[candidates] if ties == "first" else -positions[candidates]
    order = np.lexsort((tie_key, -scores[candidates]))
    return candidates[order[:k]]


class TopK:
    """The ``k`` best-scored documents per topic over chunks of a stream.

    Parameters
    ----------
    topics : sequence of str
        The topics, one score column each.
    k : int, default 10000
        Documents kept per topic.
    ties : {"first", "last"}
        Of equal scores, the document met first or last ranks higher.

    Examples
    --------
    >>> top = TopK(["t1"], k=2)
    >>> top.update(np.array([[0.1], [0.9]]), ["a", "b"])
    >>> top.update(np.array([[0.5], [0.2]]), ["c", "d"])
    >>> top.frame(run="demo")[["query_id", "doc_id", "rank"]].values.tolist()
    [['t1', 'b', 1], ['t1', 'c', 2]]
    """

    def __init__(self, topics: Sequence[str], *, k: int = 10_000, ties: str = "first"):
        if k < 1:
            raise ValueError(f"k must be >= 1, not {k}")
        if ties not in TIES:
            raise ValueError(f"ties must be one of {TIES}, not {ties!r}")
        self.topics = list(topics)
        self.k = k
        self.ties = ties
        self._scores = [np.empty(0) for _ in self.topics]
        self._positions = [np.empty(0, dtype=np.int64) for _ in self.topics]
        self._doc_ids: list[str] = []  # doc id of every stream position still referenced (compacted)
        self._position_ids: dict[int, str] = {}
        self._seen = 0

    def update(self, scores: np.ndarray, doc_ids: Sequence[str]) -> None:
        """Merge a chunk of scores.

        Parameters
        ----------
        scores : numpy.ndarray
            One row per document of ``doc_ids`` and one column per topic.
        doc_ids : sequence of str
            The chunk's documents.

        Raises
        ------
        ValueError
            If the shape does not fit the documents and topics.
        """
        scores = np.asarray(scores, dtype=np.float64)
        if scores.shape != (len(doc_ids), len(self.topics)):
            raise ValueError(f"scores of shape {scores.shape} for {len(doc_ids)} documents and {len(self.topics)} topics")
        positions = np.arange(self._seen, self._seen + len(doc_ids), dtype=np.int64)
        self._seen += len(doc_ids)
        referenced = set()
        for column in range(len(self.topics)):
            merged_scores = np.concatenate([self._scores[column], scores[:, column]])
            merged_positions = np.concatenate([self._positions[column], positions])
            best = top_k_positions(merged_scores, merged_positions, self.k, ties=self.ties)
            self._scores[column] = merged_scores[best]
            self._positions[column] = merged_positions[best]
            referenced.update(self._positions[column].tolist())
        first = int(positions[0]) if len(positions) else self._seen
        for position in referenced:
            if position >= first:
                self._position_ids[position] = doc_ids[position - first]
        if len(self._position_ids) > 2 * len(referenced) + 1024:
            self._position_ids = {position: self._position_ids[position] for position in referenced}

    def frame(self, *, run: str, categorical: bool = False) -> pd.DataFrame:
        """Give the kept documents as a run frame, best first per topic.

        Parameters
        ----------
        run : str
            The run's tag.
        categorical : bool, default False
            ``query_id``, ``doc_id`` and ``run`` as categories: the frame
            ``frame(run=run).astype({"query_id": "category", "doc_id": "category", "run": "category"})``,
            made without hashing every line's id (a tenth of the memory of the strings).

        Returns
        -------
        pandas.DataFrame
            query_id, doc_id, score, rank, run.
        """
        if not self.topics:
            frame = pd.DataFrame({"query_id": [], "doc_id": [], "score": [], "rank": [], "run": []})
            return frame.astype(dict.fromkeys(("query_id", "doc_id", "run"), "category")) if categorical else frame
        lengths = [len(scores) for scores in self._scores]
        positions = np.concatenate(self._positions)
        if categorical:
            ids = self._categorical_ids(positions, lengths, run)
        else:
            ids = {
                "query_id": pd.array(np.repeat(np.array(self.topics, dtype=object), lengths), dtype="str"),
                "doc_id": [self._position_ids[p] for p in positions.tolist()],
                "run": pd.array([run] * len(positions), dtype="str"),
            }
        return pd.DataFrame(
            {
                "query_id": ids["query_id"],
                "doc_id": ids["doc_id"],
                "score": np.concatenate(self._scores),
                "rank": np.concatenate([np.arange(1, n + 1, dtype=np.int64) for n in lengths]),
                "run": ids["run"],
            }
        )

    def _categorical_ids(self, positions: np.ndarray, lengths: list[int], run: str) -> dict[str, pd.Categorical]:
        """The id columns as categories (sorted, as ``astype("category")`` makes them), each distinct
        topic and document id turned into a category once."""
        topics = pd.Categorical(pd.array(self.topics, dtype="str"))
        kept, inverse = np.unique(positions, return_inverse=True)
        documents = pd.Categorical(pd.array([self._position_ids[p] for p in kept.tolist()], dtype="str"))
        return {
            "query_id": pd.Categorical.from_codes(np.repeat(topics.codes, lengths), dtype=topics.dtype),
            "doc_id": pd.Categorical.from_codes(documents.codes[inverse], dtype=documents.dtype),
            "run": pd.Categorical.from_codes(np.zeros(len(positions), dtype=np.int8),
                                             dtype=pd.CategoricalDtype(pd.Index([run], dtype="str"))),  # fmt: skip
        }
