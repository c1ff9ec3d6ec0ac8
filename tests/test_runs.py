"""irrepro.runs: TREC run and qrels files, trec_eval's ranking, errors that name file and line."""

from __future__ import annotations

import io
import math
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.data import fetch
from irrepro.runs import (
    RunFormatError,
    _has_duplicates,
    edit_run,
    in_trec_eval_order,
    rank_by_score,
    read_qrels,
    read_run,
    write_run,
)


def _write(tmp_path, text: str, name: str = "input.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


# --------------------------------------------------------------------------- ranking semantics


def test_ties_are_broken_by_docno_descending_and_rank_column_is_ignored(tmp_path):
    path = _write(
        tmp_path,
        "7 Q0 doc-a 1 1.5 tag\n"  # file rank 1, but ties with doc-c and doc-b
        "7 Q0 doc-c 3 1.5 tag\n"
        "7 Q0 doc-b 2 1.5 tag\n"
        "7 Q0 doc-z 9 0.1 tag\n"
        "7 Q0 doc-y 4 2.0 tag\n",
    )
    frame = read_run(path)
    assert frame["doc_id"].tolist() == ["doc-y", "doc-c", "doc-b", "doc-a", "doc-z"]
    assert frame["rank"].tolist() == [1, 2, 3, 4, 5]


def test_columns_dtypes_and_order(tmp_path):
    path = _write(tmp_path, "2 Q0 b 1 0.5 r1\n10 Q0 a 1 0.7 r1\n2 Q0 a 2 0.9 r1\n")
    frame = read_run(path)
    assert list(frame.columns) == ["query_id", "doc_id", "score", "rank", "run"]
    assert frame["score"].dtype == np.float64 and frame["rank"].dtype == np.int64
    assert pd.api.types.is_string_dtype(frame["query_id"]) and pd.api.types.is_string_dtype(frame["doc_id"])
    # sorted by topic (as strings) then rank
    assert frame[["query_id", "doc_id", "rank"]].values.tolist() == [
        ["10", "a", 1],
        ["2", "a", 1],
        ["2", "b", 2],
    ]
    assert set(frame["run"]) == {"r1"}
    assert set(read_run(path, name="mine")["run"]) == {"mine"}


def test_docno_ties_compare_as_strings_not_numbers(tmp_path):
    path = _write(tmp_path, "1 Q0 9 1 1.0 t\n1 Q0 10 2 1.0 t\n")
    assert read_run(path)["doc_id"].tolist() == ["9", "10"]  # "9" > "10" as strings


# (topic, docno, score) rows, unique per topic and docno, with many tied scores.
RUN_ROWS = st.lists(
    st.tuples(
        st.sampled_from(["1", "2", "30"]),
        st.text("abcXY-0", min_size=1, max_size=4),
        st.sampled_from([0.0, 1.0, 2.5, -1.0]),
    ),
    min_size=1,
    max_size=40,
    unique_by=lambda row: (row[0], row[1]),
)


@settings(max_examples=60, deadline=None)
@given(RUN_ROWS)
def test_rank_by_score_matches_a_plain_sort(rows):
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).astype(
        {"query_id": "str", "doc_id": "str"}
    )
    ranked = rank_by_score(frame.sample(frac=1, random_state=1))
    expected = sorted(rows, key=lambda r: (r[0], -r[2], [-ord(c) for c in r[1]] + [1]))  # docno descending
    assert list(zip(ranked["query_id"], ranked["doc_id"], strict=True)) == [(q, d) for q, d, _ in expected]
    for _, group in ranked.groupby("query_id"):
        assert group["rank"].tolist() == list(range(1, len(group) + 1))


@settings(max_examples=60, deadline=None)
@given(RUN_ROWS, st.randoms(use_true_random=False))
def test_rank_by_score_of_topic_blocks_in_any_order(rows, random):
    # Each topic one block sorted by score, blocks shuffled, ties in any order: blocks are moved
    # whole (no sort), and the result is still the plain sort's.
    blocks = {}
    for row in rows:
        blocks.setdefault(row[0], []).append(row)
    topics = list(blocks)
    random.shuffle(topics)
    lines = []
    for topic in topics:
        block = blocks[topic]
        random.shuffle(block)
        lines += sorted(block, key=lambda r: -r[2])  # stable: tied scores keep the shuffled order
    frame = pd.DataFrame(lines, columns=["query_id", "doc_id", "score"]).astype({"query_id": "str", "doc_id": "str"})
    expected = sorted(rows, key=lambda r: (r[0], -r[2], [-ord(c) for c in r[1]] + [1]))
    ranked = rank_by_score(frame)
    assert list(zip(ranked["query_id"], ranked["doc_id"], strict=True)) == [(q, d) for q, d, _ in expected]
    assert ranked["rank"].tolist() == ranked.groupby("query_id").cumcount().add(1).tolist()


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["1", "2", "30"]), st.sampled_from(list("abcd"))), min_size=1, max_size=30),
       st.booleans())
def test_duplicates_are_found_in_blocks_and_out_of_them(pairs, in_blocks):
    if in_blocks:
        pairs = sorted(pairs, key=lambda pair: pair[0])
    frame = pd.DataFrame(pairs, columns=["query_id", "doc_id"]).astype("str")
    assert _has_duplicates(frame["query_id"], frame["doc_id"]) == frame.duplicated().any()


@settings(max_examples=60, deadline=None)
@given(
    RUN_ROWS,
    st.integers(min_value=0, max_value=39),
)
def test_rank_by_score_of_ordered_and_nearly_ordered_frames(rows, swap):
    # An already ordered frame takes the no-sort path; one swapped pair must not fool it.
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).astype({"query_id": "str", "doc_id": "str"})
    expected = rank_by_score(frame.sample(frac=1, random_state=2))
    ordered = expected.drop(columns="rank").set_axis(range(10, 10 + len(expected)))
    pd.testing.assert_frame_equal(rank_by_score(ordered), expected)
    i = swap % len(rows)
    j = min(i + 1, len(rows) - 1)
    swapped = ordered.iloc[[*range(i), j, i, *range(j + 1, len(rows))][: len(rows)]] if j != i else ordered
    pd.testing.assert_frame_equal(rank_by_score(swapped), expected)


@settings(max_examples=80, deadline=None)
@given(RUN_ROWS, st.integers(min_value=0, max_value=39), st.integers(min_value=0, max_value=2**16))
def test_in_trec_eval_order_exactly_when_rank_by_score_changes_nothing(rows, swap, seed):
    """True for rank_by_score's output, False whenever re-ranking would move a row or a rank."""
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).astype({"query_id": "str", "doc_id": "str"})
    ranked = rank_by_score(frame)
    assert in_trec_eval_order(ranked)
    i = swap % len(rows)
    for candidate in (ranked.sample(frac=1, random_state=seed), ranked.iloc[[i, *range(i), *range(i + 1, len(rows))]],
                      ranked.assign(rank=ranked["rank"].to_numpy()[::-1])):  # fmt: skip
        unchanged = rank_by_score(candidate).reset_index(drop=True).equals(candidate.reset_index(drop=True))
        assert in_trec_eval_order(candidate) == unchanged


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["301", "302"]),
            st.text("abcdef", min_size=1, max_size=3),
            st.floats(-1e6, 1e6, allow_nan=False),
        ),
        min_size=1,
        max_size=30,
        unique_by=lambda row: (row[0], row[1]),
    )
)
def test_write_then_read_round_trips(tmp_path_factory, rows):
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    path = tmp_path_factory.mktemp("rt") / "run.txt"
    write_run(frame, path, name="rt")
    back = read_run(path)
    pd.testing.assert_frame_equal(
        back.drop(columns="run"), rank_by_score(frame.astype({"query_id": "str", "doc_id": "str"}))
    )
    ranks = [int(line.split()[3]) for line in path.read_text().splitlines()]
    assert ranks == back["rank"].tolist()


def test_write_run_needs_a_single_tag(tmp_path):
    frame = pd.DataFrame(
        {"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [1.0, 2.0], "run": ["x", "y"]}
    )
    with pytest.raises(ValueError, match="2 run tags"):
        write_run(frame, tmp_path / "r")
    with pytest.raises(ValueError, match="whitespace"):
        write_run(frame, tmp_path / "r", name="two words")
    write_run(frame, tmp_path / "r", name="z")
    assert (tmp_path / "r").read_text() == "1 Q0 b 1 2.0 z\n1 Q0 a 2 1.0 z\n"


# --------------------------------------------------------------------------- accepted input


def test_crlf_blank_lines_and_extra_blanks_are_accepted(tmp_path):
    path = _write(tmp_path, "\r\n 1\tQ0   a 1  0.5 t \r\n\r\n1 Q0 b 2 0.25 t\r\n\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing ignored, so no warning
        frame = read_run(path)
    assert frame["doc_id"].tolist() == ["a", "b"] and frame["score"].tolist() == [0.5, 0.25]


def test_text_after_the_sixth_column_is_ignored_with_a_warning(tmp_path):
    path = _write(tmp_path, "1 Q0 a 1 0.5 t more junk\n1 Q0 b 2 0.25 t\n")
    with pytest.warns(UserWarning, match=r"ignored text after the sixth column on 1 line\(s\) \(line 1\)"):
        frame = read_run(path)
    assert frame["doc_id"].tolist() == ["a", "b"]


def test_comment_lines_are_ignored_with_a_warning(tmp_path):
    path = _write(tmp_path, "# produced by BM25\n1 Q0 a 1 0.5 t\n")
    with pytest.warns(UserWarning, match=r"1 comment line\(s\).*line 1"):
        assert len(read_run(path)) == 1


def test_several_run_tags_warn_and_take_the_last(tmp_path):
    path = _write(tmp_path, "1 Q0 a 1 0.5 first\n1 Q0 b 2 0.25 last\n")
    with pytest.warns(UserWarning, match="2 different run tags.*'last'"):
        assert set(read_run(path)["run"]) == {"last"}


def test_trec_eval_truncated_test_run_reads_with_its_trailing_text_ignored():
    with pytest.warns(UserWarning, match="5 line"):
        frame = read_run(fetch("trec_eval_tests/results.trunc"))
    assert frame.groupby("query_id").size().to_dict() == {"301": 500, "303": 84}


def test_real_run_reads_completely():
    frame = read_run(fetch("runs/robust04_bm25_rm3.run"))
    assert len(frame) == 250_000 and frame["query_id"].nunique() == 250
    assert frame.groupby("query_id")["rank"].max().eq(1000).all()
    assert not frame.duplicated(["query_id", "doc_id"]).any()


# --------------------------------------------------------------------------- errors name file and line

RUN_ERRORS = [
    ("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4\n", 2, "expected 6 columns .* found 5"),
    ("1 Q0 a 1 0.5\n1 Q0 b 2 0.4 t\n", 1, "expected 6 columns .* found 5"),
    ("1 Q0 a 1 0.5 t\n\n1 Q0 b 2 high t\n", 3, "score 'high' is not a number"),
    ("1 Q0 a 1 0.5 t\n1 Q0 b 2 nan t\n", 2, "NaN"),
    (
        "1 Q0 a 1 0.5 t\n2 Q0 a 1 0.5 t\n1 Q0 a 3 0.1 t\n",
        3,
        "document a appears twice in topic 1 \\(first on line 1\\)",
    ),
    ("", 1, "holds no run lines"),
    ("\n  \n# only a comment\n", 1, "holds no run lines"),
    ("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 \xff\n", 2, "not valid UTF-8"),
]


@pytest.mark.parametrize("text,line,problem", RUN_ERRORS)
def test_malformed_runs_name_file_line_and_problem(tmp_path, text, line, problem):
    path = tmp_path / "bad.run"
    path.write_bytes(text.encode("latin-1"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RunFormatError, match=rf"^{re.escape(str(path))}, line {line}: .*{problem}"):
            read_run(path)


def test_run_format_error_is_a_value_error():
    assert issubclass(RunFormatError, ValueError)


QRELS_ERRORS = [
    ("1 0 a 1\n1 0 b\n", 2, "expected 4 columns .* found 3"),
    ("1 0 a 1 extra\n", 1, "expected 4 columns .* found 5"),
    ("1 0 a 1\n1 0 b 1 x\n", 2, "expected 4 columns .* found 5"),
    ("1 0 a 1\n1 0 b yes\n", 2, "relevance grade 'yes' is not an integer"),
    ("1 0 a 1\n1 0 b 0.5\n", 2, "relevance grade '0.5' is not an integer"),
    ("1 0 a 1\n1 0 a 0\n", 2, "document a appears twice in topic 1 \\(first on line 1\\)"),
    ("\n", 1, "holds no qrels lines"),
]


@pytest.mark.parametrize("text,line,problem", QRELS_ERRORS)
def test_malformed_qrels_name_file_line_and_problem(tmp_path, text, line, problem):
    path = _write(tmp_path, text, "bad.qrels")
    with pytest.raises(RunFormatError, match=rf"^{re.escape(str(path))}, line {line}: .*{problem}"):
        read_qrels(path)


def test_qrels_columns_and_grades(tmp_path):
    path = _write(tmp_path, "301 0 a 2\r\n301 0 b -1\n\n302 Q0 c 0\n")
    frame = read_qrels(path)
    assert list(frame.columns) == ["query_id", "iteration", "doc_id", "relevance"]
    assert frame["relevance"].dtype == np.int64
    assert frame.values.tolist() == [["301", "0", "a", 2], ["301", "0", "b", -1], ["302", "Q0", "c", 0]]


def test_trec_eval_test_qrels_read():
    frame = read_qrels(fetch("trec_eval_tests/qrels.test"))
    assert frame.groupby("query_id").size().to_dict() == {"301": 1708, "302": 1061, "303": 912}
    assert (frame["relevance"] > 0).groupby(frame["query_id"]).sum().to_dict() == {
        "301": 474,
        "302": 77,
        "303": 10,
    }


# --------------------------------------------------------------------------- one definition of a line
# Each case once on the fast path (a clean file) and once on the line-by-line path (a comment
# line first sends the file there): both must read it alike.

BOM = "\ufeff"


def _both_paths(tmp_path, text: str, name: str = "input.txt"):
    """The same lines as a clean file and behind a comment line (the line-by-line path)."""
    return [_write(tmp_path, text, "fast-" + name), _write(tmp_path, "# a comment\n" + text, "slow-" + name)]


def _quietly(read, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read(path)


@pytest.mark.parametrize("lines", ["301 Q0 a 1 0.5 t\n302 Q0 b 1 0.5 t\n", "301 Q0 a 1 0.5 t x\n"])
def test_a_byte_order_mark_at_the_start_is_dropped_on_every_path(tmp_path, lines):
    for path in _both_paths(tmp_path, lines):
        path.write_bytes(BOM.encode() + path.read_bytes())
        assert _quietly(read_run, path)["query_id"].iloc[0] == "301"
    for path in _both_paths(tmp_path, "301 0 a 1\n", "q"):
        path.write_bytes(BOM.encode() + path.read_bytes())
        assert _quietly(read_qrels, path)["query_id"].tolist() == ["301"]


def test_a_byte_order_mark_inside_the_file_is_an_error(tmp_path):
    # `cat a.run b.run` of two files written with a mark: topic '\ufeff1' would be a new topic.
    for path in _both_paths(tmp_path, "1 Q0 a 1 0.5 t\n" + BOM + "1 Q0 b 1 0.4 t\n"):
        with pytest.raises(RunFormatError, match=r"line \d: a byte-order mark \(U\+FEFF\)"):
            _quietly(read_run, path)


def test_vertical_tab_and_form_feed_separate_fields_as_in_trec_eval(tmp_path):
    # trec_eval splits on C's isspace(): blank, \t, \v, \f (and \r, \n).
    for path in _both_paths(tmp_path, "1\vQ0 a\f1 0.5 t\n1 Q0 b\v\f2 0.4 t\n"):
        frame = _quietly(read_run, path)
        assert frame["doc_id"].tolist() == ["a", "b"] and frame["score"].tolist() == [0.5, 0.4]
    for path in _both_paths(tmp_path, "1 Q0 a\vb 1 0.5 t\n"):
        # seven fields for trec_eval: docno 'a', score 1; the tag '0.5' and 't' is ignored text
        with pytest.warns(UserWarning, match="text after the sixth column"):
            frame = read_run(path)
        assert frame[["doc_id", "score", "run"]].values.tolist() == [["a", 1.0, "0.5"]]


@pytest.mark.parametrize(
    "char,described",
    [
        ("\xa0", "no-break space"),
        ("\u2003", "em space"),
        ("\u3000", "ideographic space"),
        ("\x85", "next line"),
        ("\x1f", "information separator one"),
        ("\u2028", "line separator"),
    ],
)
def test_unicode_spaces_inside_a_field_are_an_error(tmp_path, char, described):
    # trec_eval reads them as part of the docno, Python's split() as a separator: refuse.
    for path in _both_paths(tmp_path, f"1 Q0 a{char}b 1 0.5 t\n"):
        with pytest.raises(RunFormatError, match=rf"line \d: a {described} \(U\+{ord(char):04X}\)"):
            _quietly(read_run, path)
    for path in _both_paths(tmp_path, f"1 0 a{char}b 1\n", "q"):
        with pytest.raises(RunFormatError, match=rf"\(U\+{ord(char):04X}\)"):
            read_qrels(path)


def test_a_bare_carriage_return_is_an_error(tmp_path):
    # trec_eval ends lines at \n only: for it this file is one line, the second run line text
    # after the sixth column; pandas ends a line at a bare \r.
    for path in _both_paths(tmp_path, "1 Q0 a 1 0.5 t\r1 Q0 b 2 0.4 t\n"):
        with pytest.raises(RunFormatError, match=r"line \d: a carriage return \(\\r\) not followed by"):
            _quietly(read_run, path)


def test_crlf_and_a_final_carriage_return_end_lines(tmp_path):
    for path in _both_paths(tmp_path, "1 Q0 a 1 0.5 t\r\n1 Q0 b 2 0.4 t\r"):
        assert _quietly(read_run, path)["run"].tolist() == ["t", "t"]


def test_a_nul_byte_is_an_error(tmp_path):
    # trec_eval stops reading at the first NUL: the rest of the file would be lost silently.
    for path in _both_paths(tmp_path, "1 Q0 a 1 0.5 t\x00\n1 Q0 b 2 0.4 t\n"):
        with pytest.raises(RunFormatError, match=r"line \d: a NUL character"):
            _quietly(read_run, path)


def test_a_double_quote_is_an_ordinary_character(tmp_path):
    # Not CSV: a '"' must not open a quoted field that swallows the next line.
    for path in _both_paths(tmp_path, '1 Q0 "a 1 0.5 t\n1 Q0 b" 2 0.4 t\n'):
        assert _quietly(read_run, path)["doc_id"].tolist() == ['"a', 'b"']


ACCEPTED_SCORES = [
    ("0.5", 0.5),
    ("-2", -2.0),
    ("+.5", 0.5),
    ("5.", 5.0),
    ("1E+05", 1e5),
    ("007.50", 7.5),
    ("1e-400", 0.0),
    ("1e400", math.inf),
    ("-inf", -math.inf),
    ("Infinity", math.inf),
]


@pytest.mark.parametrize("text,value", ACCEPTED_SCORES)
def test_plain_decimal_scores_are_read_as_trec_eval_reads_them(tmp_path, text, value):
    for path in _both_paths(tmp_path, f"1 Q0 a 1 {text} t\n"):
        assert _quietly(read_run, path)["score"].tolist() == [value]


REJECTED_SCORES = [
    ("1_0", "1.0"),  # Python's float() reads 10
    ("1.5abc", "1.5"),
    ("0x1p3", "8.0"),  # C99 hexadecimal float
    ("\u0661", "0.0"),  # ARABIC-INDIC DIGIT ONE: Python's float() reads 1
    ("1e", "1.0"),
    ("nan", "nan"),
    ("high", "0.0"),
]


@pytest.mark.parametrize("text,read", REJECTED_SCORES)
def test_scores_trec_eval_would_misread_are_errors(tmp_path, text, read):
    for path in _both_paths(tmp_path, f"1 Q0 a 1 0.5 t\n1 Q0 b 2 {text} t\n"):
        problem = rf"score {re.escape(repr(text))} is not a number.*trec_eval would read it as {read}"
        with pytest.raises(RunFormatError, match=rf"line \d: {problem}"):
            _quietly(read_run, path)


@pytest.mark.parametrize("text,value", [("1", 1), ("-1", -1), ("+2", 2), ("007", 7), ("1.0", 1), ("0.", 0)])
def test_integer_grades_and_integral_decimals_are_accepted(tmp_path, text, value):
    for path in _both_paths(tmp_path, f"1 0 a {text}\n", "q"):
        assert _quietly(read_qrels, path)["relevance"].tolist() == [value]


@pytest.mark.parametrize(
    "text,why",
    [
        ("1e3", "is not an integer .*trec_eval would read it as 1\\)"),  # pandas read 1000
        ("2abc", "is not an integer .*trec_eval would read it as 2\\)"),
        ("0.5", "is not an integer .*trec_eval would read it as 0\\)"),
        ("1_0", "is not an integer .*trec_eval would read it as 1\\)"),
        ("99999999999999999999", "is out of range"),
        ("-9223372036854775809", "is out of range"),
    ],
)
def test_grades_trec_eval_would_misread_are_errors(tmp_path, text, why):
    for path in _both_paths(tmp_path, f"1 0 a 1\n1 0 b {text}\n", "q"):
        with pytest.raises(RunFormatError, match=rf"line \d: relevance grade '{text}' {why}"):
            read_qrels(path)


def test_the_largest_grades_are_read_exactly(tmp_path):
    for path in _both_paths(tmp_path, "1 0 a 9223372036854775807\n1 0 b -9223372036854775808\n", "q"):
        assert _quietly(read_qrels, path)["relevance"].tolist() == [2**63 - 1, -(2**63)]


# --------------------------------------------------------------------------- standard input and pipes

# With a comment line, as the line-by-line pass once had to read a pipe a second time.
RUN_TEXT = "# from a pipe\n1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n2 Q0 a 1 0.3 t\n"
QRELS_TEXT = "# from a pipe\n1 0 a 1\n2 0 b 0\n"
READ_BOTH = (
    "import sys; from irrepro.runs import read_run, read_qrels; "
    "frame = (read_qrels if sys.argv[1] == 'qrels' else read_run)(sys.argv[2]); "
    "print(len(frame), ','.join(frame['doc_id']))"
)


def _python(*args, **kwargs):
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=_child_env(),
        check=False,
        **kwargs,
    )


def _child_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src")
    return env


@pytest.mark.parametrize("kind,text,expected", [("run", RUN_TEXT, "3 a,b,a"), ("qrels", QRELS_TEXT, "2 a,b")])
def test_dash_reads_standard_input_from_a_pipe(kind, text, expected):
    result = _python("-c", READ_BOTH, kind, "-", input=text)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


@pytest.mark.parametrize("kind,text,expected", [("run", RUN_TEXT, "3 a,b,a"), ("qrels", QRELS_TEXT, "2 a,b")])
def test_dev_stdin_and_process_substitution_are_read_once(tmp_path, kind, text, expected):
    source = _write(tmp_path, text)
    piped = _python("-c", READ_BOTH, kind, "/dev/stdin", input=text)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.strip() == expected
    script = f'"{sys.executable}" -c "$0" {kind} <(cat "{source}")'
    substituted = subprocess.run(
        ["bash", "-c", script, READ_BOTH],
        capture_output=True,
        text=True,
        timeout=60,
        env=_child_env(),
        check=False,
    )
    assert substituted.returncode == 0, substituted.stderr
    assert substituted.stdout.strip() == expected


@pytest.mark.parametrize("kind,text,expected", [("run", RUN_TEXT, "3 a,b,a"), ("qrels", QRELS_TEXT, "2 a,b")])
def test_a_fifo_is_read_once(tmp_path, kind, text, expected):
    # In a child process: a second open() of the FIFO would wait for a writer for ever.
    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)
    child = subprocess.Popen(
        [sys.executable, "-c", READ_BOTH, kind, str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_child_env(),
    )
    try:
        fifo.write_text(text)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert out.strip() == expected


@pytest.mark.parametrize("dash", ["-", Path("-")])  # the CLI passes Path objects
def test_errors_from_standard_input_name_it(monkeypatch, dash):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 Q0 a 1 0.5 t\n1 Q0 b 2 high t\n")))
    with pytest.raises(RunFormatError, match=r"^<stdin>, line 2: score 'high'"):
        read_run(dash)


def test_an_open_binary_file_is_read(tmp_path):
    path = _write(tmp_path, RUN_TEXT)
    with path.open("rb") as handle, pytest.warns(UserWarning, match="comment line"):
        assert len(read_run(handle)) == 3
    with pytest.raises(RunFormatError, match=r"^<stream>, line 1: expected 4 columns"):
        read_qrels(io.BytesIO(b"1 0 a\n"))
    with path.open() as text, pytest.raises(TypeError, match="binary mode"):
        read_run(text)


def test_scores_that_are_words_are_errors_even_if_pandas_reads_them(tmp_path):
    # pandas' C parser reads a column of only true/false words as 1.0/0.0.
    for path in _both_paths(tmp_path, "1 Q0 a 1 TRUE t\n1 Q0 b 2 false t\n"):
        with pytest.raises(RunFormatError, match=r"line \d: score 'TRUE' is not a number"):
            _quietly(read_run, path)


@pytest.mark.parametrize(
    "column,value,problem",
    [("query_id", "#1", "starts with '#'"), ("doc_id", "a\x00", "NUL"), ("doc_id", "a\ufeff", "U\\+FEFF")],
)
def test_write_run_refuses_what_read_run_would_refuse_or_skip(tmp_path, column, value, problem):
    frame = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    frame[column] = [value]
    with pytest.raises(ValueError, match=problem):
        write_run(frame, tmp_path / "r", name="t")


# --------------------------------------------------------------------------- the ir_metadata header

HEADER = (
    "# ir_metadata.start\n"
    "# schema-version: 0.1\n"
    "# tag: r1\n"
    "# actor:\n"
    "#   name: A. Person\n"
    "# ir_metadata.end\n"
)


def test_a_header_is_read_into_the_frame_without_a_warning(tmp_path, recwarn):
    from irrepro.runs import run_metadata

    path = _write(tmp_path, HEADER + "1 Q0 a 1 0.5 r1\n1 Q0 b 2 0.7 r1\n")
    frame = read_run(path)
    assert [str(w.message) for w in recwarn] == []
    assert run_metadata(frame).to_dict() == {"schema-version": 0.1, "tag": "r1", "actor": {"name": "A. Person"}}
    assert frame["doc_id"].tolist() == ["b", "a"]
    assert run_metadata(read_run(_write(tmp_path, "1 Q0 a 1 0.5 r1\n", "bare.run"))) is None


@pytest.mark.parametrize("fast", [True, False])
def test_lines_after_a_header_keep_their_file_line_numbers(tmp_path, fast):
    from irrepro import runs

    data = (HEADER + "1 Q0 a 1 0.5 r1\n1 Q0 b 2 high r1\n").encode()
    with pytest.raises(RunFormatError, match=r"r\.run, line 8: score 'high'"):
        runs._run_from_bytes(data, "r.run", fast=fast)
    with pytest.raises(RunFormatError, match=r"r\.run, line 7: the file holds no run lines"):
        runs._run_from_bytes(HEADER.encode(), "r.run", fast=fast)


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("# ir_metadata.start\n# tag: r1\n1 Q0 a 1 0.5 r1\n", 1, "never closed"),
        ("# ir_metadata.start\n# tag: r1\n1 Q0 a 1 0.5 r1\n# ir_metadata.end\n", 3, "every line of an ir_metadata header starts with '#'"),
        ("# ir_metadata.start\n# actor: [x\n# ir_metadata.end\n1 Q0 a 1 0.5 r1\n", 2, "not valid YAML"),
        ("# ir_metadata.start\n# actor: someone\n# ir_metadata.end\n1 Q0 a 1 0.5 r1\n", 2, "'actor' must be a mapping"),
        ("\n" + HEADER + "1 Q0 a 1 0.5 r1\n", 2, "must begin on line 1"),
        ("1 Q0 a 1 0.5 r1\n" + HEADER, 2, "must begin on line 1"),
        ("#ir_metadata.start\n# tag: r1\n# ir_metadata.end\n1 Q0 a 1 0.5 r1\n", 1, "first line must read exactly"),
        ("1 Q0 a 1 0.5 r1\n# ir_metadata.end\n", 2, "closes no header"),
        (HEADER + "1 Q0 a 1 0.5 r1\n" + HEADER, 8, "a second ir_metadata start line"),
    ],
)
def test_a_malformed_or_misplaced_header_names_file_and_line(tmp_path, text, line, problem):
    path = _write(tmp_path, text)
    with pytest.raises(RunFormatError, match=rf"{re.escape(str(path))}, line {line}: .*{re.escape(problem)}"):
        read_run(path)


def test_a_header_with_crlf_and_a_byte_order_mark_is_read(tmp_path):
    from irrepro.runs import run_metadata

    path = tmp_path / "crlf.run"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + "1 Q0 a 1 0.5 r1\n").replace("\n", "\r\n").encode())
    assert run_metadata(read_run(path))["actor"] == {"name": "A. Person"}


def test_a_header_naming_another_tag_is_warned(tmp_path):
    with pytest.warns(UserWarning, match="header's tag 'r1' is not the run's tag 'other'"):
        read_run(_write(tmp_path, HEADER + "1 Q0 a 1 0.5 other\n"))


def test_write_run_writes_the_header_with_the_runs_tag(tmp_path):
    from irrepro.runs import run_metadata

    frame = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [0.5, 0.7]})
    path = tmp_path / "w.run"
    write_run(frame, path, name="mine", metadata={"actor": {"team": "t"}})
    text = path.read_text()
    assert text.startswith("# ir_metadata.start\n# tag: mine\n# actor:\n#   team: t\n# ir_metadata.end\n1 Q0 b 1 0.7 mine\n")
    assert run_metadata(read_run(path)).to_dict() == {"tag": "mine", "actor": {"team": "t"}}
    with pytest.raises(ValueError, match="write_run: .*tag 'other' is not the run's tag 'mine'"):
        write_run(frame, path, name="mine", metadata={"tag": "other"})
    with pytest.raises(ValueError, match="write_run: .*'actor' must be a mapping"):
        write_run(frame, path, name="mine", metadata={"actor": "someone"})


def _annotated_trec_eval_run(tmp_path):
    """trec_eval's test run behind a header (its own bytes, unchanged)."""
    path = tmp_path / "results.annotated"
    path.write_bytes(HEADER.replace("tag: r1", "tag: STANDARD").encode() + fetch("trec_eval_tests/results.test").read_bytes())
    return path


def test_a_header_changes_no_score_of_irrepro_evaluate_and_pytrec_eval(tmp_path, capsys):
    """irrepro evaluate (trec_eval's code via pytrec_eval) gives trec_eval's own numbers (out.test.aq)
    on the annotated run; repro_eval's reader strips the header and pytrec_eval agrees."""
    import json

    import pytrec_eval
    from repro_eval.metadata import MetadataHandler

    from irrepro.cli import main

    annotated, qrels = _annotated_trec_eval_run(tmp_path), fetch("trec_eval_tests/qrels.test")
    means = {}
    for path in (fetch("trec_eval_tests/results.test"), annotated):
        assert main(["evaluate", "--qrels", str(qrels), str(path), "--measures", "AP,P@10,nDCG", "--format", "json"]) == 0
        means[path.name] = next(iter(json.loads(capsys.readouterr().out)["runs"].values()))["mean"]
    assert means["results.test"] == means["results.annotated"]
    rows = (line.split("\t") for line in fetch("trec_eval_tests/out.test.aq").read_text().splitlines())
    expected = {measure.strip(): value.strip() for measure, topic, value in rows if topic.strip() == "all"}
    assert f"{means['results.annotated']['AP']:.4f}" == expected["map"]
    assert f"{means['results.annotated']['P@10']:.4f}" == expected["P_10"]
    with open(qrels) as handle:
        evaluator = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(handle), {"map"})
    per_topic = evaluator.evaluate(MetadataHandler.strip_metadata(str(annotated)))
    assert per_topic.keys() == {"301", "302", "303"}
    assert sum(t["map"] for t in per_topic.values()) / 3 == pytest.approx(means["results.annotated"]["AP"], abs=1e-12)


def test_ir_measures_reads_the_frame_not_the_annotated_file(tmp_path):
    """ir_measures 0.4's TREC run reader splits every line into six fields, so a header's '#' lines
    stop it (it reads no comment line); given the frame irrepro reads, it computes the same scores."""
    import ir_measures

    from irrepro.evaluation import evaluate

    annotated, qrels_path = _annotated_trec_eval_run(tmp_path), fetch("trec_eval_tests/qrels.test")
    with pytest.raises(ValueError, match="values to unpack"):
        list(ir_measures.read_trec_run(str(annotated)))
    frame, qrels = read_run(annotated), read_qrels(qrels_path)
    measures = [ir_measures.AP, ir_measures.P @ 10, ir_measures.nDCG]
    theirs = ir_measures.calc_aggregate(measures, qrels, frame)
    ours = evaluate({"r": frame}, qrels, ["AP", "P@10", "nDCG"]).means().loc["r"]
    assert [theirs[m] for m in measures] == pytest.approx(ours.tolist(), abs=1e-12)


def test_trec_eval_reads_the_annotated_run_to_the_same_numbers_where_installed(tmp_path):
    import shutil

    trec_eval = shutil.which("trec_eval")
    if trec_eval is None:
        pytest.skip("no trec_eval program on PATH (its source is not in this environment to build)")
    annotated, qrels = _annotated_trec_eval_run(tmp_path), fetch("trec_eval_tests/qrels.test")
    outputs = [subprocess.run([trec_eval, "-m", "map", "-m", "P.10", str(qrels), str(path)], capture_output=True,
                              text=True, check=True).stdout for path in (fetch("trec_eval_tests/results.test"), annotated)]
    assert outputs[0].replace("test", "") == outputs[1].replace("test", "")


def test_qrels_sha256_ignores_order_and_iteration():
    from irrepro.runs import qrels_sha256

    qrels = read_qrels(fetch("trec_eval_tests/qrels.test"))
    shuffled = qrels.sample(frac=1.0, random_state=0).assign(iteration="Q0")
    assert qrels_sha256(shuffled) == qrels_sha256(qrels)
    assert qrels_sha256(qrels.assign(relevance=qrels["relevance"].where(qrels.index != 0, 5))) != qrels_sha256(qrels)


def test_qrels_sha256_is_the_digest_of_the_sorted_trec_text():
    import hashlib

    from irrepro.runs import qrels_sha256

    qrels = pd.DataFrame({"query_id": ["2", "10", "2"], "doc_id": ["b", "a", "a"], "relevance": [0, 2, 1]})
    text = "10 0 a 2\n2 0 a 1\n2 0 b 0\n"  # sorted as strings: "10" before "2"
    assert qrels_sha256(qrels) == hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("chunk_bytes", [7, 64, 0])
def test_a_header_is_read_whatever_the_chunks_and_a_stream_keeps_it(tmp_path, chunk_bytes):
    """The header is taken from the first chunks before the line parser, however small they are;
    read_run and RunStream (which irrepro evaluate uses) read the same lines and header."""
    from irrepro import runs
    from irrepro.runs import RunStream, run_metadata

    lines = "".join(f"{t} Q0 d{d} {d} {1 - d / 10} r1\n" for t in (1, 2) for d in range(5))
    data = (HEADER + lines).encode()
    frame = runs._run_from_bytes(data, "r.run", chunk_bytes=chunk_bytes)
    assert run_metadata(frame)["actor"] == {"name": "A. Person"} and len(frame) == 10
    path = tmp_path / "r.run"
    path.write_bytes(data)
    with RunStream(path, chunk_bytes=chunk_bytes or None) as stream:
        assert sum(len(part) for part in stream) == 10
        assert stream.metadata == run_metadata(frame) and stream.tag == "r1"
    with pytest.raises(RunFormatError, match=r"r\.run, line 1: the ir_metadata header opened here is never closed"):
        runs._run_from_bytes(HEADER.replace("# ir_metadata.end\n", "").encode() + lines.encode(), "r.run",
                             chunk_bytes=chunk_bytes)
    misplaced = (lines + HEADER).encode()
    with pytest.raises(RunFormatError, match=r"r\.run, line 11: an ir_metadata header must begin on line 1"):
        runs._run_from_bytes(misplaced, "r.run", chunk_bytes=chunk_bytes)


# --------------------------------------------------------------------------- line numbers, edit_run


def test_line_numbers_are_the_files_lines_past_comments_blank_lines_and_a_header(tmp_path):
    frame = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "score": [0.5, 0.4, 0.9]})
    headed = tmp_path / "headed.run"
    write_run(frame, headed, name="t", metadata={"actor": {"team": "x"}})
    header_lines = headed.read_text().count("\n") - 3
    plain = tmp_path / "plain.run"
    plain.write_text("# a comment\n1 Q0 a 1 0.5 t\n\n1 Q0 b 2 0.4 t\n2 Q0 c 1 0.9 t\n")
    with pytest.warns(UserWarning, match="ignored 1 comment line"):
        assert read_run(plain, line_numbers=True)["line"].tolist() == [2, 4, 5]
    assert read_run(headed, line_numbers=True)["line"].tolist() == [header_lines + 1, header_lines + 2, header_lines + 3]
    assert "line" not in read_run(headed).columns


def _many_lines(path, n_topics=60, per_topic=1000):
    """A run of 60,000 lines (~1.9 MB, over one chunk) in blocks out of string order, with ties."""
    lines = [f"{topic} Q0 D{topic}-{rank} {rank} {(per_topic - rank) // 3} tag\n"
             for topic in range(n_topics, 0, -1) for rank in range(1, per_topic + 1)]
    path.write_text("".join(lines))
    return path


def test_line_numbers_of_a_run_read_in_many_chunks(tmp_path, monkeypatch):
    import irrepro.sources

    monkeypatch.setattr(irrepro.sources, "CHUNK_BYTES", 50_000)  # dozens of chunks
    monkeypatch.setattr(irrepro.sources, "WHOLE_CHUNKS", 0)
    path = _many_lines(tmp_path / "many.run")
    frame = read_run(path, line_numbers=True)
    lines = path.read_text().splitlines()
    assert all(lines[line - 1].split()[2] == doc for line, doc in zip(frame["line"], frame["doc_id"], strict=True))
    pd.testing.assert_frame_equal(frame.drop(columns="line"), read_run(path))


@pytest.mark.parametrize("chunk_bytes", [None, 50_000])
def test_edit_run_changes_only_the_lines_asked_for(tmp_path, monkeypatch, chunk_bytes):
    import irrepro.sources

    if chunk_bytes:
        monkeypatch.setattr(irrepro.sources, "CHUNK_BYTES", chunk_bytes)
        monkeypatch.setattr(irrepro.sources, "WHOLE_CHUNKS", 0)
    path = _many_lines(tmp_path / "many.run")
    frame = read_run(path, line_numbers=True)
    rows = [0, 1, 2999, 30_000, len(frame) - 1]
    new_docs = {int(frame["line"].iat[row]): (frame["doc_id"].iat[row], f"new{row}") for row in rows}
    leave_out = [int(line) for line in frame.loc[frame["query_id"] == "7", "line"]]
    edit_run(path, tmp_path / "out.run", docnos=new_docs, leave_out=leave_out)
    before, after = path.read_text().splitlines(), (tmp_path / "out.run").read_text().splitlines()
    kept = [number for number in range(1, len(before) + 1) if number not in set(leave_out)]
    assert len(after) == len(kept)
    for number, line in zip(kept, after, strict=True):
        expected = before[number - 1]
        if number in new_docs:
            old, new = new_docs[number]
            expected = expected.replace(f" {old} ", f" {new} ")
        assert line == expected
    edited = frame.copy()
    edited["doc_id"] = [new_docs.get(line, (None, doc))[1] for line, doc in zip(frame["line"], frame["doc_id"], strict=True)]
    expected_frame = rank_by_score(edited[edited["query_id"] != "7"].drop(columns=["rank", "line"]))
    pd.testing.assert_frame_equal(read_run(tmp_path / "out.run"), expected_frame[list(read_run(path).columns)])


def test_edit_run_leaves_out_the_header_unless_asked(tmp_path):
    frame = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [0.5, 0.4]})
    path = tmp_path / "headed.run"
    write_run(frame, path, name="t", metadata={"actor": {"team": "x"}})
    lines = read_run(path, line_numbers=True)["line"].tolist()
    edit_run(path, tmp_path / "plain.run", docnos={lines[1]: ("b", "c")})
    assert (tmp_path / "plain.run").read_text() == "1 Q0 a 1 0.5 t\n1 Q0 c 2 0.4 t\n"
    edit_run(path, tmp_path / "kept.run", docnos={lines[1]: ("b", "c")}, header=True)
    assert (tmp_path / "kept.run").read_text() == path.read_text().replace(" b 2 ", " c 2 ")
    with pytest.raises(ValueError, match=r"headed.run, line 1: no such run line \(the header ends before"):
        edit_run(path, tmp_path / "bad.run", docnos={1: ("b", "c")})


@pytest.mark.parametrize(("docnos", "leave_out", "message"), [
    ({3: ("a", "x")}, [], r"line 3: no such run line \(the file has 2 lines\)"),
    ({2: ("a", "x")}, [], r"line 2: expected docno 'a', found 'b' \(has the file changed"),
    ({2: ("b", "x y")}, [], r"line 2: new docno 'x y' is empty or holds whitespace"),
    ({2: ("b", "x")}, [2], r"line 2: both changed and left out"),
])  # fmt: skip
def test_edit_run_refuses_what_it_cannot_do_and_writes_nothing(tmp_path, docnos, leave_out, message):
    path = tmp_path / "r.run"
    path.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n")
    with pytest.raises(ValueError, match=message):
        edit_run(path, tmp_path / "out.run", docnos=docnos, leave_out=leave_out)
    assert not (tmp_path / "out.run").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["r.run"]  # no temporary file left either
