"""The SIGIR 2020 exercises: the by-hand steps and the swap formula agree with the package's measures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.exercises import sigir2020 as ex
from irrepro.exercises.perturb import swap_at_rank
from irrepro.reproducibility.ranking import kendall_tau_union, rbo

rankings = st.permutations([f"d{i}" for i in range(1, 9)]).flatmap(
    lambda docs: st.tuples(st.just(docs[:5]), st.permutations(docs).map(lambda other: other[:5]))
)


@settings(max_examples=60, deadline=None)
@given(rankings)
def test_the_by_hand_steps_give_the_package_values(pair):
    original, replicated = pair
    _, ktu = ex.ktu_by_hand(original, replicated)
    _, rbo_value = ex.rbo_by_hand(original, replicated)
    assert ktu == pytest.approx(float(kendall_tau_union(list(original), list(replicated), depth=5).iloc[0]))
    assert rbo_value == pytest.approx(float(rbo(list(original), list(replicated), p=0.8, depth=5).iloc[0]))


def test_the_by_hand_tables_show_each_pair_and_each_depth():
    pairs, ktu = ex.ktu_by_hand(ex.ORIGINAL, ex.REPLICATED)
    assert len(pairs) == 10 and set(pairs["pair"]) == {"concordant", "discordant"}
    assert ktu == pytest.approx(((pairs["pair"] == "concordant").sum() - (pairs["pair"] == "discordant").sum()) / 10)
    depths, _ = ex.rbo_by_hand(ex.ORIGINAL, ex.REPLICATED)
    assert list(depths.index) == [1, 2, 3, 4, 5]
    assert (depths["X_d"] <= depths.index).all()
    with pytest.raises(ValueError, match="same length"):
        ex.ktu_by_hand(ex.ORIGINAL, ex.REPLICATED[:4])


def test_the_paper_examples_by_hand():
    # Section 3.1: [d1,d2,d3] vs [d1,d2,d4] -> 1 (here on equal lengths; the paper's second example is 2/3)
    assert ex.ktu_by_hand(["d1", "d2", "d3"], ["d1", "d2", "d4"])[1] == 1.0
    assert ex.ktu_by_hand(["d1", "d2", "d3", "d4"], ["d2", "d5", "d3", "d6"])[1] == pytest.approx(2 / 3)


def _toy_run(n_topics: int = 3, depth: int = 30, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frames = []
    for topic in range(n_topics):
        docs = rng.choice(10 * depth, size=depth, replace=False)
        frames.append(
            pd.DataFrame(
                {
                    "query_id": str(topic + 1),
                    "doc_id": [f"D{doc:05d}" for doc in docs],
                    "score": np.linspace(10, 1, depth),
                    "rank": np.arange(1, depth + 1),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("k", [1, 2, 7, 29])
def test_the_swap_formula_predicts_the_package_per_topic(k):
    run = _toy_run()
    predicted = ex.predicted_after_swap(run, k, depth=30)
    swapped = swap_at_rank(run, k)
    np.testing.assert_allclose(predicted["KTU"], kendall_tau_union(run, swapped, depth=30).loc[predicted.index], atol=1e-12)
    np.testing.assert_allclose(predicted["RBO"], rbo(run, swapped, p=0.8, depth=30).loc[predicted.index], atol=1e-12)


def test_the_swap_solution_is_one_row_per_k_and_drops_rbo_at_the_top_only():
    table = ex.swap_at_rank_k()
    assert list(table.index) == list(ex.SWAP_RANKS) and list(table.columns) == ["KTU", "RBO"]
    assert table.loc[1, "RBO"] == pytest.approx(0.8)  # 1 - (1 - p) at k = 1
    assert table["RBO"].is_monotonic_increasing
    assert (table["KTU"] < 1).all()
