"""tf-idf features of the routing runs, fitted and applied in a streaming fashion.

The weights are those of scikit-learn's ``TfidfVectorizer(norm="l2", smooth_idf=True)`` with
``sublinear_tf=True`` (the default here; the SIGIR 2020 constellations' setting, irgroup/sigir2020-
measure-reproducibility ``config/param.py:22``) or ``sublinear_tf=False`` (raw term frequency: the
vectoriser's default, which the CLEF 2019 code uses, breuert/wcrobust0405-code
``core/tfidf_vectorization.py:35``). For term ``t`` in document ``d`` of a fitting corpus of ``n``
documents with document frequency ``df(t)``

    w(t, d) = tf'(t, d) * (ln((1 + n) / (1 + df(t))) + 1),   then each row scaled to unit L2 norm,

with ``tf'(t, d) = 1 + ln tf(t, d)`` (sublinear) or ``tf(t, d)`` (raw).

The vocabulary holds the terms (see :class:`irrepro.routing.preprocess.TermRule`: Porter stems
without stop words, or the plain lowercase tokens with ``preprocess=False``) of the fitting corpus
with ``min_df <= df <= max_df`` (a float is a share of ``n``, an int a count, as in scikit-learn),
of which ``max_features`` (a share of that vocabulary, as in the authors' code: ``int(share * |V|)``)
with the highest total term frequency are kept (ties by term). Columns are in term order, so the
matrices equal scikit-learn's on the same terms (tested). The model remembers its term rule, so its
``transform`` analyses texts the way it was fitted.

The fitting corpus is the training corpus (the paper's final runs) or its union with the target
("feature augmentation", Sec. 4.2). Documents pass chunk by chunk; nothing holds a corpus in memory.
Each process keeps one memo raw token -> column so every distinct token is stemmed once.

A corpus that is held in memory anyway (the stand-in) can instead be counted once per term rule
(:class:`TermCounts`: documents x terms, raw counts); :func:`fit_tfidf_counts` and
:meth:`TfidfModel.transform_counts` then fit and apply tf-idf from the counts with the same
arithmetic as :func:`fit_tfidf` and :meth:`TfidfModel.transform` on the texts, so the model and its
rows are the same bit for bit (tested), and runs that differ in ``max_df`` or ``max_features`` or
in their target no longer read and tokenise the same texts again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.preprocessing import normalize

from irrepro.routing.preprocess import PAPER_TERMS, TermRule

__all__ = ["TfidfModel", "TermCounts", "fit_tfidf", "fit_tfidf_counts", "document_frequencies", "chunked"]

_SEVERAL = -2  # memo value of a token with more than one term (see _TokenColumns.several)


def chunked(items: Iterable, size: int) -> Iterator[list]:
    """Cut ``items`` into consecutive lists of ``size`` items (the last one shorter).

    Parameters
    ----------
    items : iterable
        The items.
    size : int
        Items per list.

    Yields
    ------
    list
        Each chunk.
    """
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _TokenColumns:
    """Raw token -> column memo for a term -> column map, under a :class:`TermRule`.

    A token maps to one column, to -1 (a stop word, an unknown term, a term too short) or, rarely,
    to several columns (:data:`_SEVERAL`, kept in ``several``: a Unicode stem that the vectoriser's
    pattern splits).
    """

    def __init__(self, columns: dict[str, int], *, grow: bool, rule: TermRule):
        self.columns = columns  # term -> column
        self.grow = grow  # add unseen terms as new columns (fitting) or map them to -1 (applying)
        self.rule = rule
        self.memo: dict[str, int] = {}
        self.several: dict[str, list[int]] = {}

    max_memo = 4_000_000  # distinct raw tokens remembered; beyond, the memo starts afresh (time, not results)

    def _column(self, term: str) -> int:
        column = self.columns.get(term, -1)
        if column < 0 and self.grow:
            column = self.columns[term] = len(self.columns)
        return column

    def _learn(self, token: str) -> int:
        if len(self.memo) >= self.max_memo:
            self.memo.clear()
            self.several.clear()
        columns = [column for column in map(self._column, self.rule.terms(token)) if column >= 0]
        if len(columns) > 1:
            self.several[token] = columns
            value = _SEVERAL
        else:
            value = columns[0] if columns else -1
        self.memo[token] = value
        return value

    def _row_columns(self, tokens: list[str], flat: list[int]) -> None:
        """Append the columns of one text's tokens to ``flat``."""
        before = len(flat)
        try:
            flat.extend(map(self.memo.__getitem__, tokens))  # C-level loop; a new token raises KeyError
        except KeyError:
            del flat[before:]
            memo = self.memo
            # each distinct token once, learnt in order of first occurrence (the order columns are made in)
            values = {token: memo[token] if token in memo else self._learn(token) for token in dict.fromkeys(tokens)}
            flat.extend(map(values.__getitem__, tokens))
        if self.several and _SEVERAL in flat[before:]:
            expanded = [
                column for token, value in zip(tokens, flat[before:], strict=True)
                for column in (self.several[token] if value == _SEVERAL else (value,))
            ]
            flat[before:] = expanded

    def counts(self, texts: Sequence[str]) -> sp.csr_matrix:
        """Raw term counts of ``texts`` (rows) over the current columns, duplicates summed."""
        flat: list[int] = []
        lengths = np.empty(len(texts), dtype=np.int64)
        for row, text in enumerate(texts):
            before = len(flat)
            self._row_columns(self.rule.tokens(text), flat)
            lengths[row] = len(flat) - before
        columns_array = np.fromiter(flat, dtype=np.int64, count=len(flat))
        del flat
        rows = np.repeat(np.arange(len(texts)), lengths)
        keep = columns_array >= 0
        columns_array, rows = columns_array[keep], rows[keep]
        indptr = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=len(texts)), out=indptr[1:])
        matrix = sp.csr_matrix(
            (np.ones(len(columns_array), dtype=np.float64), columns_array, indptr),
            shape=(len(texts), max(len(self.columns), 1)),
        )
        matrix.sum_duplicates()
        return matrix


def document_frequencies(
    texts: Iterable[str],
    *,
    chunk_size: int = 5000,
    rule: TermRule = PAPER_TERMS,
) -> tuple[list[str], np.ndarray, np.ndarray, int]:
    """Count in one pass over ``texts`` each term's documents and occurrences.

    Parameters
    ----------
    texts : iterable of str
        The documents.
    chunk_size : int, default 5000
        Documents read at a time.
    rule : TermRule, default PAPER_TERMS
        How texts become terms.

    Returns
    -------
    terms : list of str
        The terms.
    document_frequencies : numpy.ndarray
        Documents holding each term.
    term_frequencies : numpy.ndarray
        Total occurrences of each term.
    n_documents : int
        The documents read.
    """
    columns: dict[str, int] = {}
    indexer = _TokenColumns(columns, grow=True, rule=rule)
    df = np.zeros(0, dtype=np.int64)
    cf = np.zeros(0, dtype=np.int64)
    n_documents = 0
    for chunk in chunked(texts, chunk_size):
        counts = indexer.counts(chunk)
        n_documents += len(chunk)
        size = len(columns)
        if size > len(df):
            df = np.concatenate([df, np.zeros(size - len(df), dtype=np.int64)])
            cf = np.concatenate([cf, np.zeros(size - len(cf), dtype=np.int64)])
        df += np.bincount(counts.indices, minlength=size)[:size]
        cf += np.bincount(counts.indices, weights=counts.data, minlength=size)[:size].astype(np.int64)
    terms = [""] * len(columns)
    for term, column in columns.items():
        terms[column] = term
    return terms, df[: len(terms)], cf[: len(terms)], n_documents


@dataclass(frozen=True)
class TermCounts:
    """Raw term counts of documents held in memory, under one term rule.

    Parameters
    ----------
    terms : tuple of str
        The terms, in first-seen order.
    matrix : scipy.sparse.csr_matrix
        ``matrix[i, j]`` is how often ``terms[j]`` occurs in document ``i`` (canonical CSR, float counts).
    """

    terms: tuple[str, ...]
    matrix: sp.csr_matrix

    @classmethod
    def of(cls, texts: Iterable[str], *, rule: TermRule = PAPER_TERMS, chunk_size: int = 5000) -> TermCounts:
        """Count the terms of ``texts`` (one pass, chunk by chunk, as :func:`document_frequencies`).

        Parameters
        ----------
        texts : iterable of str
            The documents' texts.
        rule : TermRule, default PAPER_TERMS
            How a text becomes terms (:class:`~irrepro.routing.preprocess.TermRule`).
        chunk_size : int, default 5000
            Documents read at a time.

        Returns
        -------
        TermCounts
            The counts, one row per text.

        Examples
        --------
        >>> counts = TermCounts.of(["oil prices rose", "oil oil fell"])
        >>> counts.terms, counts.matrix.toarray().tolist()
        (('oil', 'price', 'rose', 'fell'), [[1.0, 1.0, 1.0, 0.0], [2.0, 0.0, 0.0, 1.0]])
        """
        columns: dict[str, int] = {}
        indexer = _TokenColumns(columns, grow=True, rule=rule)
        parts = [indexer.counts(chunk) for chunk in chunked(texts, chunk_size)]
        width = max(len(columns), 1)
        parts = [sp.csr_matrix((m.data, m.indices, m.indptr), shape=(m.shape[0], width)) for m in parts]
        matrix = sp.vstack(parts, format="csr") if parts else sp.csr_matrix((0, width))
        terms = [""] * len(columns)
        for term, column in columns.items():
            terms[column] = term
        return cls(tuple(terms), matrix)

    def frequencies(self) -> tuple[np.ndarray, np.ndarray]:
        """Count the documents and the occurrences of every term (column).

        Returns
        -------
        df : numpy.ndarray
            Document frequency of each term, int64.
        cf : numpy.ndarray
            Total frequency of each term, int64.
        """
        size = len(self.terms)
        df = np.bincount(self.matrix.indices, minlength=size)[:size].astype(np.int64)
        cf = np.bincount(self.matrix.indices, weights=self.matrix.data, minlength=size)[:size].astype(np.int64)
        return df, cf


def _bound(value: float | int, n_documents: int, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a share (float in [0, 1]) or a count (int), not {value!r}")
    if isinstance(value, (float, np.floating)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} as a share must lie in [0, 1], not {value}")
        return value * n_documents
    if value < 0:
        raise ValueError(f"{name} as a count must be >= 0, not {value}")
    return float(value)


@dataclass
class TfidfModel:
    """A fitted tf-idf weighting: ``terms[j]`` is column ``j`` with inverse document frequency ``idf[j]``.

    Parameters
    ----------
    terms : list of str
        The vocabulary.
    idf : numpy.ndarray
        The inverse document frequencies.
    n_documents : int
        The documents fitted on.
    preprocess : bool, default True
        Part of the fit's :class:`TermRule`, which :meth:`transform` applies too.
    tokenizer : str, default "ascii-hyphen"
        Part of the fit's :class:`TermRule`.
    min_length : int, default 1
        Part of the fit's :class:`TermRule`: the shortest term kept.
    sublinear_tf : bool, default True
        ``1 + ln tf`` or raw ``tf``.
    """

    terms: list[str]
    idf: np.ndarray
    n_documents: int
    preprocess: bool = True
    tokenizer: str = "ascii-hyphen"
    min_length: int = 1
    sublinear_tf: bool = True

    def __post_init__(self):
        self._indexer = _TokenColumns(
            {term: column for column, term in enumerate(self.terms)}, grow=False, rule=self.rule
        )

    def __getstate__(self) -> dict:
        # the token memo (up to millions of entries) and the columns of counted corpora are caches of
        # this process: rebuilt, not sent
        return {name: value for name, value in self.__dict__.items() if name not in ("_indexer", "_count_columns")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    @property
    def rule(self) -> TermRule:
        """The :class:`TermRule` of the fit."""
        return TermRule(self.tokenizer, self.preprocess, self.min_length)

    @property
    def n_features(self) -> int:
        """The number of terms."""
        return len(self.terms)

    def transform(self, texts: Sequence[str]) -> sp.csr_matrix:
        """Weight ``texts``: their L2-normalised tf-idf rows (unknown terms are dropped).

        Parameters
        ----------
        texts : sequence of str
            The documents.

        Returns
        -------
        scipy.sparse.csr_matrix
            Documents x terms.
        """
        matrix = self._indexer.counts(list(texts))
        return self._weighted(sp.csr_matrix((matrix.data, matrix.indices, matrix.indptr),
                                            shape=(matrix.shape[0], self.n_features)))  # fmt: skip

    def transform_counts(self, counts: TermCounts, rows: np.ndarray | None = None) -> sp.csr_matrix:
        """Weight the documents counted in ``counts``: :meth:`transform`'s rows, read from the counts.

        Parameters
        ----------
        counts : TermCounts
            The documents' term counts, under this model's term rule.
        rows : numpy.ndarray, optional
            The documents (rows of ``counts``) to weight; default all.

        Returns
        -------
        scipy.sparse.csr_matrix
            Documents x terms, the same rows as :meth:`transform` of their texts.
        """
        matrix = counts.matrix if rows is None else counts.matrix[np.asarray(rows, dtype=np.int64)]
        columns = self._columns_of(counts)[matrix.indices]
        kept = columns >= 0
        document = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))[kept]
        indptr = np.zeros(matrix.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(document, minlength=matrix.shape[0]), out=indptr[1:])
        selected = sp.csr_matrix((matrix.data[kept], columns[kept], indptr), shape=(matrix.shape[0], self.n_features))
        selected.sort_indices()  # the texts' counts are canonical too (sum_duplicates sorts them)
        return self._weighted(selected)

    def _columns_of(self, counts: TermCounts) -> np.ndarray:
        """This model's column of each of ``counts``' terms (-1: not in the vocabulary), memoised."""
        memo = self.__dict__.setdefault("_count_columns", {})
        if id(counts) not in memo:
            column = self._indexer.columns
            memo[id(counts)] = (counts, np.array([column.get(term, -1) for term in counts.terms], dtype=np.int64))
        return memo[id(counts)][1]

    def _weighted(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        """tf weighting, idf and L2 normalisation of raw counts (in place)."""
        if self.sublinear_tf:
            np.log(counts.data, out=counts.data)
            counts.data += 1.0
        counts.data *= self.idf[counts.indices]
        return normalize(counts, norm="l2", copy=False)


def fit_tfidf(
    texts: Iterable[str],
    *,
    max_df: float | int = 1.0,
    min_df: float | int = 1,
    max_features: float | None = None,
    preprocess: bool = True,
    tokenizer: str = "ascii-hyphen",
    min_length: int = 1,
    sublinear_tf: bool = True,
    chunk_size: int = 5000,
) -> TfidfModel:
    """Fit the vocabulary and idf on ``texts`` (one streaming pass).

    Parameters
    ----------
    texts : iterable of str
        The fitting corpus (training, or training followed by target for feature augmentation).
    max_df : float or int, default 1.0
        Drop terms in more than ``max_df`` documents (a float is a share of the documents).
    min_df : float or int, default 1
        Drop terms in fewer than ``min_df`` documents (a float is a share of the documents).
    max_features : float, optional
        Share of the pruned vocabulary to keep, by total term frequency; ``None`` keeps all.
    preprocess : bool, default True
        Stop words and Porter stems, or plain lowercase tokens (the
        :class:`~irrepro.routing.preprocess.TermRule`).
    tokenizer : str, default "ascii-hyphen"
        ``"ascii-hyphen"`` or the authors' ``"unicode-word"`` tokens.
    min_length : int, default 1
        The shortest term kept.
    sublinear_tf : bool, default True
        ``1 + ln tf`` (default) or raw term frequency.
    chunk_size : int, default 5000
        Documents read at a time.

    Returns
    -------
    TfidfModel
        The fitted weighting.

    Raises
    ------
    ValueError
        For an empty corpus, ``max_df`` below ``min_df``, or no term left after pruning.

    Examples
    --------
    >>> model = fit_tfidf(["oil prices rose", "oil output fell", "gold rose"])
    >>> model.terms
    ['fell', 'gold', 'oil', 'output', 'price', 'rose']
    >>> model.transform(["oil oil gold"]).shape
    (1, 6)
    >>> fit_tfidf(["the oil prices rose", "oil output fell"], preprocess=False).terms
    ['fell', 'oil', 'output', 'prices', 'rose', 'the']
    """
    rule = TermRule(tokenizer, preprocess, min_length)
    terms, df, cf, n_documents = document_frequencies(texts, chunk_size=chunk_size, rule=rule)
    return _model(terms, df, cf, n_documents, rule, max_df=max_df, min_df=min_df, max_features=max_features,
                  sublinear_tf=sublinear_tf)  # fmt: skip


def fit_tfidf_counts(
    counts: Sequence[TermCounts],
    *,
    max_df: float | int = 1.0,
    min_df: float | int = 1,
    max_features: float | None = None,
    preprocess: bool = True,
    tokenizer: str = "ascii-hyphen",
    min_length: int = 1,
    sublinear_tf: bool = True,
) -> TfidfModel:
    """Fit :func:`fit_tfidf`'s model on documents counted already: the same model as on their texts.

    Parameters
    ----------
    counts : sequence of TermCounts
        The fitting corpus' counts, each under the term rule given here.
    max_df : float or int, default 1.0
        Drop terms in more than ``max_df`` documents (a float is a share of the documents).
    min_df : float or int, default 1
        Drop terms in fewer than ``min_df`` documents (a float is a share of the documents).
    max_features : float, optional
        Share of the pruned vocabulary to keep, by total term frequency; ``None`` keeps all.
    preprocess : bool, default True
        Stop words and Porter stems, or plain lowercase tokens.
    tokenizer : str, default "ascii-hyphen"
        ``"ascii-hyphen"`` or the authors' ``"unicode-word"`` tokens.
    min_length : int, default 1
        The shortest term kept.
    sublinear_tf : bool, default True
        ``1 + ln tf`` (default) or raw term frequency.

    Returns
    -------
    TfidfModel
        The fitted weighting.

    Examples
    --------
    >>> texts = ["oil prices rose", "oil output fell", "gold rose"]
    >>> fit_tfidf_counts([TermCounts.of(texts[:2]), TermCounts.of(texts[2:])]).terms == fit_tfidf(texts).terms
    True
    """
    terms, df, cf, n_documents, rank = _union(counts)
    rule = TermRule(tokenizer, preprocess, min_length)
    return _model(terms, df, cf, n_documents, rule, max_df=max_df, min_df=min_df, max_features=max_features,
                  sublinear_tf=sublinear_tf, rank=rank)  # fmt: skip


_UNIONS: OrderedDict = OrderedDict()  # ids of counted parts -> (the parts, so that their ids stay theirs; union)


def _union(counts: Sequence[TermCounts]) -> tuple[list[str], np.ndarray, np.ndarray, int, np.ndarray]:
    """The terms of ``counts`` in first-seen order, their document and total frequencies, the
    documents, and each term's rank in string order; once per process for the same parts (the runs
    of one training set differ in ``max_df`` and ``max_features``, which act after this)."""
    key = tuple(id(part) for part in counts)
    if key not in _UNIONS:
        union: dict[str, int] = {}
        for part in counts:
            for term in part.terms:
                union.setdefault(term, len(union))
        df = np.zeros(len(union), dtype=np.int64)
        cf = np.zeros(len(union), dtype=np.int64)
        for part in counts:
            columns = np.fromiter((union[term] for term in part.terms), dtype=np.int64, count=len(part.terms))
            part_df, part_cf = part.frequencies()
            df[columns] += part_df
            cf[columns] += part_cf
        terms = list(union)
        rank = np.empty(len(terms), dtype=np.int64)
        rank[sorted(range(len(terms)), key=terms.__getitem__)] = np.arange(len(terms))
        n_documents = sum(part.matrix.shape[0] for part in counts)
        _UNIONS[key] = (tuple(counts), (terms, df, cf, n_documents, rank))
        while len(_UNIONS) > 32:
            _UNIONS.popitem(last=False)
    _UNIONS.move_to_end(key)
    return _UNIONS[key][1]


def _model(terms: list[str], df: np.ndarray, cf: np.ndarray, n_documents: int, rule: TermRule, *,
           max_df: float | int, min_df: float | int, max_features: float | None, sublinear_tf: bool,
           rank: np.ndarray | None = None) -> TfidfModel:
    """The tf-idf model of a fitting corpus's term frequencies: pruned vocabulary in term order, idf.
    ``rank``: each term's place in string order, if known (the same model, without sorting strings)."""
    if n_documents == 0:
        raise ValueError("fit_tfidf: the fitting corpus holds no documents")
    high = _bound(max_df, n_documents, "max_df")
    low = _bound(min_df, n_documents, "min_df")
    if high < low:
        raise ValueError(f"max_df={max_df} corresponds to fewer documents than min_df={min_df}")
    kept = _pruned(terms, df, cf, high, low, max_features, rank)
    if len(kept) == 0:
        raise ValueError(
            f"fit_tfidf: no term left after pruning (max_df={max_df}, min_df={min_df}, "
            f"max_features={max_features}, {n_documents} documents)"
        )
    if rank is None:
        kept_terms = sorted(terms[column] for column in kept)
        df_by_term = {terms[column]: df[column] for column in kept}
        kept_df = np.array([df_by_term[term] for term in kept_terms], dtype=np.float64)
    else:  # each term once: its df is its column's
        kept = kept[np.argsort(rank[kept], kind="stable")]
        kept_terms, kept_df = [terms[column] for column in kept.tolist()], df[kept].astype(np.float64)
    idf = np.log((1.0 + n_documents) / (1.0 + kept_df)) + 1.0
    return TfidfModel(
        terms=kept_terms, idf=idf, n_documents=n_documents, preprocess=rule.preprocess, tokenizer=rule.tokenizer,
        min_length=rule.min_length, sublinear_tf=sublinear_tf,
    )


def _pruned(terms, df, cf, high: float, low: float, max_features: float | None, rank: np.ndarray | None = None) -> np.ndarray:
    """Columns with ``low <= df <= high``, cut to the ``max_features`` share by total frequency
    (ties by term: by ``rank``, the terms' string order, where it is given)."""
    kept = np.flatnonzero((df <= high) & (df >= low))
    if max_features is not None:
        if not 0.0 < max_features <= 1.0:
            raise ValueError(f"max_features is a share of the vocabulary in (0, 1], not {max_features}")
        limit = int(max_features * len(kept))
        if limit < len(kept):
            # highest total term frequency first, ties by term
            if rank is None:
                order = sorted(kept.tolist(), key=lambda column: (-cf[column], terms[column]))
                kept = np.array(order[:limit], dtype=np.int64)
            else:
                kept = kept[np.lexsort((rank[kept], -cf[kept]))][:limit]
    return kept
