"""irrepro.evaluation against trec_eval's own test suite, plus the missing-topic policies.

The expected numbers are trec_eval's outputs shipped with its sources (test/ of
usnistgov/trec_eval, fetched from the registry); the commands that produced them are those of
trec_eval's ``make quicktest``:

- ``out.test``             ``trec_eval qrels.test results.test``
- ``out.test.a``           ``trec_eval -m all_trec qrels.test results.test``
- ``out.test.aq``          ``trec_eval -m all_trec -q qrels.test results.test``
- ``out.test.aqc``         ``trec_eval -m all_trec -q -c qrels.test results.trunc``
- ``out.test.meas_params`` ``trec_eval -q -m P.5,7,3 -m recall.20,2000 -mndcg_cut.10,20,23.4 ...``
  on ``qrels.test results.test``

Every value of a supported measure, per topic and ``all``, must print the same with four decimals.
"""

from __future__ import annotations

import io
import re
import warnings
from functools import cache

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro import evaluation, runs
from irrepro.data import fetch
from irrepro.evaluation import (
    Evaluation,
    IgnoredTopicsWarning,
    Judgments,
    MissingTopicReport,
    evaluate,
    evaluate_prepared,
    missing_topic_report,
    parse_measure,
)
from irrepro.runs import RunFormatError, RunStream, read_qrels, read_run

# The toy qrels below judge topic 3 without a relevant document on purpose; tests that are
# about the warning check it with pytest.warns.
pytestmark = pytest.mark.filterwarnings("ignore::irrepro.evaluation.IgnoredTopicsWarning")

# trec_eval name -> our name
_SUPPORTED = re.compile(r"^(map|Rprec|ndcg|P_(\d+)|ndcg_cut_(\d+)|recall_(\d+))$")


def _our_name(trec_name: str) -> str:
    if trec_name == "map":
        return "AP"
    if trec_name == "Rprec":
        return "R-prec"
    if trec_name == "ndcg":
        return "nDCG"
    family, cutoff = trec_name.rsplit("_", 1)
    return {"P": "P@", "ndcg_cut": "nDCG@", "recall": "recall@"}[family] + cutoff


def _expected(name: str) -> list[tuple[str, str, str]]:
    """(trec_eval measure, topic or 'all', printed value) for supported measures in an output file."""
    rows = []
    for line in fetch(f"trec_eval_tests/{name}").read_text().splitlines():
        measure, topic, value = (part.strip() for part in line.split("\t"))
        if _SUPPORTED.match(measure):
            rows.append((measure, topic, value))
    return rows


# output file -> (run file, missing-topic policy)
CASES = {
    "out.test": ("results.test", "drop"),
    "out.test.a": ("results.test", "drop"),
    "out.test.aq": ("results.test", "drop"),
    "out.test.aqc": ("results.trunc", "zero"),
    "out.test.meas_params": ("results.test", "drop"),
}


@cache
def _evaluated(output: str) -> Evaluation:
    run_file, policy = CASES[output]
    measures = sorted({_our_name(m) for m, _, _ in _expected(output)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # results.trunc has trailing text on five lines
        run = read_run(fetch(f"trec_eval_tests/{run_file}"))
    # no_relevant changes nothing here: every test topic has relevant documents
    return evaluate(
        {"STANDARD": run}, read_qrels(fetch("trec_eval_tests/qrels.test")), measures, missing_topics=policy
    )


EXPECTED = [(output, *row) for output in CASES for row in _expected(output)]


@pytest.mark.parametrize(
    "output,trec_measure,topic,printed", EXPECTED, ids=[f"{o}-{m}-{t}" for o, m, t, _ in EXPECTED]
)
def test_matches_trec_eval_test_suite(output, trec_measure, topic, printed):
    frame = _evaluated(output)[_our_name(trec_measure)]["STANDARD"]
    value = frame.mean() if topic == "all" else frame.loc[topic]
    assert f"{value:.4f}" == printed


def test_suite_covers_every_supported_measure_family_and_both_policies():
    measures = {m for _, m, _, _ in EXPECTED}
    assert {
        "map",
        "Rprec",
        "ndcg",
        "P_10",
        "ndcg_cut_10",
        "recall_1000",
        "P_3",
        "recall_2000",
        "ndcg_cut_23",
    } <= measures
    assert len({t for _, _, t, _ in EXPECTED}) == 4  # 301, 302, 303 and all
    assert len(EXPECTED) > 300


def test_with_c_a_missing_topic_scores_zero_and_counts_in_the_mean():
    frames = _evaluated("out.test.aqc")
    assert frames["AP"].loc["302", "STANDARD"] == 0.0
    assert frames.report.missing == {"STANDARD": ("302",)}
    assert frames.report.policy == "zero"


# --------------------------------------------------------------------------- measures


@pytest.mark.parametrize(
    "name,trec_name",
    [
        ("AP", "map"),
        ("map", "map"),
        ("P@10", "P_10"),
        ("p@5", "P_5"),
        ("P_20", "P_20"),
        ("nDCG", "ndcg"),
        ("nDCG@10", "ndcg_cut_10"),
        ("ndcg_cut_1000", "ndcg_cut_1000"),
        ("R-prec", "Rprec"),
        ("Rprec", "Rprec"),
        ("recall@100", "recall_100"),
        ("recall_5", "recall_5"),
    ],
)
def test_parse_measure(name, trec_name):
    measure = parse_measure(name)
    assert measure.trec_eval == trec_name and measure.name == name


@pytest.mark.parametrize("name", ["ERR@10", "P@", "P@0", "nDCG@-1", "bpref", "", "RR@10", "P(judged_only=True)@10"])
def test_unknown_measures_are_rejected(name):
    with pytest.raises(ValueError, match="measure"):
        parse_measure(name)


# --------------------------------------------------------------------------- shapes and policies


def _run(rows, name="r"):
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    frame["run"] = name
    return frame


QRELS = pd.DataFrame(
    [("1", "0", "a", 1), ("1", "0", "b", 0), ("2", "0", "c", 2), ("2", "0", "d", 1), ("3", "0", "e", 0)],
    columns=["query_id", "iteration", "doc_id", "relevance"],
)


def test_frames_are_topics_by_runs_for_many_runs():
    runs = {
        "one": _run([("1", "a", 2.0), ("1", "b", 1.0), ("2", "d", 1.0)]),
        "two": _run([("1", "b", 2.0), ("1", "a", 1.0)]),
    }
    result = evaluate(runs, QRELS, ["AP", "P@1"])
    assert isinstance(result, dict) and list(result) == ["AP", "P@1"]
    ap = result["AP"]
    assert ap.index.name == "query_id" and ap.index.tolist() == ["1", "2"]  # topic 3 has no relevant doc
    assert ap.columns.tolist() == ["one", "two"] and (ap.dtypes == np.float64).all()
    assert ap.loc["1"].tolist() == [1.0, 0.5]
    assert ap.loc["2", "one"] == pytest.approx(0.5)  # d at rank 1, c missing: (1/1) / 2
    assert ap.loc["2", "two"] == 0.0  # missing topic scores 0 by default (trec_eval -c)
    assert result.report.missing == {"one": (), "two": ("2",)}
    assert result.means().loc["two", "AP"] == pytest.approx(0.25)


def test_one_frame_with_several_runs_is_split_by_its_run_column():
    both = pd.concat([_run([("1", "a", 1.0)], "x"), _run([("1", "b", 1.0)], "y")])
    assert evaluate(both, QRELS, ["P@1"])["P@1"].loc["1"].to_dict() == {"x": 1.0, "y": 0.0}


def test_drop_leaves_missing_topics_out_like_trec_eval_default():
    runs = {"one": _run([("1", "a", 2.0), ("2", "d", 1.0)]), "two": _run([("1", "b", 2.0), ("1", "a", 1.0)])}
    result = evaluate(runs, QRELS, ["AP"], missing_topics="drop")
    assert np.isnan(result["AP"].loc["2", "two"])
    assert result.means().loc["two", "AP"] == 0.5  # only topic 1, as trec_eval without -c
    only_one = evaluate({"two": runs["two"]}, QRELS, ["AP"], missing_topics="drop")
    assert only_one["AP"].index.tolist() == ["1"]  # a topic no run has is no row


def test_topics_not_in_qrels_are_ignored_with_a_warning():
    run = _run([("1", "a", 1.0), ("99", "z", 1.0)])
    with pytest.warns(IgnoredTopicsWarning, match=r"run r: 1 topic\(s\) not in the qrels ignored.*99"):
        result = evaluate({"r": run}, QRELS, ["AP"])
    assert "99" not in result["AP"].index
    assert result.report.not_in_qrels == {"r": ("99",)}


def test_topics_without_relevant_documents_what_trec_eval_does():
    """trec_eval (its code, via pytrec_eval) scores a judged topic without relevant docs 0."""
    run = _run([("1", "a", 1.0), ("3", "e", 1.0)])
    direct = pytrec_eval.RelevanceEvaluator(
        {"1": {"a": 1, "b": 0}, "3": {"e": 0}}, {"map", "P_10", "ndcg", "Rprec", "recall_10", "ndcg_cut_10"}
    ).evaluate({"1": {"a": 1.0}, "3": {"e": 1.0}})
    assert set(direct) == {"1", "3"} and set(direct["3"].values()) == {0.0}
    # keep = trec_eval verbatim
    qrels = QRELS[QRELS["query_id"] != "2"]
    kept = evaluate({"r": run}, qrels, ["AP", "nDCG"], no_relevant="keep")
    assert kept["AP"].loc["3", "r"] == direct["3"]["map"] == 0.0
    assert kept["nDCG"].loc["1", "r"] == pytest.approx(direct["1"]["ndcg"])
    # default: left out, with a warning and in the report
    with pytest.warns(IgnoredTopicsWarning, match="without a relevant document left out.*3"):
        dropped = evaluate({"r": run}, qrels, ["AP"])
    assert dropped["AP"].index.tolist() == ["1"]
    assert dropped.report.topics_without_relevant == ("3",)


def test_report_without_evaluating():
    report = missing_topic_report(
        {"r": _run([("1", "a", 1.0), ("7", "x", 1.0)])}, QRELS, missing_topics="drop"
    )
    assert isinstance(report, MissingTopicReport)
    assert report.evaluated_topics == ("1", "2") and report.missing == {"r": ("2",)}
    assert report.not_in_qrels == {"r": ("7",)} and report.affected
    assert any("left out (trec_eval default)" in line for line in report.summary())


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"missing_topics": "ignore"}, "missing_topics must be one of"),
        ({"no_relevant": "zero"}, "no_relevant must be one of"),
        ({"measures": []}, "measures must be a measure name or a non-empty list"),
        ({"measures": ["AP", "AP"]}, "named twice"),
    ],
)
def test_bad_options_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate({"r": _run([("1", "a", 1.0)])}, QRELS, **kwargs)


def test_bad_runs_raise():
    with pytest.raises(ValueError, match="twice in topic 1"):
        evaluate({"r": _run([("1", "a", 1.0), ("1", "a", 2.0)])}, QRELS)
    with pytest.raises(ValueError, match="without column"):
        evaluate({"r": pd.DataFrame({"query_id": ["1"]})}, QRELS)
    with pytest.raises(ValueError, match="NaN score"):
        evaluate({"r": _run([("1", "a", float("nan"))])}, QRELS)


# --------------------------------------------------------------------------- invariants


@settings(max_examples=40, deadline=None)
@given(
    scores=st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=6, max_size=6),
    seed=st.integers(0, 10_000),
)
def test_row_order_and_rank_column_do_not_matter(scores, seed):
    docs = ["a", "b", "c", "d", "c2", "zz"]
    run = _run([("1" if i % 2 else "2", doc, s) for i, (doc, s) in enumerate(zip(docs, scores, strict=True))])
    run["rank"] = np.arange(len(run)) + 1
    shuffled = run.sample(frac=1, random_state=seed)
    shuffled["rank"] = np.random.default_rng(seed).permutation(len(run)) + 1
    measures = ["AP", "nDCG", "P@2", "R-prec"]
    first, second = evaluate({"r": run}, QRELS, measures), evaluate({"r": shuffled}, QRELS, measures)
    for name in measures:
        pd.testing.assert_frame_equal(first[name], second[name])


def test_real_run_agrees_with_pytrec_eval_called_directly():
    run = read_run(fetch("runs/robust04_bm25_rm3.run"))
    qrels = read_qrels(fetch("qrels/robust04.txt"))
    with pytest.warns(IgnoredTopicsWarning, match="672"):  # topic 672 has no judgments in the qrels
        result = evaluate({"bm25": run}, qrels, ["AP", "nDCG@10"])
    qrels_dict = {}
    for q, d, r in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"], strict=True):
        qrels_dict.setdefault(q, {})[d] = int(r)
    run_dict = {}
    for q, d, s in zip(run["query_id"], run["doc_id"], run["score"], strict=True):
        run_dict.setdefault(q, {})[d] = float(s)
    direct = pytrec_eval.RelevanceEvaluator(qrels_dict, {"map", "ndcg_cut.10"}).evaluate(run_dict)
    assert len(result["AP"]) == 249
    for topic, values in direct.items():
        assert result["AP"].loc[topic, "bm25"] == values["map"]
        assert result["nDCG@10"].loc[topic, "bm25"] == values["ndcg_cut_10"]


# --------------------------------------------------------------------------- our ranks are trec_eval's


@pytest.mark.parametrize(
    "output,run_file", [("out.test.aq", "results.test"), ("out.test.aqc", "results.trunc")]
)
def test_read_run_ranks_reproduce_trec_eval_relstring(output, run_file):
    """trec_eval's ``relstring`` prints the grades of its top 10; read_run's ranks 1-10 must give them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = read_run(fetch(f"trec_eval_tests/{run_file}"))
    grades = read_qrels(fetch("trec_eval_tests/qrels.test")).set_index(["query_id", "doc_id"])["relevance"]
    expected = {
        topic: value.strip("'")
        for measure, topic, value in (
            (p.strip() for p in line.split("\t"))
            for line in fetch(f"trec_eval_tests/{output}").read_text().splitlines()
        )
        if measure == "relstring"
    }
    assert expected
    for topic, relstring in expected.items():
        top = run[(run["query_id"] == topic) & (run["rank"] <= 10)]
        ours = "".join(
            str(grades[(topic, doc)]) if (topic, doc) in grades.index else "-" for doc in top["doc_id"]
        )
        assert ours == relstring, topic


@settings(max_examples=50, deadline=None)
@given(
    grades=st.lists(st.integers(0, 2), min_size=12, max_size=12),
    scores=st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=12, max_size=12),
    cutoff=st.integers(1, 12),
)
def test_precision_from_our_ranks_equals_trec_eval_under_heavy_ties(tmp_path_factory, grades, scores, cutoff):
    docs = [f"d{i:02d}" for i in range(12)]
    qrels = pd.DataFrame({"query_id": "1", "iteration": "0", "doc_id": docs, "relevance": grades})
    qrels.loc[0, "relevance"] = 1  # at least one relevant document
    path = tmp_path_factory.mktemp("ties") / "run.txt"
    path.write_text("".join(f"1 Q0 {d} 1 {s} t\n" for d, s in zip(docs, scores, strict=True)))
    run = read_run(path)
    relevant = set(qrels.loc[qrels["relevance"] >= 1, "doc_id"])
    ours = sum(doc in relevant for doc in run.loc[run["rank"] <= cutoff, "doc_id"]) / cutoff
    assert evaluate({"t": run}, qrels, [f"P@{cutoff}"])[f"P@{cutoff}"].loc["1", "t"] == pytest.approx(ours)


def test_trec_eval_scores_a_topic_without_relevant_documents_zero_and_averages_it():
    """The test suite's qrels with topic 303's grades zeroed, through trec_eval's code."""
    qrels = read_qrels(fetch("trec_eval_tests/qrels.test"))
    qrels.loc[qrels["query_id"] == "303", "relevance"] = 0
    run = read_run(fetch("trec_eval_tests/results.test"))
    qrels_dict = {t: dict(zip(g["doc_id"], g["relevance"].astype(int), strict=True)) for t, g in qrels.groupby("query_id")}
    run_dict = {t: dict(zip(g["doc_id"], g["score"], strict=True)) for t, g in run.groupby("query_id")}
    direct = pytrec_eval.RelevanceEvaluator(
        qrels_dict, {"map", "ndcg", "P_10", "Rprec", "recall_100"}
    ).evaluate(run_dict)
    assert set(direct) == {"301", "302", "303"}  # evaluated, not left out
    assert set(direct["303"].values()) == {0.0}
    kept = evaluate({"S": run}, qrels, ["AP", "nDCG"], no_relevant="keep")
    assert kept["AP"].index.tolist() == ["301", "302", "303"] and kept["AP"].loc["303", "S"] == 0.0
    assert kept["AP"]["S"].mean() == pytest.approx((direct["301"]["map"] + direct["302"]["map"]) / 3)
    with pytest.warns(IgnoredTopicsWarning, match="303"):
        dropped = evaluate({"S": run}, qrels, ["AP"])
    assert dropped["AP"].index.tolist() == ["301", "302"]


# --------------------------------------------------------------------------- bad arguments


def test_bad_arguments_name_the_parameter():
    """Empty frames, paths, a 20-digit or a fractional grade, a huge cut-off: one clear error each,
    never an IndexError, AttributeError, KeyError or OverflowError from inside."""
    run = _run([("1", "a", 1.0)])
    cases = [
        (lambda: evaluate({"r": run.iloc[:0]}, QRELS), r"runs\['r'\] must be .* got a DataFrame with 0 row"),
        (lambda: evaluate({"r": run}, "qrels.txt"), "qrels must be a pandas DataFrame"),
        (lambda: evaluate({"r": "run.txt"}, QRELS), r"runs\['r'\] must be a pandas DataFrame"),
        (lambda: evaluate({"r": run}, QRELS, ["P@100000000000000000000"]), "cut-off k must be an integer from 1 to"),
        (lambda: evaluate({"r": run}, QRELS.assign(relevance=pd.Series([10**20, 0, 2, 1, 0], dtype=object))),
         "relevance grade 100000000000000000000 of document a in topic 1"),
        (lambda: evaluate({"r": run}, QRELS.assign(relevance=[1.5, 0, 2, 1, 0])), "relevance grade 1.5"),
        (lambda: evaluate({1: run, "1": run}, QRELS), "distinct names"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()


def test_a_string_is_one_measure():
    """``measures="AP"`` was read letter by letter ('A', 'P')."""
    result = evaluate({"r": _run([("1", "a", 1.0)])}, QRELS, "AP")
    assert list(result) == ["AP"]


# --------------------------------------------------------------------------- ir_measures' names and objects

IR_MEASURES = ["AP", "AP@10", "P@10", "P(rel=2)@10", "nDCG", "nDCG@10", "R@100", "R(rel=2)@1000", "RR", "RR(rel=3)",
               "Rprec", "Rprec(rel=2)", "AP(rel=2)"]


def test_ir_measures_names_give_ir_measures_numbers_per_topic():
    """On trec_eval's graded test qrels (grades -1 .. 4), every name gives what ir_measures computes
    for it, topic by topic (with trec_eval's own topic policy: missing topics and topics without a
    relevant document as trec_eval treats them)."""
    import ir_measures

    qrels, run = read_qrels(fetch("trec_eval_tests/qrels.rel_level")), read_run(fetch("trec_eval_tests/results.test"))
    ours = evaluate({"r": run}, qrels, IR_MEASURES, missing_topics="drop", no_relevant="keep")
    theirs = {}
    for metric in ir_measures.iter_calc([ir_measures.parse_measure(name) for name in IR_MEASURES], qrels, run):
        theirs[(str(metric.measure), metric.query_id)] = metric.value
    compared = 0
    for name in IR_MEASURES:
        key = str(ir_measures.parse_measure(name))
        for topic, value in ours[name]["r"].items():
            assert value == pytest.approx(theirs[(key, topic)], abs=1e-12), (name, topic)
            compared += 1
    assert compared == 3 * len(IR_MEASURES)
    assert ours["P(rel=2)@10"]["r"].tolist() != ours["P@10"]["r"].tolist()  # the level changes the numbers


def test_ir_measures_objects_key_the_result_by_their_names():
    import ir_measures

    run = _run([("1", "a", 0.9), ("1", "b", 0.5), ("2", "d", 0.9), ("2", "c", 0.3)])
    result = evaluate({"r": run}, QRELS, [ir_measures.P(rel=2) @ 1, ir_measures.RR, "P@1"])
    assert list(result) == ["P(rel=2)@1", "RR", "P@1"]
    assert result["P(rel=2)@1"]["r"].tolist() == [0.0, 0.0] and result["P@1"]["r"].tolist() == [1.0, 1.0]


def test_the_command_reads_ir_measures_names_with_commas_inside(capsys):
    import json

    from irrepro.cli import main

    argv = ["evaluate", "--qrels", str(fetch("trec_eval_tests/qrels.rel_level")), str(fetch("trec_eval_tests/results.test")),
            "--measures", "P(rel=2)@10,nDCG(dcg='log2', judged_only=False)@10,RR", "--format", "json"]
    assert main(argv) == 2  # judged_only is not trec_eval's: refused by name
    assert "judged_only are not trec_eval's" in capsys.readouterr().err
    argv[-3] = "P(rel=2)@10,nDCG(dcg='log2')@10,RR"
    assert main(argv) == 0
    means = next(iter(json.loads(capsys.readouterr().out)["runs"].values()))["mean"]
    assert list(means) == ["P(rel=2)@10", "nDCG(dcg='log2')@10", "RR"]
# --------------------------------------------------------------------------- runs streamed from files

STREAMED_MEASURES = ["AP", "P@10", "nDCG", "nDCG@10", "R-prec", "recall@1000"]


def _whole_run_scores(qrels: pd.DataFrame, run: pd.DataFrame, measures) -> dict:
    """pytrec_eval called once on the whole run: the numbers a streamed evaluation must equal."""
    qrels_dict, run_dict = {}, {}
    for q, d, r in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"], strict=True):
        qrels_dict.setdefault(q, {})[d] = int(r)
    for q, d, s in zip(run["query_id"], run["doc_id"], run["score"], strict=True):
        run_dict.setdefault(q, {})[d] = float(s)
    requests = {parse_measure(name).request for name in measures}
    return pytrec_eval.RelevanceEvaluator(qrels_dict, requests).evaluate(run_dict)


@pytest.fixture(scope="module")
def robust04():
    return read_qrels(fetch("qrels/robust04.txt")), fetch("runs/robust04_bm25_rm3.run")


@pytest.mark.parametrize("order", ["as written", "shuffled"])
def test_a_streamed_real_run_scores_as_pytrec_eval_on_the_whole_run(robust04, tmp_path, monkeypatch, order):
    qrels, run_path = robust04
    lines = run_path.read_bytes().splitlines(keepends=True)
    if order == "shuffled":  # no topic in one block: the stream must be read whole
        lines = [lines[i] for i in np.random.default_rng(27).permutation(len(lines))]
    path = tmp_path / "run.txt"
    path.write_bytes(b"".join(lines))
    read_whole, sorted_ = [], []
    monkeypatch.setattr(RunStream, "read", lambda self, read=RunStream.read: read_whole.append(1) or read(self))
    monkeypatch.setattr(evaluation, "sorted_batches", lambda pieces, f=evaluation.sorted_batches: sorted_.append(1) or f(pieces))
    with RunStream(path, chunk_bytes=2**16) as stream:  # 10 MB in about 160 chunks
        scores = Judgments(qrels).score(stream, STREAMED_MEASURES)
        assert stream.tag == "Anserini"
    assert read_whole == []  # never a frame of the whole run
    assert sorted_ == ([1] if order == "shuffled" else [])  # not in blocks: held as codes, sorted
    assert scores.by_topic == _whole_run_scores(qrels, read_run(run_path), STREAMED_MEASURES)  # bit for bit
    assert len(scores.topics) == 250 and "672" in scores.topics  # 672: in the run, not in the qrels


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.sampled_from(["1", "2", "3", "4"]), st.sampled_from("abcdefg"), st.sampled_from([0.0, 0.5, 1.5, 2.5])),
        min_size=1, max_size=40, unique_by=lambda row: row[:2],
    ),
    st.booleans(),
    st.integers(1, 200),
)  # fmt: skip
def test_streamed_runs_in_blocks_or_not_score_as_the_whole_run(rows, in_blocks, chunk_bytes):
    if in_blocks:
        rows = sorted(rows, key=lambda row: row[0])
    data = "".join(f"{q} Q0 {d} 1 {s!r} t\n" for q, d, s in rows).encode()
    qrels = pd.DataFrame(
        [(q, "0", d, (ord(d) + int(q)) % 3 - 1) for q in "1234" for d in "abcdeg"],
        columns=["query_id", "iteration", "doc_id", "relevance"],
    )
    handle = io.BytesIO(data)
    handle.name = "generated.run"
    with RunStream(handle, chunk_bytes=chunk_bytes) as stream:
        scores = Judgments(qrels).score(stream, STREAMED_MEASURES)
    run = _run(rows)
    assert scores.by_topic == _whole_run_scores(qrels, run, STREAMED_MEASURES)
    streamed = evaluate_prepared({"t": scores}, qrels, STREAMED_MEASURES, missing_topics="zero", no_relevant="drop")
    whole = evaluate({"t": run}, qrels, STREAMED_MEASURES)
    for name in STREAMED_MEASURES:
        pd.testing.assert_frame_equal(streamed[name], whole[name], check_exact=True)
    assert streamed.report == whole.report


@pytest.mark.parametrize("head", [b"", b"2 Q0 z 1 1 t\n"])  # in blocks of topics, or not
@pytest.mark.parametrize(
    "tail,message",
    [
        (b"", r"generated\.run, line {}: document a appears twice in topic 2 \(first on line {}\)"),
        (b"3 Q0 z 1 high t\n", r"generated\.run, line {}: score 'high' is not a number"),  # a bad line first
    ],
)
def test_a_streamed_run_with_a_duplicate_fails_as_read_run_does(head, tail, message):
    data = head + b"1 Q0 a 1 1 t\n1 Q0 b 1 2 t\n\n2 Q0 a 1 1 t\n2 Q0 b 1 2 t\n2 Q0 c 1 2 t\n2 Q0 a 1 3 t\n" + tail
    shift = len(head) > 0
    message = message.format(*([7 + shift, 4 + shift] if not tail else [8 + shift]))
    handle = io.BytesIO(data)
    handle.name = "generated.run"
    with RunStream(handle, chunk_bytes=8) as stream, pytest.raises(RunFormatError, match=message):
        Judgments(QRELS).score(stream, ["AP"])
    with pytest.raises(RunFormatError, match=message):
        runs._run_from_bytes(data, "generated.run")
