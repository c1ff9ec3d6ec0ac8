"""The bytes a reader reads: a file, FIFO, standard input or open binary file, in line-aligned chunks.

:class:`Source` opens what :func:`irrepro.runs.read_run` and :func:`~irrepro.runs.read_qrels`
accept and hands out its bytes as **chunks that end at a line end** (``\\n``), each with the
number of its first line, so a reader can parse one chunk at a time and still name the line of
an error in the whole input.

- A **regular file** stays open and is read chunk by chunk; :meth:`Source.chunks` may be called
  again to read it once more from the start (a streamed evaluation that finds the topics of a run
  not grouped does so).  A file changed between two readings is refused: the second reading would
  not be of the input the first one checked.
- Anything else (a FIFO, ``/dev/stdin``, ``"-"`` for standard input, an object with ``read``) can
  be read only once, so it is read whole into memory, and the chunks are cut from those bytes.

A header reader (e.g. of ir_metadata comment lines) would take the first chunk's leading lines
before the line parser sees them.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["Source", "CHUNK_BYTES", "WHOLE_CHUNKS"]

#: Bytes per chunk: about 45,000 run lines.  The per-chunk costs vanish (``irrepro evaluate`` on
#: the 2-million-line run of ``benchmarks/bench_evaluation_memory.py`` took the same CPU time with
#: 1 to 16 MiB chunks) while its peak memory grows with the chunk (``/usr/bin/time``, 2026-12-03:
#: 171 MiB with 1 MiB chunks, 186 with 2, 255 with 8, 332 with 16).
CHUNK_BYTES = 2 * 2**20
#: An input of at most this many bytes (checked against ``CHUNK_BYTES`` when :meth:`Source.chunks`
#: is called) is one chunk by default: a 50,000-line run is parsed in one call instead of two, for
#: at most one chunk more memory, and large inputs are cut as before.
WHOLE_CHUNKS = 2


class Source:
    """An input opened for reading in line-aligned chunks (see the module docstring).

    ``label`` is the name error messages give it (the path, ``<stdin>``, the file object's
    ``name``).  Use as a context manager, or call :meth:`close`.

    Parameters
    ----------
    source : str, path-like or binary file
        A path, ``"-"`` for standard input, or a file object opened in binary mode.

    Raises
    ------
    TypeError
        If a file object gives text (opened without ``"b"``).
    """

    def __init__(self, source: str | os.PathLike[str] | BinaryIO):
        self._handle = None
        self._data: bytes | None = None
        if hasattr(source, "read"):
            label = getattr(source, "name", None)
            self.label = label if isinstance(label, str) else "<stream>"
            data = source.read()
            if not isinstance(data, (bytes, bytearray)):
                raise TypeError(f"{self.label}: open the file in binary mode ('rb'), not as text")
            self._data = bytes(data)
            return
        path = os.fsdecode(os.fspath(source))
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", sys.stdin)
            data = stdin.read()
            self.label, self._data = "<stdin>", (data.encode("utf-8") if isinstance(data, str) else data)
            return
        self.label = path
        handle = open(path, "rb")  # noqa: SIM115 (kept open for a second reading; closed by close())
        status = os.fstat(handle.fileno())
        if stat.S_ISREG(status.st_mode):
            self._handle, self._start, self._identity = handle, handle.tell(), _identity(status)
        else:  # a FIFO or terminal: only one reading is possible
            with handle:
                self._data = handle.read()

    @classmethod
    def from_bytes(cls, data: bytes, label: str) -> Source:
        """Make a source of bytes already in memory (for tests and for callers that hold them).

        Parameters
        ----------
        data : bytes
            The input.
        label : str
            The name error messages give it.

        Returns
        -------
        Source
            A source reading ``data``.
        """
        source = cls.__new__(cls)
        source._handle, source._data, source.label = None, bytes(data), label
        return source

    def chunks(self, size: int | None = None) -> Iterator[tuple[int, bytes]]:
        r"""Give ``(first line number, bytes)`` of consecutive chunks from the start of the input.

        Every chunk but the last ends with ``\n``; a line longer than ``size`` stays whole.  An empty
        input gives no chunk.

        Parameters
        ----------
        size : int or None, default None
            About how many bytes a chunk holds (up to the last line end within them);
            :data:`CHUNK_BYTES` when ``None``, the whole input when it holds at most
            ``WHOLE_CHUNKS * CHUNK_BYTES`` bytes; 0 gives the input as one chunk.

        Yields
        ------
        tuple of (int, bytes)
            The 1-based number of the chunk's first line, and its bytes.
        """
        if size is None:
            size = 0 if self._size() <= WHOLE_CHUNKS * CHUNK_BYTES else CHUNK_BYTES
        number = 1
        pieces = _cut_at_line_ends(self._blocks(size)) if size else filter(None, [self.read()])
        for chunk in pieces:
            yield number, chunk
            number += chunk.count(b"\n")

    def read(self) -> bytes:
        """Read all bytes of the input, from its start.

        Returns
        -------
        bytes
            The whole input.
        """
        if self._data is not None:
            return self._data
        self._rewind()
        return self._handle.read()

    def _size(self) -> int:
        """The input's length in bytes (a regular file's when it was opened: a changed file is refused)."""
        return len(self._data) if self._data is not None else self._identity[2] - self._start

    def _blocks(self, size: int) -> Iterator[bytes]:
        if self._data is not None:
            for start in range(0, len(self._data), size):
                yield self._data[start : start + size]
            return
        self._rewind()
        while block := self._handle.read(size):
            yield block

    def _rewind(self) -> None:
        if _identity(os.fstat(self._handle.fileno())) != self._identity:
            raise OSError(f"{self.label}: the file changed while it was being read")
        self._handle.seek(self._start)

    def close(self) -> None:
        """Close the input if this source opened it (a context manager's exit does it too)."""
        if self._handle is not None:
            self._handle.close()

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _identity(status: os.stat_result) -> tuple[int, ...]:
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def _cut_at_line_ends(blocks: Iterator[bytes]) -> Iterator[bytes]:
    """The bytes of ``blocks`` again, cut after the last ``\\n`` of each block (a line longer than
    a block is joined from several)."""
    pending: list[bytes] = []
    for block in blocks:
        end = block.rfind(b"\n") + 1
        if end == 0:
            pending.append(block)
            continue
        yield b"".join([*pending, block[:end]])
        pending = [block[end:]] if end < len(block) else []
    if pending:
        yield b"".join(pending)
