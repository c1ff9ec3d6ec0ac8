"""The CSV files of the CLEF chapter: every table and its runs, and the cheap ones written without any routing run."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.outputs import verify_table_set, write_table_set
from irrepro.papers.clef2019 import files, routing_data, run_requests
from irrepro.routing.constellations import PRINTED
from irrepro.routing.experiment import RunCache


def test_published_tables_need_no_run(tmp_path, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the published tables must not make a routing run")

    monkeypatch.setattr(RunCache, "prefetch", forbidden)
    monkeypatch.setattr(routing_data, "stand_in", forbidden)
    tables = files.published_tables()
    assert {"published_runs_15_topics", "published_runs_summary", "claims", "fidelity"} <= set(tables)
    write_table_set(tmp_path, {f"{name}.csv": frame for name, frame in tables.items()}, producer="test")
    names = {path.name for path in verify_table_set(tmp_path)}
    assert {"published_runs_15_topics.csv", "published_runs_summary.csv"} <= names
    back = pd.read_csv(tmp_path / "published_runs_15_topics.csv", dtype={"topic": str})
    assert list(back.columns) == ["setting", "topic", "WCrobust04", "WCrobust0405"]
    assert back["WCrobust04"].to_numpy() == pytest.approx(tables["published_runs_15_topics"]["WCrobust04"].to_numpy())


def test_reproduce_clef2019_writes_the_published_files(tmp_path, monkeypatch):
    """``irrepro reproduce clef2019`` (files.write_tables) adds the cheap files to its one table set;
    the slow tables are replaced by a stub here, so no run is made."""

    class NoRuns:
        label = "no corpora (test)"

        def results(self, requests):
            return []

    stub = pd.DataFrame({"x": [1]})
    for name in ("relevance_transfer", "feature_augmentation", "replication", "per_topic_ap", "own_dataset_measures",
                 "tolerance_check"):  # fmt: skip
        monkeypatch.setattr(files, name, lambda data, stub=stub, **options: stub)
    written = {path.name for path in files.write_tables(tmp_path, data=NoRuns())}
    assert {"published_runs_15_topics.csv", "published_runs_summary.csv", "claims.csv", "fidelity.csv"} <= written
    assert "implementation_effects.csv" not in written  # stand-in runs only with the stand-in
    assert {path.name for path in verify_table_set(tmp_path)} >= written - {"MANIFEST.json"}


def test_write_tables_writes_csv_files_and_runs(tmp_path, tiny):
    written = files.write_tables(tmp_path, data=tiny)
    names = {p.name for p in written}
    for name in ("topic_sets", "relevance_transfer", "feature_augmentation", "replication", "per_topic_ap",
                 "own_dataset_measures"):
        assert f"{name}.csv" in names
    assert all(p.is_file() for p in written)
    assert pd.read_csv(tmp_path / "topic_sets.csv")["intersection"].iloc[0] == 50
    runs = list((tmp_path / "runs").glob("*.run"))
    assert len(runs) == len(run_requests.table_requests())
    # what is written does not depend on what the data made before: a run outside the tables is not written
    tiny.run(("robust05",), "core17", constellation=PRINTED[0], augment=True)
    again_written = files.write_tables(tmp_path / "again", data=tiny)
    assert sorted(p.name for p in again_written) == sorted(p.name for p in written)
    from irrepro.runs import read_run

    again = read_run(runs[0])
    assert set(again["query_id"]) <= {"oil", "gold", "corn"}
