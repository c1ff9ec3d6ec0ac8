"""irrepro.run_dicts: batches of whole topics hold exactly the lines of the whole dict."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.run_dicts import NeedsWholeRun, NotInBlocks, grouped_batches, nested, nested_batches, sorted_batches

# Lines of a run: topic, doc (unique per topic), score; in blocks of topics or in any order.
LINES = st.lists(
    st.tuples(st.sampled_from(["1", "2", "10", "301"]), st.sampled_from("abcdefgh"), st.sampled_from([0.5, 1.0, 2.0, -1.0])),
    min_size=1,
    max_size=30,
    unique_by=lambda line: line[:2],
)


def _frame(lines) -> pd.DataFrame:
    topics, docs, scores = zip(*lines, strict=True)
    return pd.DataFrame({"query_id": pd.array(topics, dtype="str"), "doc_id": pd.array(docs, dtype="str"), "score": np.array(scores)})


def _grouped(lines):
    """The lines in blocks of topics (first appearance order), lines within a topic as given."""
    order = list(dict.fromkeys(topic for topic, _, _ in lines))
    return sorted(lines, key=lambda line: order.index(line[0]))


def _whole(frame: pd.DataFrame) -> dict:
    expected: dict = {}
    for topic, doc, score in frame[["query_id", "doc_id", "score"]].itertuples(index=False):
        expected.setdefault(topic, {})[doc] = score
    return expected


def _merged(batches) -> dict:
    merged: dict = {}
    for batch in batches:
        assert not set(batch) & set(merged), "a topic in two batches"
        merged.update(batch)
    return merged


@settings(max_examples=150, deadline=None, derandomize=True)
@given(LINES, st.sampled_from([None, 1, 2, 5, 100]))
def test_batches_of_whole_topics_hold_the_whole_dict(lines, batch_rows):
    frame = _frame(lines)
    batches = list(nested_batches(frame["query_id"], frame["doc_id"], frame["score"], what="run x lists", batch_rows=batch_rows))
    assert _merged(batches) == _whole(frame) == nested(frame["query_id"], frame["doc_id"], frame["score"], what="")
    if batch_rows is None:
        assert len(batches) == 1
    else:  # a batch grows past batch_rows only by the lines of the topic that starts in it
        for batch in batches:
            lines_in = [len(docs) for docs in batch.values()]
            assert sum(lines_in) - lines_in[-1] < batch_rows


def test_a_document_twice_in_a_topic_is_named_in_frame_order():
    frame = _frame([("2", "a", 1.0), ("1", "b", 1.0), ("1", "c", 1.0), ("1", "b", 0.5), ("2", "a", 0.1)])
    with pytest.raises(ValueError, match=r"^evaluate: run x lists document b twice in topic 1$"):
        list(nested_batches(frame["query_id"], frame["doc_id"], frame["score"], what="run x lists", batch_rows=1))


def _pieces(frame: pd.DataFrame, cuts) -> list[pd.DataFrame]:
    bounds = [0, *sorted({cut % (len(frame) + 1) for cut in cuts}), len(frame)]
    return [frame.iloc[a:b].reset_index(drop=True) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(LINES, st.lists(st.integers(0, 40), max_size=6))
def test_streamed_pieces_in_blocks_give_the_whole_dict_topic_by_topic(lines, cuts):
    frame = _frame(_grouped(lines))
    assert _merged(grouped_batches(_pieces(frame, cuts))) == _whole(frame)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(LINES, st.lists(st.integers(0, 40), max_size=6))
def test_streamed_pieces_not_in_blocks_ask_for_the_whole_run(lines, cuts):
    frame = _frame(lines)
    blocks = [topic for topic, _ in itertools.groupby(frame["query_id"])]
    if len(blocks) == len(set(blocks)):
        assert _merged(grouped_batches(_pieces(frame, cuts))) == _whole(frame)
    else:
        with pytest.raises(NeedsWholeRun, match="several blocks"):
            list(grouped_batches(_pieces(frame, cuts)))


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_a_document_twice_or_no_line_at_all_asks_for_the_whole_run(cut):
    frame = _frame([("1", "a", 1.0), ("1", "b", 1.0), ("1", "a", 0.5), ("2", "a", 0.1)])
    with pytest.raises(NeedsWholeRun, match="twice"):
        list(grouped_batches(_pieces(frame, [cut])))
    with pytest.raises(NeedsWholeRun, match="no run lines"):
        list(grouped_batches([]))


def test_a_topic_is_handed_on_once_the_next_one_starts():
    frame = _frame([("1", "a", 1.0), ("1", "b", 1.0), ("2", "a", 0.5), ("2", "b", 0.1), ("3", "a", 0.1)])
    batches = grouped_batches(_pieces(frame, [1, 3]))
    assert next(batches) == {"1": {"a": 1.0, "b": 1.0}}  # complete when topic 2 starts in the 2nd piece
    assert next(batches) == {"2": {"a": 0.5, "b": 0.1}}
    assert next(batches) == {"3": {"a": 0.1}}


@settings(max_examples=200, deadline=None, derandomize=True)
@given(LINES, st.lists(st.integers(0, 40), max_size=6), st.sampled_from([None, 1, 3, 100]))
def test_pieces_in_any_order_held_and_sorted_give_the_whole_dict(lines, cuts, batch_rows):
    frame = _frame(lines)
    batches = list(sorted_batches(_pieces(frame, cuts), batch_rows=batch_rows))
    assert _merged(batches) == _whole(frame)
    assert [list(batch) for batch in batches] == [sorted(batch, key=list(dict.fromkeys(frame["query_id"])).index) for batch in batches]
    if batch_rows is not None:
        for batch in batches:
            lines_in = [len(docs) for docs in batch.values()]
            assert sum(lines_in) - lines_in[-1] < batch_rows


def test_held_and_sorted_a_document_twice_or_no_line_asks_for_the_whole_run():
    frame = _frame([("1", "a", 1.0), ("2", "a", 1.0), ("1", "a", 0.5)])
    with pytest.raises(NotInBlocks):
        list(grouped_batches(_pieces(frame, [])))
    with pytest.raises(NeedsWholeRun, match="twice"):
        list(sorted_batches(_pieces(frame, [1])))
    with pytest.raises(NeedsWholeRun, match="no run lines"):
        list(sorted_batches([]))


def test_held_lines_keep_one_str_object_per_distinct_docno(monkeypatch):
    """A docno retrieved for many topics is held once per window of lines, not once per line."""
    from irrepro import run_dicts

    monkeypatch.setattr(run_dicts, "DEDUP_ROWS", 6)
    docnos = ["".join(["doc", str(i % 3)]) for i in range(12)]  # 12 distinct objects, 3 values
    assert len({id(d) for d in docnos}) == 12
    frame = pd.DataFrame({"query_id": pd.array([str(i // 3) for i in range(12)], dtype="str"), "doc_id": pd.array(docnos, dtype="str"), "score": np.arange(12.0)})
    held = run_dicts._HeldLines()
    for piece in _pieces(frame, [2, 5, 7, 9]):
        held.add(piece)
    topics, docs, scores, starts = held.sorted_by_topic()
    assert len({id(d) for d in docs}) == 3 * 2  # two windows (7 and 5 lines), 3 docnos each
    assert list(zip(topics, docs, scores, strict=True)) == list(zip(frame["query_id"], frame["doc_id"], frame["score"], strict=True))
    assert starts.tolist() == [0, 3, 6, 9]
