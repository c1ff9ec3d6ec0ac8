"""Preprocessing: tokens of [a-z0-9-], NLTK stop words, memoised Porter stems."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

from irrepro.routing.preprocess import STOP_WORDS, Analyzer, analyze, raw_tokens, stem, tokenize


def test_stop_words_are_nltks_179_english_words():
    assert len(STOP_WORDS) == 179
    assert {"the", "and", "of", "mustn't", "ourselves", "y"} <= STOP_WORDS
    assert "oil" not in STOP_WORDS


def test_tokenize_keeps_letters_digits_hyphens_and_lowercases():
    assert tokenize("Crude-Oil PRICES: $18.50/bbl -- (U.S.)") == ["crude-oil", "prices", "18", "50", "bbl", "u", "s"]


def test_analyze_removes_stop_words_before_stemming_then_stems():
    # "was"/"the" are stop words; "having" is one too, though its stem "have" would not be
    assert analyze("The company was having Rallies") == ["compani", "ralli"]
    assert analyze("Running runs") == [stem("running"), stem("runs")] == ["run", "run"]


def test_stem_is_nltks_porter_stemmer():
    porter = PorterStemmer()
    for word in ["generalization", "ponies", "agreed", "oscillators", "1987"]:
        assert stem(word) == porter.stem(word)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_fast_tokens_equal_the_regular_expression(text):
    assert raw_tokens(text) == re.findall(r"[a-z0-9-]+", text.lower())


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abcAB XYZ-01.é,\n", max_size=60))
def test_analyzer_memo_changes_nothing_and_never_returns_stop_words(text):
    fresh = Analyzer(max_memo=3)  # tiny memo: cleared again and again
    expected = [stem(t) for t in tokenize(text) if t not in STOP_WORDS]
    assert fresh(text) == expected == analyze(text)
    assert all(re.fullmatch(r"[a-z0-9-]+", s) for s in fresh(text))
