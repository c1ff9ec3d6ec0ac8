"""The Reuters-21578 stand-in, end to end on four of its 22 files (fast)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.evaluation import evaluate
from irrepro.routing import standin
from irrepro.routing.constellations import by_name

SMALL = ("reuters21578/reut2-000.sgm", "reuters21578/reut2-011.sgm", "reuters21578/reut2-017.sgm", "reuters21578/reut2-020.sgm")


@pytest.fixture(scope="module")
def small():
    return standin.load(min_relevant=3, files=SMALL)


def test_four_disjoint_slices_in_time_order(small):
    names = list(small.collections)
    assert names == ["reuters-04", "reuters-05", "reuters-near", "reuters-far"]
    ids = [{d.doc_id for d in small.collections[n].documents} for n in names]
    assert sum(map(len, ids)) == len(set().union(*ids))
    summary = small.summary()
    assert (summary["last_date"].iloc[:-1].to_numpy() < summary["first_date"].iloc[1:].to_numpy()).all()
    assert summary.loc[3, "first_date"] >= "1987-05-01" and summary.loc[2, "first_date"] >= "1987-04-01"


def test_every_document_judged_for_every_kept_topic(small):
    assert small.topics and len(small.topics) < small.candidate_topics
    for collection in small.collections.values():
        qrels = collection.qrels
        assert len(qrels) == len(collection.documents) * len(small.topics)
        relevant = qrels[qrels["relevance"] == 1].groupby("query_id").size()
        assert (relevant.reindex(small.topics, fill_value=0) >= small.min_relevant).all()
        by_id = {d.doc_id: d for d in collection.documents}
        row = qrels.iloc[len(qrels) // 2]
        assert row["relevance"] == int(row["query_id"] in by_id[row["doc_id"]].topics)


@pytest.mark.parametrize("system, target, augment", [("wcrobust04", "reuters-near", False), ("wcrobust0405", "reuters-far", True)])
def test_systems_rank_far_better_than_chance(small, system, target, augment):
    result = small.run(system, target, constellation=by_name("tf_1"), augment=augment, k=500)
    run = result.run
    assert set(run["query_id"]) == set(result.topics) == set(small.topics)
    assert run.groupby("query_id").size().max() <= 500
    assert result.sources[small.topics[0]] == (["reuters-04", "reuters-05"] if system == "wcrobust0405" else ["reuters-04"])
    assert set(result.missing_judged.values()) == {0}
    qrels = small.collections[target].qrels
    shuffled = run.assign(score=np.random.default_rng(0).permutation(run["score"].to_numpy()))
    scores = evaluate({"system": run, "shuffled": shuffled}, qrels, measures=("AP",))["AP"]
    assert scores["system"].mean() > 0.5 > scores["shuffled"].mean() + 0.1


def test_bad_rule_input_raises():
    with pytest.raises(ValueError, match="min_relevant"):
        standin.build_standin([], min_relevant=0)
    with pytest.raises(ValueError, match="before 1987-04-01"):
        standin.build_standin([])


def test_equal_targets_keep_the_first_near_and_the_last_far_stories():
    full = standin.load(min_relevant=3, files=SMALL)
    equal = standin.load(min_relevant=3, files=SMALL, equal_targets=True)
    near, far = (equal.collections[n].documents for n in ("reuters-near", "reuters-far"))
    full_near, full_far = (full.collections[n].documents for n in ("reuters-near", "reuters-far"))
    size = min(len(full_near), len(full_far))
    assert len(near) == len(far) == size and len(full_near) != len(full_far)
    assert near == full_near[:size] and far == full_far[len(full_far) - size :]
    assert equal.collections["reuters-04"].documents == full.collections["reuters-04"].documents
    for collection in equal.collections.values():
        relevant = collection.qrels[collection.qrels["relevance"] == 1].groupby("query_id").size()
        assert set(collection.qrels["query_id"]) == set(equal.topics)
        assert (relevant.reindex(equal.topics, fill_value=0) >= 3).all()


# --------------------------------------------------------------------------- implementations (irrepro.routing.implementations)


@pytest.fixture(scope="module")
def small_authors():
    return standin.load(min_relevant=3, files=SMALL, text="authors")


def test_the_authors_text_rule_keeps_slices_and_topics(small, small_authors):
    assert small_authors.topics == small.topics and small_authors.text == "authors"
    for name, collection in small.collections.items():
        other = small_authors.collections[name]
        assert [d.doc_id for d in other.documents] == [d.doc_id for d in collection.documents]
    changed = sum(a.text != b.text for a, b in zip(small.collections["reuters-near"].documents, small_authors.collections["reuters-near"].documents, strict=True))
    assert changed > 0  # the datelines


def test_three_implementations_give_valid_and_different_runs(small, small_authors, tmp_path):
    from irrepro.routing.implementations import IMPLEMENTATIONS
    from irrepro.runs import read_run, write_run

    runs = {}
    for name, implementation in IMPLEMENTATIONS.items():
        data = small_authors if implementation.text == "authors" else small
        result = data.run("wcrobust0405", "reuters-near", implementation=name, k=200)
        assert result.parameters["implementation"] == name
        write_run(result.run, tmp_path / name)
        run = read_run(tmp_path / name)
        assert set(run["query_id"]) == set(small.topics) and run.groupby("query_id").size().max() == 200
        assert set(run["run"]) == {"wcrobust0405_default" + ("" if name == "paper" else f"_{name}")}
        runs[name] = run
        scores = evaluate({name: run}, small.collections["reuters-near"].qrels, measures=("AP",))["AP"]
        assert scores[name].mean() > 0.5
    for a, b in (("paper", "clef2019"), ("paper", "sigir2020"), ("clef2019", "sigir2020")):
        assert not runs[a][["query_id", "doc_id"]].equals(runs[b][["query_id", "doc_id"]]), (a, b)


def test_a_text_rule_mismatch_is_refused(small):
    with pytest.raises(ValueError, match="reads text='authors', but this stand-in was read with text='anserini'"):
        small.run("wcrobust04", "reuters-near", implementation="clef2019")


def test_one_stand_in_per_process_however_its_arguments_are_spelled(small):
    """Its term counts are counted once per collection object, so every spelling of the same
    arguments (keywords at their defaults or not, a list of files) hands out the same object."""
    assert standin.load(min_relevant=3, files=list(SMALL), equal_targets=False, text="anserini") is small
    assert standin.load() is standin.load(min_relevant=standin.MIN_RELEVANT, files=standin.REUTERS_FILES)


def test_every_document_is_judged_for_every_topic_in_topic_order(small):
    qrels = small.collections["reuters-near"].qrels
    documents = qrels["doc_id"].unique()
    assert len(qrels) == len(documents) * qrels["query_id"].nunique()
    first_topic = qrels["query_id"].iat[0]
    assert (qrels["query_id"].iloc[: len(documents)] == first_topic).all()
    assert list(qrels["doc_id"].iloc[: len(documents)]) == list(documents)
    assert str(qrels["query_id"].dtype) == str(qrels["doc_id"].dtype) == "str" and qrels["relevance"].isin([0, 1]).all()


def test_each_slice_says_what_it_is(small):
    about = {name: collection.about for name, collection in small.collections.items()}
    assert f"dated before {small.training_cut}" in about["reuters-04"]["source"]
    assert "stand-in for core18" in about["reuters-far"]["source"]
    assert "every story judged for every topic" in about["reuters-near"]["topics"]


def test_a_run_made_again_reuses_its_training(small):
    """StandIn.run trains with the process's shared trainer: the second identical run trains nothing,
    and its run is route()'s, which trains afresh."""
    from irrepro.routing.pipeline import route
    from irrepro.routing.trainer import shared_trainer

    first = small.run("wcrobust04", "reuters-near", constellation=by_name("C_3"))
    trained = shared_trainer().trainings
    again = small.run("wcrobust04", "reuters-near", constellation=by_name("C_3"))
    assert shared_trainer().trainings == trained
    alone = route([small.training["robust04"]], small.collections["reuters-near"], constellation=by_name("C_3"),
                  run_tag=first.run["run"].iat[0])  # fmt: skip
    pd.testing.assert_frame_equal(again.run, alone.run)
    pd.testing.assert_frame_equal(first.run, alone.run)
    assert again.iterations == alone.iterations
