"""Every file ``irrepro`` writes goes through here: complete under its final name, or absent.

A reader of a table, a run or a report must never see half a file (a full disk, a killed
process) or a file that was written through a link pointing elsewhere. So each file is written to
a temporary file beside its target (same folder, hence same file system), flushed to disk, and
renamed over the target with :func:`os.replace`, which is atomic on POSIX and Windows. A symlink
at the target is replaced by the new file, never followed.

A *set* of files (the tables of ``irrepro reproduce PAPER --out DIR``) is complete or absent:
:func:`table_set` writes every file into a staging folder inside ``DIR`` first, then, only when all
were written, removes the folder's previous ``MANIFEST.json``, renames the files into place and
writes a new ``MANIFEST.json`` last (names, sha256, sizes, producer, irrepro version, git commit,
UTC time). The manifest is the truth about a folder: a file it does not list is not part of the
set. Files that the previous manifest listed and the new set lacks are removed (irrepro wrote them);
files irrepro never listed are left alone. Two writers into one folder commit one after the other
(a lock file ``.MANIFEST.json.lock``). :func:`verify_table_set` checks a folder against its manifest.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(folder / "table.csv", "a,b\\n1,2\\n").read_text()
'a,b\\n1,2\\n'
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:  # pandas is not needed to write a file
    import pandas as pd

from irrepro.revision import git_commit

__all__ = [
    "MANIFEST",
    "TableSetError",
    "TableSetWriter",
    "atomic_open",
    "atomic_write_bytes",
    "atomic_write_text",
    "hash_handle",
    "read_manifest",
    "sha256_of",
    "table_set",
    "verify_table_set",
    "write_table_set",
]

#: The file that makes a folder's table set complete; written last.
MANIFEST = "MANIFEST.json"
MANIFEST_FORMAT = "irrepro table set 1"
_STAGING_PREFIX = ".irrepro-staging-"

# Read once at import (os.umask can only be read by setting it, which is not thread-safe).
_UMASK = os.umask(0)
os.umask(_UMASK)


_DISK_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}  # raised by write or fsync, which name no file


@contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8",
                newline: str | None = None, durable: bool = True) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing; on success it replaces ``path``.

    If the block raises, the temporary file is removed and ``path`` is left as it was (absent, or
    its previous complete version).

    Parameters
    ----------
    path : str or path-like
        The file to write.
    mode : {"w", "wb"}
        Text or bytes.
    encoding : str or None, default "utf-8"
        The text encoding (text mode).
    newline : str or None, default None
        As for the built-in ``open`` (text mode).
    durable : bool, default True
        Sync the file to disk before the rename, so that even a power loss cannot leave an empty
        file under the name; a writer whose readers check every file (the data cache, which hashes
        a file before trusting it) may skip that cost.

    Yields
    ------
    file object
        The temporary file, open for writing.

    Raises
    ------
    ValueError
        For another mode.
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
            if durable:
                os.fsync(handle.fileno())
        os.chmod(temporary, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, target)  # replaces a symlink itself, never its referent
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError) and error.errno in _DISK_FULL and error.filename is None:
            raise type(error)(error.errno, error.strerror, str(target)) from error  # say which file did not fit
        raise


def atomic_write_text(path: str | os.PathLike, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    text : str
        Its contents.
    encoding : str, default "utf-8"
        The text encoding.

    Returns
    -------
    pathlib.Path
        The path.
    """
    with atomic_open(path, "w", encoding=encoding, newline="") as handle:
        handle.write(text)
    return Path(path)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    data : bytes
        Its contents.

    Returns
    -------
    pathlib.Path
        The path.
    """
    with atomic_open(path, "wb") as handle:
        handle.write(data)
    return Path(path)


def sha256_of(path: str | os.PathLike) -> str:
    """Digest a file's bytes.

    Parameters
    ----------
    path : str or path-like
        The file.

    Returns
    -------
    str
        The hex sha256 digest.
    """
    with open(path, "rb") as handle:
        return hash_handle(handle)


def hash_handle(handle: IO[bytes]) -> str:
    """Digest what is left to read from a binary file, read in blocks of 1 MiB.

    Parameters
    ----------
    handle : binary file
        A file open for reading in binary mode.

    Returns
    -------
    str
        The hex sha256 digest.
    """
    digest = hashlib.sha256()
    for block in iter(lambda: handle.read(1 << 20), b""):
        digest.update(block)
    return digest.hexdigest()


# --------------------------------------------------------------------------- sets of tables


class TableSetError(RuntimeError):
    """A folder's table set is incomplete or altered: no manifest, a listed file missing or changed."""


def _member_name(name: str) -> str:
    """A file's name inside a set: a relative POSIX path that stays inside the folder."""
    path = PurePosixPath(name)
    if not name or path.is_absolute() or not path.parts or ".." in path.parts:
        raise ValueError(f"table set: {name!r} is not a relative file name inside the output folder")
    if str(path) in (MANIFEST, f".{MANIFEST}.lock") or path.parts[0].startswith(_STAGING_PREFIX):
        raise ValueError(f"table set: {name!r} is a name the table set itself uses")
    return str(path)


class TableSetWriter:
    """Collect the files of one set in a staging folder; :func:`table_set` makes them visible.

    Parameters
    ----------
    out_dir : pathlib.Path
        The folder the set is written into.
    staging : pathlib.Path
        The folder the files are written to first.
    """

    def __init__(self, out_dir: Path, staging: Path) -> None:
        self.out_dir = out_dir
        self._staging = staging
        self.names: list[str] = []

    def _claim(self, name: str) -> Path:
        name = _member_name(name)
        if name in self.names:
            raise ValueError(f"table set: {name!r} is written twice")
        self.names.append(name)
        staged = self._staging / name
        staged.parent.mkdir(parents=True, exist_ok=True)
        return staged

    def add_table(self, name: str, frame: pd.DataFrame, *, index: bool = False) -> Path:
        """Write ``frame`` as CSV under ``name``.

        Parameters
        ----------
        name : str
            The file's name in the set (``"deviance.csv"``).
        frame : pandas.DataFrame
            The table.
        index : bool, default False
            Write the index as the first column(s).

        Returns
        -------
        pathlib.Path
            The path the file will have in the folder.
        """
        with atomic_open(self._claim(name), "w", newline="") as handle:
            frame.to_csv(handle, index=index)
        return self.out_dir / name

    def add_file(self, name: str, write: Callable[[Path], object]) -> Path:
        """Let ``write(path)`` write the file ``name`` (e.g. :func:`irrepro.runs.write_run`).

        Parameters
        ----------
        name : str
            The file's name in the set.
        write : callable
            Called with the staging path to write to.

        Returns
        -------
        pathlib.Path
            The path the file will have in the folder.
        """
        write(self._claim(name))
        return self.out_dir / name

    @property
    def paths(self) -> list[Path]:
        """Where the files of the set are (once committed), in the order they were added."""
        return [self.out_dir / name for name in self.names]


@contextmanager
def table_set(out_dir: str | os.PathLike, *, producer: str) -> Iterator[TableSetWriter]:
    """Write a set of files into ``out_dir``: all of them with a new manifest, or none.

    If the block raises (a full disk, a failed computation), ``out_dir`` is left exactly as it was,
    its previous set and manifest included.

    Parameters
    ----------
    out_dir : str or path-like
        The folder of the set.
    producer : str
        What wrote the set, kept in the manifest.

    Yields
    ------
    TableSetWriter
        Adds the set's files.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> folder = Path(tempfile.mkdtemp())
    >>> with table_set(folder, producer="doctest") as tables:
    ...     _ = tables.add_table("t.csv", pd.DataFrame({"a": [1]}))
    >>> [p.name for p in verify_table_set(folder)]
    ['t.csv']
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=out))
    try:
        writer = TableSetWriter(out, staging)
        yield writer
        _commit(out, staging, writer.names, producer)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_table_set(out_dir: str | os.PathLike, tables: Mapping[str, pd.DataFrame], *, producer: str,
                    index: bool = False) -> list[Path]:
    """Write each frame as CSV under its name (e.g. ``"deviance.csv"``) as one set.

    Parameters
    ----------
    out_dir : str or path-like
        The folder of the set.
    tables : mapping of str -> pandas.DataFrame
        File name -> table.
    producer : str
        What wrote the set, kept in the manifest.
    index : bool, default False
        Write the index as the first column(s).

    Returns
    -------
    list of pathlib.Path
        The paths written.
    """
    with table_set(out_dir, producer=producer) as writer:
        for name, frame in tables.items():
            writer.add_table(name, frame, index=index)
    return writer.paths


def _real_folder(out: Path, folder: Path) -> None:
    """Make ``folder`` (inside ``out``) a real directory: a symlink on the way is replaced, not followed."""
    current = out
    for part in folder.relative_to(out).parts:
        current = current / part
        if current.is_symlink():
            current.unlink()
        current.mkdir(exist_ok=True)


def _commit(out: Path, staging: Path, names: list[str], producer: str) -> None:
    from filelock import FileLock  # imported here: only a set's commit needs it

    files = [{"name": n, "sha256": sha256_of(staging / n), "bytes": (staging / n).stat().st_size} for n in names]
    with FileLock(out / f".{MANIFEST}.lock"):  # two writers into one folder commit one after the other
        try:
            previous = {entry["name"] for entry in _listed_files(out, read_manifest(out))}
        except TableSetError:
            previous = set()
        for name in names:
            _real_folder(out, (out / name).parent)
        (out / MANIFEST).unlink(missing_ok=True)  # from here until the new manifest, the folder holds no set
        for name in names:
            os.replace(staging / name, out / name)
        atomic_write_text(out / MANIFEST, json.dumps(_manifest(files, producer), indent=2) + "\n")
        for name in sorted(previous - set(names)):
            _remove_stale(out, name)


def _remove_stale(out: Path, name: str) -> None:
    """Remove a file of the previous set; never through a symlinked folder (it would delete elsewhere)."""
    stale = out / name
    folders = [out / PurePosixPath(*PurePosixPath(name).parts[:i]) for i in range(1, len(PurePosixPath(name).parts))]
    if any(folder.is_symlink() for folder in folders):
        return
    if stale.is_symlink() or stale.is_file():
        stale.unlink()


def _manifest(files: list[dict], producer: str) -> dict:
    from irrepro.version import __version__

    commit = git_commit()
    return {
        "format": MANIFEST_FORMAT,
        "producer": producer,
        "irrepro_version": __version__,
        "git_commit": None if commit.startswith("unknown") else commit,
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "files": files,
    }


def read_manifest(folder: str | os.PathLike) -> dict:
    """Read the manifest of the table set in ``folder``.

    Parameters
    ----------
    folder : str or path-like
        The set's folder.

    Returns
    -------
    dict
        The manifest: its format, producer, and each file's size and sha256.

    Raises
    ------
    TableSetError
        If there is none, or it is unreadable or not a table-set manifest.
    """
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableSetError(
            f"{folder}: no {MANIFEST}, so no complete table set (an interrupted or older writer)"
        ) from None
    except (OSError, ValueError) as error:
        raise TableSetError(f"{path}: unreadable manifest ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise TableSetError(f"{path}: not an irrepro table-set manifest (format {MANIFEST_FORMAT!r} expected)")
    return manifest


def _listed_files(folder: Path, manifest: dict) -> list[dict]:
    """The manifest's file entries, each checked for a safe name, a sha256 and a size."""
    files = manifest.get("files")
    if not isinstance(files, list):
        raise TableSetError(f"{folder / MANIFEST}: 'files' is not a list")
    for entry in files:
        try:
            _member_name(entry["name"])
            valid = isinstance(entry["sha256"], str) and isinstance(entry["bytes"], int)
        except (KeyError, TypeError, ValueError):
            valid = False
        if not valid:
            raise TableSetError(f"{folder / MANIFEST}: bad file entry {entry!r} (name, sha256, bytes expected)")
    return files


def verify_table_set(folder: str | os.PathLike) -> list[Path]:
    """Check the files of the complete set in ``folder`` against its manifest's size and sha256.

    Parameters
    ----------
    folder : str or path-like
        The set's folder.

    Returns
    -------
    list of pathlib.Path
        The set's files.

    Raises
    ------
    TableSetError
        Naming the file and the problem when the set is not complete (or the manifest is bad).
    """
    folder = Path(folder)
    paths = []
    for entry in _listed_files(folder, read_manifest(folder)):
        path = folder / entry["name"]
        if not path.is_file():
            raise TableSetError(f"{path}: listed in {MANIFEST} but missing")
        if path.stat().st_size != entry["bytes"] or sha256_of(path) != entry["sha256"]:
            raise TableSetError(f"{path}: differs from {MANIFEST} (size or sha256): changed after it was written")
        paths.append(path)
    return paths
