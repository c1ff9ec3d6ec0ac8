"""Cached results are computed once and handed out as copies that share nothing mutable."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.memo import cached, fresh_copy


@dataclass
class Fit:
    effects: pd.Series
    cov: np.ndarray


def test_each_call_gets_a_copy_and_the_function_runs_once():
    calls = []

    @cached(maxsize=8)
    def tables(n: int, *, scale: float = 1.0):
        calls.append((n, scale))
        frame = pd.DataFrame({"x": np.arange(n) * scale})
        return {"frame": frame, "series": frame["x"], "fits": [Fit(frame["x"], np.eye(2))], "pair": (frame, "label")}

    first = tables(3)
    first["frame"].loc[0, "x"] = 99
    first["series"].iloc[1] = 99
    first["fits"][0].effects.iloc[2] = 99
    first["fits"][0].cov[0, 0] = 99
    first["pair"][0]["y"] = 1
    first["extra"] = 1
    again = tables(3, scale=1.0)  # the default given explicitly: the same cache entry
    assert calls == [(3, 1.0)]
    pd.testing.assert_frame_equal(again["frame"], pd.DataFrame({"x": [0.0, 1.0, 2.0]}))
    assert list(again["series"]) == [0.0, 1.0, 2.0]
    assert list(again["fits"][0].effects) == [0.0, 1.0, 2.0]
    assert again["fits"][0].cov[0, 0] == 1.0
    assert list(again["pair"][0].columns) == ["x"] and "extra" not in again
    tables.cache_clear()
    tables(3)
    assert calls == [(3, 1.0), (3, 1.0)]


def test_fresh_copy_keeps_immutable_values_and_types():
    assert fresh_copy("text") == "text" and fresh_copy(3) == 3 and fresh_copy(None) is None
    index = pd.Index(["a", "b"])
    assert fresh_copy(index).equals(index)
    frame = pd.DataFrame({"a": [1]})
    copied = fresh_copy({"k": frame})
    assert copied["k"] is not frame and copied["k"].equals(frame)
