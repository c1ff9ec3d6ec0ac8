"""Reader for TREC SGML collections: TREC Disks 4&5 (FT, FR94, FBIS, LA Times; Robust04) and AQUAINT (Robust05).

A file holds many ``<DOC>`` records, each with ``<DOCNO>..</DOCNO>``. The text taken follows
Anserini's ``TrecCollection`` (castorini/anserini, ``src/main/java/io/anserini/collection/
TrecCollection.java``), the field's reference for what is indexed from these disks: the contents of
``<TEXT>``, ``<HEADLINE>``, ``<TITLE>``, ``<HL>``, ``<HEAD>``, ``<TTL>``, ``<LP>`` and ``<LEADPARA>``,
in document order, with inner markup (``<P>``, FBIS ``<F P=..>``, FR94 comments) removed. AQUAINT
wraps ``<HEADLINE>`` and ``<TEXT>`` in ``<BODY>``; they are found all the same. One deviation:
Anserini also indexes ``<DATE>``/``<DD>``; here dates go to :attr:`Document.date` instead of the text.

With ``text="authors"`` the text is what the authors' code extracts (``_parse_trec`` in
``core/data_preparation.py`` of irgroup/sigir2020-measure-reproducibility @ 3b4e760, lines 93-123;
breuert/centre19, lines 101-131): the text of the first ``<HEADLINE>``, then of the first ``<TEXT>``
-- which *replaces* the headline when the ``<TEXT>`` element has exactly one child node, as an FT
article's plain-text ``<TEXT>`` has -- then of the first ``<GRAPHIC>``, ``<DATELINE>`` and
``<CORRECTION>``, glued without separators (BeautifulSoup's ``.text``, see
:func:`~irrepro.routing.corpora.html_text`). With ``drop_empty=True`` a document whose text so
extracted is the empty string is passed over and counted in :attr:`ReadStats.empty`, as the code
does not write it (``if completetext != ''``, lines 125-130). The child count is taken by a tag
scanner that closes an open ``<P>`` at the next ``<P>``, as an HTML parser does; the rest of the
parser's error recovery is not emulated.

Dates are read from ``<DATE_TIME>`` (AQUAINT, ``1998-06-01 00:10``), ``<DATE>`` (FT ``yymmdd``,
LA Times ``January 1, 1989, Sunday``) or ``<DATE1>`` (FBIS ``7 February 1994``); None otherwise.
Files may be plain or gzipped (``.gz``; a truncated or corrupt one raises :class:`CorpusFormatError`
naming it); Unix-compressed ``.z``/``.0z`` files, as shipped on the
disks, must be decompressed first. As in Anserini, folders named ``cr`` (Congressional Record, not
part of Robust04), ``dtd``/``dtds`` and files whose name starts with ``readme`` are passed over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._common import (
    MONTHS,
    Document,
    ReadStats,
    as_paths,
    check_text_rule,
    clean_text,
    damage_named,
    discover,
    html_text,
    iso_date,
    line_of,
    line_starts,
    open_text,
)

__all__ = ["read_trec_sgml", "TEXT_TAGS", "AUTHORS_FIELDS", "authors_text", "child_count", "parse_date"]

TEXT_TAGS = ("TEXT", "HEADLINE", "TITLE", "HL", "HEAD", "TTL", "LP", "LEADPARA")
_RECORD = re.compile(r"<DOC>|</DOC>")
_DOCNO = re.compile(r"<DOCNO>(.*?)</DOCNO>", re.DOTALL)
_FIELDS = re.compile(rf"<({'|'.join(TEXT_TAGS)})\b[^>]*>(.*?)</\1>", re.DOTALL)
_DATE_FIELDS = re.compile(r"<(DATE_TIME|DATE|DATE1)>(.*?)</\1>", re.DOTALL)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_YYMMDD = re.compile(r"^\s*(\d{2})(\d{2})(\d{2})\s*$")
_MONTH_DAY_YEAR = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b")
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{4})\b")
_SKIP_DIRS = frozenset({"cr", "dtd", "dtds"})
AUTHORS_FIELDS = ("HEADLINE", "TEXT", "GRAPHIC", "DATELINE", "CORRECTION")
_AUTHORS_ELEMENTS = {
    tag: re.compile(rf"<{tag}(?=[\s>])[^>]*>(.*?)</{tag}\s*>", re.DOTALL | re.IGNORECASE) for tag in AUTHORS_FIELDS
}
_NODE = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][^\s/>]*)[^>]*?(/?)>", re.DOTALL)


def _is_corpus_file(path: Path) -> bool:
    return not path.name.lower().startswith("readme")


def parse_date(raw: str) -> str | None:
    """Give the ISO date of a TREC date field (``1998-06-01 00:10``, ``940207``, ``January 1, 1989``, ``7 Feb 1994``).

    Parameters
    ----------
    raw : str
        The field.

    Returns
    -------
    str or None
        ``YYYY-MM-DD``; None when it is not a date.
    """
    text = clean_text(raw)
    if match := _ISO.search(text):
        return iso_date(*map(int, match.groups()))
    if match := _YYMMDD.match(text):
        year, month, day = map(int, match.groups())
        return iso_date(1900 + year if year >= 50 else 2000 + year, month, day)
    if (match := _MONTH_DAY_YEAR.search(text)) and match.group(1).lower() in MONTHS:
        return iso_date(int(match.group(3)), MONTHS[match.group(1).lower()], int(match.group(2)))
    if (match := _DAY_MONTH_YEAR.search(text)) and match.group(2).lower() in MONTHS:
        return iso_date(int(match.group(3)), MONTHS[match.group(2).lower()], int(match.group(1)))
    return None


def child_count(inner: str) -> int:
    r"""Count the child nodes (text runs, elements, comments) of an element whose content is ``inner``.

    Parameters
    ----------
    inner : str
        The element's content markup.

    Returns
    -------
    int
        The count.

    Examples
    --------
    >>> child_count("plain text"), child_count("<P>one</P>"), child_count("\n<P>one<P>two\n")
    (1, 1, 3)
    """
    count, position, stack = 0, 0, []
    for match in _NODE.finditer(inner):
        if not stack and match.start() > position:
            count += 1  # a text run before this node
        closing, name, self_closing = match.groups()
        name = (name or "").lower()
        if match.group(0).startswith("<!--"):
            count += not stack
        elif closing:
            if name in stack:  # close it and whatever is still open inside it
                del stack[len(stack) - 1 - stack[::-1].index(name) :]
        else:
            if stack and name == "p" and stack[-1] == "p":
                stack.pop()  # an HTML parser closes an open <p> at the next <p>
            count += not stack
            if not self_closing:
                stack.append(name)
        position = match.end()
    return count + (not stack and position < len(inner))


def authors_text(record: str) -> str:
    """Extract the text the authors' code extracts from one ``<DOC>`` record (see the module docstring).

    Parameters
    ----------
    record : str
        The record's markup.

    Returns
    -------
    str
        The text.
    """
    inner = {}
    for tag, pattern in _AUTHORS_ELEMENTS.items():
        match = pattern.search(record)
        inner[tag] = match.group(1) if match else None
    text = html_text(inner["HEADLINE"]) if inner["HEADLINE"] is not None else ""
    if inner["TEXT"] is not None:
        body = html_text(inner["TEXT"])
        text = body if child_count(inner["TEXT"]) == 1 else text + body
    for tag in ("GRAPHIC", "DATELINE", "CORRECTION"):
        if inner[tag] is not None:
            text += html_text(inner[tag])
    return text


def _parse(record: str, text_rule: str = "anserini") -> tuple[Document | None, str]:
    docno = _DOCNO.search(record)
    if docno is None:
        return None, "no <DOCNO>..</DOCNO>"
    doc_id = clean_text(docno.group(1))
    if not doc_id:
        return None, "empty <DOCNO>"
    rest = record[docno.end() :]
    empty = False
    if text_rule == "authors":
        raw = authors_text(record)
        empty = raw == ""
        text = " ".join(raw.split())
    else:
        text = clean_text(*(match.group(2) for match in _FIELDS.finditer(rest)))
    date = None
    for match in _DATE_FIELDS.finditer(rest):
        date = parse_date(match.group(2))
        if date:
            break
    return Document(doc_id=doc_id, text=text, date=date), "empty" if empty else ""


def read_trec_sgml(
    paths: str | Path | Iterable[str | Path],
    *,
    stats: ReadStats | None = None,
    text: str = "anserini",
    drop_empty: bool = False,
) -> Iterator[Document]:
    """Stream the ``<DOC>`` records of TREC SGML files (plain or ``.gz``; folders are walked).

    A file is read whole (the files of the disks and of AQUAINT are a few MB each), the corpus never
    is. A ``<DOC>`` without ``</DOC>`` or without ``<DOCNO>`` is skipped with a
    :class:`CorpusWarning` giving file and line; the reader goes on with the next record.

    Parameters
    ----------
    paths : str, path-like or iterable of them
        Files or folders (walked).
    stats : ReadStats, optional
        Updated as the stream is consumed.
    text : {"anserini", "authors"}
        The text rule (see the module docstring).
    drop_empty : bool, default False
        Pass over documents of empty text (counted in ``stats.empty``; the authors' code keeps them).

    Yields
    ------
    Document
        Each record.
    """
    check_text_rule(text)
    stats = stats if stats is not None else ReadStats()
    for path in discover(as_paths(paths), keep=_is_corpus_file, skip_dirs=_SKIP_DIRS):
        stats.files += 1
        with damage_named(path), open_text(path) as handle:
            content = handle.read()
        starts: list[int] | None = None
        open_at: int | None = None
        for match in _RECORD.finditer(content):
            if match.group(0) == "</DOC>":
                if open_at is None:
                    starts = starts or line_starts(content)
                    stats.report(path, line_of(starts, match.start()), "</DOC> without an opening <DOC>")
                    continue
                document, reason = _parse(content[open_at : match.start()], text)
                if reason == "empty":
                    if drop_empty:
                        stats.empty += 1
                        open_at = None
                        continue
                    reason = ""
                if document is None:
                    starts = starts or line_starts(content)
                    stats.report(path, line_of(starts, open_at), reason)
                else:
                    stats.documents += 1
                    yield document
                open_at = None
            else:
                if open_at is not None:
                    starts = starts or line_starts(content)
                    stats.report(path, line_of(starts, open_at), "<DOC> not closed before the next <DOC>")
                open_at = match.end()
        if open_at is not None:
            starts = starts or line_starts(content)
            stats.report(path, line_of(starts, open_at), "<DOC> not closed at the end of the file")
