"""What a build ran on: package versions, the git commit and the data files with their hashes.

Used by the book's closing page, so that every rendered page can be traced to code and data, and
by the ir_metadata headers of the runs irrepro writes (:func:`platform_metadata`,
:func:`implementation_source`: the Platform and the Implementation's source, in the schema's fields).
"""

from __future__ import annotations

import os
import platform
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import pandas as pd

from irrepro import data
from irrepro.revision import git_commit  # re-exported: the provenance page shows it

__all__ = ["KEY_PACKAGES", "REPOSITORY_VARIABLE", "package_versions", "git_commit", "data_files", "platform_metadata",
           "implementation_source"]

#: The setting naming the compendium's public repository (the book's buttons use it too).
REPOSITORY_VARIABLE = "IRREPRO_REPOSITORY_URL"

KEY_PACKAGES = (
    "irrepro", "numpy", "pandas", "scipy", "statsmodels", "scikit-learn", "nltk", "matplotlib",
    "seaborn", "pytrec-eval-terrier", "pooch", "jupyter-book", "myst-nb", "sphinx",
)


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> pd.DataFrame:
    """List the installed version of each package, plus Python itself.

    Parameters
    ----------
    names : tuple of str, default KEY_PACKAGES
        The packages.

    Returns
    -------
    pandas.DataFrame
        Columns ``package`` and ``version`` (``not installed`` where absent).
    """
    rows = [{"package": "python", "version": platform.python_version()}]
    for name in names:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not installed"
        rows.append({"package": name, "version": version})
    return pd.DataFrame(rows)


def data_files() -> pd.DataFrame:
    """List the registered data files present in the cache, with their sha256 (verified) and source.

    Returns
    -------
    pandas.DataFrame
        Columns ``file``, ``sha256``, ``verified`` and ``source``.
    """
    status = data.verify()
    rows = []
    for entry in data.provenance():
        state = status.get(entry["name"], "missing")
        if state == "missing":
            continue
        rows.append({"file": entry["name"], "sha256": entry["sha256"], "verified": state == "ok",
                     "source": entry["source"]})
    return pd.DataFrame(rows, columns=["file", "sha256", "verified", "source"])


# --------------------------------------------------------------------------- ir_metadata: platform, source


def _cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what the platform module says."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _distribution() -> str:
    """The operating system's name (/etc/os-release's PRETTY_NAME, as repro_eval reads it)."""
    try:
        for line in Path("/etc/os-release").read_text(encoding="utf-8").splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.partition("=")[2].strip().strip('"')
    except OSError:
        pass
    return platform.version()


def _ram() -> str | None:
    """The machine's memory in GB, two decimals (as repro_eval writes it); ``None`` where unknown."""
    try:
        size = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
    return f"{round(size / 1024.0**3, 2)} GB"


def _blas() -> list[str]:
    """The BLAS libraries numpy and scipy load: name==version (package, CPU kernel). Sums of
    products, and so a solver's path, can depend on them."""
    import numpy  # noqa: F401  (loads their BLAS, so that the list does not depend on what ran before)
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_info

    found = []
    for library in threadpool_info():
        if library.get("user_api") == "blas":
            package = Path(library.get("filepath", "")).parent.name.removesuffix(".libs") or "?"
            found.append(f"{library.get('internal_api')}=={library.get('version')} ({package}, "
                         f"{library.get('architecture') or 'unknown kernel'})")
    return sorted(set(found))


@lru_cache(maxsize=8)
def _platform(packages: tuple[str, ...]) -> dict:
    cpu = {"model": _cpu_model(), "architecture": platform.machine(),
           "operation mode": platform.architecture()[0].replace("bit", "-bit"), "number of cores": os.cpu_count()}
    hardware = {"cpu": cpu, **({"ram": _ram()} if _ram() else {})}
    python = [f"python=={platform.python_version()}"]
    for name in packages:
        try:
            python.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            python.append(f"{name} (not installed)")
    system = {"platform": platform.system(), "kernel": platform.release(), "distribution": _distribution()}
    return {"hardware": hardware, "operating system": system,
            "software": {"libraries": {"python": python, "native": _blas()}}}


def platform_metadata(packages: tuple[str, ...] = ()) -> dict:
    """Describe the ir_metadata Platform of this process.

    CPU, memory, operating system, Python, the versions of ``packages`` and the BLAS libraries. No
    time, no path, nothing that changes between two runs on one machine (a run's file, and so its
    sha256, stays the same when it is made again).

    Parameters
    ----------
    packages : tuple of str, default ()
        Packages whose versions to list.

    Returns
    -------
    dict
        The Platform fields: ``hardware``, ``operating system`` and ``software``.

    Examples
    --------
    >>> sorted(platform_metadata(("numpy",)))
    ['hardware', 'operating system', 'software']
    """
    import copy

    return copy.deepcopy(_platform(tuple(packages)))


def implementation_source() -> dict:
    """Describe the ir_metadata Implementation source of irrepro.

    Language, repository (if configured by ``$IRREPRO_REPOSITORY_URL``), git commit
    (:func:`git_commit`, ``+dirty`` for local changes) and version.

    Returns
    -------
    dict
        The source fields.
    """
    from irrepro import __version__

    source: dict = {"lang": ["python"]}
    repository = os.environ.get(REPOSITORY_VARIABLE, "").strip()
    if repository:
        source["repository"] = repository
    commit = _commit()
    if not commit.startswith("unknown"):
        source["commit"] = commit
    source["version"] = __version__
    return source


@lru_cache(maxsize=1)
def _commit() -> str:
    return git_commit()
