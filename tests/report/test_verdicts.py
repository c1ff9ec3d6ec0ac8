"""Verdicts and readings: each rule of the module docstring on constructed intervals and runs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.report.analysis import ReportOptions, analyse_pair
from irrepro.report.verdicts import delta_ri_status, er_status, pair_verdicts, region
from irrepro.reproducibility.bootstrap import ConfidenceInterval
from irrepro.reproducibility.compare import ROLES
from irrepro.runs import read_qrels, read_run

OPTIONS = ReportOptions(n_resamples=200)


def _ci(low, high, estimate=None) -> ConfidenceInterval:
    return ConfidenceInterval(estimate if estimate is not None else (low + high) / 2, low, high, 0.95, 100, 0, 0)


@pytest.mark.parametrize("low, high, status, words", [
    (0.7, 1.2, "ok", "the effect is reproduced within [0.700, 1.200]"),
    (1.1, 1.9, "ok", "a larger effect"),
    (0.2, 0.8, "partial", "a smaller effect"),
    (-0.3, 0.9, "fail", "includes 0"),
    (-0.9, -0.2, "fail", "reversed"),
])  # fmt: skip
def test_er_status(low, high, status, words):
    found, phrase = er_status(_ci(low, high))
    assert found == status and words in phrase


@given(low=st.floats(-5, 5), width=st.floats(0, 5))
def test_er_is_reproduced_exactly_when_the_interval_excludes_0_and_reaches_1(low, width):
    status, _ = er_status(_ci(low, low + width))
    assert (status == "ok") == (low > 0 and low + width >= 1)
    assert (status == "fail") == (low <= 0)


def test_delta_ri_status_and_regions():
    assert delta_ri_status(_ci(-0.1, 0.05))[0] == "ok"
    assert "smaller relative improvement" in delta_ri_status(_ci(0.02, 0.1))[1]
    assert "larger relative improvement" in delta_ri_status(_ci(-0.2, -0.01))[1]
    assert er_status(None)[0] == delta_ri_status(None)[0] == "undefined"
    assert [region(0.5, 0.1), region(-0.5, 0.1), region(-0.5, -0.1), region(0.5, -0.1)] == [1, 2, 3, 4]
    assert region(0.0, 0.1) is None and region(None, 0.1) is None and region(1.0, float("nan")) is None


@pytest.fixture(scope="module")
def runs(files):
    return {role: read_run(files[role]) for role in ROLES}


def test_identical_runs_read_as_identical(runs, files):
    same = {**runs, "new_baseline": runs["orig_baseline"], "new_advanced": runs["orig_advanced"]}
    levels = pair_verdicts(analyse_pair("same", same, read_qrels(files["qrels"]), options=OPTIONS), OPTIONS)
    assert [level.key for level in levels] == ["ranking", "per_topic", "averages", "effects"]
    ranking, per_topic, averages, effects = levels
    assert ranking.status == per_topic.status == "identical"
    assert "return the original rankings" in ranking.reading and "identical" in per_topic.reading
    assert averages.status == "ok"  # identical scores: p = 1 (scores.paired_ttest)
    assert effects.status == "ok" and "the effect is reproduced within [1.000, 1.000]" in effects.reading


def test_a_significantly_worse_run_fails_the_averages(files):
    runs = {**{r: read_run(files[r]) for r in ROLES[:3]}, "new_advanced": read_run(files["bad_advanced"])}
    levels = pair_verdicts(analyse_pair("bad", runs, read_qrels(files["qrels"]), options=OPTIONS), OPTIONS)
    averages = levels[2]
    failing = [f for f in averages.findings if f.status == "fail"]
    assert failing and all(f.run == "advanced" and f.p_value < 0.05 for f in failing)
    assert averages.status in ("partial", "fail") and "(a\u2032)" in averages.reading
    assert levels[3].status == "fail"  # no effect left: ER's interval holds 0


def test_reproducibility_levels(files):
    runs = {**{r: read_run(files[r]) for r in ROLES[:2]}, "new_baseline": read_run(files["rpd_baseline"]),
            "new_advanced": read_run(files["rpd_advanced"])}  # fmt: skip
    analysis = analyse_pair("rpd", runs, read_qrels(files["qrels"]), new_qrels=read_qrels(files["new_qrels"]), options=OPTIONS)
    levels = pair_verdicts(analysis, OPTIONS)
    assert [level.status for level in levels[:2]] == ["na", "na"]
    assert "unpaired" in levels[2].reading and "not directly comparable" in levels[2].reading
