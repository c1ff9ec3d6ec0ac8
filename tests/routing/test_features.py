"""tf-idf features: equal to scikit-learn's TfidfVectorizer on the same stems, whatever the chunking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer

from irrepro.routing.features import TermCounts, fit_tfidf, fit_tfidf_counts
from irrepro.routing.preprocess import TermRule, analyze, tokenize

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


# ----------------------------------------------------------------------------- from term counts

_WORDS = ["oil", "oils", "price", "prices", "gold", "the", "and", "rose", "fell", "crude-oil", "u.s.", "naïve", "x", "1987"]


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(_WORDS), max_size=12).map(" ".join), min_size=1, max_size=12),
    split=st.integers(0, 12),
    max_df=st.sampled_from([1.0, 0.5, 3]),
    max_features=st.sampled_from([None, 0.5, 0.2]),
    rule=st.sampled_from([TermRule(), TermRule(preprocess=False), TermRule("unicode-word", min_length=2)]),
    sublinear_tf=st.booleans(),
)
def test_counts_give_the_texts_model_and_rows_bit_for_bit(texts, split, max_df, max_features, rule, sublinear_tf):
    """fit_tfidf_counts and transform_counts on corpora counted once equal fit_tfidf and transform on
    the texts: same terms, idf and rows, to the last bit (the routing runs rely on it)."""
    options = {"max_df": max_df, "max_features": max_features, "preprocess": rule.preprocess,
               "tokenizer": rule.tokenizer, "min_length": rule.min_length, "sublinear_tf": sublinear_tf}  # fmt: skip
    parts = [texts[:split], texts[split:]]
    try:
        expected = fit_tfidf(texts, **options)
    except ValueError as error:  # no term left: the counts say the same
        with pytest.raises(ValueError, match=str(error).split("(")[0].strip()):
            fit_tfidf_counts([TermCounts.of(part, rule=rule) for part in parts], **options)
        return
    counts = [TermCounts.of(part, rule=rule, chunk_size=3) for part in parts]
    model = fit_tfidf_counts(counts, **options)
    assert model.terms == expected.terms and np.array_equal(model.idf, expected.idf)
    for part, counted in zip(parts, counts, strict=True):
        if not part:  # transform refuses zero rows either way (scikit-learn's normalize)
            continue
        rows, reference = model.transform_counts(counted), expected.transform(part)
        for name in ("data", "indices", "indptr"):
            assert np.array_equal(getattr(rows, name), getattr(reference, name)), name
        pick = np.array([len(part) - 1, 0])  # a selection of rows, in any order, is those rows
        assert np.array_equal(model.transform_counts(counted, pick).toarray(), reference[pick].toarray())


def test_counts_of_no_text_fit_nothing():
    with pytest.raises(ValueError, match="no documents"):
        fit_tfidf_counts([TermCounts.of([])])


def test_one_fitting_corpus_counted_once_serves_every_max_df_and_max_features(monkeypatch):
    """fit_tfidf_counts on the same counted parts with other options merges their vocabularies once
    (the runs of one training set differ in max_df and max_features only), and each model is still
    fit_tfidf's on the texts: terms in string order, max_features ties by term."""
    texts = ["oil oil price", "gold price", "the oil and the gold", "rose fell", "u.s. crude-oil 1987 x", "fell rose x"]
    counts = [TermCounts.of(texts[:2]), TermCounts.of(texts[2:])]
    merged = []
    real = TermCounts.frequencies
    monkeypatch.setattr(TermCounts, "frequencies", lambda self: merged.append(self) or real(self))
    for options in ({}, {"max_df": 0.5}, {"max_features": 0.5}, {"max_features": 0.3, "max_df": 2}):
        model, expected = fit_tfidf_counts(counts, **options), fit_tfidf(texts, **options)
        assert model.terms == expected.terms and np.array_equal(model.idf, expected.idf)
    assert len(merged) == 2
