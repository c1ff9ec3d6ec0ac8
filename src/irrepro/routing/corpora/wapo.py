"""Reader for the TREC Washington Post Collection v2 (Core18): one JSON object per line.

Each line has ``id``, ``title``, ``published_date`` (milliseconds since the epoch, UTC; null for a
few articles) and ``contents``, a list of typed blocks (``{"type": "sanitized_html", "content":
"<p>..</p>", "subtype": "paragraph"}``, ``"kicker"``, ``"title"``, ``"byline"``, ``"date"``,
``"image"``, ``"tweet"``, ``"video"``...). The text taken follows Anserini's
``WashingtonPostCollection`` (castorini/anserini, ``src/main/java/io/anserini/collection/
WashingtonPostCollection.java``): the ``content`` of the ``sanitized_html`` and ``tweet`` blocks,
with tags removed, preceded here by the article's ``title`` (Anserini indexes the title as a
separate field; the routing pipeline has one text). Kicker, byline and captions are left out.
HTML entities in the blocks are decoded. Blocks whose ``content`` is not a string are ignored.

With ``text="authors"`` the text is what the authors' code reads (``raw_text_from_wapo`` in
``core/data_preparation.py`` of irgroup/sigir2020-measure-reproducibility @ 3b4e760, lines 171-201;
breuert/centre19, lines 146-176): for every block of ``contents`` in order that has a ``content``
value, ``BeautifulSoup(content).text`` followed by a newline -- kicker, title, byline, paragraphs,
tweets and whatever else has a string ``content`` (the date block's number makes BeautifulSoup
raise, which the code passes over; the article's top-level ``title`` is not read, its ``title``
block is). An article without such a block has an empty text and is kept (the code writes an
empty file for it).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._common import (
    Document,
    ReadStats,
    as_paths,
    check_text_rule,
    clean_text,
    damage_named,
    discover,
    html_text,
    open_text,
)

__all__ = ["read_wapo", "TEXT_BLOCK_TYPES"]

TEXT_BLOCK_TYPES = frozenset({"sanitized_html", "tweet"})
_SUFFIXES = (".jl", ".jsonl", ".json", ".txt")


def _is_corpus_file(path: Path) -> bool:
    name = path.name.lower().removesuffix(".gz")
    return name.endswith(_SUFFIXES)


def _date(milliseconds: object) -> str | None:
    if isinstance(milliseconds, bool) or not isinstance(milliseconds, (int, float)):
        return None
    try:
        moment = datetime.datetime.fromtimestamp(milliseconds / 1000, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.date().isoformat()


def _authors_text(contents: list) -> str:
    """The code's text: every block's string ``content`` through BeautifulSoup's ``.text``, one per line."""
    parts = [
        html_text(block["content"]) + "\n"
        for block in contents
        if isinstance(block, dict) and isinstance(block.get("content"), str)
    ]
    return " ".join("".join(parts).split())


def _parse(line: str, text_rule: str = "anserini") -> tuple[Document | None, str]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        return None, f"invalid JSON ({error.msg} at column {error.colno})"
    if not isinstance(record, dict):
        return None, "not a JSON object"
    doc_id = record.get("id")
    if not isinstance(doc_id, str) or not doc_id.strip():
        return None, "no string 'id'"
    contents = record.get("contents") or []
    if not isinstance(contents, list):
        return None, f"id {doc_id}: 'contents' is not a list"
    if text_rule == "authors":
        text = _authors_text(contents)
    else:
        blocks = [
            block["content"]
            for block in contents
            if isinstance(block, dict) and block.get("type") in TEXT_BLOCK_TYPES and isinstance(block.get("content"), str)
        ]
        title = record.get("title") if isinstance(record.get("title"), str) else None
        text = clean_text(title, *blocks)
    return Document(doc_id=doc_id.strip(), text=text, date=_date(record.get("published_date"))), ""


def read_wapo(
    paths: str | Path | Iterable[str | Path],
    *,
    stats: ReadStats | None = None,
    text: str = "anserini",
    drop_empty: bool = False,
) -> Iterator[Document]:
    """Stream the articles of Washington Post JSON-lines files (plain or ``.gz``; folders are walked).

    A line that is not a JSON object with a string ``id`` is skipped with a :class:`CorpusWarning`
    giving file and line number; blank lines are ignored.

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
        Each article.

    Raises
    ------
    CorpusFormatError
        For a truncated or corrupt ``.gz``, naming the file.
    """
    check_text_rule(text)
    stats = stats if stats is not None else ReadStats()
    for path in discover(as_paths(paths), keep=_is_corpus_file):
        stats.files += 1
        with damage_named(path), open_text(path) as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                document, reason = _parse(line, text)
                if document is None:
                    stats.report(path, f"line {number}", reason)
                elif drop_empty and not document.text:
                    stats.empty += 1
                else:
                    stats.documents += 1
                    yield document
