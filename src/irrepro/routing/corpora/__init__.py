"""Streaming readers for the corpora of the routing runs (Breuer & Schaer, CENTRE@CLEF 2019).

The WCrobust04 / WCrobust0405 runs train on TREC Disks 4&5 (Robust04) and AQUAINT (Robust05) and
rank the New York Times Annotated Corpus (Core17) or the Washington Post v2 (Core18); the open
stand-in uses Reuters-21578. Each reader yields :class:`Document` records one at a time, file by
file, so a corpus is never held in memory as a whole:

=================  ======================================  ==========================================
format name        reader                                  files
=================  ======================================  ==========================================
``trec``           :func:`read_trec_sgml`                  SGML ``<DOC>`` files, plain or ``.gz``
``nyt``            :func:`read_nyt`                        NITF XML in ``.tgz`` tarballs, or ``.xml``
``wapo``           :func:`read_wapo`                       JSON lines, plain or ``.gz``
``reuters21578``   :func:`read_reuters21578`               ``reut2-*.sgm`` (Latin-1 SGML)
=================  ======================================  ==========================================

What text is taken is the reader's ``text`` rule (:data:`TEXT_RULES`): ``"anserini"`` (default)
follows Anserini's collection classes (see each module), ``"authors"`` what the authors' code
extracts (:mod:`irrepro.routing.implementations`), for instance the whole NITF text of an NYT
article; ``drop_empty=True`` passes over documents of empty text (the code's rule for TREC SGML,
counted in :attr:`ReadStats.empty`). Malformed documents
are skipped with a :class:`CorpusWarning` naming file and position and counted in a
:class:`ReadStats` passed as ``stats=``::

    stats = ReadStats()
    for document in read_corpus("trec", [Path("disk45")], stats=stats):
        ...
    stats.documents, stats.skipped
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ._common import TEXT_RULES, CorpusFormatError, CorpusWarning, Document, Problem, ReadStats, as_paths, html_text
from .nyt import read_nyt
from .reuters import modapte_split, read_reuters21578
from .trec import read_trec_sgml
from .wapo import read_wapo

__all__ = [
    "TEXT_RULES",
    "html_text",
    "Document",
    "CorpusFormatError",
    "CorpusWarning",
    "Problem",
    "ReadStats",
    "READERS",
    "read_corpus",
    "read_trec_sgml",
    "read_nyt",
    "read_wapo",
    "read_reuters21578",
    "modapte_split",
]

READERS = {
    "trec": read_trec_sgml,
    "nyt": read_nyt,
    "wapo": read_wapo,
    "reuters21578": read_reuters21578,
}


def read_corpus(
    format: str,
    paths: str | Path | Iterable[str | Path],
    *,
    stats: ReadStats | None = None,
    text: str = "anserini",
    drop_empty: bool = False,
) -> Iterator[Document]:
    """Stream the documents of ``paths`` with the reader named ``format``, taking the ``text`` rule's text.

    Unlike the readers themselves (generators, which fail only once iterated), this checks at once
    that the format is known and that every path exists, so a wrong setting fails where it is made.

    Parameters
    ----------
    format : str
        A key of :data:`READERS`.
    paths : str, path-like or iterable of them
        Files or folders (walked).
    stats : ReadStats, optional
        Updated as the stream is consumed.
    text : {"anserini", "authors"}
        The text rule (see the module docstring).
    drop_empty : bool, default False
        Pass over documents of empty text (counted in ``stats.empty``; the authors' code keeps them).

    Returns
    -------
    iterator of Document
        The documents.

    Raises
    ------
    CorpusFormatError
        For an unknown format.
    FileNotFoundError
        For a path that does not exist.
    ValueError
        For an unknown text rule.
    """
    if format not in READERS:
        raise CorpusFormatError(f"unknown corpus format {format!r}; known formats: {', '.join(READERS)}")
    path_list = as_paths(paths)
    missing = [str(path) for path in path_list if not path.exists()]
    if missing:
        raise FileNotFoundError(f"{format} corpus path(s) not found: {', '.join(missing)}")
    if text not in TEXT_RULES:
        raise ValueError(f"text must be one of {TEXT_RULES}, not {text!r}")
    return READERS[format](path_list, stats=stats, text=text, drop_empty=drop_empty)
