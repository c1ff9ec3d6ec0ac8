"""The CLEF 2019 paper's collections, topic sets and official scores: facts that need no routing run.

The four TREC collections with their qrels, the topic intersections the paper prints (Sec. 3.2,
4.3) and how the real qrels reproduce them, the 15 topics judged everywhere (Figures 3 and 4), and
NIST's official Core17 scores of the original runs next to the SIGIR 2020 authors' files.
"""

from __future__ import annotations

import pandas as pd

from irrepro.data import fetch
from irrepro.papers import datasets
from irrepro.papers.clef2019.published_runs import judged_topics
from irrepro.papers.datasets import file_part, sigir2020_file
from irrepro.topic_order import sort_topics

__all__ = [
    "NEAR", "FAR", "TREC_COLLECTIONS", "PRINTED_INTERSECTIONS", "OFFICIAL_CORE17", "TREC_DATA",
    "topic_sets", "common_topics", "official_core17_scores",
]


#: The targets' roles: the near target (Core17, the replication) and the far one (Core18, the reproduction).
NEAR, FAR = "core17", "core18"

#: The paper's four collections: name -> (corpus, registry name of its qrels).
TREC_COLLECTIONS: dict[str, tuple[str, str]] = {
    "Robust04": ("TREC Disks 4&5", datasets.TREC_QRELS.file(collection="robust04")),
    "Robust05": ("AQUAINT", datasets.TREC_QRELS.file(collection="robust05")),
    "Core17": ("New York Times Annotated Corpus", datasets.TREC_QRELS.file(collection="core17")),
    "Core18": ("Washington Post v2", datasets.TREC_QRELS.file(collection="core18")),
}

#: Topic counts printed by Breuer & Schaer (Sec. 3.2, 4.3): target -> training -> topics.
PRINTED_INTERSECTIONS: dict[tuple[str, str], int] = {
    ("Core17", "Robust04"): 50,
    ("Core17", "Robust05"): 33,
    ("Core17", "Robust04 ∩ Robust05"): 33,
    ("Core18", "Robust04"): 25,
    ("Core18", "Robust05"): 15,
    ("Core18", "Robust04 ∩ Robust05"): 15,
}

#: NIST's official TREC 2017 Common Core scores of the original runs (trec_eval over the 50 Core17
#: topics; nDCG is trec_eval's ``ndcg`` over the whole ranking). Published facts: only a run on the
#: licensed New York Times corpus can be compared with them.
OFFICIAL_CORE17: dict[str, dict[str, float]] = {
    "WCrobust04": {"P@10": 0.6460, "AP": 0.3711, "nDCG": 0.6371},
    "WCrobust0405": {"P@10": 0.7500, "AP": 0.4278, "nDCG": 0.6956},
}

TREC_DATA = "real TREC qrels (no corpus needed)"


def topic_sets() -> pd.DataFrame:
    """Count the topics judged in both a target and a training collection (Breuer & Schaer, Sec. 3.2).

    A routing classifier can only be trained for a topic judged in the training corpus and only be
    evaluated where it is judged in the target corpus, so a run has ``|T_target ∩ T_training|``
    topics. For WCrobust0405 the paper first kept the topics judged in *both* training corpora
    (``∩``), then, after asking Cormack, trained on whatever was judged (``∪``, "complemented").
    The last row counts the topics judged in all four collections (the per-topic figures use them).

    Returns
    -------
    pandas.DataFrame
        One row per (target, training) with the judged-topic counts, the intersection, the count
        the paper prints and the difference (reproduced − printed).
    """
    judged = {name: judged_topics(name) for name in TREC_COLLECTIONS}
    trainings = {
        "Robust04": judged["Robust04"],
        "Robust05": judged["Robust05"],
        "Robust04 ∩ Robust05": judged["Robust04"] & judged["Robust05"],
        "Robust04 ∪ Robust05": judged["Robust04"] | judged["Robust05"],
    }
    rows = []
    for target in ("Core17", "Core18"):
        for training, topics in trainings.items():
            rows.append(_topic_row(target, len(judged[target]), training, len(topics), len(judged[target] & topics)))
    everywhere = frozenset.intersection(*judged.values())
    rows.append(_topic_row("Core17 ∩ Core18", len(judged["Core17"] & judged["Core18"]), "Robust04 ∩ Robust05",
                           len(trainings["Robust04 ∩ Robust05"]), len(everywhere)))
    table = pd.DataFrame(rows)
    printed = [PRINTED_INTERSECTIONS.get((t, r)) for t, r in zip(table["target"], table["training"], strict=True)]
    table["printed"] = pd.array(printed, dtype="Int64")
    table.loc[table["target"] == "Core17 ∩ Core18", "printed"] = 15  # "15 intersecting topics across all corpora"
    table["difference"] = table["intersection"] - table["printed"]
    table["data"] = TREC_DATA
    return table


def _topic_row(target: str, judged_target: int, training: str, judged_training: int, both: int) -> dict:
    return {
        "target": target,
        "judged_in_target": judged_target,
        "training": training,
        "judged_in_training": judged_training,
        "intersection": both,
    }


def common_topics() -> list[str]:
    """List the topics judged in all four TREC collections (the paper's 15 topics of Figures 3 and 4).

    Returns
    -------
    list of str
        The topic ids.
    """
    return sort_topics(frozenset.intersection(*(judged_topics(name) for name in TREC_COLLECTIONS)))


def official_core17_scores() -> pd.DataFrame:
    """Set NIST's official Core17 scores of WCrobust04 / WCrobust0405 next to the SIGIR 2020 files.

    Returns
    -------
    pandas.DataFrame
        ``published`` is the official figure (TREC 2017 Common Core, NIST); ``sigir2020_files`` is
        the mean over the 50 topics of the original run's column in the per-topic files published by
        Breuer et al. (SIGIR 2020; ``sigir2020/measures/rpl_<system>_{ap,p10,ndcg1000}.csv``),
        rounded to 4 digits as NIST prints; ``difference`` is files − published. The
        ``rpl_default`` column is the SIGIR 2020 authors' own replication (their constellation 1)
        on the licensed NYT corpus.

    Raises
    ------
    ValueError
        If a file lacks the system's column.
    """
    rows = []
    for system, official_scores in OFFICIAL_CORE17.items():
        for measure, published in official_scores.items():
            name = sigir2020_file("rpl", system, file_part(measure))
            per_topic = pd.read_csv(fetch(name))
            if system not in per_topic.columns:
                raise ValueError(f"{name}: no column {system!r}")
            replicated = per_topic[f"rpl_{system.lower()}_1"]
            mean = round(float(per_topic[system].mean()), 4)
            rows.append(
                {
                    "system": system,
                    "measure": measure,
                    "topics": int(per_topic[system].notna().sum()),
                    "published": published,
                    "sigir2020_files": mean,
                    "difference": round(mean - published, 4),
                    "rpl_default_sigir2020": round(float(replicated.mean()), 4),
                    "data": "TREC Core17 (NYT), official / published",
                }
            )
    return pd.DataFrame(rows)
