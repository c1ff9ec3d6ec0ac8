"""Classifiers trained once per content (irrepro.routing.trainer)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.routing.constellations import by_name
from irrepro.routing.corpora import Document
from irrepro.routing.pipeline import Collection, RunSettings, prepare_features, train_models
from irrepro.routing.trainer import Trainer, content_key

TEXTS = ["oil prices rise", "oil output falls", "gold price rallies", "wheat harvest good", "oil tanker hit",
         "gold mine strike", "wheat exports up", "oil and gold"]  # fmt: skip
GRADES = {"oil": [1, 1, 0, 0, 1, 0, 0, 1], "gold": [0, 0, 1, 0, 0, 1, 0, 1]}
PAPER = RunSettings.resolve("paper")


def _features(settings: RunSettings = PAPER, grades: dict[str, list[int]] = GRADES):
    """Features prepared afresh each call (new objects; equal content for equal arguments)."""
    qrels = pd.DataFrame({
        "query_id": [t for t in grades for _ in TEXTS], "iteration": "0",
        "doc_id": [f"d{i}" for i in range(len(TEXTS))] * len(grades), "relevance": sum(grades.values(), []),
    })  # fmt: skip
    documents = [Document(f"d{i}", text) for i, text in enumerate(TEXTS)]
    return prepare_features([Collection("train", documents, qrels)], Collection("target", documents, qrels), settings)


def _same(a, b) -> bool:
    return (a.topics == b.topics and np.array_equal(a.coef, b.coef) and np.array_equal(a.intercept, b.intercept)
            and a.iterations == b.iterations and a.skipped == b.skipped)  # fmt: skip


def test_equal_content_is_trained_once_and_other_options_again():
    trainer = Trainer()
    first, again = _features(), _features()
    assert first.training is not again.training and content_key(first) == content_key(again)
    models = trainer.train(first, PAPER)
    assert trainer.train(again, PAPER) is models and trainer.trainings == 1
    other = trainer.train(first, RunSettings.resolve("paper", constellation=by_name("C_4")))
    assert other is not models and trainer.trainings == 2 and not np.array_equal(other.coef, models.coef)


def test_the_memo_trains_what_train_models_trains():
    features = _features()
    assert _same(Trainer().train(features, PAPER), train_models(features, PAPER))


def test_other_grades_on_the_same_rows_are_another_content():
    """One grade flipped: the rows are the same, the key is not, and the classifiers differ."""
    flipped = {**GRADES, "oil": [1, 1, 0, 0, 1, 0, 0, 0]}
    trainer = Trainer()
    same_rows, other = _features(), _features(grades=flipped)
    assert (same_rows.training != other.training).nnz == 0 and content_key(same_rows) != content_key(other)
    models = trainer.train(same_rows, PAPER)
    assert trainer.train(other, PAPER) is not models and trainer.trainings == 2
    assert _same(trainer.train(other, PAPER), train_models(other, PAPER))


def test_the_memo_forgets_the_oldest_trainings_beyond_its_budget():
    features = _features()
    trainer = Trainer(memo_bytes=0)  # keeps the newest only
    first = trainer.train(features, PAPER)
    trainer.train(features, RunSettings.resolve("paper", constellation=by_name("C_4")))
    again = trainer.train(features, PAPER)
    assert again is not first and trainer.trainings == 3 and _same(again, first)


def test_settings_differing_only_in_tol_are_trained_in_one_call(monkeypatch):
    """train_all: the default, tol_1, tol_3 and the default on the summed loss in one call of
    train_tolerances (C_4 in another); train() then hands out each from the memo, equal to train_models'."""
    from irrepro.routing import trainer as trainer_module

    calls = []
    real = trainer_module.train_tolerances
    monkeypatch.setattr(trainer_module, "train_tolerances",
                        lambda *a, **k: calls.append(k["tolerances"]) or real(*a, **k))  # fmt: skip
    settings = [RunSettings.resolve("paper", constellation=by_name(name)) for name in ("default", "tol_1", "tol_3", "C_4")]
    settings.append(RunSettings.resolve("paper", tol_scale="sum"))
    features, trainer = _features(), Trainer()
    trainer.train_all(features, settings)
    assert sorted(calls) == [[(1e-4, "mean")], [(1e-4, "mean"), (1.0, "mean"), (5.0, "mean"), (1e-4, "sum")]]
    assert trainer.trainings == 5
    for each in settings:
        assert _same(trainer.train(features, each), train_models(features, each))
    assert trainer.trainings == 5 and len(calls) == 2
