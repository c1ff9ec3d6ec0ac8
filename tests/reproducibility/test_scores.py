"""Score-based measures: definitions, undefined cases, vectorisation, repro_eval, published data."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from irrepro.reproducibility.scores import (
    UndefinedMeasureWarning,
    arp,
    delta_relative_improvement,
    effect_ratio,
    nrmse,
    paired_ttest,
    rmse,
    unpaired_ttest,
    wilcoxon_test,
)

TOPICS = ["301", "302", "303", "304"]


def series(values, topics=TOPICS, name=None):
    return pd.Series(values, index=topics[: len(values)], name=name, dtype=float)


# --------------------------------------------------------------------------- definitions


def test_rmse_by_hand():
    assert rmse(series([0.2, 0.4, 0.6, 0.8]), series([0.2, 0.6, 0.6, 0.4])) == pytest.approx(math.sqrt((0.04 + 0.16) / 4))


def test_effect_ratio_and_delta_ri_by_hand():
    a, b = series([0.5, 0.7, 0.3, 0.5]), series([0.3, 0.5, 0.3, 0.3])  # mean improvement 0.15
    a2, b2 = series([0.4, 0.4, 0.3, 0.3]), series([0.3, 0.3, 0.3, 0.3])  # 0.05
    assert effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a2, new_baseline=b2, paired=True) == pytest.approx(1 / 3)
    ri, ri2 = (0.5 - 0.35) / 0.35, (0.35 - 0.3) / 0.3
    assert delta_relative_improvement(orig_advanced=a, orig_baseline=b, new_advanced=a2, new_baseline=b2) == pytest.approx(ri - ri2)


def test_unpaired_effect_ratio_uses_each_pair_own_topics():
    a, b = series([0.5, 0.7, 0.3, 0.5]), series([0.3, 0.5, 0.3, 0.3])
    new_topics = ["401", "402"]
    a2, b2 = series([0.6, 0.2], new_topics), series([0.3, 0.1], new_topics)  # mean improvement 0.2
    assert effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a2, new_baseline=b2, paired=False) == pytest.approx(0.2 / 0.15)
    with pytest.raises(ValueError, match="no common topics"):
        effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a2, new_baseline=b2, paired=True)


def test_paired_topics_are_the_common_ones():
    a, b = series([0.5, 0.7, 0.3, 0.5]), series([0.3, 0.5, 0.3, 0.3])
    a2 = series([0.5, 0.7, 0.9], ["301", "302", "309"])
    b2 = series([0.3, 0.5, 0.0], ["301", "302", "309"])
    assert effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a2, new_baseline=b2, paired=True) == pytest.approx(1.0)  # topics 301, 302 only


def test_tests_agree_with_scipy():
    rng = np.random.default_rng(3)
    o, r = series(rng.random(4)), series(rng.random(4))
    assert paired_ttest(o, r) == pytest.approx(stats.ttest_rel(o, r).pvalue, rel=1e-12, abs=1e-14)
    assert unpaired_ttest(o, r) == pytest.approx(stats.ttest_ind(o, r).pvalue, rel=1e-12, abs=1e-14)
    assert unpaired_ttest(o, r, equal_var=False) == pytest.approx(stats.ttest_ind(o, r, equal_var=False).pvalue, rel=1e-12, abs=1e-14)
    assert wilcoxon_test(o, r) == pytest.approx(stats.wilcoxon(o - r).pvalue, rel=1e-12, abs=1e-14)


def test_identical_runs_give_p_one():
    o = series([0.1, 0.5, 0.2, 0.9])
    assert paired_ttest(o, o) == 1.0
    assert wilcoxon_test(o, o) == 1.0
    assert unpaired_ttest(series([0.3, 0.3]), series([0.3, 0.3])) == 1.0


# --------------------------------------------------------------------------- undefined cases


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: effect_ratio(orig_advanced=series([0.5, 0.3]), orig_baseline=series([0.5, 0.3]), new_advanced=series([0.6, 0.3]), new_baseline=series([0.5, 0.3]), paired=True), "zero mean improvement"),
        (lambda: delta_relative_improvement(orig_advanced=series([0.5, 0.3]), orig_baseline=series([0.0, 0.0]), new_advanced=series([0.6, 0.3]), new_baseline=series([0.5, 0.3])), "zero baseline mean"),
        (lambda: rmse(series([0.5]), series([0.6])), "fewer than 2"),
        (lambda: paired_ttest(series([0.5, 0.2]), series([0.5, 0.2], ["401", "402"])), "no common topics"),
        (lambda: unpaired_ttest(series([0.5]), series([0.5, 0.2])), "fewer than 2 original"),
    ],
)
def test_single_calls_raise_with_reason(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_batch_gives_nan_and_one_warning_naming_runs():
    ob, oa = series([0.3, 0.5, 0.2, 0.4]), series([0.5, 0.6, 0.3, 0.4])
    new_b = pd.DataFrame({"good": [0.3, 0.5, 0.2, 0.4], "zero": [0.0, 0.0, 0.0, 0.0]}, index=TOPICS)
    new_a = pd.DataFrame({"good": [0.4, 0.6, 0.3, 0.4], "zero": [0.1, 0.0, 0.0, 0.0]}, index=TOPICS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = delta_relative_improvement(orig_advanced=oa, orig_baseline=ob, new_advanced=new_a, new_baseline=new_b)
    assert [w.category for w in caught] == [UndefinedMeasureWarning]
    assert "['zero']" in str(caught[0].message)
    assert np.isnan(result["zero"]) and np.isfinite(result["good"])


def test_batch_all_defined_emits_no_warning():
    o = series([0.3, 0.5, 0.2, 0.4])
    frame = pd.DataFrame({"x": [0.3, 0.4, 0.2, 0.4], "y": [0.1, 0.5, 0.2, 0.3]}, index=TOPICS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rmse(o, frame), paired_ttest(o, frame), unpaired_ttest(o, frame)


# --------------------------------------------------------------------------- vectorisation


def test_batch_equals_column_by_column_with_missing_topics():
    rng = np.random.default_rng(7)
    topics = [str(t) for t in range(301, 321)]
    ob, oa = pd.Series(rng.random(20), topics), pd.Series(rng.random(20) + 0.2, topics)
    nb = pd.DataFrame(rng.random((20, 5)), index=topics, columns=list("abcde"))
    na = pd.DataFrame(rng.random((20, 5)) + 0.1, index=topics, columns=list("abcde"))
    nb.iloc[3, 1] = np.nan  # run b lacks topic 304
    na.iloc[[5, 6], 4] = np.nan
    for paired in (True, False):
        batch = effect_ratio(orig_advanced=oa, orig_baseline=ob, new_advanced=na, new_baseline=nb, paired=paired)
        for run in na.columns:
            assert batch[run] == pytest.approx(effect_ratio(orig_advanced=oa, orig_baseline=ob, new_advanced=na[run].dropna(), new_baseline=nb[run].dropna(), paired=paired), rel=1e-12, abs=1e-14)
    for function in (rmse, paired_ttest, unpaired_ttest, wilcoxon_test):
        batch = function(oa, na)
        for run in na.columns:
            assert batch[run] == pytest.approx(function(oa, na[run].dropna()), rel=1e-12, abs=1e-14)
    dri = delta_relative_improvement(orig_advanced=oa, orig_baseline=ob, new_advanced=na, new_baseline=nb)
    for run in na.columns:
        assert dri[run] == pytest.approx(delta_relative_improvement(orig_advanced=oa, orig_baseline=ob, new_advanced=na[run].dropna(), new_baseline=nb[run].dropna()), rel=1e-12, abs=1e-14)
    assert arp(na).to_dict() == pytest.approx({run: na[run].mean() for run in na.columns})


# --------------------------------------------------------------------------- properties

unit_scores = st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=30)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_properties(data):
    n = data.draw(st.integers(2, 30))

    def draw():
        values = data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
        return pd.Series(values, index=[str(i) for i in range(n)])

    a, b, r = draw(), draw(), draw()
    assert rmse(a, a) == 0.0
    assert rmse(a, r) == pytest.approx(rmse(r, a))  # symmetric
    assert 0.0 <= rmse(a, r) <= 1.0
    if a.mean() != b.mean() and not math.isclose(a.mean(), b.mean(), abs_tol=1e-12):
        assert effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a, new_baseline=b, paired=True) == pytest.approx(1.0)
        assert effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a, new_baseline=b, paired=False) == pytest.approx(1.0)
    if b.mean() > 0:
        assert delta_relative_improvement(orig_advanced=a, orig_baseline=b, new_advanced=a, new_baseline=b) == pytest.approx(0.0, abs=1e-12)
    p = paired_ttest(a, r)
    assert 0.0 <= p <= 1.0 or math.isnan(p)


# --------------------------------------------------------------------------- repro_eval


def _nested(frame: pd.DataFrame, measure_names) -> dict:
    return {t: {m: float(frame.loc[t, m]) for m in measure_names} for t in frame.index}


def test_agrees_with_repro_eval_functions():
    from repro_eval.measure.effectiveness import RMSE
    from repro_eval.measure.overall_effects import DRI, ER
    from repro_eval.measure.statistics import ttest

    rng = np.random.default_rng(11)
    topics = [str(t) for t in range(301, 351)]
    names = ["map", "P_10", "ndcg"]
    runs = {role: pd.DataFrame(rng.random((50, 3)), index=topics, columns=names) for role in ("ob", "oa", "nb", "na")}
    runs["na"].iloc[:, 1] = np.round(runs["na"].iloc[:, 1], 1)  # ties, as P@10 has
    other = [str(t) for t in range(401, 426)]
    rpd = {role: pd.DataFrame(rng.random((25, 3)), index=other, columns=names) for role in ("nb", "na")}
    nested = {k: _nested(v, names) for k, v in runs.items()}
    nested_rpd = {k: _nested(v, names) for k, v in rpd.items()}
    er = ER(nested["oa"], nested["ob"], nested["na"], nested["nb"])
    dri = DRI(nested["oa"], nested["ob"], nested["na"], nested["nb"])
    er_rpd = ER(nested["oa"], nested["ob"], nested_rpd["na"], nested_rpd["nb"])
    rmse_ref = RMSE(nested["ob"], nested["nb"])
    p_rpl = ttest(nested["ob"], nested["nb"], rpd=True)  # repro_eval's 'rpd' flag = same collection
    p_rpd = ttest(nested["ob"], nested_rpd["nb"], rpd=False)
    for m in names:

        def col(role, source=runs, measure=m):
            return source[role][measure]

        assert effect_ratio(orig_advanced=col("oa"), orig_baseline=col("ob"), new_advanced=col("na"), new_baseline=col("nb"), paired=True) == pytest.approx(er[m], abs=1e-9)
        assert delta_relative_improvement(orig_advanced=col("oa"), orig_baseline=col("ob"), new_advanced=col("na"), new_baseline=col("nb")) == pytest.approx(dri[m], abs=1e-9)
        assert effect_ratio(orig_advanced=col("oa"), orig_baseline=col("ob"), new_advanced=col("na", rpd), new_baseline=col("nb", rpd), paired=False) == pytest.approx(er_rpd[m], abs=1e-9)
        assert rmse(col("ob"), col("nb")) == pytest.approx(rmse_ref[m], abs=1e-9)
        assert paired_ttest(col("ob"), col("nb")) == pytest.approx(p_rpl[m], abs=1e-9)
        assert unpaired_ttest(col("ob"), col("nb", rpd)) == pytest.approx(p_rpd[m], abs=1e-9)


# --------------------------------------------------------------------------- nRMSE


def test_nrmse_by_hand():
    original, replicated = series([0.2, 0.4, 0.6, 0.9]), series([0.2, 0.6, 0.6, 0.4])
    max_rmse = math.sqrt((0.8**2 + 0.6**2 + 0.6**2 + 0.9**2) / 4)  # max(x, 1 - x) per topic
    assert nrmse(original, replicated) == pytest.approx(math.sqrt((0.04 + 0.25) / 4) / max_rmse)
    assert nrmse(original, replicated) == pytest.approx(rmse(original, replicated) / max_rmse)
    assert nrmse(series([0.0, 1.0]), series([1.0, 0.0])) == 1.0  # the farthest run


def test_nrmse_uses_the_common_topics_only():
    original = series([0.2, 0.4, 0.6, 0.9])
    replicated = pd.Series([0.3, 0.4, 0.1], index=["302", "303", "309"])
    assert nrmse(original, replicated) == pytest.approx(nrmse(original[["302", "303"]], replicated[["302", "303"]]))


@pytest.mark.parametrize(
    "original, replicated, message",
    [
        (series([0.5]), series([0.6]), "nRMSE is undefined: fewer than 2 common topics"),
        (series([0.5, 0.2]), series([0.5, 0.2], ["401", "402"]), "no common topics"),
        (series([0.5, 1.5]), series([0.5, 0.2]), r"nRMSE is undefined: scores outside \[0, 1\]"),
        (series([0.5, 0.2]), series([3.0, 0.2]), r"scores outside \[0, 1\]"),
    ],
)
def test_nrmse_undefined_single(original, replicated, message):
    """No common topic is the only way to a zero maximum RMSE (max(x, 1 - x) >= 1/2): a reason, not 0/0."""
    with pytest.raises(ValueError, match=message):
        nrmse(original, replicated)


def test_nrmse_batch_nan_with_reasons_and_columns_alike():
    o = series([0.3, 0.5, 0.2, 0.4])
    columns = {"x": [0.3, 0.4, 0.2, 0.4], "count": [3.0, 5.0, 2.0, 4.0], "one": [0.1, np.nan, np.nan, np.nan]}
    frame = pd.DataFrame(columns, index=TOPICS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = nrmse(o, frame)
    assert [w.category for w in caught] == [UndefinedMeasureWarning]
    message = str(caught[0].message)
    assert "fewer than 2 common topics: ['one']" in message
    assert "scores outside [0, 1]" in message and "['count']" in message
    assert result.name == "nRMSE" and list(result.index) == ["x", "count", "one"]
    assert result["x"] == pytest.approx(nrmse(o, frame["x"])) and result[["count", "one"]].isna().all()


def test_nrmse_batch_equals_column_by_column_with_missing_topics():
    rng = np.random.default_rng(5)
    topics = [str(t) for t in range(301, 321)]
    original = pd.Series(rng.random(20), topics)
    new = pd.DataFrame(rng.random((20, 4)), index=topics, columns=list("abcd"))
    new.iloc[[2, 7], 1] = np.nan
    batch = nrmse(original, new)
    for run in new.columns:
        assert batch[run] == pytest.approx(nrmse(original, new[run].dropna()), rel=1e-12, abs=1e-14)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_nrmse_properties(data):
    n = data.draw(st.integers(2, 30))

    def draw():
        return pd.Series(data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)), index=[str(i) for i in range(n)])

    a, r = draw(), draw()
    value = nrmse(a, r)
    assert 0.0 <= value <= 1.0 + 1e-12
    assert nrmse(a, a) == 0.0
    # 0 iff identical, up to differences whose squares underflow to 0 (|d| < 1e-154)
    assert (value == 0.0) == bool(((a - r) ** 2 == 0).all())
    assert (value == 0.0) == bool((a == r).all()) or (np.abs(a - r) < 1e-150).all()
    max_rmse = math.sqrt(float((np.maximum(a, 1 - a) ** 2).mean()))
    assert value == pytest.approx(rmse(a, r) / max_rmse, rel=1e-12, abs=1e-15)
    farthest = pd.Series(np.where(a < 0.5, 1.0, 0.0), index=a.index)  # the run at distance max(x, 1 - x)
    assert nrmse(a, farthest) == pytest.approx(1.0)


def test_nrmse_agrees_with_repro_eval_on_random_scores():
    from repro_eval.measure.effectiveness import nRMSE

    rng = np.random.default_rng(13)
    topics = [str(t) for t in range(301, 351)]
    names = ["map", "P_10", "ndcg"]
    original = pd.DataFrame(rng.random((50, 3)), index=topics, columns=names)
    new = pd.DataFrame(rng.random((50, 3)), index=topics, columns=names)
    new["P_10"] = np.round(new["P_10"], 1)
    original.iloc[:5, 0] = [0.0, 1.0, 0.5, 0.0, 1.0]  # the ends, and max(x, 1 - x) at its least
    reference = nRMSE(_nested(original, names), _nested(new, names))
    for m in names:
        assert nrmse(original[m], new[m]) == pytest.approx(reference[m], abs=1e-12)


def test_nrmse_agrees_with_repro_eval_on_published_scores():
    """The published per-topic P@10, AP and nDCG of the 20 printed WCrobust0405 replications (appendix Table 1)."""
    from repro_eval.measure.effectiveness import nRMSE

    from irrepro.data import fetch
    from irrepro.routing.constellations import PRINTED

    checked = 0
    for f in ("p10", "ap", "ndcg1000"):
        table = pd.read_csv(fetch(f"sigir2020/measures/rpl_wcrobust0405_{f}.csv"), index_col=0)
        table.index = table.index.map(str)
        original = table["WCrobust0405"]
        columns = [c.dataset_column("WCrobust0405") for c in PRINTED]
        batch = nrmse(original, table[columns])
        for column in columns:
            both = table[["WCrobust0405", column]].dropna()
            nested = [{t: {"m": v} for t, v in both[c].items()} for c in ("WCrobust0405", column)]
            reference = nRMSE(*nested)["m"]
            assert batch[column] == pytest.approx(reference, abs=1e-12), (f, column)
            assert nrmse(original, table[column]) == pytest.approx(batch[column], rel=1e-12)
            checked += 1
    assert checked == 60


# --------------------------------------------------------------------------- published data



def _truncated_matches(value: float, printed: str) -> bool:
    """The appendix prints p-values truncated: 0.35478 -> 0.354, 5.7e-4 -> 5E-04."""
    printed = printed.replace("\U0001d438", "E").replace("\u2212", "-")
    if "E" in printed:
        mantissa, exponent = printed.split("E")
        unit = 10.0 ** int(exponent)
        return math.floor(value / unit * (1 + 1e-12)) == int(mantissa)
    unit = 10.0 ** -len(printed.split(".")[1])
    return math.floor(value / unit * (1 + 1e-12)) == round(float(printed) / unit)


def test_appendix_table1_rmse_and_p_values():
    """Published per-topic scores give the RMSE, p-values and ARP printed in appendix Table 1.

    Printed cells come from :mod:`irrepro.papers.published` (a transcription of the appendix);
    ARP and RMSE are rounded to four decimals, p-values truncated.
    """
    from irrepro.data import fetch
    from irrepro.papers.published import appendix_table1
    from irrepro.routing.constellations import PRINTED

    printed = appendix_table1()
    files = {
        m: pd.read_csv(fetch(f"sigir2020/measures/rpl_wcrobust0405_{f}.csv"), index_col=0)
        for m, f in (("P@10", "p10"), ("AP", "ap"), ("nDCG", "ndcg1000"))
    }
    checked = 0
    for c in PRINTED:
        row = printed.loc[c.replicated_name("WCrobust0405")]
        for m in ("P@10", "AP", "nDCG"):
            original, replicated = files[m]["WCrobust0405"], files[m][c.dataset_column("WCrobust0405")]
            assert abs(arp(replicated) - float(row[f"ARP:{m}"])) <= 5e-5 + 1e-12, (c.name, m, "ARP")
            assert abs(rmse(original, replicated) - float(row[f"RMSE:{m}"])) <= 5e-5 + 1e-12, (c.name, m, "RMSE")
            assert _truncated_matches(paired_ttest(original, replicated), row[f"p:{m}"]), (c.name, m, "p")
            checked += 1
    assert checked == 60
    # the whole-ranking nDCG file is the one the table used: the @100 file misses the printed ARP
    ndcg100 = pd.read_csv(fetch("sigir2020/measures/rpl_wcrobust0405_ndcg100.csv"), index_col=0)
    assert abs(arp(ndcg100[PRINTED[0].dataset_column("WCrobust0405")]) - float(printed.loc["rpl_wcr0405_tf_1", "ARP:nDCG"])) > 1e-3


def test_truncation_helper_can_fail():
    assert _truncated_matches(0.35478, "0.354") and not _truncated_matches(0.3549, "0.355")
    assert _truncated_matches(5.7e-4, "5\U0001d438\u221204") and not _truncated_matches(4.9e-4, "5E-04")


def test_batch_runs_must_be_named_alike():
    o = series([0.3, 0.5, 0.2, 0.4])
    advanced = pd.DataFrame({"a1": [0.4, 0.6, 0.3, 0.5]}, index=TOPICS)
    baseline = pd.DataFrame({"b1": [0.3, 0.5, 0.2, 0.4]}, index=TOPICS)
    with pytest.raises(ValueError, match="name their runs alike"):
        effect_ratio(orig_advanced=o + 0.1, orig_baseline=o, new_advanced=advanced, new_baseline=baseline, paired=True)
    assert effect_ratio(orig_advanced=o + 0.1, orig_baseline=o, new_advanced=advanced, new_baseline=baseline.set_axis(advanced.columns, axis=1), paired=True)["a1"] == pytest.approx(1.0)


# --------------------------------------------------------------------------- arguments and t-tests


def test_bad_arguments_name_the_parameter():
    """``paired="no"`` was taken as true; a path or an empty Series failed deep inside."""
    a, b = series([0.5, 0.7, 0.3, 0.5]), series([0.3, 0.5, 0.3, 0.3])
    with pytest.raises(ValueError, match="effect_ratio: paired must be True or False; got 'no'"):
        effect_ratio(orig_advanced=a, orig_baseline=b, new_advanced=a, new_baseline=b, paired="no")
    with pytest.raises(ValueError, match="unpaired_ttest: equal_var must be True or False"):
        unpaired_ttest(a, b, equal_var="no")
    with pytest.raises(ValueError, match="rmse: original must be a pandas Series .*; got an empty Series"):
        rmse(pd.Series([], dtype=float), b)
    with pytest.raises(ValueError, match=r"arp: scores must be .*; got a path \('scores.csv'\)"):
        from pathlib import Path

        arp(Path("scores.csv"))


finite_scores = st.lists(st.floats(0, 1, allow_nan=False, width=32), min_size=2, max_size=30)


@settings(max_examples=200, deadline=None)
@given(finite_scores, finite_scores)
def test_t_tests_equal_scipy(first, second):
    """The t-tests are computed with scipy.special's t distribution (scipy.stats costs a second of
    start-up); they must give scipy.stats' p-values, constant and tied samples included."""
    n = min(len(first), len(second))
    original = pd.Series(first[:n], index=[str(i) for i in range(n)], dtype=float)
    new = pd.Series(second[:n], index=original.index, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected_paired = stats.ttest_rel(original, new).pvalue
        expected = {v: stats.ttest_ind(np.array(first, float), np.array(second, float), equal_var=v).pvalue for v in (True, False)}
    if not np.isnan(expected_paired):
        assert paired_ttest(original, new) == pytest.approx(expected_paired, rel=1e-9, abs=1e-12)
    unequal = pd.Series(second, index=[f"n{i}" for i in range(len(second))], dtype=float)
    for equal_var, p in expected.items():
        if not np.isnan(p):
            assert unpaired_ttest(pd.Series(first, dtype=float), unequal, equal_var=equal_var) == pytest.approx(
                p, rel=1e-9, abs=1e-12
            )


def test_an_effect_ratio_of_zero_is_positive_zero():
    """No new improvement over a negative original one: 0 / -x is -0.0 in IEEE arithmetic, which
    prints as -0.0000; ER is 0."""
    from irrepro.reproducibility.scores import effect_ratio

    worse, better, same = pd.Series([0.2, 0.3, 0.4]), pd.Series([0.5, 0.6, 0.7]), pd.Series([0.4, 0.4, 0.4])
    value = effect_ratio(orig_advanced=worse, orig_baseline=better, new_advanced=same, new_baseline=same, paired=True)
    assert value == 0.0 and math.copysign(1.0, value) == 1.0 and f"{value:.4f}" == "0.0000"
    series = effect_ratio(orig_advanced=worse, orig_baseline=better, new_advanced=pd.DataFrame({"x": same}), new_baseline=pd.DataFrame({"x": same}), paired=False)
    assert math.copysign(1.0, series["x"]) == 1.0
