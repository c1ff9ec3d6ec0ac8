"""What the numbers were measured on: CPU, cores, memory, system, Python, library versions, load.

Read from ``/proc`` where there is one (Linux) and from :mod:`platform` otherwise; a value that
cannot be read is ``"unknown"``, never a guess.
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from perf import ROOT

#: The libraries whose versions decide the numbers: irrepro's own stack and the peers.
PACKAGES = ("numpy", "pandas", "scipy", "pytrec-eval-terrier", "ir_measures", "repro_eval", "statsmodels")


def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``), else what :func:`platform.processor` says."""
    named = (line.split(":", 1)[1].strip() for line in _lines("/proc/cpuinfo") if line.startswith("model name"))
    return next(named, platform.processor() or "unknown")


def memory_gib() -> float | None:
    """Total memory in GiB (``/proc/meminfo``), None where it cannot be read."""
    kib = next((int(line.split()[1]) for line in _lines("/proc/meminfo") if line.startswith("MemTotal")), None)
    return None if kib is None else kib / 2**20


def version(package: str) -> str:
    """An installed distribution's version, or ``"not installed"``."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def revision(root: Path = ROOT) -> str:
    """The checkout's commit (``git describe --always --dirty``), ``"unknown"`` outside a git checkout."""
    try:
        done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"], capture_output=True, text=True)
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def load_average() -> tuple[float, float, float] | None:
    """The load average over 1, 5 and 15 minutes, None where the system has none."""
    try:
        return os.getloadavg()
    except OSError:
        return None


def describe(packages: Sequence[str] = PACKAGES) -> dict[str, object]:
    """The machine, the software and the load now, as one flat mapping (values ready to print)."""
    load = load_average()
    memory = memory_gib()
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "memory_gib": "unknown" if memory is None else round(memory, 1),
        "system": platform.platform(),
        "python": platform.python_version(),
        "irrepro": _irrepro_version(),
        "revision": revision(),
        "load_1min": "unknown" if load is None else round(load[0], 2),
        "load_5min": "unknown" if load is None else round(load[1], 2),
        "libraries": ", ".join(f"{name} {version(name)}" for name in packages),
    }


def _irrepro_version() -> str:
    """The version of the irrepro that is imported (this checkout's, not an installed copy's metadata)."""
    from irrepro.version import __version__

    return __version__
