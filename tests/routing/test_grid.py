"""``irrepro routing grid`` (irrepro.routing.grid) on a local Dask cluster of two workers.

Small grids only (a few stand-in runs): the same files as ``irrepro routing run``, resumable, and
complete with identical files when a worker process is killed half-way.
"""

from __future__ import annotations

import json
import os
import signal

import pytest

from irrepro.cli import main
from irrepro.outputs import sha256_of
from irrepro.routing.constellations import by_name
from irrepro.routing.experiment import StandInCorpora, local_cluster
from irrepro.routing.grid import GRID_MANIFEST, plan, read_grid_manifest, run_grid

SMALL = [by_name(name) for name in ("default", "C_3", "tf_1")]


@pytest.fixture(scope="module")
def client():
    with local_cluster(workers=2, memory_limit="1GiB") as client:
        yield client


@pytest.fixture(scope="module")
def reference(tmp_path_factory, client):
    """The small grid (wcrobust04 and wcrobust0405 on the near target) made once on the cluster."""
    out = tmp_path_factory.mktemp("grid")
    runs = plan(["wcrobust04", "wcrobust0405"], ["reuters-near"], SMALL)
    report = run_grid(StandInCorpora(), runs, out, client=client, corpora_label="stand-in", progress=False)
    return out, runs, report


def test_grid_files_are_byte_identical_to_irrepro_routing_run(reference, tmp_path):
    out, runs, report = reference
    assert report.made == 6 and report.skipped == 0
    assert report.feature_sets == 4  # default and C_3 share theirs, per system
    for run in runs[:2] + runs[-1:]:  # default and C_3 of wcrobust04, tf_1 of wcrobust0405
        single = tmp_path / "single.run"
        argv = ["routing", "run", "--system", run.system, "--target", "reuters-near",
                "--preset", run.request.constellation.name, "--quiet", "--out", str(single)]
        assert main(argv) == 0
        assert single.read_bytes() == (out / run.name).read_bytes(), run.name


def test_the_manifest_records_every_run_with_its_sha256(reference):
    out, runs, _ = reference
    entries = read_grid_manifest(out)
    assert sorted(entries) == sorted(run.name for run in runs)
    for run in runs:
        entry = entries[run.name]
        assert entry["sha256"] == sha256_of(out / run.name)
        assert entry["request"]["constellation"] == run.request.constellation.name
        assert entry["parameters"]["C"] == run.request.constellation.C


def test_a_second_call_skips_finished_runs_and_remakes_a_damaged_one(reference, client):
    out, runs, _ = reference
    before = {run.name: (out / run.name).read_bytes() for run in runs}
    again = run_grid(StandInCorpora(), runs, out, client=client, corpora_label="stand-in", progress=False)
    assert (again.made, again.skipped) == (0, 6)
    damaged = out / runs[1].name
    damaged.write_bytes(before[runs[1].name][:100])
    repaired = run_grid(StandInCorpora(), runs, out, client=client, corpora_label="stand-in", progress=False)
    assert (repaired.made, repaired.skipped) == (1, 5)
    assert damaged.read_bytes() == before[runs[1].name]
    other = run_grid(StandInCorpora(), runs[:1], out, client=client, corpora_label="other corpora", progress=False)
    assert other.made == 1  # recorded for other corpora: made again


def test_a_killed_worker_costs_its_tasks_only(reference, client, tmp_path):
    out, runs, _ = reference
    killed = []

    def kill_one_worker(made):
        if not killed:
            pid = next(iter(client.run(os.getpid).values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    report = run_grid(StandInCorpora(), runs, tmp_path, client=client, corpora_label="stand-in", progress=False,
                      on_run=kill_one_worker)
    assert killed and report.made == 6
    for run in runs:
        assert (tmp_path / run.name).read_bytes() == (out / run.name).read_bytes(), run.name
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it


def test_the_command_runs_a_grid_and_says_what_it_did(tmp_path, capsys):
    argv = ["routing", "grid", "--systems", "wcrobust04", "--targets", "reuters-far", "--constellations", "C_4",
            "--workers", "2", "--memory-limit", "1GiB", "--quiet", "--out", str(tmp_path)]
    assert main(argv) == 0
    said = capsys.readouterr()
    assert "1 runs made, 0 finished before" in said.out and "2 workers" in said.out
    assert said.err == ""
    manifest = json.loads((tmp_path / GRID_MANIFEST).read_text())
    assert [entry["name"] for entry in manifest["runs"]] == ["reuters-far/wcrobust04_C_4.run"]


# --------------------------------------------------------------------------- two grids, one folder

# A grid run in its own process on tiny corpora (no cluster: seconds, not minutes). The first
# process pauses after its first run until the second has started, so the two really overlap.
_GRID_PROCESS = '''
import json, sys, time
from pathlib import Path
import pandas as pd
from irrepro.routing.constellations import by_name
from irrepro.routing.corpora import Document
from irrepro.routing.grid import plan, run_grid
from irrepro.routing.pipeline import Collection

out, sync, role, names = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4].split(",")
def collection(name, docs, qrels):
    frame = pd.DataFrame(qrels, columns=["query_id", "iteration", "doc_id", "relevance"])
    return Collection(name, [Document(doc_id, text) for doc_id, text in docs.items()], frame)
corpora = {
    "robust04": collection("robust04", TRAINING, [("1", 0, "R1", 1), ("1", 0, "R2", 1), ("1", 0, "R3", 0), ("1", 0, "R4", 0)]),
    "mytarget": collection("mytarget", TARGET, [("1", 0, "N1", 1), ("1", 0, "N2", 0)]),
}
made = []
def on_run(done):
    made.append(done.request.tag)
    if role == "first" and len(made) == 1:
        (sync / "first-midway").touch()
        deadline = time.monotonic() + 60
        while not (sync / "second-started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # the second process plans its grid now (or waits for the lock)
if role == "second":
    (sync / "second-started").touch()
runs = plan(["wcrobust04"], ["mytarget"], [by_name(name) for name in names])
run_grid(corpora, runs, out, corpora_label="tiny", progress=False, on_run=on_run)
print(json.dumps(made))
'''


def _start_grid(tmp_path, role, constellations):
    import subprocess
    import sys

    from tests.commands.test_routing import TARGET_DOCS, TRAINING_DOCS

    script = f"TRAINING = {TRAINING_DOCS!r}\nTARGET = {TARGET_DOCS!r}\n" + _GRID_PROCESS
    argv = [sys.executable, "-c", script, str(tmp_path / "out"), str(tmp_path), role, constellations]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_grids_into_one_folder_make_each_run_once_and_keep_every_entry(tmp_path):
    import time

    first = _start_grid(tmp_path, "first", "default,C_3")
    deadline = time.monotonic() + 120
    while not (tmp_path / "first-midway").exists():
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.05)
    second = _start_grid(tmp_path, "second", "C_3,C_4")
    (first_out, first_err), (second_out, second_err) = first.communicate(timeout=300), second.communicate(timeout=300)
    assert first.returncode == 0 and second.returncode == 0, first_err + second_err
    made = json.loads(first_out) + json.loads(second_out)
    assert sorted(made) == ["wcrobust04_C_3", "wcrobust04_C_4", "wcrobust04_default"]  # each run once
    entries = read_grid_manifest(tmp_path / "out")
    assert sorted(entries) == [f"mytarget/wcrobust04_{name}.run" for name in ("C_3", "C_4", "default")]
    assert all(entry["sha256"] == sha256_of(tmp_path / "out" / name) for name, entry in entries.items())
    assert "waiting for another grid writing into" in second_err  # the second one said why it waited


# --------------------------------------------------------------------------- workers too small


def test_a_memory_limit_too_small_for_a_worker_is_one_clear_error(tmp_path):
    """At 64MiB a worker is restarted over its limit before it runs anything (Dask would go on
    restarting it for ever); the grid stops and names the setting, exit 2."""
    import subprocess
    import sys

    from tests.commands.test_routing import _setup

    config = _setup(tmp_path)
    argv = [sys.executable, "-m", "irrepro", "routing", "grid", "--systems", "wcrobust04", "--targets", "mytarget",
            "--constellations", "C_4", "--config", str(config), "--workers", "1", "--memory-limit", "64MiB", "--quiet",
            "--out", str(tmp_path / "out")]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 2, done.stderr
    error = done.stderr.strip()
    assert error.startswith("irrepro routing: error: the Dask workers were restarted") and len(error.splitlines()) == 1
    assert "for going over their memory limit" in error and "now --memory-limit 64MiB with --workers 1" in error
    assert "internal error" not in error and "KilledWorker" not in error


# --------------------------------------------------------------------------- ir_metadata headers


def _tiny_corpora():
    import pandas as pd

    from irrepro.routing.corpora import Document
    from irrepro.routing.pipeline import Collection
    from tests.commands.test_routing import TARGET_DOCS, TRAINING_DOCS

    def collection(name, docs, qrels):
        frame = pd.DataFrame(qrels, columns=["query_id", "iteration", "doc_id", "relevance"])
        return Collection(name, [Document(doc_id, text) for doc_id, text in docs.items()], frame)

    return {
        "robust04": collection("robust04", TRAINING_DOCS, [("1", 0, "R1", 1), ("1", 0, "R2", 1), ("1", 0, "R3", 0)]),
        "mytarget": collection("mytarget", TARGET_DOCS, [("1", 0, "N1", 1), ("1", 0, "N2", 0)]),
    }


def test_grid_runs_carry_headers_and_other_header_fields_make_them_again(tmp_path):
    from repro_eval.metadata import MetadataAnalyzer, MetadataHandler

    from irrepro.runs import read_run, run_metadata

    corpora, out = _tiny_corpora(), tmp_path / "grid"
    runs = plan(["wcrobust04"], ["mytarget"], [by_name(name) for name in ("default", "C_3")])
    assert run_grid(corpora, runs, out, corpora_label="tiny", progress=False).made == 2
    files = [out / run.name for run in runs]
    headers = [run_metadata(read_run(path)) for path in files]
    assert [MetadataHandler.read_metadata(str(path)) for path in files] == [h.to_dict() for h in headers]
    assert headers[0]["platform"]["software"]["libraries"]["python"][0].startswith("python==")
    assert dict(MetadataAnalyzer(str(files[0])).analyze_directory(str(out / "mytarget"))) == {"priMad": [str(files[1])]}
    before = files[0].read_bytes()
    assert run_grid(corpora, runs, out, corpora_label="tiny", progress=False).made == 0
    given = {"actor": {"name": "A. Person"}}
    assert run_grid(corpora, runs, out, corpora_label="tiny", progress=False, given=given).made == 2
    assert run_metadata(read_run(files[0]))["actor"]["name"] == "A. Person"
    assert files[0].read_bytes().split(b"# ir_metadata.end\n")[1] == before.split(b"# ir_metadata.end\n")[1]
    assert run_grid(corpora, runs, out, corpora_label="tiny", progress=False, headers=False).made == 2
    assert not files[0].read_text().startswith("#")
    assert read_grid_manifest(out)[runs[0].name]["request"]["header"] == "none"


def _distributed_log_level() -> int:
    import logging

    return logging.getLogger("distributed").getEffectiveLevel()


def test_a_local_clusters_workers_log_nothing_below_critical_from_their_start():
    """A worker configures its logging when it imports distributed, before the cluster's silence_logs
    reaches it; a worker restarted over its memory limit printed an INFO line beside the one error."""
    import logging

    from irrepro.routing.experiment import local_cluster

    with local_cluster(workers=1) as client:
        levels = client.run(_distributed_log_level)
    assert set(levels.values()) == {logging.CRITICAL}
