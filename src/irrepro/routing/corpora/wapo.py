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
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._common import Document, ReadStats, as_paths, clean_text, discover, open_text

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
        moment = datetime.datetime.fromtimestamp(milliseconds / 1000, tz=datetime.timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.date().isoformat()


def _parse(line: str) -> tuple[Document | None, str]:
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
    blocks = [
        block["content"]
        for block in contents
        if isinstance(block, dict) and block.get("type") in TEXT_BLOCK_TYPES and isinstance(block.get("content"), str)
    ]
    title = record.get("title") if isinstance(record.get("title"), str) else None
    return (
        Document(doc_id=doc_id.strip(), text=clean_text(title, *blocks), date=_date(record.get("published_date"))),
        "",
    )


def read_wapo(paths: str | Path | Iterable[str | Path], *, stats: ReadStats | None = None) -> Iterator[Document]:
    """Stream the articles of Washington Post JSON-lines files (plain or ``.gz``; folders are walked).

    A line that is not a JSON object with a string ``id`` is skipped with a :class:`CorpusWarning`
    giving file and line number; blank lines are ignored.
    """
    stats = stats if stats is not None else ReadStats()
    for path in discover(as_paths(paths), keep=_is_corpus_file):
        stats.files += 1
        with open_text(path) as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                document, reason = _parse(line)
                if document is None:
                    stats.report(path, f"line {number}", reason)
                else:
                    stats.documents += 1
                    yield document
