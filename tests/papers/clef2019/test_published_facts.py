"""The CLEF 2019 paper's topic sets and official scores, from the real TREC qrels and the SIGIR 2020 files."""

from __future__ import annotations

import pytest

from irrepro.papers.clef2019 import published_facts


def test_topic_sets_match_the_paper():
    table = published_facts.topic_sets()
    got = {(t, r): n for t, r, n in zip(table["target"], table["training"], table["intersection"], strict=True)}
    assert got[("Core17", "Robust04")] == 50
    assert got[("Core17", "Robust05")] == 33
    assert got[("Core18", "Robust04")] == 25
    assert got[("Core18", "Robust05")] == 15
    assert got[("Core17", "Robust04 ∪ Robust05")] == 50  # complemented WCrobust0405
    assert got[("Core17 ∩ Core18", "Robust04 ∩ Robust05")] == 15
    printed = table.dropna(subset=["printed"])
    assert (printed["difference"] == 0).all()
    assert set(table["data"]) == {published_facts.TREC_DATA}


def test_common_topics_are_the_fifteen_of_the_figures():
    topics = published_facts.common_topics()
    assert len(topics) == 15
    assert topics[0] == "336" and topics[-1] == "439"


def test_common_topics_are_the_fifteen_in_numeric_order():
    from irrepro.topic_order import sort_topics

    topics = published_facts.common_topics()
    assert len(topics) == 15 and topics == sort_topics(topics)


def test_official_scores_agree_with_the_sigir2020_files():
    table = published_facts.official_core17_scores()
    assert len(table) == 6
    assert (table["difference"].abs() < 1e-9).all()
    row = table[(table["system"] == "WCrobust0405") & (table["measure"] == "AP")].iloc[0]
    assert row["published"] == pytest.approx(0.4278)


def test_the_topic_sets_read_each_collections_qrels_once(monkeypatch):
    """topic_sets and common_topics share published_runs.judged_topics (one read per collection)."""
    from irrepro import runs
    from tests.papers.conftest import assert_made_once

    assert_made_once(monkeypatch, published_facts.topic_sets, runs, "_qrels_from_bytes")
    assert_made_once(monkeypatch, published_facts.common_topics, runs, "_qrels_from_bytes")
