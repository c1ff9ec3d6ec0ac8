"""The chapter's run files: written with their ir_metadata headers, read back by irrepro metadata and
repro_eval, and grouped by PRIMAD string from the files themselves."""

from __future__ import annotations

import json

from irrepro.cli import main
from irrepro.papers.clef2019.run_files import runs_by_primad, write_run_file
from irrepro.routing.constellations import TRAINING_COLLECTIONS, by_name
from irrepro.routing.experiment import RunRequest
from irrepro.runs import read_run, run_metadata


def _request(system: str, constellation: str = "default") -> RunRequest:
    return RunRequest(TRAINING_COLLECTIONS[system], "core17", by_name(constellation))


def test_a_book_run_round_trips_through_irrepro_metadata_and_repro_eval(tiny, tmp_path, capsys):
    from repro_eval.metadata import MetadataHandler

    path = tmp_path / "wcrobust04_default.run"
    write_run_file(tiny, _request("wcrobust04"), path, tag="wcrobust04_default")
    lines = path.read_text().split("# ir_metadata.end\n")[1]
    assert main(["metadata", "show", str(path), "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown == MetadataHandler.read_metadata(str(path)) == run_metadata(read_run(path)).to_dict()
    assert shown["tag"] == "wcrobust04_default" and shown["data"]["test collection"]["name"] == "core17"
    (tmp_path / "actor.yaml").write_text("actor:\n  name: A. Reader\n")
    assert main(["metadata", "annotate", str(path), "--from", str(tmp_path / "actor.yaml")]) == 0
    assert MetadataHandler.read_metadata(str(path))["actor"] == {"role": "reproducer", "name": "A. Reader"}
    assert path.read_text().split("# ir_metadata.end\n")[1] == lines  # the run lines as they were
    assert read_run(path)["run"].iat[0] == "wcrobust04_default"


def test_runs_by_primad_groups_the_files_by_what_their_headers_say(tiny, tmp_path):
    from repro_eval.metadata import MetadataAnalyzer

    runs = {"wcrobust04_default": _request("wcrobust04"), "wcrobust04_C_3": _request("wcrobust04", "C_3"),
            "wcrobust04_tf_1": _request("wcrobust04", "tf_1"), "wcrobust0405_default": _request("wcrobust0405")}
    for tag, request in runs.items():
        write_run_file(tiny, request, tmp_path / f"{tag}.run", tag=tag)
    reference = tmp_path / "wcrobust04_default.run"
    table = runs_by_primad(tmp_path, reference).set_index("PRIMAD")
    assert table["runs"].to_dict() == {"priMad": 2, "primaD": 1}
    assert table.loc["priMad", "kind"] == "parameter sweep"
    fields = table.loc["priMad", "fields that differ"].split("; ")
    assert {"method → retrieval → logistic regression → C", "method → retrieval → tf-idf → max_features",
            "method → constellation"} <= set(fields)
    assert table.loc["primaD", "fields that differ"].startswith("data → training data")
    theirs = MetadataAnalyzer(str(reference)).analyze_directory(str(tmp_path))
    assert {key: len(value) for key, value in theirs.items()} == table["runs"].to_dict()
