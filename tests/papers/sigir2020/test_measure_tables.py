"""Tables 1 and 3 and the appendix tables from the authors' per-topic scores (needs the data mirror or cache)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from irrepro.papers import published, sigir2020
from irrepro.papers.sigir2020 import measure_tables
from tests.papers.conftest import assert_made_once
from tests.papers.sigir2020.conftest import raw


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


def test_reproducibility_p_values_are_students_t_test_on_the_raw_files():
    original = raw("sigir2020/measures_rpd/org_wcrobust04_p10.csv")["WCrobust04"].to_numpy()
    reproduced = raw("sigir2020/measures_rpd/rpd_wcrobust04_p10.csv")["rpd_wcrobust04_40"].to_numpy()
    expected = stats.ttest_ind(original, reproduced, equal_var=True).pvalue
    assert sigir2020.reproducibility_table("WCrobust04").at["rpd_C_5", "p:P@10"] == pytest.approx(expected, rel=1e-12)


def test_twins_pair_each_replicated_run_with_its_reproduced_run():
    table = sigir2020.rpl_vs_rpd_pvalues()
    replicated = raw("sigir2020/measures/rpl_wcrobust0405_ap.csv")["rpl_wcrobust0405_14"].to_numpy()
    reproduced = raw("sigir2020/measures_rpd/rpd_wcrobust0405_ap.csv")["rpd_wcrobust0405_14"].to_numpy()
    assert table.at["rpd_df_1", "p:AP:WCrobust0405"] == pytest.approx(stats.ttest_ind(replicated, reproduced).pvalue)
    assert np.isfinite(table.to_numpy()).all()


def test_the_measures_are_computed_once_per_system_and_ids(monkeypatch):
    """Tables 1 and 3, the correlations of Tables 4 and 5 and the claims all read them."""
    assert_made_once(monkeypatch, lambda: sigir2020.replicability_measures("WCrobust04"), measure_tables, "replicated_runs")
    assert_made_once(monkeypatch, lambda: sigir2020.reproducibility_measures("WCrobust0405", version="old"),
                     measure_tables, "reproduced_runs")  # fmt: skip


@pytest.mark.parametrize("system", ["WCrobust04", "WCrobust0405"])
def test_nrmse_table_beside_table1_equals_repro_eval_on_the_raw_files(system):
    """nRMSE (not published) of Table 1's runs: its RMSE is Table 1's, its nRMSE repro_eval's on the raw per-topic files."""
    from repro_eval.measure.effectiveness import nRMSE

    from irrepro.routing.constellations import PRINTED

    table, table1 = sigir2020.nrmse_table(system), sigir2020.replicability_table(system)
    assert list(table.columns) == list(measure_tables.NRMSE_COLUMNS) and table.index.equals(table1.index)
    rmse = [c for c in table.columns if c.startswith("RMSE:")]
    np.testing.assert_array_equal(table[rmse].to_numpy(), table1[rmse].to_numpy())
    assert (table.loc[system] == 0).all()  # the original with itself
    assert ((table.iloc[1:] > 0) & (table.iloc[1:] <= 1)).all().all()
    suffix = {"P@10": "p10", "AP": "ap", "nDCG": "ndcg1000"}
    for m, name in suffix.items():
        scores = raw(f"sigir2020/measures/rpl_{system.lower()}_{name}.csv")
        assert (table[f"nRMSE:{m}"].iloc[1:] > table[f"RMSE:{m}"].iloc[1:]).all()  # maxRMSE < 1
        for c in PRINTED[:3]:
            both = scores[[system, c.dataset_column(system)]].dropna()
            nested = [{t: {"m": v} for t, v in both[col].items()} for col in both.columns]
            assert table.at[c.replicated_name(system), f"nRMSE:{m}"] == pytest.approx(nRMSE(*nested)["m"], abs=1e-12)
