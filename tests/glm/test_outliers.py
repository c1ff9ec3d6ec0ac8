"""Outlier rule (MAP < 0.01) and boundary-constant topics and systems."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.data import DataError, fetch
from irrepro.glm.outliers import boundary_constant, near_zero_systems


def test_rule_selects_exactly_the_eight_feup_runs_on_official_core18():
    try:
        summary = pd.read_csv(fetch("trec_scores/trecbrowser_core18_summary.csv"))
    except DataError:
        pytest.skip("official Core18 summary only on the local mirror")
    outliers = near_zero_systems(summary.set_index("run")["map"])
    assert sorted(outliers) == [f"feup-run{i}" for i in range(1, 9)]


def test_near_zero_systems_and_errors():
    assert near_zero_systems(pd.Series({"a": 0.2, "b": 0.0099, "c": 0.01})) == ["b"]
    with pytest.raises(ValueError, match="missing"):
        near_zero_systems(pd.Series({"a": float("nan")}))


def test_boundary_constant():
    scores = pd.DataFrame({"a": [0.0, 1.0, 0.5], "b": [0.0, 1.0, 0.0], "c": [0.0, 1.0, 0.2]}, index=["t1", "t2", "t3"])
    topics, systems = boundary_constant(scores)
    assert topics == ["t1", "t2"]
    assert systems == []
    assert boundary_constant(scores.iloc[[0]])[1] == ["a", "b", "c"]
