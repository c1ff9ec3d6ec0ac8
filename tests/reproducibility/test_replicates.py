"""A comparison on shared topic resamples: compare_runs' numbers on the identity resample, and on every
resample the statistics of the package computed on the drawn topics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.reproducibility import scores
from irrepro.reproducibility.compare import ROLES, compare_runs
from irrepro.reproducibility.replicates import TopicDraws, comparison_replicates, draw_topics
from irrepro.reproducibility.resampling import identity_weights, topic_resamples, topic_weights
from irrepro.runs import read_qrels, read_run
from tests.report.files import NEW_TOPICS, TOPICS, _grades, _shared, write_qrels, write_run


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replicates")
    rng = np.random.default_rng(11)
    grades, new_grades = _grades(rng, TOPICS), _grades(rng, NEW_TOPICS)
    shared, new_shared = _shared(rng, TOPICS), _shared(rng, NEW_TOPICS)
    paths = {"qrels": write_qrels(folder / "qrels", grades), "new_qrels": write_qrels(folder / "new_qrels", new_grades)}
    for role, weight in zip(ROLES, (0.2, 0.6, 0.25, 0.5), strict=True):
        paths[role] = write_run(folder / role, grades, shared, rng, weight=weight)
        paths[f"rpd_{role}"] = write_run(folder / f"rpd_{role}", new_grades, new_shared, rng, weight=weight)
    return paths


def _comparison(files, *, reproducibility=False, missing_topics="zero"):
    runs = {role: read_run(files[f"rpd_{role}" if reproducibility and role.startswith("new") else role]) for role in ROLES}
    runs["new_baseline"] = runs["new_baseline"][~runs["new_baseline"]["query_id"].isin(["303", "404"])]  # a run lacks a topic
    new_qrels = read_qrels(files["new_qrels"]) if reproducibility else None
    return compare_runs(**runs, qrels=read_qrels(files["qrels"]), new_qrels=new_qrels, missing_topics=missing_topics)


def _draws_of(comparison, weights_of) -> TopicDraws:
    t = comparison.per_topic["AP"]
    if comparison.setting == "replicability":
        topics = tuple(t.index)
        return TopicDraws(topics, weights_of(len(topics)), 0)
    original, new = (tuple(t.index[t[[f"{side}_baseline", f"{side}_advanced"]].notna().any(axis=1)]) for side in ("orig", "new"))
    return TopicDraws(original, weights_of(len(original)), 0, new, weights_of(len(new)))


@pytest.mark.parametrize("reproducibility", [False, True], ids=["replicability", "reproducibility"])
@pytest.mark.parametrize("missing_topics", ["zero", "drop"])
def test_the_identity_resample_gives_compare_runs_numbers(files, reproducibility, missing_topics):
    comparison = _comparison(files, reproducibility=reproducibility, missing_topics=missing_topics)
    replicates = comparison_replicates(comparison, _draws_of(comparison, identity_weights))
    values = comparison.to_frame().set_index(["statistic", "run", "measure"])["value"]
    expected = {"KTU", "RBO", "RMSE", "DeltaARP", "p", "ER", "DeltaRI"} if not reproducibility else {"DeltaARP", "p", "ER", "DeltaRI"}
    assert {key[0] for key in replicates} == expected
    for key, replicate in replicates.items():
        assert replicate.shape == (1,) and replicate[0] == pytest.approx(values[key], rel=1e-9, abs=1e-12), key


def _drawn(series: pd.Series, topics, rows) -> pd.Series:
    """The series on the drawn topics (positions ``rows`` of ``topics``), one entry per draw."""
    return series.reindex(list(topics)).iloc[rows].reset_index(drop=True)


def test_every_resample_is_the_statistics_on_the_drawn_topics(files):
    """Replicability with a topic missing from a run (``drop``): each replicate equals the package's
    scalar measures on the drawn topics (a topic drawn twice counts twice; a topic a run lacks is skipped)."""
    comparison = _comparison(files, missing_topics="drop")
    topics = tuple(comparison.per_topic["AP"].index)
    indices = topic_resamples(len(topics), 12, seed=5)
    replicates = comparison_replicates(comparison, TopicDraws(topics, topic_weights(indices), 5))
    t = comparison.per_topic["P@10"]
    for b, rows in enumerate(indices):
        drawn = {role: _drawn(t[role], topics, rows) for role in ROLES}
        assert replicates[("RMSE", "baseline", "P@10")][b] == pytest.approx(scores.rmse(drawn["orig_baseline"], drawn["new_baseline"]))
        assert replicates[("p", "baseline", "P@10")][b] == pytest.approx(scores.paired_ttest(drawn["orig_baseline"], drawn["new_baseline"]))
        assert replicates[("DeltaARP", "baseline", "P@10")][b] == pytest.approx(scores.arp(drawn["new_baseline"]) - scores.arp(drawn["orig_baseline"]))
        assert replicates[("ER", "", "P@10")][b] == pytest.approx(scores.effect_ratio(**drawn, paired=True))
        assert replicates[("DeltaRI", "", "P@10")][b] == pytest.approx(scores.delta_relative_improvement(**drawn))
        ktu = _drawn(comparison.ktu["advanced"], topics, rows)
        assert replicates[("KTU", "advanced", "")][b] == pytest.approx(ktu.mean())


def test_reproducibility_resamples_each_collection_on_its_own(files):
    comparison = _comparison(files, reproducibility=True)
    t = comparison.per_topic["AP"]
    draws = _draws_of(comparison, lambda n: identity_weights(n))
    original_rows, new_rows = topic_resamples(len(draws.topics), 8, seed=1), topic_resamples(len(draws.new_topics), 8, seed=2)
    draws = TopicDraws(draws.topics, topic_weights(original_rows), 1, draws.new_topics, topic_weights(new_rows))
    replicates = comparison_replicates(comparison, draws)
    for b in range(8):
        original = {role: _drawn(t[role], draws.topics, original_rows[b]) for role in ROLES[:2]}
        new = {role: _drawn(t[role], draws.new_topics, new_rows[b]) for role in ROLES[2:]}
        assert replicates[("p", "advanced", "AP")][b] == pytest.approx(scores.unpaired_ttest(original["orig_advanced"], new["new_advanced"]))
        assert replicates[("ER", "", "AP")][b] == pytest.approx(scores.effect_ratio(**original, **new, paired=False))
        assert replicates[("DeltaRI", "", "AP")][b] == pytest.approx(scores.delta_relative_improvement(**original, **new))


def test_draws_are_seeded_and_in_topic_order():
    first = draw_topics(["302", "1001", "301"], 50, seed=7, new_topics=["b", "a"])
    again = draw_topics(["301", "302", "1001"], 50, seed=7, new_topics=["a", "b"])
    assert first.topics == ("301", "302", "1001") and first.new_topics == ("a", "b") and first.n_resamples == 50
    np.testing.assert_array_equal(first.weights, again.weights)
    np.testing.assert_array_equal(first.weights, topic_weights(topic_resamples(3, 50, seed=7)))
    np.testing.assert_array_equal(first.new_weights, topic_weights(topic_resamples(2, 50, seed=8)))  # seed + 1
    assert not np.array_equal(first.weights, draw_topics(["301", "302", "1001"], 50, seed=8).weights)


def test_the_setting_and_the_draws_must_agree(files):
    comparison = _comparison(files)
    with pytest.raises(ValueError, match="replicability comparison needs draws without new topics"):
        comparison_replicates(comparison, draw_topics(TOPICS, 5, seed=0, new_topics=NEW_TOPICS))
