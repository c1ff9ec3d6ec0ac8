"""Run requests, shared features and the run cache (irrepro.routing.experiment), on the stand-in."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.routing import standin
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
