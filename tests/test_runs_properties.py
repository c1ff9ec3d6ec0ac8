"""irrepro.runs: the fast reader and the line-by-line reference agree on every input.

Files are generated from line variants (byte-order marks, CR and CRLF line ends, tabs, runs of
blanks, unusual white space inside fields, comments, extra and missing columns, odd numbers,
duplicates, bytes that are not UTF-8, empty files). Both paths must give the identical frame
(dtypes and values) and warnings, or the identical error (type and message).
"""

from __future__ import annotations

import io
import warnings

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from irrepro import runs
from irrepro.runs import RunFormatError

SOURCE = "generated.txt"
# derandomize: the same examples on every run, as the project's seeds are fixed.
AGREEMENT = settings(
    max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

# Characters that make a field unusual for one reader or the other.
ODD_CHARACTERS = [
    "\v", "\f", "\r", "\x00", "\x01", "\x1c", "\x1f", "\x7f", "\x85", "\xa0", "\u2003", "\u2028",
    "\u3000", "\ufeff", "\u200b", '"', "'", ",", "#", "é", "\u0661",
]  # fmt: skip

ODD_SCORES = [
    "0.5", "1", "-2", "+.5", "5.", "1e5", "1E-05", "007.50", "-0", "1e400", "-1e400", "1e-400",
    "1.7976931348623159e308", "4.9e-324", "2.4703282292062328e-324", "inf", "-Infinity", "INF",
    "nan", "-nan", "TRUE", "false", "1_0", "0x1p3", "1.5abc", "\u0661", "1e", ".", "-", "", "e5", "1.2.3",
]  # fmt: skip
SCORE = st.one_of(
    st.sampled_from(ODD_SCORES),
    st.floats(allow_nan=False).map(repr),
    st.from_regex(r"[+-]?[0-9]{1,25}(\.[0-9]{0,25})?([eE][+-]?[0-9]{1,3})?", fullmatch=True),
    st.text("0123456789.eEpPxX+-_infatyINFATY", min_size=1, max_size=8),
)
ODD_GRADES = [
    "0", "1", "-1", "+2", "007", "1.0", "2.", "-0.00", "0.5", "1e3", "1_0", "2abc", "abc", "\u0661",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
    "99999999999999999999", "1" * 5000, "inf", "",
]  # fmt: skip
GRADE = st.one_of(st.sampled_from(ODD_GRADES), st.integers(-5, 5).map(str), st.integers().map(str))

SEPARATORS = [" ", "\t", "  ", " \t ", "\v", "\f", "\v\f", "\xa0", "\x85", "\x1c"]
LINE_ENDS = ["\r\n", "\r", "\r\r\n", "\n\n", "\n \t\n", "\n#\n", "\n# a comment\n", "\n  # indented\n"]
PADDING = [" ", "\t", "  ", "\v", "\f", "\xa0"]

CLEAN_TOPIC = st.sampled_from(["1", "2", "301", "10"])
CLEAN_DOCNO = st.text("abcdefXYZ0123-.", min_size=1, max_size=6)
CLEAN_SCORE = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.from_regex(r"-?[0-9]{1,20}(\.[0-9]{1,20})?", fullmatch=True),
)
CLEAN_RUN_FIELDS = st.tuples(
    CLEAN_TOPIC, st.just("Q0"), CLEAN_DOCNO, st.just("1"), CLEAN_SCORE, st.sampled_from(["t", "t", "u"])
)
CLEAN_QRELS_FIELDS = st.tuples(CLEAN_TOPIC, st.just("0"), CLEAN_DOCNO, st.integers(-2, 3).map(str))
# For each format: the column of the number and the strategy of odd numbers for it.
RUN = (CLEAN_RUN_FIELDS, 4, SCORE)
QRELS = (CLEAN_QRELS_FIELDS, 3, GRADE)
CHANGES = [
    "odd character", "odd number", "odd topic", "separator", "line end", "no final line end",
    "padding", "extra column", "missing column", "duplicate", "byte-order mark", "mark inside",
    "bad byte", "empty", "quotes",
]  # fmt: skip


@st.composite
def _file(draw, form) -> bytes:
    """A clean file of lines with up to three changes that matter to a reader."""
    clean_fields, number_column, odd_number = form
    lines = [list(fields) for fields in draw(st.lists(clean_fields, min_size=1, max_size=8))]
    seps = [[" "] * (len(fields) - 1) for fields in lines]
    ends, pads, head = ["\n"] * len(lines), [["", ""] for _ in lines], ""
    pick = st.integers(0, len(lines) - 1)
    changes = draw(st.lists(st.sampled_from(CHANGES), max_size=3))
    for change in changes:
        i = draw(pick)
        j = draw(st.integers(0, len(lines[i]) - 1))
        if change == "odd character":
            at = draw(st.integers(0, len(lines[i][j])))
            lines[i][j] = lines[i][j][:at] + draw(st.sampled_from(ODD_CHARACTERS)) + lines[i][j][at:]
        elif change == "odd number" and number_column < len(lines[i]):
            lines[i][number_column] = draw(odd_number)
        elif change == "odd topic":
            lines[i][0] = draw(st.sampled_from(["#1", "1#", "\ufeff1", "\xa01", '"1']))
        elif change == "separator" and seps[i]:
            seps[i][draw(st.integers(0, len(seps[i]) - 1))] = draw(st.sampled_from(SEPARATORS))
        elif change == "line end":
            ends[i] = draw(st.sampled_from(LINE_ENDS))
        elif change == "no final line end":
            ends[-1] = draw(st.sampled_from(["", "\r"]))
        elif change == "padding":
            pads[i][draw(st.integers(0, 1))] = draw(st.sampled_from(PADDING))
        elif change == "extra column":
            lines[i].append(draw(st.sampled_from(["x", "1", "#", "\xa0"])))
            seps[i].append(" ")
        elif change == "missing column":  # mostly the last: a run line without its tag
            del lines[i][draw(st.sampled_from([-1, -1, j]))]
            seps[i] = seps[i][:-1]
        elif change == "duplicate":
            lines[draw(pick)][:3] = lines[i][:3]
        elif change == "quotes":  # not CSV: quotes are characters of a field
            lines[i][j] = draw(st.sampled_from(['"{}"', '"{} x"', "'{}'", '"{}'])).format(lines[i][j])
            lines[draw(pick)][-1] += draw(st.sampled_from(["", '"', '" "']))
        elif change == "byte-order mark":
            head = "\ufeff"
        elif change == "mark inside":
            pads[i][0] = "\ufeff"
        elif change == "empty":
            lines, ends = [], []
            break
    text = head + "".join(
        pad[0] + "".join(f + s for f, s in zip(fields, sep + [""], strict=False)) + pad[1] + end
        for fields, sep, pad, end in zip(lines, seps, pads, ends, strict=False)
    )
    data = text.encode("utf-8", "surrogatepass")
    if "bad byte" in changes:
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[cut:]
    return data


def _outcome(read, data: bytes, **options):
    """(frame or error, warning messages) of one reading path."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = read(data, SOURCE, **options)
        except RunFormatError as error:
            result = error
    return result, [str(warning.message) for warning in caught]


def _assert_same(fast, reference) -> None:
    (fast_result, fast_warnings), (reference_result, reference_warnings) = fast, reference
    if isinstance(reference_result, RunFormatError):
        assert type(fast_result) is RunFormatError, f"the fast path read a refused input:\n{fast_result}"
        assert str(fast_result) == str(reference_result)
    else:
        assert isinstance(fast_result, pd.DataFrame), f"fast path refused: {fast_result}"
        pd.testing.assert_frame_equal(fast_result, reference_result, check_exact=True)
    assert fast_warnings == reference_warnings


@AGREEMENT
@given(_file(RUN), st.sampled_from([None, "named"]))
def test_run_paths_give_the_same_frame_or_error(data, name):
    _assert_same(
        _outcome(runs._run_from_bytes, data, name=name),
        _outcome(runs._run_from_bytes, data, name=name, fast=False),
    )


@AGREEMENT
@given(_file(RUN), st.sampled_from([None, "named"]), st.integers(1, 48))
def test_a_run_read_in_chunks_of_any_size_reads_as_the_whole_reference(data, name, chunk_bytes):
    _assert_same(
        _outcome(runs._run_from_bytes, data, name=name, chunk_bytes=chunk_bytes),
        _outcome(runs._run_from_bytes, data, name=name, fast=False, chunk_bytes=0),
    )


def _streamed(data: bytes, source: str, *, name, chunk_bytes):
    """A RunStream's pieces, ranked as read_run ranks, with its tag, or the error it raised."""
    handle = io.BytesIO(data)
    handle.name = source
    with runs.RunStream(handle, name=name, chunk_bytes=chunk_bytes) as stream:
        pieces = list(stream)
        stream.warn()
        if not pieces:
            return "no lines"
        frame = runs.rank_by_score(pd.concat(pieces, ignore_index=True))
        frame["run"] = pd.array([stream.tag] * len(frame), dtype="str")
        return frame[list(runs.RUN_COLUMNS)]


@AGREEMENT
@given(_file(RUN), st.sampled_from([None, "named"]), st.integers(1, 48))
def test_a_streamed_run_gives_read_runs_lines_warnings_and_errors(data, name, chunk_bytes):
    streamed, stream_warnings = _outcome(_streamed, data, name=name, chunk_bytes=chunk_bytes)
    whole, whole_warnings = _outcome(runs._run_from_bytes, data, name=name, fast=False, chunk_bytes=0)
    if isinstance(whole, RunFormatError) and not isinstance(streamed, RunFormatError):
        # What only the whole run shows is left to the stream's consumer (it then calls read()).
        if "holds no run lines" in str(whole):
            assert isinstance(streamed, str) and streamed == "no lines"
        else:
            assert "appears twice in topic" in str(whole)
        return
    _assert_same((streamed, stream_warnings), (whole, whole_warnings))


@AGREEMENT
@given(_file(QRELS))
def test_qrels_paths_give_the_same_frame_or_error(data):
    _assert_same(
        _outcome(runs._qrels_from_bytes, data),
        _outcome(runs._qrels_from_bytes, data, fast=False),
    )


# --------------------------------------------------------------------------- the fast path is used

CLEAN_RUN_LINE = st.builds(
    "{} Q0 {} 1 {} t".format,
    st.sampled_from(["1", "2", "301"]),
    st.text("abcdefXYZ0123-", min_size=1, max_size=6),
    st.floats(allow_nan=False).map(repr),
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.lists(CLEAN_RUN_LINE, min_size=1, max_size=20, unique_by=lambda line: tuple(line.split()[:3])),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["", "\ufeff"]),
)
def test_clean_runs_take_the_fast_path(lines, line_end, mark):
    # Agreement alone would hold if the fast path always gave up; a clean file must not need it
    # (unless all its scores are 0 or 1, which pandas may have read from the words true/false).
    assume(any(float(line.split()[4]) not in (0.0, 1.0) for line in lines))
    data = (mark + line_end.join(lines) + line_end).encode()
    assert runs._read_run_fast(data) is not None


def test_clean_qrels_take_the_fast_path():
    assert runs._read_qrels_fast(b"\xef\xbb\xbf1 0 a 1\r\n1 0 b 0\r\n2 Q0 a -1\r\n") is not None


# --------------------------------------------------------------------------- the definition's parts


def test_the_refused_spaces_are_exactly_unicode_spaces_that_c_does_not_separate_at():
    unicode_spaces = {chr(c) for c in range(0x110000) if chr(c).isspace()}
    c_spaces = set(" \t\n\v\f\r")  # isspace() in the C locale
    assert set(runs._UNICODE_SPACES) == unicode_spaces - c_spaces


@pytest.mark.parametrize(
    "text,value",
    [("1_0", 1.0), ("1.5abc", 1.5), ("0x1p3", 8.0), ("-0X.8P1", -1.0), ("0x", 0.0), ("infinit", float("inf")),
     ("-inf", float("-inf")), ("1e", 1.0), ("e5", 0.0), ("", 0.0), ("0x1p99999", float("inf"))],
)  # fmt: skip
def test_what_atof_reads(text, value):
    assert runs._as_atof(text) == value


@pytest.mark.parametrize(
    "text,value",
    [("1e3", 1), ("2abc", 2), ("-7.9", -7), ("x", 0), ("99999999999999999999", 2**63 - 1),
     ("-" + "9" * 5000, -(2**63))],
)  # fmt: skip
def test_what_atol_reads(text, value):
    assert runs._as_atol(text) == value


# --------------------------------------------------------------------------- writer and reader agree

ANY_ID = st.text(st.characters(exclude_categories=["Cs"]), min_size=0, max_size=4)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(ANY_ID, ANY_ID, st.floats(allow_nan=False)),
        min_size=1,
        max_size=6,
        unique_by=lambda row: row[:2],
    ),
    ANY_ID,
)
def test_what_write_run_writes_read_run_reads_back(tmp_path_factory, rows, tag):
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    path = tmp_path_factory.mktemp("written") / "run.txt"
    try:
        runs.write_run(frame, path, name=tag)
    except ValueError:
        return  # refused to write: nothing a reader could misread
    back = runs.read_run(path)
    expected = runs.rank_by_score(frame.astype({"query_id": "str", "doc_id": "str"}))
    pd.testing.assert_frame_equal(back.drop(columns="run"), expected, check_exact=True)
    assert set(back["run"]) == {tag}
