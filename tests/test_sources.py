"""irrepro.sources: chunks that end at line ends, number their lines, and can be read again."""

from __future__ import annotations

import io
import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.sources import Source

CONTENT = st.lists(st.sampled_from([b"a", b"bc", b" ", b"\n", b"\r\n", b"\xef\xbb\xbf", b"\xff"]), max_size=40).map(b"".join)


def _check_chunks(chunks: list[tuple[int, bytes]], data: bytes) -> None:
    assert b"".join(chunk for _, chunk in chunks) == data
    assert all(chunk for _, chunk in chunks)  # never an empty chunk
    assert all(chunk.endswith(b"\n") for _, chunk in chunks[:-1])
    offsets = [sum(len(chunk) for _, chunk in chunks[:i]) for i in range(len(chunks))]
    assert [first for first, _ in chunks] == [1 + data[:offset].count(b"\n") for offset in offsets]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(CONTENT, st.integers(0, 12))
def test_chunks_cover_the_input_end_at_line_ends_and_number_their_lines(data, size):
    chunks = list(Source.from_bytes(data, "x").chunks(size))
    _check_chunks(chunks, data)
    if size == 0 or b"\n" not in data:
        assert len(chunks) == (1 if data else 0)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(CONTENT, st.integers(1, 12))
def test_a_regular_file_gives_the_same_chunks_as_its_bytes_and_again(tmp_path_factory, data, size):
    path = tmp_path_factory.mktemp("source") / "run.txt"
    path.write_bytes(data)
    with Source(path) as source:
        first, second = list(source.chunks(size)), list(source.chunks(size))
        whole = source.read()
    assert first == second == list(Source.from_bytes(data, "x").chunks(size))
    assert whole == data


def test_a_file_changed_between_two_readings_is_refused(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"1 Q0 a 1 1.5 t\n")
    with Source(path) as source:
        assert list(source.chunks(4))
        path.write_bytes(b"1 Q0 a 1 1.5 t\n2 Q0 b 1 0.5 t\n")
        with pytest.raises(OSError, match="run.txt: the file changed while it was being read"):
            list(source.chunks(4))


def test_a_fifo_is_read_once_into_memory_and_chunked_again_from_there(tmp_path):
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    data = b"1 Q0 a 1 1.5 t\n1 Q0 b 2 0.5 t\n"
    writer = threading.Thread(target=fifo.write_bytes, args=(data,))
    writer.start()
    with Source(fifo) as source:
        writer.join()
        assert source.label == str(fifo)
        assert list(source.chunks(4)) == list(source.chunks(4)) == [(1, data[:15]), (2, data[15:])]


def test_open_binary_files_and_text_files():
    handle = io.BytesIO(b"x\ny")
    handle.name = "given.run"
    source = Source(handle)
    assert (source.label, list(source.chunks(1))) == ("given.run", [(1, b"x\n"), (2, b"y")])
    assert Source(io.BytesIO(b"")).label == "<stream>"
    with pytest.raises(TypeError, match="binary mode"):
        Source(io.StringIO("x"))


def test_a_line_longer_than_a_chunk_stays_whole():
    data = b"a" * 50 + b"\n" + b"b" * 30
    assert list(Source.from_bytes(data, "x").chunks(8)) == [(1, data[:51]), (2, data[51:])]


@pytest.mark.parametrize("lines", [2, 3])
def test_by_default_an_input_of_up_to_two_chunks_is_one_chunk(tmp_path, monkeypatch, lines):
    """A 50,000-line run (about 2.2 MB) is parsed in one call, not in a chunk and a rest; larger
    inputs are still cut into chunks of about CHUNK_BYTES."""
    monkeypatch.setattr("irrepro.sources.CHUNK_BYTES", 32)
    data = b"1 Q0 abcdefgh 1 0.5 t\n" * lines  # 22 bytes a line: 44 or 66 bytes; up to 64 is whole
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    with Source(path) as source:
        from_file = list(source.chunks())
    assert from_file == list(Source.from_bytes(data, "x").chunks())
    _check_chunks(from_file, data)
    assert len(from_file) == (1 if len(data) <= 64 else 3)
