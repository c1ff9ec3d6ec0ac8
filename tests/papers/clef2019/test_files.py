"""The cheap CSV files of the CLEF chapter, written without any routing run."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.outputs import verify_table_set, write_table_set
from irrepro.papers import routing
from irrepro.papers.clef2019 import files


def test_published_tables_need_no_run(tmp_path, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the published tables must not make a routing run")

    monkeypatch.setattr(routing, "_make_run", forbidden)
    monkeypatch.setattr(routing, "stand_in", forbidden)
    tables = files.published_tables()
    assert {"published_runs_15_topics", "published_runs_summary", "claims", "fidelity"} <= set(tables)
    write_table_set(tmp_path, {f"{name}.csv": frame for name, frame in tables.items()}, producer="test")
    names = {path.name for path in verify_table_set(tmp_path)}
    assert {"published_runs_15_topics.csv", "published_runs_summary.csv"} <= names
    back = pd.read_csv(tmp_path / "published_runs_15_topics.csv", dtype={"topic": str})
    assert list(back.columns) == ["setting", "topic", "WCrobust04", "WCrobust0405"]
    assert back["WCrobust04"].to_numpy() == pytest.approx(tables["published_runs_15_topics"]["WCrobust04"].to_numpy())
