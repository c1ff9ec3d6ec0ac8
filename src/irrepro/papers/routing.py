"""Tables and figures of Breuer & Schaer, "Replicability and Reproducibility of Automatic Routing Runs"
(CENTRE@CLEF 2019), and of this compendium's own reproducibility dataset built from the same runs.

One function per table; each returns a :class:`pandas.DataFrame` with a ``data`` column saying which
data it ran on. ``chapters/routing_runs.md`` and ``irrepro reproduce routing --out DIR`` call the same
functions (:func:`write_tables`), so the page and the CSV files cannot disagree.

- :func:`topic_sets` – judged topics per TREC collection and the training/target intersections that
  decide how many topics each run can have (from the real TREC qrels; no corpus needed).
- :func:`official_core17_scores` – NIST's official Core17 scores of the original runs (published
  facts, the targets only the licensed-data path can be compared with), next to the mean of the
  per-topic scores the SIGIR 2020 authors published.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from irrepro.data import fetch
from irrepro.runs import read_qrels

__all__ = [
    "TREC_COLLECTIONS",
    "OFFICIAL_CORE17",
    "topic_sets",
    "official_core17_scores",
    "write_tables",
]

#: The paper's four collections: name -> (corpus, registry name of its qrels).
TREC_COLLECTIONS: dict[str, tuple[str, str]] = {
    "Robust04": ("TREC Disks 4&5", "qrels/robust04.txt"),
    "Robust05": ("AQUAINT", "qrels/robust05.txt"),
    "Core17": ("New York Times Annotated Corpus", "qrels/core17.txt"),
    "Core18": ("Washington Post v2", "qrels/core18.txt"),
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

_SIGIR2020_FILES = {"AP": "ap", "P@10": "p10", "nDCG": "ndcg1000"}
TREC_DATA = "real TREC qrels (no corpus needed)"


def _judged_topics(collection: str) -> frozenset[str]:
    qrels = read_qrels(fetch(TREC_COLLECTIONS[collection][1]))
    return frozenset(qrels["query_id"].astype(str))


def topic_sets() -> pd.DataFrame:
    """Topics judged in both a target and a training collection (Breuer & Schaer, Sec. 3.2).

    A routing classifier can only be trained for a topic judged in the training corpus and only be
    evaluated where it is judged in the target corpus, so a run has ``|T_target ∩ T_training|``
    topics. For WCrobust0405 the paper first kept the topics judged in *both* training corpora
    (``∩``), then, after asking Cormack, trained on whatever was judged (``∪``, "complemented").
    The last row counts the topics judged in all four collections (the per-topic figures use them).

    Returns one row per (target, training) with the judged-topic counts, the intersection, the
    count the paper prints and the difference (reproduced − printed).
    """
    judged = {name: _judged_topics(name) for name in TREC_COLLECTIONS}
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
    """The topics judged in all four TREC collections (the paper's 15 topics of Figures 3 and 4)."""
    return sorted(frozenset.intersection(*(_judged_topics(name) for name in TREC_COLLECTIONS)), key=int)


def official_core17_scores() -> pd.DataFrame:
    """NIST's official Core17 scores of WCrobust04 / WCrobust0405 next to the SIGIR 2020 files.

    ``published`` is the official figure (TREC 2017 Common Core, NIST); ``sigir2020_files`` is the
    mean over the 50 topics of the original run's column in the per-topic files published by Breuer
    et al. (SIGIR 2020; ``sigir2020/measures/rpl_<system>_{ap,p10,ndcg1000}.csv``), rounded to 4
    digits as NIST prints; ``difference`` is files − published. The ``rpl_default`` column is the
    SIGIR 2020 authors' own replication (their constellation 1) on the licensed NYT corpus.
    """
    rows = []
    for system, scores in OFFICIAL_CORE17.items():
        for measure, published in scores.items():
            per_topic = pd.read_csv(fetch(f"sigir2020/measures/rpl_{system.lower()}_{_SIGIR2020_FILES[measure]}.csv"))
            if system not in per_topic.columns:
                raise ValueError(f"sigir2020/measures/rpl_{system.lower()}_*.csv: no column {system!r}")
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


def write_tables(out_dir: Path) -> list[Path]:
    """Write every table of the chapter as CSV into ``out_dir`` (and the runs under ``out_dir/runs``)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in (("topic_sets", topic_sets()), ("official_core17", official_core17_scores())):
        path = out_dir / f"{name}.csv"
        table.to_csv(path, index=False)
        written.append(path)
    return written
