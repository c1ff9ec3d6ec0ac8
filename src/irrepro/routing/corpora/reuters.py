"""Reader for Reuters-21578 (Lewis, Distribution 1.0): the SGML files ``reut2-000.sgm`` ... ``reut2-021.sgm``.

Each file holds up to 1,000 stories ``<REUTERS TOPICS=.. LEWISSPLIT=.. CGISPLIT=.. OLDID=.. NEWID=..>``
with ``<DATE>26-FEB-1987 15:01:01.79</DATE>``, ``<TOPICS><D>cocoa</D></TOPICS>`` and
``<TEXT><TITLE>..</TITLE><DATELINE>..</DATELINE><BODY>..</BODY></TEXT>``. ``<TEXT TYPE="BRIEF">``
stories have a title only; ``<TEXT TYPE="UNPROC">`` stories have no inner markup, and their whole
text is taken. The files are Latin-1 (one byte, 0xFC, is not ASCII), not XML-clean, and carry
``&#N;`` entities, most of them control characters of the wire format (``&#2;``, ``&#3;``,
``&#5;``...), which become spaces; ``&lt;`` and ``&amp;`` are decoded.

With ``text="authors"`` (the stand-in's analogue of the authors' code, which never read Reuters)
the text is the whole ``<TEXT>`` element as BeautifulSoup's ``.text`` gives it: ``TITLE``
(the headline's role), ``DATELINE`` (the dateline's) and ``BODY`` (the TREC ``<TEXT>``'s), in file
order -- the code's TREC rule HEADLINE + TEXT + DATELINE, and like its NYT rule every text node of
the story's text. The index fields (``PLACES``, ``PEOPLE``, ``ORGS``, ``EXCHANGES``, ``COMPANIES``)
stay out, and so do the ``TOPICS``: they are the stand-in's relevance labels.

The collection's README (section VIII.B, ``reuters21578/README.txt``) defines the ModApte split:
training = ``LEWISSPLIT="TRAIN"`` and ``TOPICS="YES"`` (9,603 stories), test =
``LEWISSPLIT="TEST"`` and ``TOPICS="YES"`` (3,299); the other 8,676 are unused. See
:func:`modapte_split`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._common import (
    MONTHS,
    CorpusFormatError,
    Document,
    ReadStats,
    as_paths,
    check_text_rule,
    clean_text,
    discover,
    html_text,
    iso_date,
    line_of,
    line_starts,
)

__all__ = ["read_reuters21578", "modapte_split"]

_RECORD = re.compile(r"<REUTERS\b([^>]*)>|</REUTERS>")
_ATTRIBUTE = re.compile(r'([A-Z-]+)="([^"]*)"')
_DATE = re.compile(r"<DATE>\s*(\d{1,2})-([A-Za-z]{3})-(\d{4})")
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.DOTALL)
_LABEL = re.compile(r"<D>(.*?)</D>", re.DOTALL)
_TEXT = re.compile(r"<TEXT\b([^>]*)>(.*?)</TEXT>", re.DOTALL)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.DOTALL)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.DOTALL)


def modapte_split(document: Document) -> str | None:
    """Give a story's part of the ModApte split (README VIII.B).

    Parameters
    ----------
    document : Document
        A Reuters-21578 story.

    Returns
    -------
    str or None
        ``"TRAIN"`` or ``"TEST"``; None for the unused stories.
    """
    if document.topics_flag == "YES" and document.split in ("TRAIN", "TEST"):
        return document.split
    return None


def _is_sgm(path: Path) -> bool:
    return path.name.lower().endswith(".sgm")


def _parse(body: str, attributes: dict[str, str], text_rule: str = "anserini") -> tuple[Document | None, str]:
    doc_id = attributes.get("NEWID", "").strip()
    if not doc_id:
        return None, "no NEWID attribute"
    date_match = _DATE.search(body)
    date = None
    if date_match:
        day, month, year = date_match.groups()
        month_number = MONTHS.get(month.lower())
        date = iso_date(int(year), month_number, int(day)) if month_number else None
    topics_match = _TOPICS.search(body)
    topics = tuple(clean_text(label) for label in _LABEL.findall(topics_match.group(1))) if topics_match else ()
    text_match = _TEXT.search(body)
    if text_match is None:
        return None, f"NEWID={doc_id}: no <TEXT> element"
    inner = text_match.group(2)
    title, main = _TITLE.search(inner), _BODY.search(inner)
    if text_rule == "authors":
        text = " ".join(html_text(inner).split())
    elif title is None and main is None:
        text = clean_text(inner)  # TYPE="UNPROC": unmarked text
    else:
        text = clean_text(title.group(1) if title else None, main.group(1) if main else None)
    return (
        Document(
            doc_id=doc_id,
            text=text,
            date=date,
            topics=topics,
            split=attributes.get("LEWISSPLIT") or None,
            topics_flag=attributes.get("TOPICS") or None,
        ),
        "",
    )


def read_reuters21578(
    paths: str | Path | Iterable[str | Path],
    *,
    stats: ReadStats | None = None,
    text: str = "anserini",
    drop_empty: bool = False,
) -> Iterator[Document]:
    """Stream the stories of Reuters-21578 SGML files (folders: every ``*.sgm`` inside).

    ``doc_id`` is the NEWID (1 ... 21578), ``text`` the title and body, ``date`` the ISO date of
    ``<DATE>``, ``topics`` the TOPICS categories, ``split`` the LEWISSPLIT attribute and
    ``topics_flag`` the TOPICS attribute. A story without ``</REUTERS>``, without NEWID or without
    ``<TEXT>`` is skipped with a :class:`CorpusWarning` giving file and line.

    Parameters
    ----------
    paths : str, path-like or iterable of them
        Files or folders.
    stats : ReadStats, optional
        Updated as the stream is consumed.
    text : {"anserini", "authors"}
        ``"anserini"`` (title and body, default) or ``"authors"`` (the whole ``<TEXT>``, see the
        module docstring).
    drop_empty : bool, default False
        Pass over stories of empty text (counted in ``stats.empty``).

    Yields
    ------
    Document
        Each story.

    Raises
    ------
    CorpusFormatError
        For a file that cannot be read.
    """
    check_text_rule(text)
    stats = stats if stats is not None else ReadStats()
    for path in discover(as_paths(paths), keep=_is_sgm):
        stats.files += 1
        try:
            content = path.read_bytes().decode("latin-1")
        except OSError as error:
            raise CorpusFormatError(f"{path}: cannot be read: {error}") from error
        starts: list[int] | None = None
        open_match = None
        for match in _RECORD.finditer(content):
            if match.group(0).startswith("</"):
                if open_match is None:
                    starts = starts or line_starts(content)
                    stats.report(path, line_of(starts, match.start()), "</REUTERS> without an opening tag")
                    continue
                attributes = dict(_ATTRIBUTE.findall(open_match.group(1)))
                document, reason = _parse(content[open_match.end() : match.start()], attributes, text)
                if document is None:
                    starts = starts or line_starts(content)
                    stats.report(path, line_of(starts, open_match.start()), reason)
                elif drop_empty and not document.text:
                    stats.empty += 1
                else:
                    stats.documents += 1
                    yield document
                open_match = None
            else:
                if open_match is not None:
                    starts = starts or line_starts(content)
                    stats.report(path, line_of(starts, open_match.start()), "<REUTERS> not closed before the next one")
                open_match = match
        if open_match is not None:
            starts = starts or line_starts(content)
            stats.report(path, line_of(starts, open_match.start()), "<REUTERS> not closed at the end of the file")
