"""The git revision of the code that runs: written into every output manifest and onto the book's
provenance page. A bottom-layer module (the standard library only), so that both can import it."""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["git_commit"]


def git_commit(repository: Path | None = None) -> str:
    """Give the commit the book was built from, with ``+dirty`` when the work tree has changes.

    Parameters
    ----------
    repository : pathlib.Path, optional
        The checkout; default: the one holding the package.

    Returns
    -------
    str
        The commit hash, or ``"unknown (not a git checkout)"``.
    """
    folder = repository or Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=folder, capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + ("+dirty" if dirty else "")
