"""The GLM chapter's exercises: reference answers against independent computations, and their pages."""

from __future__ import annotations

import numpy as np
import pytest

from irrepro import exercises
from irrepro.papers import glm as paper
from tests.papers.glm.conftest import statsmodels_fit

GLM_IDS = ["glm-refit-another-link", "glm-count-ssd-pairs", "glm-split-consistency", "glm-read-deviance-table",
           "glm-remove-outliers"]  # fmt: skip


def test_the_chapter_has_five_glm_exercises_with_labels():
    assert exercises.ids("glm") == GLM_IDS
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "chapters" / "glm.md").read_text(encoding="utf-8")
    for exercise_id in GLM_IDS:
        assert f":label: {exercise_id}" in page and f"{{solution-start}} {exercise_id}" in page


def test_refit_deviance_equals_statsmodels_probit_fit():
    answer = exercises.solution("glm-refit-another-link")
    reference = statsmodels_fit(paper.analysis_scores("Robust04", "AP"), "probit")
    assert answer["deviance"] == pytest.approx(reference.deviance, rel=1e-8)
    assert 0 < answer["ssd_pairs"] <= 110 * 109 // 2
    assert not exercises.check("glm-refit-another-link", {**answer, "ssd_pairs": answer["ssd_pairs"] + 1})


def test_ssd_counts_at_alpha_001_are_at_most_the_counts_at_005():
    answer = exercises.solution("glm-count-ssd-pairs")
    at_005 = paper.ssd_table().set_index(["collection", "measure", "outliers_removed", "link"])
    for link in ("identity", "logit"):
        assert answer[link]["tukey"] <= at_005.loc[("Core18", "AP", False, link), "ssd_pairs"]
        assert answer[link]["holm"] <= at_005.loc[("Core18", "AP", False, link), "ssd_pairs_holm"]


def test_split_consistency_counts_add_up_to_the_significant_pairs_of_the_halves():
    table = exercises.solution("glm-split-consistency")
    assert list(table.index) == ["identity", "logit"] and (table >= 0).all().all()
    n_pairs = 110 * 109 // 2
    assert (table.sum(axis=1) <= n_pairs).all()


def test_read_deviance_table_matches_the_argmin_of_table1():
    answer = exercises.solution("glm-read-deviance-table")
    wide = paper.table1()
    for (collection, measure), column in wide.items():
        if not collection.startswith("Core17"):
            assert answer["lowest"][f"{collection} {measure}"] == column.astype(float).idxmin()
    identity, logit = wide.loc["identity", ("Robust04", "AP")], wide.loc["logit", ("Robust04", "AP")]
    assert answer["logit_gain_robust04_ap"] == pytest.approx((identity - logit) / identity)
    assert not exercises.check("glm-read-deviance-table", {**answer, "lowest": {**answer["lowest"], "Robust04 AP": "log"}})


def test_removing_outliers_shrinks_the_largest_se_ratio_under_log():
    answer = exercises.solution("glm-remove-outliers")
    assert answer["with outliers"]["se_ratio"] > answer["without outliers"]["se_ratio"] > 1
    effects = paper.system_effects("Core18", "AP", links=("log",))
    assert answer["with outliers"]["se_ratio"] == pytest.approx(np.max(effects["se"]) / np.median(effects["se"]))
