"""The pipeline's contracts: re-iterable corpora, systems, topic selection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.routing.constellations import Constellation, by_name
from irrepro.routing.corpora import Document
from irrepro.routing.pipeline import (
    Collection,
    Corpus,
    RunSettings,
    last_occurrences,
    prepare_features,
    rank_features,
    retarget_features,
    route,
    run_system,
    train_models,
)
from irrepro.routing.preprocess import TermRule


def _docs(prefix, texts):
    return [Document(f"{prefix}{i}", text) for i, text in enumerate(texts)]


TRAIN = _docs("tr", ["oil prices rise", "oil output falls", "gold price rallies", "wheat harvest good", "oil tanker hit"])
TARGET = _docs("tg", ["oil prices fall", "gold rallies again", "wheat exports", "oil and gold"])
TRAIN_QRELS = pd.DataFrame(
    {"query_id": ["1"] * 5 + ["2"] * 2, "iteration": "0", "doc_id": [f"tr{i}" for i in range(5)] + ["tr2", "tr3"],
     "relevance": [1, 1, 0, 0, 2, 1, 0]}
)
TARGET_QRELS = pd.DataFrame({"query_id": ["1", "1", "3"], "iteration": "0", "doc_id": ["tg0", "tg1", "tg2"], "relevance": [1, 0, 1]})


def test_routes_topics_judged_in_both_and_ranks_all_target_documents():
    result = route([Collection("train", TRAIN, TRAIN_QRELS)], Collection("target", TARGET, TARGET_QRELS), k=3, run_tag="t")
    assert result.topics == ["1"]  # topic 2 is not judged in the target, topic 3 not in training
    assert result.run["doc_id"].tolist()[:1] == ["tg0"] and len(result.run) == 3
    assert result.n_target_documents == 4 and set(result.run["run"]) == {"t"}


def test_a_lazy_corpus_is_read_again_but_a_generator_is_refused():
    opened = []

    def open_target():
        opened.append(1)
        return iter(TARGET)

    route([Collection("train", TRAIN, TRAIN_QRELS)], Collection("target", Corpus(open_target), TARGET_QRELS), augment=True)
    assert len(opened) == 2  # fitting (augmentation) and ranking
    with pytest.raises(ValueError, match="one-shot iterator"):
        route([Collection("train", iter(TRAIN), TRAIN_QRELS)], Collection("target", TARGET, TARGET_QRELS))


def test_unknown_system_or_missing_role_raises():
    target = Collection("target", TARGET, TARGET_QRELS)
    with pytest.raises(ValueError, match="unknown system"):
        run_system("bm25", {}, target)
    with pytest.raises(ValueError, match="robust05"):
        run_system("wcrobust0405", {"robust04": Collection("train", TRAIN, TRAIN_QRELS)}, target)


def test_no_common_topic_raises():
    qrels = TARGET_QRELS.assign(query_id="99")
    with pytest.raises(ValueError, match="no topic is judged"):
        route([Collection("train", TRAIN, TRAIN_QRELS)], Collection("target", TARGET, qrels))


def test_a_run_without_preprocessing_differs_and_says_so():
    training = {"robust04": Collection("train", TRAIN, TRAIN_QRELS)}
    target = Collection("target", TARGET, TARGET_QRELS)
    processed = run_system("wcrobust04", training, target)
    plain = run_system("wcrobust04", training, target, preprocess=False)
    assert plain.parameters["preprocess"] is False and processed.parameters["preprocess"] is True
    assert set(plain.run["run"]) == {"wcrobust04_default_unprocessed"} and set(processed.run["run"]) == {"wcrobust04_default"}
    # "prices"/"price", "rallies"/"rallies" and "and" are different terms without the preprocessing
    assert plain.n_features != processed.n_features
    scores = [r.run.set_index("doc_id")["score"].sort_index().to_numpy() for r in (processed, plain)]
    assert not np.allclose(*scores)


def _streamed(collection: Collection) -> Collection:
    """The same collection as a corpus read again on every pass (never counted, as files are not)."""
    documents = list(collection.documents)
    return Collection(collection.name, Corpus(lambda: iter(documents), size=len(documents)), collection.qrels)


@pytest.mark.parametrize("options", [{}, {"augment": True}, {"preprocess": False}, {"implementation": "sigir2020"},
                                     {"constellation": by_name("tf_1")}])  # fmt: skip
def test_held_documents_counted_once_give_the_streamed_run(options):
    """Documents held in a list are tokenised once per term rule and the run read from the counts;
    it equals, bit for bit, the run of the same documents streamed from their texts."""
    training, target = Collection("train", TRAIN, TRAIN_QRELS), Collection("target", TARGET, TARGET_QRELS)
    held = route([training], target, run_tag="t", **options)
    streamed = route([_streamed(training)], _streamed(target), run_tag="t", **options)
    pd.testing.assert_frame_equal(held.run, streamed.run)
    assert (held.topics, held.n_features, held.iterations) == (streamed.topics, streamed.n_features, streamed.iterations)
    rule = TermRule(preprocess=options.get("preprocess", True))
    assert training.term_counts(rule) is training.term_counts(rule)  # counted once
    assert _streamed(training).term_counts(rule) is None


def test_features_serve_another_target_routing_the_same_topics():
    """retarget_features: the training part of prepared features ranks a second target exactly as
    features prepared for it; not shared with an augmented tf-idf or another topic set."""
    training = [Collection("train", TRAIN, TRAIN_QRELS)]
    first, second = Collection("target", TARGET, TARGET_QRELS), Collection("again", TARGET[::-1], TARGET_QRELS)
    settings = RunSettings.resolve("paper")
    shared = retarget_features(prepare_features(training, first, settings), training, second, settings)
    fresh = prepare_features(training, second, settings)
    assert shared.training is not fresh.training and shared.model.terms == fresh.model.terms
    models = train_models(shared, settings)
    pd.testing.assert_frame_equal(rank_features(shared, settings, models=models).run, rank_features(fresh, settings).run)
    augmented = RunSettings.resolve("paper", augment=True)
    assert retarget_features(prepare_features(training, first, augmented), training, second, augmented) is None
    other_topics = Collection("other", TARGET, TARGET_QRELS.assign(query_id="2"))
    assert retarget_features(prepare_features(training, first, settings), training, other_topics, settings) is None


def test_a_collection_without_repeated_ids_is_kept_as_it_is():
    collection = Collection("train", TRAIN, TRAIN_QRELS)
    assert last_occurrences(collection) == (collection, 0)


def test_runs_of_one_held_training_set_find_its_judged_documents_once(monkeypatch):
    """Where the judged training documents are (and so each topic's examples) is found once for the
    held documents of a training set, whatever the tf-idf options; the features equal, bit for bit,
    those prepared from the same documents streamed (found again each time)."""
    from irrepro.routing import pipeline

    made = []
    real = pipeline._examples
    monkeypatch.setattr(pipeline, "_examples", lambda *a: made.append(a) or real(*a))
    training = [Collection("train", TRAIN, TRAIN_QRELS), Collection("more", TARGET, TARGET_QRELS)]
    target = Collection("target", TARGET, TARGET_QRELS)
    for constellation in (by_name("default"), Constellation("df", 0, max_df=0.5), Constellation("tf", 0, max_features=0.5)):
        settings = RunSettings.resolve("paper", constellation=constellation)
        held = prepare_features(training, target, settings)
        streamed = prepare_features([_streamed(c) for c in training], _streamed(target), settings)
        assert (held.training != streamed.training).nnz == 0 and held.training.shape == streamed.training.shape
        assert held.missing_judged == streamed.missing_judged and list(held.examples) == list(streamed.examples)
        for topic, (rows, grades) in held.examples.items():
            assert np.array_equal(rows, streamed.examples[topic][0]) and np.array_equal(grades, streamed.examples[topic][1])
    assert len(made) == 1 + 3  # the held set once, each streamed preparation again
