"""What a build ran on: package versions, the git commit and the data files with their hashes.

Used by the book's closing page, so that every rendered page can be traced to code and data.
"""

from __future__ import annotations

import platform
from importlib import metadata

import pandas as pd

from irrepro import data
from irrepro.revision import git_commit  # re-exported: the provenance page shows it

__all__ = ["KEY_PACKAGES", "package_versions", "git_commit", "data_files"]

KEY_PACKAGES = (
    "irrepro", "numpy", "pandas", "scipy", "statsmodels", "scikit-learn", "nltk", "matplotlib",
    "seaborn", "pytrec-eval-terrier", "pooch", "jupyter-book", "myst-nb", "sphinx",
)


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> pd.DataFrame:
    """Installed version of each package (``not installed`` where absent), plus Python itself."""
    rows = [{"package": "python", "version": platform.python_version()}]
    for name in names:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not installed"
        rows.append({"package": name, "version": version})
    return pd.DataFrame(rows)


def data_files() -> pd.DataFrame:
    """Registered data files present in the cache, with their sha256 (verified) and source."""
    status = data.verify()
    rows = []
    for entry in data.provenance():
        state = status.get(entry["name"], "missing")
        if state == "missing":
            continue
        rows.append({"file": entry["name"], "sha256": entry["sha256"], "verified": state == "ok",
                     "source": entry["source"]})
    return pd.DataFrame(rows, columns=["file", "sha256", "verified", "source"])
