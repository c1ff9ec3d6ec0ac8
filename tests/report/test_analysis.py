"""The report's numbers: compare_runs' own, intervals from one resampling of the topics, curves equal to
``compare_runs`` at each cut-off, and the diagnostics on hand-made cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.report.analysis import (
    ReportOptions,
    analyse,
    analyse_pair,
    confidence_intervals,
    curve_measures,
    cutoff_curves,
    largest_differences,
    report_draws,
    summarise_run,
    top_overlap,
)
from irrepro.reproducibility import bootstrap
from irrepro.reproducibility.compare import ROLES, compare_pairs, compare_runs
from irrepro.reproducibility.replicates import comparison_replicates
from irrepro.reproducibility.resampling import percentile_interval, topic_resamples, topic_weights
from irrepro.runs import read_qrels, read_run

OPTIONS = ReportOptions(n_resamples=200)


@pytest.fixture(scope="module")
def runs(files):
    return {role: read_run(files[role]) for role in ROLES}


@pytest.fixture(scope="module")
def qrels(files):
    return read_qrels(files["qrels"])


def _run(rows) -> pd.DataFrame:
    """A run frame from (topic, doc, score) rows, ranked as read_run ranks."""
    from irrepro.runs import rank_by_score

    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).assign(run="r")
    return rank_by_score(frame)


def test_pair_numbers_are_compare_runs(runs, qrels):
    analysis = analyse_pair("p", runs, qrels, options=OPTIONS)
    expected = compare_runs(**runs, qrels=qrels)
    assert analysis.comparison.to_json() == expected.to_json()
    assert analysis.comparison.notes == expected.notes


def test_curves_equal_compare_runs_at_each_cutoff(files, runs, qrels):
    original = {r: runs[r] for r in ROLES[:2]}
    bad = read_run(files["bad_advanced"])
    pairs = {"good": (runs["new_baseline"], runs["new_advanced"]), "bad": (runs["orig_baseline"], bad)}
    comparisons = compare_pairs(**original, pairs=pairs, qrels=qrels, evaluate_also=curve_measures(OPTIONS))
    curves = cutoff_curves(original, pairs, comparisons, OPTIONS).set_index(["pair", "run", "cutoff"])
    assert len(curves) == 2 * 2 * len(OPTIONS.curve_cutoffs)
    for name, (new_baseline, new_advanced) in pairs.items():
        assert comparisons[name].to_json() == compare_runs(**original, new_baseline=new_baseline, new_advanced=new_advanced, qrels=qrels).to_json()
        for k in OPTIONS.curve_cutoffs:
            at = compare_runs(**original, new_baseline=new_baseline, new_advanced=new_advanced, qrels=qrels, measures=(f"nDCG@{k}",), cutoff=k).to_json()
            for kind in ("baseline", "advanced"):
                row = curves.loc[(name, kind, k)]
                assert row["KTU"] == at["KTU"][kind]["mean"]
                assert row["RBO"] == at["RBO"][kind]["mean"]
                assert row["RMSE"] == at["RMSE"][kind][f"nDCG@{k}"]


def test_intervals_come_from_the_reports_one_resampling(runs, qrels):
    """Every interval is the percentile interval of the statistic's replicates on the report's draws;
    ER's is bootstrap_effect_ratio's (it draws the topics the same way, with the same seed)."""
    comparison = compare_runs(**runs, qrels=qrels)
    draws = report_draws([comparison], OPTIONS)
    replicates = comparison_replicates(comparison, draws)
    intervals = confidence_intervals(comparison, replicates, OPTIONS)
    assert {key[0] for key in intervals} == {"KTU", "RBO", "RMSE", "DeltaARP", "p", "ER", "DeltaRI"}
    values = comparison.to_frame().set_index(["statistic", "run", "measure"])["value"]
    for key, interval in intervals.items():
        assert (interval.low, interval.high) == percentile_interval(replicates[key], 0.95), key
        assert interval.estimate == values[key] and interval.n_resamples == 200 and interval.seed == 0
    t = comparison.per_topic["AP"]
    er = bootstrap.bootstrap_effect_ratio(**{role: t[role] for role in ROLES}, paired=True, n_resamples=200, level=0.95, seed=0)
    assert intervals[("ER", "", "AP")].low == pytest.approx(er.low, abs=1e-12)
    assert intervals[("ER", "", "AP")].high == pytest.approx(er.high, abs=1e-12)


def test_undefined_intervals_say_why(runs, qrels):
    # the original advanced run equals the baseline: no original effect, ER undefined
    same = {**runs, "orig_advanced": runs["orig_baseline"]}
    comparison = compare_runs(**{r: same[r] for r in ROLES}, qrels=qrels)
    intervals = confidence_intervals(comparison, comparison_replicates(comparison, report_draws([comparison], OPTIONS)), OPTIONS)
    assert "zero mean improvement" in intervals[("ER", "", "AP")]


def test_reproducibility_intervals_are_unpaired(files):
    runs = {**{r: read_run(files[r]) for r in ROLES[:2]}, "new_baseline": read_run(files["rpd_baseline"]),
            "new_advanced": read_run(files["rpd_advanced"])}  # fmt: skip
    analysis = analyse_pair("rpd", runs, read_qrels(files["qrels"]), new_qrels=read_qrels(files["new_qrels"]), options=OPTIONS)
    assert analysis.curves is None and analysis.largest_differences == {}
    assert {key[0] for key in analysis.intervals} == {"DeltaARP", "p", "ER", "DeltaRI"}
    t = analysis.comparison.per_topic["P@10"]
    assert analysis.intervals[("DeltaARP", "advanced", "P@10")].estimate == pytest.approx(
        t["new_advanced"].mean() - t["orig_advanced"].mean())


def test_one_resampling_per_report(files, runs, qrels):
    """Every pair is resampled on the same topic draws (seeded by --seed), and the draws cover each topic a run has."""
    original = {r: runs[r] for r in ROLES[:2]}
    pairs = [("good", runs["new_baseline"], runs["new_advanced"]), ("bad", runs["new_baseline"], read_run(files["bad_advanced"]))]
    data = analyse(original, pairs, qrels, options=ReportOptions(n_resamples=50, seed=3, curve_cutoffs=(10,)))
    assert data.draws.topics == tuple(str(t) for t in range(301, 316)) and data.draws.weights.shape == (50, 15)
    expected = topic_weights(topic_resamples(15, 50, seed=3))
    np.testing.assert_array_equal(data.draws.weights, expected)
    for analysis in data.pairs:  # the pair's replicates are those of the shared draws
        again = comparison_replicates(analysis.comparison, data.draws)
        assert all(np.array_equal(again[k], v, equal_nan=True) for k, v in analysis.replicates.items())
    same_baseline = [analysis.replicates[("p", "baseline", "AP")] for analysis in data.pairs]
    np.testing.assert_array_equal(*same_baseline)  # the same new baseline run in both pairs: the same draws, the same p-values


def test_top_overlap_counts_shared_documents():
    original = _run([("1", "a", 3), ("1", "b", 2), ("1", "c", 1), ("2", "x", 1)])
    new = _run([("1", "c", 3), ("1", "a", 2), ("1", "d", 1), ("3", "x", 1)])
    assert top_overlap(original, new, depth=2).to_dict() == {"1": 1, "2": 0, "3": 0}  # top 2: {a, b} and {c, a}
    assert top_overlap(original, new, depth=3).to_dict() == {"1": 2, "2": 0, "3": 0}


def test_summarise_run_counts_ties_in_the_top():
    frame = _run([("1", "a", 1.0), ("1", "b", 1.0), ("1", "c", 0.5), ("2", "d", 0.2), ("2", "e", 0.1), ("2", "f", 0.1)])
    summary = summarise_run(frame, depth=2)
    assert (summary.n_topics, summary.min_depth, summary.max_depth) == (2, 3, 3)
    assert (summary.tied_topics, summary.tied_documents) == (1, 2)  # e and f tie at ranks 2-3: only one of them is in the top 2
    assert summarise_run(frame, depth=3).tied_documents == 4


def test_largest_differences_are_ordered_and_complete(runs, qrels):
    comparison = compare_runs(**runs, qrels=qrels)
    frame = largest_differences(comparison, runs, "advanced", ReportOptions(n_diagnostic_topics=5))
    assert len(frame) == 5
    differences = frame["delta:AP"].abs().to_numpy()
    assert list(differences) == sorted(differences, reverse=True)
    everything = (comparison.per_topic["AP"]["new_advanced"] - comparison.per_topic["AP"]["orig_advanced"]).abs()
    assert differences[0] == everything.max()
    topic = frame.index[0]
    assert frame.loc[topic, "KTU"] == comparison.ktu["advanced"][topic]
    assert frame.loc[topic, "overlap"] == top_overlap(runs["orig_advanced"], runs["new_advanced"])[topic]


def test_analyse_checks_its_pairs(runs, qrels):
    original = {r: runs[r] for r in ROLES[:2]}
    with pytest.raises(ValueError, match="no reproduced pair"):
        analyse(original, [], qrels)
    twice = [("p", runs["new_baseline"], runs["new_advanced"])] * 2
    with pytest.raises(ValueError, match="unique"):
        analyse(original, twice, qrels)
    data = analyse(original, twice[:1], qrels, options=OPTIONS)
    assert set(data.runs) == {("", "orig_baseline"), ("", "orig_advanced"), ("p", "new_baseline"), ("p", "new_advanced")}
    assert set(data.coverage) == {"original", "p"} and data.setting == "replicability"


def test_analyse_reads_pyterrier_frames_as_the_files(runs, qrels):
    """A report on PyTerrier results (qid, docno, score, rank from 0) has the numbers of the files."""
    def pyterrier(frame):
        out = frame.rename(columns={"query_id": "qid", "doc_id": "docno"})[["qid", "docno", "score"]].iloc[::-1]
        out["rank"] = out.groupby("qid").cumcount()  # from 0, ties in reversed order
        return out.reset_index(drop=True)

    original = {role: runs[role] for role in ROLES[:2]}
    expected = analyse(original, [("p", runs["new_baseline"], runs["new_advanced"])], qrels, options=OPTIONS)
    given = analyse({role: pyterrier(frame) for role, frame in original.items()},
                    [("p", pyterrier(runs["new_baseline"]), pyterrier(runs["new_advanced"]))],
                    qrels.rename(columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"}), options=OPTIONS)
    assert given.pairs[0].comparison.to_json() == expected.pairs[0].comparison.to_json()
    import dataclasses

    assert {key: dataclasses.replace(s, tag="") for key, s in given.runs.items()} == {
        key: dataclasses.replace(s, tag="") for key, s in expected.runs.items()}  # a results frame has no run tag
    pd.testing.assert_frame_equal(given.pairs[0].curves, expected.pairs[0].curves)
def test_rank_columns_that_disagree_with_the_scores_change_nothing(runs, qrels):
    """The report reads every run in trec_eval's order (score, then docno), as compare_runs does."""
    reversed_ranks = {role: frame.assign(rank=frame.groupby("query_id")["rank"].transform("max") - frame["rank"] + 1)
                      for role, frame in runs.items()}  # fmt: skip
    options = ReportOptions(n_resamples=20, curve_cutoffs=(5, 10))

    def report(frames):
        return analyse({r: frames[r] for r in ROLES[:2]}, [("p", frames["new_baseline"], frames["new_advanced"])], qrels, options=options)

    expected, got = report(runs), report(reversed_ranks)
    assert got.runs == expected.runs
    assert got.pairs[0].comparison.to_json() == expected.pairs[0].comparison.to_json()
    pd.testing.assert_frame_equal(got.pairs[0].curves, expected.pairs[0].curves)
    for kind, frame in expected.pairs[0].largest_differences.items():
        pd.testing.assert_frame_equal(got.pairs[0].largest_differences[kind], frame)
