"""Tables 4 and 5: Kendall's tau among the oriented measures, Table 5 recomputed from the raw files."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from irrepro.papers import sigir2020
from tests.papers.sigir2020.conftest import raw

IDS = range(1, 51)
FILES = {"P@10": "p10", "AP": "ap", "nDCG": "ndcg1000"}


def test_correlation_table_is_a_kendall_matrix():
    table = sigir2020.correlation_table("WCrobust04")
    np.testing.assert_allclose(np.diag(table), 1.0)
    np.testing.assert_allclose(table.to_numpy(), table.to_numpy().T)
    assert (table.abs() <= 1.0 + 1e-12).all().all()


def _mean(values, measure: str):
    """The mean of per-topic scores; for P@10 (tenths) the exact fraction, so that equal means tie exactly."""
    if measure != "P@10":
        return np.mean(values)
    return Fraction(int(np.rint(np.asarray(values) * 10).sum()), 10 * len(values))


def _oriented(system: str, version: str) -> pd.DataFrame:
    """-p (Student's t, Core17 original vs Core18 run) and |1 - ER| of the 50 constellations, from the raw files."""
    columns = {}
    for measure, part in FILES.items():
        runs = {}
        for run in ("wcrobust04", "wcrobust0405"):
            old = version == "old" and (run, part) == ("wcrobust0405", "ap")
            runs[run] = (raw(f"sigir2020/measures_rpd/org_{run}_{part}.csv").iloc[:, 0].to_numpy(),
                         raw(f"sigir2020/measures_rpd/rpd_{run}_{part}{'_old' if old else ''}.csv"))  # fmt: skip
        original, reproduced = runs[system.lower()]
        columns[f"p:{measure}"] = [-stats.ttest_ind(original, reproduced[f"rpd_{system.lower()}_{k}"]).pvalue for k in IDS]
        delta = _mean(runs["wcrobust0405"][0], measure) - _mean(runs["wcrobust04"][0], measure)
        columns[f"ER:{measure}"] = [
            float(abs(1 - (_mean(runs["wcrobust0405"][1][f"rpd_wcrobust0405_{k}"], measure)
                           - _mean(runs["wcrobust04"][1][f"rpd_wcrobust04_{k}"], measure)) / delta)) for k in IDS
        ]  # fmt: skip
    return pd.DataFrame(columns)


@pytest.mark.parametrize("version", ["current", "old"])
@pytest.mark.parametrize("system", ["WCrobust04", "WCrobust0405"])
def test_table5_agrees_with_scipy_kendall_tau_on_the_raw_files(system, version):
    """ER of P@10 is a ratio of counts: computed exactly, two constellations with the same ER tie."""
    table = sigir2020.reproducibility_correlation_table(system, version=version)
    oriented = _oriented(system, version)
    assert list(table.index) == list(table.columns) and set(table.columns) == set(oriented.columns)
    for first in oriented:
        for second in oriented:
            expected = stats.kendalltau(oriented[first], oriented[second]).statistic  # tau-b
            assert table.at[first, second] == pytest.approx(expected, abs=1e-12), (first, second)


def test_table5_is_shaped_like_table4():
    table4, table5 = sigir2020.correlation_table("WCrobust04"), sigir2020.reproducibility_correlation_table("WCrobust04")
    assert table5.index.name == table4.index.name == "measure"
    assert set(table5.columns) <= set(table4.columns)
    assert list(table5.columns) == list(sigir2020.REPRODUCIBILITY_CORRELATION_COLUMNS)


@pytest.mark.parametrize("system", ["WCrobust04", "WCrobust0405"])
def test_table4_ties_equal_p10_means_as_exact_arithmetic_does(system):
    """DeltaARP of P@10 is |hits(original) - hits(run)| / 500: constellations with the same count tie, even when
    their float means differ in the last bit (pandas' corr("kendall") ordered them by that bit)."""
    name = f"sigir2020/measures/rpl_{system.lower()}_p10.csv"
    hits = (raw(name) * 10).round().astype(int).sum()
    exact = (hits[system] - hits[[f"rpl_{system.lower()}_{k}" for k in IDS]]).abs().to_numpy()
    oriented = sigir2020.oriented_replicability_measures(system)
    table = sigir2020.correlation_table(system)
    for other in ("p:P@10", "KTU", "RMSE:AP"):
        expected = stats.kendalltau(exact, oriented[other]).statistic
        assert table.at["DeltaARP:P@10", other] == pytest.approx(expected, abs=1e-12), other
