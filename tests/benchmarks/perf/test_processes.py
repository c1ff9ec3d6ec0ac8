"""A command as a whole process: peak memory of the command itself, costs, order of runs, import time."""

from __future__ import annotations

import shutil
import sys

import pytest
from perf import ROOT, processes
from perf.processes import Finished, ProcessCost

GNU_TIME = shutil.which("time", path="/usr/bin:/bin")
WRAPPERS = [
    pytest.param(False, id="python-launcher"),
    pytest.param(True, id="gnu-time", marks=pytest.mark.skipif(GNU_TIME is None, reason="GNU time not installed")),
]
#: 64 MiB of bytes written (not only reserved), so they are resident.
ALLOCATE = "data = b'x' * (64 * 2**20); print(len(data))"


@pytest.mark.parametrize("gnu_time", WRAPPERS)
def test_the_peak_is_the_commands_own_and_grows_with_what_it_holds(gnu_time):
    wrapper = processes.timer_wrapper(gnu_time)
    small = processes.run_measured([sys.executable, "-c", "pass"], wrapper=wrapper)
    large = processes.run_measured([sys.executable, "-c", ALLOCATE], wrapper=wrapper)
    assert 0 < small.cost.peak_mib < 40  # not this (pytest) process's size: the measuring parent is tiny
    assert large.cost.peak_mib >= small.cost.peak_mib + 60
    assert large.stdout.strip() == str(64 * 2**20)
    assert large.cost.wall_s > 0 and large.cost.cpu_s > 0


def test_a_failed_command_is_an_error_with_its_stderr():
    with pytest.raises(RuntimeError, match=r"(?s)failed \(exit 3\):\nwent wrong"):
        processes.run_measured([sys.executable, "-c", "import sys; print('went wrong', file=sys.stderr); sys.exit(3)"])


def test_commands_run_in_turn(tmp_path):
    log = tmp_path / "order"
    commands = {name: [sys.executable, "-c", f"open({str(log)!r}, 'a').write({name!r})"] for name in ("A", "B")}
    runs = processes.in_turn(commands, 3)
    assert log.read_text() == "ABABAB"
    assert [len(runs[name]) for name in ("A", "B")] == [3, 3]


def test_in_turn_needs_a_repetition():
    with pytest.raises(ValueError, match="at least 1"):
        processes.in_turn({"A": [sys.executable, "-c", "pass"]}, 0)


def test_the_median_is_taken_per_quantity():
    runs = [Finished(ProcessCost(wall, cpu, peak), "") for wall, cpu, peak in [(3.0, 1.0, 50.0), (1.0, 2.0, 70.0), (2.0, 9.0, 60.0)]]
    assert processes.median_cost(runs) == ProcessCost(wall_s=2.0, cpu_s=2.0, peak_mib=60.0)


def test_the_environment_runs_this_checkouts_irrepro_with_bytecode(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = processes.environment()
    assert env["PYTHONPATH"] == str(ROOT / "src") and "PYTHONDONTWRITEBYTECODE" not in env
    assert env["OPENBLAS_NUM_THREADS"] == "1"
    assert processes.environment("/elsewhere/src")["PYTHONPATH"] == "/elsewhere/src"


def test_import_time_counts_each_top_level_import_once():
    report = (
        "import time: self [us] | cumulative | imported package\n"
        "import time:       100 |        100 | encodings\n"
        "import time:        50 |         50 |   numpy.core\n"
        "import time:       200 |       1250 | numpy\n"
        "import time:        10 |         10 | json\n"
        "something else on stderr\n"
    )
    assert processes.import_seconds(report) == pytest.approx(1360e-6)


def test_a_commands_import_time_is_measured_and_smaller_for_fewer_modules():
    few = processes.command_import_seconds([sys.executable, "-c", "pass"])
    many = processes.command_import_seconds([sys.executable, "-c", "import json, csv, email.parser, decimal"])
    assert 0 < few < many
