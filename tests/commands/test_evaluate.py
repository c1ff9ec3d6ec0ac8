"""``irrepro evaluate``: trec_eval's per-query numbers on the command line; one error line for bad files."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from irrepro.cli import main
from irrepro.data import fetch


@pytest.fixture(scope="module")
def suite():
    return {
        name: fetch(f"trec_eval_tests/{name}")
        for name in ("qrels.test", "results.test", "results.trunc", "out.test.aq")
    }


def _expected_aq(path) -> dict[tuple[str, str], str]:
    rows = (line.split("\t") for line in path.read_text().splitlines())
    return {(m.strip(), t.strip()): v.strip() for m, t, v in rows}


def test_per_topic_table_prints_trec_eval_per_query_numbers(suite, capsys):
    code = main(["evaluate", "--qrels", str(suite["qrels.test"]), str(suite["results.test"]), "--per-topic"])
    out = capsys.readouterr().out
    assert code == 0
    expected = _expected_aq(suite["out.test.aq"])
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:] if line.strip()}
    for topic in ("301", "302", "303", "all"):
        assert rows[topic] == [expected[("map", topic)], expected[("P_10", topic)], expected[("ndcg", topic)]]


def test_per_topic_csv_has_run_file_topic_measure_value(suite, capsys):
    argv = [
        "evaluate",
        "--qrels",
        str(suite["qrels.test"]),
        str(suite["results.test"]),
        "--per-topic",
        "--format",
        "csv",
    ]
    assert main([*argv, "--measures", "AP,P@10,nDCG@10,nDCG"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["run", "file", "topic", "measure", "value"]
    assert len(rows) == 1 + 3 * 4
    assert {(r[0], r[1]) for r in rows[1:]} == {("STANDARD", str(suite["results.test"]))}
    assert [r[3] for r in rows[1:5]] == [
        "AP",
        "P@10",
        "nDCG@10",
        "nDCG",
    ]
    expected = _expected_aq(suite["out.test.aq"])
    trec_names = {"AP": "map", "P@10": "P_10", "nDCG@10": "ndcg_cut_10", "nDCG": "ndcg"}
    for _run, _file, topic, measure, value in rows[1:]:
        assert f"{float(value):.4f}" == expected[(trec_names[measure], topic)]


def test_means_for_several_runs_and_missing_topic_note(suite, capsys):
    argv = [
        "evaluate",
        "--qrels",
        str(suite["qrels.test"]),
        str(suite["results.test"]),
        str(suite["results.trunc"]),
    ]
    assert main([*argv, "--format", "csv"]) == 0
    captured = capsys.readouterr()
    rows = list(csv.reader(io.StringIO(captured.out)))
    assert rows[0] == ["run", "file", "measure", "value", "n_topics"]
    # both files carry the tag STANDARD, so they are told apart by file name
    means = {(r[0], r[2]): float(r[3]) for r in rows[1:]}
    assert f"{means[('results.test', 'AP')]:.4f}" == "0.1785"  # out.test
    assert f"{means[('results.trunc', 'AP')]:.4f}" == "0.1016"  # out.test.aqc (-c)
    assert {r[0]: r[1] for r in rows[1:]} == {"results.test": str(suite["results.test"]), "results.trunc": str(suite["results.trunc"])}
    assert "scored 0 (trec_eval -c): 302" in captured.err
    assert "ignored text after the sixth column" in captured.err


def test_drop_policy_and_json(suite, capsys):
    argv = ["evaluate", "--qrels", str(suite["qrels.test"]), str(suite["results.trunc"]), "--format", "json"]
    assert main([*argv, "--missing-topics", "drop", "--per-topic"]) == 0
    document = json.loads(capsys.readouterr().out)
    run = document["runs"]["STANDARD"]
    assert set(run["per_topic"]["AP"]) == {"301", "303"}
    assert run["mean"]["AP"] == pytest.approx(
        (run["per_topic"]["AP"]["301"] + run["per_topic"]["AP"]["303"]) / 2
    )


@pytest.mark.parametrize(
    "text,problem",
    [
        ("1 Q0 a 1 0.5 t\n1 Q0 b 2 high t\n", "line 2: score 'high' is not a number"),
        ("1 Q0 a 1 0.5 t\n1 Q0 b 2\n", "line 2: expected 6 columns"),
        ("1 Q0 a 1 0.5 t\n1 Q0 a 2 0.4 t\n", "line 2: document a appears twice in topic 1"),
        ("", "line 1: the file holds no run lines"),
    ],
)
def test_bad_run_file_ends_with_one_error_line(suite, tmp_path, capsys, text, problem):
    bad = tmp_path / "bad.run"
    bad.write_text(text)
    assert main(["evaluate", "--qrels", str(suite["qrels.test"]), str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("irrepro evaluate: error: ")
    assert f"{bad}, {problem}" in err[0]


def test_unknown_measure_is_one_error_line(suite, capsys):
    assert (
        main(
            [
                "evaluate",
                "--qrels",
                str(suite["qrels.test"]),
                str(suite["results.test"]),
                "--measures",
                "AP,ERR",
            ]
        )
        == 2
    )
    assert "unknown measure 'ERR'" in capsys.readouterr().err


def _strict_json(text: str):
    """json.loads that refuses NaN, Infinity and -Infinity (Python's json accepts them by default)."""

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_json_is_strict_when_a_mean_is_undefined(suite, tmp_path, capsys):
    """Under --missing-topics drop a run with none of the judged topics has no mean: null, not NaN."""
    elsewhere = tmp_path / "elsewhere.run"
    elsewhere.write_text("999 Q0 doc 1 1.0 other\n")
    argv = ["evaluate", "--qrels", str(suite["qrels.test"]), str(suite["results.test"]), str(elsewhere)]
    assert main([*argv, "--missing-topics", "drop", "--format", "json", "--per-topic"]) == 0
    document = _strict_json(capsys.readouterr().out)
    assert document["runs"]["other"]["mean"] == {"AP": None, "P@10": None, "nDCG": None}
    assert document["runs"]["other"]["file"] == str(elsewhere)
    assert main([*argv, "--missing-topics", "drop"]) == 0
    assert "undefined" in capsys.readouterr().out


def test_colliding_tags_never_share_a_label(suite, tmp_path, capsys):
    """Two files tagged X and a third tagged like the first file's name: three runs, three labels,
    each with its own numbers (before, one run's scores replaced another's)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    lines = suite["results.test"].read_text().splitlines()
    first, second, third = tmp_path / "a" / "x.run", tmp_path / "b" / "x.run", tmp_path / "c.run"
    first.write_text("".join(line.rsplit(None, 1)[0] + " X\n" for line in lines))
    second.write_text("".join(line.rsplit(None, 1)[0] + " X\n" for line in lines[: len(lines) // 2]))
    third.write_text("".join(line.rsplit(None, 1)[0] + " x.run\n" for line in lines[:50]))
    argv = ["evaluate", "--qrels", str(suite["qrels.test"]), str(first), str(second), str(third)]
    assert main([*argv, "--format", "json"]) == 0
    runs = _strict_json(capsys.readouterr().out)["runs"]
    assert {label: run["file"] for label, run in runs.items()} == {
        str(first): str(first), str(second): str(second), "c.run": str(third)
    }
    assert len({run["mean"]["AP"] for run in runs.values()}) == 3
    assert main([*argv, "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert {(r[0], r[1]) for r in rows[1:]} == {(str(first), str(first)), (str(second), str(second)), ("c.run", str(third))}


def test_missing_topics_help_says_what_the_default_does(capsys):
    assert main(["evaluate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "'zero' (the default) scores it 0" in text and "'trec_eval -c'" in text
    assert "trec_eval's own default (without -c)" in text


@pytest.fixture(scope="module")
def no_relevant_topic(tmp_path_factory):
    """Eight judged topics, topic 8 judged only 0 and -1; the run lacks topic 5 (ties broken by docno)."""
    folder = tmp_path_factory.mktemp("no-relevant")
    qrels, run = [], []
    for topic in range(1, 9):
        for i in range(15):
            grade = (-1 if i % 3 == 0 else 0) if topic == 8 else int(i % (topic + 2) == 0)
            qrels.append(f"{topic} 0 D{topic}-{i:02d} {grade}")
        if topic != 5:
            run += [f"{topic} Q0 D{topic}-{(7 * k + topic) % 30:02d} {k + 1} {(20 - k) // 2} tag" for k in range(20)]
    (folder / "qrels").write_text("\n".join(qrels) + "\n")
    (folder / "run").write_text("\n".join(run) + "\n")
    return folder / "qrels", folder / "run"


def _trec_eval_means(qrels_path, run_path, *, complete: bool) -> dict[str, float]:
    """trec_eval's means, from its code's per-topic numbers (pytrec_eval) averaged as trec_eval does:
    over the topics of run and qrels, or with -c (``complete``) over every qrels topic, 0 where the run lacks it."""
    import pytrec_eval

    qrels, run = {}, {}
    for line in qrels_path.read_text().splitlines():
        topic, _, doc, grade = line.split()
        qrels.setdefault(topic, {})[doc] = int(grade)
    for line in run_path.read_text().splitlines():
        topic, _, doc, _, score, _ = line.split()
        run.setdefault(topic, {})[doc] = float(score)
    names = {"AP": "map", "P@10": "P_10", "nDCG": "ndcg"}
    per_topic = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(run)
    topics = list(qrels) if complete else list(per_topic)
    return {m: sum(per_topic.get(t, {}).get(name, 0.0) for t in topics) / len(topics) for m, name in names.items()}


def _ir_measures_means(qrels_path, run_path, *, complete: bool) -> dict[str, float]:
    import ir_measures
    from ir_measures import AP, P, nDCG

    qrels, run = list(ir_measures.read_trec_qrels(str(qrels_path))), list(ir_measures.read_trec_run(str(run_path)))
    per_topic = {}
    for result in ir_measures.iter_calc([AP, P @ 10, nDCG], qrels, run):
        per_topic.setdefault(str(result.measure), {})[result.query_id] = result.value
    topics = {q.query_id for q in qrels}  # ir_measures scores a qrels topic the run lacks 0: trec_eval -c
    if not complete:
        topics &= {r.query_id for r in run}
    names = {"AP": "AP", "P@10": "P@10", "nDCG": "nDCG"}
    return {m: sum(per_topic[name].get(t, 0.0) for t in topics) / len(topics) for m, name in names.items()}


@pytest.mark.parametrize("missing, complete", [("zero", True), ("drop", False)])
def test_no_relevant_keep_gives_trec_eval_numbers(no_relevant_topic, capsys, missing, complete):
    """--no-relevant keep: trec_eval's means (-c with --missing-topics zero), topics named in the JSON."""
    qrels, run = no_relevant_topic
    argv = ["evaluate", "--qrels", str(qrels), str(run), "--format", "json", "--missing-topics", missing]
    assert main([*argv, "--no-relevant", "keep"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    entry = document["runs"]["tag"]
    expected = _trec_eval_means(qrels, run, complete=complete)
    assert entry["mean"] == pytest.approx(expected, abs=1e-15)
    assert entry["mean"] == pytest.approx(_ir_measures_means(qrels, run, complete=complete), abs=1e-12)
    topics = [str(t) for t in range(1, 9) if complete or t != 5]
    assert entry["topics"] == topics and entry["n_topics"] == len(topics)
    assert document["no_relevant"] == "keep" and document["topics_without_relevant"] == ["8"]
    assert "without a relevant document scored like any topic, 0 on every measure (as trec_eval does): 8" in captured.err
    # the default leaves topic 8 out of every mean and says how to keep it
    assert main(argv) == 0
    captured = capsys.readouterr()
    dropped = json.loads(captured.out)["runs"]["tag"]
    assert dropped["topics"] == [t for t in topics if t != "8"]
    assert dropped["mean"]["AP"] == pytest.approx(expected["AP"] * len(topics) / (len(topics) - 1))
    assert "left out of every mean" in captured.err and "--no-relevant keep" in captured.err


def test_csv_and_table_say_how_many_topics_each_mean_averages(no_relevant_topic, capsys):
    qrels, run = no_relevant_topic
    argv = ["evaluate", "--qrels", str(qrels), str(run)]
    for extra, n_topics in ((["--no-relevant", "keep"], 8), ([], 7), (["--missing-topics", "drop"], 6)):
        assert main([*argv, "--format", "csv", *extra]) == 0
        rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        assert [row["n_topics"] for row in rows] == [str(n_topics)] * 3, extra
        assert main([*argv, *extra]) == 0
        header, _, row = capsys.readouterr().out.splitlines()
        assert header.split() == ["AP", "P@10", "nDCG", "topics", "file"] and row.split()[4] == str(n_topics)


def test_no_relevant_help_names_trec_eval(capsys):
    assert main(["evaluate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--no-relevant {drop,keep}" in text and "'keep' scores it 0 on every measure and counts it in the means, as trec_eval does" in text
    assert "(with '--missing-topics zero' for 'trec_eval -c', with '--missing-topics drop' for trec_eval without -c)" in text


def _spy_on_trec_eval(monkeypatch) -> list[int]:
    """The number of run lines each call of trec_eval's code (pytrec_eval ``evaluate``) receives."""
    from irrepro import evaluation

    sizes: list[int] = []
    evaluator = evaluation.Judgments.evaluator

    class Spy:
        def __init__(self, wrapped):
            self.wrapped = wrapped

        def evaluate(self, run: dict) -> dict:
            sizes.append(sum(map(len, run.values())))
            return self.wrapped.evaluate(run)

    monkeypatch.setattr(evaluation.Judgments, "evaluator",
                        lambda self, requests, relevance_level=1: Spy(evaluator(self, requests, relevance_level)))
    return sizes


@pytest.mark.parametrize("order", ["in blocks", "shuffled"])
def test_a_run_is_evaluated_a_chunk_at_a_time_never_whole(tmp_path, monkeypatch, capsys, order):
    """Issue 27: the run is streamed; trec_eval's code gets one chunk's topics at a time (80 lines
    a topic, about 2 topics a chunk), never the 2,400 lines at once, unless the topics are not in
    blocks (then the run is read whole, in batches of whole topics). The numbers are the same."""
    rng = np.random.default_rng(27)
    topics = [str(t) for t in range(30)]
    lines = [f"{t} Q0 d{d} 1 {rng.random():.4f} t\n" for t in topics for d in rng.choice(200, 80, replace=False)]
    if order == "shuffled":
        lines = [lines[i] for i in rng.permutation(len(lines))]
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("".join(lines))
    qrels.write_text("".join(f"{t} 0 d{d} {d % 3}\n" for t in topics for d in range(0, 200, 7)))
    expected = json.loads(_evaluate_json(main, qrels, run, capsys))
    monkeypatch.setattr("irrepro.sources.CHUNK_BYTES", 4096)  # about 180 lines
    sizes = _spy_on_trec_eval(monkeypatch)
    assert json.loads(_evaluate_json(main, qrels, run, capsys)) == expected
    assert sum(sizes) == len(lines)
    if order == "in blocks":
        assert len(sizes) > 10 and max(sizes) <= 4096 // 20 + 80
    else:
        assert max(sizes) == len(lines)


def _evaluate_json(main, qrels, run, capsys) -> str:
    assert main(["evaluate", "--qrels", str(qrels), str(run), "--format", "json", "--per-topic"]) == 0
    return capsys.readouterr().out
