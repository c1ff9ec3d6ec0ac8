"""The score matrices the GLM chapter fits: where they come from and which runs and topics are left out.

Three collections, per-topic scores of real runs (fetched by registry name, :mod:`irrepro.data`):

- ``Robust04``, the paper's own collection: the 110 runs submitted to TREC 2004 Robust on its 249
  topics (AP, P@10).
- ``Core18``, the substitute for the paper's TREC 2018 Core: the per-topic scores of the Core 2018
  submissions are not public, so we use the SIGIR 2020 reproducibility matrices (25 Core 2018 topics,
  108 reproduced runs of WCrobust04 and WCrobust0405, including the 8 extra runs 51-58; AP, P@10, nDCG).
- ``Core17``, not in the paper: the SIGIR 2020 replicability matrices (50 Core 2017 topics; WCrobust04,
  WCrobust0405 and their 100 replications: 102 runs; AP, P@10, nDCG = trec_eval ``ndcg`` at 1000).

Outliers (:func:`outlier_systems`): runs with MAP < 0.01 (:data:`irrepro.glm.outliers.NEAR_ZERO_MAP`,
a threshold of this book, see :mod:`irrepro.papers.glm.prose`), removed for every measure of a
collection; a collection has a "without outliers" variant only when the rule removes a run. Topics or
runs whose scores are all 0 or all 1 on a measure are dropped for every link
(:func:`irrepro.glm.outliers.boundary_constant`), so that the deviances of all links are comparable.
"""

from __future__ import annotations

import pandas as pd

from irrepro.data import fetch
from irrepro.glm.outliers import NEAR_ZERO_MAP, boundary_constant, near_zero_systems
from irrepro.memo import cached
from irrepro.papers import datasets
from irrepro.papers.datasets import SYSTEMS, file_part
from irrepro.topic_order import sort_topics

__all__ = [
    "MEASURES",
    "SOURCES",
    "COLLECTIONS",
    "ROLES",
    "PAPER_COLLECTION",
    "registry_names",
    "measures_of",
    "load_scores",
    "outlier_systems",
    "boundary_dropped",
    "analysis_scores",
    "settings",
    "official_summary",
    "data_files",
    "data_used",
    "data_summary",
]

MEASURES = ("AP", "P@10", "nDCG")
#: Where each collection's per-topic scores come from (:mod:`irrepro.papers.datasets`).
SOURCES: dict[str, datasets.Dataset] = {
    "Robust04": datasets.TREC_SCORES_ROBUST04,
    "Core17": datasets.SIGIR2020_RPL,
    "Core18": datasets.SIGIR2020_RPD,
}
#: The collections of this chapter and what their scores are.
COLLECTIONS: dict[str, str] = {name: source.label for name, source in SOURCES.items()}
#: The collection whose submitted runs the paper used and this book has.
PAPER_COLLECTION = "Robust04"
#: What each collection is for the paper: its own collection, a substitute, or an addition.
ROLES: dict[str, str] = {
    "Robust04": "the paper's collection (its submitted runs)",
    "Core17": "not in the paper (replications of two runs)",
    "Core18": "substitute for the paper's Core 2018 submissions (reproductions of two runs)",
}
_RUNS = {
    "Robust04": "runs submitted to TREC 2004 Robust (anonymised)",
    "Core17": "WCrobust04, WCrobust0405 and their replications (SIGIR 2020)",
    "Core18": "reproductions of WCrobust04 and WCrobust0405 (SIGIR 2020)",
}


def registry_names(collection: str, measure: str) -> list[str]:
    """List the registry names of the files holding ``collection``'s per-topic ``measure`` scores.

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).

    Returns
    -------
    list of str
        Registry names.

    Raises
    ------
    ValueError
        For an unknown collection, or a measure it has no scores of.
    """
    if collection not in SOURCES:
        raise ValueError(f"unknown collection {collection!r}; choose one of {', '.join(COLLECTIONS)}")
    if measure not in measures_of(collection):
        raise ValueError(
            f"{collection} has no per-topic {measure!r} scores here; choose one of {', '.join(measures_of(collection))}"
        )
    source = SOURCES[collection]
    if collection == "Robust04":
        return [source.file(part=source.measures[measure])]
    return [source.file(system=system.lower(), part=file_part(measure)) for system in SYSTEMS]


def measures_of(collection: str) -> tuple[str, ...]:
    """Give the measures with per-topic scores for ``collection``.

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).

    Returns
    -------
    tuple of str
        The measures.
    """
    return tuple(SOURCES["Robust04"].measures) if collection == "Robust04" else MEASURES


@cached(maxsize=32)
def load_scores(collection: str, measure: str) -> pd.DataFrame:
    """Read the topics x runs matrix of per-topic scores.

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).

    Returns
    -------
    pandas.DataFrame
        Index: topic ids as strings, in the package's topic order; one column per run.

    Raises
    ------
    ValueError
        If the files disagree on topics, a run is duplicated, or a file's first column is not the
        topic.
    """
    frames = []
    names = registry_names(collection, measure)
    expected = SOURCES[collection].topic_columns
    for name in names:
        frame = pd.read_csv(fetch(name))
        topic_column = frame.columns[0]
        if topic_column not in expected:
            raise ValueError(f"{name}: expected the topic column {' or '.join(map(repr, expected))} first, found {topic_column!r}")
        frame[topic_column] = frame[topic_column].astype(str)
        frames.append(frame.set_index(topic_column).rename_axis("topic"))
    scores = pd.concat(frames, axis=1, join="outer")
    if scores.isna().any().any():
        raise ValueError(f"{collection} {measure}: the files {names} disagree on topics")
    if scores.columns.duplicated().any():
        raise ValueError(f"{collection} {measure}: duplicated run {scores.columns[scores.columns.duplicated()][0]!r}")
    return scores.loc[sort_topics(scores.index)].astype(float)


def outlier_systems(collection: str) -> list[str]:
    """Find the runs of ``collection`` with MAP below 0.01 (this book's outlier rule, see the module docstring).

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).

    Returns
    -------
    list of str
        The runs.
    """
    return near_zero_systems(load_scores(collection, "AP").mean())


@cached(maxsize=64)
def boundary_dropped(collection: str, measure: str, *, outliers_removed: bool = False) -> tuple[tuple, tuple]:
    """Find the topics and runs dropped from the matrix because all their scores are 0 or all are 1.

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).
    outliers_removed : bool, default False
        Leave out the outlier runs (MAP below 0.01).

    Returns
    -------
    topics : tuple
        The topics dropped.
    runs : tuple
        The runs dropped.
    """
    scores = load_scores(collection, measure)
    if outliers_removed:
        scores = scores.drop(columns=outlier_systems(collection))
    topics, systems = boundary_constant(scores)
    return tuple(topics), tuple(systems)


@cached(maxsize=32)
def analysis_scores(collection: str, measure: str, *, outliers_removed: bool = False) -> pd.DataFrame:
    """Give the matrix the GLMs are fitted to: outliers removed if asked, boundary-constant rows/columns dropped.

    Made once per setting (the chapter asks for one 400 times); every call returns a copy.

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).
    measure : str
        The measure (``"AP"``, ``"P@10"``, ``"nDCG"``).
    outliers_removed : bool, default False
        Leave out the outlier runs (MAP below 0.01).

    Returns
    -------
    pandas.DataFrame
        Topics x runs.
    """
    scores = load_scores(collection, measure)
    if outliers_removed:
        scores = scores.drop(columns=outlier_systems(collection))
    topics, systems = boundary_dropped(collection, measure, outliers_removed=outliers_removed)
    return scores.drop(index=list(topics), columns=list(systems))


def settings() -> list[tuple[str, str, bool]]:
    """List every (collection, measure, outliers_removed) the chapter fits, in the order of its tables.

    Returns
    -------
    list of (str, str, bool)
        The settings.
    """
    found = []
    for collection in COLLECTIONS:
        removals = (False, True) if outlier_systems(collection) else (False,)
        for removed in removals:
            found.extend((collection, measure, removed) for measure in measures_of(collection))
    return found


def official_summary(collection: str) -> pd.DataFrame:
    """Read NIST's official per-run means of the runs submitted to ``collection`` (Robust04, Core17, Core18).

    Parameters
    ----------
    collection : str
        The collection (:data:`COLLECTIONS`).

    Returns
    -------
    pandas.DataFrame
        One row per run.
    """
    name = datasets.NIST_SUMMARIES.file(collection=collection.lower())
    return pd.read_csv(fetch(name)).set_index("run")


def data_files() -> list[str]:
    """List the registry names of every file this chapter reads.

    Returns
    -------
    list of str
        Registry names.
    """
    names = [name for collection in COLLECTIONS for measure in measures_of(collection) for name in registry_names(collection, measure)]
    return [*names, datasets.NIST_SUMMARIES.file(collection="core18")]


def data_used() -> pd.DataFrame:
    """Describe exactly the data the GLM chapter uses, for the intro and the data table.

    Topics and runs are counted in the AP matrix, before any run or topic is dropped.

    Returns
    -------
    pandas.DataFrame
        One row per collection. Columns: ``collection``, ``role`` (the paper's collection, a
        substitute, or not in the paper), ``runs are``, ``topics``, ``runs``, ``measures``,
        ``source`` (the published data set) and ``files`` (registry names).
    """
    rows = []
    for collection, source in SOURCES.items():
        topics, runs = load_scores(collection, "AP").shape
        rows.append(
            {
                "collection": collection,
                "role": ROLES[collection],
                "runs are": _RUNS[collection],
                "topics": topics,
                "runs": runs,
                "measures": ", ".join(measures_of(collection)),
                "source": source.label,
                "files": " ".join(name for measure in measures_of(collection) for name in registry_names(collection, measure)),
            }
        )
    return pd.DataFrame(rows)


def data_summary() -> pd.DataFrame:
    """Count per collection and measure: topics, runs, share and count of zero scores, outliers, dropped topics/runs.

    Returns
    -------
    pandas.DataFrame
        One row per collection and measure.
    """
    rows = []
    for collection in COLLECTIONS:
        outliers = outlier_systems(collection)
        for measure in measures_of(collection):
            scores = load_scores(collection, measure)
            topics, systems = boundary_dropped(collection, measure)
            zeros = int((scores == 0).to_numpy().sum())
            rows.append(
                {
                    "collection": collection,
                    "measure": measure,
                    "topics": scores.shape[0],
                    "runs": scores.shape[1],
                    "zero_scores": zeros / scores.size,  # a share (the name the chapter reads)
                    "zero_count": zeros,
                    f"outliers (MAP < {NEAR_ZERO_MAP:g})": ", ".join(outliers) or "none",
                    "dropped all-0/all-1 topics": ", ".join(topics) or "none",
                    "dropped all-0/all-1 runs": ", ".join(systems) or "none",
                }
            )
    return pd.DataFrame(rows)
