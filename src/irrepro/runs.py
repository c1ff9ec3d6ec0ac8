"""TREC run and qrels files in and out, with trec_eval's semantics.

A **run** file has six columns per line::

    topic  Q0  docno  rank  score  tag
    301    Q0  FR940202-2-00150  104  2.129133  STANDARD

and a **qrels** file four::

    topic  iteration  docno  relevance
    301    0          CR93E-1282  1

:func:`read_run` and :func:`read_qrels` turn them into tidy pandas frames, :func:`write_run`
writes a run back.  :class:`RunStream` reads a run chunk by chunk, for evaluating runs whose
lines are too many to hold at once (``irrepro evaluate`` does; :mod:`irrepro.run_dicts`).

Ranking semantics (those of trec_eval, ``form_res_rels.c``)
-----------------------------------------------------------
Within a topic, documents are ordered by **score descending**; documents with equal scores
are ordered by **docno descending** (byte-wise string comparison, as ``strcmp``).  The file's
rank column and the order of its lines are **ignored**.  The ``rank`` column of the frame
returned by :func:`read_run` is this order (1-based), and :func:`write_run` writes ranks
1..n in the same order, so a written run means to trec_eval what the frame says.

What a line is (one definition for every path)
----------------------------------------------
The rules follow trec_eval's readers (``get_trec_results.c``, ``get_qrels.c``); where
trec_eval would read a text differently from what it plainly says, the text is refused.

- **Input**: bytes in UTF-8: a file, a FIFO, ``/dev/stdin`` or ``/dev/fd/N`` (``<(...)``),
  ``"-"`` for standard input, or an open binary file (:class:`irrepro.sources.Source`: what can
  be read only once is read once, into memory; a regular file is read in chunks).  A UTF-8
  byte-order mark at the very start is dropped (trec_eval would make it part of the first
  topic).
- **Lines** end at ``\\n``; a ``\\r`` just before it (CRLF) or at the very end of the input
  belongs to the line end.  Blank lines are skipped.
- **Fields** are separated by runs of blanks, tabs, vertical tabs and form feeds: the
  characters C's ``isspace()`` gives trec_eval within a line.  Leading and trailing ones are
  ignored.  Every other character, ``"`` included, is part of a field (no quoting).
- A line whose first field starts with ``#`` is a **comment**, skipped (trec_eval >= 9.0.8;
  its qrels reader only at the very start of a line).
- A **run** line has six fields; text after the sixth is ignored, as trec_eval does.  A
  **qrels** line has exactly four.
- A **score** is a plain decimal number, ``[+-]`` digits, an optional ``.`` and digits (``5.``
  and ``.5`` too), an optional exponent ``e[+-]digits``, or ``inf``/``infinity`` with an
  optional sign, in any case: the texts that trec_eval (C's ``atof``) and Python read as the
  same number.  Beyond the float range it is ``±inf``, below it ``0``, as in both.
- A **relevance grade** is an integer in the 64-bit range (``-1``, ``+2``, ``007``), or one
  written with a decimal point and zeros only (``1.0``, ``2.``), which trec_eval's ``atol``
  reads as the same integer.  A grade >= 1 means relevant (trec_eval's default level).
- The second column (``Q0`` / iteration) and the rank column are not checked: trec_eval
  never reads them.

The ir_metadata header
----------------------
A run may begin with an ir_metadata header (:mod:`irrepro.metadata`): a ``# ir_metadata.start``
line, YAML lines each behind ``#``, a ``# ir_metadata.end`` line.  It is read before the lines
(its YAML follows YAML's rules, not a run line's), checked against the schema's fields and kept
with the frame: :func:`run_metadata` (``frame.attrs["ir_metadata"]``, a read-only
:class:`~irrepro.metadata.Metadata`).  trec_eval skips its lines as comments, so it changes no
score.  Refused with :class:`RunFormatError` naming the line (and the field): malformed YAML, a
field of the wrong kind, a header never closed, a line inside it without ``#``, and a header that
is not at the top (a start or end line anywhere but in a header beginning on line 1: repro_eval
reads a header only there).  :func:`write_run` writes one with ``metadata=``.

Accepted with a ``warnings.warn`` saying what was ignored: comment lines, text after a run
line's sixth column, and a run with several run tags (trec_eval reports the tag of the last
line, so do we).

Refused with :class:`RunFormatError`, whose message is ``SOURCE, line N: problem``:

- bytes that are not UTF-8;
- a NUL character (trec_eval stops reading at the first one: the rest would be lost);
- a ``\\r`` not followed by ``\\n`` (trec_eval does not end a line there; other tools do);
- a byte-order mark after the start (files joined with ``cat``): it would become part of a
  topic or docno;
- any other character Unicode calls white space: no-break space, the spaces
  U+2000..U+200A, U+1680, U+202F, U+205F, U+3000, next line U+0085, the line and paragraph
  separators U+2028/U+2029 and the information separators U+001C..U+001F.  trec_eval reads
  them as part of a field, Python's ``str.split`` (and the eye) as a separator;
- a score or grade in any other notation; the message says what trec_eval would have read:
  ``1_0`` (trec_eval 1, Python 10), ``1.5abc`` (1.5), ``0x1p3`` (8), ``high`` (0), ``nan``
  (not rankable), a grade ``1e3`` (1) or ``0.5`` (0), a grade beyond 64 bits;
- a line with too few fields, a qrels line with more than four, a document twice in one
  topic, input without any run or qrels line.

Lines are checked in order and the first bad one is reported; duplicates and an empty input
are found after the last line.

One definition, two paths
-------------------------
``_reference_lines`` with ``_score`` and ``_grade`` *is* the definition; the
line-by-line readers built on it are the reference.  A clean input (printable characters,
blanks and tabs, LF or CRLF line ends) is first given to pandas' C parser (a whole read_run
is about three times faster; ``benchmarks/bench_evaluation.py``), whose result is then
checked with vectorised tests.  Wherever pandas might read the input differently (any other
character, a comment, a short or long line, a number pandas rejects, NaN, scores that are
all 0 or 1, which pandas also reads from the words true/false, a grade not in plain integer
notation, a duplicate) the input goes to the reference, which reads it or says where it is
wrong.

A run is read in chunks of whole lines (about :data:`irrepro.sources.CHUNK_BYTES` bytes; an input
of up to twice that, a run of about 50,000 lines, in one), each chunk by one path or the other, its lines numbered as in the whole input; a duplicate and an
empty run are checked on the whole.  ``tests/test_runs_properties.py`` checks on generated
inputs that both paths, whole or in chunks of any size, and :class:`RunStream` give the same
frame, the same warnings, or the same error.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import os
import re
import unicodedata
import warnings
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pandas as pd

from irrepro.metadata import (
    END_LINE,
    START_LINE,
    Metadata,
    MetadataError,
    header_lines,
    merged,
    parse_header,
    parse_yaml,
    with_tag,
)
from irrepro.outputs import atomic_open, atomic_write_bytes, atomic_write_text
from irrepro.run_dicts import block_starts, repeats_within_blocks
from irrepro.sources import Source
from irrepro.string_order import string_codes
from irrepro.validation import Fields, FilePath, Optional, RunFrame, Text, validate_params

__all__ = ["RunFormatError", "METADATA_ATTR", "read_run", "RunStream", "read_qrels", "write_run", "run_metadata",
           "rank_by_score", "in_trec_eval_order", "qrels_sha256", "read_metadata_file", "read_metadata", "annotate_run",
           "as_run_frame", "edit_run"]

RUN_COLUMNS = ("query_id", "doc_id", "score", "rank", "run")
QRELS_COLUMNS = ("query_id", "iteration", "doc_id", "relevance")


class RunFormatError(ValueError):
    """A run or qrels file is malformed; the message names the file, the line and the problem."""


#: The key of ``frame.attrs`` under which :func:`read_run` keeps a run's ir_metadata header.
METADATA_ATTR = "ir_metadata"


def run_metadata(frame: pd.DataFrame) -> Metadata | None:
    """Give the ir_metadata header :func:`read_run` found at the top of the run's file.

    A frame derived from the read one (filtered, re-ranked) still carries it, as pandas carries
    ``attrs``; whether it still describes that frame is the caller's to judge.

    Parameters
    ----------
    frame : pandas.DataFrame
        A run frame, as :func:`read_run` returns it (or one derived from it).

    Returns
    -------
    Metadata or None
        The header, kept in ``frame.attrs[METADATA_ATTR]``; ``None`` without one.
    """
    return frame.attrs.get(METADATA_ATTR)


# --------------------------------------------------------------------------- ranking


def rank_by_score(frame: pd.DataFrame) -> pd.DataFrame:
    """Sort ``frame`` into trec_eval order and set a 1-based ``rank`` per topic.

    Order: ``query_id`` ascending, then ``score`` descending, ties by ``doc_id`` descending.
    Any existing ``rank`` column is replaced.

    Parameters
    ----------
    frame : pandas.DataFrame
        A run frame with columns ``query_id``, ``doc_id`` and ``score``.

    Returns
    -------
    pandas.DataFrame
        A new frame with a fresh index, in that order, with the new ``rank`` column.
    """
    ordered = _rank_if_ordered(frame)
    if ordered is not None:
        return ordered
    # Integer codes in string order (``factorize(sort=True)``) make a numeric lexsort possible.
    # Documents are only compared where scores tie, so only tied documents' ids are sorted
    # as strings: several times faster than sorting all ids.
    topic_codes, _ = pd.factorize(frame["query_id"], sort=True)
    scores = frame["score"].to_numpy(dtype="float64")
    order = np.lexsort((-scores, topic_codes))
    same = (topic_codes[order][1:] == topic_codes[order][:-1]) & (scores[order][1:] == scores[order][:-1])
    if same.any():
        tied = np.zeros(len(order), dtype=bool)
        tied[order[1:][same]] = True
        tied[order[:-1][same]] = True
        doc_codes = np.zeros(len(order), dtype="int64")
        doc_codes[tied] = string_codes(frame["doc_id"].to_numpy()[tied])
        order = np.lexsort((-doc_codes, -scores, topic_codes))
    ordered = frame.iloc[order].reset_index(drop=True)
    sorted_topics = topic_codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_topics[1:] != sorted_topics[:-1]])
    lengths = np.diff(np.r_[starts, len(order)])
    ordered["rank"] = (np.arange(len(order)) - np.repeat(starts, lengths) + 1).astype("int64")
    return ordered


def in_trec_eval_order(frame: pd.DataFrame) -> bool:
    """Tell whether ``frame``'s rows and ``rank`` column already are :func:`rank_by_score`'s order.

    Topics in string order, each one block of rows ranked 1..n, scores descending, ties by docno
    descending: true of every frame :func:`read_run` returns, so that a caller can skip re-ranking
    it (a few vectorised comparisons instead of a copy).

    Parameters
    ----------
    frame : pandas.DataFrame
        A run frame with columns ``query_id``, ``doc_id``, ``score`` and ``rank``.

    Returns
    -------
    bool
        True if re-ranking would change neither the row order nor ``rank``.
    """
    if "rank" not in frame.columns or len(frame) == 0:
        return False
    topics = frame["query_id"].to_numpy()
    scores = frame["score"].to_numpy(dtype="float64")
    ranks = frame["rank"].to_numpy()
    same = topics[1:] == topics[:-1]
    heads = topics[np.flatnonzero(np.r_[True, ~same])].tolist()
    if not all(isinstance(head, str) for head in heads) or any(a >= b for a, b in itertools.pairwise(heads)):
        return False  # topics in one block each, blocks in string order (as factorize(sort=True) orders them)
    if ranks[0] != 1:
        return False
    if not np.array_equal(ranks[1:], np.where(same, ranks[:-1] + 1, 1)):
        return False
    if not (scores[1:][same] <= scores[:-1][same]).all():  # NaN fails too
        return False
    tied = np.flatnonzero(same & (scores[1:] == scores[:-1]))
    docs = frame["doc_id"].to_numpy()
    # One comparison of the two object arrays: Python's ">" per pair, without a Python loop.
    return bool(np.greater(docs[tied], docs[tied + 1]).all())


def _rank_if_ordered(frame: pd.DataFrame) -> pd.DataFrame | None:
    """:func:`rank_by_score`'s result when each topic of ``frame`` is one block sorted by score, else ``None``.

    Most run files are written that way (each topic one block, scores descending); checking it
    with a few vectorised comparisons is much cheaper than sorting. The sort in
    :func:`rank_by_score` is stable, so for such a frame it only puts the blocks in string order of
    their topics (as ``factorize(sort=True)`` orders them) and reorders the runs of tied scores (by
    docno descending): that is done here, the rest stays in place.
    """
    topics = frame["query_id"].to_numpy()
    n = len(topics)
    if n == 0 or topics.dtype != object:
        return None
    starts = _topic_blocks(topics)
    if starts is None:
        return None
    heads = topics[starts].tolist()
    if not all(isinstance(head, str) for head in heads):
        return None
    scores = frame["score"].to_numpy(dtype="float64")
    new_topic = np.zeros(n, dtype=bool)
    new_topic[starts] = True
    same_topic = ~new_topic[1:]
    if not (scores[1:][same_topic] <= scores[:-1][same_topic]).all():  # NaN fails too
        return None
    lengths = np.diff(np.r_[starts, n])
    order = None
    if any(a >= b for a, b in itertools.pairwise(heads)):
        # Blocks out of string order: move whole blocks (heads are distinct, so sorted() is strict).
        block_order = np.array(sorted(range(len(heads)), key=heads.__getitem__), dtype=np.intp)
        sorted_lengths = lengths[block_order]
        order = np.repeat(starts[block_order] - (np.cumsum(sorted_lengths) - sorted_lengths), sorted_lengths)
        order += np.arange(n)
        starts = np.cumsum(sorted_lengths) - sorted_lengths
        lengths = sorted_lengths
    tied = np.flatnonzero(same_topic & (scores[1:] == scores[:-1]))
    if len(tied):
        # Rows with equal topic and score form contiguous runs; order each run by docno
        # descending with the same codes and the same stable sort as rank_by_score.
        tied_with_previous = np.zeros(n, dtype=bool)
        tied_with_previous[tied + 1] = True
        in_tie = tied_with_previous.copy()
        in_tie[tied] = True
        rows = np.flatnonzero(in_tie)
        tie_run = np.cumsum(~tied_with_previous)[rows]
        doc_codes = string_codes(frame["doc_id"].to_numpy()[rows])
        within = np.arange(n)
        within[rows] = rows[np.lexsort((-doc_codes, tie_run))]
        # Ties were found in file order; blocks move as a whole, so the reordering moves with them.
        order = within if order is None else within[order]
    ordered = frame.reset_index(drop=True) if order is None else frame.iloc[order].reset_index(drop=True)
    ordered["rank"] = (np.arange(n) - np.repeat(starts, lengths) + 1).astype("int64")
    return ordered


# --------------------------------------------------------------------------- what a line is

_BOM = "\ufeff"
# What Unicode (str.isspace) calls white space but C's isspace() does not: trec_eval keeps these
# inside a field, Python's str.split() separates there. tests check the list against str.isspace.
_UNICODE_SPACES = (
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
# Refused anywhere in a line (after its CRLF's \r is removed): those spaces, NUL, a bare \r, a
# byte-order mark, and the lone surrogates that stand for bytes that are not UTF-8.
_REFUSED = re.compile("[\x00\r" + _BOM + _UNICODE_SPACES + "\udc80-\udcff]")
# What write_run may not write into a field: white space splits it, the rest is refused.
_UNWRITABLE = re.compile("[\\s\x00" + _BOM + "\udc80-\udcff]")
_CONTROL_NAMES = {
    "\x1c": "information separator four",
    "\x1d": "information separator three",
    "\x1e": "information separator two",
    "\x1f": "information separator one",
    "\x85": "next line",
}


def _reference_lines(data: bytes, source: str, *, first_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """The one definition of a line: yield ``(line number, fields)``, ``[]`` for a blank line.

    ``data`` is the input or a chunk of it (:class:`irrepro.sources.Source`) whose first line is
    ``first_line``; only the input's start (line 1) may hold a byte-order mark.  Raises
    :class:`RunFormatError` at the first line holding a refused character.  Once those are
    refused, ``str.split()`` splits on exactly blank, tab, vertical tab and form feed.
    """
    text = data.decode("utf-8", "surrogateescape")
    if first_line == 1:
        text = text.removeprefix(_BOM)
    for number, line in enumerate(text.split("\n"), start=first_line):
        line = line.removesuffix("\r")
        refused = _REFUSED.search(line)
        if refused:
            raise RunFormatError(f"{source}, line {number}: {_refusal(line, refused.start())}")
        yield number, line.split()


def _refusal(line: str, index: int) -> str:
    """Why the character ``line[index]`` is refused."""
    char, where = line[index], f"at character {index + 1}"
    if "\udc80" <= char <= "\udcff":
        try:
            line.encode("utf-8", "surrogateescape").decode("utf-8")
        except UnicodeDecodeError as error:
            return f"not valid UTF-8 ({error.reason})"
    if char == "\x00":
        return f"a NUL character {where}; trec_eval stops reading at the first NUL"
    if char == "\r":
        return (
            f"a carriage return (\\r) not followed by a line feed {where}; trec_eval ends "
            "lines at \\n only and would read this line and the next as one"
        )
    if char == _BOM:
        return (
            f"a byte-order mark (U+FEFF) {where}, not at the start of the input (files joined "
            "with cat?); it would become part of a field"
        )
    name = _CONTROL_NAMES.get(char) or unicodedata.name(char).lower()
    return (
        f"a {name} (U+{ord(char):04X}) {where}; trec_eval reads it as part of a field, "
        "Python and the eye as a separator: replace it by a blank or remove it"
    )


# Numbers: the texts trec_eval's atof/atol and Python read as the same number (module docstring).
_PLAIN_DECIMAL = re.compile(
    r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|[+-]?inf(?:inity)?", re.ASCII | re.IGNORECASE
)
_INTEGRAL = re.compile(r"[+-]?\d+(?:\.0*)?", re.ASCII)
# The longest prefix C's strtod reads (glibc): decimal, hexadecimal, inf, nan.
_STRTOD_PREFIX = re.compile(
    r"[+-]?(?:0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?\d+)?|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?"
    r"|inf(?:inity)?|nan(?:\(\w*\))?)",
    re.ASCII | re.IGNORECASE,
)
_STRTOL_PREFIX = re.compile(r"[+-]?\d+", re.ASCII)
_INT64 = (-(2**63), 2**63 - 1)


def _score(text: str) -> float:
    """A score field's value, or ``ValueError`` saying what trec_eval would read instead."""
    if _PLAIN_DECIMAL.fullmatch(text):
        return float(text)
    read = _as_atof(text)
    why = "NaN cannot be ranked" if math.isnan(read) else "not in plain decimal notation"
    raise ValueError(f"score {text!r} is not a number: {why} (trec_eval would read it as {read!r})")


def _grade(text: str) -> int:
    """A relevance field's value, or ``ValueError`` saying what trec_eval would read instead."""
    if _INTEGRAL.fullmatch(text):
        value = _bounded_int(text.partition(".")[0])
        if value is not None:
            return value
        why = "is out of range: beyond 64-bit integers"
    else:
        why = "is not an integer"
    raise ValueError(f"relevance grade {text!r} {why} (trec_eval would read it as {_as_atol(text)})")


def _bounded_int(digits: str) -> int | None:
    """``int(digits)`` if it is a 64-bit integer, else ``None`` (never int()'s 4300-digit error)."""
    if len(digits.lstrip("+-").lstrip("0")) > 19:
        return None
    value = int(digits)
    return value if _INT64[0] <= value <= _INT64[1] else None


def _as_atof(text: str) -> float:
    """What C's ``atof`` (``strtod``) reads from ``text``: its longest number prefix, else 0."""
    prefix = _STRTOD_PREFIX.match(text)
    if prefix is None:
        return 0.0
    number = prefix.group()
    body = number.lstrip("+-").lower()
    if body.startswith("nan"):
        return math.nan
    if body.startswith("0x"):
        try:
            return float.fromhex(number)
        except OverflowError:
            return -math.inf if number.startswith("-") else math.inf
    return float(number)


def _as_atol(text: str) -> int:
    """What C's ``atol`` (``strtol``, 64-bit) reads from ``text``: clamped at the bounds."""
    prefix = _STRTOL_PREFIX.match(text)
    if prefix is None:
        return 0
    value = _bounded_int(prefix.group())
    if value is None:
        return _INT64[0] if prefix.group().startswith("-") else _INT64[1]
    return value


def _field(parse, text: str, source: str, number: int):
    """``parse(text)``, its ``ValueError`` as a :class:`RunFormatError` naming source and line."""
    try:
        return parse(text)
    except ValueError as error:
        raise RunFormatError(f"{source}, line {number}: {error}") from None


# --------------------------------------------------------------------------- reference readers


@dataclass
class _Ignored:
    """What a reader skipped, to be reported in one warning."""

    comment_lines: list[int] = field(default_factory=list)
    trailing_text_lines: list[int] = field(default_factory=list)

    def extend(self, other: _Ignored) -> None:
        self.comment_lines += other.comment_lines
        self.trailing_text_lines += other.trailing_text_lines

    def warn(self, source: str, *, stacklevel: int) -> None:
        parts = []
        if self.comment_lines:
            parts.append(
                f"{len(self.comment_lines)} comment line(s) starting with '#' ({_lines(self.comment_lines)})"
            )
        if self.trailing_text_lines:
            parts.append(
                f"text after the sixth column on {len(self.trailing_text_lines)} line(s) "
                f"({_lines(self.trailing_text_lines)}), as trec_eval does"
            )
        if parts:
            warnings.warn(f"{source}: ignored " + "; ".join(parts), UserWarning, stacklevel=stacklevel + 1)


def _lines(numbers: list[int], limit: int = 5) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    more = f", ... ({len(numbers) - limit} more)" if len(numbers) > limit else ""
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{more}"


def _check_duplicates(keys, numbers, source: str, what: str) -> None:
    seen: dict[tuple[str, str], int] = {}
    for key, number in zip(keys, numbers, strict=True):
        if key in seen:
            raise RunFormatError(
                f"{source}, line {number}: document {key[1]} appears twice in topic {key[0]} "
                f"(first on line {seen[key]}); a {what} may hold each document once per topic"
            )
        seen[key] = number


@dataclass
class _RunLines:
    """The run lines of an input or of a chunk of it, as one of the two paths read them.

    ``frame`` has columns ``query_id``, ``doc_id``, ``score`` in line order; ``numbers`` are the
    lines' numbers (the reference keeps them, the fast path does not); ``tags`` the distinct run
    tags in order of appearance, ``last_tag`` that of the last line (``None`` without lines).
    Neither a duplicate nor an empty run is checked: both are known only for the whole input.
    """

    frame: pd.DataFrame
    numbers: Sequence[int] | None
    tags: list[str]
    last_tag: str | None
    ignored: _Ignored


def _read_run_reference(data: bytes, source: str, *, first_line: int = 1) -> _RunLines:
    """Parse run lines one by one: the reference (``first_line``: the number of the first line)."""
    ignored = _Ignored()
    query_ids, doc_ids, scores, tags, numbers = [], [], [], [], []
    for number, fields in _reference_lines(data, source, first_line=first_line):
        if not fields:
            continue
        if fields[0].startswith("#"):
            ignored.comment_lines.append(number)
            continue
        if len(fields) < 6:
            raise RunFormatError(
                f"{source}, line {number}: expected 6 columns (topic Q0 docno rank score tag), "
                f"found {len(fields)}"
            )
        if len(fields) > 6:
            ignored.trailing_text_lines.append(number)
        query_ids.append(fields[0])
        doc_ids.append(fields[2])
        scores.append(_field(_score, fields[4], source, number))
        tags.append(fields[5])
        numbers.append(number)
    frame = pd.DataFrame(
        {
            "query_id": pd.array(query_ids, dtype="str"),
            "doc_id": pd.array(doc_ids, dtype="str"),
            "score": np.asarray(scores, dtype="float64"),
        }
    )
    return _RunLines(frame, numbers, list(dict.fromkeys(tags)), tags[-1] if tags else None, ignored)


def _read_qrels_reference(data: bytes, source: str) -> tuple[pd.DataFrame, _Ignored]:
    """Parse qrels line by line: the reference."""
    ignored = _Ignored()
    rows, numbers = [], []
    for number, fields in _reference_lines(data, source):
        if not fields:
            continue
        if fields[0].startswith("#"):
            ignored.comment_lines.append(number)
            continue
        if len(fields) != 4:
            raise RunFormatError(
                f"{source}, line {number}: expected 4 columns (topic iteration docno relevance), "
                f"found {len(fields)}"
            )
        rows.append((fields[0], fields[1], fields[2], _field(_grade, fields[3], source, number)))
        numbers.append(number)
    if not rows:
        raise RunFormatError(f"{source}, line 1: the file holds no qrels lines (empty qrels)")
    _check_duplicates(((row[0], row[2]) for row in rows), numbers, source, "qrels file")
    query_ids, iterations, doc_ids, grades = zip(*rows, strict=True)
    frame = pd.DataFrame(
        {
            "query_id": pd.array(query_ids, dtype="str"),
            "iteration": pd.array(iterations, dtype="str"),
            "doc_id": pd.array(doc_ids, dtype="str"),
            "relevance": np.asarray(grades, dtype="int64"),
        }
    )
    return frame, ignored


# --------------------------------------------------------------------------- fast path

# Bytes pandas' tokenizer and the reference treat alike: printable ASCII, tab, LF (CR: below).
_PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\t\n\r"
# In UTF-8 text: control characters other than tab, LF, CR; refused characters.
_UNUSUAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + _BOM + _UNICODE_SPACES + "]")
_RUN_DTYPES = {
    "query_id": "str",
    "iteration": "str",
    "doc_id": "str",
    "file_rank": "str",
    "score": "float64",
    "run": "str",
}
# pandas >= 3.1 reads floats with fast_float, correctly rounded as Python's float; older versions
# only with float_precision="round_trip" (Python's own parser; the option is deprecated in 3.1).
_PANDAS_VERSION = tuple(int(part) for part in pd.__version__.split(".")[:2])
_FLOAT_OPTIONS = {} if _PANDAS_VERSION >= (3, 1) else {"float_precision": "round_trip"}
# Grades are read as text and each distinct text parsed by _grade: pandas' int64 reads "1e3" as 1000.
_QRELS_DTYPES = {"query_id": "str", "iteration": "str", "doc_id": "str", "relevance": "str"}


def _pandas_splits_alike(data: bytes) -> bool:
    """Whether pandas' tokenizer cuts ``data`` into the reference's lines and fields.

    pandas separates fields by blanks and tabs only and also ends a line at a bare ``\\r``; the
    reference also separates at ``\\v`` and ``\\f`` and refuses other characters.  So: only
    printable characters, blanks and tabs, and ``\\r`` only in ``\\r\\n``.
    """
    if data.translate(None, _PLAIN_BYTES):  # a byte other than printable ASCII, tab, CR, LF
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        if _UNUSUAL.search(text):
            return False
    return b"\r" not in data or data.count(b"\r") == data.count(b"\r\n")


def _pandas_table(data: bytes, dtypes: dict[str, str], *, at_start: bool = True) -> pd.DataFrame | None:
    """``data`` parsed by pandas' C engine; ``None`` wherever it might differ from the reference.

    ``at_start``: ``data`` begins the input (only there is a byte-order mark dropped)."""
    if at_start:
        data = data.removeprefix(_BOM.encode())
    if not _pandas_splits_alike(data):
        return None
    try:
        with warnings.catch_warnings():
            # More fields on the first line than names makes pandas drop data with a warning.
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(
                io.BytesIO(data),
                sep=r"\s+",
                header=None,
                names=list(dtypes),
                dtype=dtypes,
                index_col=False,
                engine="c",
                quoting=csv.QUOTE_NONE,
                skip_blank_lines=True,
                na_filter=False,
                encoding="utf-8",
                **_FLOAT_OPTIONS,
            )
    # A long or short line, a number pandas does not read (ParserError, EmptyDataError and
    # UnicodeDecodeError are ValueErrors), a number out of range: the reference says which.
    except (ValueError, OverflowError, pd.errors.ParserWarning):
        return None
    if frame.empty:
        return None
    # A comment line's first field starts with '#': checking the few distinct topics is cheaper
    # than every line. (A short line leaves "" in the last column, na_filter being off: the
    # callers check that column, whose distinct values they need anyway.)
    if any(str(first).startswith("#") for first in pd.unique(frame[frame.columns[0]])):
        return None
    return frame


def _has_duplicates(query_ids: pd.Series, doc_ids: pd.Series) -> bool:
    """Whether a (topic, document) pair occurs twice.

    When each topic is one block of lines (as run files are written), each block's documents are
    counted as a set: about five times faster than hashing one key per line. Otherwise one integer
    key per pair is hashed once (about twice as fast as ``DataFrame.duplicated`` on two string
    columns); when no document occurs in two lines at all the topics are not even needed.
    """
    topics = query_ids.to_numpy(dtype=object)
    starts = _topic_blocks(topics)
    if starts is not None:
        return repeats_within_blocks(doc_ids.to_numpy(dtype=object), starts)
    doc_codes, distinct_docs = pd.factorize(doc_ids.to_numpy())
    if len(distinct_docs) == len(doc_codes):
        return False
    topic_codes, _ = pd.factorize(topics)
    key = topic_codes.astype("int64") * len(distinct_docs) + doc_codes
    return not pd.Index(key).is_unique


def _topic_blocks(topics: np.ndarray) -> np.ndarray | None:
    """The first row of each topic when every topic is one block of rows (in any order), else ``None``."""
    starts = block_starts(topics)
    heads = topics[starts].tolist()
    return starts if len(set(heads)) == len(heads) else None


def _read_run_fast(data: bytes, *, at_start: bool = True) -> _RunLines | None:
    """The reference's :class:`_RunLines` by pandas (without line numbers), or ``None``: ask the
    reference.

    pandas reads a score text, if at all, as Python's ``float`` does (``_FLOAT_OPTIONS``); of
    the texts it reads, the reference refuses ``nan``, and the words true/false, which pandas
    reads as 1/0 when a column holds nothing else.
    """
    table = _pandas_table(data, _RUN_DTYPES, at_start=at_start)
    if table is None:
        return None
    scores = table["score"].to_numpy()
    if np.isnan(scores).any() or ((scores == 0) | (scores == 1)).all():
        return None
    tags = table["run"].unique().tolist()
    if "" in tags:  # a short line
        return None
    return _RunLines(table[["query_id", "doc_id", "score"]], None, tags, table["run"].iat[-1], _Ignored())


def _read_qrels_fast(data: bytes) -> pd.DataFrame | None:
    """The reference's frame by pandas, or ``None``: ask the reference."""
    table = _pandas_table(data, _QRELS_DTYPES)
    if table is None or _has_duplicates(table["query_id"], table["doc_id"]):
        return None
    codes, texts = pd.factorize(table["relevance"].to_numpy())
    try:
        grades = np.array([_grade(text) for text in texts], dtype="int64")
    except ValueError:  # also "" from a short line
        return None
    table["relevance"] = grades[codes]
    return table


# --------------------------------------------------------------------------- the ir_metadata header

_START_AT_TOP = re.compile(re.escape(START_LINE.encode()) + rb"[ \t\r]*(?:\n|\Z)")
_END_LINE = re.compile(rb"^" + re.escape(END_LINE.encode()) + rb"[ \t\r]*$", re.MULTILINE)
# Any start or end line, however spaced: outside a header at the top, one is misplaced.
_MARKER = re.compile(rb"^[ \t]*#[ \t]*ir_metadata\.(start|end)\b", re.MULTILINE)


def _line_of(data: bytes, position: int, first_line: int = 1) -> int:
    return first_line + data.count(b"\n", 0, position)


def _header_text(header: bytes, source: str) -> list[str]:
    """The header's lines between its delimiters (a CRLF's ``\\r`` dropped), decoded as UTF-8."""
    try:
        text = header.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RunFormatError(f"{source}, line {_line_of(header, error.start)}: not valid UTF-8 ({error.reason})") from None
    return [line.removesuffix("\r") for line in text.split("\n")[1:-1]]


def _misplaced_marker(body: bytes, source: str, first_line: int, header_end: int) -> None:
    """Refuse a start or end line in ``body`` (the file from ``first_line`` on, after any header)."""
    if b"ir_metadata." not in body:  # a fast scan; the pattern runs only where it could match
        return
    found = _MARKER.search(body)
    if found is None:
        return
    line, kind = _line_of(body, found.start(), first_line), found.group(1).decode()
    if header_end:
        why = f"a second ir_metadata {kind} line, after the header of lines 1-{header_end}"
    elif kind == "start" and line == 1:
        why = f"an ir_metadata header's first line must read exactly '{START_LINE}'"
    elif kind == "start":
        why = f"an ir_metadata header must begin on line 1 ('{START_LINE}'), as repro_eval reads it only there"
    else:
        why = f"'{END_LINE}' closes no header (there is no '{START_LINE}' on line 1)"
    raise RunFormatError(f"{source}, line {line}: {why}")


def _split_header(data: bytes, source: str) -> tuple[Metadata | None, bytes, int]:
    """The ir_metadata header at the top of ``data`` (``None`` without one), the bytes after it and
    the number of lines it took: what the line parser then reads, from line ``taken + 1`` on."""
    content = data.removeprefix(_BOM.encode())
    if not _START_AT_TOP.match(content):
        _misplaced_marker(data, source, 1, 0)
        return None, data, 0
    end = _END_LINE.search(content)
    if end is None:
        raise RunFormatError(f"{source}, line 1: the ir_metadata header opened here is never closed "
                             f"(no '{END_LINE}' line)")
    taken = _line_of(content, end.start())
    try:
        metadata = parse_header(_header_text(content[: end.start()], source), source=source, first_line=2)
    except MetadataError as error:
        raise RunFormatError(str(error)) from None
    after = content.find(b"\n", end.end())
    body = b"" if after < 0 else content[after + 1 :]
    _misplaced_marker(body, source, taken + 1, taken)
    return metadata, body, taken


def _body_chunks(source: Source, summary: _RunSummary, chunk_bytes: int | None) -> Iterator[tuple[int, bytes]]:
    """The chunks of ``source`` after its ir_metadata header, which is read into ``summary`` before
    the line parser sees a line; a start or end line anywhere else is refused. Chunks end at line
    ends, so the header's end line lies within one chunk."""
    chunks = source.chunks(chunk_bytes)
    first = next(chunks, None)
    if first is None:
        return
    if not _START_AT_TOP.match(first[1].removeprefix(_BOM.encode())):
        for number, data in itertools.chain([first], chunks):
            _misplaced_marker(data, source.label, number, 0)
            yield number, data
        return
    pieces = [first[1]]
    while not _END_LINE.search(pieces[-1]) and (following := next(chunks, None)) is not None:
        pieces.append(following[1])
    summary.metadata, body, taken = _split_header(b"".join(pieces), source.label)
    summary.first_line = taken + 1
    if body:
        yield taken + 1, body
    for number, data in chunks:
        _misplaced_marker(data, source.label, number, taken)
        yield number, data


def read_metadata_file(path: str | os.PathLike[str] | BinaryIO) -> Metadata:
    """Read a YAML file of ir_metadata fields, checked against the schema.

    The file of ``irrepro metadata annotate RUN --from FILE`` and ``irrepro routing run
    --metadata FILE``.

    Parameters
    ----------
    path : str, path-like or binary file
        The YAML file, as :func:`read_run` accepts a path.

    Returns
    -------
    Metadata
        The fields read.

    Raises
    ------
    RunFormatError
        If the file is not UTF-8 or its fields are not ir_metadata's, naming the file and the line.
    """
    with Source(path) as opened:
        data, source = opened.read(), opened.label
    try:
        return parse_yaml(data.decode("utf-8"), source=source)
    except UnicodeDecodeError as error:
        raise RunFormatError(f"{source}, line {_line_of(data, error.start)}: not valid UTF-8 ({error.reason})") from None
    except MetadataError as error:
        raise RunFormatError(str(error)) from None


def read_metadata(path: str | os.PathLike[str] | BinaryIO) -> Metadata | None:
    """Read the ir_metadata header of a run file without its run lines.

    A file is read up to the first chunk after the header.

    Parameters
    ----------
    path : str, path-like or binary file
        The run, as for :func:`read_run`.

    Returns
    -------
    Metadata or None
        The header; ``None`` without one.
    """
    with Source(path) as source:
        summary = _RunSummary()
        for _ in _body_chunks(source, summary, None):
            break  # the header, if any, is read before the first chunk of run lines
        return summary.metadata


def annotate_run(
    path: str | os.PathLike[str] | BinaryIO, metadata: Mapping, *, out: str | os.PathLike[str] | None = None
) -> Metadata:
    """Write the run ``path`` with ``metadata`` as its header.

    The run is read first (its lines checked, its tag known, as :func:`read_run` does); a header it
    has already is kept, ``metadata`` laid over it (:func:`irrepro.metadata.merged`). The run lines
    are written as they are (order, ranks and spacing kept), behind the new header.

    Parameters
    ----------
    path : str, path-like or binary file
        The run, as for :func:`read_run`.
    metadata : Mapping
        ir_metadata fields to lay over the run's header (nested mappings, as in the YAML).
    out : str or path-like, optional
        The file to write; default: ``path`` itself, replaced atomically.

    Returns
    -------
    Metadata
        The header written.

    Raises
    ------
    ValueError
        If the run comes from standard input or a stream and no ``out`` is given.
    RunFormatError
        If the run is malformed or the fields do not fit ir_metadata's schema.
    """
    with Source(path) as opened:
        data, source = opened.read(), opened.label
    if out is None and source in ("<stdin>", "<stream>"):
        raise ValueError(f"{source}: give a file to write the annotated run to")
    frame = _run_from_bytes(data, source)
    existing = run_metadata(frame)
    fields = merged(existing.to_dict() if existing is not None else {}, metadata)
    try:
        header = with_tag(fields, str(frame["run"].iat[-1]), source=source)
        text = "".join(f"{line}\n" for line in header_lines(header))
    except MetadataError as error:
        raise RunFormatError(str(error)) from None
    body = _split_header(data, source)[1].removeprefix(_BOM.encode())
    atomic_write_bytes(path if out is None else out, text.encode("utf-8") + body)
    return header


# --------------------------------------------------------------------------- reading


def _read_run_chunk(
    data: bytes, source: str, *, first_line: int, fast: bool = True, line_count: int | None = None
) -> _RunLines:
    """One chunk's run lines: by pandas where it reads them as the reference does, else by the reference.

    ``line_count`` (the chunk's number of lines) is given when the lines' numbers are needed. pandas
    keeps none; when it made one row of every line (no blank line, no comment), they are the
    chunk's line numbers in turn, else the reference reads the chunk."""
    lines = _read_run_fast(data, at_start=first_line == 1) if fast else None
    if lines is not None and line_count is not None:
        complete = len(lines.frame) == line_count
        lines = replace(lines, numbers=range(first_line, first_line + line_count)) if complete else None
    return lines if lines is not None else _read_run_reference(data, source, first_line=first_line)


class _RunSummary:
    """What is known of a run beyond its rows, gathered chunk by chunk: tags, ignored lines, rows."""

    def __init__(self) -> None:
        self.tags: dict[str, None] = {}  # distinct tags in order of appearance
        self.last_tag: str | None = None
        self.ignored = _Ignored()
        self.rows = 0
        self.metadata: Metadata | None = None  # the ir_metadata header, if the input has one
        self.first_line = 1  # the first line after the header

    def add(self, lines: _RunLines) -> None:
        self.tags.update(dict.fromkeys(lines.tags))
        self.last_tag = lines.last_tag if lines.last_tag is not None else self.last_tag
        self.ignored.extend(lines.ignored)
        self.rows += len(lines.frame)

    def warn(self, source: str, name: str | None, *, stacklevel: int) -> None:
        """The warnings of :func:`read_run`: lines ignored, several run tags, a header naming another."""
        self.ignored.warn(source, stacklevel=stacklevel + 1)
        tags = list(self.tags)
        if name is None and len(tags) > 1:
            warnings.warn(
                f"{source}: {len(tags)} different run tags ({', '.join(tags[:5])}); "
                f"using the last line's tag {self.last_tag!r}, as trec_eval does",
                UserWarning,
                stacklevel=stacklevel + 1,
            )
        tagged = self.metadata.tag if self.metadata is not None else None
        if tagged is not None and self.last_tag is not None and tagged != self.last_tag:
            warnings.warn(f"{source}: the ir_metadata header's tag {tagged!r} is not the run's tag {self.last_tag!r}",
                          UserWarning, stacklevel=stacklevel + 1)  # fmt: skip


def _run_chunks(
    source: Source, summary: _RunSummary, *, fast: bool = True, chunk_bytes: int | None = None, numbered: bool = False
) -> Iterator[_RunLines]:
    """The run lines of ``source``, chunk by chunk, each added to ``summary``.

    The one place where :func:`read_run` and :class:`RunStream` read lines: the ir_metadata header
    is taken from the first chunks here (into ``summary.metadata``), before the parser.
    ``numbered``: each chunk's lines are counted (:func:`_counted`), for their line numbers.
    """
    chunks = _body_chunks(source, summary, chunk_bytes)
    counted = _counted(chunks) if numbered else ((first_line, data, None) for first_line, data in chunks)
    for first_line, data, count in counted:
        lines = _read_run_chunk(data, source.label, first_line=first_line, fast=fast, line_count=count)
        summary.add(lines)
        yield lines


def _counted(chunks: Iterator[tuple[int, bytes]]) -> Iterator[tuple[int, bytes, int]]:
    """``(first line number, bytes, number of lines)`` of consecutive chunks: every chunk but the last
    ends with a newline, so a chunk's lines are counted by the next one's first line number (the next
    chunk is read before this one is handed on); only the last chunk's newlines are counted."""
    for (first_line, data), following in itertools.pairwise(itertools.chain(chunks, [None])):
        count = following[0] - first_line if following is not None else data.count(b"\n") + (not data.endswith(b"\n"))
        yield first_line, data, count


def _read_run_lines(
    source: Source, *, fast: bool = True, chunk_bytes: int | None = None, numbered: bool = False
) -> tuple[pd.DataFrame, _RunSummary]:
    """Every run line of ``source``, chunk by chunk, then the checks of the whole: an empty run and
    a document twice in a topic raise :class:`RunFormatError` (after every line was checked).
    ``numbered``: the frame has a ``line`` column, each row's line number."""
    summary, frames, numbers = _RunSummary(), [], []
    for lines in _run_chunks(source, summary, fast=fast, chunk_bytes=chunk_bytes, numbered=numbered):
        frames += [lines.frame] if len(lines.frame) else []
        if numbers is not None and lines.numbers is not None:
            numbers.append(_line_array(lines.numbers))
        else:
            numbers = None
    if not summary.rows:
        raise RunFormatError(f"{source.label}, line {summary.first_line}: the file holds no run lines (empty run)")
    frame = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    if _has_duplicates(frame["query_id"], frame["doc_id"]):
        if numbers is None:  # the fast path keeps no line numbers: the reference reads the input again to name them
            return _read_run_lines(source, fast=False, chunk_bytes=chunk_bytes, numbered=numbered)
        _check_duplicates(zip(frame["query_id"], frame["doc_id"], strict=True), np.concatenate(numbers).tolist(),
                          source.label, "run")  # fmt: skip
    if numbered:
        frame = frame.assign(line=np.concatenate(numbers))
    return frame, summary


def _line_array(numbers: Sequence[int]) -> np.ndarray:
    """Line numbers as int64: a range (the fast path's, cheap to expand) or the reference's list."""
    return np.arange(numbers.start, numbers.stop, dtype=np.int64) if isinstance(numbers, range) else np.asarray(numbers, dtype=np.int64)


def read_run(path: str | os.PathLike[str] | BinaryIO, *, name: str | None = None, line_numbers: bool = False) -> pd.DataFrame:
    """Read a TREC run into a tidy frame in trec_eval order.

    Parameters
    ----------
    path : str, path-like or binary file
        The run (``topic Q0 docno rank score tag`` per line): a file, a FIFO, ``/dev/stdin``,
        ``"-"`` for standard input, or a file opened in binary mode.  Read as the module
        docstring defines (:class:`RunStream` reads a run too large for a frame).
    name : str, optional
        Run name for the ``run`` column; default: the file's run tag (of its last line, as
        trec_eval reports it).
    line_numbers : bool, default False
        Also give each row's line number in the file (1-based, header lines counted), as a last
        column ``line`` (int64): where to find the line again (:func:`edit_run`).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64), ``rank`` (int64,
        1-based, trec_eval order: score descending, ties by docno descending; the file's rank
        column is ignored) and ``run`` (str), sorted by ``query_id`` then ``rank``; and ``line``
        if asked for. The file's ir_metadata header, if it has one, is :func:`run_metadata` of
        the frame.

    Raises
    ------
    RunFormatError
        For a malformed file, naming the file (``<stdin>`` for ``"-"``), the line and the problem.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = p.write_text("1 Q0 a 1 0.5 x\\n1 Q0 b 2 0.5 x\\n1 Q0 c 3 0.9 x\\n")
    >>> read_run(p)[["doc_id", "rank"]].values.tolist()
    [['c', 1], ['b', 2], ['a', 3]]
    """
    with Source(path) as source:
        return _ranked_run(source, name=name, stacklevel=2, numbered=line_numbers)[0]


def _run_from_bytes(
    data: bytes, source: str, *, name: str | None = None, fast: bool = True, chunk_bytes: int | None = None
) -> pd.DataFrame:
    """:func:`read_run` on bytes; ``fast=False`` takes the reference path only, a small
    ``chunk_bytes`` cuts the input into many chunks (both for tests)."""
    return _run_from_source(Source.from_bytes(data, source), name=name, fast=fast, chunk_bytes=chunk_bytes, stacklevel=2)


def _run_from_source(
    source: Source, *, name: str | None, stacklevel: int, fast: bool = True, chunk_bytes: int | None = None
) -> pd.DataFrame:
    """:func:`read_run`'s frame and warnings (attributed ``stacklevel`` frames above the caller)."""
    return _ranked_run(source, name=name, stacklevel=stacklevel + 1, fast=fast, chunk_bytes=chunk_bytes)[0]


def _ranked_run(
    source: Source, *, name: str | None, stacklevel: int, fast: bool = True, chunk_bytes: int | None = None,
    numbered: bool = False,
) -> tuple[pd.DataFrame, _RunSummary]:
    """:func:`_run_from_source` and the run's summary (``numbered``: with the ``line`` column)."""
    unranked, summary = _read_run_lines(source, fast=fast, chunk_bytes=chunk_bytes, numbered=numbered)
    summary.warn(source.label, name, stacklevel=stacklevel + 1)
    frame = rank_by_score(unranked)
    frame["run"] = pd.array([name if name is not None else summary.last_tag] * len(frame), dtype="str")
    frame = frame[[*RUN_COLUMNS, "line"] if numbered else list(RUN_COLUMNS)]
    if summary.metadata is not None:
        frame.attrs[METADATA_ATTR] = summary.metadata
    return frame, summary


class RunStream:
    r"""A run read chunk by chunk, for evaluating a run without holding all its lines.

    Iterating yields frames with columns ``query_id`` (str), ``doc_id`` (str) and ``score``
    (float64) of consecutive lines in file order, one per chunk of about ``chunk_bytes`` bytes.
    Every line is checked as :func:`read_run` checks it, and the first malformed one raises
    :class:`RunFormatError` naming the file and its line number in the whole file.  Two checks
    need the whole run and are left to the consumer: a document twice in one topic, and a run
    without lines (nothing is yielded).  A consumer that finds either, or that needs the whole run
    at once (e.g. because the topics are not in blocks), calls :meth:`read`: it reads the input
    again and returns :func:`read_run`'s frame, with its warnings and errors.

    After a complete iteration or :meth:`read`, :attr:`tag` is the run's tag (``name``, else the
    last line's) and :meth:`warn` gives the warnings :func:`read_run` would give (ignored lines,
    several tags; :meth:`read` gives them itself).

    A regular file is read in chunks (and again by :meth:`read`), anything else is read into
    memory once (:class:`irrepro.sources.Source`).  Use as a context manager, or call :meth:`close`.

    Parameters
    ----------
    path : str, path-like or binary file
        What :func:`read_run` accepts: a file, a FIFO, ``/dev/stdin``, ``"-"`` for standard input,
        or a file opened in binary mode.
    name : str, optional
        Run name, as for :func:`read_run`; default: the run tag of the file's last line.
    chunk_bytes : int, optional
        About how many bytes each yielded frame covers; default :data:`irrepro.sources.CHUNK_BYTES`.
    line_numbers : bool, default False
        Also give each line's number in the file, as a column ``line`` (int64), as
        ``read_run(..., line_numbers=True)`` does.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = p.write_text("1 Q0 a 1 0.5 x\n1 Q0 b 2 0.4 x\n2 Q0 a 1 0.9 x\n")
    >>> with RunStream(p, chunk_bytes=16) as stream:
    ...     [len(frame) for frame in stream], stream.tag
    ([1, 1, 1], 'x')
    """

    def __init__(self, path: str | os.PathLike[str] | BinaryIO, *, name: str | None = None, chunk_bytes: int | None = None,
                 line_numbers: bool = False):
        self._source = Source(path)
        self.label, self.name, self.chunk_bytes = self._source.label, name, chunk_bytes
        self.line_numbers = line_numbers
        self._summary: _RunSummary | None = None

    def __iter__(self) -> Iterator[pd.DataFrame]:
        self._summary, summary = None, _RunSummary()
        for lines in _run_chunks(self._source, summary, chunk_bytes=self.chunk_bytes, numbered=self.line_numbers):
            if len(lines.frame):
                if not self.line_numbers:
                    yield lines.frame
                    continue
                yield lines.frame.assign(line=_line_array(lines.numbers))
        self._summary = summary

    @property
    def tag(self) -> str | None:
        """``name``, else the run tag of the last line (known after a complete iteration or :meth:`read`)."""
        return self.name if self.name is not None else self._completed().last_tag

    @property
    def metadata(self) -> Metadata | None:
        """The input's ir_metadata header (known after a complete iteration or :meth:`read`)."""
        return self._completed().metadata

    def warn(self, *, stacklevel: int = 2) -> None:
        """Give the warnings :func:`read_run` gives for this input (after a complete iteration).

        Parameters
        ----------
        stacklevel : int, default 2
            The frame the warnings are attributed to, counted as :func:`warnings.warn` counts.

        Raises
        ------
        RuntimeError
            If the run has not been read to its end.
        """
        self._completed().warn(self.label, self.name, stacklevel=stacklevel)

    def read(self) -> pd.DataFrame:
        """Read the whole input again as :func:`read_run` does.

        Returns
        -------
        pandas.DataFrame
            :func:`read_run`'s frame of the whole input, with its warnings and errors.
        """
        frame, self._summary = _ranked_run(self._source, name=self.name, chunk_bytes=self.chunk_bytes, stacklevel=2,
                                           numbered=self.line_numbers)  # fmt: skip
        return frame

    def _completed(self) -> _RunSummary:
        if self._summary is None:
            raise RuntimeError(f"{self.label}: the run has not been read to its end")
        return self._summary

    def close(self) -> None:
        """Close the input (a context manager's exit does it too)."""
        self._source.close()

    def __enter__(self) -> RunStream:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def read_qrels(path: str | os.PathLike[str] | BinaryIO) -> pd.DataFrame:
    """Read TREC qrels (``topic iteration docno relevance``).

    A grade >= 1 means relevant (trec_eval's default relevance level); 0 and negative grades are
    judged non-relevant.

    Parameters
    ----------
    path : str, path-like or binary file
        The qrels: a file, a FIFO, ``/dev/stdin``, ``"-"`` for standard input or a file opened
        in binary mode, read once as for :func:`read_run`.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id`` (str), ``iteration`` (str), ``doc_id`` (str) and ``relevance``
        (int64), in file order.

    Raises
    ------
    RunFormatError
        Naming the file, the line and the problem: a line with other than four columns, a grade
        that is not an integer, a document judged twice for one topic, input without judgments,
        and the other refusals of the module docstring.

    Examples
    --------
    >>> import io
    >>> read_qrels(io.BytesIO(b"301 0 d1 1\\n301 0 d2 0\\n"))["relevance"].tolist()
    [1, 0]
    """
    with Source(path) as source:
        return _qrels_from_bytes(source.read(), source.label)


def _qrels_from_bytes(data: bytes, source: str, *, fast: bool = True) -> pd.DataFrame:
    """:func:`read_qrels` on bytes; ``fast=False`` takes the reference path only (for tests)."""
    frame = _read_qrels_fast(data) if fast else None
    if frame is None:
        frame, ignored = _read_qrels_reference(data, source)
        ignored.warn(source, stacklevel=3)
    return frame


# --------------------------------------------------------------------------- writing


def as_run_frame(frame: pd.DataFrame, name: str = "run") -> pd.DataFrame:
    """Give ``frame`` as a run frame of irrepro's columns in trec_eval's order.

    PyTerrier's ``qid`` and ``docno`` are renamed (its ``rank``, from 0 in its own order of ties,
    dropped), then the frame is ranked by :func:`rank_by_score` unless already
    :func:`in_trec_eval_order` (a frame from :func:`read_run` is returned as it is).

    Parameters
    ----------
    frame : pandas.DataFrame
        A run: irrepro's columns (``query_id``, ``doc_id``, numeric ``score`` without NaN) or
        PyTerrier's (``qid``, ``docno``, ``score``), at least one row.
    name : str, default "run"
        What the error message calls ``frame``.

    Returns
    -------
    pandas.DataFrame
        ``frame``'s columns, with irrepro's names and a trec_eval ``rank``, in trec_eval order.

    Raises
    ------
    InvalidParameterError
        If ``frame`` is not a run frame (a column missing, no rows, a non-numeric or NaN score).
    """
    frame = RunFrame().check(name, frame)
    return frame if in_trec_eval_order(frame) else rank_by_score(frame)


def qrels_sha256(qrels: pd.DataFrame) -> str:
    """Digest relevance judgments, whatever the file they were read from.

    The sha256 of ``qrels`` as TREC text, lines ``topic 0 docno grade`` sorted by topic and docno:
    the same judgments give the same digest whatever the order, spacing or iteration column of the
    file they were read from.

    Parameters
    ----------
    qrels : pandas.DataFrame
        Judgments with columns ``query_id``, ``doc_id`` and ``relevance``, as :func:`read_qrels`
        returns them.

    Returns
    -------
    str
        The hexadecimal sha256 digest.

    Examples
    --------
    >>> q = pd.DataFrame({"query_id": ["2", "1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    >>> qrels_sha256(q) == qrels_sha256(q.iloc[::-1])
    True
    """
    import hashlib

    table = pd.DataFrame({"query_id": qrels["query_id"].astype(str), "doc_id": qrels["doc_id"].astype(str),
                          "relevance": qrels["relevance"].astype("int64")}).sort_values(["query_id", "doc_id"])
    columns = (table["query_id"].tolist(), table["doc_id"].tolist(), table["relevance"].tolist())  # lists: 2x faster to walk
    text = "".join(f"{q} 0 {d} {g}\n" for q, d, g in zip(*columns, strict=True))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@validate_params(frame=RunFrame(), path=FilePath(), name=Optional(Text(no_blanks=True, what="a run tag")),
                 metadata=Optional(Fields("a mapping of ir_metadata fields")))
def write_run(frame: pd.DataFrame, path: str | os.PathLike[str], *, name: str | None = None, metadata: Mapping | None = None) -> None:
    """Write a run frame as a TREC 6-column run file.

    Lines are written in trec_eval order (topic, then score descending, ties by docno
    descending) with ranks 1..n per topic; scores are written with ``repr`` so they read back
    bit for bit.  The file is written atomically (a temporary file renamed into place).  A header
    is written only when ``metadata`` is given (a frame's :func:`run_metadata` may no longer
    describe it).

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns ``query_id``, ``doc_id`` and ``score`` (a ``rank`` column is ignored), and
        ``run`` unless ``name`` is given.
    path : str or path-like
        The file to write; a symlink there is replaced, never followed.
    name : str, optional
        The run tag; default: the frame's single ``run`` value.
    metadata : mapping, optional
        ir_metadata fields (:mod:`irrepro.metadata`), written as the file's header with its
        ``tag`` set to the run's.

    Raises
    ------
    ValueError
        When a column is missing, a tag or id holds whitespace (or another character
        :func:`read_run` refuses), a topic starts with ``#`` (it would read back as a comment),
        there is no tag, the frame holds several run tags and no ``name`` is given, a score is
        NaN, a document is listed twice in one topic, or ``metadata`` breaks the schema or names
        another tag.

    See Also
    --------
    read_run : Reads the file back to the same frame.
    """
    missing = {"query_id", "doc_id", "score"} - set(frame.columns)
    if missing:
        raise ValueError(f"write_run: frame lacks column(s) {', '.join(sorted(missing))}")
    if name is None:
        if "run" not in frame.columns:
            raise ValueError("write_run: give name= or a 'run' column for the run tag")
        run_tags = pd.unique(frame["run"])
        if len(run_tags) != 1:
            raise ValueError(f"write_run: the frame holds {len(run_tags)} run tags; give name= to choose one")
        name = str(run_tags[0])
    if not name or _UNWRITABLE.search(name):
        raise ValueError(
            f"write_run: run tag {name!r} must be non-empty and hold no whitespace, NUL or U+FEFF"
        )
    table = frame[["query_id", "doc_id", "score"]].astype(
        {"query_id": "str", "doc_id": "str", "score": "float64"}
    )
    # checked once per distinct id (in order of first appearance), not once per line
    distinct = {column: [v for v in pd.unique(table[column].to_numpy()) if isinstance(v, str)] for column in ("query_id", "doc_id")}
    for column, values in distinct.items():
        bad = [value for value in values if value == "" or _UNWRITABLE.search(value)]
        if bad:
            raise ValueError(f"write_run: {column} {bad[0]!r} is empty or holds whitespace, NUL or U+FEFF")
    comment = [value for value in distinct["query_id"] if value.startswith("#")]
    if comment:
        raise ValueError(f"write_run: query_id {comment[0]!r} starts with '#': its lines would read back as comments")
    if table["score"].isna().any():
        raise ValueError("write_run: a score is NaN")
    duplicated = table.duplicated(["query_id", "doc_id"])
    if duplicated.any():
        row = table[duplicated].iloc[0]
        raise ValueError(f"write_run: document {row['doc_id']} appears twice in topic {row['query_id']}")
    header = _header(metadata, name)
    ranked = rank_by_score(table)
    lines = [
        f"{q} Q0 {d} {r} {s!r} {name}\n"
        for q, d, r, s in zip(ranked["query_id"].tolist(), ranked["doc_id"].tolist(), ranked["rank"].tolist(),
                              ranked["score"].tolist(), strict=True)  # fmt: skip
    ]
    atomic_write_text(path, header + "".join(lines))


# A run line's first three fields, the third being the docno (C's isspace() separates, as in the reference).
_DOCNO_FIELD = re.compile(rb"[ \t\n\v\f\r]*[^ \t\n\v\f\r]+[ \t\n\v\f\r]+[^ \t\n\v\f\r]+[ \t\n\v\f\r]+([^ \t\n\v\f\r]+)")


@validate_params(path=FilePath(), out=FilePath(),
                 docnos=Optional(Fields("a mapping of line numbers to (docno on the line, new docno)")))
def edit_run(
    path: str | os.PathLike[str], out: str | os.PathLike[str], *, docnos: Mapping[int, tuple[str, str]] | None = None,
    leave_out: Collection[int] = (), header: bool = False,
) -> None:
    """Write the run file ``path`` to ``out`` again with the docno of some lines replaced and some lines left out.

    Every other byte stays as it was: the other lines, the separators, and the score text, rank
    field and tag of the changed lines. Such a file differs from the original exactly on the lines
    whose document changed (``diff`` shows the edit), and it reads back as the edited frame:
    :func:`read_run` and trec_eval rank by score and docno, not by the order of the lines or their
    rank field. ``irrepro deteriorate`` writes its runs so; :func:`write_run` would write every line
    anew, in trec_eval order, at several times the cost. The file is written atomically.

    Parameters
    ----------
    path : str or path-like
        The run file, a regular file (it is read again).
    out : str or path-like
        The file to write; a symlink there is replaced, never followed.
    docnos : mapping of int to (str, str), optional
        Line number (1-based, as ``read_run(path, line_numbers=True)`` gives it) -> ``(docno on
        that line, new docno)``.
    leave_out : collection of int, default ()
        Line numbers of lines not to write.
    header : bool, default False
        Keep the file's ir_metadata header. Left out by default: it describes the original run.

    Raises
    ------
    ValueError
        Naming the file and line: a line number the file does not have or that is a header line,
        a line both changed and left out, a line whose third field is not the docno given (the
        file changed since it was read), or a new docno that :func:`read_run` would not read back
        as one field (empty, white space, NUL, U+FEFF).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "r.run").write_text("1 Q0 a 1 0.5 x\\n1 Q0 b 2 0.4 x\\n2 Q0 a 1 0.9 x\\n")
    >>> edit_run(d / "r.run", d / "s.run", docnos={2: ("b", "c")}, leave_out=[3])
    >>> (d / "s.run").read_text()
    '1 Q0 a 1 0.5 x\\n1 Q0 c 2 0.4 x\\n'
    """
    docnos, leave_out = dict(docnos or {}), set(leave_out)
    both = docnos.keys() & leave_out
    if both:
        raise ValueError(f"edit_run: {path}, line {min(both)}: both changed and left out")
    edits = sorted(docnos.keys() | leave_out)
    with Source(Path(path)) as source, atomic_open(out, "wb") as handle:
        # Chunk by chunk (each ends at a line end): a chunk without an edit is copied as it is.
        chunks = source.chunks()
        first = next(chunks, None)
        if first is not None and not header and _START_AT_TOP.match(first[1].removeprefix(_BOM.encode())):
            chunks = _body_chunks(source, _RunSummary(), None)  # from the start again, the header left out
            first = next(chunks, None)
        at, last_line = 0, 0
        for first_line, data, count in _counted(itertools.chain([first] if first else [], chunks)):
            if at < len(edits) and edits[at] < first_line:
                raise ValueError(f"edit_run: {path}, line {edits[at]}: no such run line (the header "
                                 f"ends before line {first_line})")
            last_line = first_line + count - 1
            upto = at
            while upto < len(edits) and edits[upto] <= last_line:
                upto += 1
            handle.write(_edited(data, first_line, edits[at:upto], docnos, path))
            at = upto
        if at < len(edits):
            raise ValueError(f"edit_run: {path}, line {edits[at]}: no such run line (the file has {last_line} lines)")


def _edited(data: bytes, first_line: int, numbers: list[int], docnos: Mapping[int, tuple[str, str]], path) -> bytes:
    """A chunk of run lines (the first numbered ``first_line``) with the lines ``numbers`` edited:
    the docno of those in ``docnos`` replaced, the others left out (:func:`edit_run`)."""
    if not numbers:
        return data
    lines = _LineEnds(data)
    view = memoryview(data)  # slices of it are not copies
    parts, done = [], 0
    for number in numbers:
        where = f"edit_run: {path}, line {number}:"
        line_start, line_end = lines.end(number - first_line) + 1, lines.end(number - first_line + 1)
        if number not in docnos:
            parts.append(view[done:line_start])
            done = line_end + 1
            continue
        old, new = docnos[number]
        if not new or _UNWRITABLE.search(new):
            raise ValueError(f"{where} new docno {new!r} is empty or holds whitespace, NUL or U+FEFF")
        field = _DOCNO_FIELD.match(data, line_start, line_end)
        if field is None or field.group(1) != old.encode("utf-8"):
            found = "no third field" if field is None else repr(field.group(1).decode("utf-8", "replace"))
            raise ValueError(f"{where} expected docno {old!r}, found {found} (has the file changed since it was read?)")
        parts += [view[done:field.start(1)], new.encode("utf-8")]
        done = field.end(1)
    parts.append(view[done:])
    return b"".join(parts)


class _LineEnds:
    """Where the lines of ``data`` end, found for the few lines asked for: newlines are counted per
    block of bytes (``bytes.count``, memchr's speed) and located only in the blocks asked about."""

    BLOCK = 1 << 16

    def __init__(self, data: bytes) -> None:
        self.data = data
        counts = [data.count(b"\n", start, start + self.BLOCK) for start in range(0, len(data), self.BLOCK)]
        self.before = np.r_[0, np.cumsum(counts)]  # newlines before each block
        self._found: dict[int, np.ndarray] = {}

    def end(self, number: int) -> int:
        """The offset of line ``number``'s newline (1-based; -1 for line 0, the file's end past its last line)."""
        if number == 0:
            return -1
        if number > self.before[-1]:
            return len(self.data)
        block = int(np.searchsorted(self.before, number, side="left")) - 1
        if block not in self._found:
            start = block * self.BLOCK
            piece = np.frombuffer(self.data, dtype=np.uint8, count=min(self.BLOCK, len(self.data) - start), offset=start)
            self._found[block] = start + np.flatnonzero(piece == ord("\n"))
        return int(self._found[block][number - 1 - self.before[block]])


def _header(metadata: Mapping | None, tag: str) -> str:
    """The header text of ``metadata`` for the run tagged ``tag`` ("" without metadata)."""
    if metadata is None:
        return ""
    try:
        return "".join(f"{line}\n" for line in header_lines(with_tag(metadata, tag)))
    except MetadataError as error:
        raise ValueError(f"write_run: {error}") from None
