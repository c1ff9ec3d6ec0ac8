"""Near-zero systems, zeros and ones, and the residual tests, against direct computations."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from irrepro.papers import glm
from irrepro.papers.glm import diagnostics
from tests.papers.conftest import assert_made_once
from tests.papers.glm.conftest import anova_residuals


def test_lowest_mean_system_has_the_largest_se_under_log_type_links():
    table = glm.near_zero_uncertainty()
    core18 = table[(table["collection"] == "Core18") & (table["measure"] == "AP") & ~table["outliers_removed"]]
    assert set(core18["lowest_system"]) == {"rpd_wcrobust04_35"}
    ratio = core18.set_index("link")["se_ratio"]
    assert ratio["identity"] == pytest.approx(1.0)  # balanced Gaussian model: one SE for every system
    assert ratio["log"] > 10 and ratio["logit"] > 10
    effects = glm.system_effects("Core18", "AP", links=("log",)).set_index("system")["se"]
    assert core18.set_index("link").loc["log", "lowest_se"] == effects.max()


def test_boundary_observations_count_the_matrix():
    table = glm.boundary_observations().set_index(["collection", "measure", "outliers_removed"])
    scores = glm.analysis_scores("Robust04", "P@10").to_numpy()
    row = table.loc[("Robust04", "P@10", False)]
    assert (row["zeros"], row["ones"], row["observations"]) == ((scores == 0).sum(), (scores == 1).sum(), scores.size)
    assert table.loc[("Core17", "P@10", False), "dropped_topics"] == 1


def test_assumption_tests_read_the_anova_residuals():
    table = glm.assumption_tests().set_index(["collection", "measure", "outliers_removed"])
    scores = glm.analysis_scores("Core18", "nDCG")
    residuals = anova_residuals(scores)
    row = table.loc[("Core18", "nDCG", False)]
    assert row["normality_p"] == pytest.approx(stats.normaltest(residuals).pvalue, rel=1e-6)
    by_system = residuals.reshape(scores.shape).T
    assert row["brown_forsythe_p"] == pytest.approx(stats.levene(*by_system, center="median").pvalue, rel=1e-6)
    assert row["skewness"] == pytest.approx(float(stats.skew(residuals)), rel=1e-6)
    assert row["non_normal"] == (row["normality_p"] < 0.05)
    assert np.isfinite(table["mean_variance_spearman"]).all()


def test_the_diagnostics_are_computed_once_per_process(monkeypatch):
    assert_made_once(monkeypatch, glm.assumption_tests, diagnostics, "residuals")
    assert_made_once(monkeypatch, glm.near_zero_uncertainty, diagnostics, "system_effects")
