"""The score matrices of the GLM chapter, the data it uses and the runs and topics it leaves out."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.data import fetch
from irrepro.papers import glm
from irrepro.papers.glm import scores
from irrepro.topic_order import sort_topics
from tests.papers.conftest import assert_made_once


def test_collections_have_the_documented_shapes():
    assert glm.load_scores("Robust04", "AP").shape == (249, 110)
    assert glm.load_scores("Core17", "AP").shape == (50, 102)
    assert glm.load_scores("Core18", "nDCG").shape == (25, 108)
    # Robust04 column means are the official MAPs: the best run, pircRB04td2, has MAP 0.3586 (NIST)
    assert glm.load_scores("Robust04", "AP").mean().max() == pytest.approx(0.3586, abs=5e-5)
    with pytest.raises(ValueError, match="no per-topic 'nDCG'"):
        glm.load_scores("Robust04", "nDCG")
    with pytest.raises(ValueError, match="unknown collection"):
        glm.load_scores("Core19", "AP")


def test_robust04_means_are_nists_official_maps():
    official = glm.official_summary("Robust04")["map"].sort_values().to_numpy()
    ours = glm.load_scores("Robust04", "AP").mean().sort_values().to_numpy()
    assert ours == pytest.approx(official, abs=5e-5)


def test_outliers_and_boundary_topics():
    assert glm.outlier_systems("Robust04") == []
    assert glm.outlier_systems("Core17") == ["rpl_wcrobust04_35"]
    assert glm.outlier_systems("Core18") == ["rpd_wcrobust04_35", "rpd_wcrobust0405_35"]
    scores = glm.analysis_scores("Core18", "P@10", outliers_removed=True)
    assert scores.shape == (24, 106)
    assert (scores.max(axis=1) > 0).all()
    assert glm.boundary_dropped("Core18", "P@10") == (("414",), ())


def test_settings_list_every_variant_once():
    found = glm.settings()
    assert len(found) == len(set(found)) == 2 + 3 * 2 + 3 * 2
    assert ("Core18", "AP", True) in found and ("Robust04", "AP", True) not in found


def test_data_used_names_exactly_what_the_chapter_reads():
    used = glm.data_used().set_index("collection")
    assert list(used.index) == ["Robust04", "Core17", "Core18"]
    for collection, row in used.iterrows():
        assert (row["topics"], row["runs"]) == glm.load_scores(collection, "AP").shape
        assert row["measures"].split(", ") == list(glm.measures_of(collection))
    assert "paper's collection" in used.loc["Robust04", "role"] and "substitute" in used.loc["Core18", "role"]
    files = " ".join(used["files"]).split()
    assert set(files) | {"trec_scores/trecbrowser_core18_summary.csv"} == set(glm.data_files())
    for name in files:
        fetch(name)  # every listed file exists in the registry and the mirror


def test_data_summary_counts_zeros_as_integers():
    summary = glm.data_summary().set_index(["collection", "measure"])
    zeros = int((glm.load_scores("Core18", "P@10") == 0).to_numpy().sum())
    assert summary.loc[("Core18", "P@10"), "zero_count"] == zeros
    assert summary.loc[("Core18", "P@10"), "zero_scores"] == zeros / (25 * 108)
    assert summary.loc[("Core18", "P@10"), "dropped all-0/all-1 topics"] == "414"


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
    for collection, measure in (("Robust04", "AP"), ("Core17", "nDCG"), ("Core18", "P@10")):
        index = list(glm.load_scores(collection, measure).index)
        assert index == sort_topics(index)


def test_a_settings_matrix_is_made_once_and_handed_out_as_copies(monkeypatch):
    assert_made_once(monkeypatch, lambda: glm.analysis_scores("Core18", "AP", outliers_removed=True), scores, "load_scores")
    handed_out = glm.analysis_scores("Core18", "AP", outliers_removed=True)
    handed_out.iloc[0, 0] = -1.0
    assert glm.analysis_scores("Core18", "AP", outliers_removed=True).iloc[0, 0] != -1.0
