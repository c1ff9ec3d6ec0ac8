"""Run perturbations change what they say and nothing else."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.exercises.perturb import drop_topics, swap_at_rank, tie_at_rank


@pytest.fixture
def run() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "query_id": ["1", "1", "1", "2", "2"],
            "doc_id": ["a", "b", "c", "x", "y"],
            "score": [3.0, 2.0, 1.0, 2.0, 1.0],
            "rank": [1, 2, 3, 1, 2],
        }
    )


def test_swap_exchanges_ranks_k_and_k_plus_1_where_both_exist(run):
    before = run.copy()
    swapped = swap_at_rank(run, 2)
    assert list(swapped["doc_id"]) == ["a", "c", "b", "x", "y"]  # topic 2 has no rank 3
    assert list(swapped["score"]) == list(run["score"]) and list(swapped["rank"]) == list(run["rank"])
    pd.testing.assert_frame_equal(run, before)
    assert list(swap_at_rank(run, 1)["doc_id"]) == ["b", "a", "c", "y", "x"]


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_swap_rejects_a_rank_that_is_not_a_positive_integer(run, k):
    with pytest.raises(ValueError, match="positive integer"):
        swap_at_rank(run, k)


def test_drop_topics(run):
    assert set(drop_topics(run, ["2"])["query_id"]) == {"1"}
    with pytest.raises(ValueError, match=r"no topic\(s\) \['9'\]"):
        drop_topics(run, ["9"])


def test_tie_reorders_the_tied_block_as_trec_eval_does(run):
    tied = tie_at_rank(run, 1, width=3)
    topic1 = tied[tied["query_id"] == "1"]
    assert list(topic1["doc_id"]) == ["c", "b", "a"]  # ties by docno descending
    assert set(topic1["score"]) == {3.0} and list(topic1["rank"]) == [1, 2, 3]
    with pytest.raises(ValueError, match="width must be at least 2"):
        tie_at_rank(run, 1, width=1)
