"""Text preprocessing of the routing runs: tokens, stop words, Porter stems.

Breuer & Schaer (CENTRE@CLEF 2019, Sec. 3.1 and 4.3) normalise every document before the tf-idf
features are derived; their code (irgroup/sigir2020-measure-reproducibility, ``core/
data_preparation.py`` and ``core/tfidf_vectorization.py``) does, in this order:

1. lowercase the text and keep runs of ``[A-Za-z0-9-]`` as tokens (every other character separates);
2. remove the English stop words of NLTK (shipped here as ``data/stopwords_nltk_english.txt``, the
   same 179 words, so nothing is downloaded at run time);
3. replace each remaining token by its Porter stem (``nltk.stem.PorterStemmer``, NLTK's default
   ``NLTK_EXTENSIONS`` mode).

Without the preprocessing (the paper's comparison runs, Sec. 4.3), only step 1 applies:
:func:`tokenize` gives those terms.

Tokens made of hyphens only (``-``, ``--``) carry no term and are dropped. Stemming dominates the
cost, so :class:`Analyzer` memoises the whole token -> stem mapping (stop words map to ``None``):
every distinct token is stemmed once per process.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from nltk.stem.porter import PorterStemmer

__all__ = ["STOP_WORDS", "tokenize", "raw_tokens", "stem", "Analyzer", "analyze"]

_TOKEN = re.compile(r"[a-z0-9-]+")
_HYPHENS_ONLY = re.compile(r"-+")
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
# ASCII text: one C-level pass maps A-Z to a-z and every other character but [a-z0-9-] to a blank
_ASCII_TABLE = str.maketrans(
    {i: (chr(i).lower() if chr(i).lower() in _KEPT else " ") for i in range(128)}
)


def raw_tokens(text: str) -> list[str]:
    """Lowercased runs of ``[a-z0-9-]`` (hyphen-only runs included), the same as
    ``re.findall("[a-z0-9-]+", text.lower())`` but about three times faster on ASCII text."""
    if text.isascii():
        return text.translate(_ASCII_TABLE).split()
    return _TOKEN.findall(text.lower())


def _read_stop_words() -> frozenset[str]:
    text = resources.files("irrepro.routing").joinpath("data/stopwords_nltk_english.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


STOP_WORDS: frozenset[str] = _read_stop_words()

_STEMMER = PorterStemmer()


def tokenize(text: str) -> list[str]:
    """Lowercased runs of ``[a-z0-9-]``; tokens of hyphens only are dropped (the terms of a run
    without the preprocessing: stop words kept, nothing stemmed).

    >>> tokenize("U.S. crude-oil output, 1987: -- up 3%")
    ['u', 's', 'crude-oil', 'output', '1987', 'up', '3']
    """
    return [token for token in raw_tokens(text) if not _HYPHENS_ONLY.fullmatch(token)]


@lru_cache(maxsize=1 << 20)
def stem(token: str) -> str:
    """The Porter stem of a lowercase token (memoised)."""
    return _STEMMER.stem(token)


class Analyzer:
    """Text -> list of stems, with a per-instance memo of token -> stem (``None`` for stop words).

    ``max_memo`` bounds the memo (distinct tokens): when it is full it is cleared, which costs time,
    never correctness.
    """

    def __init__(self, *, stop_words: frozenset[str] = STOP_WORDS, max_memo: int = 5_000_000):
        self.stop_words = stop_words
        self.max_memo = max_memo
        self._memo: dict[str, str | None] = {}

    def _learn(self, token: str) -> str | None:
        if len(self._memo) >= self.max_memo:
            self._memo.clear()
        if _HYPHENS_ONLY.fullmatch(token) or token in self.stop_words:
            value = None
        else:
            value = _STEMMER.stem(token)
        self._memo[token] = value
        return value

    def __call__(self, text: str) -> list[str]:
        memo = self._memo
        stems = []
        append = stems.append
        for token in raw_tokens(text):
            value = memo.get(token, False)
            if value is False:
                value = self._learn(token)
            if value is not None:
                append(value)
        return stems


_DEFAULT_ANALYZER = Analyzer()


def analyze(text: str) -> list[str]:
    """The stems of ``text`` after stop-word removal (the paper's preprocessing).

    >>> analyze("The markets were rallying in Tokyo")
    ['market', 'ralli', 'tokyo']
    """
    return _DEFAULT_ANALYZER(text)
