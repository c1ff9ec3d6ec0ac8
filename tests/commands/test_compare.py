"""``irrepro compare`` on the command line: labels and files in every output, strict JSON."""

from __future__ import annotations

import json
import re

import pytest

from irrepro.cli import main


def _strict_json(text: str):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture()
def files(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 d{d} {int(d % 3 == 0)}\n" for t in (1, 2, 3) for d in range(10)))
    paths = {}
    for name, shift in (("base.run", 0), ("adv.run", 3), ("base2.run", 1), ("adv2.run", 4)):
        paths[name] = tmp_path / name
        paths[name].write_text(
            "".join(f"{t} Q0 d{(d + shift) % 10} {d + 1} {1 - d / 10} SAME\n" for t in (1, 2, 3) for d in range(10))
        )
    return qrels, paths


def test_undefined_er_is_null_in_strict_json_and_runs_carry_label_and_file(files, capsys):
    """All four files carry the tag SAME (labels by file name); ER with zero original improvement
    (baseline == advanced) is undefined: null in JSON, never NaN."""
    qrels, paths = files
    argv = ["compare", "--qrels", str(qrels), "--orig-baseline", str(paths["base.run"]),
            "--orig-advanced", str(paths["base.run"]), "--new-baseline", str(paths["base2.run"]),
            "--new-advanced", str(paths["adv2.run"]), "--rbo-variant", "sigir2020", "--cutoff", "5"]
    assert main([*argv, "--format", "json"]) == 0
    document = _strict_json(capsys.readouterr().out)
    assert document["ER"] == {"AP": None, "P@10": None, "nDCG": None}
    assert document["runs"]["new_advanced"] == {"label": "adv2.run", "file": str(paths["adv2.run"]), "n_topics": 3, "topics": ["1", "2", "3"]}
    labels = [run["label"] for run in document["runs"].values()]
    base = str(paths["base.run"])
    assert labels == [f"{base}#1", f"{base}#2", "base2.run", "adv2.run"]  # one file given twice
    assert any("zero mean improvement" in note for note in document["notes"])
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert f"new_advanced   adv2.run  ({paths['adv2.run']})" in table


def test_cutoff_one_with_sigir2020_is_an_option_error(files, capsys):
    qrels, paths = files
    run = str(paths["base.run"])
    argv = ["compare", "--qrels", str(qrels), "--orig-baseline", run, "--orig-advanced", run,
            "--new-baseline", run, "--new-advanced", run, "--cutoff", "1", "--rbo-variant", "sigir2020"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "irrepro compare: error: --cutoff must be at least 2 with --rbo-variant sigir2020; got 1\n"
    )


# --------------------------------------------------------------------------- PRIMAD from ir_metadata headers

_COMPONENTS = ("platform", "research goal", "implementation", "method", "actor", "data")


def _annotate(path, out, **changes):
    """``path`` copied to ``out`` with a header of all six components, ``changes`` laid over them."""
    from irrepro.runs import annotate_run

    fields = {c: {"name": "original"} for c in _COMPONENTS}
    fields["data"] = {"test collection": {"name": "C1"}}
    for component, value in changes.items():
        fields[component.replace("_", " ")] = value
    annotate_run(path, fields, out=out)
    return out


@pytest.fixture()
def annotated(files, tmp_path):
    qrels, paths = files
    runs = {
        "base.run": _annotate(paths["base.run"], tmp_path / "o_b.run"),
        "adv.run": _annotate(paths["adv.run"], tmp_path / "o_a.run"),
        "sweep_b.run": _annotate(paths["base2.run"], tmp_path / "s_b.run", method={"C": 3}),
        "sweep_a.run": _annotate(paths["adv2.run"], tmp_path / "s_a.run", method={"C": 3}),
        "far_b.run": _annotate(paths["base2.run"], tmp_path / "f_b.run", actor={"name": "other"},
                               data={"test collection": {"name": "C2"}}),
        "far_a.run": _annotate(paths["adv2.run"], tmp_path / "f_a.run", actor={"name": "other"},
                               data={"test collection": {"name": "C2"}}),
    }
    return qrels, runs


def _compare(qrels, runs, new: tuple[str, str], *extra) -> list[str]:
    return ["compare", "--qrels", str(qrels), "--orig-baseline", str(runs["base.run"]), "--orig-advanced",
            str(runs["adv.run"]), "--new-baseline", str(runs[new[0]]), "--new-advanced", str(runs[new[1]]), *extra]


def test_headers_name_the_kind_of_experiment_and_choose_the_measures(annotated, capsys):
    qrels, runs = annotated
    assert main([*_compare(qrels, runs, ("sweep_b.run", "sweep_a.run")), "--format", "json"]) == 0
    document = _strict_json(capsys.readouterr().out)
    assert document["experiment"]["primad"] == {"baseline": "priMad", "advanced": "priMad"}
    assert document["experiment"]["kinds"] == {"baseline": "parameter sweep", "advanced": "parameter sweep"}
    assert document["experiment"]["decided_by"] == "ir_metadata" and document["setting"] == "replicability"
    assert "KTU" in document
    assert main([*_compare(qrels, runs, ("far_b.run", "far_a.run")), "--new-qrels", str(qrels), "--format", "json"]) == 0
    document = _strict_json(capsys.readouterr().out)
    assert document["experiment"]["primad"] == {"baseline": "primAD", "advanced": "primAD"}
    assert document["experiment"]["kinds"]["baseline"] == "reproducibility" and document["setting"] == "reproducibility"
    assert "KTU" not in document
    assert main(_compare(qrels, runs, ("sweep_b.run", "sweep_a.run"))) == 0
    assert "experiment: PRIMAD priMad (baseline and advanced): parameter sweep" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("new", "new_qrels", "message"),
    [
        (("sweep_b.run", "sweep_a.run"), True, "put the new runs on the original test collection"),
        (("far_b.run", "far_a.run"), False, "put the new runs on another test collection"),
        (("sweep_b.run", "far_a.run"), False, "the ir_metadata headers disagree: the new baseline run is on the original"),
    ],
)
def test_headers_that_contradict_the_qrels_given_are_one_error(annotated, capsys, new, new_qrels, message):
    qrels, runs = annotated
    argv = _compare(qrels, runs, new, *(("--new-qrels", str(qrels)) if new_qrels else ()))
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert main([*argv, "--ignore-metadata"]) == 0  # --new-qrels alone decides, as without headers


def test_without_headers_the_new_qrels_decide_and_it_is_said(files, capsys):
    qrels, paths = files
    argv = ["compare", "--qrels", str(qrels), "--orig-baseline", str(paths["base.run"]), "--orig-advanced",
            str(paths["adv.run"]), "--new-baseline", str(paths["base2.run"]), "--new-advanced", str(paths["adv2.run"])]
    assert main([*argv, "--format", "json"]) == 0
    experiment = _strict_json(capsys.readouterr().out)["experiment"]
    assert experiment["primad"] is None and experiment["decided_by"] == "--new-qrels"
    assert "no ir_metadata header in the original baseline, original advanced, new baseline, new advanced runs" in experiment["text"]
def test_no_relevant_keep_averages_the_topic_as_trec_eval(files, capsys):
    """Topic 4 is judged, but only non-relevant (0 and -1): left out by default, scored 0 with keep."""
    qrels, paths = files
    qrels.write_text(qrels.read_text() + "4 0 d1 0\n4 0 d2 -1\n")
    for path in paths.values():
        path.write_text(path.read_text() + "4 Q0 d1 1 1.0 SAME\n4 Q0 d2 2 0.5 SAME\n")
    argv = ["compare", "--qrels", str(qrels), "--orig-baseline", str(paths["base.run"]), "--orig-advanced", str(paths["adv.run"]),
            "--new-baseline", str(paths["base2.run"]), "--new-advanced", str(paths["adv2.run"]), "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    dropped = _strict_json(capsys.readouterr().out)
    assert main([*argv, "--no-relevant", "keep"]) == 0
    kept = _strict_json(capsys.readouterr().out)
    assert kept["no_relevant"] == "keep" and dropped["no_relevant"] == "drop"
    for role, run in kept["runs"].items():
        assert run["topics"] == ["1", "2", "3", "4"] and dropped["runs"][role]["topics"] == ["1", "2", "3"]
        for measure, value in kept["ARP"][role].items():
            assert value == pytest.approx(dropped["ARP"][role][measure] * 3 / 4)  # topic 4 scores 0 and counts


def test_an_effect_ratio_of_zero_prints_without_a_sign(tmp_path, capsys):
    """The original advanced run is worse than its baseline and the new pair is one run twice: ER = 0, never -0.0000."""
    qrels, good, bad = tmp_path / "qrels", tmp_path / "good.run", tmp_path / "bad.run"
    qrels.write_text("".join(f"{t} 0 d{d} {int(d == 0)}\n" for t in (1, 2, 3) for d in range(5)))
    good.write_text("".join(f"{t} Q0 d{d} {d + 1} {5 - d} good\n" for t in (1, 2, 3) for d in range(5)))
    bad.write_text("".join(f"{t} Q0 d{d} {5 - d} {d} bad\n" for t in (1, 2, 3) for d in range(5)))
    argv = ["compare", "--qrels", str(qrels), "--orig-baseline", str(good), "--orig-advanced", str(bad),
            "--new-baseline", str(good), "--new-advanced", str(good), "--measures", "AP"]  # fmt: skip
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "-0.0000" not in table and re.search(r"^ER\s+0\.0000$", table, flags=re.MULTILINE), table
    assert main([*argv, "--format", "json"]) == 0
    assert '"AP": 0.0' in capsys.readouterr().out
