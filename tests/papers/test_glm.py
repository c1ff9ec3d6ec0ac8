"""The GLM paper tables on the real data, and ``irrepro reproduce glm``."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from irrepro.papers import glm


def test_collections_have_the_documented_shapes():
    assert glm.load_scores("Robust04", "AP").shape == (249, 110)
    assert glm.load_scores("Core17", "AP").shape == (50, 102)
    assert glm.load_scores("Core18", "nDCG").shape == (25, 108)
    # Robust04 column means are the official MAPs: the best run, pircRB04td2, has MAP 0.3586 (NIST)
    assert glm.load_scores("Robust04", "AP").mean().max() == pytest.approx(0.3586, abs=5e-5)
    with pytest.raises(ValueError, match="no per-topic nDCG"):
        glm.load_scores("Robust04", "nDCG")


def test_outliers_and_boundary_topics():
    assert glm.outlier_systems("Robust04") == []
    assert glm.outlier_systems("Core18") == ["rpd_wcrobust04_35", "rpd_wcrobust0405_35"]
    scores = glm.analysis_scores("Core18", "P@10", outliers_removed=True)
    assert scores.shape == (24, 106)
    assert (scores.max(axis=1) > 0).all()


def test_deviance_table_on_core18():
    table = glm.deviance_table()
    assert {"collection", "measure", "outliers_removed", "link", "deviance", "converged"} <= set(table.columns)
    core18 = table[(table["collection"] == "Core18") & (table["measure"] == "AP") & ~table["outliers_removed"]]
    deviance = core18.set_index("link")["deviance"]
    assert deviance["logit"] < deviance["identity"] < deviance["exp"]
    wide = glm.table1(table)
    assert wide.shape == (7, len(table) // 7)


def test_reproduce_command_writes_the_three_tables(tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "irrepro", "reproduce", "glm", "--out", str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert "deviance.csv" in completed.stdout
    deviance = pd.read_csv(tmp_path / "deviance.csv")
    assert list(deviance.columns[:6]) == ["collection", "measure", "outliers_removed", "link", "deviance", "converged"]
    ssd = pd.read_csv(tmp_path / "ssd_pairs.csv")
    assert list(ssd.columns[:5]) == ["collection", "measure", "link", "ssd_pairs", "pairs"]
    consistency = pd.read_csv(tmp_path / "consistency.csv")
    assert {"active_agreements", "active_disagreements", "consistent_share"} <= set(consistency.columns)
    assert (ssd["ssd_pairs"] <= ssd["pairs"]).all()


def test_cached_results_are_handed_out_as_copies():
    scores = glm.load_scores("Core18", "AP")
    expected = scores.copy()
    scores.iloc[0, 0] = -1.0
    pd.testing.assert_frame_equal(glm.load_scores("Core18", "AP"), expected)

    analysed = glm.analysis_scores("Core18", "AP", outliers_removed=True)
    expected = analysed.copy()
    del analysed[analysed.columns[0]]
    pd.testing.assert_frame_equal(glm.analysis_scores("Core18", "AP", outliers_removed=True), expected)

    fits = glm.fits("Core18", "AP")
    effects = fits["logit"].system_effects.copy()
    fits["logit"].system_effects.iloc[1] = 99.0
    del fits["identity"]
    again = glm.fits("Core18", "AP", outliers_removed=False)
    pd.testing.assert_series_equal(again["logit"].system_effects, effects)
    assert "identity" in again


def test_scores_are_in_the_packages_topic_order():
    from irrepro.topic_order import sort_topics

    for collection, measure in (("Robust04", "AP"), ("Core17", "nDCG"), ("Core18", "P@10")):
        index = list(glm.load_scores(collection, measure).index)
        assert index == sort_topics(index)
