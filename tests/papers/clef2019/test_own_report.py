"""The book's example report: the own constellation runs written as TREC files and reported by the CLI."""

from __future__ import annotations

import csv
import sys
import zlib
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from irrepro.papers.clef2019 import own_report
from irrepro.routing.constellations import PRINTED
from irrepro.runs import read_qrels, read_run

TOPICS = [f"t{i}" for i in range(6)]
DOCS = [f"d{i:02d}" for i in range(30)]


def _run(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(topic, doc, float(score)) for topic in TOPICS for doc, score in zip(DOCS, rng.random(len(DOCS)), strict=True)]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    frame["rank"] = frame.groupby("query_id")["score"].rank(ascending=False, method="first").astype(int)
    return frame.assign(run="x")


class _Data:
    """What write_inputs needs of RoutingData: the near target's qrels and the runs of run requests
    (with what a run's header reads: its topics, the collections it was made from)."""

    def __init__(self):
        rng = np.random.default_rng(0)
        qrels = [(topic, "0", doc, int(rng.random() < 0.3)) for topic in TOPICS for doc in DOCS]
        self.collections = {"core17": SimpleNamespace(qrels=pd.DataFrame(qrels, columns=["query_id", "iteration", "doc_id", "relevance"]))}
        self.asked = []

    def system_run(self, system, target, *, constellation=None):
        from irrepro.routing.constellations import DEFAULT, TRAINING_COLLECTIONS
        from irrepro.routing.experiment import RunRequest

        return self.result(RunRequest(TRAINING_COLLECTIONS[system], target, constellation or DEFAULT))

    def result(self, request):
        system = {1: "wcrobust04", 2: "wcrobust0405"}[len(request.training)]
        self.asked.append((system, request.target, request.constellation.name))
        seed = zlib.crc32(f"{system} {request.constellation.name}".encode())
        inputs = {"training": [{"name": name} for name in request.training], "target": {"name": request.target}}
        return SimpleNamespace(run=_run(seed), topics=TOPICS, inputs=inputs, platform={"hardware": {"ram": "1 GB"}})


@pytest.fixture
def two_constellations(monkeypatch):
    monkeypatch.setattr(own_report, "PRINTED", PRINTED[:2])
    return PRINTED[:2]


def test_inputs_are_the_runs_of_the_data_as_trec_files(tmp_path, two_constellations):
    data = _Data()
    paths = own_report.write_inputs(data, tmp_path)
    qrels = read_qrels(paths["qrels"])
    assert len(qrels) == len(TOPICS) * len(DOCS)
    with open(paths["pairs"], newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["name"] for row in rows] == [c.name for c in two_constellations]
    for row in rows:
        for column, system in (("baseline", "wcrobust04"), ("advanced", "wcrobust0405")):
            written = read_run(tmp_path / row[column])
            expected = data.system_run(system, "core17", constellation=next(c for c in two_constellations if c.name == row["name"])).run
            assert written.set_index(["query_id", "doc_id"])["score"].sort_index().to_numpy() == pytest.approx(
                expected.set_index(["query_id", "doc_id"])["score"].sort_index().to_numpy())
    assert {target for _, target, _ in data.asked} == {"core17"}


def test_the_report_is_made_by_the_command_and_names_every_pair(tmp_path, two_constellations):
    report = own_report.write_report(_Data(), tmp_path / "report")
    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") or "<html" in html[:500]
    for constellation in two_constellations:
        assert constellation.name in html
    assert "irrepro report --qrels" in html and "pairs.csv" in html


def test_the_command_says_nothing_on_standard_error_and_a_failure_is_raised(tmp_path, two_constellations, capsys, monkeypatch):
    own_report.write_report(_Data(), tmp_path / "report")
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(own_report, "MEASURES", "AP,NOPE")  # the command refuses an unknown measure
    with pytest.raises(RuntimeError, match="status 2 .*NOPE"):
        own_report.write_report(_Data(), tmp_path / "again")


def test_the_report_is_made_in_another_process_while_the_caller_goes_on(tmp_path, two_constellations):
    """start_report returns at once with the command running; wait() gives the report it wrote."""
    job = own_report.start_report(_Data(), tmp_path / "report")
    assert job.process.args[:4] == [sys.executable, "-m", "irrepro", "report"]
    assert job.wait() == tmp_path / "report" / "report.html" and job.process.returncode == 0
    assert "pairs.csv" in job.path.read_text(encoding="utf-8")


def test_the_runs_carry_headers_and_the_constellations_are_a_parameter_sweep(tmp_path, two_constellations):
    from irrepro.papers.clef2019 import run_files
    from irrepro.runs import run_metadata

    own_report.write_inputs(_Data(), tmp_path)
    header = run_metadata(read_run(tmp_path / "wcrobust04_default.run"))
    assert header.tag == "wcrobust04_default" and header["method"]["constellation"] == "default"
    table = run_files.runs_by_primad(tmp_path, tmp_path / "wcrobust04_default.run").set_index("PRIMAD")
    assert table.loc["priMad", "runs"] == 2 and table.loc["priMad", "kind"] == "parameter sweep"
    assert "method \u2192 constellation" in table.loc["priMad", "fields that differ"]
    assert table["runs"].sum() == 1 + 2 * len(two_constellations)  # every run but the reference
