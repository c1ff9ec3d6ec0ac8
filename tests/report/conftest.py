"""Fixtures of the report's tests: tiny TREC files (see :mod:`tests.report.files`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.report.files import (
    NEW_TOPICS,
    TOPICS,
    _grades,
    _shared,
    write_qrels,
    write_run,
)


@pytest.fixture(scope="session")
def files(tmp_path_factory) -> dict[str, Path]:
    """Original pair, the pairs ``good`` and ``bad`` (same collection) and a reproduction on new topics."""
    folder = tmp_path_factory.mktemp("report-files")
    rng = np.random.default_rng(2020)
    grades, new_grades = _grades(rng, TOPICS), _grades(rng, NEW_TOPICS)
    shared, new_shared = _shared(rng, TOPICS), _shared(rng, NEW_TOPICS)
    paths = {"qrels": write_qrels(folder / "qrels.txt", grades), "new_qrels": write_qrels(folder / "new_qrels.txt", new_grades)}
    for name, weight in (("orig_baseline", 0.2), ("orig_advanced", 0.6), ("new_baseline", 0.2), ("new_advanced", 0.6), ("bad_advanced", 0.0)):
        paths[name] = write_run(folder / f"{name}.run", grades, shared, rng, weight=weight)
    for name, weight in (("rpd_baseline", 0.2), ("rpd_advanced", 0.6)):
        paths[name] = write_run(folder / f"{name}.run", new_grades, new_shared, rng, weight=weight)
    paths["pairs"] = folder / "pairs.csv"
    paths["pairs"].write_text("name,baseline,advanced\ngood,new_baseline.run,new_advanced.run\nbad,new_baseline.run,bad_advanced.run\n")
    return paths


@pytest.fixture(scope="session")
def awkward(tmp_path_factory) -> dict[str, Path]:
    """Missing topics, unequal depths, ties and a judged topic without a relevant document."""
    folder = tmp_path_factory.mktemp("report-awkward")
    rng = np.random.default_rng(7)
    grades = _grades(rng, TOPICS)
    shared = _shared(rng, TOPICS)
    no_relevant = "".join(f"399 0 DOC-{doc:03d} 0\n" for doc in range(10))
    paths = {"qrels": write_qrels(folder / "qrels.txt", grades, extra=no_relevant)}
    paths["orig_baseline"] = write_run(folder / "ob.run", grades, shared, rng, weight=0.2)
    paths["orig_advanced"] = write_run(folder / "oa.run", grades, shared, rng, weight=0.6)
    paths["new_baseline"] = write_run(folder / "nb.run", grades, shared, rng, weight=0.2, depth=50, skip=("302", "303"))
    paths["new_advanced"] = write_run(folder / "na.run", grades, shared, rng, weight=0.6, depth=50)
    return paths
