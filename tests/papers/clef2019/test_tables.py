"""Tables 2-6 and Figures 3-4 of the CLEF 2019 paper made by the routing pipeline (on tiny data and the stand-in)."""

from __future__ import annotations

import pytest

from irrepro.papers.clef2019 import tables


def test_relevance_transfer_covers_every_ordered_pair(tiny):
    table = tables.relevance_transfer(tiny)
    assert len(table) == 12
    assert not (table["target"] == table["training"]).any()
    assert set(table["topics"]) == {3}
    assert table["MAP"].between(0, 1).all()
    assert set(table["data"]) == {"tiny test data"}


def test_feature_augmentation_compares_the_same_topics(tiny):
    table = tables.feature_augmentation(tiny)
    assert len(table) == 12
    difference = table["MAP augmented"] - table["MAP training only"]
    assert difference.to_numpy() == pytest.approx(table["difference"].to_numpy())
    assert table["p (paired t-test)"].dropna().between(0, 1).all()


def test_replication_marks_the_official_targets(tiny):
    table = tables.replication(tiny)
    official = table[table["setting"] == "original"]
    assert len(official) == 2 and official["data"].str.contains("licensed corpora only").all()
    assert official["MAP"].tolist() == [0.3711, 0.4278]
    ours = table[table["setting"] != "original"]
    assert set(ours["data"]) == {"tiny test data"}
    # every topic is judged everywhere: the intersection variant is the complemented run, given once
    # per target and preprocessing choice
    assert ours["run"].str.contains("= complemented").sum() == 4
    assert set(ours["target"]) == {"NYT", "WaPo"}
    assert ours.groupby(["target", "preprocessing"]).size().to_dict() == {
        (t, p): 2 for t in ("NYT", "WaPo") for p in tables.PREPROCESSING.values()
    }
    assert set(official["preprocessing"]) == {"not described"}


def test_runs_without_preprocessing_are_made_and_tabulated(tiny):
    table = tables.replication(tiny, official=False)
    effect = tables.preprocessing_effect(table)
    assert len(effect) == 4  # 2 runs x 2 targets
    assert effect["difference"].to_numpy() == pytest.approx((effect["MAP with"] - effect["MAP without"]).to_numpy())
    plain = tiny.system_run("wcrobust04", "core17", preprocess=False)
    processed = tiny.system_run("wcrobust04", "core17")
    assert plain.parameters["preprocess"] is False and str(plain.run["run"].iat[0]).endswith("_unprocessed")
    assert processed.parameters["preprocess"] is True and plain is not processed


def test_replication_table_has_the_papers_layout_and_labels_the_official_rows(tiny):
    table = tables.replication_table(tables.replication(tiny))
    assert list(table.index.names) == ["target", "run", "preprocessing"]
    assert list(table.columns) == ["topics", "MAP", "P@10", "nDCG", "data"]
    targets = list(dict.fromkeys(table.index.get_level_values("target")))
    assert targets == ["NYT, replicated", "WaPo, reproduced", "NYT, official TREC 2017 scores"]


@pytest.mark.slow
def test_target_size_check_on_the_stand_in():
    table = tables.target_size_check()
    assert table["targets"].tolist() == ["as built", "as built", "cut to equal size", "cut to equal size"]
    built, equal = table.iloc[:2], table.iloc[2:]
    assert built["documents"].nunique() == 2 and equal["documents"].nunique() == 1
    assert equal["documents"].iat[0] == built["documents"].min()
    assert (table["topics"] >= 1).all() and table["relevant share"].between(0, 1).all()
    far = table[table["target"] == "far (WaPo role)"]
    near = table[table["target"] == "near (NYT role)"]
    expected = far["MAP WCrobust04"].to_numpy() - near["MAP WCrobust04"].to_numpy()
    assert far["far − near WCrobust04"].to_numpy() == pytest.approx(expected)
    assert near["far − near WCrobust04"].isna().all()


def test_per_topic_ap_and_gains(tiny):
    per_topic = tables.per_topic_ap(tiny)
    assert len(per_topic) == 2 * 2 * 3  # targets x systems x topics
    gains = tables.per_topic_gains(per_topic)
    assert gains["topics"].tolist() == [3, 3]
    assert gains["improved"].between(0, 3).all()
