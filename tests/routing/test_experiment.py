"""Run requests, shared features and the run cache (irrepro.routing.experiment), on the stand-in."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.routing import standin
from irrepro.routing.classifier import train_tolerances
from irrepro.routing.constellations import DEFAULT, by_name
from irrepro.routing.experiment import RunCache, RunRequest, StandInCorpora, iter_runs
from irrepro.routing.pipeline import route

WCR04 = ("robust04",)


def test_only_the_classifier_constellations_share_the_defaults_features():
    default = RunRequest(WCR04, "reuters-near")
    assert RunRequest(WCR04, "reuters-near", by_name("C_3")).feature_key == default.feature_key
    assert RunRequest(WCR04, "reuters-near", by_name("tol_5")).feature_key == default.feature_key
    assert RunRequest(WCR04, "reuters-near", by_name("tf_1")).feature_key != default.feature_key
    assert RunRequest(WCR04, "reuters-near", by_name("df_1")).feature_key != default.feature_key
    assert RunRequest(WCR04, "reuters-far").feature_key != default.feature_key
    assert RunRequest(WCR04, "reuters-near", preprocess=False).feature_key != default.feature_key
    assert RunRequest(WCR04, "reuters-near", implementation="sigir2020").feature_key != default.feature_key


def test_tags_and_the_implementations_tolerance():
    assert RunRequest(WCR04, "core17").tag == "from_robust04_to_core17_default"
    assert RunRequest(WCR04, "core17", tol_scale="sum").tag == "from_robust04_to_core17_default_tolsum"
    sigir = RunRequest(WCR04, "core17", implementation="sigir2020")
    assert sigir.tol_scale == "sum" and sigir.tag == "from_robust04_to_core17_default_sigir2020"
    assert RunRequest(WCR04, "core17", run_tag="mine").tag == "mine"
    assert RunRequest(["robust04"], "core17").key == RunRequest(WCR04, "core17", tol_scale="mean").key


@pytest.mark.parametrize("hold_target", [True, False])
def test_runs_from_shared_features_equal_single_runs(hold_target):
    built = standin.load()
    requests = [RunRequest(WCR04, "reuters-far", by_name(name)) for name in ("default", "C_4", "tf_2")]
    made = list(iter_runs(StandInCorpora(), requests, hold_target=hold_target))
    assert [m.request for m in made] == requests
    assert len({m.feature_key for m in made}) == 2  # default and C_4 share theirs
    for m in made:
        alone = route([built.training["robust04"]], built.collections["reuters-far"],
                      constellation=m.request.constellation, run_tag=m.request.tag)
        pd.testing.assert_frame_equal(m.result.run.astype({c: "str" for c in ("query_id", "doc_id", "run")}),
                                      alone.run.astype({c: "str" for c in ("query_id", "doc_id", "run")}))
        assert m.result.topics == alone.topics and m.result.parameters == alone.parameters


def test_the_cache_makes_each_run_once_and_returns_them_in_order():
    built = standin.load()
    cache = RunCache(collections={"robust04": built.training["robust04"], "near": built.collections["reuters-near"]})
    requests = [RunRequest(WCR04, "near", by_name("C_5")), RunRequest(WCR04, "near")]
    first = cache.results(requests + requests[:1])
    assert len(first) == 2 and len(cache.runs()) == 2
    assert cache.results(requests[::-1]) == first[::-1]
    assert cache.run(WCR04, "near") is first[1]
    assert cache.run(WCR04, "near", constellation=DEFAULT) is first[1]
    assert list(cache.scores(first[1], "near").columns) == ["AP", "P@10", "nDCG"]


@pytest.mark.parametrize(("workers", "what"), [(2, "died"), (1, "input lost with a worker that died")])
def test_a_worker_that_keeps_dying_ends_the_runs_with_a_clear_error(workers, what):
    """Dask gives up on a task whose worker died ``allowed-failures + 1`` times (KilledWorker; with
    one worker, the corpora scattered to it die too and the run is cancelled): either way the runs
    end with a :class:`WorkersLostError` naming the run and what to change."""
    import os

    import dask
    import distributed  # noqa: F401  (its configuration defaults loaded before the one set here)

    from irrepro.routing.corpora import Document
    from irrepro.routing.experiment import WorkersLostError, local_cluster
    from irrepro.routing.pipeline import Collection, Corpus

    qrels = pd.DataFrame({"query_id": ["1", "1"], "iteration": 0, "doc_id": ["a", "b"], "relevance": [1, 0]})
    dying = Collection("robust04", Corpus(lambda: os._exit(1)), qrels)  # the worker reading it dies
    target = Collection("target", [Document("a", "oil"), Document("b", "gold")], qrels)
    expected = rf"run from_robust04_to_target_default: .*{what}.*give each worker more memory"
    with (dask.config.set({"distributed.scheduler.allowed-failures": 0}),
          local_cluster(workers=workers, memory_limit="1GiB") as client, pytest.raises(WorkersLostError, match=expected)):
        list(iter_runs({"robust04": dying, "target": target}, [RunRequest(WCR04, "target")], client=client))


def test_classifiers_trained_once_rank_both_targets(monkeypatch):
    """Here, runs of one training set share the tf-idf model and the classifiers of each C and tol
    across targets that route the same topics: four runs, two trainings, each run as route() makes it."""
    from irrepro.routing import trainer

    trainings = []
    monkeypatch.setattr(trainer, "train_tolerances", lambda *a, **k: trainings.extend(k["tolerances"]) or train_tolerances(*a, **k))
    built = standin.load()
    requests = [RunRequest(WCR04, target, by_name(name)) for name in ("default", "C_4") for target in ("reuters-near", "reuters-far")]
    made = list(iter_runs(StandInCorpora(), requests))
    assert len(trainings) == 2 and {m.request for m in made} == set(requests)
    for m in made:
        alone = route([built.training["robust04"]], built.collections[m.request.target],
                      constellation=m.request.constellation, run_tag=m.request.tag)
        pd.testing.assert_frame_equal(m.result.run.astype({c: "str" for c in ("query_id", "doc_id", "run")}),
                                      alone.run.astype({c: "str" for c in ("query_id", "doc_id", "run")}))
        assert m.result.iterations == alone.iterations


def test_a_run_made_under_another_tag_is_handed_out_under_the_asked_one():
    built = standin.load()
    cache = RunCache(collections={"robust04": built.training["robust04"], "near": built.collections["reuters-near"]})
    first = cache.result(RunRequest(WCR04, "near"))
    mine = cache.result(RunRequest(WCR04, "near", run_tag="mine"))
    assert len(cache.runs()) == 1 and set(mine.run["run"]) == {"mine"} and set(first.run["run"]) == {first.run["run"].iat[0]}
    pd.testing.assert_frame_equal(mine.run.drop(columns="run"), first.run.drop(columns="run"))
    assert cache.result(RunRequest(WCR04, "near")) is first


def test_the_cache_trains_equal_content_once_across_prefetches():
    """Runs asked for one at a time (as the chapter's sections ask) share the cache's trainings: the
    near and far targets route the same topics from the same training rows."""
    built = standin.load()
    cache = RunCache(collections={"robust04": built.training["robust04"], "near": built.collections["reuters-near"],
                                  "far": built.collections["reuters-far"]})  # fmt: skip
    near, far = cache.run(WCR04, "near"), cache.run(WCR04, "far")
    assert near.topics == far.topics and cache.trainer.trainings == 1
    cache.run(WCR04, "far", constellation=by_name("C_4"))
    assert cache.trainer.trainings == 2


def test_runs_of_equal_lines_under_other_tags_are_scored_once(monkeypatch):
    """tol_1 and tol_2 on the mean loss stop every topic at the start (every score 1/2): their lines
    are equal, so the cache evaluates one of them; the default's lines differ and are evaluated too."""
    from irrepro.routing import experiment

    evaluated = []
    real = experiment.evaluate_prepared
    monkeypatch.setattr(experiment, "evaluate_prepared", lambda runs, *a, **k: evaluated.append(list(runs)) or real(runs, *a, **k))
    built = standin.load()
    cache = RunCache(collections={"robust04": built.training["robust04"], "near": built.collections["reuters-near"]})
    runs = [cache.run(WCR04, "near", constellation=by_name(name)) for name in ("tol_1", "tol_2", "default")]
    tables = [cache.scores(run, "near") for run in runs]
    assert [tag for (tag,) in evaluated] == [runs[0].run["run"].iat[0], runs[2].run["run"].iat[0]]
    pd.testing.assert_frame_equal(tables[0], tables[1])
    alone = RunCache(collections=cache.collections).scores(runs[1], "near")
    pd.testing.assert_frame_equal(tables[1], alone)
    assert not tables[2].equals(tables[0])
