"""Public data by name: a registry of URLs and sha256 hashes, fetched into a cache.

Every public file the compendium uses is listed in ``data/registry.tsv`` (name, sha256, source URL).
:func:`fetch` returns a local path to a verified copy of a file:

1. a copy already in the cache (``IRREPRO_CACHE``, default: the user cache directory) whose
   sha256 matches is used as it is;
2. otherwise, when ``IRREPRO_DATA_MIRROR`` names a folder holding the file under its registry
   name (as ``../shared/data`` does on machines without internet), it is copied from there;
3. otherwise it is downloaded from its URL with pooch.

The hash is checked in every case, the mirror included; a mismatch or a file that cannot be had
raises :class:`DataError` naming the file, where it was looked for and how to get it.
Nothing fetched here is ever committed to the repository.

Many processes may fetch into one cache at once. A file is produced under a per-file lock
(``.NAME.lock`` beside it, an ``flock`` that dies with its holder) into a temporary file in the
same folder, its sha256 checked, and only then renamed to its final name: a file under its final
name is always complete and verified, and is never rewritten in place (a reader holding the old
file keeps reading it whole). A present, verified file is returned without taking the lock, and
each version of a file (same inode, size, mtime and ctime) is hashed once per process.
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO

import platformdirs

from irrepro.outputs import atomic_open, hash_handle, sha256_of

__all__ = [
    "DataError",
    "RegistryEntry",
    "registry",
    "fetch",
    "fetch_many",
    "verify",
    "cache_dir",
    "mirror_dir",
    "provenance",
]

MIRROR_VARIABLE = "IRREPRO_DATA_MIRROR"
CACHE_VARIABLE = "IRREPRO_CACHE"
REGISTRY_VARIABLE = "IRREPRO_REGISTRY"
# In the package, so an installed wheel has it; in the repository a link to data/registry.tsv.
_DEFAULT_REGISTRY = Path(__file__).resolve().parent / "registry.tsv"


class DataError(RuntimeError):
    """A registered file is missing, unreadable or has the wrong hash."""


@dataclass(frozen=True)
class RegistryEntry:
    """One public file: its name (relative path), hash and where it comes from.

    Parameters
    ----------
    name : str
        Its path relative to the cache.
    sha256 : str
        The hex digest of its bytes.
    url : str
        Where it is downloaded from; ``""`` when it is not downloadable (a mirror must hold it).
    archive_sha256 : str
        For a file inside an archive (a wheel): the archive's digest; ``""`` otherwise.
    member : str
        Its path inside the archive; ``""`` for a file downloaded as it is.
    source : str
        Who publishes it, for the provenance table.
    """

    name: str
    sha256: str
    url: str
    archive_sha256: str
    member: str
    source: str

    @property
    def downloadable(self) -> bool:
        """Whether the file has a URL to download it from."""
        return bool(self.url)


def _registry_path() -> Path:
    return Path(os.environ.get(REGISTRY_VARIABLE, _DEFAULT_REGISTRY))


@lru_cache(maxsize=4)
def _read_registry(path: Path) -> dict[str, RegistryEntry]:
    if not path.is_file():
        raise DataError(f"data registry not found at {path} (set {REGISTRY_VARIABLE} to its path)")
    with path.open(encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    entries = {}
    for row in csv.DictReader(lines, delimiter="\t"):
        entry = RegistryEntry(**{key: (value or "") for key, value in row.items()})
        entries[entry.name] = entry
    return entries


def registry() -> dict[str, RegistryEntry]:
    """Read all registered files.

    Returns
    -------
    dict of str -> RegistryEntry
        The entries by name.
    """
    return _read_registry(_registry_path())


def cache_dir() -> Path:
    """Give where fetched files are kept: ``$IRREPRO_CACHE`` or the user cache directory.

    Returns
    -------
    pathlib.Path
        The cache directory.
    """
    configured = os.environ.get(CACHE_VARIABLE)
    return Path(configured) if configured else Path(platformdirs.user_cache_dir("irrepro"))


def mirror_dir() -> Path | None:
    """Give the local mirror named by ``$IRREPRO_DATA_MIRROR``, if any.

    Returns
    -------
    pathlib.Path or None
        The mirror's directory.
    """
    configured = os.environ.get(MIRROR_VARIABLE)
    return Path(configured).expanduser().resolve() if configured else None


def _entry(name: str) -> RegistryEntry:
    entries = registry()
    if name not in entries:
        close = [known for known in entries if name.split("/")[-1] in known][:5]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise DataError(f"{name!r} is not in the data registry {_registry_path()}{hint}")
    return entries[name]


# --------------------------------------------------------------------------- verified copies

# Path -> (stat signature, sha256) of the version of the file this process has hashed and found
# right. irrepro only ever replaces a file by a rename (a new inode), and a change in place changes
# size, mtime or ctime, so a signature that still matches is the very file that was hashed; the
# memo spares re-hashing it on every fetch. A new process hashes every file once.
_VERIFIED: dict[str, tuple[tuple[int, ...], str]] = {}


def _signature(status: os.stat_result) -> tuple[int, ...]:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _is_verified(path: Path, sha256: str) -> bool:
    """Does ``path`` hold the file with this sha256? Hashes each version of a file once per process."""
    try:
        if _VERIFIED.get(str(path)) == (_signature(os.stat(path)), sha256):
            return True
        with open(path, "rb") as handle:  # the signature of what is hashed, even if renamed over meanwhile
            signature = _signature(os.fstat(handle.fileno()))
            found = hash_handle(handle)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return False
    if found != sha256:
        return False
    _VERIFIED[str(path)] = (signature, sha256)
    return True


class _HashingSink:
    """A binary file that hashes what is written to it (pooch's downloaders call write and flush)."""

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle
        self._digest = hashlib.sha256()

    def write(self, block: bytes) -> int:
        self._digest.update(block)
        return self._handle.write(block)

    def flush(self) -> None:
        pass  # pooch flushes after every 1 kB chunk; the atomic writer flushes once, at the end

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


def _write_verified(target: Path, sha256: str, fill: Callable[[_HashingSink], object], *, source: str,
                    hint: str = "") -> None:
    """Let ``fill`` write a temporary file beside ``target``; rename it into place if its sha256 is right.

    ``source`` says what was copied (for the error). A mismatch raises :class:`DataError` and leaves
    ``target`` as it was. The caller holds the file's lock.
    """
    # Not synced to disk: after a power loss every process hashes the file again before trusting it.
    with atomic_open(target, "wb", durable=False) as handle:
        sink = _HashingSink(handle)
        fill(sink)
        if sink.hexdigest() != sha256:
            raise DataError(f"{source} has sha256 {sink.hexdigest()}, the registry expects {sha256}{hint}")
    _VERIFIED[str(target)] = (_signature(os.stat(target)), sha256)


@contextmanager
def _producing(target: Path) -> Iterator[None]:
    """Hold ``target``'s lock while it is produced; clear what killed producers left behind.

    The lock is ``.NAME.lock`` beside the file (an ``flock``: the kernel releases it when its holder
    dies, so a leftover lock file never blocks). A ``.NAME.*.part`` file seen while holding the lock
    belongs to no live producer and is removed.
    """
    # imported here: only producing a file needs it (the CLI's start-up time)
    from filelock import FileLock

    _check_folder(target.parent)
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(target.parent / f".{target.name}.lock"):
        with os.scandir(target.parent) as entries:
            leftovers = [entry.path for entry in entries if _is_temporary_of(entry.name, target.name)]
        for path in leftovers:
            Path(path).unlink(missing_ok=True)
        yield


def _check_folder(folder: Path) -> None:
    """Refuse a cache folder that cannot be made: a link to nowhere, or a file, on its path."""
    for path in (folder, *folder.parents):
        if path.is_symlink() and not path.exists():
            raise DataError(
                f"the cache folder {path} is a symbolic link to {os.readlink(path)}, which does not exist: create "
                f"that folder or set {CACHE_VARIABLE} to another"
            )
        if path.exists() and not path.is_dir():
            raise DataError(f"the cache folder {path} is a file, not a folder: set {CACHE_VARIABLE} to a folder")


_MKSTEMP_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # tempfile's random names


def _is_temporary_of(name: str, target: str) -> bool:
    """Is ``name`` a temporary file of the atomic writer for ``target`` (``.TARGET.XXXXXXXX.part``)?"""
    prefix, suffix = f".{target}.", ".part"
    random_part = name[len(prefix):-len(suffix)]
    return (name.startswith(prefix) and name.endswith(suffix) and len(random_part) == 8
            and set(random_part) <= _MKSTEMP_CHARACTERS)


def _ensure(target: Path, sha256: str, produce: Callable[[], None]) -> Path:
    """``target`` verified: as it is, or produced by ``produce`` under the file's lock."""
    if _is_verified(target, sha256):  # the fast path: no lock for a file that is there and right
        return target
    try:
        with _producing(target):
            if not _is_verified(target, sha256):  # another process may have produced it meanwhile
                produce()
    except OSError as error:  # a read-only or full cache: say which folder and what to do
        raise DataError(
            f"{target}: could not be written into the cache ({error}); "
            f"set {CACHE_VARIABLE} to a writable folder with free space"
        ) from error
    return target


# --------------------------------------------------------------------------- sources


def _from_mirror(entry: RegistryEntry, target: Path) -> bool:
    mirror = mirror_dir()
    if mirror is None:
        return False
    candidate = mirror / entry.name
    if not candidate.is_file():
        return False
    with open(candidate, "rb") as source:
        _write_verified(
            target, entry.sha256, lambda sink: shutil.copyfileobj(source, sink, 1 << 20),
            source=f"{entry.name}: the copy in the mirror {candidate}",
            hint=f"; replace it with the file from {entry.url or entry.source}",
        )
    return True


def _download(entry: RegistryEntry, target: Path) -> None:
    # imported here: pooch pulls in tqdm.auto, which warns inside notebooks
    from pooch.downloaders import choose_downloader

    download = choose_downloader(entry.url, progressbar=False)

    def into(path: Path, sha256: str, what: str) -> None:
        _write_verified(path, sha256, lambda sink: download(entry.url, sink, None), source=what)

    if not entry.member:
        into(target, entry.sha256, f"{entry.name}: the download from {entry.url}")
        return
    # A file inside an archive (a wheel): fetch the archive by its own hash, then extract the member.
    archive = cache_dir() / "_archives" / f"{entry.archive_sha256[:16]}-{entry.url.rsplit('/', 1)[-1]}"
    _ensure(archive, entry.archive_sha256,
            lambda: into(archive, entry.archive_sha256, f"{entry.name}: the archive downloaded from {entry.url}"))
    with zipfile.ZipFile(archive) as bundle, bundle.open(entry.member) as member:
        _write_verified(target, entry.sha256, lambda sink: shutil.copyfileobj(member, sink, 1 << 20),
                        source=f"{entry.name}: {entry.member} in {archive}")


def _produce(entry: RegistryEntry, target: Path) -> None:
    """Copy ``entry`` from the mirror or download it into ``target``; the caller holds the lock."""
    if _from_mirror(entry, target):
        return
    where = [str(target)]
    if mirror_dir() is not None:
        where.append(str(mirror_dir() / entry.name))
    if not entry.downloadable:
        raise DataError(
            f"{entry.name} has no public download ({entry.source}); {_cache_state(entry, target)}looked in "
            f"{', '.join(where)}. Set {MIRROR_VARIABLE} to a folder that holds it under that name."
        )
    try:
        _download(entry, target)
    except DataError:
        raise
    except Exception as error:  # network errors come in many types; the message is what matters
        state = _cache_state(entry, target) or "not in the cache or the mirror; "
        raise DataError(
            f"{entry.name}: {state}looked in {', '.join(where)}, and the download from {entry.url} failed: "
            f"{error}. Without internet, set {MIRROR_VARIABLE} to a folder holding the file (e.g. ../shared/data)."
        ) from error


def _cache_state(entry: RegistryEntry, target: Path) -> str:
    """``"the copy in the cache ... is damaged ...; "`` when a wrong file is there, else ``""``."""
    try:
        with open(target, "rb") as handle:
            found = hash_handle(handle)
    except OSError:
        return ""
    return f"the copy in the cache {target} is damaged (sha256 {found}, the registry expects {entry.sha256}); "


def fetch(name: str) -> Path:
    """Return the path of a verified local copy of the registered file ``name``.

    Safe with many processes fetching into one cache: a file is produced under a per-file lock into
    a temporary file beside it, verified, and renamed into place, so a file under its final name is
    always complete and verified, and a path returned here is never rewritten in place.

    Parameters
    ----------
    name : str
        A registered name (a path relative to the cache).

    Returns
    -------
    pathlib.Path
        The verified copy in the cache.

    Raises
    ------
    DataError
        If the file is not registered, cannot be found in the mirror nor downloaded,
        or its sha256 differs from the registry's.
    """
    entry = _entry(name)
    target = cache_dir() / entry.name
    return _ensure(target, entry.sha256, lambda: _produce(entry, target))


def fetch_many(prefix: str) -> dict[str, Path]:
    """Fetch every registered file whose name starts with ``prefix``.

    Parameters
    ----------
    prefix : str
        The start of the names.

    Returns
    -------
    dict of str -> pathlib.Path
        Name -> verified copy.

    Raises
    ------
    DataError
        If no registered file starts with ``prefix``, or one cannot be fetched.
    """
    names = sorted(name for name in registry() if name.startswith(prefix))
    if not names:
        raise DataError(f"no registered file starts with {prefix!r}")
    return {name: fetch(name) for name in names}


def verify(names: list[str] | None = None) -> dict[str, str]:
    """Check cached copies against the registry without fetching.

    Parameters
    ----------
    names : list of str, optional
        The files to check; default: every registered file.

    Returns
    -------
    dict of str -> str
        Name -> ``'ok'``, ``'missing'`` or ``'bad hash'``.
    """
    status = {}
    for name, entry in registry().items():
        if names is not None and name not in names:
            continue
        path = cache_dir() / name
        if not path.is_file():
            status[name] = "missing"
        else:
            status[name] = "ok" if sha256_of(path) == entry.sha256 else "bad hash"
    return status


def provenance(names: list[str] | None = None) -> list[dict[str, str]]:
    """List name, sha256, source and URL of registered files, for a provenance table.

    Parameters
    ----------
    names : list of str, optional
        The files; default: every registered file.

    Returns
    -------
    list of dict of str -> str
        One dict per file, keys ``name``, ``sha256``, ``source`` and ``url``.
    """
    return [
        {"name": entry.name, "sha256": entry.sha256, "source": entry.source, "url": entry.url}
        for entry in registry().values()
        if names is None or entry.name in names
    ]
