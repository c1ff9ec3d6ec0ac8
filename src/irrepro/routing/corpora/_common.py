"""What every corpus reader shares: the document record, problem reporting, file discovery, text cleaning.

A reader turns files into a stream of :class:`Document`. Which text it takes is its ``text`` rule
(:data:`TEXT_RULES`): ``"anserini"``, irrepro's fields after Anserini's collection classes, or
``"authors"``, what the authors' code extracts (:func:`html_text` emulates the BeautifulSoup
``.text`` it reads). A document that cannot be parsed is never
dropped silently: it is reported with a :class:`CorpusWarning` naming the file and the position
(line number, or the member of a tar archive) and counted in a :class:`ReadStats`, and the reader
goes on with the next document. A file that cannot be opened or read to its end (missing, not in
the format its name promises, a truncated or corrupt ``.gz``) raises :class:`CorpusFormatError` or
:class:`FileNotFoundError` naming it: a corpus read in part would give a run on part of it.
"""

from __future__ import annotations

import gzip
import html
import os
import re
import warnings
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.entities import name2codepoint
from pathlib import Path
from typing import IO

#: the text rules of the readers: irrepro's fields ("anserini") or the authors' code's ("authors")
TEXT_RULES = ("anserini", "authors")

__all__ = [
    "TEXT_RULES",
    "Document",
    "CorpusFormatError",
    "iso_date",
    "CorpusWarning",
    "Problem",
    "ReadStats",
    "as_paths",
    "discover",
    "open_text",
    "damage_named",
    "clean_text",
    "decode_entities",
    "html_text",
    "check_text_rule",
    "line_starts",
    "line_of",
]


@dataclass(frozen=True)
class Document:
    """One document of a corpus, as the routing pipeline sees it.

    Parameters
    ----------
    doc_id : str
        The document's id.
    text : str
        Title/headline + body text, whitespace-normalised.
    date : str or None, default None
        ISO date (YYYY-MM-DD) when the format has one.
    topics : tuple of str, default ()
        Category labels (Reuters TOPICS); empty otherwise.
    split : str or None, default None
        Reuters LEWISSPLIT ("TRAIN", "TEST", "NOT-USED").
    topics_flag : str or None, default None
        Reuters TOPICS attribute ("YES", "NO", "BYPASS"), for ModApte.
    """

    doc_id: str
    text: str  # title/headline + body text, whitespace-normalised
    date: str | None = None  # ISO date (YYYY-MM-DD) when the format has one
    topics: tuple[str, ...] = ()  # category labels (Reuters TOPICS); empty otherwise
    split: str | None = None  # Reuters LEWISSPLIT ("TRAIN", "TEST", "NOT-USED")
    topics_flag: str | None = None  # Reuters TOPICS attribute ("YES", "NO", "BYPASS"), for ModApte


class CorpusFormatError(ValueError):
    """A corpus file cannot be read in the format asked for (the message names the file)."""


class CorpusWarning(UserWarning):
    """A malformed document was skipped; the message names the file and the position."""


@dataclass(frozen=True)
class Problem:
    """Where a skipped document was and why it was skipped.

    Parameters
    ----------
    source : str
        File path, or ``"archive.tgz[member.xml]"``.
    position : str
        ``"line 12"``, or ``""`` where the source is itself the position (a tar member).
    reason : str
        Why it was skipped.
    """

    source: str  # file path, or "archive.tgz[member.xml]"
    position: str  # "line 12", or "" where the source is itself the position (a tar member)
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.position}" if self.position else self.source
        return f"{where}: skipped malformed document: {self.reason}"


@dataclass
class ReadStats:
    """Counts kept while a reader runs: files opened, documents yielded, documents skipped.

    Pass one to a reader (``read_trec_sgml(paths, stats=stats)``); it is updated as the stream is
    consumed, so it is complete once the iterator is exhausted.

    Parameters
    ----------
    files : int, default 0
        Files opened.
    documents : int, default 0
        Documents yielded.
    problems : list of Problem, optional
        Documents skipped, with where and why.
    empty : int, default 0
        Well-formed documents passed over because their text is empty (``drop_empty=True``).
    """

    files: int = 0
    documents: int = 0
    problems: list[Problem] = field(default_factory=list)
    empty: int = 0  # well-formed documents passed over because their text is empty (drop_empty=True)

    @property
    def skipped(self) -> int:
        """The number of documents skipped."""
        return len(self.problems)

    def report(self, source: object, position: str, reason: str) -> None:
        """Record a skipped document and emit a :class:`CorpusWarning` for it.

        Parameters
        ----------
        source : object
            The file (or archive member).
        position : str
            Where in it (``"line 12"``), or ``""``.
        reason : str
            Why it was skipped.
        """
        problem = Problem(str(source), position, reason)
        self.problems.append(problem)
        warnings.warn(str(problem), CorpusWarning, stacklevel=3)


def as_paths(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Path]:
    """Give one path or several as a list of :class:`Path` (the list of *names*, not of documents).

    Parameters
    ----------
    paths : str, path-like or iterable of them
        The paths.

    Returns
    -------
    list of pathlib.Path
        The paths.
    """
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(path) for path in paths]


def discover(
    paths: Iterable[Path], *, keep: callable, skip_dirs: frozenset[str] = frozenset()
) -> Iterator[Path]:
    """Yield the files named by ``paths``; folders are walked recursively in sorted order.

    Parameters
    ----------
    paths : iterable of pathlib.Path
        Files or folders.
    keep : callable
        ``keep(path)`` decides which files found inside a folder are corpus files; a file named
        explicitly is always kept.
    skip_dirs : frozenset of str, default frozenset()
        Folders passed over (lower case); hidden files and folders are passed over too.

    Yields
    ------
    pathlib.Path
        Each file.

    Raises
    ------
    FileNotFoundError
        For a path that does not exist.
    """
    for path in paths:
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d.lower() not in skip_dirs)
                for name in sorted(files):
                    candidate = Path(root) / name
                    if not name.startswith(".") and keep(candidate):
                        yield candidate
        elif path.is_file():
            yield path
        else:
            raise FileNotFoundError(f"corpus path {path} does not exist")


def open_text(path: Path, *, encoding: str = "utf-8") -> IO[str]:
    """Open a plain or gzipped (``.gz``) text file; undecodable bytes become U+FFFD.

    Parameters
    ----------
    path : pathlib.Path
        The file.
    encoding : str, default "utf-8"
        The text encoding.

    Returns
    -------
    file object
        The file, open for reading text.

    Raises
    ------
    CorpusFormatError
        For a ``.gz`` that is not gzip, or a Unix-compressed (``.z``/``.Z``) file.
    """
    name = path.name.lower()
    if name.endswith(".gz"):
        with open(path, "rb") as probe:
            if probe.read(2) != b"\x1f\x8b":
                raise CorpusFormatError(f"{path}: named .gz but is not a gzip file")
        return gzip.open(path, "rt", encoding=encoding, errors="replace")
    if re.search(r"\.\d*z$", name) and not name.endswith(".gz"):
        raise CorpusFormatError(
            f"{path}: Unix-compressed (.z/.Z) files are not read; decompress them first "
            f"(e.g. `gunzip -S .z {path.name}` or `uncompress`)"
        )
    return open(path, encoding=encoding, errors="replace")


@contextmanager
def damage_named(path: Path) -> Iterator[None]:
    """Turn the errors of reading a damaged compressed file into a :class:`CorpusFormatError` naming it.

    gzip says ``EOFError: Compressed file ended before the end-of-stream marker was reached`` for a
    truncated file and ``BadGzipFile``/``zlib.error`` for corrupt bytes, never which file.

    Parameters
    ----------
    path : pathlib.Path
        The file being read.

    Yields
    ------
    None
        The block reading the file runs here.
    """
    try:
        yield
    except EOFError as error:
        raise CorpusFormatError(f"{path}: truncated: the compressed data ends before its end marker ({error}); "
                                "the file was cut short in a download or copy: fetch or copy it again") from error
    except (gzip.BadGzipFile, zlib.error) as error:
        raise CorpusFormatError(f"{path}: corrupt compressed data ({error}); fetch or copy the file again") from error


_TAG = re.compile(r"<[^>]*>")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_NUMERIC_ENTITY = re.compile(r"&#(x[0-9A-Fa-f]+|\d+);")
_NAMED_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
# SGML entities of the TREC disks (FR94) that HTML does not know; other unknown ones become a space.
_SGML_ENTITIES = {"hyph": "-", "blank": " ", "space": " ", "mdash": "--", "ndash": "-"}
# Control characters (C0, DEL, C1) become spaces; str.split() alone would keep most of them.
_CONTROLS = frozenset([*range(0, 32), *range(127, 160)])
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _numeric(match: re.Match[str]) -> str:
    value = match.group(1)
    code = int(value[1:], 16) if value[0] in "xX" else int(value)
    if code in _CONTROLS or code > 0x10FFFF:
        return " "
    return chr(code)


def _named(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _SGML_ENTITIES:
        return _SGML_ENTITIES[name]
    decoded = html.unescape(match.group(0))
    return " " if decoded == match.group(0) else decoded


def decode_entities(text: str) -> str:
    """Decode ``&#N;``/``&#xN;`` (control characters become a space), HTML and TREC SGML entities.

    An entity nobody knows becomes a space rather than a token such as ``hyph``.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    str
        The decoded text.
    """
    if "&" not in text:
        return text
    return _NAMED_ENTITY.sub(_named, _NUMERIC_ENTITY.sub(_numeric, text))


def clean_text(*parts: str | None) -> str:
    """Join markup fragments into one whitespace-normalised string.

    Comments and tags are removed (a tag becomes a space, so words either side stay apart), then
    entities are decoded, control characters turned into spaces and runs of whitespace collapsed.

    Parameters
    ----------
    *parts : str or None
        The fragments (None ones are left out).

    Returns
    -------
    str
        The text.
    """
    pieces = []
    for part in parts:
        if not part:
            continue
        if "<" in part:
            part = _TAG.sub(" ", _COMMENT.sub(" ", part))
        pieces.append(decode_entities(part))
    return " ".join(_CONTROL.sub(" ", " ".join(pieces)).split())


def check_text_rule(text: str) -> None:
    """Check that ``text`` is one of :data:`TEXT_RULES`.

    Parameters
    ----------
    text : str
        The text rule.

    Raises
    ------
    ValueError
        Unless it is.
    """
    if text not in TEXT_RULES:
        raise ValueError(f"text must be one of {TEXT_RULES}, not {text!r}")


_MARKUP_TAG = re.compile(r"<[A-Za-z/!?][^>]*>")
_HTML_REFERENCE = re.compile(r"&(?:#([xX][0-9A-Fa-f]+|[0-9]+);?|([A-Za-z][A-Za-z0-9]*)(;?))")


def _xml_char(code: int) -> bool:
    return code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF


def _html4_reference(match: re.Match[str]) -> str:
    number, name, semicolon = match.groups()
    if name is not None:
        code = name2codepoint.get(name) if semicolon else None
        return chr(code) if code is not None else "&" + name
    code = int(number[1:], 16) if number[0] in "xX" else int(number)
    return chr(code) if _xml_char(code) else ""


def html_text(markup: str) -> str:
    """Emulate the text the authors' code reads from a fragment: ``BeautifulSoup(markup, "lxml").text``.

    Comments and tags vanish without a separator (the text nodes are simply concatenated); character
    references are decoded as libxml2's HTML parser does: the HTML 4 entity names, an unknown name
    left as ``&name`` (its ``;`` dropped), a reference to a character XML forbids (``&#2;``) gone.
    Whitespace is kept as it is.

    Parameters
    ----------
    markup : str
        The fragment.

    Returns
    -------
    str
        Its text.

    Examples
    --------
    >>> html_text("<P>Oil&amp;gas</P><P>up&hyph;3%</P><!-- PJG -->&#2;")
    'Oil&gasup&hyph3%'
    """
    if "<" in markup:
        markup = _MARKUP_TAG.sub("", _COMMENT.sub("", markup))
    if "&" in markup:
        markup = _HTML_REFERENCE.sub(_html4_reference, markup)
    return markup


def line_starts(text: str) -> list[int]:
    """Give the offsets at which the lines of ``text`` start (for turning offsets into line numbers).

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of int
        The offsets, the first 0.
    """
    starts = [0]
    position = text.find("\n")
    while position != -1:
        starts.append(position + 1)
        position = text.find("\n", position + 1)
    return starts


def line_of(starts: list[int], offset: int) -> str:
    """Give the 1-based line number of ``offset``, as a position string.

    Parameters
    ----------
    starts : list of int
        :func:`line_starts` of the text.
    offset : int
        An offset in the text.

    Returns
    -------
    str
        ``"line N"``.
    """
    from bisect import bisect_right

    return f"line {bisect_right(starts, offset)}"


MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"), ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}


def iso_date(year: int, month: int, day: int) -> str | None:
    """Write ``YYYY-MM-DD`` when the triple is a calendar date.

    Parameters
    ----------
    year, month, day : int
        The date's parts.

    Returns
    -------
    str or None
        The ISO date; None when it is not a calendar date.
    """
    import datetime

    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return None
