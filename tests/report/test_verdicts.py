"""Verdicts and readings: each rule of the module docstring on constructed intervals and runs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.report.analysis import ReportOptions, analyse_pair
from irrepro.report.verdicts import Claim, delta_ri_status, er_status, pair_verdicts, region
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


# --------------------------------------------------------------------------- under topic resampling


def _one_relevant(folder, ranks: dict[str, list[int]]) -> dict:
    """One relevant document per topic, at the given rank in each run (AP = 1 / rank)."""
    topics = [str(t) for t in range(401, 441)]
    qrels = folder / "qrels"
    qrels.write_text("".join(f"{t} 0 R 1\n" + "".join(f"{t} 0 N{d} 0\n" for d in range(9)) for t in topics))
    paths = {"qrels": qrels}
    for role, per_topic in ranks.items():
        lines = []
        for topic, rank in zip(topics, per_topic, strict=True):
            docs = [f"N{d}" for d in range(9)]
            docs.insert(rank - 1, "R")
            lines += [f"{topic} Q0 {doc} {i + 1} {10 - i} {role}\n" for i, doc in enumerate(docs)]
        paths[role] = folder / f"{role}.run"
        paths[role].write_text("".join(lines))
    return paths


ON_THE_THRESHOLD = {  # the new effect averages 0: ER = 0, the effects' threshold
    "orig_baseline": [2] * 40, "orig_advanced": [1] * 40, "new_baseline": [2] * 40, "new_advanced": [1] * 10 + [3] * 30,
}  # fmt: skip
AP_ONLY = ReportOptions(measures=("AP",), n_resamples=400, seed=0)


def _analysis(paths, options=AP_ONLY):
    runs = {role: read_run(paths[role]) for role in ROLES}
    return analyse_pair("pair", runs, read_qrels(paths["qrels"]), options=options)


@pytest.fixture(scope="module")
def on_the_threshold(tmp_path_factory):
    return _one_relevant(tmp_path_factory.mktemp("threshold"), ON_THE_THRESHOLD)


def test_a_pair_on_a_threshold_is_fragile(on_the_threshold):
    analysis = _analysis(on_the_threshold)
    assert abs(analysis.comparison.er["AP"]) < 1e-12
    effects = pair_verdicts(analysis, AP_ONLY)[3]
    er = effects.findings[0]
    assert effects.status == "fail" and er.claim.text == "ER \u2264 0" and er.certain is False
    assert effects.stability == "fragile" and 0.2 < effects.share < 0.8
    assert "Fragile under topic resampling" in effects.reading and "ER of AP within [" in effects.reading
    assert "crosses 0" in effects.reading


def test_a_clearly_replicated_pair_is_stable(on_the_threshold):
    same = {**on_the_threshold, "new_baseline": on_the_threshold["orig_baseline"], "new_advanced": on_the_threshold["orig_advanced"]}
    levels = pair_verdicts(_analysis(same), AP_ONLY)
    assert [level.status for level in levels] == ["identical", "identical", "ok", "ok"]
    assert [level.stability for level in levels] == ["stable"] * 4 and all(level.share == 1.0 for level in levels)
    assert all("Stable under topic resampling: the verdict holds in 100% of 400 resamples." in level.reading for level in levels)


def _all_levels(files, on_the_threshold):
    runs = {r: read_run(files[r]) for r in ROLES}
    bad = {**runs, "new_advanced": read_run(files["bad_advanced"])}
    analyses = [analyse_pair(name, pair, read_qrels(files["qrels"]), options=OPTIONS) for name, pair in (("good", runs), ("bad", bad))]
    analyses.append(_analysis(on_the_threshold))
    return [(analysis, pair_verdicts(analysis, OPTIONS)) for analysis in analyses]


def test_shares_lie_in_the_unit_interval_and_a_level_holds_no_more_often_than_its_claims(files, on_the_threshold):
    for _, levels in _all_levels(files, on_the_threshold):
        for level in levels:
            claimed = [f for f in level.findings if f.claim is not None]
            assert (level.share is None) == (not claimed)
            if claimed:
                assert 0.0 <= level.share <= min(f.share for f in claimed) <= 1.0


def test_the_verdicts_follow_the_intervals(files, on_the_threshold):
    """A statistic is certain exactly when its interval agrees with the verdict, and a level is fragile
    exactly when it holds in fewer than 95% of the resamples or one of its intervals disagrees; the
    reading says so and names the interval."""
    from irrepro.reproducibility.resampling import STABLE_SHARE

    seen = set()
    for analysis, levels in _all_levels(files, on_the_threshold):
        for level in levels:
            for f in (f for f in level.findings if f.claim is not None):
                if f.statistic == "DeltaARP":
                    ci = analysis.intervals[("DeltaARP", f.run, f.measure)]
                    assert f.certain == ((ci.low > 0 or ci.high < 0) == (f.status == "fail"))
                else:
                    assert f.certain == f.claim.certain(analysis.intervals[f.claim.key])
            doubts = [f.doubt for f in level.findings if f.certain is False]
            assert all(doubts) and all(doubt in level.reading for doubt in doubts[:3])  # the reading names up to three
            if level.share is None:
                continue
            fragile = level.share < STABLE_SHARE or any(f.certain is False for f in level.findings)
            assert level.stability == ("fragile" if fragile else "stable")
            assert level.reading.endswith(".") and f"{level.stability.capitalize()} under topic resampling" in level.reading
            seen.add(level.stability)
    assert seen == {"stable", "fragile"}


def test_the_seed_decides_the_resamples(files):
    runs = {r: read_run(files[r]) for r in ROLES}
    qrels = read_qrels(files["qrels"])

    def shares(seed):
        options = ReportOptions(n_resamples=150, seed=seed)
        analysis = analyse_pair("p", runs, qrels, options=options)
        return [f.share for level in pair_verdicts(analysis, options) for f in level.findings], analysis.replicates

    (first, replicates), (again, same) = shares(0), shares(0)
    assert first == again and all(np.array_equal(replicates[k], same[k], equal_nan=True) for k in replicates)
    other, different = shares(1)
    assert any(not np.array_equal(replicates[k], different[k], equal_nan=True) for k in replicates)


@given(low=st.floats(-3, 3), width=st.floats(0, 3), threshold=st.sampled_from([0.0, 0.05, 1.0]), closed=st.booleans())
def test_a_claim_is_certain_when_its_whole_interval_satisfies_it(low, width, threshold, closed):
    claim = Claim(("ER", "", "AP"), "ER", low=threshold, closed=(closed, False))
    interval = _ci(low, low + width)
    inside = np.linspace(interval.low, interval.high, 7)
    assert claim.certain(interval) == bool(claim.holds(inside).all())


def test_the_report_says_fragile_in_html_and_latex(on_the_threshold, tmp_path):
    from irrepro.cli import main

    html, latex = tmp_path / "r.html", tmp_path / "r.tex"
    argv = ["report", "--qrels", str(on_the_threshold["qrels"]), *(f"--{r.replace('_', '-')}={on_the_threshold[r]}" for r in ROLES),
            "--measures", "AP", "--bootstrap", "300", "--out", str(html), "--latex", str(latex)]  # fmt: skip
    assert main(argv) == 0
    page = html.read_text()
    shown = re.search(r'data-level="effects"[^>]*data-share="([^"]+)">fragile: holds in (\d+)%</span>', page)
    assert shown and round(100 * float(shown.group(1))) == int(shown.group(2))
    assert re.search(r"^Effects & not reproduced & \d+\\% & fragile \\\\$", latex.read_text(), flags=re.MULTILINE)
    assert re.search(r"^Ranked lists & differs & 100\\% & stable \\\\$", latex.read_text(), flags=re.MULTILINE)
