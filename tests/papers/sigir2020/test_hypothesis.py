"""The paper's statements on Table 2 (right), Figure 3 and Table 5, on the published and the earlier AP file."""

from __future__ import annotations

import numpy as np
import pytest

from irrepro.papers import sigir2020
from irrepro.papers.claims import quote_occurs
from irrepro.papers.sigir2020 import hypothesis
from tests.papers.conftest import assert_made_once
from tests.papers.sigir2020.test_figures import _expected_diagnosis


@pytest.fixture(scope="module")
def statements():
    return sigir2020.figure3_statements().set_index("id")


def test_every_statement_is_quoted_and_judged_on_both_versions(statements, paper_texts):
    assert list(statements.columns) == ["section", "claim", "data", "verdict", "evidence", "verdict old",
                                        "evidence old", "holds", "holds old"]  # fmt: skip
    for entry in hypothesis.STATEMENTS["current"]:
        assert quote_occurs(entry.quote, paper_texts["sigir2020"]), entry.quote
    assert (statements["evidence"].str.contains(r"\d") & statements["evidence old"].str.contains(r"\d")).all()
    assert statements["data"].str.contains("published").all()
    old_data = [entry.data for entry in hypothesis.STATEMENTS["old"]]
    assert all("earlier AP file" in data for data in old_data)


def test_the_earlier_file_makes_the_papers_statements_hold(statements):
    flips = ["sigir2020.table2-right-extremes", "sigir2020.figure3b-many-in-region2", "sigir2020.table5-er-self-low"]
    assert (statements.loc[flips, "verdict"] == "does not hold").all()
    assert (statements.loc[flips, "verdict old"] == "holds").all()
    counts = sigir2020.statement_counts()
    assert counts.sum().tolist() == [len(statements)] * 2
    assert counts.at["holds", "old"] > counts.at["holds", "current"]


def test_region_2_verdicts_follow_the_sign_of_er_on_the_raw_files(statements):
    expected = _expected_diagnosis()
    # region 2 needs ER < 0; only the earlier file has negative reproducibility ER
    assert (expected["ER:AP"] > 0).all()
    assert int(((expected["ER:AP_old"] < 0) & (expected["DeltaRI:AP_old"] > 0)).sum()) == 5
    df = expected.loc[[f"rpd_df_{level}" for level in range(1, 6)]]
    in_region2 = int(((df["ER:AP_old"] < 0) & (df["DeltaRI:AP_old"] > 0)).sum())
    assert f"df: {in_region2} of its 5 AP points in region 2" in statements.at["sigir2020.figure3b-many-in-region2",
                                                                             "evidence old"]  # fmt: skip


def test_table2_right_counts_reproducibility_er_outside_the_replicability_range(statements):
    rpl = sigir2020.effect_ratio_table("rpl", intervals=False)["ER:AP"]
    old = _expected_diagnosis()["ER:AP_old"]
    outside = int(((old < rpl.min()) | (old > rpl.max())).sum())
    holds = statements.at["sigir2020.table2-right-extremes", "holds old"]
    assert holds == (outside > 10)


def test_the_evidence_numbers_count_the_diagnosis():
    evidence, diagnosis = sigir2020.figure3_evidence(), _expected_diagnosis()
    for version, suffix in (("current", ""), ("old", "_old")):
        assert evidence[f"ER:AP < 0 ({version})"] == int((diagnosis[f"ER:AP{suffix}"] < 0).sum())
        assert evidence[f"median ER:AP ({version})"] == pytest.approx(diagnosis[f"ER:AP{suffix}"].median())
        assert sum(evidence[f"AP points in region {r} ({version})"] for r in (1, 2, 3, 4)) == len(diagnosis)
    assert evidence["Robust05 topics"] + evidence["other topics"] == 25


def test_low_is_midway_between_the_papers_own_low_and_higher():
    assert pytest.approx((0.29 + 0.70) / 2) == hypothesis.LOW_TAU


def test_the_er_self_correlation_is_read_from_table5(statements):
    table = sigir2020.reproducibility_correlation_table("WCrobust04", version="old")
    er = table.loc[["ER:P@10", "ER:AP", "ER:nDCG"], ["ER:P@10", "ER:AP", "ER:nDCG"]].to_numpy()
    off_diagonal = np.abs(er[~np.eye(3, dtype=bool)])
    assert statements.at["sigir2020.table5-er-self-low", "holds old"] == (off_diagonal.max() < hypothesis.LOW_TAU)


def test_statements_on_the_published_files_are_among_the_claims(statements):
    claims = sigir2020.claims().set_index("id")
    for claim_id in hypothesis.IN_CLAIMS:
        assert claims.at[claim_id, "verdict"] == statements.at[claim_id, "verdict"]
    assert "sigir2020.table2-right-harder-to-reproduce" not in claims.index  # "reproducing-harder" covers it


def test_the_evidence_counts_statements_rescued_by_the_earlier_file(statements):
    evidence = sigir2020.figure3_evidence()
    verdicts = statements[["verdict", "verdict old"]]
    failing = verdicts[verdicts["verdict"] != "holds"]
    assert evidence["statements failing on the published files"] == len(failing)
    rescued = failing[failing["verdict old"] == "holds"]
    assert evidence["statements failing on the published files, holding with the earlier file"] == len(rescued)
    neither = failing[failing["verdict old"] == "does not hold"]
    assert evidence["statements holding on neither"] == len(neither)
    assert evidence["statements holding on neither: ids"] == ", ".join(i.split(".", 1)[1] for i in neither.index)


def test_the_statements_are_checked_once_per_process(monkeypatch):
    """The chapter's table, its glue, the evidence paragraph and the fidelity table read them."""
    assert_made_once(monkeypatch, sigir2020.figure3_statements, hypothesis, "effect_ratio_table")
