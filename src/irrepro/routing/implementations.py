"""Three complete parameter sets of the routing runs: the CLEF paper's text, and the authors' code of 2019 and 2020.

Breuer & Schaer describe their replication of WCrobust04 / WCrobust0405 in the CENTRE@CLEF 2019
paper; their code exists in two versions, and both do things the paper does not say:

* ``"paper"`` -- what the paper's text says, completed where it is silent by irrepro's choices
  (Anserini's document fields, ``[a-z0-9-]`` tokens, lbfgs), none of which is the authors'.

  **tf weighting of ``paper``: raw tf** (scikit-learn's ``TfidfVectorizer`` defaults,
  ``sublinear_tf=False``). The decision rests on the paper's Section 3.2: "we make use of the
  TfidfVectorizer and the LogisticRegression classifier [...] The TfidfVectorizer uses the L2-norm
  as a default setting." The paper names the vectoriser and one of its defaults and changes no
  parameter, so the reading is the vectoriser's defaults, of which raw term frequency is one. (The
  2019 code agrees; sublinear tf is a 2020 setting, ``config/param.py:22``, and appears in the
  ``sigir2020`` implementation only. Before this decision ``paper`` used sublinear tf, which no
  source supports for the 2019 runs.)
* ``"clef2019"`` -- the code of the official CENTRE@CLEF 2019 runs: GitHub ``breuert/centre19``
  @ 54d71a69d5946e882ece4910aa1fd995ed39530c (a backup of the paper's Bitbucket repository), whose
  ``core/`` equals ``breuert/wcrobust0405-code`` @ aafcdff24f3f1c5bbbe3abcdf65fd60e41a3f500 (cited
  for the ``core/`` files the backup does not hold), run under scikit-learn 0.20.2.
* ``"sigir2020"`` -- the code that made the SIGIR 2020 reproducibility dataset:
  ``irgroup/sigir2020-measure-reproducibility`` @ 3b4e7605a96f167de90bb5a929f3e4e9ed5f0d4c,
  constellation 1 of ``config/param.py``, under scikit-learn 0.20.2 and NLTK 3.4.5
  (``requirements.txt``).

Each :class:`Implementation` holds every choice of the pipeline and, in ``sources``, where each
comes from (file:line of the authors' code, or the paper's section). One option selects one:
``route(..., implementation="clef2019")``, ``irrepro routing run --implementation clef2019``.
:func:`divergences` lists, one row per difference between paper and code, the paper's words, the
code's behaviour, its source and the switch that turns on just that choice on top of ``paper``
(:func:`switched`), so each choice's effect can be measured alone.

What today's libraries cannot give exactly (the code ran under scikit-learn 0.20.2, NLTK 3.4.5 and
whatever nltk_data and numpy the authors' machine had):

* lbfgs: ``tol_scale="sum"`` bounds the gradient of the summed loss as scikit-learn < 1.4 did, but
  L-BFGS-B's other stopping settings changed with it (``factr=1e7``, i.e. ``ftol`` about 2.2e-9,
  and ``maxls=20`` then; ``ftol=64 eps`` and ``maxls=50`` now), and SciPy's L-BFGS-B itself was
  rewritten since; not emulated.
* liblinear: the same trust-region Newton code with the penalised intercept is in today's
  scikit-learn (see :mod:`irrepro.routing.classifier`); bit-identity with 0.20.2 is not claimed.
* ``max_features`` ties: scikit-learn 0.20 keeps the most frequent terms by ``(-tf).argsort()``
  (numpy's unstable quicksort, whose order of equal counts depends on the numpy version and CPU);
  irrepro breaks ties by term. Only the ``tf_*`` constellations cut the vocabulary.
* Stop words and stems: the code downloads NLTK's stop list at install time (the 179 words
  shipped here were that list in 2019-2020) and stems with NLTK 3.4.5's Porter stemmer; irrepro
  uses the NLTK installed (3.10 when this was written). Differences between those versions'
  stemmers are not known to us and not tested.
* Document text: the code parses SGML and XML with BeautifulSoup on lxml's HTML parser; the
  readers (``text="authors"``) emulate what it extracts with a tag scanner (see
  :mod:`irrepro.routing.corpora`), not the parser's error recovery.
* Encoding: the code writes the raw text in the platform's default encoding and reads TREC and
  NYT text back as ISO-8859-1 (``core/data_preparation.py:299-301``); on a UTF-8 machine every
  non-ASCII character becomes two or three Latin-1 characters before tokenising ("é" -> "Ã©").
  Not emulated: it depends on the machine, which the sources do not name.
* Ranks from 0 and the order of the written file: the code writes ranks 0..9999 in its own order
  (``core/ranking.py:35``); trec_eval and :func:`irrepro.runs.read_run` ignore both, so no measure
  can see them; irrepro writes trec_eval's order with ranks from 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import pandas as pd

from irrepro.routing.classifier import SOLVERS
from irrepro.routing.constellations import DEFAULT, IMPLEMENTATION_NAMES, TOL_SCALES, Constellation
from irrepro.routing.corpora import TEXT_RULES
from irrepro.routing.preprocess import TOKENIZERS, TermRule
from irrepro.routing.ranking import TIES
from irrepro.routing.topics import TOPIC_RULES

__all__ = [
    "Implementation",
    "IMPLEMENTATIONS",
    "REPEATED_IDS",
    "EMPTY_DOCUMENTS",
    "Divergence",
    "DIVERGENCES",
    "divergences",
    "get",
    "switched",
]

#: what happens to documents sharing an id: an error (training corpora) or the last one kept
REPEATED_IDS = ("error", "last")
#: TREC SGML documents with an empty text: kept (as empty documents) or dropped
EMPTY_DOCUMENTS = ("keep", "drop")

CLEF = "breuert/centre19@54d71a6"
CLEF_CORE = "breuert/wcrobust0405-code@aafcdff"
SIGIR = "irgroup/sigir2020-measure-reproducibility@3b4e760"


@dataclass(frozen=True)
class Implementation:
    """Every choice of the routing pipeline, with its source in ``sources`` (field -> citation).

    Parameters
    ----------
    name : str
        The implementation's name.
    text : str
        Corpus text rule of the readers: "anserini" or "authors" (:mod:`irrepro.routing.corpora`).
    empty_documents : str
        TREC SGML documents with empty text: "keep" or "drop".
    repeated_ids : str
        Documents sharing an id: "error" (training) or keep the "last".
    tokenizer : str
        "ascii-hyphen" or "unicode-word" (:mod:`irrepro.routing.preprocess`).
    min_term_length : int
        1, or 2: the vectoriser's token_pattern drops one-character terms.
    preprocess : bool
        NLTK stop words removed and Porter stems.
    stop_words : str
        The stop list: NLTK's English, 179 words (the only one; a field to cite its source).
    stemmer : str
        "porter" (NLTK, NLTK_EXTENSIONS mode; the only one, a field to cite its source).
    sublinear_tf : bool
        1 + ln tf, or raw tf.
    min_df : int
        Terms in fewer documents are dropped.
    augment : bool
        tf-idf fitted on training and target.
    constellation : Constellation
        C, tol, max_df, max_features.
    solver : str
        "lbfgs" (intercept unpenalised) or "liblinear" (intercept penalised).
    tol_scale : str or None
        lbfgs: tol on the "mean" or "sum" loss; None for liblinear (own rule).
    max_iter : int
        The solver's most iterations.
    topics : str
        Topic set: "any", "all" or "first" (:mod:`irrepro.routing.topics`).
    ties : str
        Equal scores: the document met "first" or "last" first.
    depth : int
        Documents ranked per topic.
    sources : Mapping of str -> str, optional
        Field -> citation of its source.
    """

    name: str
    text: str  # corpus text rule of the readers: "anserini" or "authors" (irrepro.routing.corpora)
    empty_documents: str  # TREC SGML documents with empty text: "keep" or "drop"
    repeated_ids: str  # documents sharing an id: "error" (training) or keep the "last"
    tokenizer: str  # "ascii-hyphen" or "unicode-word" (irrepro.routing.preprocess)
    min_term_length: int  # 1, or 2: the vectoriser's token_pattern drops one-character terms
    preprocess: bool  # NLTK stop words removed and Porter stems
    stop_words: str  # the stop list: NLTK's English, 179 words (the only one; a field to cite its source)
    stemmer: str  # "porter" (NLTK, NLTK_EXTENSIONS mode; the only one, a field to cite its source)
    sublinear_tf: bool  # 1 + ln tf, or raw tf
    min_df: int  # terms in fewer documents are dropped
    augment: bool  # tf-idf fitted on training and target
    constellation: Constellation  # C, tol, max_df, max_features
    solver: str  # "lbfgs" (intercept unpenalised) or "liblinear" (intercept penalised)
    tol_scale: str | None  # lbfgs: tol on the "mean" or "sum" loss; None for liblinear (own rule)
    max_iter: int
    topics: str  # topic set: "any", "all" or "first" (irrepro.routing.topics)
    ties: str  # equal scores: the document met "first" or "last" first
    depth: int  # documents ranked per topic
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        allowed = {
            "text": TEXT_RULES, "empty_documents": EMPTY_DOCUMENTS, "repeated_ids": REPEATED_IDS,
            "tokenizer": TOKENIZERS, "min_term_length": (1, 2), "solver": SOLVERS, "topics": TOPIC_RULES,
            "ties": TIES, "tol_scale": (*TOL_SCALES, None), "stop_words": ("nltk-english-179",), "stemmer": ("porter",),
        }
        for name, values in allowed.items():
            if getattr(self, name) not in values:
                raise ValueError(f"implementation {self.name!r}: {name} must be one of {values}, not {getattr(self, name)!r}")
        if (self.solver == "liblinear") != (self.tol_scale is None):
            raise ValueError(f"implementation {self.name!r}: tol_scale is None exactly for liblinear")
        missing = [name for name in FIELDS if name not in self.sources]
        if missing:
            raise ValueError(f"implementation {self.name!r}: no source for {', '.join(missing)}")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    def feature_choices(self) -> tuple:
        """List the choices the tf-idf rows and the topics' training examples depend on.

        Returns
        -------
        tuple
            The values of the fields named in ``FEATURE_FIELDS``, in order.
        """
        return tuple(getattr(self, name) for name in FEATURE_FIELDS)

    def term_rule(self, preprocess: bool | None = None) -> TermRule:
        """Give the :class:`~irrepro.routing.preprocess.TermRule` of this implementation.

        Parameters
        ----------
        preprocess : bool, optional
            Overrides the implementation's ``preprocess``.

        Returns
        -------
        TermRule
            The rule.
        """
        return TermRule(self.tokenizer, self.preprocess if preprocess is None else preprocess, self.min_term_length)

    def reader_options(self, format: str) -> dict:
        """Give the keyword options of :func:`irrepro.routing.corpora.read_corpus` for a corpus ``format``.

        The code drops empty documents of TREC SGML only.

        Parameters
        ----------
        format : str
            The corpus format.

        Returns
        -------
        dict
            ``text`` and ``drop_empty``.
        """
        return {"text": self.text, "drop_empty": self.empty_documents == "drop" and format == "trec"}

    def with_choices(self, name: str, **choices) -> Implementation:
        """Copy the implementation under the name ``name`` with some choices changed (their sources say "switched").

        Parameters
        ----------
        name : str
            The copy's name.
        **choices
            Field -> new value.

        Returns
        -------
        Implementation
            The copy.
        """
        sources = dict(self.sources)
        sources.update({choice: f"switched on top of {self.name!r}" for choice in choices})
        return dataclasses.replace(self, name=name, sources=sources, **choices)


#: the choices of an implementation (every field but its name and its sources)
FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Implementation) if f.name not in ("name", "sources"))
#: the choices the features of a run depend on (documents read, terms, tf-idf, topics and their judged
#: rows); the rest act later: ``constellation``, ``min_df``, ``augment`` and ``preprocess`` through a
#: run's settings, ``solver``, ``tol_scale`` and ``max_iter`` in the classifiers, ``ties`` and ``depth``
#: in the ranking
FEATURE_FIELDS: tuple[str, ...] = (
    "text", "empty_documents", "repeated_ids", "tokenizer", "min_term_length", "stop_words", "stemmer", "sublinear_tf",
    "topics",
)

_NOT_SAID = "not said in the paper; irrepro's choice"

PAPER = Implementation(
    name="paper",
    text="anserini",
    empty_documents="keep",
    repeated_ids="error",
    tokenizer="ascii-hyphen",
    min_term_length=1,
    preprocess=True,
    stop_words="nltk-english-179",
    stemmer="porter",
    sublinear_tf=False,
    min_df=1,
    augment=False,
    constellation=DEFAULT,
    solver="lbfgs",
    tol_scale="mean",
    max_iter=100,
    topics="any",
    ties="first",
    depth=10_000,
    sources={
        "text": f"{_NOT_SAID}: Anserini's collection classes, plus the headline (irrepro.routing.corpora)",
        "empty_documents": _NOT_SAID,
        "repeated_ids": _NOT_SAID,
        "tokenizer": f"{_NOT_SAID} (the unused _stemming of {CLEF_CORE} core/tfidf_vectorization.py:15)",
        "min_term_length": _NOT_SAID,
        "preprocess": "paper Sec. 4.3: 'results without our preprocessing pipeline are added' (so the runs preprocess)",
        "stop_words": f"{_NOT_SAID} in the compendium's copy (its Sec. 3.1 is missing): NLTK's list, as the code",
        "stemmer": f"{_NOT_SAID} in the compendium's copy (its Sec. 3.1 is missing): NLTK's Porter, as the code",
        "sublinear_tf": "paper Sec. 3.2: 'we make use of the TfidfVectorizer [...] The TfidfVectorizer uses the "
        "L2-norm as a default setting' (its defaults: raw tf)",
        "min_df": "paper Sec. 3.2: the TfidfVectorizer (scikit-learn's default min_df=1)",
        "augment": "paper Sec. 4.2: 'we omit augmenting training data for our final runs'",
        "constellation": "paper Sec. 3.2 names TfidfVectorizer and LogisticRegression, no parameter; C=1.5, tol=1e-4 as the code",
        "solver": f"{_NOT_SAID}: today's scikit-learn default, as in {SIGIR} config/param.py:6",
        "tol_scale": f"{_NOT_SAID}: today's scikit-learn (>= 1.4) semantics",
        "max_iter": "scikit-learn's default, as in the code",
        "topics": "paper Sec. 4.3 and Table 6: target ∩ (Robust04 ∪ Robust05), after Cormack's answer",
        "ties": _NOT_SAID,
        "depth": "paper Sec. 3.2: 'a ranking with 10,000 entries'",
    },
)

CLEF2019 = Implementation(
    name="clef2019",
    text="authors",
    empty_documents="drop",
    repeated_ids="last",
    tokenizer="unicode-word",
    min_term_length=2,
    preprocess=True,
    stop_words="nltk-english-179",
    stemmer="porter",
    sublinear_tf=False,
    min_df=1,
    augment=False,
    constellation=DEFAULT,
    solver="liblinear",
    tol_scale=None,
    max_iter=100,
    topics="all",
    ties="last",
    depth=10_000,
    sources={
        "text": f"{CLEF} core/data_preparation.py:101-131 (TREC), 158-176 (WaPo), 209-217 (NYT)",
        "empty_documents": f"{CLEF} core/data_preparation.py:133-138 (WaPo writes empty files: 158, 173-176)",
        "repeated_ids": f"{CLEF} core/data_preparation.py:87, 134, 158, 224 (a file per id); {CLEF_CORE} core/ranking.py:19",
        "tokenizer": f"{CLEF} core/data_preparation.py:232 (RegexpTokenizer(r'\\w+')), 242-243 (lower())",
        "min_term_length": f"{CLEF_CORE} core/tfidf_vectorization.py:35 (TfidfVectorizer defaults)",
        "preprocess": f"{CLEF} replicability/wcrobust0405/main.py:36-45 (clean_raw_text before the vectoriser)",
        "stop_words": f"{CLEF} core/data_preparation.py:239 (stopwords.words('english'))",
        "stemmer": f"{CLEF} core/data_preparation.py:249-250 (PorterStemmer)",
        "sublinear_tf": f"{CLEF_CORE} core/tfidf_vectorization.py:35 (TfidfVectorizer(input='filename'))",
        "min_df": f"{CLEF_CORE} core/tfidf_vectorization.py:35 (default min_df=1)",
        "augment": f"{CLEF} replicability/wcrobust0405/main.py:13 (robust_only = True)",
        "constellation": f"{CLEF_CORE} core/training.py:75 (LogisticRegression(C=1.5); 0.20's tol=1e-4)",
        "solver": f"{CLEF_CORE} core/training.py:75 under scikit-learn 0.20.2 (default solver liblinear)",
        "tol_scale": "liblinear's own rule (not applicable)",
        "max_iter": "scikit-learn 0.20.2's default (100)",
        "topics": f"{CLEF} replicability/wcrobust0405/main.py:65-66 (find_inter_top of all three qrels)",
        "ties": f"{CLEF_CORE} core/ranking.py:20-26 (stable sort ascending, popitem from the end)",
        "depth": f"{CLEF_CORE} core/ranking.py:24",
    },
)

SIGIR2020 = Implementation(
    name="sigir2020",
    text="authors",
    empty_documents="drop",
    repeated_ids="last",
    tokenizer="unicode-word",
    min_term_length=2,
    preprocess=True,
    stop_words="nltk-english-179",
    stemmer="porter",
    sublinear_tf=True,
    min_df=1,
    augment=False,
    constellation=DEFAULT,
    solver="lbfgs",
    tol_scale="sum",
    max_iter=100,
    topics="first",
    ties="last",
    depth=10_000,
    sources={
        "text": f"{SIGIR} core/data_preparation.py:93-123 (TREC), 183-201 (WaPo), 210-218 (NYT)",
        "empty_documents": f"{SIGIR} core/data_preparation.py:125-130",
        "repeated_ids": f"{SIGIR} core/data_preparation.py:80-81, 126, 183, 225 (a file per id); core/ranking.py:18",
        "tokenizer": f"{SIGIR} core/data_preparation.py:274 (RegexpTokenizer(r'\\w+')), 284-285 (lower())",
        "min_term_length": f"{SIGIR} core/tfidf_vectorization.py:32-42 (default token_pattern)",
        "preprocess": f"{SIGIR} config/param.py:2 ('preprocess': True)",
        "stop_words": f"{SIGIR} core/data_preparation.py:281 (stopwords.words('english'))",
        "stemmer": f"{SIGIR} core/data_preparation.py:291-292 (PorterStemmer)",
        "sublinear_tf": f"{SIGIR} config/param.py:22 ('sublinear_tf': True)",
        "min_df": f"{SIGIR} config/param.py:16 ('min_df': 1)",
        "augment": f"{SIGIR} config/param.py:3 ('robust_only': True)",
        "constellation": f"{SIGIR} config/param.py:4-5, 15, 17 (tol 1e-4, C 1.5, max_df 1.0, max_features 1.0)",
        "solver": f"{SIGIR} config/param.py:6, core/training.py:71-73 (lbfgs)",
        "tol_scale": f"{SIGIR} requirements.txt (scikit-learn 0.20.2: tol on the summed loss)",
        "max_iter": f"{SIGIR} core/training.py:71-73 (max_iter not passed: 100)",
        "topics": f"{SIGIR} replicability/wcrobust0405.py:94 (find_inter_top(qrel_files[:2]))",
        "ties": f"{SIGIR} core/ranking.py:19-25",
        "depth": f"{SIGIR} core/ranking.py:23",
    },
)

#: the three implementations by name (in the order of ``constellations.IMPLEMENTATION_NAMES``)
IMPLEMENTATIONS: Mapping[str, Implementation] = MappingProxyType(
    {implementation.name: implementation for implementation in (PAPER, CLEF2019, SIGIR2020)}
)
if tuple(IMPLEMENTATIONS) != IMPLEMENTATION_NAMES:
    raise ImportError("irrepro.routing.constellations.IMPLEMENTATION_NAMES must name the implementations of this module")


def get(implementation: str | Implementation) -> Implementation:
    """Give the implementation named ``implementation`` (or the object itself).

    Parameters
    ----------
    implementation : str or Implementation
        A name of :data:`IMPLEMENTATIONS`, or an implementation.

    Returns
    -------
    Implementation
        The implementation.

    Raises
    ------
    ValueError
        For an unknown name.
    """
    if isinstance(implementation, Implementation):
        return implementation
    if implementation not in IMPLEMENTATIONS:
        raise ValueError(f"unknown implementation {implementation!r}; known: {', '.join(IMPLEMENTATIONS)}")
    return IMPLEMENTATIONS[implementation]


@dataclass(frozen=True)
class Divergence:
    """One difference between the paper's text (``paper``) and the authors' code.

    Parameters
    ----------
    name : str
        The divergence's name.
    paper : str
        The paper's words (quote and section), or what it leaves unsaid.
    code : str
        What the code does.
    source : str
        file:line of the authors' code.
    implementations : tuple of str
        The code implementations that do it.
    switch : Mapping or None
        The choices that turn on just this difference on top of ``paper`` (:func:`switched`);
        ``None`` where no measure can see it or irrepro cannot emulate it (``note``).
    note : str, default ""
        Why it cannot be switched, or more.
    """

    name: str
    paper: str  # the paper's words (quote and section), or what it leaves unsaid
    code: str  # what the code does
    source: str  # file:line of the authors' code
    implementations: tuple[str, ...]  # the code implementations that do it
    switch: Mapping[str, object] | None
    note: str = ""


_TEXT_CODE = (
    "TREC SGML: the first HEADLINE, TEXT (a TEXT of a single child node replaces the headline, as in FT), "
    "GRAPHIC, DATELINE and CORRECTION, glued without separators; documents of empty text dropped. NYT: every "
    "text node of the NITF file (headlines, bylines, index terms, classifiers, abstract, lead paragraph, "
    "full text). WaPo: every contents block with a string content (kicker, title, byline, paragraphs ...). "
    "Reuters stand-in: the whole TEXT element (TITLE, DATELINE, BODY) instead of TITLE and BODY"
)

DIVERGENCES: tuple[Divergence, ...] = (
    Divergence(
        "document_text", "not said: the paper names the corpora, not the fields read from them", _TEXT_CODE,
        f"{CLEF} core/data_preparation.py:101-131, 158-176, 209-217; {SIGIR} core/data_preparation.py:93-123, "
        "183-201, 210-218", ("clef2019", "sigir2020"), {"text": "authors"},
    ),
    Divergence(
        "empty_documents", "not said", "TREC SGML documents whose extracted text is empty are not written, so "
        "neither fitted nor trained on", f"{CLEF} core/data_preparation.py:133-138; {SIGIR} "
        "core/data_preparation.py:125-130", ("clef2019", "sigir2020"), {"empty_documents": "drop"},
        "acts through the readers on TREC SGML; the Reuters stand-in has no empty document",
    ),
    Divergence(
        "repeated_ids", "not said", "one file per document id: of documents sharing an id the last one "
        "read is kept, in training and target corpora alike", f"{SIGIR} core/data_preparation.py:80-81, "
        "126, 183, 225; core/ranking.py:18", ("clef2019", "sigir2020"), {"repeated_ids": "last"},
    ),
    Divergence(
        "tokens", "'our text preprocessing improved evaluation measures' (Sec. 4.3); no tokeniser named",
        "RegexpTokenizer(r'\\w+') then lower(): a hyphen splits a word, Unicode letters and '_' belong to it",
        f"{SIGIR} core/data_preparation.py:274, 284-285; {CLEF} core/data_preparation.py:232, 242-243",
        ("clef2019", "sigir2020"), {"tokenizer": "unicode-word"},
    ),
    Divergence(
        "one_character_terms", "not said", "the stems are read back by TfidfVectorizer's default "
        "token_pattern (?u)\\b\\w\\w+\\b, which drops every term of one character",
        f"{SIGIR} core/tfidf_vectorization.py:32-57; {CLEF_CORE} core/tfidf_vectorization.py:35",
        ("clef2019", "sigir2020"), {"min_term_length": 2},
    ),
    Divergence(
        "sublinear_tf", "'we make use of the TfidfVectorizer [...] The TfidfVectorizer uses the L2-norm as a default "
        "setting' (Sec. 3.2): the vectoriser's defaults, raw tf", "the 2020 code sets sublinear_tf=True (1 + ln tf); "
        "the 2019 code keeps the defaults (TfidfVectorizer(input='filename'): raw tf), as the paper says",
        f"{SIGIR} config/param.py:22; {CLEF_CORE} core/tfidf_vectorization.py:35", ("sigir2020",),
        {"sublinear_tf": True},
    ),
    Divergence(
        "liblinear", "'we make use of ... the LogisticRegression classifier' (Sec. 3.2); no solver named",
        "LogisticRegression(C=1.5) under scikit-learn 0.20.2: solver liblinear, whose intercept is a "
        "penalised weight of a constant feature; the 2020 code sets lbfgs", f"{CLEF_CORE} core/training.py:75; "
        f"{SIGIR} config/param.py:6", ("clef2019",), {"solver": "liblinear", "tol_scale": None},
    ),
    Divergence(
        "tol_on_summed_loss", "not said", "lbfgs under scikit-learn 0.20.2: tol bounds the gradient of the "
        "summed log-loss (today: of the mean)", f"{SIGIR} config/param.py:4, 6; requirements.txt",
        ("sigir2020",), {"tol_scale": "sum"},
    ),
    Divergence(
        "topics_all_training", "'Our previous setups derive rankings for WCRobust0405 based on 33 topics "
        "(replicability) and 15 topics (reproducibility)' (Sec. 4.3), then complemented (Table 6)",
        "the official runs: topics judged in the target and in every training qrels", f"{CLEF} "
        "replicability/wcrobust0405/main.py:65-66", ("clef2019",), {"topics": "all"},
    ),
    Divergence(
        "topics_first_training", "as above; Table 6: topics judged in the target and in either training corpus",
        "topics judged in the target and in Robust04 (the first training qrels)",
        f"{SIGIR} replicability/wcrobust0405.py:94", ("sigir2020",), {"topics": "first"},
        "Robust05's topics are Robust04 topics, so on the TREC data this equals 'any'",
    ),
    Divergence(
        "ties_last_first", "'a ranking with 10,000 entries' (Sec. 3.2); ties not said", "of equal scores the "
        "document scored later comes first (stable ascending sort, then popitem from the end)",
        f"{CLEF_CORE} core/ranking.py:20-26; {SIGIR} core/ranking.py:19-25", ("clef2019", "sigir2020"),
        {"ties": "last"}, "acts on the cut at depth k and on the order of equal scores in the run frame; a file "
        "written by irrepro.runs.write_run is in trec_eval's order (ties by docno)",
    ),
    Divergence(
        "ranks_from_zero", "not said", "ranks written 0..9999, lines in the code's order",
        f"{CLEF_CORE} core/ranking.py:35; {SIGIR} core/ranking.py:34", ("clef2019", "sigir2020"), None,
        "no measure sees it: trec_eval and irrepro.runs.read_run ignore the rank column and the line order",
    ),
    Divergence(
        "latin1_reread", "not said", "raw TREC and NYT text written in the platform's encoding and read back "
        "as ISO-8859-1 before tokenising", f"{CLEF} core/data_preparation.py:267-269; {SIGIR} "
        "core/data_preparation.py:299-301", ("clef2019", "sigir2020"), None,
        "not emulated: the effect depends on the authors' machine (on UTF-8, 'é' becomes 'Ã©')",
    ),
)


def switched(divergence: str | Divergence, base: str | Implementation = "paper") -> Implementation:
    """Give ``base`` with the one choice of ``divergence`` switched to the code's.

    Parameters
    ----------
    divergence : str or Divergence
        The divergence.
    base : str or Implementation, default "paper"
        The implementation changed.

    Returns
    -------
    Implementation
        The copy with the choice switched.

    Raises
    ------
    ValueError
        If the divergence cannot be switched.

    Examples
    --------
    >>> switched("sublinear_tf").sublinear_tf, switched("sublinear_tf").solver
    (True, 'lbfgs')
    """
    row = divergence if isinstance(divergence, Divergence) else _divergence(divergence)
    if row.switch is None:
        raise ValueError(f"divergence {row.name!r} cannot be switched: {row.note}")
    base = get(base)
    return base.with_choices(f"{base.name}+{row.name}", **row.switch)


def _divergence(name: str) -> Divergence:
    for row in DIVERGENCES:
        if row.name == name:
            return row
    raise ValueError(f"unknown divergence {name!r}; known: {', '.join(row.name for row in DIVERGENCES)}")


def divergences() -> pd.DataFrame:
    """List the divergences between paper and code.

    The chapter measures each switchable row as ``route(..., implementation=switched(name))``
    against ``implementation="paper"``.

    Returns
    -------
    pandas.DataFrame
        One row per divergence: ``divergence``, ``paper``, ``code``, ``source``,
        ``implementations`` (comma-separated), ``switch`` (the choices, or None) and ``note``.
    """
    return pd.DataFrame(
        [
            {
                "divergence": row.name, "paper": row.paper, "code": row.code, "source": row.source,
                "implementations": ", ".join(row.implementations),
                "switch": None if row.switch is None else dict(row.switch), "note": row.note,
            }
            for row in DIVERGENCES
        ]
    )
