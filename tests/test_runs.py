"""irrepro.runs: TREC run and qrels files, trec_eval's ranking, errors that name file and line."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.data import fetch
from irrepro.runs import RunFormatError, rank_by_score, read_qrels, read_run, write_run


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
    assert list(zip(ranked["query_id"], ranked["doc_id"])) == [(q, d) for q, d, _ in expected]
    for _, group in ranked.groupby("query_id"):
        assert group["rank"].tolist() == list(range(1, len(group) + 1))


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
