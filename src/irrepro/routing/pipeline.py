"""The routing runs WCrobust04 / WCrobust0405 end to end: fit tf-idf, train per topic, rank a target.

Grossman & Cormack's runs as replicated by Breuer & Schaer (CENTRE@CLEF 2019, Sec. 3):

1. tf-idf weights (:mod:`irrepro.routing.features`) fitted on the training corpus or corpora, or on
   their union with the target when ``augment=True`` ("feature augmentation", Sec. 4.2; the paper's
   final runs do not augment); the terms are Porter stems without stop words, or with
   ``preprocess=False`` the plain lowercase tokens (the paper's runs "without our preprocessing",
   Sec. 4.3, Table 4);
2. for every topic judged in the target and in a training corpus (:mod:`irrepro.routing.topics`), a
   logistic regression trained on the judged documents of the training corpora that judge the topic
   (:mod:`irrepro.routing.classifier`): WCrobust04 trains on Robust04, WCrobust0405 on Robust04 and
   Robust05 together where both judge the topic and on the one available otherwise;
3. every target document scored for all topics at once, chunk by chunk, and the best ``k = 10,000``
   per topic kept (:mod:`irrepro.routing.ranking`).

Every choice along the way -- term rule, tf weighting, solver and its tolerance, topic set, tie
rule, repeated ids -- is set by one ``implementation`` (:mod:`irrepro.routing.implementations`):
``"paper"`` (default), ``"clef2019"`` or ``"sigir2020"``; a keyword given to :func:`route` overrides
that implementation's value. (The implementation's text rule acts earlier, in the corpus readers.)

Corpora are re-iterable collections of documents (objects with ``doc_id`` and ``text``): a list, or a
:class:`Corpus` that re-reads files on each pass. The training corpora are read twice (fit, judged
rows), the target once (twice with augmentation), each once more where repeated ids are collapsed;
none is ever held in memory as a whole.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp
from tqdm import tqdm

from irrepro.routing import implementations
from irrepro.routing.classifier import TopicModels, train_topic_models
from irrepro.routing.constellations import TRAINING_COLLECTIONS, Constellation
from irrepro.routing.features import TermCounts, TfidfModel, chunked, fit_tfidf, fit_tfidf_counts
from irrepro.routing.implementations import Implementation
from irrepro.routing.preprocess import TermRule
from irrepro.routing.ranking import TopK
from irrepro.routing.topics import routable_topics, training_sources

__all__ = [
    "Corpus", "Collection", "RoutingResult", "RunSettings", "Features", "TRAINING_COLLECTIONS", "PACKAGES", "route",
    "prepare_features", "retarget_features", "train_models", "rank_features", "run_system", "default_run_tag",
    "last_occurrences", "describe_collection",
]

#: The libraries whose versions can change a run (tokens, stems, tf-idf, the solvers): a run's
#: ir_metadata header names their versions (:mod:`irrepro.routing.headers`).
PACKAGES: tuple[str, ...] = ("numpy", "scipy", "pandas", "scikit-learn", "nltk")


class Corpus:
    """A re-iterable corpus: ``open()`` returns a fresh iterator of documents on every pass.

    Parameters
    ----------
    open : callable
        Returns a fresh iterator of documents.
    size : int, optional
        The number of documents, for the progress bar (and ``len``).
    name : str, default "corpus"
        What messages call it.
    """

    def __init__(self, open: Callable[[], Iterable], *, size: int | None = None, name: str = "corpus"):
        self._open = open
        self.size = size
        self.name = name

    def __iter__(self) -> Iterator:
        return iter(self._open())

    def __len__(self) -> int:
        if self.size is None:
            raise TypeError(f"the size of corpus {self.name!r} is not known")
        return self.size


@dataclass
class Collection:
    """A corpus with its relevance judgments (qrels frame: query_id, iteration, doc_id, relevance).

    Documents held in memory (a sequence, as the stand-in's) are tokenised once per term rule
    (:meth:`term_counts`); a corpus read from files is read again by every run.

    Parameters
    ----------
    name : str
        The collection's name.
    documents : iterable
        The documents (a :class:`Corpus` to read them more than once).
    qrels : pandas.DataFrame, optional
        The judgments.
    about : dict, optional
        What the corpus is, in the fields of ir_metadata's ``data → test collection`` (``source``,
        ``ir_datasets``, ...), for the header of every run made from it.
    """

    name: str
    documents: Iterable
    qrels: pd.DataFrame | None = None
    about: dict = field(default_factory=dict)
    _counts: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _digests: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def term_counts(self, rule: TermRule) -> TermCounts | None:
        """Count the documents' terms under ``rule``, once.

        The counts belong to the sequence object they were counted from; a sequence changed in place
        must not be reused.

        Parameters
        ----------
        rule : TermRule
            How a text becomes terms.

        Returns
        -------
        TermCounts or None
            The raw term counts (:class:`~irrepro.routing.features.TermCounts`), or ``None`` when the
            documents are not held in memory (a corpus read from files).
        """
        documents = self.documents
        if not isinstance(documents, Sequence):
            return None
        key = (rule, id(documents), len(documents))
        if key not in self._counts:
            self._counts[key] = (documents, TermCounts.of((d.text for d in documents), rule=rule))
        return self._counts[key][1]

    def judgments(self) -> dict[str, str]:
        """Describe the qrels as :func:`describe_collection` does, once per qrels frame.

        Every run's header names them; a frame changed in place must not be reused.

        Returns
        -------
        dict of str -> str
            ``qrels`` (the number of judgments and topics) and ``qrels sha256``
            (:func:`irrepro.runs.qrels_sha256`); empty without qrels.
        """
        if self.qrels is None:
            return {}
        from irrepro.runs import qrels_sha256

        key = (id(self.qrels), len(self.qrels))
        if key not in self._digests:
            qrels = self.qrels
            said = {"qrels": f"{len(qrels)} judgments of {qrels['query_id'].nunique()} topics", "qrels sha256": qrels_sha256(qrels)}
            self._digests[key] = (qrels, said)
        return dict(self._digests[key][1])

    def __getstate__(self) -> dict:  # counts and digests are a cache of this process: not sent to workers
        return {**self.__dict__, "_counts": {}, "_digests": {}}


def describe_collection(collection: Collection) -> dict:
    """Describe a collection for a run's records and header.

    Parameters
    ----------
    collection : Collection
        The collection.

    Returns
    -------
    dict
        ``name``, the fields of ``about``, and the judgments: their number and the sha256 of their
        TREC text in sorted order (:func:`irrepro.runs.qrels_sha256`), which identifies the
        judgments whatever the order or spacing of the file they came from
        (:meth:`Collection.judgments`, computed once per qrels frame).
    """
    return {"name": collection.name, **collection.about, **collection.judgments()}


@dataclass
class RoutingResult:
    """The run and what happened on the way (nothing is dropped silently).

    Parameters
    ----------
    run : pandas.DataFrame
        query_id, doc_id, score, rank, run.
    topics : list of str
        The topics ranked.
    sources : dict of str -> list of str
        Topic -> training corpora used.
    skipped : dict of str -> str
        Topic -> why no classifier could be trained.
    not_converged : list of str
        Topics whose solver stopped at max_iter.
    training_sizes : dict of str -> (int, int)
        Topic -> (relevant, non-relevant) training documents.
    missing_judged : dict of str -> int
        Training corpus -> judged documents not found in it.
    n_features : int
        The tf-idf vocabulary's size.
    n_target_documents : int
        The documents ranked.
    parameters : dict, optional
        The run's settings (:meth:`RunSettings.parameters`).
    iterations : dict of str -> int, optional
        Topic -> solver iterations of its classifier.
    collapsed : dict of str -> int, optional
        Corpus -> documents dropped for a repeated id.
    inputs : dict, optional
        ``"training"``: [described collections], ``"target"``: described.
    platform : dict, optional
        The ir_metadata Platform of the process that made it, if known.
    """

    run: pd.DataFrame  # query_id, doc_id, score, rank, run
    topics: list[str]  # topics ranked
    sources: dict[str, list[str]]  # topic -> training corpora used
    skipped: dict[str, str]  # topic -> why no classifier could be trained
    not_converged: list[str]  # topics whose solver stopped at max_iter
    training_sizes: dict[str, tuple[int, int]]  # topic -> (relevant, non-relevant) training documents
    missing_judged: dict[str, int]  # training corpus -> judged documents not found in it
    n_features: int
    n_target_documents: int
    parameters: dict = field(default_factory=dict)
    iterations: dict[str, int] = field(default_factory=dict)  # topic -> solver iterations of its classifier
    collapsed: dict[str, int] = field(default_factory=dict)  # corpus -> documents dropped for a repeated id
    inputs: dict = field(default_factory=dict)  # "training": [described collections], "target": described
    platform: dict = field(default_factory=dict)  # the ir_metadata Platform of the process that made it, if known


def _check_reiterable(documents: Iterable, name: str) -> None:
    if isinstance(documents, (Corpus, Sequence)):
        return
    if iter(documents) is documents:
        raise ValueError(
            f"corpus {name!r} is a one-shot iterator; pass a list or a Corpus(lambda: read_corpus(...)) "
            "so that it can be read more than once"
        )


def _size(documents) -> int | None:
    try:
        return len(documents)
    except TypeError:
        return None


def _progress(items, description: str, total: int | None, progress: bool):
    return tqdm(items, desc=description, unit="doc", total=total, disable=not progress, file=sys.stderr)


def last_occurrences(collection: Collection) -> tuple[Collection, int]:
    """Keep, of documents sharing an id, only the last one read (the authors' code keeps one file per id).

    A first pass finds the repeated ids; the corpus stays re-iterable, and ``len`` of the result is
    the number of documents kept.

    Parameters
    ----------
    collection : Collection
        The collection.

    Returns
    -------
    collection : Collection
        The collection without the earlier copies.
    dropped : int
        The number of documents dropped.

    Examples
    --------
    >>> from types import SimpleNamespace as D
    >>> kept, dropped = last_occurrences(Collection("c", [D(doc_id="a", text="1"), D(doc_id="b", text="2"),
    ...                                                  D(doc_id="a", text="3")]))
    >>> [d.text for d in kept.documents], dropped
    (['2', '3'], 1)
    """
    documents = collection.documents
    later: dict[str, int] = {}  # repeated id -> position of its last occurrence
    seen: set[str] = set()
    total = 0
    for position, document in enumerate(documents):
        if document.doc_id in seen:
            later[document.doc_id] = position
        seen.add(document.doc_id)
        total += 1
    n_documents = len(seen)
    del seen
    if not later:  # nothing repeats: the collection as it is (held documents keep their term counts)
        return collection, 0

    def kept():
        for position, document in enumerate(documents):
            if later.get(document.doc_id, position) == position:
                yield document

    corpus = Corpus(kept, size=n_documents, name=collection.name)
    return Collection(collection.name, corpus, collection.qrels), total - n_documents


@dataclass(frozen=True)
class RunSettings:
    """The choices of one run: the implementation's, with the caller's overrides.

    Parameters
    ----------
    implementation : Implementation
        The implementation.
    constellation : Constellation
        tf-idf and classifier parameters.
    augment : bool
        tf-idf fitted on training ∪ target.
    min_df : int or float
        Terms in fewer documents are dropped.
    preprocess : bool
        Stop words removed and Porter stems.
    tol_scale : str
        ``"mean"`` or ``"sum"``.
    k : int
        Documents ranked per topic.
    """

    implementation: Implementation
    constellation: Constellation
    augment: bool
    min_df: int | float
    preprocess: bool
    tol_scale: str
    k: int

    @classmethod
    def resolve(cls, implementation, **overrides) -> RunSettings:
        """Give the settings of ``implementation``, with every override not None.

        Parameters
        ----------
        implementation : str or Implementation
            A name or an object.
        **overrides
            ``constellation``, ``augment``, ``min_df``, ``preprocess``, ``tol_scale``, ``k``; None keeps
            the implementation's.

        Returns
        -------
        RunSettings
            The settings.
        """
        implementation = implementations.get(implementation)
        chosen = {name: getattr(implementation, name) for name in ("constellation", "augment", "min_df", "preprocess")}
        chosen.update(tol_scale=implementation.tol_scale or "mean", k=implementation.depth)
        chosen.update({name: value for name, value in overrides.items() if value is not None})
        return cls(implementation, **chosen)

    @property
    def feature_key(self) -> tuple:
        """What steps 1 and 2 depend on: runs with equal keys (on the same corpora) share their features.

        Whatever their classifier (``C``, ``tol``, solver) and ranking choices.
        """
        c, i = self.constellation, self.implementation
        return (i.feature_choices(), c.max_df, c.max_features, self.min_df, self.augment, self.preprocess)

    @property
    def classifier_key(self) -> tuple:
        """What step 2c adds to the features: runs with equal feature and classifier keys have the same classifiers."""
        return tuple(sorted(self.classifier_options().items()))

    def classifier_options(self) -> dict:
        """Give the keyword options of :func:`~irrepro.routing.classifier.train_topic_models`.

        Returns
        -------
        dict
            Option -> value.
        """
        return {
            "C": self.constellation.C, "tol": self.constellation.tol, "max_iter": self.implementation.max_iter,
            "tol_scale": self.tol_scale, "solver": self.implementation.solver,
        }

    def parameters(self) -> dict:
        """Give every setting as a flat dict, for the run's records and header.

        Returns
        -------
        dict
            Setting -> value.
        """
        c, i = self.constellation, self.implementation
        return {
            "constellation": c.name, "C": c.C, "tol": c.tol, "max_df": c.max_df, "max_features": c.max_features,
            "min_df": self.min_df, "augment": self.augment, "preprocess": self.preprocess, "k": self.k,
            "tol_scale": self.tol_scale, "implementation": i.name, "solver": i.solver, "sublinear_tf": i.sublinear_tf,
            "tokenizer": i.tokenizer, "min_term_length": i.min_term_length, "topic_rule": i.topics, "ties": i.ties,
        }


@dataclass
class Features:
    """Steps 1 and 2 of a run, which every run with the same :attr:`RunSettings.feature_key` shares.

    Parameters
    ----------
    model : TfidfModel
        The fitted tf-idf.
    topics : list of str
        The topics to route.
    sources : dict of str -> list of str
        Topic -> training corpora used.
    training : scipy.sparse.csr_matrix
        The rows of the judged training documents.
    examples : dict of str -> (numpy.ndarray, numpy.ndarray)
        Each topic's rows and grades in ``training``.
    missing_judged : dict of str -> int
        Training corpus -> judged documents not found in it.
    collapsed : dict of str -> int
        Corpus -> documents dropped for a repeated id.
    target_chunks : list of (list of str, scipy.sparse.csr_matrix), optional
        The target's tf-idf rows chunk by chunk (doc ids, matrix), when :func:`prepare_features` was
        asked to hold them.
    target : Collection, optional
        Otherwise the (collapsed) target collection that :func:`rank_features` streams again (``None``
        once the features were sent to another process: the receiver passes the target itself).
    seconds : float, default 0.0
        Wall time it took to prepare them.
    cpu_seconds : float, default 0.0
        CPU time of the thread that prepared them.
    inputs : dict, optional
        The collections, described (:func:`describe_collection`).
    """

    model: TfidfModel
    topics: list[str]
    sources: dict[str, list[str]]
    training: sp.csr_matrix
    examples: dict[str, tuple[np.ndarray, np.ndarray]]
    missing_judged: dict[str, int]
    collapsed: dict[str, int]
    target_chunks: list[tuple[list[str], sp.csr_matrix]] | None = None
    target: Collection | None = field(default=None, repr=False)
    seconds: float = 0.0  # wall time it took to prepare them
    cpu_seconds: float = 0.0  # CPU time of the thread that prepared them
    inputs: dict = field(default_factory=dict)  # the collections, described (describe_collection)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["target"] = None  # a streamed corpus may re-read files through a closure
        return state

    @property
    def nbytes(self) -> int:
        """Bytes of the matrices held (the training rows and, if held, the target's)."""
        matrices = [self.training] + [matrix for _, matrix in self.target_chunks or []]
        return sum(m.data.nbytes + m.indices.nbytes + m.indptr.nbytes for m in matrices)


def _routed_topics(training: Sequence[Collection], target: Collection, rule: str) -> list[str]:
    training_qrels = [c.qrels for c in training]
    judged = target.qrels if target.qrels is not None else pd.concat(training_qrels)
    topics = routable_topics(training_qrels, judged, rule=rule)
    if not topics:
        raise ValueError(f"route: no topic is judged both in {target.name!r} and in the training qrels")
    return topics


def _fit(training: Sequence[Collection], target: Collection, settings: RunSettings, progress: bool) -> TfidfModel:
    """Step 1: the tf-idf model on the training corpora (and the target with augmentation), from the
    corpora's term counts where they are held in memory, else from a pass over their texts."""
    implementation, constellation = settings.implementation, settings.constellation
    options = {
        "max_df": constellation.max_df, "min_df": settings.min_df, "max_features": constellation.max_features,
        "preprocess": settings.preprocess, "tokenizer": implementation.tokenizer,
        "min_length": implementation.min_term_length, "sublinear_tf": implementation.sublinear_tf,
    }
    fitting = [*training, target] if settings.augment else list(training)
    counts = [c.term_counts(implementation.term_rule(settings.preprocess)) for c in fitting]
    if all(part is not None for part in counts):
        return fit_tfidf_counts(counts, **options)
    texts = itertools.chain.from_iterable((d.text for d in c.documents) for c in fitting)
    fitting_size = sum(_size(c.documents) or 0 for c in fitting)
    return fit_tfidf(_progress(texts, "fit tf-idf", fitting_size or None, progress), **options)


def _judged_rows(
    training: Sequence[Collection], topics: list[str], model: TfidfModel, chunk_size: int, progress: bool
) -> tuple[sp.csr_matrix, dict[tuple[str, str], int], dict[str, int]]:
    """Step 2a: tf-idf rows of the judged training documents, their row per (corpus, id), and the
    number of judged documents not found per corpus."""
    rows_parts: list[sp.csr_matrix] = []
    row_of: dict[tuple[str, str], int] = {}
    missing: dict[str, int] = {}
    for collection in training:
        judged = collection.qrels.loc[collection.qrels["query_id"].astype(str).isin(topics), "doc_id"]
        wanted = set(pd.unique(judged.astype(str).to_numpy()))  # not element by element through pandas
        found = 0
        for doc_ids, rows in _judged_parts(collection, wanted, model, chunk_size, progress):
            for doc_id in doc_ids:
                if (collection.name, doc_id) in row_of:
                    raise ValueError(f"training corpus {collection.name!r} holds document {doc_id!r} twice")
                row_of[(collection.name, doc_id)] = len(row_of)
                found += 1
            rows_parts.append(rows)
        missing[collection.name] = len(wanted) - found
    features = sp.vstack(rows_parts, format="csr") if rows_parts else sp.csr_matrix((0, model.n_features))
    return features, row_of, missing


@dataclass(frozen=True)
class _HeldLayout:
    """Where the judged training documents of held collections are, whatever the tf-idf model: per
    collection the positions of its judged documents (corpus order), and :func:`_judged_rows`'
    ``missing`` and :func:`_examples`' examples, which depend on those positions only."""

    positions: tuple[np.ndarray, ...]
    missing: dict[str, int]
    examples: dict[str, tuple[np.ndarray, np.ndarray]]

    def rows(self, training: Sequence[Collection], model: TfidfModel) -> sp.csr_matrix:
        """The judged documents' tf-idf rows under ``model``: :func:`_judged_rows`' matrix."""
        parts = [model.transform_counts(collection.term_counts(model.rule), positions)
                 for collection, positions in zip(training, self.positions, strict=True) if len(positions)]  # fmt: skip
        return sp.vstack(parts, format="csr") if parts else sp.csr_matrix((0, model.n_features))


_LAYOUTS: OrderedDict = OrderedDict()  # (corpora, topics) -> (the corpora, so that their ids stay theirs; layout)


def _held_layout(training: Sequence[Collection], topics: list[str], sources: dict[str, list[str]]) -> _HeldLayout | None:
    """The :class:`_HeldLayout` of ``training`` (all held in memory, else ``None``) for ``topics``,
    made once per process for the same document and qrels objects: the runs of one training set that
    differ in their tf-idf options (``max_df``, ``max_features``), their target or their classifier
    share it."""
    if not all(isinstance(c.documents, Sequence) and c.qrels is not None for c in training):
        return None
    key = (tuple((c.name, id(c.documents), len(c.documents), id(c.qrels), len(c.qrels)) for c in training), tuple(topics))
    if key not in _LAYOUTS:
        positions, row_of, missing = [], {}, {}
        for collection in training:
            judged = collection.qrels.loc[collection.qrels["query_id"].astype(str).isin(topics), "doc_id"]
            wanted = set(pd.unique(judged.astype(str).to_numpy()))
            found = [position for position, d in enumerate(collection.documents) if d.doc_id in wanted]
            for position in found:
                doc_id = collection.documents[position].doc_id
                if (collection.name, doc_id) in row_of:
                    raise ValueError(f"training corpus {collection.name!r} holds document {doc_id!r} twice")
                row_of[(collection.name, doc_id)] = len(row_of)
            positions.append(np.asarray(found, dtype=np.int64))
            missing[collection.name] = len(wanted) - len(found)
        examples = _examples({c.name: c.qrels for c in training}, row_of, sources, topics)
        for rows, grades in examples.values():  # shared by every run of the training set: read only
            rows.flags.writeable = grades.flags.writeable = False
        _LAYOUTS[key] = ([(c.documents, c.qrels) for c in training], _HeldLayout(tuple(positions), missing, examples))
        while len(_LAYOUTS) > 16:
            _LAYOUTS.popitem(last=False)
    _LAYOUTS.move_to_end(key)
    return _LAYOUTS[key][1]


def _judged_parts(collection: Collection, wanted: set[str], model: TfidfModel, chunk_size: int,
                  progress: bool) -> Iterator[tuple[list[str], sp.csr_matrix]]:
    """The judged documents of ``collection`` in corpus order with their tf-idf rows, in parts: from
    the term counts where the documents are held, else chunk by chunk from their texts."""
    counts = collection.term_counts(model.rule)
    if counts is not None:
        positions = [position for position, d in enumerate(collection.documents) if d.doc_id in wanted]
        if positions:  # as the chunks of the texts: no part without a document
            yield [collection.documents[position].doc_id for position in positions], model.transform_counts(counts, positions)
        return
    documents = _progress(iter(collection.documents), f"judged rows {collection.name}", _size(collection.documents), progress)
    judged = ((d.doc_id, d.text) for d in documents if d.doc_id in wanted)
    for chunk in chunked(judged, chunk_size):
        yield [doc_id for doc_id, _ in chunk], model.transform([text for _, text in chunk])


def _examples(
    training_qrels: dict[str, pd.DataFrame], row_of: dict[tuple[str, str], int], sources: dict[str, list[str]],
    topics: list[str],
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Step 2b: per topic, the feature rows and grades of its judged documents in its training corpora."""
    judged_rows: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
    for name, qrels in training_qrels.items():
        rows_by_doc = pd.Series({doc_id: row for (corpus, doc_id), row in row_of.items() if corpus == name}, dtype="float64")
        located = pd.DataFrame(
            {
                "query_id": qrels["query_id"].astype(str).to_numpy(),
                "row": qrels["doc_id"].astype(str).map(rows_by_doc).to_numpy(),
                "relevance": qrels["relevance"].to_numpy(),
            }
        ).dropna(subset=["row"])
        judged_rows[name] = {
            topic: (group["row"].to_numpy(dtype=np.int64), group["relevance"].to_numpy(dtype=np.int64))
            for topic, group in located.groupby("query_id", sort=False)
        }
    examples: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for topic in topics:
        parts = [judged_rows[name][topic] for name in sources[topic] if topic in judged_rows[name]]
        examples[topic] = (
            np.concatenate([rows for rows, _ in parts]) if parts else np.zeros(0, dtype=np.int64),
            np.concatenate([grades for _, grades in parts]) if parts else np.zeros(0, dtype=np.int64),
        )
    return examples


def _target_chunks(target: Collection, model: TfidfModel, chunk_size: int, progress: bool) -> Iterator:
    """The target's tf-idf rows chunk by chunk: (doc ids, rows)."""
    counts = target.term_counts(model.rule)
    if counts is not None:  # held in memory: the rows from the term counts, in the same chunks
        documents = target.documents
        for start in range(0, len(documents), chunk_size):
            stop = min(start + chunk_size, len(documents))
            yield [d.doc_id for d in documents[start:stop]], model.transform_counts(counts, np.arange(start, stop))
        return
    documents = _progress(iter(target.documents), f"rank {target.name}", _size(target.documents), progress)
    for chunk in chunked(documents, chunk_size):
        yield [d.doc_id for d in chunk], model.transform([d.text for d in chunk])


def _rank(chunks: Iterable, models: TopicModels, settings: RunSettings) -> tuple[TopK, int]:
    """Step 3: score the target chunk by chunk and keep the top k per topic."""
    top = TopK(models.topics, k=settings.k, ties=settings.implementation.ties)
    n_target = 0
    for doc_ids, rows in chunks:
        top.update(models.probabilities(rows), doc_ids)
        n_target += len(doc_ids)
    return top, n_target


def _check_collections(training: Sequence[Collection], target: Collection) -> None:
    if not training:
        raise ValueError("route: give at least one training collection")
    for collection in (*training, target):
        _check_reiterable(collection.documents, collection.name)
        if collection is not target and collection.qrels is None:
            raise ValueError(f"route: training collection {collection.name!r} has no qrels")


def _collapse(training: Sequence[Collection], target: Collection) -> tuple[list[Collection], Collection, dict[str, int]]:
    """Keep the last of documents sharing an id in every corpus, and count what was dropped."""
    collapsed = [last_occurrences(c) for c in (*training, target)]
    dropped = {collection.name: count for collection, count in collapsed}
    corpora = [collection for collection, _ in collapsed]
    return corpora[:-1], corpora[-1], dropped


def prepare_features(
    training: Sequence[Collection],
    target: Collection,
    settings: RunSettings,
    *,
    topics: Sequence[str] | None = None,
    chunk_size: int = 10_000,
    progress: bool = False,
    hold_target: bool = False,
) -> Features:
    """Do steps 1 and 2 of :func:`route`: topics, tf-idf model, judged training rows.

    Shared by every run with the same ``settings.feature_key``.

    Parameters
    ----------
    training : sequence of Collection
        Collections with qrels, in priority order.
    target : Collection
        The collection to rank.
    settings : RunSettings
        The run's settings.
    topics : sequence of str, optional
        Route these topics only.
    chunk_size : int, default 10000
        Documents read at a time.
    progress : bool, default False
        Show progress bars.
    hold_target : bool, default False
        Also hold the target's tf-idf rows.

    Returns
    -------
    Features
        The prepared features.

    Raises
    ------
    ValueError
        If there is no topic to route.
    """
    _check_collections(training, target)
    inputs = {"training": [describe_collection(c) for c in training], "target": describe_collection(target)}
    dropped: dict[str, int] = {}
    if settings.implementation.repeated_ids == "last":
        training, target, dropped = _collapse(training, target)
    training_qrels = {c.name: c.qrels for c in training}
    if topics is None:
        topics = _routed_topics(training, target, settings.implementation.topics)
    topics = [str(t) for t in topics]
    if not topics:
        raise ValueError("route: no topic to route")
    sources = training_sources(training_qrels, topics)
    model = _fit(training, target, settings, progress)
    layout = _held_layout(training, topics, sources)
    if layout is None:
        rows, row_of, missing = _judged_rows(training, topics, model, chunk_size, progress)
        examples = _examples(training_qrels, row_of, sources, topics)
    else:  # documents held in memory: where the judged ones are is known from an earlier feature set
        rows, missing, examples = layout.rows(training, model), dict(layout.missing), dict(layout.examples)
    held = list(_target_chunks(target, model, chunk_size, progress)) if hold_target else None
    return Features(model, topics, sources, rows, examples, missing, dropped, held, None if hold_target else target,
                    inputs=inputs)


def retarget_features(
    features: Features,
    training: Sequence[Collection],
    target: Collection,
    settings: RunSettings,
    *,
    chunk_size: int = 10_000,
    progress: bool = False,
    hold_target: bool = False,
) -> Features | None:
    """Share prepared features with another target, where they can be shared.

    Steps 1 and 2 depend on the target only through the tf-idf fit of an augmented run and through
    the topics it routes (those judged in it). Without augmentation and with the same routed topics,
    the tf-idf model, the training rows and the examples are those of ``features``; only the target's
    rows are new, and classifiers trained on ``features`` (:func:`train_models`) rank this target too.

    Parameters
    ----------
    features : Features
        From :func:`prepare_features` on ``training`` with ``settings``.
    training : sequence of Collection
        The training collections ``features`` were prepared from.
    target : Collection
        The other collection to rank.
    settings : RunSettings
        The settings ``features`` were prepared with.
    chunk_size : int, default 10000
        Documents read at a time.
    progress : bool, default False
        Show progress bars.
    hold_target : bool, default False
        Also hold the target's tf-idf rows.

    Returns
    -------
    Features or None
        The features for ``target`` (the same model, training rows and examples), or ``None`` where
        they cannot be shared (an augmented run, other routed topics): prepare them afresh.
    """
    if settings.augment:
        return None
    _check_collections(training, target)
    inputs = {**features.inputs, "target": describe_collection(target)}
    dropped = 0
    if settings.implementation.repeated_ids == "last":
        target, dropped = last_occurrences(target)
    if [str(t) for t in _routed_topics(training, target, settings.implementation.topics)] != features.topics:
        return None
    collapsed = {}
    if settings.implementation.repeated_ids == "last":
        collapsed = {**{c.name: features.collapsed[c.name] for c in training}, target.name: dropped}
    held = list(_target_chunks(target, features.model, chunk_size, progress)) if hold_target else None
    return dataclasses.replace(features, collapsed=collapsed, target_chunks=held, target=None if hold_target else target,
                               seconds=0.0, cpu_seconds=0.0, inputs=inputs)  # fmt: skip


def train_models(features: Features, settings: RunSettings) -> TopicModels:
    """Do step 2c of :func:`route`: train the topics' classifiers on prepared ``features``.

    Parameters
    ----------
    features : Features
        From :func:`prepare_features`.
    settings : RunSettings
        The run's settings: the classifiers take their ``C``, ``tol`` and solver.

    Returns
    -------
    TopicModels
        The classifiers (:func:`~irrepro.routing.classifier.train_topic_models`).
    """
    return train_topic_models(features.training, features.examples, **settings.classifier_options())


def rank_features(
    features: Features,
    settings: RunSettings,
    *,
    target: Collection | None = None,
    run_tag: str = "routing",
    chunk_size: int = 10_000,
    progress: bool = False,
    models: TopicModels | None = None,
    categorical: bool = False,
) -> RoutingResult:
    """Do steps 2c and 3 of :func:`route` on prepared ``features``: train the classifiers, rank the target.

    The classifiers take the settings' ``C`` and ``tol``, unless ``models`` are given.

    Parameters
    ----------
    features : Features
        From :func:`prepare_features`.
    settings : RunSettings
        The run's settings.
    target : Collection, optional
        As given to :func:`prepare_features`; needed only when the features hold neither the
        target's rows nor the target.
    run_tag : str, default "routing"
        The run's tag.
    chunk_size : int, default 10000
        Documents read at a time.
    progress : bool, default False
        Show progress bars.
    models : TopicModels, optional
        The classifiers, trained already (:func:`train_models` of the same features and settings).
    categorical : bool, default False
        The run frame's ids as categories (:meth:`~irrepro.routing.ranking.TopK.frame`).

    Returns
    -------
    RoutingResult
        The run.

    Raises
    ------
    ValueError
        If the features hold no target and none is given.
    """
    if models is None:
        models = train_models(features, settings)
    if features.target_chunks is not None:
        chunks = features.target_chunks
    else:
        if features.target is None and target is None:
            raise ValueError("rank_features: the features hold no target; pass the target collection")
        if features.target is None and settings.implementation.repeated_ids == "last":
            target = last_occurrences(target)[0]
        chunks = _target_chunks(features.target or target, features.model, chunk_size, progress)
    top, n_target = _rank(chunks, models, settings)
    return RoutingResult(  # containers copied: runs may share their classifiers and features
        run=top.frame(run=run_tag, categorical=categorical), topics=list(models.topics), sources={t: features.sources[t] for t in models.topics},
        skipped=dict(models.skipped), not_converged=list(models.not_converged),
        training_sizes=dict(models.training_sizes), missing_judged=dict(features.missing_judged),
        n_features=features.model.n_features, n_target_documents=n_target, parameters=settings.parameters(),
        iterations=dict(models.iterations), collapsed=dict(features.collapsed), inputs=dict(features.inputs),
    )


def route(
    training: Sequence[Collection],
    target: Collection,
    *,
    implementation: str | Implementation = "paper",
    constellation: Constellation | None = None,
    augment: bool | None = None,
    min_df: float | int | None = None,
    preprocess: bool | None = None,
    tol_scale: str | None = None,
    topics: Sequence[str] | None = None,
    k: int | None = None,
    run_tag: str = "routing",
    chunk_size: int = 10_000,
    progress: bool = False,
    train: Callable[[Features, RunSettings], TopicModels] | None = None,
) -> RoutingResult:
    """Rank ``target`` for every routable topic with classifiers trained on ``training``.

    The same as :func:`prepare_features` followed by :func:`rank_features` (what the grid,
    :mod:`irrepro.routing.grid`, does with features shared between runs).

    Parameters
    ----------
    training : sequence of Collection
        Collections with qrels, in priority order (Robust04, then Robust05).
    target : Collection
        The collection to rank; its qrels (optional) restrict the topics to those judged in it.
    implementation : str or Implementation, default "paper"
        ``"paper"`` (default), ``"clef2019"``, ``"sigir2020"`` or an
        :class:`~irrepro.routing.implementations.Implementation`: every choice not given below, and
        the term rule, tf weighting, solver, topic rule, tie rule and repeated-id rule.
    constellation : Constellation, optional
        tf-idf and classifier parameters (a preset of :mod:`irrepro.routing.constellations`).
    augment : bool, optional
        Fit tf-idf on training ∪ target instead of training only.
    min_df : float or int, optional
        Drop terms in fewer documents.
    preprocess : bool, optional
        Stop words removed and Porter stems; ``False``: the term rule's plain tokens.
    tol_scale : {"mean", "sum"}, optional
        The loss whose gradient ``tol`` bounds for lbfgs (``"sum"`` as scikit-learn < 1.4, which the
        authors used; see :mod:`irrepro.routing.classifier`).
    topics : sequence of str, optional
        Route these topics only (default: the implementation's rule).
    k : int, optional
        Documents per topic.
    run_tag : str, default "routing"
        The run's tag.
    chunk_size : int, default 10000
        Documents read at a time.
    progress : bool, default False
        Show tqdm progress bars (stderr); off by default for notebooks.
    train : callable, optional
        Gives the classifiers of the prepared features and settings (default :func:`train_models`);
        e.g. :meth:`irrepro.routing.trainer.Trainer.train`, which hands out a training of equal
        content made before.

    Returns
    -------
    RoutingResult
        The run and what happened on the way.
    """
    settings = RunSettings.resolve(
        implementation, constellation=constellation, augment=augment, min_df=min_df, preprocess=preprocess,
        tol_scale=tol_scale, k=k,
    )
    features = prepare_features(training, target, settings, topics=topics, chunk_size=chunk_size, progress=progress)
    models = None if train is None else train(features, settings)
    return rank_features(features, settings, run_tag=run_tag, chunk_size=chunk_size, progress=progress, models=models)


def default_run_tag(system: str, **options) -> str:
    """Give the default tag of a run of ``system`` with ``options`` (those of :func:`route`).

    The system and preset, then ``_augmented``, ``_unprocessed``, the implementation unless
    ``paper``, and ``_tolsum`` / ``_tolmean`` where the tolerance's loss differs from the
    implementation's.

    Parameters
    ----------
    system : str
        The system.
    **options
        :func:`route`'s options.

    Returns
    -------
    str
        The tag.
    """
    implementation = implementations.get(options.get("implementation", "paper"))
    constellation = options.get("constellation") or implementation.constellation
    suffixes = "_augmented" if options.get("augment", implementation.augment) else ""
    suffixes += "" if options.get("preprocess", implementation.preprocess) in (True, None) else "_unprocessed"
    suffixes += "" if implementation.name == "paper" else f"_{implementation.name}"
    tol_scale = options.get("tol_scale") or implementation.tol_scale or "mean"
    if tol_scale != (implementation.tol_scale or "mean"):
        suffixes += f"_tol{tol_scale}"
    return f"{system.lower()}_{constellation.name}{suffixes}"


def run_system(
    system: str,
    collections: dict[str, Collection],
    target: Collection,
    **options,
) -> RoutingResult:
    """Run WCrobust04 or WCrobust0405.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The system.
    collections : dict of str -> Collection
        The training roles ("robust04", "robust05") -> collections.
    target : Collection
        The collection to rank.
    **options
        Go to :func:`route` (the run tag defaults to :func:`default_run_tag`).

    Returns
    -------
    RoutingResult
        The run.

    Raises
    ------
    ValueError
        For an unknown system, or a training collection it needs missing.
    """
    key = system.lower()
    if key not in TRAINING_COLLECTIONS:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(TRAINING_COLLECTIONS)}")
    missing = [role for role in TRAINING_COLLECTIONS[key] if role not in collections]
    if missing:
        raise ValueError(f"system {system} needs training collection(s) {', '.join(missing)}")
    options.setdefault("run_tag", default_run_tag(key, **options))
    return route([collections[role] for role in TRAINING_COLLECTIONS[key]], target, **options)
