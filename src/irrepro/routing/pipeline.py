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

Corpora are re-iterable collections of documents (objects with ``doc_id`` and ``text``): a list, or a
:class:`Corpus` that re-reads files on each pass. The training corpora are read twice (fit, judged
rows), the target once (twice with augmentation); none is ever held in memory as a whole.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp
from tqdm import tqdm

from irrepro.routing.classifier import train_topic_models
from irrepro.routing.constellations import DEFAULT, SYSTEMS, Constellation
from irrepro.routing.features import TfidfModel, chunked, fit_tfidf
from irrepro.routing.ranking import TopK
from irrepro.routing.topics import routable_topics, training_sources

__all__ = ["Corpus", "Collection", "RoutingResult", "SYSTEMS", "route", "run_system"]


class Corpus:
    """A re-iterable corpus: ``open()`` returns a fresh iterator of documents on every pass.

    ``size`` (optional) is the number of documents, for the progress bar.
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
    """A corpus with its relevance judgments (qrels frame: query_id, iteration, doc_id, relevance)."""

    name: str
    documents: Iterable
    qrels: pd.DataFrame | None = None


@dataclass
class RoutingResult:
    """The run and what happened on the way (nothing is dropped silently)."""

    run: pd.DataFrame  # query_id, doc_id, score, rank, run
    topics: list[str]  # topics ranked
    sources: dict[str, list[str]]  # topic -> training corpora used
    skipped: dict[str, str]  # topic -> why no classifier could be trained
    not_converged: list[str]  # topics whose lbfgs stopped at max_iter
    training_sizes: dict[str, tuple[int, int]]  # topic -> (relevant, non-relevant) training documents
    missing_judged: dict[str, int]  # training corpus -> judged documents not found in it
    n_features: int
    n_target_documents: int
    parameters: dict = field(default_factory=dict)
    iterations: dict[str, int] = field(default_factory=dict)  # topic -> lbfgs iterations of its classifier


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


def route(
    training: Sequence[Collection],
    target: Collection,
    *,
    constellation: Constellation = DEFAULT,
    augment: bool = False,
    min_df: float | int = 1,
    preprocess: bool = True,
    tol_scale: str = "mean",
    topics: Sequence[str] | None = None,
    k: int = 10_000,
    run_tag: str = "routing",
    chunk_size: int = 10_000,
    progress: bool = False,
) -> RoutingResult:
    """Rank ``target`` for every routable topic with classifiers trained on ``training``.

    Parameters
    ----------
    training : collections with qrels, in priority order (Robust04, then Robust05).
    target : the collection to rank; its qrels (optional) restrict the topics to those judged in it.
    constellation : tf-idf and classifier parameters (a preset of :mod:`irrepro.routing.constellations`).
    augment : fit tf-idf on training ∪ target instead of training only.
    preprocess : the paper's preprocessing (stop words removed, Porter stems); ``False``: plain
        lowercase tokens (:func:`irrepro.routing.preprocess.tokenize`) as terms.
    tol_scale : ``"mean"`` (scikit-learn >= 1.4) or ``"sum"``: the loss whose gradient the
        constellation's ``tol`` bounds (``"sum"`` as in scikit-learn < 1.4, which the authors used;
        see :mod:`irrepro.routing.classifier`).
    topics : route these topics only (default: judged in target and in a training corpus).
    k : documents kept per topic.
    progress : show tqdm progress bars (stderr); off by default for notebooks.
    """
    if not training:
        raise ValueError("route: give at least one training collection")
    for collection in (*training, target):
        _check_reiterable(collection.documents, collection.name)
        if collection is not target and collection.qrels is None:
            raise ValueError(f"route: training collection {collection.name!r} has no qrels")
    training_qrels = {c.name: c.qrels for c in training}
    if topics is None:
        if target.qrels is not None:
            topics = routable_topics(list(training_qrels.values()), target.qrels)
        else:
            topics = routable_topics(list(training_qrels.values()), pd.concat(training_qrels.values()))
    topics = [str(t) for t in topics]
    if not topics:
        raise ValueError(f"route: no topic is judged both in {target.name!r} and in the training qrels")
    sources = training_sources(training_qrels, topics)

    # 1. tf-idf weights
    texts = itertools.chain.from_iterable((d.text for d in c.documents) for c in training)
    if augment:
        texts = itertools.chain(texts, (d.text for d in target.documents))
    fitting_size = sum(_size(c.documents) or 0 for c in training) + (_size(target.documents) or 0 if augment else 0)
    texts = tqdm(texts, desc="fit tf-idf", unit="doc", total=fitting_size or None, disable=not progress, file=sys.stderr)
    model = fit_tfidf(
        texts, max_df=constellation.max_df, min_df=min_df, max_features=constellation.max_features,
        preprocess=preprocess,
    )

    # 2. rows of the judged training documents, classifiers
    rows_parts: list[sp.csr_matrix] = []
    row_of: dict[tuple[str, str], int] = {}
    missing: dict[str, int] = {}
    for collection in training:
        wanted = set(collection.qrels.loc[collection.qrels["query_id"].astype(str).isin(topics), "doc_id"].astype(str))
        documents = tqdm(
            iter(collection.documents), desc=f"judged rows {collection.name}", unit="doc",
            total=_size(collection.documents), disable=not progress, file=sys.stderr,
        )
        judged = ((d.doc_id, d.text) for d in documents if d.doc_id in wanted)
        found = 0
        for chunk in chunked(judged, chunk_size):
            for doc_id, _ in chunk:
                if (collection.name, doc_id) not in row_of:
                    row_of[(collection.name, doc_id)] = len(row_of)
                    found += 1
                else:
                    raise ValueError(f"training corpus {collection.name!r} holds document {doc_id!r} twice")
            rows_parts.append(model.transform([text for _, text in chunk]))
        missing[collection.name] = len(wanted) - found
    features = sp.vstack(rows_parts, format="csr") if rows_parts else sp.csr_matrix((0, model.n_features))
    # per corpus and topic: the feature rows of the judged documents found, and their grades
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
    models = train_topic_models(features, examples, C=constellation.C, tol=constellation.tol, tol_scale=tol_scale)

    # 3. score the target chunk by chunk, keep the top k
    top = TopK(models.topics, k=k)
    n_target = 0
    documents = tqdm(
        iter(target.documents), desc=f"rank {target.name}", unit="doc", total=_size(target.documents),
        disable=not progress, file=sys.stderr,
    )
    for chunk in chunked(documents, chunk_size):
        scores = models.probabilities(model.transform([d.text for d in chunk]))
        top.update(scores, [d.doc_id for d in chunk])
        n_target += len(chunk)
    return RoutingResult(
        run=top.frame(run=run_tag),
        topics=models.topics,
        sources={t: sources[t] for t in models.topics},
        skipped=models.skipped,
        not_converged=models.not_converged,
        training_sizes=models.training_sizes,
        missing_judged=missing,
        n_features=model.n_features,
        n_target_documents=n_target,
        parameters={
            "constellation": constellation.name, "C": constellation.C, "tol": constellation.tol,
            "max_df": constellation.max_df, "max_features": constellation.max_features,
            "min_df": min_df, "augment": augment, "preprocess": preprocess, "k": k, "tol_scale": tol_scale,
        },
        iterations=models.iterations,
    )


def run_system(
    system: str,
    collections: dict[str, Collection],
    target: Collection,
    **options,
) -> RoutingResult:
    """Run WCrobust04 or WCrobust0405: ``collections`` maps the training roles ("robust04", "robust05")
    to collections; ``options`` go to :func:`route` (the run tag defaults to the system and preset,
    with ``_augmented``, ``_unprocessed`` and ``_tolsum`` for feature augmentation, ``preprocess=False``
    and ``tol_scale="sum"``)."""
    key = system.lower()
    if key not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    missing = [role for role in SYSTEMS[key] if role not in collections]
    if missing:
        raise ValueError(f"system {system} needs training collection(s) {', '.join(missing)}")
    constellation = options.get("constellation", DEFAULT)
    suffixes = ("_augmented" if options.get("augment") else "") + ("" if options.get("preprocess", True) else "_unprocessed")
    suffixes += "_tolsum" if options.get("tol_scale", "mean") == "sum" else ""
    options.setdefault("run_tag", f"{key}_{constellation.name}{suffixes}")
    return route([collections[role] for role in SYSTEMS[key]], target, **options)
