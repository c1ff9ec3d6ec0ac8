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
- :func:`relevance_transfer` (Table 2), :func:`feature_augmentation` (Table 3), :func:`replication`
  (Tables 4-6, with and without the preprocessing) and :func:`preprocessing_effect`,
  :func:`per_topic_ap` (Figures 3, 4), :func:`own_dataset_measures` (the SIGIR 2020 measures on our
  own runs), :func:`target_size_check` (the stand-in's near/far comparison at equal target sizes).

The runs are made on :func:`stand_in` (open) or :func:`licensed_data` (the user's TREC corpora).
Published file names come from :mod:`irrepro.papers.datasets`; :func:`fidelity` gives the fidelity
rows of the paper (:mod:`irrepro.papers.fidelity`) without making a run.
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pandas as pd

from irrepro.data import fetch
from irrepro.outputs import table_set
from irrepro.papers import datasets
from irrepro.papers.claims import ClaimList
from irrepro.papers.clef2019 import claim_checks as clef2019_claims
from irrepro.papers.clef2019 import fidelity_rows as clef2019_fidelity
from irrepro.papers.clef2019 import files as clef2019_files
from irrepro.papers.clef2019.published_facts import (
    FAR,
    NEAR,
    OFFICIAL_CORE17,
    TREC_COLLECTIONS,
    common_topics,
    official_core17_scores,
    topic_sets,
)
from irrepro.papers.datasets import file_part, sigir2020_file
from irrepro.reproducibility import ranking, scores
from irrepro.routing import standin
from irrepro.routing.constellations import (
    DEFAULT,
    FAMILIES,
    PRINTED,
    TRAINING_COLLECTIONS,
    Constellation,
    by_name,
)
from irrepro.routing.experiment import (
    MEASURES,
    ConfiguredCorpora,
    RunCache,
    RunRequest,
    StandInCorpora,
    unique_requests,
)
from irrepro.routing.pipeline import RoutingResult
from irrepro.runs import write_run
from irrepro.topic_order import sort_topics

__all__ = [
    "TREC_COLLECTIONS",
    "OFFICIAL_CORE17",
    "topic_sets",
    "official_core17_scores",
    "own_dataset_er_deltari_points",
    "er_deltari_points",
    "CLAIMS",
    "fidelity",
    "write_tables",
    "common_topics",
    "RoutingData",
    "stand_in",
    "stand_in_summary",
    "target_size_check",
    "relevance_transfer",
    "feature_augmentation",
    "common_stand_in_topics",
    "replication",
    "preprocessing_effect",
    "per_topic_ap",
    "per_topic_gains",
    "own_dataset_requests",
    "own_dataset_sharing",
    "own_dataset_measures",
    "constellation_arp_comparison",
    "tolerance_check",
    "own_dataset_table",
    "table_requests",
    "licensed_data",
    "replication_table",
    "transfer_extremes",
    "augmentation_summary",
    "preprocessing_summary",
    "tolerance_ratios",
    "tolerance_summary",
    "closing_numbers",
    "licensed_status",
]

# The paper's collections, topic sets and official scores: irrepro.papers.clef2019.published_facts.


# =========================================================================== runs of the pipeline

#: The paper's four roles (the training roles of each system: ``TRAINING_COLLECTIONS``, imported above).
ROLES: tuple[str, ...] = ("robust04", "robust05", "core17", "core18")
#: How the tables name the roles on the licensed corpora (the paper's names of the collections).
ROLE_NAMES: dict[str, str] = {"robust04": "Robust04", "robust05": "Robust05", "core17": "NYT", "core18": "WaPo"}
#: How the stand-in's tables and figures name its slices: by nature and role, so that no stand-in
#: number reads like a TREC result.
STAND_IN_ROLE_NAMES: dict[str, str] = {
    "robust04": "train-04 (Robust04 role)",
    "robust05": "train-05 (Robust05 role)",
    "core17": "near (NYT role)",
    "core18": "far (WaPo role)",
}
#: How the tables name the two preprocessing choices (``preprocess`` of :func:`irrepro.routing.pipeline.route`).
PREPROCESSING: dict[bool, str] = {True: "stop words removed, Porter stems", False: "none (lowercase tokens)"}
SYSTEM_NAMES: dict[str, str] = {name.lower(): name for name in datasets.SYSTEMS}  # system key -> name
STAND_IN_DATA = "Reuters-21578 stand-in (open; time slices in the roles of the TREC corpora)"
STAND_IN_EQUAL_TARGETS_DATA = "Reuters-21578 stand-in, targets cut to equal size (first near, last far stories)"
#: Depth of KTU and RBO in the own dataset (the deepest cut-off of the SIGIR 2020 paper).
RANKING_DEPTH = 1000
RBO_P = 0.8


@dataclass(kw_only=True)
class RoutingData(RunCache):
    """The four collections a routing experiment needs, keyed by role, and what they are.

    ``collections`` maps the roles ``robust04``, ``robust05``, ``core17`` (near target) and
    ``core18`` (far target) to :class:`irrepro.routing.pipeline.Collection` objects with qrels;
    ``corpora`` names the corpus playing each role; ``label`` goes into every table's ``data``;
    ``role_names`` is how tables and figures name each role. The runs and their scores are made
    once and kept (:class:`irrepro.routing.experiment.RunCache`); ``source`` tells Dask workers
    where to find the collections themselves.
    """

    label: str
    corpora: dict[str, str]
    role_names: dict[str, str] = field(default_factory=lambda: dict(ROLE_NAMES))

    def __post_init__(self):
        missing = [role for role in ROLES if role not in self.collections]
        if missing:
            raise ValueError(f"routing data {self.label!r} lacks the role(s) {', '.join(missing)}")


@lru_cache(maxsize=2)
def stand_in(*, equal_targets: bool = False) -> RoutingData:
    """The Reuters-21578 stand-in (:mod:`irrepro.routing.standin`) in the paper's four roles;
    ``equal_targets``: its size-controlled variant (both targets cut to the same number of stories)."""
    built = standin.load(equal_targets=equal_targets)
    by_role = {role: name for name, role in standin.ROLES.items()}
    return RoutingData(
        label=STAND_IN_EQUAL_TARGETS_DATA if equal_targets else STAND_IN_DATA,
        collections={role: built.collections[by_role[role]] for role in ROLES},
        corpora={role: by_role[role] for role in ROLES},
        role_names=dict(STAND_IN_ROLE_NAMES),
        source=StandInCorpora(equal_targets=equal_targets),
    )


def stand_in_summary() -> pd.DataFrame:
    """The stand-in's four slices: role, dates, documents, kept topics, relevant judgments."""
    table = standin.load().summary()
    table.insert(1, "slice", table["role"].map(STAND_IN_ROLE_NAMES))
    table["data"] = STAND_IN_DATA
    return table.drop(columns="role")


def target_size_check() -> pd.DataFrame:
    """Is the near/far difference on the stand-in an effect of the targets' sizes?

    The default runs (both systems, preprocessed) on both targets of the stand-in as built and of its
    size-controlled variant (:mod:`irrepro.routing.standin`, ``equal_targets``: both targets cut to
    the smaller one's size, the near target keeping its first stories, the far one its last). Per
    slicing and target: stories, kept topics, the share of relevant judgments, MAP of each system and
    far − near.
    """
    rows = []
    for equal_targets in (False, True):
        data = stand_in(equal_targets=equal_targets)
        data.prefetch(_system_requests())
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


def _data(data: RoutingData | None) -> RoutingData:
    return stand_in() if data is None else data


def _means(scores: pd.DataFrame) -> dict[str, float]:
    return {measure: float(scores[measure].mean()) for measure in MEASURES}


# =========================================================================== Section 2: Table 2


def _ordered_pairs() -> list[tuple[str, str]]:
    return [(target, training) for target in ROLES for training in ROLES if training != target]


def _transfer_requests(*, augmented: Sequence[bool] = (False,)) -> list[RunRequest]:
    """One training corpus, one target, for every ordered pair (with and without augmentation)."""
    return [RunRequest((training,), target, augment=a) for target, training in _ordered_pairs() for a in augmented]


def relevance_transfer(data: RoutingData | None = None) -> pd.DataFrame:
    """Train on one collection, rank another, for every ordered pair (Breuer & Schaer, Table 2, Fig. 2).

    "Simple" combinations as in the paper: one training corpus, tf-idf fitted on the training corpus
    only. MAP (and P@10, nDCG) over the topics judged in both; ``topics`` says how many, since
    means over different topic sets are not directly comparable.
    """
    data = _data(data)
    data.prefetch(_transfer_requests())
    rows = []
    for target, training in _ordered_pairs():
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


# =========================================================================== Section 3: Table 3


def feature_augmentation(data: RoutingData | None = None) -> pd.DataFrame:
    """tf-idf from the training corpus only vs from training ∪ target (Breuer & Schaer, Table 3).

    For every ordered pair: MAP of both variants over the same topics, the difference
    (augmented − training only) and the two-tailed paired t-test on per-topic AP
    (:func:`irrepro.reproducibility.scores.paired_ttest`).
    """
    data = _data(data)
    data.prefetch(_transfer_requests(augmented=(False, True)))
    rows = []
    for target, training in _ordered_pairs():
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


# =========================================================================== Section 4: Tables 4-6


def _system_requests(
    *,
    constellations: Sequence[Constellation] = (DEFAULT,),
    preprocessing: Sequence[bool] = (True,),
) -> list[RunRequest]:
    """Both systems on both targets for each constellation (and each preprocessing choice)."""
    return [
        RunRequest(TRAINING_COLLECTIONS[s], t, c, preprocess=p)
        for p in preprocessing for c in constellations for s in TRAINING_COLLECTIONS for t in (NEAR, FAR)
    ]


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


def common_stand_in_topics(data: RoutingData) -> list[str]:
    """Topics judged in all four collections of ``data`` (for the stand-in: every kept topic)."""
    judged = [frozenset(c.qrels["query_id"].astype(str)) for c in data.collections.values()]
    return sort_topics(frozenset.intersection(*judged))


def replication(data: RoutingData | None = None, *, official: bool = True) -> pd.DataFrame:
    """Replicated (near target) and reproduced (far target) WCrobust04 / WCrobust0405 (Tables 4-6).

    MAP, P@10 and nDCG per system variant and target, on all routable topics (Table 4 and, for the
    complemented run, Table 6) and on the topics common to all four collections (Table 5). With
    ``official=True`` the NIST Core17 scores of the original runs are added as rows whose ``data``
    marks them as the targets only the licensed-data path can be compared with. Rows that would
    repeat another (a topic set equal to another, as on the stand-in, where every topic is judged
    in every slice) are given once, with the equality in their name.

    Every run is made twice, as in the paper's Table 4: with the preprocessing (stop words removed and
    Porter stems, as the authors' code does; the paper's text copy names neither) and without it (plain lowercase tokens as terms); the ``preprocessing``
    column says which (:data:`PREPROCESSING`).
    """
    data = _data(data)
    data.prefetch(_system_requests(preprocessing=(True, False)))
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


def preprocessing_effect(replicated: pd.DataFrame) -> pd.DataFrame:
    """MAP with and without the preprocessing per run, target and topic set, from :func:`replication`
    (the paper: "Especially WCRobust04 profits from our preprocessing proposal"). ``difference`` is
    with − without."""
    ours = replicated[replicated["setting"] != "original"]
    wide = ours.pivot_table(
        index=["run", "target", "topic set", "topics"], columns="preprocessing", values="MAP", sort=False
    ).reset_index()
    wide.columns.name = None
    wide = wide.rename(columns={PREPROCESSING[True]: "MAP with", PREPROCESSING[False]: "MAP without"})
    wide["difference"] = wide["MAP with"] - wide["MAP without"]
    wide["data"] = ours["data"].iat[0]
    return wide


# =========================================================================== Section 5: Figures 3, 4


def per_topic_ap(data: RoutingData | None = None) -> pd.DataFrame:
    """AP per topic on the topics common to all four collections, both systems, near and far target
    (Breuer & Schaer, Figures 3 and 4; WCrobust0405 complemented). Long: target, system, topic, AP."""
    data = _data(data)
    data.prefetch(_system_requests())
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
    """Per target: on how many topics WCrobust0405 beats WCrobust04 (the paper: 14 of 15 replicated)."""
    wide = per_topic.pivot_table(index=["target", "topic"], columns="system", values="AP").reset_index()
    wide["gain"] = wide["WCrobust0405"] - wide["WCrobust04"]
    return (
        wide.groupby("target", sort=False)
        .agg(topics=("gain", "size"), improved=("gain", lambda g: int((g > 0).sum())), mean_gain=("gain", "mean"))
        .reset_index()
    )


# =========================================================================== Section 6: own dataset


#: the own dataset's two settings: replicability on the near target, reproducibility on the far one
OWN_SETTINGS: tuple[tuple[str, str], ...] = (("replicability", NEAR), ("reproducibility", FAR))
PAIR = "WCrobust0405 vs WCrobust04"


def own_dataset_requests() -> list[RunRequest]:
    """The own dataset's runs: both systems on both targets, the default and the 20 printed constellations."""
    return _system_requests(constellations=(DEFAULT, *PRINTED))


def own_dataset_sharing(data: RoutingData | None = None) -> dict[str, int]:
    """How the own dataset's runs share their features: ``runs``, ``feature_sets`` (distinct tf-idf
    models and feature matrices, one per system, target and feature parameters) and ``workers`` (the
    most worker processes ``data``'s runs were made on so far; 1: only this process)."""
    requests = own_dataset_requests()
    workers = _data(data).n_jobs if data is not None else stand_in().n_jobs
    return {"runs": len(requests), "feature_sets": len({r.feature_key for r in requests}), "workers": workers}


def _own_runs(data: RoutingData, system: str, target: str) -> dict[str, RoutingResult]:
    return {c.name: data.system_run(system, target, constellation=c) for c in PRINTED}


def _measured(function, *arguments, **options) -> tuple[object, str]:
    """``function(*arguments, **options)`` and, where a value is undefined (NaN), the reason."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", scores.UndefinedMeasureWarning)
        values = function(*arguments, **options)
    return values, "; ".join(str(w.message) for w in caught if issubclass(w.category, scores.UndefinedMeasureWarning))


def _measure_rows(data: RoutingData, setting: str, system: str, measure: str, statistic: str, values,
                  note: str = "") -> list[dict]:
    """One row of the long table per constellation in ``values`` (constellation name -> value)."""
    rows = []
    for name, value in values.items():
        c = by_name(name)
        rows.append({
            "setting": setting, "constellation": name, "family": c.family if c is not DEFAULT else "default",
            "level": c.level if c is not DEFAULT else 0, "system": system, "measure": measure,
            "statistic": statistic, "value": float(value), "note": note if pd.isna(value) else "", "data": data.label,
        })  # fmt: skip
    return rows


def _original_rows(data: RoutingData, original_scores: dict[str, pd.DataFrame]) -> list[dict]:
    """Step 1: ARP of the originals (the default runs on the near target)."""
    return [
        row for system in TRAINING_COLLECTIONS for measure in MEASURES
        for row in _measure_rows(data, "original", SYSTEM_NAMES[system], measure, "ARP",
                                 {"default": original_scores[system][measure].mean()})
    ]  # fmt: skip


def _per_measure(data: RoutingData, runs: dict[str, RoutingResult], target: str) -> dict[str, pd.DataFrame]:
    """Per measure: topics x constellations of the per-topic scores of ``runs``."""
    frames = {name: data.scores(result, target) for name, result in runs.items()}
    return {m: pd.DataFrame({name: frame[m] for name, frame in frames.items()}) for m in MEASURES}


def _score_rows(data: RoutingData, setting: str, system: str, original: pd.DataFrame,
                new: dict[str, pd.DataFrame]) -> list[dict]:
    """Step 2: ARP, RMSE (replicability) and the t-test of one system's runs against its original."""
    rows = []
    for measure in MEASURES:
        orig, runs = original[measure], new[measure]
        calls = [("ARP", scores.arp, (runs,))]
        if setting == "replicability":
            calls += [("RMSE", scores.rmse, (orig, runs)), ("p-value", scores.paired_ttest, (orig, runs))]
        else:
            calls += [("p-value", scores.unpaired_ttest, (orig, runs))]
        for statistic, function, arguments in calls:
            rows += _measure_rows(data, setting, SYSTEM_NAMES[system], measure, statistic, *_measured(function, *arguments))
    return rows


def _ranking_rows(data: RoutingData, system: str, original: RoutingResult, runs: dict[str, RoutingResult]) -> list[dict]:
    """Step 3 (replicability only): KTU and RBO of the ranked lists against the original's."""
    ranked = ranking.ranking_measures(
        original.run, {name: result.run for name, result in runs.items()}, depth=RANKING_DEPTH, rbo_p=RBO_P,
        measures=("KTU", "RBO"),
    )
    label = SYSTEM_NAMES[system]
    return [row for m in ("KTU", "RBO") for row in _measure_rows(data, "replicability", label, "ranking", m, ranked[m].mean())]


def _effect_rows(data: RoutingData, setting: str, original_scores: dict[str, pd.DataFrame],
                 new: dict[str, dict[str, pd.DataFrame]]) -> list[dict]:
    """Step 4: ER and DeltaRI of WCrobust0405's improvement over WCrobust04, against the originals'."""
    rows = []
    for measure in MEASURES:
        arguments = (original_scores["wcrobust0405"][measure], original_scores["wcrobust04"][measure],
                     new["wcrobust0405"][measure], new["wcrobust04"][measure])  # fmt: skip
        er = _measured(scores.effect_ratio, *arguments, paired=setting == "replicability")
        rows += _measure_rows(data, setting, PAIR, measure, "ER", *er)
        rows += _measure_rows(data, setting, PAIR, measure, "DeltaRI", *_measured(scores.delta_relative_improvement, *arguments))
    return rows


def own_dataset_measures(data: RoutingData | None = None, *, client=None) -> pd.DataFrame:
    """The SIGIR 2020 measures on this compendium's own runs: 20 printed constellations x 2 systems x
    2 targets, against the default runs on the near target as the originals.

    Replicability (near target, same qrels): ARP, KTU and RBO (p = 0.8, depth 1000; computed from
    the ranked lists by :mod:`irrepro.reproducibility.ranking`), RMSE, ER (paired), DeltaRI and the
    paired t-test, per measure. Reproducibility (far target): ARP, ER (unpaired), DeltaRI and the
    unpaired t-test (:mod:`irrepro.reproducibility.scores`). ER and DeltaRI compare the improvement
    of WCrobust0405 (advanced) over WCrobust04 (baseline) with the originals' improvement, so they
    belong to the pair (``system`` = "WCrobust0405 vs WCrobust04").

    The runs (:func:`own_dataset_requests`) are made on the Dask cluster of ``client`` if given
    (:func:`irrepro.routing.experiment.local_cluster`), else here; the same runs either way.

    Long table: setting, constellation, family, level, system, measure, statistic, value, note, data;
    an undefined value (e.g. ER when the originals' improvement is zero) is NaN and ``note`` says why.
    """
    data = _data(data)
    data.prefetch(own_dataset_requests(), client=client)
    originals = {s: data.system_run(s, NEAR) for s in TRAINING_COLLECTIONS}
    original_scores = {s: data.scores(r, NEAR) for s, r in originals.items()}
    rows = _original_rows(data, original_scores)
    for setting, target in OWN_SETTINGS:
        new: dict[str, dict[str, pd.DataFrame]] = {}
        for system in TRAINING_COLLECTIONS:
            runs = _own_runs(data, system, target)
            new[system] = _per_measure(data, runs, target)
            rows += _score_rows(data, setting, system, original_scores[system], new[system])
            if setting == "replicability":
                rows += _ranking_rows(data, system, originals[system], runs)
        rows += _effect_rows(data, setting, original_scores, new)
    return pd.DataFrame(rows)


def constellation_arp_comparison(measures: pd.DataFrame, *, measure: str = "AP") -> pd.DataFrame:
    """ARP per printed constellation: the SIGIR 2020 authors' replicated runs on the licensed Core17
    (mean of their published per-topic files, ``sigir2020/measures/rpl_<system>_<measure>.csv``) next
    to this chapter's runs on the near target of ``measures``' data, both relative to the default.

    The two columns ran on different data and cannot be compared value by value; the ratios to the
    default show whether a constellation moves effectiveness the same way.
    """
    rows = []
    for system, name in SYSTEM_NAMES.items():
        published = pd.read_csv(fetch(sigir2020_file("rpl", system, file_part(measure))))
        ours = measures[
            (measures["system"] == name) & (measures["measure"] == measure) & (measures["statistic"] == "ARP")
            & measures["setting"].isin(["original", "replicability"])
        ].set_index("constellation")["value"]
        default_published = float(published[DEFAULT.dataset_column(name)].mean())
        for constellation in (DEFAULT, *PRINTED):
            value = float(published[constellation.dataset_column(name)].mean())
            rows.append(
                {
                    "system": name,
                    "constellation": constellation.name,
                    f"{measure} SIGIR 2020 (Core17)": value,
                    "ratio to default (SIGIR 2020)": value / default_published,
                    f"{measure} ours": float(ours[constellation.name]),
                    "ratio to default (ours)": float(ours[constellation.name] / ours["default"]),
                    "data": f"SIGIR 2020 per-topic files (licensed NYT) | {measures['data'].iat[0]}",
                }
            )
    return pd.DataFrame(rows)


_TOL_LEVELS = (DEFAULT, *[c for c in PRINTED if c.family == "tol"])


def _tolerance_requests(system: str) -> list[RunRequest]:
    """The default and tol runs of ``system`` on the near target, tol on the mean and on the summed loss."""
    return [RunRequest(TRAINING_COLLECTIONS[system], NEAR, c, tol_scale=scale) for scale in ("mean", "sum") for c in _TOL_LEVELS]


def tolerance_check(data: RoutingData | None = None, *, system: str = "WCrobust0405") -> pd.DataFrame:
    """Why the ``tol`` constellations collapse here: ``tol`` on the mean loss against ``tol`` on the summed loss.

    scikit-learn 1.4 divided the logistic-regression objective by the number of training documents
    but kept what ``tol`` bounds (L-BFGS-B's largest projected-gradient entry), see
    :mod:`irrepro.routing.classifier`. The default and ``tol_1`` ... ``tol_5`` runs of ``system`` on
    the near target, once as current scikit-learn applies ``tol`` (``tol_scale="mean"``) and once as
    scikit-learn < 1.4 did (``"sum"``): lbfgs iterations per topic (median, and the topics stopped
    before the first step: min-max and median), MAP and its ratio to the default run of the same scale, next to the
    ratio of the SIGIR 2020 authors' runs (their published per-topic files, licensed NYT).
    """
    data = _data(data)
    key = next(k for k, name in SYSTEM_NAMES.items() if name == system)
    levels = _TOL_LEVELS
    data.prefetch(_tolerance_requests(key))
    published = pd.read_csv(fetch(sigir2020_file("rpl", key, file_part("AP"))))
    published_default = float(published[DEFAULT.dataset_column(system)].mean())
    rows = []
    for scale, loss in (("mean", "mean (scikit-learn >= 1.4)"), ("sum", "sum (scikit-learn < 1.4)")):
        default_map = None
        for constellation in levels:
            result = data.system_run(key, NEAR, constellation=constellation, tol_scale=scale)
            iterations = pd.Series(result.iterations, dtype="int64")
            ap = float(data.scores(result, NEAR)["AP"].mean())
            default_map = ap if constellation is DEFAULT else default_map
            rows.append(
                {
                    "loss tol bounds": loss,
                    "constellation": constellation.name,
                    "tol": constellation.tol,
                    "lbfgs iterations": f"{iterations.min()}-{iterations.max()} (median {iterations.median():g})",
                    "topics stopped before the first step": f"{int((iterations == 0).sum())} of {len(iterations)}",
                    "AP": ap,
                    "ratio to default": ap / default_map,
                    "ratio to default (SIGIR 2020)": float(published[constellation.dataset_column(system)].mean()) / published_default,
                    "data": f"{data.label} | SIGIR 2020 per-topic files (licensed NYT)",
                }
            )
    return pd.DataFrame(rows)


def own_dataset_table(measures: pd.DataFrame, *, setting: str, system: str) -> pd.DataFrame:
    """One system's rows of :func:`own_dataset_measures` as the SIGIR 2020 appendix lays them out:
    one row per constellation (the first: the original, the default run on the near target), columns
    (statistic, measure)."""
    part = measures[(measures["setting"].isin([setting, "original"])) & (measures["system"] == system)]
    table = part.pivot(index="constellation", columns=["statistic", "measure"], values="value")
    statistics = ["ARP", "KTU", "RBO", "RMSE", "p-value"]
    table = table[[c for s in statistics for c in table.columns if c[0] == s]]
    order = ["default"] + [c.name for c in PRINTED]
    table = table.reindex([name for name in order if name in table.index])
    return table.rename(index={"default": "original (default, near target)"})


def own_dataset_er_deltari_points(measures: pd.DataFrame, *, setting: str) -> pd.DataFrame:
    """ER and DeltaRI per constellation and measure of :func:`own_dataset_measures`, in the layout of
    :func:`irrepro.plots.reproducibility.er_deltari_figure` (family, level, measure, ER, DeltaRI).

    Not :func:`irrepro.papers.sigir2020.er_deltari_points` (the SIGIR 2020 figures' points, from a
    setting alone); ``er_deltari_points`` is this function's old name, kept while the chapter calls it."""
    part = measures[(measures["setting"] == setting) & measures["statistic"].isin(["ER", "DeltaRI"])]
    points = part.pivot(index=["constellation", "family", "level", "measure"], columns="statistic", values="value")
    points = points.reset_index()
    points.columns.name = None
    points["family"] = pd.Categorical(points["family"], categories=list(FAMILIES))
    return points.sort_values(["family", "level", "measure"]).reset_index(drop=True)


er_deltari_points = own_dataset_er_deltari_points  # the old name (the chapter calls it); use the new one

#: The paper's claims (:mod:`irrepro.papers.claims`), registered in :mod:`irrepro.papers.clef2019.claim_checks`.
CLAIMS: ClaimList = clef2019_claims.CLAIMS


# =========================================================================== fidelity

#: One row per table and figure of the paper: :func:`irrepro.papers.clef2019.fidelity_rows.fidelity`.
fidelity = clef2019_fidelity.fidelity


# =========================================================================== command line


def table_requests() -> list[RunRequest]:
    """Every run the tables of :func:`write_tables` use, each once (what ``runs/`` holds)."""
    requests = [
        *_transfer_requests(augmented=(False, True)), *_system_requests(preprocessing=(True, False)),
        *own_dataset_requests(), *_tolerance_requests("wcrobust0405"),
    ]
    return unique_requests(requests)


def write_tables(out_dir: Path, *, data: RoutingData | None = None, client=None) -> list[Path]:
    """Write every table of the chapter as CSV into ``out_dir`` and the runs they use under ``out_dir/runs``.

    ``topic_sets.csv``, ``official_core17.csv``, ``stand_in.csv``, ``relevance_transfer.csv``,
    ``feature_augmentation.csv``, ``replication.csv``, ``per_topic_ap.csv``,
    ``own_dataset_measures.csv``, ``tolerance_check.csv`` and, on the stand-in, ``target_size_check.csv``; the runs as TREC run files ``runs/<run tag>.run`` (evaluate them with
    trec_eval and the qrels of their target): exactly the runs of :func:`table_requests`, whatever
    else ``data`` has made before. ``client``: a Dask client the own dataset's runs are made on.
    """
    data = _data(data)
    tables = {
        "topic_sets": topic_sets(),
        "official_core17": official_core17_scores(),
        "relevance_transfer": relevance_transfer(data),
        "feature_augmentation": feature_augmentation(data),
        "replication": replication(data),
        "per_topic_ap": per_topic_ap(data),
        "own_dataset_measures": own_dataset_measures(data, client=client),
        "tolerance_check": tolerance_check(data),
    }
    tables.update(clef2019_files.published_tables())  # cheap: published files and qrels only
    if data.label == STAND_IN_DATA:
        tables.update(clef2019_files.stand_in_tables())  # the divergences, measured on the stand-in
        tables["stand_in"] = stand_in_summary()
        tables["target_size_check"] = target_size_check()
    with table_set(out_dir, producer=f"{__name__}.write_tables") as written:  # one set, manifest last
        for name, table in tables.items():
            written.add_table(f"{name}.csv", table)
        for result in data.results(table_requests()):
            tag = str(result.run["run"].iat[0])
            written.add_file(f"runs/{tag}.run", functools.partial(write_run, result.run, name=tag))
    return written.paths


# =========================================================================== licensed corpora


def licensed_data(config: str | Path | None = None) -> RoutingData | None:
    """The user's licensed TREC corpora in the four roles, or ``None`` when no configuration exists.

    The configuration (:mod:`irrepro.routing.config`: ``config``, else ``$IRREPRO_ROUTING_CONFIG``,
    else ``./routing-corpora.toml``) must name the corpora ``robust04``, ``robust05``, ``core17`` and
    ``core18``; a configuration that exists but is wrong raises its :class:`ConfigError`.
    """
    from irrepro.routing.config import configured_collections, find_config

    path = find_config(config, required=config is not None)
    if path is None:
        return None
    path, collections = configured_collections(ROLES, path)
    return RoutingData(
        label=f"licensed TREC corpora ({path})", collections=collections, corpora={r: r for r in ROLES},
        source=ConfiguredCorpora(str(path), ROLES),
    )


# =========================================================================== for the chapter's text
# Small functions returning the numbers (and verdict words) a sentence of the chapter needs, so that
# the page glues them into its prose instead of computing them in a cell.


def replication_table(replicated: pd.DataFrame) -> pd.DataFrame:
    """:func:`replication` as the paper's Table 4 lays it out: one row per target, run and
    preprocessing (and topic set, where a run has two), columns topics, MAP, P@10 and nDCG.

    The target label says the setting (``near (NYT role), replicated``); the official TREC rows are
    labelled as such (``NYT, official TREC 2017 scores``), so they cannot be read as a stand-in row.
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


def transfer_extremes(transfer: pd.DataFrame) -> dict[str, object]:
    """The best and the worst pair of :func:`relevance_transfer` by MAP, and their topics."""
    ordered = transfer.sort_values("MAP", ascending=False, kind="stable")
    best, worst = ordered.iloc[0], ordered.iloc[-1]
    return {
        "best_target": best["target"], "best_training": best["training"], "best_map": float(best["MAP"]),
        "worst_target": worst["target"], "worst_training": worst["training"], "worst_map": float(worst["MAP"]),
        "topics": int(best["topics"]),
    }  # fmt: skip


def augmentation_summary(augmentation: pd.DataFrame, *, alpha: float = 0.05) -> dict[str, object]:
    """How many pairs of :func:`feature_augmentation` differ at ``alpha``; the largest MAP change."""
    return {
        "significant": int((augmentation["p (paired t-test)"] < alpha).sum()),
        "pairs": len(augmentation),
        "largest_change": float(augmentation["difference"].abs().max()),
    }


def preprocessing_summary(effect: pd.DataFrame) -> dict[str, object]:
    """In how many cases of :func:`preprocessing_effect` the preprocessing raises MAP, the range of
    the differences and whether WCrobust04 gains more than WCrobust0405 on every target (the paper:
    "Especially WCRobust04 profits from our preprocessing proposal")."""
    gains = effect.set_index(["run", "target"])["difference"]
    wcr04 = gains[gains.index.get_level_values("run") == "WCrobust04"].droplevel("run")
    others = gains[gains.index.get_level_values("run") != "WCrobust04"]
    more = all(wcr04[target] > gain for (_, target), gain in others.items())
    return {
        "raised": int((gains > 0).sum()),
        "cases": len(gains),
        "smallest": float(gains.min()),
        "largest": float(gains.max()),
        "verdict": "it helps WCrobust04 more than WCrobust0405 on both targets, as in the paper"
        if more
        else "unlike in the paper, WCrobust04 is not the run that profits most on both targets",
    }


def tolerance_ratios(comparison: pd.DataFrame, *, system: str = "WCrobust0405") -> dict[str, float]:
    """The range of the tol constellations' AP relative to the default in :func:`constellation_arp_comparison`,
    ours and the SIGIR 2020 authors'."""
    tol = comparison[(comparison["system"] == system) & comparison["constellation"].str.startswith("tol")]
    ours, theirs = tol["ratio to default (ours)"], tol["ratio to default (SIGIR 2020)"]
    return {"ours_min": ours.min(), "ours_max": ours.max(), "theirs_min": theirs.min(), "theirs_max": theirs.max()}


def tolerance_summary(tolerance: pd.DataFrame) -> dict[str, object]:
    """What :func:`tolerance_check` shows for tol_1 ... tol_5: topics stopped before the first step and
    the share of the default's AP kept, with tol on the mean loss and on the summed loss, next to the
    SIGIR 2020 runs, and whether each falls as tol grows."""
    levels = tolerance[tolerance["constellation"] != "default"]
    mean = levels[levels["loss tol bounds"].str.startswith("mean")]
    summed = levels[levels["loss tol bounds"].str.startswith("sum")]

    def falling(ratios: pd.Series) -> str:
        return "falling" if bool((ratios.diff().dropna() <= 0).all()) else "not falling"

    low, high = f"{mean['ratio to default'].min():.1%}", f"{mean['ratio to default'].max():.1%}"
    published = summed["ratio to default (SIGIR 2020)"]
    return {
        "stopped": ", ".join(sorted(set(mean["topics stopped before the first step"]))),
        "mean_kept": low if low == high else f"{low} to {high}",
        "sum_max": summed["ratio to default"].max(), "sum_min": summed["ratio to default"].min(),
        "sum_falling": falling(summed["ratio to default"]),
        "published_max": published.max(), "published_min": published.min(),
        "published_falling": falling(published),
    }  # fmt: skip


def _improvement(replicated: pd.DataFrame, target: str) -> dict[str, object]:
    ours = replicated[(replicated["target"] == target) & (replicated["preprocessing"] == PREPROCESSING[True])]
    ours = ours.drop_duplicates("run").set_index("run")["MAP"]
    wcr04 = ours["WCrobust04"]
    wcr0405 = ours[[run for run in ours.index if run.startswith("WCrobust0405")][-1]]  # complemented
    verdict = "improves on" if wcr0405 > wcr04 else "does not improve on"
    return {"wcrobust04": float(wcr04), "wcrobust0405": float(wcr0405), "verdict": verdict}


def _near_far(size_check: pd.DataFrame, targets: str) -> dict[str, object]:
    part = size_check[size_check["targets"] == targets]
    near, far = part.iloc[0], part.iloc[1]  # target_size_check lists the near target first
    harder = [name for name in SYSTEM_NAMES.values() if far[f"MAP {name}"] < near[f"MAP {name}"]]
    verdict = (
        "the far target is harder for both systems" if len(harder) == 2
        else "the far target is easier for both systems" if not harder
        else f"the far target is harder only for {', '.join(harder)}"
    )  # fmt: skip
    numbers = {"near_stories": int(near["documents"]), "far_stories": int(far["documents"]),
               "topics": int(far["topics"]), "verdict": verdict}  # fmt: skip
    for key, name in SYSTEM_NAMES.items():
        numbers[f"near_{key}"], numbers[f"far_{key}"] = float(near[f"MAP {name}"]), float(far[f"MAP {name}"])
    numbers["far_minus_near"] = float(far["far − near WCrobust04"])
    return numbers


def closing_numbers(replicated: pd.DataFrame, size_check: pd.DataFrame) -> dict[str, object]:
    """The closing note's numbers: does WCrobust0405 improve on WCrobust04 on each stand-in target
    (preprocessed runs), and is the far target harder, as built and with both targets cut to equal
    size (:func:`target_size_check`)? Keys ``near_*``, ``far_*``, ``built_*``, ``equal_*``, ``size``
    and ``drift`` (the sentences' verdicts)."""
    numbers: dict[str, object] = {}
    for role, target in (("near", STAND_IN_ROLE_NAMES[NEAR]), ("far", STAND_IN_ROLE_NAMES[FAR])):
        numbers.update({f"{role}_{key}": value for key, value in _improvement(replicated, target).items()})
    for prefix, targets in (("built", "as built"), ("equal", "cut to equal size")):
        numbers.update({f"{prefix}_{key}": value for key, value in _near_far(size_check, targets).items()})
    same_sign = (numbers["built_far_minus_near"] > 0) == (numbers["equal_far_minus_near"] > 0)
    numbers["size"] = "Size does not explain it" if same_sign else "Size explains the sign"
    numbers["drift"] = (
        "In the paper the far target (WaPo) was clearly harder; the stand-in does not show that drift."
        if numbers["equal_far_minus_near"] > 0
        else "As in the paper, the far target is harder."
    )
    return numbers


def licensed_status(data: RoutingData | None) -> str:
    """The sentence that says which corpora the licensed-data section below ran on."""
    if data is None:
        return (
            "No corpora configuration was found ($IRREPRO_ROUTING_CONFIG or ./routing-corpora.toml): this "
            "build ran on the Reuters-21578 stand-in only, and the two cells below show nothing."
        )
    return f"This build ran the cells below on {data.label}."
