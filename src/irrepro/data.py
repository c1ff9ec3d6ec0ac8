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
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import platformdirs

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
_DEFAULT_REGISTRY = Path(__file__).resolve().parents[2] / "data" / "registry.tsv"


class DataError(RuntimeError):
    """A registered file is missing, unreadable or has the wrong hash."""


@dataclass(frozen=True)
class RegistryEntry:
    """One public file: its name (relative path), hash and where it comes from."""

    name: str
    sha256: str
    url: str
    archive_sha256: str
    member: str
    source: str

    @property
    def downloadable(self) -> bool:
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
    """All registered files, by name."""
    return _read_registry(_registry_path())


def cache_dir() -> Path:
    """Where fetched files are kept: ``$IRREPRO_CACHE`` or the user cache directory."""
    configured = os.environ.get(CACHE_VARIABLE)
    return Path(configured) if configured else Path(platformdirs.user_cache_dir("irrepro"))


def mirror_dir() -> Path | None:
    """The local mirror named by ``$IRREPRO_DATA_MIRROR``, if any."""
    configured = os.environ.get(MIRROR_VARIABLE)
    return Path(configured).expanduser().resolve() if configured else None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _entry(name: str) -> RegistryEntry:
    entries = registry()
    if name not in entries:
        close = [known for known in entries if name.split("/")[-1] in known][:5]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise DataError(f"{name!r} is not in the data registry {_registry_path()}{hint}")
    return entries[name]


def _from_mirror(entry: RegistryEntry, target: Path) -> bool:
    mirror = mirror_dir()
    if mirror is None:
        return False
    candidate = mirror / entry.name
    if not candidate.is_file():
        return False
    found = sha256_of(candidate)
    if found != entry.sha256:
        raise DataError(
            f"{entry.name}: the copy in the mirror {candidate} has sha256 {found}, "
            f"the registry expects {entry.sha256}; replace it with the file from {entry.url or entry.source}"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(candidate, target)
    return True


def _download(entry: RegistryEntry, target: Path) -> None:
    import pooch  # imported here: it pulls in tqdm.auto, which warns inside notebooks

    target.parent.mkdir(parents=True, exist_ok=True)
    if not entry.member:
        pooch.retrieve(
            entry.url,
            known_hash=f"sha256:{entry.sha256}",
            fname=target.name,
            path=target.parent,
            progressbar=False,
        )
        return
    # A file inside an archive (a wheel): fetch the archive by its own hash, then extract the member.
    archive = pooch.retrieve(
        entry.url,
        known_hash=f"sha256:{entry.archive_sha256}",
        path=cache_dir() / "_archives",
        progressbar=False,
    )
    with zipfile.ZipFile(archive) as bundle, bundle.open(entry.member) as source:
        with open(target, "wb") as sink:
            shutil.copyfileobj(source, sink)


def fetch(name: str) -> Path:
    """Return the path of a verified local copy of the registered file ``name``.

    Raises
    ------
    DataError
        If the file is not registered, cannot be found in the mirror nor downloaded,
        or its sha256 differs from the registry's.
    """
    entry = _entry(name)
    target = cache_dir() / entry.name
    if target.is_file() and sha256_of(target) == entry.sha256:
        return target
    if not _from_mirror(entry, target):
        where = [str(target)]
        if mirror_dir() is not None:
            where.append(str(mirror_dir() / entry.name))
        if not entry.downloadable:
            raise DataError(
                f"{entry.name} has no public download ({entry.source}); looked in {', '.join(where)}. "
                f"Set {MIRROR_VARIABLE} to a folder that holds it under that name."
            )
        try:
            _download(entry, target)
        except Exception as error:  # network errors come in many types; the message is what matters
            raise DataError(
                f"{entry.name}: not in the cache or the mirror (looked in {', '.join(where)}) "
                f"and the download from {entry.url} failed: {error}. Without internet, set "
                f"{MIRROR_VARIABLE} to a folder holding the file (e.g. ../shared/data)."
            ) from error
    found = sha256_of(target)
    if found != entry.sha256:
        target.unlink()
        raise DataError(f"{entry.name}: fetched file has sha256 {found}, expected {entry.sha256}")
    return target


def fetch_many(prefix: str) -> dict[str, Path]:
    """Fetch every registered file whose name starts with ``prefix``; name -> path."""
    names = sorted(name for name in registry() if name.startswith(prefix))
    if not names:
        raise DataError(f"no registered file starts with {prefix!r}")
    return {name: fetch(name) for name in names}


def verify(names: list[str] | None = None) -> dict[str, str]:
    """Check cached copies against the registry without fetching: name -> 'ok', 'missing' or 'bad hash'."""
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
    """Name, sha256, source and URL of registered files, for a provenance table."""
    return [
        {"name": entry.name, "sha256": entry.sha256, "source": entry.source, "url": entry.url}
        for entry in registry().values()
        if names is None or entry.name in names
    ]
