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


def test_drop_a_topic_agrees_with_numpy_on_the_raw_files():
    from tests.papers.sigir2020.conftest import raw

    a = raw("sigir2020/measures_rpd/org_wcrobust0405_ap.csv").iloc[:, 0].to_numpy()
    b = raw("sigir2020/measures_rpd/org_wcrobust04_ap.csv").iloc[:, 0].to_numpy()
    a2 = raw("sigir2020/measures_rpd/rpd_wcrobust0405_ap.csv")["rpd_wcrobust0405_45"]
    b2 = raw("sigir2020/measures_rpd/rpd_wcrobust04_ap.csv")["rpd_wcrobust04_45"]
    topic = (a2 - b2).idxmax()
    answer = ex.drop_a_topic()
    assert answer["topic"] == str(topic)
    for label, keep in (("all", a2.index), ("without", a2.index.drop(topic))):
        er = np.mean(a2[keep] - b2[keep]) / np.mean(a - b)
        delta = (a.mean() - b.mean()) / b.mean() - (a2[keep].mean() - b2[keep].mean()) / b2[keep].mean()
        assert answer[f"ER {label}"] == pytest.approx(er, rel=1e-12)
        assert answer[f"DeltaRI {label}"] == pytest.approx(delta, rel=1e-12)
    assert answer["ER without"] < answer["ER all"]  # the topic that helps most carries part of the effect


def test_ties_in_a_toy_run_are_measured_as_the_package_measures_them():
    from irrepro.exercises.perturb import tie_at_rank

    run = _toy_run()
    tied = tie_at_rank(run, 1, width=ex.TIE_WIDTH)
    ktu = kendall_tau_union(run, tied, depth=30)
    assert (ktu <= 1).all() and (rbo(run, tied, p=0.8, depth=30) <= 1).all()


def test_best_constellation_reads_the_tables_by_their_rules():
    from irrepro.papers import sigir2020

    answer = ex.best_constellation()
    table = sigir2020.replicability_table("WCrobust04").iloc[1:]
    assert f"rpl_wcr04_{answer['ranked lists']}" == table["RBO"].idxmax()
    assert f"rpl_wcr04_{answer['per-topic scores']}" == table["RMSE:AP"].idxmin()
    assert f"rpl_wcr04_{answer['averages']}" == table["p:AP"].idxmax()
    er = sigir2020.effect_ratio_table("rpl", intervals=False)["ER:AP"]
    assert f"rpl_{answer['effect']}" == (er - 1).abs().idxmin()


def test_the_swap_is_measured_once_for_the_solution_and_its_explanation(monkeypatch):
    from irrepro import runs
    from tests.papers.conftest import assert_made_once

    assert_made_once(monkeypatch, ex.swap_at_rank_k, runs, "read_run")
