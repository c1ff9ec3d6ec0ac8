"""Topic sets from the real TREC qrels: the intersections Breuer & Schaer report."""

from __future__ import annotations

import pytest

from irrepro.data import fetch
from irrepro.routing.topics import routable_topics, training_sources
from irrepro.runs import read_qrels


@pytest.fixture(scope="module")
def qrels():
    return {name: read_qrels(fetch(f"qrels/{name}.txt")) for name in ("robust04", "robust05", "core17", "core18")}


@pytest.mark.parametrize(
    "target, training, expected",
    [("core17", "robust04", 50), ("core17", "robust05", 33), ("core18", "robust04", 25), ("core18", "robust05", 15)],
)
def test_intersections_match_the_paper(qrels, target, training, expected):
    assert len(routable_topics([qrels[training]], qrels[target])) == expected


def test_wcrobust0405_trains_where_judged(qrels):
    topics = routable_topics([qrels["robust04"], qrels["robust05"]], qrels["core18"])
    assert len(topics) == 25  # every Core18 topic judged in Robust05 is judged in Robust04 too
    sources = training_sources({"robust04": qrels["robust04"], "robust05": qrels["robust05"]}, topics)
    assert sum(s == ["robust04", "robust05"] for s in sources.values()) == 15
    assert sum(s == ["robust04"] for s in sources.values()) == 10
    assert topics == sorted(topics, key=int)
