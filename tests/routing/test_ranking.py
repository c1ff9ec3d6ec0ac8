"""Top-k selection chunk by chunk equals a full sort of all scores."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.routing.ranking import TopK


def _brute_force(scores: np.ndarray, doc_ids: list[str], topics: list[str], k: int) -> list[tuple]:
    rows = []
    for column, topic in enumerate(topics):
        order = sorted(range(len(doc_ids)), key=lambda i: (-scores[i, column], i))[:k]
        rows += [(topic, doc_ids[i], float(scores[i, column]), rank) for rank, i in enumerate(order, 1)]
    return rows


@settings(max_examples=150, deadline=None)
@given(
    n_documents=st.integers(1, 60),
    n_topics=st.integers(1, 4),
    k=st.integers(1, 25),
    chunk=st.integers(1, 17),
    seed=st.integers(0, 2**32 - 1),
    levels=st.sampled_from([3, 1000]),  # 3 levels: many ties
)
def test_top_k_over_chunks_equals_a_full_sort(n_documents, n_topics, k, chunk, seed, levels):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, levels, size=(n_documents, n_topics)) / levels
    doc_ids = [f"d{i}" for i in range(n_documents)]
    topics = [f"t{j}" for j in range(n_topics)]
    top = TopK(topics, k=k)
    for start in range(0, n_documents, chunk):
        top.update(scores[start : start + chunk], doc_ids[start : start + chunk])
    frame = top.frame(run="x")
    got = list(zip(frame["query_id"], frame["doc_id"], frame["score"].tolist(), frame["rank"].tolist(), strict=True))
    assert got == _brute_force(scores, doc_ids, topics, k)
    assert set(frame["run"]) <= {"x"}


def test_shape_mismatch_and_bad_k_raise():
    with pytest.raises(ValueError, match="k must be"):
        TopK(["t"], k=0)
    with pytest.raises(ValueError, match="shape"):
        TopK(["t"], k=1).update(np.zeros((2, 2)), ["a", "b"])


@pytest.mark.parametrize("ties", ["first", "last"])
def test_the_categorical_frame_is_the_frame_with_its_ids_as_categories(ties):
    """categorical=True gives frame().astype(category) exactly: categories, their order and dtype, codes."""
    rng = np.random.default_rng(5)
    top = TopK(["t2", "t10", "t1"], k=7, ties=ties)
    for start in range(0, 30, 8):
        doc_ids = [f"d{(start + i) * 7 % 30}" for i in range(8)]
        top.update(rng.integers(0, 4, size=(8, 3)).astype(float), doc_ids)  # many ties
    expected = top.frame(run="r").astype({"query_id": "category", "doc_id": "category", "run": "category"})
    pd.testing.assert_frame_equal(top.frame(run="r", categorical=True), expected)
    empty = TopK([], k=3)
    pd.testing.assert_frame_equal(empty.frame(run="r", categorical=True),
                                  empty.frame(run="r").astype(dict.fromkeys(("query_id", "doc_id", "run"), "category")))
