"""Exercises of the chapter "Replicating and reproducing routing runs" (Breuer & Schaer, CLEF 2019).

Five exercises, one of each kind a routing lesson needs:

- ``routing-replicate-with-c`` (experiment): replicate WCrobust04 on the stand-in with one parameter
  changed (``C`` of the logistic regression) and measure the replication with the SIGIR 2020 measures;
- ``routing-ties-predict`` (predict-then-check): what breaking ties the other way round, as the
  authors' code does, does to MAP, KTU and RBO;
- ``routing-largest-divergence`` (interpretation): which undocumented choice of the code changes the
  run most, and in which direction;
- ``routing-published-table`` (interpretation: reading the table of the published runs);
- ``routing-training-rule`` (by hand): the training corpora of WCrobust0405 per topic, and its topic
  counts before and after it was "complemented".

A student makes the runs with :func:`irrepro.routing.standin.run`; the reference answers take the
same runs from the chapter's run cache (:func:`irrepro.papers.clef2019.stand_in`, where the tables and
:mod:`irrepro.papers.clef2019.implementation_effects` keep them), so checking an answer makes no run
twice in one process.
"""

from __future__ import annotations

import pandas as pd

from irrepro.exercises.registry import exercise

__all__ = [
    "CHAPTER",
    "replicate_with_c",
    "ties_predict",
    "largest_divergence",
    "published_table",
    "training_rule",
    "C_CHANGED",
    "RULE_TOPICS",
    "replication_measures",
    "training_rule_table",
    "training_source",
]

CHAPTER = "routing_runs"
#: the constellation of the experiment: C = 0.1 instead of the default 1.5 (the SIGIR 2020 preset C_4)
C_CHANGED = "C_4"
DEPTH, RBO_P = 1000, 0.8
#: topics of the by-hand exercise: judged in all four collections (336), in Core18 and Robust04 only
#: (321, 350), in both Robust collections but not in Core18 (307), in Core18 only (801, 802)
RULE_TOPICS: tuple[str, ...] = ("336", "321", "350", "307", "801", "802")


def replication_measures(original: pd.DataFrame, replicated: pd.DataFrame, qrels: pd.DataFrame) -> dict[str, float]:
    """Measure a replication: KTU and RBO (means over topics, top 1,000, p = 0.8) and RMSE of per-topic AP.

    Parameters
    ----------
    original, replicated : pandas.DataFrame
        Run frames.
    qrels : pandas.DataFrame
        The judgments.

    Returns
    -------
    dict of str -> float
        ``KTU``, ``RBO`` and ``RMSE:AP``.
    """
    from irrepro.evaluation import evaluate
    from irrepro.reproducibility import ranking, scores

    ap = evaluate({"original": original, "replicated": replicated}, qrels, ("AP",))["AP"]
    return {
        "KTU": float(ranking.kendall_tau_union(original, replicated, depth=DEPTH).mean()),
        "RBO": float(ranking.rbo(original, replicated, p=RBO_P, depth=DEPTH).mean()),
        "RMSE:AP": float(scores.rmse(ap["original"], ap["replicated"])),
    }


@exercise(
    "routing-replicate-with-c",
    chapter=CHAPTER,
    title="Replicate WCrobust04 on the stand-in with another C",
    kind="experiment",
    tolerance=1e-4,
    hint=(
        "Run standin.run('wcrobust04', 'reuters-near') once with the defaults and once with "
        "constellation=by_name('C_4') (irrepro.routing.constellations: C = 0.1), then compare the "
        "second with the first: kendall_tau_union and rbo (depth=1000, p=0.8) of irrepro.reproducibility."
        "ranking, means over topics, and scores.rmse of per-topic AP (irrepro.evaluation.evaluate)."
    ),
)
def replicate_with_c() -> dict[str, float]:
    """Compare WCrobust04 with C = 0.1 (:data:`C_CHANGED`) with the default run, near target.

    Returns
    -------
    dict of str -> float
        ``KTU``, ``RBO`` and ``RMSE:AP``.
    """
    from irrepro.papers.clef2019 import stand_in
    from irrepro.papers.clef2019.published_facts import NEAR
    from irrepro.routing.constellations import by_name

    data = stand_in()  # the runs of standin.run("wcrobust04", "reuters-near", ...), under the cache's tags
    original = data.system_run("wcrobust04", NEAR).run
    changed = data.system_run("wcrobust04", NEAR, constellation=by_name(C_CHANGED)).run
    return replication_measures(original, changed, data.collections[NEAR].qrels)


@exercise(
    "routing-ties-predict",
    chapter=CHAPTER,
    title="Predict, then check: break ties the other way round",
    kind="predict-then-check",
    tolerance=1e-3,
    hint=(
        "trec_eval orders a run by score and breaks ties by document id, whatever the file's order; irrepro's "
        "KTU and RBO rank every run the same way (as repro_eval's break_ties does). Run "
        "standin.run('wcrobust0405', 'reuters-near') with and without implementation=switched('ties_last_first') "
        "and compare them as a replication."
    ),
)
def ties_predict() -> dict[str, float]:
    """Measure WCrobust0405 with ties broken as the authors' code does (near target) against the default.

    Returns
    -------
    dict of str -> float
        ``MAP change``, ``KTU`` and ``RBO``.
    """
    from irrepro.evaluation import evaluate
    from irrepro.papers.clef2019 import implementation_effects as effects
    from irrepro.routing import standin

    qrels = standin.load().collections[effects.TARGET].qrels
    runs = effects.stand_in_runs()  # standin.run("wcrobust0405", "reuters-near"[, implementation=switched(...)])
    first, last = runs[(effects.SYSTEM, "paper")], runs[(effects.SYSTEM, "+ties_last_first")]
    measures = replication_measures(first, last, qrels)
    ap = evaluate({"first": first, "last": last}, qrels, ("AP",))["AP"]
    return {"MAP change": float(ap["last"].mean() - ap["first"].mean()), "KTU": measures["KTU"], "RBO": measures["RBO"]}


@exercise(
    "routing-largest-divergence",
    chapter=CHAPTER,
    title="Which undocumented choice changes the run most?",
    kind="interpretation",
    tolerance=1e-4,
    hint=(
        "In the table of the divergences' effects, the change of the ranked lists is read from RBO (1: the "
        "same top of the lists); take the row with the lowest RBO and its MAP_with - MAP_without."
    ),
)
def largest_divergence() -> dict[str, object]:
    """Find the divergence with the lowest RBO against the ``paper`` run, and its MAP change.

    Returns
    -------
    dict of str -> object
        ``divergence`` (its name) and ``MAP change``.
    """
    from irrepro.papers.clef2019.implementation_effects import implementation_effects

    effects = implementation_effects().dropna(subset=["RBO"]).set_index("divergence")
    name = str(effects["RBO"].idxmin())
    return {"divergence": name, "MAP change": float(effects.loc[name, "MAP_with"] - effects.loc[name, "MAP_without"])}


@exercise(
    "routing-published-table",
    chapter=CHAPTER,
    title="Read the table of the published runs",
    kind="interpretation",
    tolerance=1e-4,
    hint=(
        "Use the rows of the 15 topics judged in all four collections: MAP of rpl_wcrobust0405_1 and of "
        "rpd_wcrobust0405_1, and the drop from the first to the second; for the counts, the columns of "
        "published_runs.published_runs_15_topics() (WCrobust0405 > WCrobust04 per setting)."
    ),
)
def published_table() -> dict[str, float]:
    """Read MAP of the 2020 WCrobust0405 on the 15 topics, replicated and reproduced, and the topics it wins.

    Returns
    -------
    dict of str -> float
        ``MAP replicated``, ``MAP reproduced``, ``drop`` (the first minus the second), ``topics won
        replicated`` and ``topics won reproduced``.
    """
    from irrepro.papers.clef2019 import published_runs

    summary = published_runs.published_runs_summary().query("topics == 15 and measure == 'MAP'")
    value = summary.set_index("system")["value"]
    gains = published_runs.published_gains().set_index("setting")["improved"]
    return {
        "MAP replicated": float(value["rpl_wcrobust0405_1"]),
        "MAP reproduced": float(value["rpd_wcrobust0405_1"]),
        "drop": float(value["rpl_wcrobust0405_1"] - value["rpd_wcrobust0405_1"]),
        "topics won replicated": int(gains["replicability"]),
        "topics won reproduced": int(gains["reproducibility"]),
    }


def training_source(in_robust04: bool, in_robust05: bool) -> str:
    """Give the training corpora of the complemented WCrobust0405 for a topic.

    Parameters
    ----------
    in_robust04, in_robust05 : bool
        Whether the topic is judged in each Robust collection.

    Returns
    -------
    str
        ``"both"``, ``"Robust04"``, ``"Robust05"`` or ``"none"``.
    """
    if in_robust04 and in_robust05:
        return "both"
    return "Robust04" if in_robust04 else "Robust05" if in_robust05 else "none"


def training_rule_table() -> pd.DataFrame:
    """Tell for :data:`RULE_TOPICS` whether each is judged in Robust04, Robust05 and Core18 (from the TREC qrels).

    Returns
    -------
    pandas.DataFrame
        One row per topic, one bool column per collection.
    """
    from irrepro.papers.clef2019.published_runs import judged_topics

    judged = {collection: [topic in judged_topics(collection) for topic in RULE_TOPICS]
              for collection in ("Robust04", "Robust05", "Core18")}  # fmt: skip
    return pd.DataFrame(judged, index=pd.Index(list(RULE_TOPICS), name="topic"))


@exercise(
    "routing-training-rule",
    chapter=CHAPTER,
    title="WCrobust0405's training corpora, by hand",
    kind="by hand",
    tolerance=0,
    hint=(
        "As first submitted, WCrobust0405 ranks only topics judged in the target and in both Robust "
        "collections; complemented (after Cormack's answer) it trains on whatever judgments a topic has. "
        "Answer {topic: 'both' | 'Robust04' | 'Robust05' | 'none'} for the six topics, plus 'first' and "
        "'complemented': how many of the six each version ranks on Core18."
    ),
)
def training_rule() -> dict[str, object]:
    """Give per topic of :data:`RULE_TOPICS` the training corpora, and how many topics each version ranks.

    Returns
    -------
    dict of str -> object
        Topic -> ``"both"``, ``"Robust04"``, ``"Robust05"`` or ``"none"``; ``first`` and
        ``complemented`` -> how many of the topics each version ranks on Core18.
    """
    table = training_rule_table()
    answer: dict[str, object] = {
        topic: training_source(row.Robust04, row.Robust05) for topic, row in table.iterrows()
    }
    judged = table["Core18"]
    answer["first"] = int((judged & table["Robust04"] & table["Robust05"]).sum())
    answer["complemented"] = int((judged & (table["Robust04"] | table["Robust05"])).sum())
    return answer
