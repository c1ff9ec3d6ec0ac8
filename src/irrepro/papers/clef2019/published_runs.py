"""The routing runs on the real collections, as far as public data reaches (the CLEF paper's Tables 4-5, Figures 3-4).

No per-topic score of the 2019 CENTRE@CLEF submissions is public. What is public are the per-topic
files the same authors published with their SIGIR 2020 paper (:mod:`irrepro.papers.datasets`):

* the original TREC 2017 runs ``WCrobust04`` and ``WCrobust0405`` on the 50 Core17 (NYT) topics;
* their **2020 re-implementation** with default parameters (constellation 1 of
  ``config/param.py``): ``rpl_wcrobust04_1`` / ``rpl_wcrobust0405_1`` on the 50 Core17 topics
  (replicability) and ``rpd_wcrobust04_1`` / ``rpd_wcrobust0405_1`` on 25 Core18 (WaPo) topics
  (reproducibility).

These are not the runs of the CLEF 2019 paper (other code: raw tf, liblinear, other topic sets; see
:mod:`irrepro.routing.implementations`), so every function here labels them as what they are. The
CLEF numbers that survive in the public text of the paper (:data:`CLEF_TEXT_NUMBERS`: MAP 0.2963 and
0.2924 of Section 4.2) are put next to the nearest 2020 runs by :func:`surviving_clef_numbers`.

The topic sets are those of the CLEF paper, from the real TREC qrels: the target's topics judged in
Robust04 (50 / 25), in Robust04 and Robust05 (33 / 15), and in all four collections (15; the topics
of the paper's Figures 3 and 4). Cheap: reads the published files and the qrels, makes no run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pandas as pd

from irrepro.data import fetch
from irrepro.papers import datasets
from irrepro.papers.datasets import (
    BASELINE,
    SYSTEMS,
    file_part,
    run_column,
    sigir2020_file,
)
from irrepro.runs import read_qrels
from irrepro.topic_order import sort_topics

__all__ = [
    "CLEF_TEXT_NUMBERS",
    "MEASURE_NAMES",
    "PUBLISHED_RUNS_DATA",
    "SETTINGS",
    "ClefNumber",
    "common_topics",
    "judged_topics",
    "per_topic_long",
    "published_gains",
    "published_runs_15_topics",
    "published_runs_summary",
    "published_runs_table",
    "run_scores",
    "surviving_clef_numbers",
    "topic_sets",
]

#: setting -> (prefix of the SIGIR 2020 run columns, target collection)
SETTINGS: dict[str, tuple[str, str]] = {
    "replicability": ("rpl", "Core17"),
    "reproducibility": ("rpd", "Core18"),
}
#: the CLEF paper's measure names -> the SIGIR 2020 measure names of :mod:`irrepro.papers.datasets`
MEASURE_NAMES: dict[str, str] = {"MAP": "AP", "P@10": "P@10", "nDCG": "nDCG"}
PUBLISHED_RUNS_DATA = (
    "SIGIR 2020 authors' per-topic files: the original TREC 2017 runs and the authors' 2020 re-implementation "
    "(constellation 1), not the CLEF 2019 submissions"
)
_COLLECTIONS = {
    "Robust04": "robust04",
    "Robust05": "robust05",
    "Core17": "core17",
    "Core18": "core18",
}
_CONSTELLATION = (
    1  # the 2020 code's default parameters (config/param.py, constellation 1)
)
_AUGMENTED = 7  # the 2020 constellation with 'robust_only': False (tf-idf fitted on training and target)


@lru_cache(maxsize=4)
def judged_topics(collection: str) -> frozenset[str]:
    """The topics judged in ``collection`` (``Robust04``, ``Robust05``, ``Core17``, ``Core18``), from the TREC qrels."""
    if collection not in _COLLECTIONS:
        raise ValueError(
            f"unknown collection {collection!r}; known: {', '.join(_COLLECTIONS)}"
        )
    qrels = read_qrels(
        fetch(datasets.TREC_QRELS.file(collection=_COLLECTIONS[collection]))
    )
    return frozenset(qrels["query_id"].astype(str).unique())  # the distinct ids, not a Python object per judgment


def common_topics() -> list[str]:
    """List the topics judged in all four collections (the CLEF paper's 15 topics of Figures 3 and 4).

    Returns
    -------
    list of str
        The topic ids.
    """
    return sort_topics(
        frozenset.intersection(*(judged_topics(c) for c in _COLLECTIONS))
    )


def topic_sets(setting: str) -> dict[str, list[str]]:
    """Give the CLEF paper's topic sets of a setting, distinct sets only.

    ``target ∩ Robust04`` (WCrobust04, Table 4), ``target ∩ Robust04 ∩ Robust05`` (WCrobust0405 as
    first submitted, Table 4) and ``all four collections`` (Table 5, Figures 3-4). A set equal to an
    earlier one is left out (on Core18 the second and third are the same 15 topics).

    Parameters
    ----------
    setting : str
        A key of :data:`SETTINGS`.

    Returns
    -------
    dict of str -> list of str
        Name -> topics.
    """
    target = _target(setting)
    candidates = {
        f"{target} ∩ Robust04": judged_topics(target) & judged_topics("Robust04"),
        f"{target} ∩ Robust04 ∩ Robust05": judged_topics(target)
        & judged_topics("Robust04")
        & judged_topics("Robust05"),
        "all four collections": frozenset(common_topics()),
    }
    sets: dict[str, list[str]] = {}
    for name, topics in candidates.items():
        same = next(
            (known for known, chosen in sets.items() if frozenset(chosen) == topics),
            None,
        )
        if same is None:
            sets[name] = sort_topics(topics)
        else:  # the same topics under a second name: one set, both names
            sets = {
                (f"{known} = {name}" if known == same else known): chosen
                for known, chosen in sets.items()
            }
    return sets


def _target(setting: str) -> str:
    if setting not in SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; known: {', '.join(SETTINGS)}")
    return SETTINGS[setting][1]


@lru_cache(maxsize=32)
def _published_file(setting: str, system: str, part: str) -> pd.DataFrame:
    frame = pd.read_csv(fetch(sigir2020_file(SETTINGS[setting][0], system, part)))
    return frame.set_index(frame["Row"].astype(str)).drop(columns="Row")


def run_scores(setting: str, run: str, measure: str) -> pd.Series:
    """Read the per-topic scores of a published run.

    Parameters
    ----------
    setting : str
        A key of :data:`SETTINGS` (``"replicability"``, ``"reproducibility"``).
    run : str
        ``WCrobust04`` / ``WCrobust0405`` (the original TREC runs, replicability only) or a
        re-implemented run column (``rpl_wcrobust04_1``).
    measure : str
        The measure.

    Returns
    -------
    pandas.Series
        Index: topic.

    Raises
    ------
    ValueError
        For an unknown setting, or a run the setting's files do not hold.
    """
    _target(setting)
    originals = setting == "replicability"  # the original TREC runs are scored on Core17 only
    prefix = SETTINGS[setting][0]
    system = next((s for s in SYSTEMS if (originals and run == s) or run.startswith(f"{prefix}_{s.lower()}_")), None)
    if system is None:
        raise ValueError(f"{setting}: no published run {run!r}")
    frame = _published_file(
        setting, system, file_part(MEASURE_NAMES.get(measure, measure))
    )
    if run not in frame.columns:
        raise ValueError(
            f"{setting}: no column {run!r} in the published {measure} file"
        )
    return frame[run].astype(float).rename(run)


def _runs(setting: str) -> list[str]:
    prefix = SETTINGS[setting][0]
    originals = list(SYSTEMS) if setting == "replicability" else []
    return originals + [
        run_column(prefix, system, _CONSTELLATION) for system in SYSTEMS
    ]


def published_runs_15_topics() -> pd.DataFrame:
    """Give AP per topic of the 2020 re-implementation (constellation 1) on the 15 topics judged in all four collections.

    Returns
    -------
    pandas.DataFrame
        Columns ``setting``, ``topic``, ``WCrobust04``, ``WCrobust0405``.
    """
    frames = []
    for setting, (prefix, _) in SETTINGS.items():
        topics = common_topics()
        frame = pd.DataFrame({"setting": setting, "topic": topics})
        for system in SYSTEMS:
            frame[system] = (
                run_scores(setting, run_column(prefix, system, _CONSTELLATION), "AP")
                .reindex(topics)
                .to_numpy()
            )
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def published_runs_summary() -> pd.DataFrame:
    """Average MAP, P@10 and nDCG of every published run on every CLEF topic set of its setting.

    Returns
    -------
    pandas.DataFrame
        Columns ``setting``, ``topics`` (how many), ``system`` (the run's column name), ``measure``,
        ``value``.

    Raises
    ------
    ValueError
        If a published file has no score for a topic of a set.
    """
    rows = []
    for setting in SETTINGS:
        for topics in topic_sets(setting).values():
            for run in _runs(setting):
                for measure in MEASURE_NAMES:
                    scores = run_scores(setting, run, measure).reindex(topics)
                    if scores.isna().any():
                        raise ValueError(
                            f"{setting} {run} {measure}: no score for topic(s) {list(scores.index[scores.isna()])}"
                        )
                    rows.append({"setting": setting, "topics": len(topics), "system": run, "measure": measure,
                                 "value": float(scores.mean())})  # fmt: skip
    return pd.DataFrame(rows)


def published_runs_table(summary: pd.DataFrame | None = None) -> pd.DataFrame:
    """Lay out the summary as the CLEF paper's Tables 4-5 do.

    Parameters
    ----------
    summary : pandas.DataFrame, optional
        :func:`published_runs_summary`; default: computed now.

    Returns
    -------
    pandas.DataFrame
        One row per setting, topic set and run, the measures as columns, and what each run is
        (``run``).
    """
    summary = published_runs_summary() if summary is None else summary
    names = {}
    for setting in SETTINGS:
        for name, topics in topic_sets(setting).items():
            names[(setting, len(topics))] = name
    wide = summary.pivot_table(
        index=["setting", "topics", "system"], columns="measure", values="value"
    )
    wide = wide.reindex(columns=list(MEASURE_NAMES)).reset_index()
    order = {
        "setting": list(SETTINGS),
        "system": list(dict.fromkeys(summary["system"])),
    }
    wide = wide.sort_values(
        ["setting", "topics", "system"],
        ascending=[True, False, True],
        key=lambda c: (
            c.map({v: i for i, v in enumerate(order[c.name])}) if c.name in order else c
        ),
    ).reset_index(drop=True)
    wide.insert(
        2,
        "topic set",
        [names[(s, n)] for s, n in zip(wide["setting"], wide["topics"], strict=True)],
    )
    wide["run"] = [
        "original TREC 2017 run" if s in SYSTEMS else "2020 re-implementation"
        for s in wide["system"]
    ]
    wide.columns.name = None
    return wide


def published_gains(per_topic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Count per setting the topics of the 15 on which WCrobust0405 beats WCrobust04 (the 2020 re-implementation).

    Training-data enrichment profits; ties and the mean AP gain too.

    Parameters
    ----------
    per_topic : pandas.DataFrame, optional
        :func:`published_runs_15_topics`; default: computed now.

    Returns
    -------
    pandas.DataFrame
        One row per setting.
    """
    per_topic = published_runs_15_topics() if per_topic is None else per_topic
    gain = per_topic[SYSTEMS[1]] - per_topic[BASELINE]
    return (
        per_topic.assign(gain=gain)
        .groupby("setting", sort=False)
        .agg(
            topics=("gain", "size"),
            improved=("gain", lambda g: int((g > 0).sum())),
            tied=("gain", lambda g: int((g == 0).sum())),
            mean_gain=("gain", "mean"),
        )
        .reset_index()
    )


def per_topic_long(per_topic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Give the 15-topic AP in the long form of :func:`irrepro.plots.routing.per_topic_ap_bars`.

    Parameters
    ----------
    per_topic : pandas.DataFrame, optional
        :func:`published_runs_15_topics`; default: computed now.

    Returns
    -------
    pandas.DataFrame
        ``target`` (the panel title), ``system``, ``topic``, ``AP``.
    """
    per_topic = published_runs_15_topics() if per_topic is None else per_topic
    panels = {
        "replicability": "Core17 (NYT), replicated 2020",
        "reproducibility": "Core18 (WaPo), reproduced 2020",
    }
    long = per_topic.melt(
        id_vars=["setting", "topic"],
        value_vars=list(SYSTEMS),
        var_name="system",
        value_name="AP",
    )
    long.insert(0, "target", long.pop("setting").map(panels))
    return long


@dataclass(frozen=True)
class ClefNumber:
    """A number of the CLEF 2019 paper that survives in its public text, and the 2020 run it is set against.

    Parameters
    ----------
    what : str
        What the number is.
    section : str
        Where the paper prints it.
    quote : str
        The paper's words (checked against the text copy by the tests).
    measure : str
        The measure.
    printed : float
        The value printed.
    compared_with : str
        The published run column of the nearest 2020 run (replicability).
    """

    what: str
    section: str
    quote: str  # the paper's words (checked against the text copy by the tests)
    measure: str
    printed: float
    compared_with: (
        str  # the published run column of the nearest 2020 run (replicability)
    )


CLEF_TEXT_NUMBERS: tuple[ClefNumber, ...] = (
    ClefNumber(
        "WCrobust04 replicated (NYT from Robust04), tf-idf from the training corpus only",
        "4.2",
        "results in a MAP value of 0.2963",
        "MAP",
        0.2963,
        run_column("rpl", BASELINE, _CONSTELLATION),
    ),
    ClefNumber(
        "the same with tf-idf augmented by the NYT vocabulary",
        "4.2",
        "Augmenting the training data with the NYT vocabulary results in a MAP value of 0.2924",
        "MAP",
        0.2924,
        run_column("rpl", BASELINE, _AUGMENTED),
    ),
)


def surviving_clef_numbers() -> pd.DataFrame:
    """Set the CLEF paper's MAP values that survive in its text next to the 2020 re-implementation's.

    The run of the same setup (constellation 1; constellation 7, the 2020 code's
    ``'robust_only': False``, for the augmented run) and the original TREC run, each on the 50
    Core17 topics.

    Returns
    -------
    pandas.DataFrame
        One row per number, with the differences.
    """
    original = run_scores("replicability", BASELINE, "MAP").mean()
    rows = []
    for number in CLEF_TEXT_NUMBERS:
        value = float(
            run_scores("replicability", number.compared_with, number.measure).mean()
        )
        rows.append({
            "CLEF 2019 run": number.what, "section": number.section, "measure": number.measure,
            "CLEF 2019 (printed)": number.printed, "2020 run": number.compared_with, "2020 re-implementation": value,
            "difference": value - number.printed, "original TREC run": float(original),
            "difference to original": float(original) - number.printed,
        })  # fmt: skip
    return pd.DataFrame(rows)
