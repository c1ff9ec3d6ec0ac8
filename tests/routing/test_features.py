"""tf-idf features: equal to scikit-learn's TfidfVectorizer on the same stems, whatever the chunking."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from irrepro.routing.features import fit_tfidf
from irrepro.routing.preprocess import analyze, tokenize

DOCS = [
    "Oil prices rose sharply in Tokyo trading on Monday",
    "The oil output of OPEC fell in March, oil ministers said",
    "Gold rose; gold fell; gold-mining stocks rallied",
    "Wheat and corn exports fell as the dollar rose",
    "Tokyo stocks rallied, the dollar fell against the yen",
    "nothing of the sort",
]


def _sklearn(**options):
    return TfidfVectorizer(analyzer=analyze, sublinear_tf=True, **options)


@pytest.mark.parametrize("options", [{}, {"max_df": 0.5}, {"min_df": 2}, {"max_df": 3, "min_df": 2}])
def test_equals_scikit_learn(options):
    model = fit_tfidf(DOCS, **options)
    reference = _sklearn(**options)
    expected = reference.fit_transform(DOCS)
    assert model.terms == reference.get_feature_names_out().tolist()
    np.testing.assert_allclose(model.idf, reference.idf_)
    np.testing.assert_allclose(model.transform(DOCS).toarray(), expected.toarray(), atol=1e-12)


def test_max_features_is_a_share_of_the_pruned_vocabulary():
    model = fit_tfidf(DOCS, max_features=0.25)
    full = fit_tfidf(DOCS)
    limit = int(0.25 * full.n_features)
    assert model.n_features == limit
    # the most frequent stems are kept: "oil" (3), "gold" (3), "fell" (4) and "rose" (3)
    assert {"fell", "gold", "oil", "rose"} <= set(model.terms)


def test_chunk_size_does_not_change_the_model():
    one = fit_tfidf(DOCS, chunk_size=1)
    many = fit_tfidf(DOCS, chunk_size=1000)
    assert one.terms == many.terms
    np.testing.assert_array_equal(one.idf, many.idf)


def test_unknown_terms_are_dropped_and_rows_have_unit_norm():
    model = fit_tfidf(DOCS[:2])
    rows = model.transform(["oil zebra", "zebra only", ""])
    assert rows.shape == (3, model.n_features)
    norms = np.sqrt(np.asarray(rows.multiply(rows).sum(axis=1))).ravel()
    np.testing.assert_allclose(norms, [1.0, 0.0, 0.0])


@pytest.mark.parametrize(
    "options, message",
    [({"max_df": 1.5}, "max_df"), ({"max_features": 0.0}, "max_features"), ({"min_df": 5}, "no term left"), ({"min_df": 10}, "fewer documents")],
)
def test_bad_parameters_raise(options, message):
    with pytest.raises(ValueError, match=message):
        fit_tfidf(DOCS, **options)


def test_empty_corpus_raises():
    with pytest.raises(ValueError, match="no documents"):
        fit_tfidf([])


def test_a_full_token_memo_starts_afresh_without_changing_results(monkeypatch):
    from irrepro.routing import features

    expected = fit_tfidf(DOCS).transform(DOCS).toarray()
    monkeypatch.setattr(features._TokenColumns, "max_memo", 2)
    model = fit_tfidf(DOCS)
    np.testing.assert_allclose(model.transform(DOCS).toarray(), expected)


@pytest.mark.parametrize("options", [{}, {"max_df": 0.5}, {"min_df": 2}])
def test_without_preprocessing_equals_scikit_learn_on_plain_tokens(options):
    model = fit_tfidf(DOCS, preprocess=False, **options)
    reference = TfidfVectorizer(analyzer=tokenize, sublinear_tf=True, **options)
    expected = reference.fit_transform(DOCS)
    assert model.terms == reference.get_feature_names_out().tolist()
    np.testing.assert_allclose(model.transform(DOCS).toarray(), expected.toarray(), atol=1e-12)


def test_preprocessing_removes_stop_words_and_stems_plain_tokens_do_neither():
    stemmed = set(fit_tfidf(DOCS).terms)
    plain = set(fit_tfidf(DOCS, preprocess=False).terms)
    assert {"the", "of", "and", "prices", "rallied", "gold-mining"} <= plain
    assert not {"the", "of", "and", "prices", "rallied"} & stemmed
    assert {"price", "ralli"} <= stemmed and not {"price", "ralli"} & plain
    # the model remembers how it was fitted: "the" is a column only without preprocessing
    model = fit_tfidf(DOCS, preprocess=False)
    assert model.transform(["the the"]).nnz == 1 and fit_tfidf(DOCS).transform(["the the"]).nnz == 0
