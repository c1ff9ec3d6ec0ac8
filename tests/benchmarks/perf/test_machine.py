"""What the numbers were measured on: every field there, read or "unknown", never guessed."""

from __future__ import annotations

import os

from perf import machine


def test_the_description_names_the_machine_the_software_and_the_load():
    described = machine.describe(packages=("numpy", "no-such-package-here"))
    assert set(described) == {"cpu", "cores", "usable_cores", "memory_gib", "system", "python", "irrepro", "revision",
                              "load_1min", "load_5min", "libraries"}  # fmt: skip
    assert described["cores"] == os.cpu_count() and 1 <= described["usable_cores"] <= described["cores"]
    assert described["libraries"].startswith("numpy ") and described["libraries"].endswith("no-such-package-here not installed")
    from irrepro.version import __version__

    assert described["irrepro"] == __version__
    assert described["load_1min"] == "unknown" or described["load_1min"] >= 0


def test_outside_a_git_checkout_the_revision_is_unknown(tmp_path):
    assert machine.revision(tmp_path) == "unknown"
