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
    assert glm.convergence_summary(table) == {"fits": 14, "converged": 13}
    assert list(glm.unconverged_fits(table)["link"]) == ["cauchit"]
    assert glm.lowest_deviance_counts(glm.table1(table)) in ("probit 1, cauchit 1", "cauchit 1, probit 1")
