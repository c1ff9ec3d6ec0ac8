"""The CLEF 2019 (routing) exercises: helpers against independent computations, answers checked."""

from __future__ import annotations

import pytest

from irrepro import exercises
from irrepro.data import fetch
from irrepro.exercises import clef2019 as ex
from irrepro.routing import standin


def _judged(name: str) -> set[str]:
    with open(fetch(f"qrels/{name}.txt"), encoding="utf-8") as lines:
        return {line.split()[0] for line in lines if line.strip()}


def test_five_routing_exercises_of_four_kinds():
    ids = exercises.ids("routing_runs")
    assert len(ids) >= 5 and all(i.startswith("routing-") for i in ids)
    assert {exercises.get(i).kind for i in ids} >= {"experiment", "predict-then-check", "interpretation", "by hand"}


def test_training_rule_against_the_qrels():
    answer = exercises.solution("routing-training-rule")
    r04, r05, core18 = _judged("robust04"), _judged("robust05"), _judged("core18")
    for topic in ex.RULE_TOPICS:
        expected = "both" if topic in r04 and topic in r05 else "Robust04" if topic in r04 else "none"
        assert answer[topic] == expected
    assert answer["first"] == sum(t in core18 and t in r04 and t in r05 for t in ex.RULE_TOPICS) == 1
    assert answer["complemented"] == sum(t in core18 and (t in r04 or t in r05) for t in ex.RULE_TOPICS) == 3
    assert {answer[t] for t in ex.RULE_TOPICS} == {"both", "Robust04", "none"}  # every case occurs
    wrong = {**answer, "321": "both"}
    assert exercises.check("routing-training-rule", wrong) is False


def test_training_source_cases():
    cases = {(True, True): "both", (True, False): "Robust04", (False, True): "Robust05", (False, False): "none"}
    assert {k: ex.training_source(*k) for k in cases} == cases


def test_a_run_replicates_itself_perfectly():
    run = standin.run("wcrobust04", "reuters-near").run
    measures = ex.replication_measures(run, run.copy(), standin.load().collections["reuters-near"].qrels)
    assert measures == {"KTU": pytest.approx(1.0), "RBO": pytest.approx(1.0), "RMSE:AP": 0.0}


def test_changed_c_and_ties_move_the_measures_as_the_chapter_says():
    c = exercises.solution("routing-replicate-with-c")
    assert c["RBO"] < 1 and c["RMSE:AP"] > 0
    ties = exercises.solution("routing-ties-predict")
    # trec_eval sorts ties itself, and KTU and RBO rank as trec_eval does: the file's order of ties is invisible
    assert ties == {"MAP change": 0.0, "KTU": 1.0, "RBO": 1.0}


def test_published_table_answer():
    answer = exercises.solution("routing-published-table")
    assert answer["drop"] == pytest.approx(answer["MAP replicated"] - answer["MAP reproduced"])
    assert (answer["topics won replicated"], answer["topics won reproduced"]) == (14, 11)
    assert exercises.check("routing-published-table", {**answer, "drop": answer["drop"] + 0.01}) is False
