"""Text preprocessing of the routing runs: tokens, stop words, Porter stems, under two term rules.

A :class:`TermRule` turns a text into the terms of the tf-idf vocabulary. Two tokenisers are known
(:mod:`irrepro.routing.implementations` says which implementation uses which, with the sources):

``"ascii-hyphen"`` -- irrepro's tokeniser and the ``paper`` implementation's: the text is lowercased
and runs of ``[a-z0-9-]`` are the tokens (every other character separates; tokens of hyphens only
are dropped). The CLEF paper names no tokeniser. This is the regular expression of the function
``_stemming`` in the authors' ``core/tfidf_vectorization.py`` -- a function their code never calls:
the one line that would hand it to the vectoriser is commented out (breuert/wcrobust0405-code
@ aafcdff, ``core/tfidf_vectorization.py:34``).

``"unicode-word"`` -- what the authors' code does (``clef2019``, ``sigir2020``): NLTK's
``RegexpTokenizer(r"\\w+")`` on the raw text (Unicode word characters: a hyphen or an apostrophe
splits a word, "é" belongs to it, "_" too), each token lowercased (``core/data_preparation.py``,
``_remove_punctuation`` and ``_remove_stop_words``, lines 273-285 of irgroup/sigir2020-measure-
reproducibility @ 3b4e760). Without the preprocessing the code hands the raw text to scikit-learn's
``TfidfVectorizer``, which lowercases first and then takes ``(?u)\\b\\w\\w+\\b``.

With the preprocessing both rules then remove the English stop words of NLTK (shipped here as
``data/stopwords_nltk_english.txt``, the 179 words of the list the code downloads, so nothing is
downloaded at run time) and replace each remaining token by its Porter stem (``nltk.stem.
PorterStemmer``, NLTK's default ``NLTK_EXTENSIONS`` mode).

``min_length``: the code writes the stems, joined by blanks, to a file that ``TfidfVectorizer``
reads back with its default ``token_pattern`` ``(?u)\\b\\w\\w+\\b``, so every term of one
character is dropped (``min_length=2``); the rule applies that pattern to each stem, which is the
same. irrepro keeps one-character terms (``min_length=1``).

Stemming dominates the cost, so every rule memoises the whole token -> terms mapping: each
distinct token is stemmed once per process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from nltk.stem.porter import PorterStemmer

__all__ = [
    "STOP_WORDS",
    "TOKENIZERS",
    "TermRule",
    "PAPER_TERMS",
    "tokenize",
    "raw_tokens",
    "word_tokens",
    "vectorizer_tokens",
    "stem",
    "Analyzer",
    "analyze",
]

#: the two tokenisers (see the module docstring)
TOKENIZERS = ("ascii-hyphen", "unicode-word")

_TOKEN = re.compile(r"[a-z0-9-]+")
_HYPHENS_ONLY = re.compile(r"-+")
_WORD = re.compile(r"\w+")
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
# ASCII text: one C-level pass maps A-Z to a-z and every other character but [a-z0-9-] to a blank
_ASCII_TABLE = str.maketrans(
    {i: (chr(i).lower() if chr(i).lower() in _KEPT else " ") for i in range(128)}
)
# ASCII text: \w is [A-Za-z0-9_]; keep those (case kept, or lowercased), blank out the rest
_ASCII_WORD_TABLE = str.maketrans({i: (chr(i) if chr(i).isalnum() or chr(i) == "_" else " ") for i in range(128)})
_ASCII_LOWER_WORD_TABLE = str.maketrans(
    {i: (chr(i).lower() if chr(i).isalnum() or chr(i) == "_" else " ") for i in range(128)}
)


def raw_tokens(text: str) -> list[str]:
    """Split a text into lowercased runs of ``[a-z0-9-]`` (hyphen-only runs included).

    The same as ``re.findall("[a-z0-9-]+", text.lower())`` but about three times faster on ASCII
    text.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of str
        The runs.
    """
    if text.isascii():
        return text.translate(_ASCII_TABLE).split()
    return _TOKEN.findall(text.lower())


def word_tokens(text: str) -> list[str]:
    r"""Split a text into runs of word characters, case kept: NLTK's ``RegexpTokenizer(r"\w+").tokenize(text)``.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of str
        The tokens.

    Examples
    --------
    >>> word_tokens("Crude-oil output, café_au_lait: U.S. 3%")
    ['Crude', 'oil', 'output', 'café_au_lait', 'U', 'S', '3']
    """
    if text.isascii():
        return text.translate(_ASCII_WORD_TABLE).split()
    return _WORD.findall(text)


def vectorizer_tokens(text: str) -> list[str]:
    r"""Split the lowercased text into runs of word characters.

    Those of two characters or more are scikit-learn's default analysis of a raw text (lowercase,
    then ``(?u)\b\w\w+\b``).

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of str
        The tokens.

    Examples
    --------
    >>> vectorizer_tokens("Crude-oil output, café: U.S. 3% of 12")
    ['crude', 'oil', 'output', 'café', 'u', 's', '3', 'of', '12']
    """
    if text.isascii():
        return text.translate(_ASCII_LOWER_WORD_TABLE).split()
    return _WORD.findall(text.lower())


def _read_stop_words() -> frozenset[str]:
    text = resources.files("irrepro.routing").joinpath("data/stopwords_nltk_english.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


STOP_WORDS: frozenset[str] = _read_stop_words()

_STEMMER = PorterStemmer()


@lru_cache(maxsize=1 << 20)
def stem(token: str) -> str:
    """The Porter stem of a lowercase token (memoised)."""
    return _STEMMER.stem(token)


@dataclass(frozen=True)
class TermRule:
    """How a text becomes terms: a tokeniser, the preprocessing (stop words, Porter stems) or not, and the shortest term kept.

    :meth:`tokens` splits a text; :meth:`terms` maps one token to its terms (none for a stop word,
    usually one, more only where a Unicode stem holds a non-word character); calling the rule on a
    text gives all its terms in order.

    Parameters
    ----------
    tokenizer : {"ascii-hyphen", "unicode-word"}
        The tokeniser.
    preprocess : bool, default True
        Stop words removed and Porter stems.
    min_length : int, default 1
        The shortest term kept.
    stop_words : frozenset of str, default STOP_WORDS
        The stop list.

    Examples
    --------
    >>> TermRule()("The U.S. crude-oil price")
    ['u', 'crude-oil', 'price']
    >>> TermRule("unicode-word", min_length=2)("The U.S. crude-oil price")
    ['crude', 'oil', 'price']
    """

    tokenizer: str = "ascii-hyphen"
    preprocess: bool = True
    min_length: int = 1
    stop_words: frozenset[str] = STOP_WORDS

    def __post_init__(self):
        if self.tokenizer not in TOKENIZERS:
            raise ValueError(f"tokenizer must be one of {TOKENIZERS}, not {self.tokenizer!r}")
        if self.min_length not in (1, 2):
            raise ValueError(f"min_length must be 1 or 2, not {self.min_length!r}")

    def tokens(self, text: str) -> list[str]:
        """Split ``text`` into tokens, before stop words, stems and the length rule.

        Parameters
        ----------
        text : str
            The text.

        Returns
        -------
        list of str
            The tokens.
        """
        if self.tokenizer == "ascii-hyphen":
            return raw_tokens(text)
        return word_tokens(text) if self.preprocess else vectorizer_tokens(text)

    def terms(self, token: str) -> tuple[str, ...]:
        """Map one token to the terms it contributes (not memoised; :class:`Analyzer` and the features are).

        Parameters
        ----------
        token : str
            The token.

        Returns
        -------
        tuple of str
            Its terms (none for a stop word).
        """
        if self.tokenizer == "ascii-hyphen":
            if _HYPHENS_ONLY.fullmatch(token) or (self.preprocess and token in self.stop_words):
                return ()
            term = stem(token) if self.preprocess else token
            return (term,) if len(term) >= self.min_length else ()
        if not self.preprocess:  # vectorizer_tokens: runs of word characters of the lowercased text
            return (token,) if len(token) >= self.min_length else ()
        lowered = token.lower()
        if lowered in self.stop_words:
            return ()
        # the vectoriser re-reads the stems: lowercase, then runs of word characters
        return tuple(term for term in _WORD.findall(stem(lowered).lower()) if len(term) >= self.min_length)

    def __call__(self, text: str) -> list[str]:
        return [term for token in self.tokens(text) for term in self.terms(token)]


#: irrepro's default rule: [a-z0-9-] tokens, NLTK stop words removed, Porter stems, all lengths
PAPER_TERMS = TermRule()


def tokenize(text: str) -> list[str]:
    """Split a text into lowercased runs of ``[a-z0-9-]``; tokens of hyphens only are dropped.

    The terms of a run without the preprocessing under the ``"ascii-hyphen"`` rule: stop words kept,
    nothing stemmed.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of str
        The tokens.

    Examples
    --------
    >>> tokenize("U.S. crude-oil output, 1987: -- up 3%")
    ['u', 's', 'crude-oil', 'output', '1987', 'up', '3']
    """
    return [token for token in raw_tokens(text) if not _HYPHENS_ONLY.fullmatch(token)]


class Analyzer:
    """Text -> list of terms under a :class:`TermRule`, with a per-instance memo token -> terms.

    Parameters
    ----------
    rule : TermRule, default PAPER_TERMS
        The rule (default: stems of the ``"ascii-hyphen"`` tokens without stop words).
    max_memo : int, default 5000000
        Bounds the memo (distinct tokens): when it is full it is cleared, which costs time, never
        correctness.
    """

    def __init__(self, rule: TermRule = PAPER_TERMS, *, max_memo: int = 5_000_000):
        self.rule = rule
        self.max_memo = max_memo
        self._memo: dict[str, tuple[str, ...]] = {}

    def _learn(self, token: str) -> tuple[str, ...]:
        if len(self._memo) >= self.max_memo:
            self._memo.clear()
        value = self._memo[token] = self.rule.terms(token)
        return value

    def __call__(self, text: str) -> list[str]:
        memo = self._memo
        terms: list[str] = []
        extend = terms.extend
        for token in self.rule.tokens(text):
            value = memo.get(token)
            if value is None:
                value = self._learn(token)
            extend(value)
        return terms


_DEFAULT_ANALYZER = Analyzer()


def analyze(text: str) -> list[str]:
    """Give the stems of ``text`` after stop-word removal (irrepro's preprocessing, ``paper``).

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of str
        The terms.

    Examples
    --------
    >>> analyze("The markets were rallying in Tokyo")
    ['market', 'ralli', 'tokyo']
    """
    return _DEFAULT_ANALYZER(text)
