"""The SIGIR 2020 tables from the authors' published per-topic scores (needs the data mirror or cache)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.papers import published, sigir2020

EXPECTED_FILES = {
    "table1_rpl_wcrobust04.csv": ["ARP:P@10", "ARP:AP", "ARP:nDCG", "KTU", "RBO", "RMSE:P@10", "RMSE:AP",
                                  "RMSE:nDCG", "p:P@10", "p:AP", "p:nDCG"],
    "table1_rpl_wcrobust0405.csv": None,  # same columns as the WCrobust04 table
    "er_deltari_rpl.csv": [f"{s}:{m}{bound}" for s in ("ER", "DeltaRI") for m in ("P@10", "AP", "nDCG")
                           for bound in ("", ":low", ":high")],
    "er_deltari_rpd.csv": None,
    "rpd_wcrobust04.csv": ["ARP:P@10", "ARP:AP", "ARP:nDCG", "p:P@10", "p:AP", "p:nDCG"],
    "rpd_wcrobust0405.csv": None,
    "rpl_vs_rpd_pvalues.csv": [f"p:{m}:{run}" for run in ("WCrobust04", "WCrobust0405") for m in ("P@10", "AP", "nDCG")],
    "correlation_rpl_wcrobust04.csv": ["DeltaARP:P@10", "DeltaARP:AP", "DeltaARP:nDCG", "KTU", "RBO", "RMSE:P@10",
                                       "RMSE:AP", "RMSE:nDCG", "p:P@10", "p:AP", "p:nDCG", "ER:P@10", "ER:AP", "ER:nDCG"],
    "correlation_rpl_wcrobust0405.csv": None,
}  # fmt: skip


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("sigir2020")
    return out, sigir2020.write_tables(out)


def test_write_tables_writes_exactly_the_issue_files(written):
    out, paths = written
    assert sorted(path.name for path in paths) == sorted(EXPECTED_FILES)
    assert sorted(path.name for path in out.iterdir()) == sorted(EXPECTED_FILES)


def test_csv_columns_and_row_names(written):
    out, _ = written
    previous = None
    for name, columns in EXPECTED_FILES.items():
        frame = pd.read_csv(out / name, index_col=0)
        columns = columns or previous
        previous = columns
        assert list(frame.columns) == columns, name
    table1 = pd.read_csv(out / "table1_rpl_wcrobust04.csv", index_col=0)
    assert table1.index[0] == "WCrobust04"
    assert list(table1.index[1:6]) == [f"rpl_wcr04_tf_{k}" for k in range(1, 6)]
    assert table1.index[-1] == "rpl_wcr04_C_5"
    assert pd.read_csv(out / "table1_rpl_wcrobust0405.csv", index_col=0).index[1] == "rpl_wcr0405_tf_1"
    assert list(pd.read_csv(out / "rpd_wcrobust04.csv", index_col=0).index[:2]) == ["rpd_tf_1", "rpd_tf_2"]
    assert list(pd.read_csv(out / "er_deltari_rpl.csv", index_col=0).index[:1]) == ["rpl_tf_1"]
    assert list(pd.read_csv(out / "er_deltari_rpd.csv", index_col=0).index[-1:]) == ["rpd_C_5"]


def test_csv_keeps_full_precision(written):
    out, _ = written
    table = sigir2020.replicability_table("WCrobust0405")
    from_file = pd.read_csv(out / "table1_rpl_wcrobust0405.csv", index_col=0)
    np.testing.assert_array_equal(from_file.to_numpy(), table.to_numpy())


@pytest.mark.parametrize(
    ("run", "cell", "printed"),
    [
        ("WCrobust0405", "ARP:P@10", "0.7500"),
        ("WCrobust0405", "ARP:nDCG", "0.6956"),  # nDCG is ndcg_cut_1000
        ("rpl_wcr0405_tf_1", "RMSE:P@10", "0.0927"),
        ("rpl_wcr0405_df_5", "RMSE:AP", "0.2296"),
        ("rpl_wcr0405_tol_5", "RMSE:nDCG", "0.6001"),
        ("rpl_wcr0405_C_2", "ARP:AP", "0.4135"),
        ("rpl_wcr0405_tf_2", "KTU", "0.0104"),
        ("rpl_wcr0405_C_2", "RBO", "0.6934"),
        ("rpl_wcr0405_tf_2", "p:AP", "0.354"),  # 0.35478 truncated, not rounded
        ("rpl_wcr0405_tf_5", "p:nDCG", "2E-04"),
    ],
)
def test_reproduced_cells_match_appendix_table1(run, cell, printed):
    value = sigir2020.replicability_table("WCrobust0405").at[run, cell]
    low, high = published.printed_interval(printed, truncated=cell.startswith("p:"))
    assert low - 1e-12 <= value <= high + 1e-12


def test_appendix_table2_cells():
    table = sigir2020.reproducibility_table("WCrobust0405")
    assert round(table.at["rpd_tf_1", "ARP:AP"], 4) == 0.2341
    assert 3e-4 <= table.at["rpd_tf_1", "p:P@10"] < 4e-4


def test_match_counts_and_the_only_miss():
    counts = sigir2020.match_counts()
    assert counts.loc["appendix Table 1", "cells"] == 21 * 11
    assert counts.loc["appendix Table 1", "matching"] == 21 * 11
    assert counts.loc["appendix Table 2", "cells"] == 20 * 6
    assert counts.loc["appendix Table 2", "matching"] == 20 * 6 - 1
    comparison = sigir2020.appendix_comparison(2)
    miss = comparison[~comparison["match"]]
    assert list(zip(miss["run"], miss["cell"])) == [("rpd_C_1", "p:nDCG")]
    assert miss["reproduced as printed"].iloc[0] == "5E-06"
    assert "misprint" in miss["note"].iloc[0]


def test_comparison_detects_a_wrong_value(monkeypatch):
    table = sigir2020.replicability_table("WCrobust0405").copy()
    table.loc["rpl_wcr0405_tf_1", "ARP:AP"] += 0.001
    monkeypatch.setattr(sigir2020, "replicability_table", lambda system: table)
    comparison = sigir2020.appendix_comparison(1)
    assert list(comparison.loc[~comparison["match"], "cell"]) == ["ARP:AP"]


def test_rpd_wcrobust04_drops_the_runs_outside_the_paper():
    frame = sigir2020.per_topic("rpd", "WCrobust04", "ap")
    assert frame.shape == (25, 50)
    assert "rpd_wcrobust04_51" not in frame.columns


def test_undefined_inputs_raise():
    with pytest.raises(ValueError, match="unknown system"):
        sigir2020.replicability_table("WCrobust99")
    with pytest.raises(ValueError, match="unknown setting"):
        sigir2020.per_topic("xyz", "WCrobust04", "ap")
    with pytest.raises(ValueError, match="Tables 1 and 2"):
        sigir2020.appendix_comparison(3)


def test_correlation_table_is_a_kendall_matrix():
    table = sigir2020.correlation_table("WCrobust04")
    np.testing.assert_allclose(np.diag(table), 1.0)
    np.testing.assert_allclose(table.to_numpy(), table.to_numpy().T)
    assert (table.abs() <= 1.0 + 1e-12).all().all()


def test_effect_ratio_pairs_constellation_k_of_both_runs():
    measures = sigir2020.effect_measures("rpl")
    assert measures.shape == (50, 6)
    assert measures.notna().all().all()
    advanced = sigir2020.per_topic("rpl", "WCrobust0405", "ap")
    baseline = sigir2020.per_topic("rpl", "WCrobust04", "ap")
    expected = (advanced["rpl_wcrobust0405_45"] - baseline["rpl_wcrobust04_45"]).mean() / (
        advanced["WCrobust0405"] - baseline["WCrobust04"]
    ).mean()
    assert sigir2020.effect_ratio_table("rpl").at["rpl_tf_1", "ER:AP"] == pytest.approx(expected, rel=1e-12)


@given(st.floats(min_value=1e-30, max_value=0.999), st.integers(min_value=1, max_value=6))
def test_printed_interval_contains_the_rounded_value(value, decimals):
    text = f"{value:.{decimals}f}"
    low, high = published.printed_interval(text, truncated=False)
    if float(text) == 0:
        return
    assert low - 1e-15 <= value <= high + 1e-15


@given(st.floats(min_value=1e-30, max_value=0.999))
def test_printed_interval_contains_the_truncated_leading_digit(value):
    exponent = math.floor(math.log10(value))
    digit = int(value / 10.0**exponent + 1e-12)
    if digit == 0 or digit > 9:  # float noise at an exact power of ten
        return
    low, high = published.printed_interval(f"{digit}E-{-exponent:02d}" if exponent < 0 else f"{digit}E{exponent}",
                                           truncated=True)  # fmt: skip
    assert low * (1 - 1e-9) <= value < high * (1 + 1e-9)


def test_printed_tables_have_the_papers_shape():
    assert published.appendix_table1().shape == (21, 11)
    assert published.appendix_table2().shape == (20, 6)
    with pytest.raises(ValueError, match="not a number"):
        published.printed_interval("n/a", truncated=True)


def test_small_cases_reproduce_the_papers_ktu_examples_and_show_label_dependence():
    cases = sigir2020.small_cases()
    printed = cases.dropna(subset=["KTU printed"])
    np.testing.assert_allclose(printed["KTU"], printed["KTU printed"])
    assert cases.at["example 1, d4 renamed d0", "KTU"] != cases.at["paper's KTU example 1", "KTU"]
    assert cases.at["example 1, d4 renamed d0", "tau-b union tied"] == cases.at["paper's KTU example 1", "tau-b union tied"]
    assert cases.at["swap at the bottom", "RBO ext"] > cases.at["swap at the top", "RBO ext"]


def test_rbo_convention_attains_every_published_value_only_for_depth_k_minus_1():
    table = sigir2020.rbo_depth_convention(5)
    attained = table["published values attainable"]
    total = table["published distinct values"].iloc[0]
    assert attained.iloc[0] == total  # ext on the top 4
    assert (attained.iloc[1:] < total).all()


def test_bootstrap_intervals_are_seeded_and_contain_the_estimate():
    table = sigir2020.effect_ratio_table("rpl")
    again = sigir2020.effect_ratio_table("rpl")
    pd.testing.assert_frame_equal(table, again)
    for statistic in ("ER", "DeltaRI"):
        for measure in ("P@10", "AP", "nDCG"):
            low, high = table[f"{statistic}:{measure}:low"], table[f"{statistic}:{measure}:high"]
            assert (low <= high).all()
            # a percentile interval need not contain the estimate, but here every one does
            assert ((low <= table[f"{statistic}:{measure}"]) & (table[f"{statistic}:{measure}"] <= high)).all()


def test_claims_are_checked_sentences():
    claims = sigir2020.claims()
    assert list(claims.columns) == ["claim", "evidence", "holds"]
    assert claims["holds"].dtype == bool
    assert claims["evidence"].str.contains(r"\d").all()  # every sentence carries computed numbers


# --------------------------------------------------------------------------- for the chapter's text


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
