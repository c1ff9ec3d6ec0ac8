"""The chapter's GLM tables against independent computations: statsmodels' GLM, textbook ANOVA and Tukey."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from irrepro.glm.consistency import split_halves
from irrepro.glm.links import LINK_NAMES
from irrepro.papers import glm
from irrepro.papers.glm import models
from tests.papers.conftest import assert_made_once
from tests.papers.glm.conftest import anova_residuals, statsmodels_fit

CORE18 = ("Core18", "AP")


def _row(table: pd.DataFrame, collection, measure, removed, link) -> pd.Series:
    match = table[(table["collection"] == collection) & (table["measure"] == measure)
                  & (table["outliers_removed"] == removed) & (table["link"] == link)]  # fmt: skip
    assert len(match) == 1
    return match.iloc[0]


@pytest.mark.parametrize("link", ["logit", "exp"])
def test_deviance_matches_statsmodels_glm(link):
    deviance = _row(glm.deviance_table(), *CORE18, True, link)
    reference = statsmodels_fit(glm.analysis_scores(*CORE18, outliers_removed=True), link)
    assert deviance["deviance"] == pytest.approx(reference.deviance, rel=1e-8)
    assert deviance["systems"] == 106 and deviance["topics"] == 25


def test_table1_and_setting_matrix_hold_the_long_tables_values():
    deviances = glm.deviance_table()
    wide = glm.table1(deviances)
    assert wide.shape == (7, len(deviances) // 7) and list(wide.index) == list(LINK_NAMES)
    assert wide.loc["logit", ("Core18 w/o outliers", "AP")] == _row(deviances, *CORE18, True, "logit")["deviance"]
    matrix = glm.setting_matrix(deviances, "deviance")
    assert list(matrix.columns) == list(LINK_NAMES) and matrix.index.names == glm.SETTING
    assert matrix.loc[("Robust04", "P@10", False), "tanh"] == wide.loc["tanh", ("Robust04", "P@10")]


def test_iteration_table_ranks_links_by_iterations():
    table = glm.iteration_table()
    assert table["iterations"].dtype == np.int64 and table["rank"].dtype == np.int64
    for _, part in table.groupby(glm.SETTING):
        most = part.loc[part["rank"] == 1, "iterations"]
        assert (most == part["iterations"].max()).all()
    assert (table.loc[table["link"] == "identity", "iterations"] <= 2).all()  # one Newton step, one to confirm


def test_ssd_counts_match_tukey_and_holm_from_statsmodels():
    scores = glm.analysis_scores(*CORE18, outliers_removed=True)
    reference = statsmodels_fit(scores, "logit")
    n_systems = scores.shape[1]
    effects = np.r_[0.0, reference.params[-(n_systems - 1):]]
    covariance = np.zeros((n_systems, n_systems))
    covariance[1:, 1:] = reference.cov_params()[-(n_systems - 1):, -(n_systems - 1):]
    first, second = np.triu_indices(n_systems, k=1)
    se = np.sqrt(covariance[first, first] + covariance[second, second] - 2 * covariance[first, second])
    t = (effects[first] - effects[second]) / se
    critical = stats.studentized_range.ppf(0.95, n_systems, reference.df_resid) / np.sqrt(2)
    holm = multipletests(2 * stats.t.sf(np.abs(t), reference.df_resid), alpha=0.05, method="holm")[0]
    row = _row(glm.ssd_table(), *CORE18, True, "logit")
    assert row["pairs"] == len(t)
    assert row["ssd_pairs"] == int((np.abs(t) > critical).sum())
    assert row["ssd_pairs_holm"] == int(holm.sum())


def _tukey_signs(half: pd.DataFrame) -> np.ndarray:
    """Classic two-way ANOVA Tukey HSD (identity link, balanced): sign of each significant mean difference."""
    n_topics, n_systems = half.shape
    mse = (anova_residuals(half) ** 2).sum() / ((n_topics - 1) * (n_systems - 1))
    means = half.mean().to_numpy()
    first, second = np.triu_indices(n_systems, k=1)
    difference = means[first] - means[second]
    hsd = stats.studentized_range.ppf(0.95, n_systems, (n_topics - 1) * (n_systems - 1)) * np.sqrt(mse / n_topics)
    return np.where(np.abs(difference) > hsd, np.sign(difference), 0)


def test_consistency_of_identity_matches_textbook_tukey_on_each_split():
    scores = glm.analysis_scores(*CORE18, outliers_removed=True)
    runs = glm.consistency_runs()
    mine = runs[(runs["collection"] == "Core18") & (runs["measure"] == "AP") & runs["outliers_removed"] & (runs["link"] == "identity")]
    splits = split_halves(scores.index, n_splits=glm.CONSISTENCY_SPLITS, seed=glm.CONSISTENCY_SEED)
    for split, (first, second) in enumerate(splits[:3]):
        signs = [_tukey_signs(scores.loc[half]) for half in (first, second)]
        both = (signs[0] != 0) & (signs[1] != 0)
        row = mine[mine["split"] == split].iloc[0]
        assert row["active_agreements"] == int((both & (signs[0] == signs[1])).sum())
        assert row["passive_disagreements"] == int(((signs[0] != 0) ^ (signs[1] != 0)).sum())


def test_consistency_table_is_the_mean_of_the_integer_split_counts():
    runs, table = glm.consistency_runs(), glm.consistency_table()
    assert (runs["active_agreements"].dtype, runs["pairs"].dtype) == (np.int64, np.int64)
    counts = ["active_agreements", "active_disagreements", "passive_disagreements", "passive_agreements"]
    assert (runs[counts].sum(axis=1) == runs["pairs"]).all()
    row = _row(table, "Robust04", "AP", False, "logit")
    part = runs[(runs["collection"] == "Robust04") & (runs["measure"] == "AP") & (runs["link"] == "logit")]
    assert row["active_agreements"] == part["active_agreements"].sum() / len(part)
    significant = part[counts[:3]].to_numpy().sum()
    assert row["consistent_share"] == float(Fraction(int(part["active_agreements"].sum()), int(significant)))
    assert row["splits"] == glm.CONSISTENCY_SPLITS


def test_p10_means_and_variances_are_the_exact_fractions():
    table = glm.mean_variance("Robust04", "P@10").set_index("system")
    hits = np.rint(glm.load_scores("Robust04", "P@10") * 10).astype(int)
    run = hits.columns[7]
    total, squares, n = int(hits[run].sum()), int((hits[run] ** 2).sum()), len(hits)
    assert table.loc[run, "mean"] == float(Fraction(total, 10 * n))
    assert table.loc[run, "variance"] == float(Fraction(n * squares - total**2, 100 * n * (n - 1)))
    pandas = glm.load_scores("Robust04", "P@10")
    np.testing.assert_allclose(table["variance"], pandas.var(ddof=1), rtol=1e-12)


def test_residuals_qq_points_and_system_effects():
    table = glm.residuals(*CORE18)
    scores = glm.analysis_scores(*CORE18)
    assert len(table) == len(LINK_NAMES) * scores.size
    identity = table[table["link"] == "identity"]
    np.testing.assert_allclose(identity["residual"], anova_residuals(scores), atol=1e-10)
    assert identity.iloc[1][["topic", "system"]].tolist() == [scores.index[0], scores.columns[1]]
    qq = glm.qq_points(table)
    logit = qq[qq["link"] == "logit"]
    assert (np.diff(logit["pearson"]) >= 0).all() and logit["normal_quantile"].iloc[0] == pytest.approx(
        stats.norm.ppf(0.5 / len(logit)))
    effects = glm.system_effects(*CORE18, links=("identity", "logit"))
    assert effects.groupby("link")["effect"].sum().abs().max() < 1e-9
    assert (effects["lower"] < effects["effect"]).all() and (effects["effect"] < effects["upper"]).all()


def _per_link(values: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for (collection, removed), numbers in values.items():
        for link, number in zip(("identity", "log", "exp", "tanh", "logit", "probit", "cauchit"), numbers, strict=True):
            rows.append({"collection": collection, "measure": "AP", "outliers_removed": removed, "link": link,
                         "deviance": number, "pairs": 10, "converged": number < 100, "iterations": 5})  # fmt: skip
    return pd.DataFrame(rows)


def test_by_link_puts_settings_in_rows_and_links_in_the_papers_order():
    table = _per_link({("Core18", False): [7, 6, 5, 4, 3, 2, 1], ("Core18", True): [1, 2, 3, 4, 5, 6, 7]})
    wide = glm.by_link(table, "deviance", first="pairs")
    assert list(wide.columns) == ["pairs", "identity", "log", "exp", "tanh", "logit", "probit", "cauchit"]
    assert list(wide.index) == [("Core18", "AP"), ("Core18 w/o outliers", "AP")]
    assert wide.loc[("Core18 w/o outliers", "AP"), "cauchit"] == 7


def test_convergence_and_lowest_deviance_summaries():
    table = _per_link({("Core18", False): [7, 6, 5, 4, 3, 2, 100], ("Core17", False): [7, 6, 5, 4, 3, 2, 1]})
    assert glm.convergence_summary(table) == {"fits": 14, "converged": 13, "tolerance": 1e-8, "max_iterations": 100}
    assert list(glm.unconverged_fits(table)["link"]) == ["cauchit"]
    assert glm.lowest_deviance_counts(glm.table1(table)) in ("probit 1, cauchit 1", "cauchit 1, probit 1")


def test_the_deviance_table_fits_once_per_process(monkeypatch):
    """Table 1, the iterations, the claims and the exercises read it twenty times in the chapter."""
    assert_made_once(monkeypatch, glm.deviance_table, models, "fits")
