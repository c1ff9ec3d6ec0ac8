"""The GLM paper's claims: one per data group, verdicts computed from the tables (quotes: test_claims.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.glm.links import LINK_NAMES
from irrepro.papers import glm
from irrepro.papers.glm import claim_checks

GROUP_KEYS = {group.key for group in glm.DATA_GROUPS}


def _per_link(values: dict[tuple[str, str, bool], list[float]], column: str) -> pd.DataFrame:
    rows = [
        {"collection": c, "measure": m, "outliers_removed": removed, "link": link, column: value, "converged": True}
        for (c, m, removed), numbers in values.items()
        for link, value in zip(LINK_NAMES, numbers, strict=True)
    ]
    return pd.DataFrame(rows)


def test_every_claim_is_checked_on_the_papers_collection_and_named_by_its_data():
    ids = glm.CLAIMS.ids()
    assert len(ids) == len(set(ids))
    names = {}
    for claim_id in ids:
        paper, name, group = claim_id.split(".")
        assert paper == "glm" and group in GROUP_KEYS
        names.setdefault(name, set()).add(group)
    assert all("robust04" in groups for name, groups in names.items() if name != "log-especially-core18")
    assert names["core18-eight-outliers"] == {"robust04", "substitutes", "nist-core18"}
    for entry in glm.CLAIMS:
        group = next(g for g in glm.DATA_GROUPS if entry.id.endswith(f".{g.key}"))
        assert entry.data.startswith(group.label)


def test_deviance_statements_and_claims_read_the_same_columns():
    table = glm.deviance_claims(glm.table1())
    claims = glm.claims().set_index("id")
    robust, substitutes = glm.ROBUST04.name, glm.SUBSTITUTES.name
    assert list(table["paper's statement"]) == [statement.statement for statement in glm.DEVIANCE_STATEMENTS]
    for statement, (_, record) in zip(glm.DEVIANCE_STATEMENTS, table.iterrows(), strict=True):
        for group, name in ((glm.ROBUST04, robust), (glm.SUBSTITUTES, substitutes)):
            claim = claims.loc[f"glm.{statement.name}.{group.key}"]
            assert claim["holds"] == record[f"{name}: holds"]
            assert f"in {record[f'{name}: columns where it holds']} of {record[f'{name}: columns']} columns" in claim["evidence"]
    assert table[f"{robust}: columns"].eq(2).all() and table[f"{substitutes}: columns"].eq(12).all()


def test_a_statement_must_hold_in_all_or_in_most_columns():
    wide = pd.DataFrame(
        {("Robust04", "AP"): [3, 2, 9, 2.5, 1, 1.1, 1.2], ("Robust04", "P@10"): [3, 2, 2.9, 2.5, 1, 1.1, 1.2]},
        index=list(LINK_NAMES),
    )
    by_name = {s.name: s for s in glm.DEVIANCE_STATEMENTS}
    exp_worst = glm.statement_finding(by_name["exp-worst"], wide, glm.ROBUST04)
    assert not exp_worst.holds and "in 1 of 2 columns" in exp_worst.evidence and "Robust04 P@10" in exp_worst.evidence
    assert glm.statement_finding(by_name["logit-best"], wide, glm.ROBUST04).holds
    assert glm.statement_finding(by_name["tanh-intermediate"], wide, glm.ROBUST04).holds
    assert glm.statement_finding(by_name["sigmoid-links-similar"], wide, glm.ROBUST04).holds
    assert not glm.statement_finding(by_name["logit-best"], wide, glm.SUBSTITUTES).holds  # no column: 0 of 0


def test_consistency_claim_and_sentence_per_data_group(monkeypatch):
    settings = [("Robust04", "AP", False), ("Robust04", "P@10", False), ("Core18", "AP", False)]
    agreements = {s: [5, 6, 0, 0, 6, 0, 0] for s in settings[:2]} | {settings[2]: [5, 4, 0, 0, 4, 0, 0]}
    table = _per_link(agreements, "active_agreements")
    monkeypatch.setattr(claim_checks, "consistency_table", lambda: table)
    found = {claim.id: claim for claim in glm.CLAIMS.evaluate(ids=["glm.consistent-ssd-pairs.robust04", "glm.consistent-ssd-pairs.substitutes"])}
    assert found["glm.consistent-ssd-pairs.robust04"].verdict == "holds"
    assert found["glm.consistent-ssd-pairs.robust04"].evidence.startswith("Log finds more consistent ssd pairs than identity in 2 of 2 settings")
    assert "Robust04 AP: identity 5, log 6, logit 6" in found["glm.consistent-ssd-pairs.robust04"].evidence
    assert found["glm.consistent-ssd-pairs.substitutes"].verdict == "does not hold"
    sentence = glm.consistency_verdict(table)
    assert "claim holds there" in sentence and sentence.endswith("claim does not hold there.")


def test_exp_iteration_claim_counts_settings_where_exp_needs_the_most(monkeypatch):
    iterations = _per_link({("Robust04", "AP", False): [2, 7, 9, 5, 7, 8, 8], ("Robust04", "P@10", False): [2, 7, 6, 5, 7, 8, 9]}, "iterations")
    iterations["rank"] = 1
    monkeypatch.setattr(claim_checks, "iteration_table", lambda: iterations)
    (claim,) = glm.CLAIMS.evaluate(ids=["glm.exp-more-iterations.robust04"])
    assert claim.verdict == "does not hold" and "every other link in 1 of 2 settings" in claim.evidence
    iterations.loc[iterations["link"] == "exp", "converged"] = False  # convergence problems also support it
    assert glm.CLAIMS.evaluate(ids=["glm.exp-more-iterations.robust04"])[0].verdict == "holds"


def test_core18_outlier_claims_count_nists_runs_and_the_gap():
    found = {claim.id: claim for claim in glm.CLAIMS.evaluate(ids=[f"glm.core18-eight-outliers.{k}" for k in GROUP_KEYS])}
    official = glm.official_summary("Core18")["map"].sort_values()
    nist = found["glm.core18-eight-outliers.nist-core18"]
    assert nist.holds == (official.iloc[8] / official.iloc[7] == max(official.iloc[i + 1] / official.iloc[i] for i in range(36)))
    assert "feup-run1" in nist.evidence and "this book's, not the paper's" in nist.evidence
    assert found["glm.core18-eight-outliers.substitutes"].verdict == "cannot be tested here"
    assert found["glm.core18-eight-outliers.robust04"].holds


def test_outlier_gap_finds_the_largest_relative_jump_in_the_lower_half():
    assert glm.outlier_gap(pd.Series([0.01, 0.02, 0.021, 0.3, 0.31, 0.32, 0.33, 0.34])) == (3, pytest.approx(0.3 / 0.021))
    assert glm.outlier_gap(pd.Series([0.0, 0.01, 0.3, 0.31]))[0] == 1  # a zero MAP stands apart from any positive one


def test_verdict_table_has_one_row_per_claim_and_a_verdict_per_group():
    claims = glm.claims()
    wide = glm.verdict_table(claims)
    assert len(wide) == claims["id"].str.split(".").str[1].nunique()
    row = wide.set_index("claim").loc["core18-eight-outliers"]
    assert row[glm.NIST_CORE18.name] == claims.set_index("id").loc["glm.core18-eight-outliers.nist-core18", "verdict"]
    assert wide.set_index("claim").loc["log-especially-core18", glm.ROBUST04.name] == "not tested"
    assert (wide["speaks for the paper"].str.contains("Robust04") | (wide["claim"] == "log-especially-core18")).all()
