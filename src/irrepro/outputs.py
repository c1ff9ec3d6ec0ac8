"""Every file ``irrepro`` writes goes through here: complete under its final name, or absent.

A reader of a table, a run or a report must never see half a file (a full disk, a killed
process) or a file that was written through a link pointing elsewhere. So each file is written to
a temporary file beside its target (same folder, hence same file system), flushed to disk, and
renamed over the target with :func:`os.replace`, which is atomic on POSIX and Windows. A symlink
at the target is replaced by the new file, never followed.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(folder / "table.csv", "a,b\\n1,2\\n").read_text()
'a,b\\n1,2\\n'
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

__all__ = ["atomic_open", "atomic_write_text", "atomic_write_bytes"]

# Read once at import (os.umask can only be read by setting it, which is not thread-safe).
_UMASK = os.umask(0)
os.umask(_UMASK)


@contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8",
                newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing; on success it replaces ``path``.

    ``mode`` is ``"w"`` (text) or ``"wb"`` (bytes). If the block raises, the temporary file is
    removed and ``path`` is left as it was (absent, or its previous complete version).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open: mode must be 'w' or 'wb', not {mode!r}")
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    try:
        binary = mode == "wb"
        with os.fdopen(descriptor, mode, **({} if binary else {"encoding": encoding, "newline": newline})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, target)  # replaces a symlink itself, never its referent
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | os.PathLike, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically; returns the path."""
    with atomic_open(path, "w", encoding=encoding, newline="") as handle:
        handle.write(text)
    return Path(path)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns the path."""
    with atomic_open(path, "wb") as handle:
        handle.write(data)
    return Path(path)
