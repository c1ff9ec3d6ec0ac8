"""``irrepro compare`` on the command line: labels and files in every output, strict JSON."""

from __future__ import annotations

import json

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
    assert document["runs"]["new_advanced"] == {"label": "adv2.run", "file": str(paths["adv2.run"])}
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
