"""The per-topic scores the SIGIR 2020 authors published, read and checked: the one door to their files.

Every other module of :mod:`irrepro.papers.sigir2020` reads the authors' files through the functions
here: :func:`per_topic` (one file, topics x runs), :func:`replicated_runs` and :func:`reproduced_runs`
(an original run and its new runs, columns = constellation ids), :func:`agreement_per_topic` (the
published per-topic KTU or RBO) and :func:`mean_agreement` (the same, averaged over topics). File names come from
:mod:`irrepro.papers.datasets`.

Two *versions* of the data exist: ``"current"``, the files the authors published as their results,
and ``"old"``, the earlier computations they kept beside them (``*_old.csv``). Only one earlier file
differs from its current counterpart and can be read as a version here: the AP of the reproduced
WCrobust0405 runs (``measures_rpd/rpd_wcrobust0405_ap_old.csv``); asking for any other file in the
``"old"`` version is an error (see :mod:`irrepro.papers.sigir2020.earlier` for all earlier files).

>>> reproduced_runs("WCrobust0405", "ap", [45], version="old")[1].shape
(25, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from irrepro.data import fetch
from irrepro.memo import cached
from irrepro.papers import datasets
from irrepro.papers.datasets import ADVANCED, CUTOFFS, SYSTEMS, file_part, run_column
from irrepro.routing.constellations import PRINTED
from irrepro.topic_order import sort_topics

__all__ = [
    "MEASURES",
    "CONSTELLATION_IDS",
    "PRINTED_IDS",
    "SETTINGS",
    "VERSIONS",
    "check_system",
    "check_version",
    "read_scores",
    "data_files",
    "per_topic",
    "replicated_runs",
    "reproduced_runs",
    "agreement_per_topic",
    "mean_agreement",
]

#: The paper's measures in the order it prints them -> the file part holding each.
MEASURES: dict[str, str] = {measure: file_part(measure) for measure in ("P@10", "AP", "nDCG")}
CONSTELLATION_IDS: tuple[int, ...] = tuple(range(1, 51))  # the paper's 50; rpd WCrobust04 has 51-58 extra
#: The constellation ids of the 20 runs the paper prints, in its order (tf_1 ... C_5).
PRINTED_IDS: tuple[int, ...] = tuple(c.constellation_id for c in PRINTED)
SETTINGS: tuple[str, ...] = tuple(datasets.SIGIR2020_SETTINGS)
#: "current": the published result files; "old": with the earlier AP file of the reproduced WCrobust0405.
VERSIONS: tuple[str, ...] = ("current", "old")


def check_system(system: str) -> str:
    """Check that ``system`` is one of the two runs of the paper.

    Parameters
    ----------
    system : str
        The run's name.

    Returns
    -------
    str
        ``system``.

    Raises
    ------
    ValueError
        Naming the two runs, for another name.
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; the SIGIR 2020 data has {', '.join(SYSTEMS)}")
    return system


def check_version(version: str) -> str:
    """Check that ``version`` is ``"current"`` or ``"old"``.

    Parameters
    ----------
    version : str
        The data version.

    Returns
    -------
    str
        ``version``.

    Raises
    ------
    ValueError
        For another version.
    """
    if version not in VERSIONS:
        raise ValueError(f"unknown version {version!r}; expected one of {', '.join(VERSIONS)}")
    return version


@cached(maxsize=128)
def read_scores(name: str, topic_columns: tuple[str, ...]) -> pd.DataFrame:
    """Read one published file (registry ``name``) as topics x runs, topics in the package's order.

    Parameters
    ----------
    name : str
        The file's registry name.
    topic_columns : tuple of str
        The names the first column, the topic id, may have.

    Returns
    -------
    pandas.DataFrame
        Topics x runs.

    Raises
    ------
    ValueError
        Naming the file: for another first column, duplicate topics or missing scores.
    """
    frame = pd.read_csv(fetch(name))
    topic_column = frame.columns[0]  # "Row" in most files, "topic_id" in the RBO files
    if topic_column not in topic_columns:
        expected = " or ".join(map(repr, topic_columns))
        raise ValueError(f"{name}: first column is {topic_column!r}, expected the topic column {expected}")
    frame = frame.set_index(topic_column)
    frame.index = frame.index.astype(str)
    frame.index.name = "topic"
    if frame.index.has_duplicates:
        raise ValueError(f"{name}: duplicate topics {sorted(frame.index[frame.index.duplicated()])[:5]}")
    frame = frame.loc[sort_topics(frame.index)]
    if frame.isna().any().any():
        bad = frame.columns[frame.isna().any()].tolist()
        raise ValueError(f"{name}: missing scores in columns {bad[:5]}")
    return frame.astype(float)


def data_files() -> list[str]:
    """List the registry names of every published file the tables and figures read (current version).

    Returns
    -------
    list of str
        Registry names.
    """
    names = []
    for system in SYSTEMS:
        measures = ["p10", "ap", *(f"ndcg{k}" for k in CUTOFFS)]
        measures += [f"kendalls_tau_{k}" for k in CUTOFFS] + [f"rbo_{k}_p08" for k in CUTOFFS]
        names += [datasets.sigir2020_file("rpl", system, measure) for measure in measures]
        for setting in ("org", "rpd"):
            names += [datasets.sigir2020_file(setting, system, measure) for measure in MEASURES.values()]
    return names


def _file(setting: str, system: str, measure: str, version: str) -> tuple[str, tuple[str, ...]]:
    """(registry name, topic columns) of one file in one version."""
    if check_version(version) == "old":
        if (setting, system, measure) != ("rpd", ADVANCED, "ap"):
            raise ValueError(
                f"no earlier version of the {setting} {system} {measure} file: only the AP of the reproduced "
                f"{ADVANCED} runs survives in an earlier version ({datasets.SIGIR2020_RPD_OLD.files()[0]})"
            )
        old = datasets.SIGIR2020_RPD_OLD
        return old.file(system=system.lower(), part=measure), old.topic_columns
    name = datasets.sigir2020_file(setting, system, measure)
    return name, datasets.SIGIR2020_SETTINGS[setting].topic_columns


def per_topic(setting: str, system: str, measure: str, *, version: str = "current") -> pd.DataFrame:
    """Read the per-topic scores, topics x runs, of one published file.

    Parameters
    ----------
    setting : {"rpl", "org", "rpd"}
        ``rpl``: Core17, the original run (column named after the system) and the 50 replicated runs
        (``rpl_<system>_<k>``); ``org``: the original run on Core17; ``rpd``: the 50 reproduced runs
        on 25 Core18 topics (``rpd_<system>_<k>``; the 8 extra runs 51-58 are dropped).
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    measure : str
        The file's measure: ``p10``, ``ap``, ``ndcg1000``, ``ndcg<k>``, ``kendalls_tau_<k>``, ``rbo_<k>_p08``.
    version : {"current", "old"}
        ``"old"`` exists only for ``("rpd", "WCrobust0405", "ap")``.

    Returns
    -------
    pandas.DataFrame
        Topics x runs.

    Raises
    ------
    ValueError
        For an unknown setting, system or version, or a file missing runs.
    """
    if setting not in SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; expected one of {', '.join(SETTINGS)}")
    name, topic_columns = _file(setting, check_system(system), measure, version)
    frame = read_scores(name, topic_columns)
    if setting == "rpd":
        wanted = [run_column("rpd", system, k) for k in CONSTELLATION_IDS]
        missing = [column for column in wanted if column not in frame.columns]
        if missing:
            raise ValueError(f"{name}: missing runs {missing[:5]}")
        frame = frame[wanted]
    return frame  # read_scores hands out a copy


def replicated_runs(system: str, measure: str, ids: Sequence[int] = CONSTELLATION_IDS) -> tuple[pd.Series, pd.DataFrame]:
    """Give the original run and the replicated runs on Core17.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    measure : str
        The file's measure (:func:`per_topic`).
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.

    Returns
    -------
    original : pandas.Series
        The original run's per-topic scores.
    replicated : pandas.DataFrame
        The replicated runs, columns = constellation ids.
    """
    frame = per_topic("rpl", system, measure)
    columns = [run_column("rpl", system, k) for k in ids]
    return frame[system], frame[columns].set_axis(list(ids), axis=1)


def reproduced_runs(
    system: str, measure: str, ids: Sequence[int] = CONSTELLATION_IDS, *, version: str = "current"
) -> tuple[pd.Series, pd.DataFrame]:
    """Give the original run on Core17 and the reproduced runs on Core18.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    measure : str
        The file's measure (:func:`per_topic`).
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.
    version : {"current", "old"}
        ``"old"`` reads the earlier file where one exists (the AP of the reproduced WCrobust0405)
        and the current file otherwise: the earlier version of a baseline is the current one.

    Returns
    -------
    original : pandas.Series
        The original run's per-topic scores on Core17.
    reproduced : pandas.DataFrame
        The reproduced runs on Core18, columns = constellation ids.
    """
    check_version(version)
    original = per_topic("org", system, measure)[system]
    file_version = version if (system, measure) == (ADVANCED, "ap") else "current"
    frame = per_topic("rpd", system, measure, version=file_version)
    return original, frame[[run_column("rpd", system, k) for k in ids]].set_axis(list(ids), axis=1)


def agreement_per_topic(system: str, statistic: str, depth: int, ids: Sequence[int] = CONSTELLATION_IDS) -> pd.DataFrame:
    """Read the published per-topic KTU or RBO (p = 0.8) at ``depth``.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    statistic : {"KTU", "RBO"}
        The statistic.
    depth : int
        The depth of a published file.
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.

    Returns
    -------
    pandas.DataFrame
        Topics x constellation ids.

    Raises
    ------
    ValueError
        For another statistic.
    """
    if statistic not in ("KTU", "RBO"):
        raise ValueError(f"unknown agreement statistic {statistic!r}; expected 'KTU' or 'RBO'")
    measure = f"kendalls_tau_{depth}" if statistic == "KTU" else f"rbo_{depth}_p08"
    frame = per_topic("rpl", system, measure)
    return frame[[run_column("rpl", system, k) for k in ids]].set_axis(list(ids), axis=1)


def mean_agreement(system: str, statistic: str, depth: int, ids: Sequence[int] = CONSTELLATION_IDS) -> pd.Series:
    """Average the published per-topic KTU or RBO (p = 0.8) at ``depth`` over topics, by constellation id.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    statistic : {"KTU", "RBO"}
        The statistic.
    depth : int
        The depth of a published file.
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.

    Returns
    -------
    pandas.Series
        The mean per constellation id.
    """
    return agreement_per_topic(system, statistic, depth, ids).mean()
