"""The published data sets the three papers are reproduced from: one home for their facts.

Each :class:`Dataset` says what a group of files in ``data/registry.tsv`` is (a one-line
``description`` for captions and fidelity rows, a short ``label``), the registry names of its files
(a ``pattern`` and the values of its placeholders), the topic column(s), how the other columns are
named, how many topics each collection has, and which file part holds each measure. The paper
modules build every file name they read from here, so a file, a column or a measure is named in
one place.

>>> SIGIR2020_RPL.file(system="wcrobust04", part=file_part("nDCG"))
'sigir2020/measures/rpl_wcrobust04_ndcg1000.csv'
>>> run_column("rpd", "WCrobust0405", 45)
'rpd_wcrobust0405_45'
>>> len(TREC_QRELS.files()), TREC_QRELS.topics["Robust04"]
(4, 249)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

__all__ = [
    "SYSTEMS",
    "BASELINE",
    "ADVANCED",
    "CUTOFFS",
    "MEASURE_FILE_PARTS",
    "Dataset",
    "SIGIR2020_RPL",
    "SIGIR2020_RPL_OLD",
    "SIGIR2020_ORG",
    "SIGIR2020_RPD",
    "SIGIR2020_RPD_OLD",
    "TREC_QRELS",
    "TREC_SCORES_ROBUST04",
    "NIST_SUMMARIES",
    "ROBUST04_RUN",
    "REUTERS21578",
    "DATASETS",
    "SIGIR2020_SETTINGS",
    "dataset",
    "file_part",
    "run_column",
    "sigir2020_file",
    "datasets_table",
]

#: The two original TREC 2017 Common Core runs (Grossman & Cormack): the baseline b-run and the
#: advanced a-run of the SIGIR 2020 paper, the two systems of the CLEF 2019 paper.
SYSTEMS: tuple[str, str] = ("WCrobust04", "WCrobust0405")
BASELINE, ADVANCED = SYSTEMS

#: The cut-offs of the SIGIR 2020 per-topic files (``p<k>``, ``ndcg<k>``, ``kendalls_tau_<k>``, ``rbo_<k>_p08``).
CUTOFFS: tuple[int, ...] = (5, 10, 20, 50, 100, 1000)

#: The papers' measure names -> the measure part of the published file names. The SIGIR 2020 paper's
#: "nDCG" is trec_eval's ``ndcg`` cut at 1000 (the only cut-off that reproduces its printed ARP).
MEASURE_FILE_PARTS: dict[str, str] = {"AP": "ap", "P@10": "p10", "nDCG": "ndcg1000"}


@dataclass(frozen=True)
class Dataset:
    """A group of published files: what they are, their registry names, their columns and topics.

    Parameters
    ----------
    key : str
        The data set's key.
    label : str
        How pages name it.
    description : str
        What the files are.
    pattern : str
        A registry name with ``{placeholders}``.
    fields : mapping of str -> tuple of str, optional
        The values each placeholder takes (every combination is a file).
    topics : mapping of str -> int, optional
        Each collection -> its number of topics in these files (empty when the files are not per
        topic).
    topic_columns : tuple of str, default ()
        The name(s) of the first column, the topic id.
    columns : str, default ""
        The files' columns, in words.
    measures : mapping of str -> str, optional
        The papers' measure names -> ``part`` values.
    """

    key: str
    label: str
    description: str
    pattern: str
    fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    topics: Mapping[str, int] = field(default_factory=dict)
    topic_columns: tuple[str, ...] = ()
    columns: str = ""
    measures: Mapping[str, str] = field(default_factory=dict)

    def files(self) -> tuple[str, ...]:
        """List every registry name of the data set, in the order of ``fields``.

        Returns
        -------
        tuple of str
            The names.
        """
        names = list(self.fields)
        return tuple(
            self.pattern.format(**dict(zip(names, values, strict=True)))
            for values in itertools.product(*self.fields.values())
        )

    def file(self, **values: str) -> str:
        """Give the registry name of one file.

        Parameters
        ----------
        **values : str
            A value for each of the pattern's placeholders.

        Returns
        -------
        str
            The registry name.

        Raises
        ------
        ValueError
            For a placeholder the pattern lacks, or a value it does not take.
        """
        if set(values) != set(self.fields):
            raise ValueError(f"{self.key}: a file is named by {', '.join(self.fields) or 'nothing'}, got {', '.join(values)}")
        for name, value in values.items():
            if value not in self.fields[name]:
                raise ValueError(f"{self.key}: no file with {name}={value!r}; known: {', '.join(self.fields[name])}")
        return self.pattern.format(**values)


_SIGIR_SOURCE = "Breuer et al. (SIGIR 2020), irgroup/sigir2020-measure-reproducibility, evaluation/matlab/results"
_SIGIR_SYSTEMS = tuple(system.lower() for system in SYSTEMS)
_RPD_PARTS = ("ap", "p10", "ndcg10", "ndcg100", "ndcg1000")

SIGIR2020_RPL = Dataset(
    key="sigir2020-rpl",
    label="SIGIR 2020 authors' per-topic scores (replicability, Core17)",
    description="Per-topic scores published by the SIGIR 2020 authors for the original WCrobust04 and WCrobust0405 "
    f"and their 50 re-implemented constellations each, on the 50 TREC 2017 Common Core (NYT) topics ({_SIGIR_SOURCE}/measures)",
    pattern="sigir2020/measures/rpl_{system}_{part}.csv",
    fields={
        "system": _SIGIR_SYSTEMS,
        "part": (
            "ap",
            *(f"p{k}" for k in CUTOFFS),
            *(f"ndcg{k}" for k in CUTOFFS),
            *(f"err{k}" for k in (10, 100, 1000)),
            *(f"kendalls_tau_{k}" for k in CUTOFFS),
            *(f"intkendalls_tau_{k}" for k in (10, 100, 1000)),
            *(f"rbo_{k}_p08" for k in CUTOFFS),
        ),
    },
    topics={"Core17": 50},
    topic_columns=("Row", "topic_id"),
    columns="Row (topic_id in the rbo_* files): the topic; WCrobust04 / WCrobust0405: the original TREC run (not in "
    "the kendalls_tau, intkendalls_tau and rbo files, which compare a run with the original); rpl_<system>_<N>: "
    "constellation N = 1..50",
    measures=MEASURE_FILE_PARTS,
)

SIGIR2020_RPL_OLD = Dataset(
    key="sigir2020-rpl-old",
    label="SIGIR 2020 authors' earlier P@10 files (replicability, Core17)",
    description="An earlier computation of the replicability P@10 scores, kept by the SIGIR 2020 authors beside the "
    f"final files ({_SIGIR_SOURCE}/measures/*_p10_old.csv); not the data of the paper's tables",
    pattern="sigir2020/measures/rpl_{system}_{part}_old.csv",
    fields={"system": _SIGIR_SYSTEMS, "part": ("p10",)},
    topics={"Core17": 50},
    topic_columns=("Row",),
    columns="as the final replicability files",
    measures={"P@10": "p10"},
)

SIGIR2020_ORG = Dataset(
    key="sigir2020-org",
    label="SIGIR 2020 authors' per-topic scores (original runs, Core17)",
    description="The original WCrobust04 and WCrobust0405 runs' per-topic scores on the 50 Core17 topics, as the SIGIR "
    f"2020 authors compared them with the reproduced runs ({_SIGIR_SOURCE}/measures_rpd/org_*)",
    pattern="sigir2020/measures_rpd/org_{system}_{part}.csv",
    fields={"system": _SIGIR_SYSTEMS, "part": _RPD_PARTS},
    topics={"Core17": 50},
    topic_columns=("Row",),
    columns="Row: the topic; WCrobust04 / WCrobust0405: the original TREC run",
    measures=MEASURE_FILE_PARTS,
)

SIGIR2020_RPD = Dataset(
    key="sigir2020-rpd",
    label="SIGIR 2020 authors' per-topic scores (reproducibility, Core18)",
    description="Per-topic scores published by the SIGIR 2020 authors for the 50 reproduced constellations of "
    "WCrobust04 and WCrobust0405 on 25 TREC 2018 Common Core (Washington Post) topics "
    f"({_SIGIR_SOURCE}/measures_rpd/rpd_*)",
    pattern="sigir2020/measures_rpd/rpd_{system}_{part}.csv",
    fields={"system": _SIGIR_SYSTEMS, "part": _RPD_PARTS},
    topics={"Core18": 25},
    topic_columns=("Row",),
    columns="Row: the topic; rpd_<system>_<N>: constellation N = 1..50 (the WCrobust04 files also hold runs "
    "51-58, outside the paper)",
    measures=MEASURE_FILE_PARTS,
)

SIGIR2020_RPD_OLD = Dataset(
    key="sigir2020-rpd-old",
    label="SIGIR 2020 authors' earlier AP file (reproducibility of WCrobust0405, Core18)",
    description="An earlier computation of the reproduced WCrobust0405 runs' AP on the 25 Core18 topics, kept by the "
    f"SIGIR 2020 authors beside the final file ({_SIGIR_SOURCE}/measures_rpd/rpd_wcrobust0405_ap_old.csv); "
    "the only earlier reproducibility file that survives",
    pattern="sigir2020/measures_rpd/rpd_{system}_{part}_old.csv",
    fields={"system": ("wcrobust0405",), "part": ("ap",)},
    topics={"Core18": 25},
    topic_columns=("Row",),
    columns="Row: the topic; rpd_wcrobust0405_<N>: constellation N = 1..50",
    measures={"AP": "ap"},
)

TREC_QRELS = Dataset(
    key="trec-qrels",
    label="TREC relevance judgments (qrels)",
    description="The public TREC relevance judgments of Robust04 (TREC 2004 Robust), Robust05 (TREC 2005 Robust), "
    "Core17 (TREC 2017 Common Core, NYT) and Core18 (TREC 2018 Common Core, Washington Post)",
    pattern="qrels/{collection}.txt",
    fields={"collection": ("robust04", "robust05", "core17", "core18")},
    topics={"Robust04": 249, "Robust05": 50, "Core17": 50, "Core18": 50},
    columns="TREC qrels lines: topic, iteration, document id, relevance",
)

TREC_SCORES_ROBUST04 = Dataset(
    key="trec-scores-robust04",
    label="TREC 2004 Robust score matrices (submitted runs)",
    description="Per-topic AP and P@10 of the 110 runs submitted to TREC 2004 Robust on its 249 judged topics "
    "(topics x anonymised runs; from Julián Urbano's public research repositories, CC BY-SA 4.0)",
    pattern="trec_scores/robust2004_{part}.csv",
    fields={"part": ("ap", "p10")},
    topics={"Robust04": 249},
    topic_columns=("topic",),
    columns="topic: the topic; sys1 ... sys110: the submitted runs, anonymised",
    measures={"AP": "ap", "P@10": "p10"},
)

NIST_SUMMARIES = Dataset(
    key="nist-summaries",
    label="NIST official per-run means (TREC results pages)",
    description="NIST's official per-run means of the runs submitted to TREC 2004 Robust, 2017 Common Core and 2018 "
    "Common Core, from the TREC results pages (no per-topic scores of Core17/Core18 submissions are public)",
    pattern="trec_scores/trecbrowser_{collection}_summary.csv",
    fields={"collection": ("robust04", "core17", "core18")},
    columns="run: the run tag; map, P_10 (all three); bpref, ndcg, ndcg_cut_10 (Core17, Core18)",
)

ROBUST04_RUN = Dataset(
    key="robust04-run",
    label="a real Robust04 run (BM25 + RM3)",
    description="A real Robust04 run, BM25 + RM3 (Anserini), 1000 documents per topic, from the PyPI package "
    "capreolus 0.2.6",
    pattern="runs/robust04_bm25_rm3.run",
    topics={"Robust04": 250},
    columns="TREC run lines: topic, Q0, document id, rank, score, run tag",
)

_REUTERS_FILES = (
    "README.txt",
    *(f"all-{kind}-strings.lc.txt" for kind in ("exchanges", "orgs", "people", "places", "topics")),
    "cat-descriptions_120396.txt",
    "lewis.dtd",
    *(f"reut2-{k:03d}.sgm" for k in range(22)),
)

REUTERS21578 = Dataset(
    key="reuters21578",
    label="Reuters-21578 stand-in (open)",
    description="Reuters-21578, Distribution 1.0: 21,578 Reuters newswire stories of 1987 with topic categories, "
    "cut by date into four slices that play the routing paper's four collections (an open stand-in for the "
    "licensed TREC corpora)",
    pattern="reuters21578/{file}",
    fields={"file": _REUTERS_FILES},
    columns="SGML files (latin-1); topics are Reuters categories",
)

DATASETS: dict[str, Dataset] = {
    d.key: d
    for d in (
        SIGIR2020_RPL,
        SIGIR2020_RPL_OLD,
        SIGIR2020_ORG,
        SIGIR2020_RPD,
        SIGIR2020_RPD_OLD,
        TREC_QRELS,
        TREC_SCORES_ROBUST04,
        NIST_SUMMARIES,
        ROBUST04_RUN,
        REUTERS21578,
    )
}

#: The SIGIR 2020 settings: ``rpl`` (replicated runs), ``org`` (original runs), ``rpd`` (reproduced runs).
SIGIR2020_SETTINGS: dict[str, Dataset] = {"rpl": SIGIR2020_RPL, "org": SIGIR2020_ORG, "rpd": SIGIR2020_RPD}


def dataset(key: str) -> Dataset:
    """Give the data set registered under ``key`` (see :data:`DATASETS`).

    Parameters
    ----------
    key : str
        The data set's key.

    Returns
    -------
    Dataset
        The data set.

    Raises
    ------
    ValueError
        For an unknown key.
    """
    if key not in DATASETS:
        raise ValueError(f"unknown data set {key!r}; known: {', '.join(DATASETS)}")
    return DATASETS[key]


def file_part(measure: str) -> str:
    """Give the file-name part holding ``measure`` in the published files.

    Parameters
    ----------
    measure : {"AP", "P@10", "nDCG"}
        The measure.

    Returns
    -------
    str
        The file-name part.

    Raises
    ------
    ValueError
        For another measure.
    """
    if measure not in MEASURE_FILE_PARTS:
        raise ValueError(f"unknown measure {measure!r}; the published files hold {', '.join(MEASURE_FILE_PARTS)}")
    return MEASURE_FILE_PARTS[measure]


def run_column(setting: str, system: str, constellation_id: int) -> str:
    """Give the column of constellation ``constellation_id`` of ``system`` in a SIGIR 2020 file.

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        Replicability or reproducibility.
    system : str
        The system's name.
    constellation_id : int
        The constellation's number.

    Returns
    -------
    str
        The column's name.

    Raises
    ------
    ValueError
        For another setting.
    """
    if setting not in ("rpl", "rpd"):
        raise ValueError(f"unknown setting {setting!r}; the SIGIR 2020 run columns are 'rpl' or 'rpd'")
    return f"{setting}_{system.lower()}_{constellation_id}"


def sigir2020_file(setting: str, system: str, part: str) -> str:
    """Give the registry name of a SIGIR 2020 per-topic file.

    Parameters
    ----------
    setting : {"rpl", "org", "rpd"}
        Replicability, the original runs, or reproducibility.
    system : str
        The system's name.
    part : str
        The file-name part (:func:`file_part`).

    Returns
    -------
    str
        The registry name.

    Raises
    ------
    ValueError
        For another setting.
    """
    if setting not in SIGIR2020_SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; expected one of {', '.join(SIGIR2020_SETTINGS)}")
    return SIGIR2020_SETTINGS[setting].file(system=system.lower(), part=part)


def datasets_table() -> pd.DataFrame:
    """List the data sets, for a page.

    Returns
    -------
    pandas.DataFrame
        One row per data set: key, label, files, topics, topic column(s), columns and description.
    """
    rows = [
        {
            "data set": d.key,
            "label": d.label,
            "files": len(d.files()),
            "topics": ", ".join(f"{collection} {n}" for collection, n in d.topics.items()) or "-",
            "topic column": " / ".join(d.topic_columns) or "-",
            "columns": d.columns,
            "description": d.description,
        }
        for d in DATASETS.values()
    ]
    return pd.DataFrame(rows).set_index("data set")
