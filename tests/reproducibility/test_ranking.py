"""Ranking measures: paper examples, references, properties, repro_eval, published signatures."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from irrepro.reproducibility.ranking import (
    kendall_tau_intersection,
    kendall_tau_union,
    kendall_tau_union_tied,
    rank_lists,
    ranking_measures,
    rbo,
)
from irrepro.runs import read_run


def one(value) -> float:
    return float(value.iloc[0])


# --------------------------------------------------------------------------- paper and definitions


def test_paper_examples():
    assert one(kendall_tau_union(["d1", "d2", "d3"], ["d1", "d2", "d4"])) == 1.0
    assert one(kendall_tau_union(["d1", "d2", "d3", "d4"], ["d2", "d5", "d3", "d6"])) == pytest.approx(2 / 3)


def test_ktu_depends_on_labels_tied_tau_does_not():
    disjoint = (["a", "b", "c"], ["x", "y", "z"])
    assert one(kendall_tau_union(*disjoint)) == 1.0  # KTU's label artefact
    assert one(kendall_tau_union_tied(*disjoint)) < 0
    renamed = (["a", "b", "c"], ["z", "y", "x"])  # same structure, other labels
    assert one(kendall_tau_union(*renamed)) == -1.0
    assert one(kendall_tau_union_tied(*renamed)) == one(kendall_tau_union_tied(*disjoint))


def _reference_ktu(a, b):
    union = sorted(set(a) | set(b))
    return kendalltau([union.index(d) for d in a], [union.index(d) for d in b]).statistic


def _reference_tied(a, b):
    union = sorted(set(a) | set(b))
    rank_a, rank_b = {d: i for i, d in enumerate(a)}, {d: i for i, d in enumerate(b)}
    return kendalltau([rank_a.get(d, len(a)) for d in union], [rank_b.get(d, len(b)) for d in union]).statistic


def _reference_intersection(a, b):
    common = [d for d in a if d in set(b)]
    if len(common) < 2:
        return math.nan
    return kendalltau([a.index(d) for d in common], [b.index(d) for d in common]).statistic


def _reference_rbo_ext(a, b, p):
    short, long_ = sorted((a, b), key=len)
    s, l = len(short), len(long_)  # noqa: E741 (Webber et al.'s s and l)
    x = [len(set(short[:d]) & set(long_[:d])) for d in range(1, l + 1)]
    first = sum(x[d - 1] / d * p**d for d in range(1, l + 1))
    second = sum(x[s - 1] * (d - s) / (s * d) * p**d for d in range(s + 1, l + 1))
    return (1 - p) / p * (first + second) + ((x[l - 1] - x[s - 1]) / l + x[s - 1] / s) * p**l


def _reference_rbo_min(a, b, p):
    l = max(len(a), len(b))  # noqa: E741 (Webber et al.'s l)
    x = [len(set(a[:d]) & set(b[:d])) for d in range(1, l + 1)]
    return (1 - p) / p * (sum((x[d - 1] - x[l - 1]) * p**d / d for d in range(1, l + 1)) - x[l - 1] * math.log(1 - p))


rankings = st.integers(1, 14).flatmap(
    lambda pool: st.tuples(
        st.lists(st.integers(0, pool + 6), min_size=1, max_size=pool, unique=True),
        st.lists(st.integers(0, pool + 6), min_size=1, max_size=pool, unique=True),
    )
)


@settings(max_examples=150, deadline=None)
@given(rankings, st.floats(0.05, 0.95))
def test_against_direct_definitions(pair, p):
    a, b = ([f"d{i:02d}" for i in ranking] for ranking in pair)
    k = min(len(a), len(b))
    expected_ktu = _reference_ktu(a[:k], b[:k]) if k >= 2 else math.nan
    for got, expected in (
        (one(kendall_tau_union(a, b)), expected_ktu),
        (one(kendall_tau_union_tied(a, b)), _reference_tied(a, b)),
        (one(kendall_tau_intersection(a, b)), _reference_intersection(a, b)),
        (one(rbo(a, b, p=p, depth=20)), _reference_rbo_ext(a, b, p)),
        (one(rbo(a, b, p=p, depth=20, variant="min")), _reference_rbo_min(a, b, p)),
    ):
        assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(rankings, st.floats(0.05, 0.95))
def test_properties(pair, p):
    a, b = ([f"d{i:02d}" for i in ranking] for ranking in pair)
    if len(a) >= 2:
        assert one(kendall_tau_union(a, a)) == 1.0
        assert one(kendall_tau_union_tied(a, a)) == pytest.approx(1.0)
    assert one(rbo(a, a, p=p, depth=50)) == pytest.approx(1.0)  # ext: 1 for identical lists
    for variant in ("ext", "min", "trunc", "sigir2020"):
        value = one(rbo(a, b, p=p, depth=50, variant=variant))
        assert -1e-12 <= value <= 1 + 1e-12 or (variant == "sigir2020" and math.isnan(value))
    for function in (kendall_tau_union, kendall_tau_union_tied, kendall_tau_intersection):
        x, y = one(function(a, b)), one(function(b, a))
        assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y)  # symmetric definitions
    assert one(rbo(a, b, p=p)) == pytest.approx(one(rbo(b, a, p=p)))


def test_rbo_sigir2020_convention_example():
    # one shared document, at rank 4 of both lists, depth 5: the smallest non-zero published value
    assert one(rbo(list("abcde"), list("wxyde"), depth=5, variant="sigir2020")) == pytest.approx(0.8**3 / 4)
    assert one(rbo(list("abcde"), list("wxyde"), depth=4, variant="ext")) == pytest.approx(0.128)


# --------------------------------------------------------------------------- runs, lengths, topics


def _write_run(path: Path, lists: dict[str, list[tuple[str, float]]], tag: str) -> Path:
    with path.open("w") as out:
        for topic, docs in lists.items():
            for rank, (doc, score) in enumerate(sorted(docs, key=lambda d: (-d[1], d[0])), start=1):
                out.write(f"{topic} Q0 {doc} {rank} {score} {tag}\n")
    return path


def _random_lists(rng, topics, depth, *, pool=60, tie_share=0.3):
    lists = {}
    for topic in topics:
        docs = rng.choice([f"DOC-{i:03d}" for i in range(pool)], depth, replace=False)
        scores = np.round(rng.random(depth), 1 if rng.random() < tie_share else 6)  # coarse scores: ties
        lists[topic] = list(zip(docs, scores.tolist(), strict=True))
    return lists


def test_missing_topics_and_unequal_lengths_are_explicit(tmp_path):
    rng = np.random.default_rng(5)
    original = read_run(_write_run(tmp_path / "o", _random_lists(rng, ["301", "302"], 10), "o"))
    replicated = read_run(_write_run(tmp_path / "r", {**_random_lists(rng, ["302"], 7), **_random_lists(rng, ["303"], 10)}, "r"))
    result = kendall_tau_union(original, replicated, depth=10)
    assert list(result.index) == ["301", "302", "303"]
    assert np.isnan(result["301"]) and np.isnan(result["303"]) and np.isfinite(result["302"])
    with pytest.raises(ValueError, match="different lengths"):
        kendall_tau_union(original, replicated, depth=10, unequal_lengths="raise")
    with pytest.raises(ValueError, match="topics missing"):
        kendall_tau_union(original, replicated, depth=10, missing_topics="raise")
    # truncate = the top min(n, n') of both
    o302 = original[original.query_id == "302"].doc_id.tolist()[:7]
    r302 = replicated[replicated.query_id == "302"].doc_id.tolist()
    assert result["302"] == pytest.approx(_reference_ktu(o302, r302))


def test_rank_column_is_validated():
    frame = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "rank": [1, 1]})
    with pytest.raises(ValueError, match="rank column"):
        rank_lists({"r": frame}, depth=5)


def test_batch_equals_pair_by_pair(tmp_path):
    rng = np.random.default_rng(9)
    topics = [str(t) for t in range(301, 306)]
    original = read_run(_write_run(tmp_path / "o", _random_lists(rng, topics, 30), "o"))
    replicated = {f"r{i}": read_run(_write_run(tmp_path / f"r{i}", _random_lists(rng, topics, 30), f"r{i}")) for i in range(4)}
    batch = ranking_measures(original, replicated, depth=25, rbo_p=0.9)
    for name, run in replicated.items():
        pd.testing.assert_series_equal(batch["KTU"][name], kendall_tau_union(original, run, depth=25), check_names=False)
        pd.testing.assert_series_equal(batch["RBO"][name], rbo(original, run, depth=25, p=0.9), check_names=False)


# --------------------------------------------------------------------------- repro_eval


def test_agrees_with_repro_eval(tmp_path):
    """KTU where repro_eval runs (equal lengths, same topics) and RBO against its truncated form."""
    from repro_eval.measure.document_order import KTU, RBO
    from repro_eval.util import load_run

    rng = np.random.default_rng(21)
    topics = [str(t) for t in range(301, 311)]
    for trial in range(3):
        o = _write_run(tmp_path / f"o{trial}", _random_lists(rng, topics, 40), "o")
        r = _write_run(tmp_path / f"r{trial}", _random_lists(rng, topics, 40), "r")
        original, replicated = read_run(o), read_run(r)
        expected_ktu = KTU(load_run(str(o)), load_run(str(r)), per_topic=True)
        got = kendall_tau_union(original, replicated, depth=40)
        for topic in topics:
            assert got[topic] == pytest.approx(expected_ktu[topic], abs=1e-12)
        for p, depth in ((0.8, 10), (0.95, 60)):
            expected_rbo = RBO(load_run(str(o)), load_run(str(r)), p=p, depth=depth, pbar=False, per_topic=True)
            got_rbo = rbo(original, replicated, p=p, depth=depth, variant="trunc")
            for topic in topics:
                assert got_rbo[topic] == pytest.approx(expected_rbo[topic], abs=1e-12)


def test_rbo_agrees_with_repro_eval_on_runs_of_different_depth(tmp_path):
    from repro_eval.measure.document_order import KTU, RBO
    from repro_eval.util import load_run

    rng = np.random.default_rng(4)
    topics = ["301", "302", "303"]
    o = _write_run(tmp_path / "o", _random_lists(rng, topics, 30), "o")
    r = _write_run(tmp_path / "r", _random_lists(rng, topics, 12), "r")
    expected = RBO(load_run(str(o)), load_run(str(r)), p=0.8, depth=40, pbar=False, per_topic=True)
    got = rbo(read_run(o), read_run(r), p=0.8, depth=40, variant="trunc")
    assert got.to_dict() == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError):  # the reference cannot compare lists of different lengths
        KTU(load_run(str(o)), load_run(str(r)), per_topic=True)
    assert np.isfinite(kendall_tau_union(read_run(o), read_run(r), depth=30)).all()


# --------------------------------------------------------------------------- published per-topic files


def _published(name: str) -> np.ndarray:
    """Distinct values of a published per-topic file, both systems (WCrobust04, WCrobust0405)."""
    from irrepro.data import fetch

    files = [fetch(f"sigir2020/measures/rpl_{system}_{name}.csv") for system in ("wcrobust04", "wcrobust0405")]
    values = np.concatenate([pd.read_csv(f, index_col=0).to_numpy().ravel() for f in files])
    return np.unique(np.round(values[~np.isnan(values)], 9))


def _overlap_sequences(depth: int) -> np.ndarray:
    """Every overlap sequence X_1..X_depth two rankings of length depth can have."""
    sequences = [[]]
    for d in range(1, depth + 1):
        grown = []
        for seq in sequences:
            previous = seq[-1] if seq else 0
            for step in (0, 1, 2):
                if previous + step <= d and not (step == 2 and previous > d - 2):
                    grown.append(seq + [previous + step])
        sequences = grown
    return np.array(sequences, dtype=float)


def _attainable(depth: int, p: float, variant: str) -> set[float]:
    x = _overlap_sequences(depth)
    d = np.arange(1, depth + 1, dtype=float)
    if variant == "ext":
        values = x[:, -1] / depth * p**depth + (1 - p) / p * (x / d * p**d).sum(axis=1)
    elif variant == "min":
        values = (1 - p) / p * (((x - x[:, -1:]) * p**d / d).sum(axis=1) - x[:, -1] * math.log(1 - p))
    else:
        values = (x / d * p ** (d - 1)).sum(axis=1) / (p ** (d - 1)).sum()
    return set(np.round(values, 9).tolist())


@pytest.mark.parametrize("k", [5, 10])
def test_published_rbo_is_ext_on_top_k_minus_1(k):
    """Every published RBO value at depth k is RBO_ext on k-1 documents; RBO_ext on k is refuted."""
    published = set(_published(f"rbo_{k}_p08").tolist())
    assert published <= _attainable(k - 1, 0.8, "ext")
    assert len(published - _attainable(k, 0.8, "ext")) > len(published) / 2
    for variant in ("min", "trunc"):
        for depth in (k - 1, k):
            assert len(published - _attainable(depth, 0.8, variant)) > len(published) / 2


def _on_grid(values: np.ndarray, step: float) -> bool:
    return bool(np.allclose(values / step, np.round(values / step), atol=1e-6))


def test_published_ktu_uses_depth_k():
    # n distinct positions: tau = (2C - m) / m with m = n (n - 1) / 2 pairs.
    # n = 5: m = 10, tau on the 0.2 grid (n = 4 would give the 1/3 grid);
    # n = 10: m = 45, 45 tau is an odd integer (n = 9 would give the 1/18 grid).
    values5 = _published("kendalls_tau_5")
    assert _on_grid(values5, 0.2) and not _on_grid(values5, 1 / 3)
    values10 = _published("kendalls_tau_10")
    assert _on_grid(values10, 1 / 45) and np.all(np.round(values10 * 45) % 2 == 1)
    assert not _on_grid(values10, 1 / 18)


@pytest.mark.parametrize("variant", ["ext", "min", "trunc", "sigir2020"])
def test_ranking_measures_matches_single_functions_for_every_rbo_variant(tmp_path, variant):
    rng = np.random.default_rng(13)
    topics = ["301", "302", "303"]
    original = read_run(_write_run(tmp_path / "o", _random_lists(rng, topics, 20), "o"))
    replicated = read_run(_write_run(tmp_path / "r", _random_lists(rng, topics, 15, pool=30), "r"))
    batch = ranking_measures(original, replicated, depth=12, rbo_p=0.7, rbo_variant=variant)
    expected = rbo(original, replicated, depth=12, p=0.7, variant=variant)
    assert batch["RBO"].to_numpy() == pytest.approx(expected.to_numpy(), abs=1e-12)
    tied = kendall_tau_union_tied(original, replicated, depth=12)
    assert batch["tau_b_union_tied"].to_numpy() == pytest.approx(tied.to_numpy(), abs=1e-12)


def test_a_subset_of_measures_gives_the_same_values(tmp_path):
    rng = np.random.default_rng(11)
    topics = [str(t) for t in range(301, 304)]
    original = read_run(_write_run(tmp_path / "o", _random_lists(rng, topics, 20), "o"))
    replicated = read_run(_write_run(tmp_path / "r", _random_lists(rng, topics, 20), "r"))
    everything = ranking_measures(original, replicated, depth=15)
    for subset in (("KTU",), ("RBO",), ("KTU", "RBO"), ("tau_intersection",), ("tau_b_union_tied", "RBO")):
        some = ranking_measures(original, replicated, depth=15, measures=subset)
        assert set(some) == set(subset)
        for name in subset:
            pd.testing.assert_series_equal(some[name], everything[name])
    with pytest.raises(ValueError, match="unknown: NDCG"):
        ranking_measures(original, replicated, depth=15, measures=("KTU", "NDCG"))


def test_bad_arguments_name_the_parameter():
    """depth=2.5 (a TypeError from slicing), p=0 / rbo_p=1.5 (ZeroDivisionError / RBO 1.25), depth 1
    with the sigir2020 variant (an IndexError), a huge depth (OverflowError), a string read letter by letter."""
    docs = ["d1", "d2", "d3"]
    cases = [
        (lambda: kendall_tau_union(docs, docs, depth=2.5), r"depth must be an integer in \[1, 2147483647\]; got 2.5"),
        (lambda: rbo(docs, docs, p=0), r"p must be a number in \(0, 1\); got 0"),
        (lambda: ranking_measures(docs, docs, rbo_p=1.5), r"rbo_p must be a number in \(0, 1\); got 1.5"),
        (lambda: ranking_measures(docs, docs, depth=1, rbo_variant="sigir2020"), "depth must be an integer >= 2"),
        (lambda: rbo(docs, docs, depth=1, variant="sigir2020"), "depth must be an integer >= 2"),
        (lambda: rbo(docs, docs, depth=10**20), "depth must be an integer in"),
        (lambda: rbo("abc", "abd"), "original must be a run frame"),
        (lambda: kendall_tau_union(docs, {}), "replicated must be"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()


# --------------------------------------------------------------------------- one ordering: trec_eval's


def _misranked(frame: pd.DataFrame, rng) -> pd.DataFrame:
    """The same run, its rank column shuffled within each topic and its rows in another order."""
    shuffled = frame.copy()
    shuffled["rank"] = shuffled.groupby("query_id")["rank"].transform(lambda ranks: rng.permutation(ranks.to_numpy()))
    return shuffled.sample(frac=1.0, random_state=1).reset_index(drop=True)


def test_a_frame_is_ranked_by_its_scores_whatever_its_rank_column_says(tmp_path):
    """trec_eval's order (score descending, ties by docno descending) for every ranking measure, as for AP."""
    rng = np.random.default_rng(23)
    topics = [str(t) for t in range(301, 306)]
    original = read_run(_write_run(tmp_path / "o", _random_lists(rng, topics, 30, tie_share=0.5), "o"))
    replicated = read_run(_write_run(tmp_path / "r", _random_lists(rng, topics, 30, tie_share=0.5), "r"))
    misranked = _misranked(replicated, rng)
    assert not (misranked.sort_values(["query_id", "rank"])["doc_id"].to_numpy() == replicated["doc_id"].to_numpy()).all()
    for measure in (kendall_tau_union, kendall_tau_union_tied, kendall_tau_intersection, rbo):
        pd.testing.assert_series_equal(measure(original, misranked, depth=20), measure(original, replicated, depth=20))
        pd.testing.assert_series_equal(measure(misranked, original, depth=20), measure(replicated, original, depth=20))
    batch = ranking_measures(_misranked(original, rng), {"r": misranked}, depth=20)
    for measure, frame in ranking_measures(original, {"r": replicated}, depth=20).items():
        pd.testing.assert_frame_equal(batch[measure], frame)


def test_a_ranking_without_scores_follows_its_rank_column():
    frame = pd.DataFrame({"query_id": "1", "doc_id": ["c", "a", "b"], "rank": [2, 3, 1]})
    assert one(kendall_tau_union(frame, ["b", "c", "a"])) == 1.0


@pytest.mark.parametrize("measure", [kendall_tau_union, kendall_tau_union_tied, kendall_tau_intersection, rbo])
def test_nan_scores_are_refused(measure):
    good = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "rank": [1, 2, 3], "score": [3.0, 2.0, 1.0]})
    bad = good.assign(score=[3.0, float("nan"), 1.0])
    with pytest.raises(ValueError, match=r"replicated must be .*; got a NaN score \(topic 1, document b\)"):
        measure(good, bad)
    with pytest.raises(ValueError, match=r"original must be .*; got a NaN score \(topic 1, document b\)"):
        measure(bad, good)
    with pytest.raises(ValueError, match=r"replicated\['x'\] must be .*; got a NaN score"):
        ranking_measures(good, {"x": bad})
    with pytest.raises(ValueError, match=r"runs\['x'\] must be .*; got a NaN score"):
        rank_lists({"x": bad}, depth=5)
