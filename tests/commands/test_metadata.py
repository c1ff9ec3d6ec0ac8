"""``irrepro metadata show|annotate|group``, and repro_eval's metadata module reading the same files."""

from __future__ import annotations

import json

import pytest

from irrepro.cli import main
from irrepro.metadata import COMPONENTS
from irrepro.runs import read_run, run_metadata

LINES = "1 Q0 b 2 0.5 r1\n1 Q0 a 1 0.9 r1\n2 Q0 c 1 0.3 r1\n"  # ranks and order as the run's author wrote them


def _fields(**changes) -> dict:
    fields = {c: {"name": c} for c in COMPONENTS}
    fields.update(changes)
    return fields


def _yaml(path, fields: dict):
    import yaml

    path.write_text(yaml.safe_dump(fields, sort_keys=False))
    return path


def _annotated(tmp_path, name: str, fields: dict):
    run = tmp_path / name
    run.write_text(LINES)
    assert main(["metadata", "annotate", str(run), "--from", str(_yaml(tmp_path / f"{name}.yaml", fields))]) == 0
    return run


def test_annotate_writes_the_header_and_keeps_the_run_lines(tmp_path, capsys):
    from repro_eval.metadata import MetadataHandler

    run = _annotated(tmp_path, "r.run", _fields())
    text = run.read_text()
    assert text.startswith("# ir_metadata.start\n# tag: r1\n# platform:\n") and text.endswith("# ir_metadata.end\n" + LINES)
    assert run_metadata(read_run(run)).to_dict() == {"tag": "r1", **_fields()}
    assert MetadataHandler.read_metadata(str(run)) == {"tag": "r1", **_fields()}
    assert "wrote" in capsys.readouterr().err


def test_annotate_lays_new_fields_over_a_header_and_writes_elsewhere_with_out(tmp_path):
    run = _annotated(tmp_path, "r.run", _fields())
    extra = _yaml(tmp_path / "actor.yaml", {"actor": {"team": "irrepro"}})
    out = tmp_path / "out.run"
    assert main(["metadata", "annotate", str(run), "--from", str(extra), "--out", str(out)]) == 0
    assert run_metadata(read_run(out))["actor"] == {"name": "actor", "team": "irrepro"}
    assert run_metadata(read_run(run))["actor"] == {"name": "actor"}  # the input is left as it was
    assert out.read_text().count("# ir_metadata.start") == 1


def test_annotate_reads_what_repro_eval_wrote_and_repro_eval_reads_what_it_wrote(tmp_path):
    from repro_eval.metadata import MetadataHandler

    run = tmp_path / "bare.run"
    run.write_text(LINES)
    handler = MetadataHandler(str(run), metadata_path=str(_yaml(tmp_path / "t.yaml", {"tag": "r1", **_fields()})))
    handler.write_metadata()  # repro_eval writes bare.run_annotated
    theirs = tmp_path / "bare.run_annotated"
    assert run_metadata(read_run(theirs)).to_dict() == {"tag": "r1", **_fields()}
    assert main(["metadata", "annotate", str(theirs), "--from", str(_yaml(tmp_path / "m.yaml", {"method": {"C": 2}}))]) == 0
    assert MetadataHandler.read_metadata(str(theirs))["method"] == {"name": "method", "C": 2}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("tag: other\n", "the ir_metadata tag 'other' is not the run's tag 'r1'"),
        ("tag: r1\nactor:\n  - a\n", "y.yaml, line 2: ir_metadata field 'actor' must be a mapping"),
        ("actor: {a: [1}\n", "y.yaml, line 1: the ir_metadata fields are not valid YAML"),
    ],
)
def test_annotate_refuses_bad_fields_in_one_line_and_leaves_the_run(tmp_path, capsys, content, message):
    run = tmp_path / "r.run"
    run.write_text(LINES)
    (tmp_path / "y.yaml").write_text(content)
    assert main(["metadata", "annotate", str(run), "--from", str(tmp_path / "y.yaml")]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert run.read_text() == LINES


def test_show_prints_the_header_as_yaml_or_json(tmp_path, capsys):
    import yaml

    run = _annotated(tmp_path, "r.run", _fields())
    capsys.readouterr()
    assert main(["metadata", "show", str(run)]) == 0
    assert yaml.safe_load(capsys.readouterr().out) == {"tag": "r1", **_fields()}
    assert main(["metadata", "show", str(run), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"tag": "r1", **_fields()}


def test_show_says_when_there_is_no_header_or_a_bad_one(tmp_path, capsys):
    bare = tmp_path / "bare.run"
    bare.write_text(LINES)
    assert main(["metadata", "show", str(bare)]) == 1
    assert "no ir_metadata header" in capsys.readouterr().err
    broken = tmp_path / "broken.run"
    broken.write_text("# ir_metadata.start\n# actor: x\n" + LINES)
    assert main(["metadata", "show", str(broken)]) == 2
    assert f"{broken}, line 1: the ir_metadata header opened here is never closed" in capsys.readouterr().err


def test_group_agrees_with_repro_evals_analyzer(tmp_path, capsys):
    from repro_eval.metadata import MetadataAnalyzer

    folder = tmp_path / "runs"
    folder.mkdir()
    reference = _annotated(folder, "ref.run", _fields())
    _annotated(folder, "sweep1.run", _fields(method={"C": 3}))
    _annotated(folder, "sweep2.run", _fields(method={"C": 4}))
    _annotated(folder, "rpl.run", _fields(implementation={"name": "clef2019"}, method={"C": 3}))
    _annotated(folder, "rpd.run", _fields(actor={"name": "other"}, data={"test collection": {"name": "core18"}}))
    for yaml_file in folder.glob("*.yaml"):
        yaml_file.unlink()
    theirs = MetadataAnalyzer(str(reference)).analyze_directory(str(folder))
    capsys.readouterr()
    assert main(["metadata", "group", str(folder), "--reference", str(reference), "--format", "json"]) == 0
    ours = json.loads(capsys.readouterr().out)["groups"]
    assert {row["primad"]: sorted(row["runs"]) for row in ours} == {key: sorted(runs) for key, runs in theirs.items()}
    kinds = {row["primad"]: row["kinds"] for row in ours}
    assert kinds == {"priMad": ["parameter sweep"], "prIMad": ["replicability"], "primAD": ["reproducibility"]}
    assert main(["metadata", "group", str(folder), "--reference", str(reference)]) == 0
    table = capsys.readouterr().out
    assert "priMad (parameter sweep): 2 run(s)" in table and str(folder / "sweep1.run") in table


def test_group_lists_runs_without_a_header_and_needs_a_complete_reference(tmp_path, capsys):
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "bare.run").write_text(LINES)
    reference = _annotated(tmp_path, "ref.run", _fields())
    assert main(["metadata", "group", str(folder), "--reference", str(reference), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"] == [{"primad": "no header", "kinds": [], "runs": [str(folder / "bare.run")]}]
    (folder / "notes.txt").write_text("not a run\n")
    assert main(["metadata", "group", str(folder), "--reference", str(reference), "--glob", "*.run", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["runs"] == [str(folder / "bare.run")]
    partial = _annotated(tmp_path, "partial.run", {"actor": {"name": "a"}})
    assert main(["metadata", "group", str(folder), "--reference", str(partial)]) == 2
    assert "a header without platform, research goal, implementation, method, data" in capsys.readouterr().err
