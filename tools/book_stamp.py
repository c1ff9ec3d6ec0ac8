"""A digest of everything the built book depends on, so `make book` can skip an unchanged rebuild.

Usage: python tools/book_stamp.py        (prints the digest of the sources in the repository)

The digest covers the chapters, the pages of docs/ (Using irrepro, the API reference), the
package, the measuring code of the Performance page (benchmarks/perf), the Sphinx extensions, the notebook tool, the book's configuration, the lock, the data
registry (hashes of every data file), the routing-corpora configuration when there is one, and the environment variables that change a page. `make book`
writes it to ``_build/.book-stamp`` after a successful build and skips the next build while the
digest is unchanged and ``_build/html`` is there; `make test` therefore does not execute the
chapters a second time right after `make book`. A clean clone has no stamp and builds.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "chapters", "docs", "src", "benchmarks/perf", "_ext", "tools/make_notebooks.py", "_config.yml", "_toc.yml",
    "requirements.txt", "pyproject.toml", "data/registry.tsv", "routing-corpora.toml",
)
#: The file in the notebooks' execution cache that holds the digest of the sources it was made from
#: (written by tools/build_book.py, checked by _ext/execution_cache.py).
EXECUTION_CACHE_STAMP = "irrepro-sources.sha256"
ENVIRONMENT = ("IRREPRO_REPOSITORY_URL", "IRREPRO_REPOSITORY_BRANCH", "IRREPRO_ROUTING_CONFIG")
_SKIP_PARTS = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", "_generated"}  # _generated: written by the build
_SKIP_SUFFIXES = {".pyc", ".pyo"}


def _files(root: Path) -> list[Path]:
    found = []
    for name in SOURCES:
        path = root / name
        candidates = sorted(path.rglob("*")) if path.is_dir() else [path]
        for candidate in candidates:
            relative = candidate.relative_to(root)
            if candidate.is_file() and not _SKIP_PARTS & set(relative.parts) and candidate.suffix not in _SKIP_SUFFIXES \
                    and not any(part.endswith(".egg-info") for part in relative.parts):
                found.append(candidate)
    return found


def digest(root: Path = ROOT, environ: Mapping[str, str] = os.environ) -> str:
    """SHA-256 over the paths and contents of the book's sources and the relevant variables."""
    sha = hashlib.sha256()
    for path in _files(root):
        sha.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in ENVIRONMENT:
        sha.update(f"{name}={environ.get(name, '')}\0".encode())
    routing_config = environ.get("IRREPRO_ROUTING_CONFIG")
    if routing_config and Path(routing_config).is_file():
        sha.update(Path(routing_config).read_bytes())
    return sha.hexdigest()


if __name__ == "__main__":
    print(digest())
    sys.exit(0)
