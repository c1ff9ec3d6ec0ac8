"""The pipeline's contracts: re-iterable corpora, systems, topic selection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.routing.corpora import Document
from irrepro.routing.pipeline import Collection, Corpus, route, run_system


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
