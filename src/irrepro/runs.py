"""TREC run and qrels files in and out, with trec_eval's semantics.

A **run** file has six blank-separated columns per line::

    topic  Q0  docno  rank  score  tag
    301    Q0  FR940202-2-00150  104  2.129133  STANDARD

and a **qrels** file four::

    topic  iteration  docno  relevance
    301    0          CR93E-1282  1

:func:`read_run` and :func:`read_qrels` turn them into tidy pandas frames, :func:`write_run`
writes a run back.

Ranking semantics (those of trec_eval, ``form_res_rels.c``)
-----------------------------------------------------------
Within a topic, documents are ordered by **score descending**; documents with equal scores
are ordered by **docno descending** (byte-wise string comparison, as ``strcmp``).  The file's
rank column and the order of its lines are **ignored**.  The ``rank`` column of the frame
returned by :func:`read_run` is this order (1-based), and :func:`write_run` writes ranks
1..n in the same order, so a written run means to trec_eval what the frame says.

Accepted and ignored (each with a ``warnings.warn`` saying what was ignored)
--------------------------------------------------------------------------
- blank lines, extra blanks and tabs between columns, CRLF line ends (nothing is lost);
- run lines with text after the sixth column (trec_eval skips "the rest of the line";
  its own test file ``results.trunc`` has such lines);
- lines starting with ``#`` (comments, skipped by trec_eval >= 9.0.8);
- a run file with several run tags: trec_eval reports the tag of the last line, so do we.

The second column (``Q0`` / iteration) and the rank column are not validated: trec_eval
never reads them.

Rejected with :class:`RunFormatError` naming file, line and problem
-------------------------------------------------------------------
a line with too few columns (or a qrels line with other than four), a score that is not a
number (or NaN), a relevance grade that is not an integer, a document twice in one topic,
a file without any run/qrels line.

Speed: the file is parsed by pandas' C parser (``sep=r"\\s+"``) and the result validated
with vectorised checks; only when that finds something wrong is the file read again line by
line to say where (see ``benchmarks/bench_evaluation.py``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from irrepro.outputs import atomic_write_text
from irrepro.validation import FilePath, Optional, RunFrame, Text, validate_params

__all__ = ["RunFormatError", "read_run", "read_qrels", "write_run", "rank_by_score"]

RUN_COLUMNS = ("query_id", "doc_id", "score", "rank", "run")
QRELS_COLUMNS = ("query_id", "iteration", "doc_id", "relevance")


class RunFormatError(ValueError):
    """A run or qrels file is malformed; the message names the file, the line and the problem."""


# --------------------------------------------------------------------------- ranking


def rank_by_score(frame: pd.DataFrame) -> pd.DataFrame:
    """Sort ``frame`` into trec_eval order and set a 1-based ``rank`` per topic.

    Order: ``query_id`` ascending, then ``score`` descending, ties by ``doc_id`` descending.
    Any existing ``rank`` column is replaced.  Returns a new frame with a fresh index.
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
        tied_codes, _ = pd.factorize(frame["doc_id"].to_numpy()[tied], sort=True)
        doc_codes[tied] = tied_codes
        order = np.lexsort((-doc_codes, -scores, topic_codes))
    ordered = frame.iloc[order].reset_index(drop=True)
    sorted_topics = topic_codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_topics[1:] != sorted_topics[:-1]])
    lengths = np.diff(np.r_[starts, len(order)])
    ordered["rank"] = (np.arange(len(order)) - np.repeat(starts, lengths) + 1).astype("int64")
    return ordered


def _rank_if_ordered(frame: pd.DataFrame) -> pd.DataFrame | None:
    """:func:`rank_by_score`'s result when ``frame`` is sorted by topic and score, else ``None``.

    Most run files are written in that order (each topic one block, topics in string order,
    scores descending); checking it with a few vectorised comparisons is much cheaper than
    sorting. The sort in :func:`rank_by_score` is stable, so for such a frame it only reorders
    the runs of tied scores (by docno descending): that is done here, the rest stays in place.
    """
    topics = frame["query_id"].to_numpy()
    n = len(topics)
    if n == 0 or topics.dtype != object:
        return None
    scores = frame["score"].to_numpy(dtype="float64")
    new_topic = np.r_[True, topics[1:] != topics[:-1]]
    starts = np.flatnonzero(new_topic)
    heads = topics[starts].tolist()
    if not all(isinstance(head, str) for head in heads):
        return None
    # Each topic one block, blocks in string order (as factorize(sort=True) orders them).
    if any(a >= b for a, b in zip(heads, heads[1:])):
        return None
    same_topic = ~new_topic[1:]
    if not (scores[1:][same_topic] <= scores[:-1][same_topic]).all():  # NaN fails too
        return None
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
        doc_codes, _ = pd.factorize(frame["doc_id"].to_numpy()[rows], sort=True)
        order = np.arange(n)
        order[rows] = rows[np.lexsort((-doc_codes, tie_run))]
        ordered = frame.iloc[order].reset_index(drop=True)
    else:
        ordered = frame.reset_index(drop=True)
    lengths = np.diff(np.r_[starts, n])
    ordered["rank"] = (np.arange(n) - np.repeat(starts, lengths) + 1).astype("int64")
    return ordered


# --------------------------------------------------------------------------- line-by-line pass


@dataclass
class _Ignored:
    """What a reader skipped, to be reported in one warning."""

    comment_lines: list[int] = field(default_factory=list)
    trailing_text_lines: list[int] = field(default_factory=list)

    def warn(self, path: Path, *, stacklevel: int = 3) -> None:
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
            warnings.warn(f"{path}: ignored " + "; ".join(parts), UserWarning, stacklevel=stacklevel)


def _lines(numbers: list[int], limit: int = 5) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    more = f", ... ({len(numbers) - limit} more)" if len(numbers) > limit else ""
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{more}"


def _physical_lines(path: Path):
    """Yield (line number, fields) for each line; blank lines give an empty list."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise RunFormatError(f"{path}, line {number}: not valid UTF-8 ({error.reason})") from None
            yield number, text.split()


def _parse_score(text: str, path: Path, number: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RunFormatError(f"{path}, line {number}: score {text!r} is not a number") from None
    if math.isnan(value):
        raise RunFormatError(f"{path}, line {number}: score {text!r} is not a number (NaN)")
    return value


def _check_duplicates(keys, numbers, path: Path, what: str) -> None:
    seen: dict[tuple[str, str], int] = {}
    for key, number in zip(keys, numbers):
        if key in seen:
            raise RunFormatError(
                f"{path}, line {number}: document {key[1]} appears twice in topic {key[0]} "
                f"(first on line {seen[key]}); a {what} may hold each document once per topic"
            )
        seen[key] = number


def _read_run_slowly(path: Path) -> tuple[pd.DataFrame, list[str], _Ignored]:
    """Parse a run line by line: the reference parser, used to say *where* a file is wrong."""
    ignored = _Ignored()
    query_ids, doc_ids, scores, tags, numbers = [], [], [], [], []
    for number, fields in _physical_lines(path):
        if not fields:
            continue
        if fields[0].startswith("#"):
            ignored.comment_lines.append(number)
            continue
        if len(fields) < 6:
            raise RunFormatError(
                f"{path}, line {number}: expected 6 columns (topic Q0 docno rank score tag), "
                f"found {len(fields)}"
            )
        if len(fields) > 6:
            ignored.trailing_text_lines.append(number)
        query_ids.append(fields[0])
        doc_ids.append(fields[2])
        scores.append(_parse_score(fields[4], path, number))
        tags.append(fields[5])
        numbers.append(number)
    if not numbers:
        raise RunFormatError(f"{path}, line 1: the file holds no run lines (empty run)")
    _check_duplicates(zip(query_ids, doc_ids), numbers, path, "run")
    frame = pd.DataFrame(
        {
            "query_id": pd.array(query_ids, dtype="str"),
            "doc_id": pd.array(doc_ids, dtype="str"),
            "score": np.asarray(scores, dtype="float64"),
        }
    )
    return frame, tags, ignored


def _read_qrels_slowly(path: Path) -> tuple[pd.DataFrame, _Ignored]:
    ignored = _Ignored()
    rows, numbers = [], []
    for number, fields in _physical_lines(path):
        if not fields:
            continue
        if fields[0].startswith("#"):
            ignored.comment_lines.append(number)
            continue
        if len(fields) != 4:
            raise RunFormatError(
                f"{path}, line {number}: expected 4 columns (topic iteration docno relevance), "
                f"found {len(fields)}"
            )
        try:
            relevance = int(fields[3])
        except ValueError:
            raise RunFormatError(
                f"{path}, line {number}: relevance grade {fields[3]!r} is not an integer"
            ) from None
        rows.append((fields[0], fields[1], fields[2], relevance))
        numbers.append(number)
    if not rows:
        raise RunFormatError(f"{path}, line 1: the file holds no qrels lines (empty qrels)")
    _check_duplicates(((r[0], r[2]) for r in rows), numbers, path, "qrels file")
    query_ids, iterations, doc_ids, grades = zip(*rows)
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


def _fast_table(path: Path, names: list[str], dtypes: dict) -> pd.DataFrame | None:
    """Parse with pandas' C engine; ``None`` when the file needs the line-by-line pass."""
    try:
        with warnings.catch_warnings():
            # More fields on the first line than names makes pandas drop data with a warning.
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(
                path,
                sep=r"\s+",
                header=None,
                names=names,
                index_col=False,
                dtype=dtypes,
                engine="c",
                skip_blank_lines=True,
                na_filter=False,
                encoding="utf-8",
            )
    except (
        ValueError,
        pd.errors.ParserError,
        pd.errors.ParserWarning,
        pd.errors.EmptyDataError,
        UnicodeDecodeError,
    ):
        return None
    if frame.empty:
        return None
    # A short line leaves empty strings in the last columns (na_filter is off), a comment
    # line starts with '#'; either needs the careful pass.
    last = names[-1]
    if pd.api.types.is_string_dtype(frame[last]) and (frame[last] == "").any():
        return None
    # A comment line's first field starts with '#'; checking the few distinct first fields
    # (topics) is much cheaper than every line.
    if any(str(first).startswith("#") for first in pd.unique(frame[names[0]])):
        return None
    return frame


def _has_duplicates(query_ids: pd.Series, doc_ids: pd.Series) -> bool:
    """Whether a (topic, document) pair occurs twice: one integer key per pair, hashed once.

    About twice as fast as ``DataFrame.duplicated`` on two string columns; when no document
    occurs in two lines at all (no topic shares a document) the topics are not even needed.
    """
    doc_codes, distinct_docs = pd.factorize(doc_ids.to_numpy())
    if len(distinct_docs) == len(doc_codes):
        return False
    topic_codes, _ = pd.factorize(query_ids.to_numpy())
    key = topic_codes.astype("int64") * len(distinct_docs) + doc_codes
    return not pd.Index(key).is_unique


def read_run(path, *, name: str | None = None) -> pd.DataFrame:
    """Read a TREC run file into a tidy frame in trec_eval order.

    Parameters
    ----------
    path : str or Path
        The run file (``topic Q0 docno rank score tag`` per line).
    name : str, optional
        Run name for the ``run`` column; default: the file's run tag (of its last line, as
        trec_eval reports it).

    Returns
    -------
    DataFrame with columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64),
    ``rank`` (int64, 1-based, trec_eval order: score descending, ties by docno descending;
    the file's rank column is ignored) and ``run`` (str), sorted by ``query_id`` then ``rank``.

    Raises
    ------
    RunFormatError
        For a malformed file, naming the file, the line and the problem.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = p.write_text("1 Q0 a 1 0.5 x\\n1 Q0 b 2 0.5 x\\n1 Q0 c 3 0.9 x\\n")
    >>> read_run(p)[["doc_id", "rank"]].values.tolist()
    [['c', 1], ['b', 2], ['a', 3]]
    """
    path = Path(path)
    names = ["query_id", "iteration", "doc_id", "file_rank", "score", "run"]
    fast = _fast_table(path, names, {n: ("float64" if n == "score" else "str") for n in names})
    tags: list[str]
    if (
        fast is not None
        and not fast["score"].isna().any()
        and not _has_duplicates(fast["query_id"], fast["doc_id"])
    ):
        frame = fast[["query_id", "doc_id", "score"]]
        tags = fast["run"].unique().tolist()
        last_tag = fast["run"].iat[-1]
    else:
        frame, tag_list, ignored = _read_run_slowly(path)
        ignored.warn(path)
        tags = list(dict.fromkeys(tag_list))
        last_tag = tag_list[-1]
    if name is None and len(tags) > 1:
        warnings.warn(
            f"{path}: {len(tags)} different run tags ({', '.join(tags[:5])}); "
            f"using the last line's tag {last_tag!r}, as trec_eval does",
            UserWarning,
            stacklevel=2,
        )
    frame = rank_by_score(frame)
    frame["run"] = pd.array([name if name is not None else last_tag] * len(frame), dtype="str")
    return frame[list(RUN_COLUMNS)]


def read_qrels(path) -> pd.DataFrame:
    """Read a TREC qrels file (``topic iteration docno relevance``).

    Returns a frame with columns ``query_id`` (str), ``iteration`` (str), ``doc_id`` (str) and
    ``relevance`` (int64), in file order.  A grade >= 1 means relevant (trec_eval's default
    relevance level); 0 and negative grades are judged non-relevant.

    Raises :class:`RunFormatError` (file, line, problem) for a line with other than four
    columns, a grade that is not an integer, a document judged twice for one topic, or a file
    without judgments.
    """
    path = Path(path)
    names = list(QRELS_COLUMNS)
    # An int64 column makes the C parser reject any grade that is not an integer.
    fast = _fast_table(
        path, names, {"query_id": "str", "iteration": "str", "doc_id": "str", "relevance": "int64"}
    )
    if fast is not None and not _has_duplicates(fast["query_id"], fast["doc_id"]):
        return fast.reset_index(drop=True)
    frame, ignored = _read_qrels_slowly(path)
    ignored.warn(path, stacklevel=3)
    return frame


# --------------------------------------------------------------------------- writing


@validate_params(frame=RunFrame(), path=FilePath(), name=Optional(Text(no_blanks=True, what="a run tag")))
def write_run(frame: pd.DataFrame, path, *, name: str | None = None) -> None:
    """Write a run frame as a TREC 6-column run file.

    Lines are written in trec_eval order (topic, then score descending, ties by docno
    descending) with ranks 1..n per topic; scores are written with ``repr`` so they read back
    bit for bit.  The tag is ``name`` or the frame's single ``run`` value.

    Raises ``ValueError`` when a column is missing, a tag or id holds whitespace, there is no
    tag, the frame holds several run tags and no ``name`` is given, or a document is listed
    twice in one topic.
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
    if not name or any(ch.isspace() for ch in name):
        raise ValueError(f"write_run: run tag {name!r} must be non-empty and hold no whitespace")
    table = frame[["query_id", "doc_id", "score"]].astype(
        {"query_id": "str", "doc_id": "str", "score": "float64"}
    )
    for column in ("query_id", "doc_id"):
        bad = table[column].str.contains(r"\s", regex=True) | (table[column] == "")
        if bad.any():
            raise ValueError(
                f"write_run: {column} {table[column][bad].iat[0]!r} is empty or holds whitespace"
            )
    if table["score"].isna().any():
        raise ValueError("write_run: a score is NaN")
    duplicated = table.duplicated(["query_id", "doc_id"])
    if duplicated.any():
        row = table[duplicated].iloc[0]
        raise ValueError(f"write_run: document {row['doc_id']} appears twice in topic {row['query_id']}")
    ranked = rank_by_score(table)
    lines = [
        f"{q} Q0 {d} {r} {s!r} {name}\n"
        for q, d, r, s in zip(ranked["query_id"], ranked["doc_id"], ranked["rank"], ranked["score"].tolist())
    ]
    atomic_write_text(path, "".join(lines))
