"""The ir_metadata header of a routing run: its six PRIMAD components, read from what made the run.

``irrepro routing run``, ``irrepro routing grid`` and the routing chapter write every run with the
header :func:`run_header` builds (:mod:`irrepro.metadata`, written by :func:`irrepro.runs.write_run`):

- **platform**: CPU, memory, operating system, Python, the versions of the libraries that can change
  a run (:data:`irrepro.routing.pipeline.PACKAGES`) and the BLAS libraries, of the process that made
  the run (:func:`irrepro.provenance.platform_metadata`);
- **research goal**: the measures ``irrepro routing run`` reports (``evaluation → reported
  measures``, trec_eval's names), and whatever the user gives (venue, publication, baseline);
- **implementation**: the program, irrepro's repository (if configured), commit and version, the
  implementation (``paper``, ``clef2019``, ``sigir2020``, or one with a switched choice) and the
  divergences from the CLEF paper it has, each with the authors' file and line
  (:mod:`irrepro.routing.implementations`);
- **method**: tokens, stop words, stems, document text, tf-idf, the logistic regression and its
  parameters, the topic rule and topics routed, the ranking depth and tie rule -- the values the run
  used (its :class:`~irrepro.routing.pipeline.RunSettings` and implementation), not retyped;
- **actor**: ``role: reproducer`` unless the user says who ran it;
- **data**: the target as ``test collection`` and the training corpora as ``training data``, each
  with its source and the sha256 of its judgments (:func:`irrepro.routing.pipeline.describe_collection`).

The header holds no time and no path, so a run made again on the same machine from the same commit
is the same file, byte for byte (``irrepro routing grid`` resumes by comparing sha256). Two runs
that differ only in their parameters differ only in ``method``: a parameter sweep, ``priMad``.
"""

from __future__ import annotations

from collections.abc import Mapping

from irrepro import metadata, provenance
from irrepro.measures import parse_measure
from irrepro.routing import implementations
from irrepro.routing.experiment import MEASURES
from irrepro.routing.implementations import Implementation
from irrepro.routing.pipeline import PACKAGES, RoutingResult, RunSettings

__all__ = ["PROGRAM", "DEFAULT_ACTOR", "run_header", "implementation_divergences", "method_component"]

#: The program that makes a routing run (``irrepro routing grid`` writes the same file).
PROGRAM = "irrepro routing run"
DEFAULT_ACTOR = {"role": "reproducer"}
_TIES = {
    "first": "of documents with equal scores at the depth cut, the one scored first is kept",
    "last": "of documents with equal scores at the depth cut, the one scored last is kept",
}


def _effective(implementation: Implementation, settings: RunSettings) -> dict:
    """The implementation's choices as the run made them (a ``--tol-scale`` given overrides its own)."""
    choices = {name: getattr(implementation, name) for name in implementations.FIELDS}
    if implementation.solver != "liblinear":
        choices["tol_scale"] = settings.tol_scale
    return choices


def implementation_divergences(settings: RunSettings) -> list[dict]:
    """List the divergences of :data:`~irrepro.routing.implementations.DIVERGENCES` the run has.

    A switchable one where every choice of its switch is the run's, any other where its
    implementation is one the divergence names.

    Parameters
    ----------
    settings : RunSettings
        The run's settings.

    Returns
    -------
    list of dict
        Each: ``name``, ``code`` (what is done), ``source``.
    """
    implementation = settings.implementation
    choices = _effective(implementation, settings)
    found = []
    for row in implementations.DIVERGENCES:
        if row.switch is not None:
            has = all(choices[name] == value for name, value in row.switch.items())
        else:
            has = implementation.name in row.implementations
        if has:
            found.append({"name": row.name, "code": row.code, "source": row.source})
    return found


def _implementation(settings: RunSettings) -> dict:
    i = settings.implementation
    return {
        "executable": {"cmd": PROGRAM},
        "source": provenance.implementation_source(),
        "name": i.name,
        "divergences from the CLEF 2019 paper": implementation_divergences(settings),
    }


def method_component(settings: RunSettings, topics: list[str]) -> dict:
    """Describe the Method of a run made with ``settings`` that routed ``topics``.

    Parameters
    ----------
    settings : RunSettings
        The run's settings.
    topics : list of str
        The topics routed.

    Returns
    -------
    dict
        The ir_metadata Method fields.
    """
    i, c = settings.implementation, settings.constellation
    liblinear = i.solver == "liblinear"
    return {
        "automatic": True,
        "score ties": f"{_TIES[i.ties]}; the file lists ties in trec_eval's order (docno descending)",
        "indexing": {
            "tokenizer": i.tokenizer,
            "stemmer": i.stemmer if settings.preprocess else "none",
            "stopwords": i.stop_words if settings.preprocess else "none",
            "min term length": i.min_term_length,
            "document text": i.text,
            "empty documents": i.empty_documents,
            "repeated ids": i.repeated_ids,
        },
        "retrieval": [
            {"name": "tf-idf", "method": "irrepro.routing.features.fit_tfidf (the weights of scikit-learn's "
             "TfidfVectorizer, smooth idf, rows scaled to unit L2 norm)", "sublinear_tf": i.sublinear_tf,
             "min_df": settings.min_df, "max_df": c.max_df, "max_features": c.max_features,
             "fitted on": "training and target corpora" if settings.augment else "training corpora"},
            {"name": "logistic regression", "method": "sklearn.linear_model.LogisticRegression, one per topic",
             "solver": i.solver, "C": c.C, "tol": c.tol, "tol scale": None if liblinear else settings.tol_scale,
             "max_iter": i.max_iter, "topic rule": i.topics, "topics": list(topics)},
            {"name": "ranking", "method": "every target document scored by each topic's classifier, the best k "
             "kept", "reranks": "logistic regression", "k": settings.k},
        ],
        "constellation": c.name,
    }


def _data(result: RoutingResult) -> dict:
    inputs = result.inputs
    if not inputs:
        raise ValueError("run_header: the run does not say which collections made it (RoutingResult.inputs is empty)")
    return {"test collection": dict(inputs["target"]), "training data": [dict(c) for c in inputs["training"]]}


def _research_goal() -> dict:
    return {"evaluation": {"reported measures": [parse_measure(name).trec_eval for name in MEASURES]}}


def run_header(settings: RunSettings, result: RoutingResult, *, given: Mapping | None = None,
               tag: str | None = None) -> metadata.Metadata:
    """Write the ir_metadata header of the run ``result`` made with ``settings`` (see the module docstring).

    Parameters
    ----------
    settings : RunSettings
        The run's settings.
    result : RoutingResult
        The run.
    given : Mapping, optional
        Fields laid over the header (:func:`irrepro.metadata.merged`), e.g. ``{"actor": {"name":
        ...}, "research goal": {"venue": ...}}`` from ``--metadata FILE`` or ``--actor``.
    tag : str, optional
        The tag the run is written with, if not the run frame's.

    Returns
    -------
    Metadata
        The header.
    """
    if tag is None and len(result.run):
        tag = str(result.run["run"].iat[0])
    fields = {
        "schema-version": metadata.SCHEMA_VERSION,
        "run-version": 1.0,
        "tag": tag,
        "platform": result.platform or provenance.platform_metadata(PACKAGES),
        "research goal": _research_goal(),
        "implementation": _implementation(settings),
        "method": method_component(settings, result.topics),
        "actor": dict(DEFAULT_ACTOR),
        "data": _data(result),
    }
    if given:
        fields = metadata.merged(fields, given)
    if fields["tag"] is None:
        del fields["tag"]
    return metadata.as_metadata(fields, source="run_header")
