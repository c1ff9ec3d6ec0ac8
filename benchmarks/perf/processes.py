"""A command as a whole process: its peak memory, wall-clock and CPU time, and the time its imports take.

A user meets a command as a process: interpreter start, imports, work and exit. Two commands are
compared by running them in turn (A B A B ...), so that a change of the machine's load during the
measurement falls on both, and by taking each one's median.

Peak memory is the process's maximum resident set size, taken by a small parent that does nothing
but start the command and wait for it: GNU ``time`` (``/usr/bin/time``) when installed, otherwise a
minimal Python launcher. Not this process's ``wait4``: on Linux a process's peak starts from that of
the process it was started from (``exec`` carries the old address space's peak over), so a command
started from a notebook kernel would report at least the kernel's size.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from perf import ROOT

#: Started by the Python launcher: the command, then its peak RSS (KiB), user and system CPU seconds
#: written to the file named first, as GNU time's ``-f "%M %U %S" -o FILE`` writes them.
_LAUNCHER = (
    "import os, sys\n"
    "pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    out.write(f'{usage.ru_maxrss} {usage.ru_utime} {usage.ru_stime}')\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


@dataclass(frozen=True)
class ProcessCost:
    """What one process took: wall-clock seconds, CPU seconds (user + system), peak resident MiB."""

    wall_s: float
    cpu_s: float
    peak_mib: float


@dataclass(frozen=True)
class Finished:
    """One measured process: its cost and what it printed on stdout."""

    cost: ProcessCost
    stdout: str


def environment(src: os.PathLike | str | None = None) -> dict[str, str]:
    """The environment the measured commands run in: this checkout's (or ``src``'s) irrepro, one BLAS thread.

    Without ``PYTHONDONTWRITEBYTECODE``: irrepro, run from its source tree, would otherwise compile its
    modules in every process, while the peers' site-packages hold bytecode compiled when installed.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(src or ROOT / "src"), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def timer_wrapper(use_gnu_time: bool | None = None) -> list[str]:
    """The parent that measures a command: GNU time if installed (or ``use_gnu_time=True``), else the launcher."""
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    if use_gnu_time and gnu_time is None:
        raise FileNotFoundError("GNU time (/usr/bin/time) is not installed: apt-get install time")
    if gnu_time is not None and use_gnu_time is not False:
        return [gnu_time, "-f", "%M %U %S", "-o"]
    return [sys.executable, "-I", "-S", "-c", _LAUNCHER]


def run_measured(command: Sequence[str], *, env: Mapping[str, str] | None = None, wrapper: Sequence[str] | None = None) -> Finished:
    """Run ``command`` once as a process, measured by ``wrapper`` (default :func:`timer_wrapper`).

    Raises :class:`RuntimeError` with the end of its stderr when the command fails: a failed run
    has no meaningful cost.
    """
    wrapper = list(wrapper or timer_wrapper())
    with tempfile.NamedTemporaryFile("r", suffix=".cost") as measured:
        start = time.perf_counter()
        done = subprocess.run([*wrapper, measured.name, *command], capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[:4])} ... failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
        peak_kib, user, system = (float(value) for value in measured.read().split()[-3:])
    return Finished(ProcessCost(wall_s=wall, cpu_s=user + system, peak_mib=peak_kib / 1024), done.stdout)


def in_turn(commands: Mapping[str, Sequence[str]], repeats: int, *, env: Mapping[str, str] | None = None) -> dict[str, list[Finished]]:
    """Each command ``repeats`` times, in turn (A B A B ...): {name: its runs, in order}."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1; got {repeats!r}")
    wrapper = timer_wrapper()
    runs: dict[str, list[Finished]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            runs[name].append(run_measured(command, env=env, wrapper=wrapper))
    return runs


def median_cost(runs: Sequence[Finished]) -> ProcessCost:
    """The median wall time, CPU time and peak memory of several runs of one command (each on its own)."""
    return ProcessCost(
        wall_s=statistics.median(run.cost.wall_s for run in runs),
        cpu_s=statistics.median(run.cost.cpu_s for run in runs),
        peak_mib=statistics.median(run.cost.peak_mib for run in runs),
    )


def import_seconds(importtime_stderr: str) -> float:
    """Total import time of a process from its ``python -X importtime`` report (stderr), in seconds.

    The sum of the cumulative times of the top-level imports (those not nested in another), so every
    module counts once.
    """
    total_us = 0
    for line in importtime_stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|", 2)
        if cumulative.strip().isdigit() and not name[1:].startswith(" "):  # nested imports are indented
            total_us += int(cumulative)
    return total_us / 1e6


def command_import_seconds(command: Sequence[str], *, env: Mapping[str, str] | None = None) -> float:
    """Seconds a Python command (``[python, ...]``) spends importing, from one run under ``-X importtime``."""
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])} ... failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return import_seconds(done.stderr)


def module_import_seconds(module: str, *, after: str = "numpy, pandas", repeats: int = 5) -> float:
    """Median self-reported import time of ``module`` in a fresh process that has imported ``after`` first."""
    seconds = []
    for _ in range(repeats):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {after}; import {module}"],
                              capture_output=True, text=True, check=True)  # fmt: skip
        line = next(row for row in done.stderr.splitlines() if row.rstrip().endswith(f"| {module}"))
        seconds.append(int(line.split("|")[1]) / 1e6)
    return statistics.median(seconds)
