"""Printed versus reproduced: appendix Tables 1 and 2 cell by cell, the miss and why it is a misprint."""

from __future__ import annotations

import math

import pytest

from irrepro.papers import published, sigir2020
from irrepro.papers.sigir2020 import appendix


def test_match_counts_and_the_only_miss():
    counts = sigir2020.match_counts()
    assert counts.loc["appendix Table 1", "cells"] == 21 * 11
    assert counts.loc["appendix Table 1", "matching"] == 21 * 11
    assert counts.loc["appendix Table 2", "cells"] == 20 * 6
    assert counts.loc["appendix Table 2", "matching"] == 20 * 6 - 1
    comparison = sigir2020.appendix_comparison(2)
    miss = comparison[~comparison["match"]]
    assert list(zip(miss["run"], miss["cell"], strict=True)) == [("rpd_C_1", "p:nDCG")]
    assert miss["reproduced as printed"].iloc[0] == "5E-06"
    assert "misprint" in miss["note"].iloc[0]


def test_the_miss_is_judged_a_misprint_from_the_print_itself():
    misprints = sigir2020.appendix_misprints()
    assert misprints["misprint"].sum() == 1
    found = misprints[misprints["misprint"]].iloc[0]
    assert (found["run"], found["cell"], found["printed"]) == ("rpd_C_1", "p:nDCG", "54E-06")
    assert found["printed mantissa digits"] == 2 and found["column mantissa digits"] == "1"
    assert found["printed in the column's format"] == "5E-06" == found["reproduced as printed"]
    assert (found["column cells matching"], found["column cells"]) == (19, 19)
    assert (found["row cells matching"], found["row cells"]) == (5, 5)
    assert 5e-6 <= found["reproduced"] < 6e-6 and bool(found["misprint"])


def test_a_wrong_value_is_a_miss_but_not_a_misprint(monkeypatch):
    table = sigir2020.reproducibility_table("WCrobust0405").copy()
    table.loc["rpd_C_1", "p:nDCG"] = 7.1e-6  # no longer what '54E-06' cut to one digit says
    table.loc["rpd_tf_1", "ARP:AP"] += 0.001
    monkeypatch.setattr(appendix, "reproducibility_table", lambda system: table)
    misprints = sigir2020.appendix_misprints().set_index(["run", "cell"])
    assert not misprints.loc[("rpd_C_1", "p:nDCG"), "misprint"]
    assert not misprints.loc[("rpd_tf_1", "ARP:AP"), "misprint"]
    assert (sigir2020.appendix_comparison(2)["note"] == "").all()
    assert not misprints["misprint"].any()


def test_comparison_detects_a_wrong_value(monkeypatch):
    table = sigir2020.replicability_table("WCrobust0405").copy()
    table.loc["rpl_wcr0405_tf_1", "ARP:AP"] += 0.001
    monkeypatch.setattr(appendix, "replicability_table", lambda system: table)
    comparison = sigir2020.appendix_comparison(1)
    assert list(comparison.loc[~comparison["match"], "cell"]) == ["ARP:AP"]


def test_largest_differences_are_matches_sorted_by_distance_from_the_print():
    largest = sigir2020.largest_differences(1, n=5)
    assert largest["match"].all() and len(largest) == 5
    distances = largest["difference"].abs().tolist()
    assert distances == sorted(distances, reverse=True)
    everything = sigir2020.appendix_comparison(1)
    assert distances[0] == everything["difference"].abs().max()


def test_the_match_statement_states_the_counts_and_what_they_prove():
    sentence = sigir2020.match_statement()
    counts = sigir2020.match_counts()
    for name, row in counts.iterrows():
        assert f"{row['matching']} of the {row['cells']} printed cells of {name}" in sentence
    assert "per-topic scores" in sentence and "not a re-run" in sentence


def test_unknown_tables_raise():
    with pytest.raises(ValueError, match="Tables 1, 2 and 3"):
        sigir2020.appendix_comparison(4)


def test_as_printed_marks_only_the_misprint():
    cells, differs = sigir2020.as_printed(2)
    assert cells.shape == differs.shape == (20, 6)
    assert cells.loc["rpd_C_1", "p:nDCG"] == "5E-06"
    assert differs.to_numpy().sum() == 1 and differs.loc["rpd_C_1", "p:nDCG"]
    assert not sigir2020.as_printed(1)[1].to_numpy().any()


def test_worst_cells_are_the_misses_or_else_the_largest_differences():
    misses = sigir2020.worst_cells(sigir2020.appendix_comparison(2))
    assert list(misses["run"]) == ["rpd_C_1"]
    comparison = sigir2020.appendix_comparison(1)
    largest = sigir2020.worst_cells(comparison, n=3)
    assert len(largest) == 3
    assert largest["difference"].abs().min() >= comparison["difference"].abs().nlargest(3).min()


def test_appendix_table3_parses_to_120_printed_cells():
    printed = published.appendix_table3()
    assert printed.shape == (20, 6) and printed.size == 120
    assert list(printed.columns) == list(sigir2020.rpl_vs_rpd_pvalues().columns)
    assert printed.notna().all().all() and printed.at["df_2", "p:nDCG:WCrobust0405"] == "3E-04"


def test_table3_columns_are_truncated_for_wcrobust04_and_rounded_for_wcrobust0405():
    """The print tells: a cell equal to the truncation but not the rounding of its value is evidence for truncation."""
    evidence = sigir2020.rounding_evidence(3)
    assert list(evidence.index) == list(published.TABLE3_COLUMNS) and (evidence["cells"] == 20).all()
    rules = evidence["rule"].to_dict()
    assert {rules[c] for c in evidence.index if c.endswith(":WCrobust04")} == {"truncated"}
    assert {rules[c] for c in evidence.index if c.endswith(":WCrobust0405")} == {"rounded"}
    for cell, row in evidence.iterrows():  # each column's evidence points one way only
        assert (row["only rounded"] == 0) if rules[cell] == "truncated" else (row["only truncated"] == 0)
        assert row["only truncated"] + row["only rounded"] > 0
    assert (sigir2020.rounding_evidence(1)["rule"] == "truncated").all()  # Tables 1 and 2: the appendix's note


def test_table3_is_compared_cell_by_cell_and_its_one_miss_listed():
    counts = sigir2020.match_counts()
    comparison = sigir2020.appendix_comparison(3)
    assert len(comparison) == counts.loc["appendix Table 3", "cells"] == 120
    assert counts.loc["appendix Table 3", "matching"] == int(comparison["match"].sum()) == 119
    miss = comparison[~comparison["match"]].iloc[0]
    assert (miss["run"], miss["cell"], miss["printed"], miss["rule"]) == ("tol_5", "p:nDCG:WCrobust0405", "0.030",
                                                                        "rounded")  # fmt: skip
    assert miss["reproduced as printed"] == "0.029" and math.isclose(miss["difference"], miss["reproduced"] - 0.030)
    assert miss["note"] == ""  # not a misprint judged from the print: the value differs
    row = next(r for r in sigir2020.fidelity() if r.item == "appendix Table 3")
    assert (row.cells, row.matched, row.complete, row.reproduced) == (120, 119, True, "partly")
    assert "tol_5 p:nDCG:WCrobust0405" in row.note and "0.030" in row.note


def test_a_wrong_twin_p_value_is_a_miss(monkeypatch):
    twins = sigir2020.rpl_vs_rpd_pvalues().copy()
    twins.loc["rpd_tf_1", "p:P@10:WCrobust04"] = 3e-4
    monkeypatch.setattr(appendix, "rpl_vs_rpd_pvalues", lambda: twins)
    comparison = sigir2020.appendix_comparison(3)
    assert ("tf_1", "p:P@10:WCrobust04") in set(
        zip(comparison.loc[~comparison["match"], "run"], comparison.loc[~comparison["match"], "cell"], strict=True)
    )
