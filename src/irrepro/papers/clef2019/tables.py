"""Tables 2-6 and Figures 3-4 of Breuer & Schaer, "Replicability and Reproducibility of Automatic Routing
Runs" (CENTRE@CLEF 2019), made by this compendium's routing pipeline.

One function per table; each takes a :class:`~irrepro.papers.clef2019.routing_data.RoutingData` (default:
the open stand-in) and returns a :class:`pandas.DataFrame` with a ``data`` column saying which data it
ran on. ``chapters/routing_runs.md`` and ``irrepro reproduce clef2019 --out DIR`` call the same functions
(:func:`irrepro.papers.clef2019.files.write_tables`), so the page and the CSV files cannot disagree.

- :func:`relevance_transfer` (Table 2, Figure 2), :func:`feature_augmentation` (Table 3),
  :func:`replication` (Tables 4-6, with and without the preprocessing; :func:`replication_table` lays it
  out as Table 4) and :func:`preprocessing_effect`;
- :func:`per_topic_ap`, :func:`per_topic_gains` (Figures 3, 4);
- :func:`target_size_check`: the stand-in's near/far comparison at equal target sizes.
"""

from __future__ import annotations

import itertools

import pandas as pd

from irrepro.papers.clef2019.published_facts import FAR, NEAR, OFFICIAL_CORE17
from irrepro.papers.clef2019.routing_data import (
    STAND_IN_ROLE_NAMES,
    SYSTEM_NAMES,
    RoutingData,
    common_stand_in_topics,
    data_or_stand_in,
    stand_in,
)
from irrepro.papers.clef2019.run_requests import ordered_pairs, system_requests, transfer_requests
from irrepro.reproducibility import scores
from irrepro.routing.constellations import TRAINING_COLLECTIONS
from irrepro.routing.experiment import MEASURES
from irrepro.routing.pipeline import RoutingResult

__all__ = [
    "PREPROCESSING",
    "relevance_transfer",
    "feature_augmentation",
    "replication",
    "replication_table",
    "preprocessing_effect",
    "per_topic_ap",
    "per_topic_gains",
    "target_size_check",
]


#: How the tables name the two preprocessing choices (``preprocess`` of :func:`irrepro.routing.pipeline.route`).
PREPROCESSING: dict[bool, str] = {True: "stop words removed, Porter stems", False: "none (lowercase tokens)"}


def _means(scores: pd.DataFrame) -> dict[str, float]:
    return {measure: float(scores[measure].mean()) for measure in MEASURES}


def relevance_transfer(data: RoutingData | None = None) -> pd.DataFrame:
    """Train on one collection, rank another, for every ordered pair (Breuer & Schaer, Table 2, Fig. 2).

    "Simple" combinations as in the paper: one training corpus, tf-idf fitted on the training corpus
    only.

    Parameters
    ----------
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in.

    Returns
    -------
    pandas.DataFrame
        MAP (and P@10, nDCG) over the topics judged in both; ``topics`` says how many, since means
        over different topic sets are not directly comparable.
    """
    data = data_or_stand_in(data)
    data.prefetch(transfer_requests())
    rows = []
    for target, training in ordered_pairs():
        result = data.run((training,), target)
        scores = data.scores(result, target)
        means = _means(scores)
        rows.append(
            {
                "target": data.role_names[target],
                "training": data.role_names[training],
                "topics": len(scores),
                "MAP": means["AP"],
                "P@10": means["P@10"],
                "nDCG": means["nDCG"],
                "data": data.label,
            }
        )
    return pd.DataFrame(rows)


def feature_augmentation(data: RoutingData | None = None) -> pd.DataFrame:
    """Compare tf-idf from the training corpus only with tf-idf from training ∪ target (Breuer & Schaer, Table 3).

    Parameters
    ----------
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in.

    Returns
    -------
    pandas.DataFrame
        For every ordered pair: MAP of both variants over the same topics, the difference
        (augmented − training only) and the two-tailed paired t-test on per-topic AP
        (:func:`irrepro.reproducibility.scores.paired_ttest`).
    """
    data = data_or_stand_in(data)
    data.prefetch(transfer_requests(augmented=(False, True)))
    rows = []
    for target, training in ordered_pairs():
        plain = data.scores(data.run((training,), target), target)["AP"]
        augmented = data.scores(data.run((training,), target, augment=True), target)["AP"]
        rows.append(
            {
                "target": data.role_names[target],
                "training": data.role_names[training],
                "topics": len(plain),
                "MAP training only": float(plain.mean()),
                "MAP augmented": float(augmented.mean()),
                "difference": float(augmented.mean() - plain.mean()),
                "p (paired t-test)": float(scores.paired_ttest(plain, augmented)),
                "data": data.label,
            }
        )
    return pd.DataFrame(rows)


def _system_variants(
    data: RoutingData, target: str, *, preprocess: bool = True
) -> list[tuple[str, RoutingResult, list[str]]]:
    """(row name, run, topics): WCrobust04; WCrobust0405 on the topics judged in both training
    corpora (the paper's first implementation); WCrobust0405 complemented (trained on whatever a
    topic has). A topic judged in both trains on both in either case, so the first is the second
    restricted to those topics (no separate run)."""
    wcr04 = data.system_run("wcrobust04", target, preprocess=preprocess)
    wcr0405 = data.system_run("wcrobust0405", target, preprocess=preprocess)
    both = [t for t in wcr0405.topics if len(wcr0405.sources[t]) == len(TRAINING_COLLECTIONS["wcrobust0405"])]
    return [
        ("WCrobust04", wcr04, list(wcr04.topics)),
        ("WCrobust0405", wcr0405, both),
        ("WCrobust0405 complemented", wcr0405, list(wcr0405.topics)),
    ]


def replication(data: RoutingData | None = None, *, official: bool = True) -> pd.DataFrame:
    """Replicate (near target) and reproduce (far target) WCrobust04 / WCrobust0405 (Tables 4-6).

    MAP, P@10 and nDCG per system variant and target, on all routable topics (Table 4 and, for the
    complemented run, Table 6) and on the topics common to all four collections (Table 5). Rows that
    would repeat another (a topic set equal to another, as on the stand-in, where every topic is
    judged in every slice) are given once, with the equality in their name.

    Every run is made twice, as in the paper's Table 4: with the preprocessing (stop words removed and
    Porter stems, as the authors' code does; the paper's text copy names neither) and without it
    (plain lowercase tokens as terms); the ``preprocessing`` column says which (:data:`PREPROCESSING`).

    Parameters
    ----------
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in.
    official : bool, default True
        Add the NIST Core17 scores of the original runs as rows whose ``data`` marks them as the
        targets only the licensed-data path can be compared with.

    Returns
    -------
    pandas.DataFrame
        One row per system variant, target, topic set and preprocessing.
    """
    data = data_or_stand_in(data)
    data.prefetch(system_requests(preprocessing=(True, False)))
    common = common_stand_in_topics(data)
    rows = []
    for (target, setting), preprocess in itertools.product(((NEAR, "replicated"), (FAR, "reproduced")), (True, False)):
        variants = _system_variants(data, target, preprocess=preprocess)
        if variants[1][2] == variants[2][2]:  # every topic judged in both training corpora
            variants = [variants[0], ("WCrobust0405 (= complemented: all topics judged in both)", *variants[2][1:])]
        for name, result, topics in variants:
            on_common = [t for t in common if t in topics]
            topic_sets_ = [("routable", topics)]
            if on_common != topics:
                topic_sets_.append(("common to all four", on_common))
            else:
                topic_sets_ = [("routable (= common to all four)", topics)]
            for topic_set, chosen in topic_sets_:
                table = data.scores(result, target, topics=chosen)
                rows.append(
                    {
                        "run": name,
                        "setting": setting,
                        "target": data.role_names[target],
                        "preprocessing": PREPROCESSING[preprocess],
                        "topic set": topic_set,
                        "topics": len(table),
                        **{("MAP" if m == "AP" else m): v for m, v in _means(table).items()},
                        "data": data.label,
                    }
                )
    if official:
        for system, values in OFFICIAL_CORE17.items():
            rows.append(
                {
                    "run": f"{system} (original, TREC 2017)",
                    "setting": "original",
                    "target": "NYT",
                    "preprocessing": "not described",
                    "topic set": "routable",
                    "topics": 50,
                    "MAP": values["AP"],
                    "P@10": values["P@10"],
                    "nDCG": values["nDCG"],
                    "data": "official TREC Core17 score: the target for the licensed corpora only",
                }
            )
    return pd.DataFrame(rows)


def replication_table(replicated: pd.DataFrame) -> pd.DataFrame:
    """Lay out :func:`replication` as the paper's Table 4 does.

    The target label says the setting (``near (NYT role), replicated``); the official TREC rows are
    labelled as such (``NYT, official TREC 2017 scores``), so they cannot be read as a stand-in row.

    Parameters
    ----------
    replicated : pandas.DataFrame
        :func:`replication`'s table.

    Returns
    -------
    pandas.DataFrame
        One row per target, run and preprocessing (and topic set, where a run has two), columns
        topics, MAP, P@10 and nDCG.
    """
    table = replicated.copy()
    official = table["setting"] == "original"
    table["target"] = (table["target"] + ", " + table["setting"]).where(
        ~official, table["target"] + ", official TREC 2017 scores"
    )
    rows = ["target", "run", "preprocessing"]
    ours = table[~official]
    if ours.groupby(rows, sort=False)["topic set"].nunique().max() > 1:
        rows.append("topic set")
    return table.set_index(rows)[["topics", "MAP", "P@10", "nDCG", "data"]]


def preprocessing_effect(replicated: pd.DataFrame) -> pd.DataFrame:
    """Compare MAP with and without the preprocessing per run, target and topic set, from :func:`replication`.

    The paper: "Especially WCRobust04 profits from our preprocessing proposal".

    Parameters
    ----------
    replicated : pandas.DataFrame
        :func:`replication`'s table.

    Returns
    -------
    pandas.DataFrame
        MAP with and without; ``difference`` is with − without.
    """
    ours = replicated[replicated["setting"] != "original"]
    wide = ours.pivot_table(
        index=["run", "target", "topic set", "topics"], columns="preprocessing", values="MAP", sort=False
    ).reset_index()
    wide.columns.name = None
    wide = wide.rename(columns={PREPROCESSING[True]: "MAP with", PREPROCESSING[False]: "MAP without"})
    wide["difference"] = wide["MAP with"] - wide["MAP without"]
    wide["data"] = ours["data"].iat[0]
    return wide


def per_topic_ap(data: RoutingData | None = None) -> pd.DataFrame:
    """Give AP per topic on the topics common to all four collections, both systems, near and far target.

    Breuer & Schaer, Figures 3 and 4; WCrobust0405 complemented.

    Parameters
    ----------
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in.

    Returns
    -------
    pandas.DataFrame
        Long: target, system, topic, AP.
    """
    data = data_or_stand_in(data)
    data.prefetch(system_requests())
    common = common_stand_in_topics(data)
    rows = []
    for target in (NEAR, FAR):
        for system in TRAINING_COLLECTIONS:
            result = data.system_run(system, target)
            table = data.scores(result, target, topics=common)
            for topic, value in table["AP"].items():
                rows.append(
                    {
                        "target": f"{data.role_names[target]}, {'replicated' if target == NEAR else 'reproduced'}",
                        "system": SYSTEM_NAMES[system],
                        "topic": str(topic),
                        "AP": float(value),
                        "data": data.label,
                    }
                )
    return pd.DataFrame(rows)


def per_topic_gains(per_topic: pd.DataFrame) -> pd.DataFrame:
    """Count per target the topics on which WCrobust0405 beats WCrobust04 (the paper: 14 of 15 replicated).

    Parameters
    ----------
    per_topic : pandas.DataFrame
        :func:`per_topic_ap`'s table.

    Returns
    -------
    pandas.DataFrame
        One row per target.
    """
    wide = per_topic.pivot_table(index=["target", "topic"], columns="system", values="AP").reset_index()
    wide["gain"] = wide["WCrobust0405"] - wide["WCrobust04"]
    return (
        wide.groupby("target", sort=False)
        .agg(topics=("gain", "size"), improved=("gain", lambda g: int((g > 0).sum())), mean_gain=("gain", "mean"))
        .reset_index()
    )


def target_size_check() -> pd.DataFrame:
    """Test whether the near/far difference on the stand-in is an effect of the targets' sizes.

    The default runs (both systems, preprocessed) on both targets of the stand-in as built and of its
    size-controlled variant (:mod:`irrepro.routing.standin`, ``equal_targets``: both targets cut to
    the smaller one's size, the near target keeping its first stories, the far one its last).

    Returns
    -------
    pandas.DataFrame
        Per slicing and target: stories, kept topics, the share of relevant judgments, MAP of each
        system and far − near.
    """
    rows = []
    for equal_targets in (False, True):
        data = stand_in(equal_targets=equal_targets)
        data.prefetch(system_requests())
        for target in (NEAR, FAR):
            collection = data.collections[target]
            row = {
                "targets": "cut to equal size" if equal_targets else "as built",
                "target": data.role_names[target],
                "first_date": min(d.date[:10] for d in collection.documents),
                "last_date": max(d.date[:10] for d in collection.documents),
                "documents": len(collection.documents),
                "topics": int(collection.qrels["query_id"].nunique()),
                "relevant share": float((collection.qrels["relevance"] > 0).mean()),
            }
            for system, name in SYSTEM_NAMES.items():
                result = data.system_run(system, target)
                row[f"MAP {name}"] = float(data.scores(result, target)["AP"].mean())
            row["data"] = data.label
            rows.append(row)
    table = pd.DataFrame(rows)
    for name in SYSTEM_NAMES.values():
        far_minus_near = table.groupby("targets", sort=False)[f"MAP {name}"].transform(lambda m: m.iloc[1] - m.iloc[0])
        table[f"far − near {name}"] = far_minus_near.where(table["target"] == STAND_IN_ROLE_NAMES[FAR])
    return table
