"""_ext/lean_gc.py: the oldest generation collected less often during the build, objects frozen before
Sphinx forks, Python's settings back afterwards."""

from __future__ import annotations

import gc
import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

_spec = importlib.util.spec_from_file_location("lean_gc", Path(__file__).resolve().parents[2] / "_ext" / "lean_gc.py")
lean_gc = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = lean_gc
_spec.loader.exec_module(lean_gc)


def test_the_build_collects_the_oldest_generation_less_often_and_restores_the_thresholds():
    before = gc.get_threshold()
    app = SimpleNamespace()
    try:
        lean_gc.collect_less(app)
        young, middle, oldest = gc.get_threshold()
        assert (young, middle) == before[:2] and oldest == lean_gc.OLDEST_GENERATION_THRESHOLD > before[2]
    finally:
        lean_gc.restore(app, None)
    assert gc.get_threshold() == before


def test_objects_are_frozen_before_a_fork_and_thawed_when_the_build_ends():
    held = [[number] for number in range(1000)]  # noqa: F841  (tracked objects to freeze)
    try:
        lean_gc.freeze_before_fork(None, None, [])
        assert gc.get_freeze_count() >= 1000
    finally:
        lean_gc.restore(SimpleNamespace(), None)  # no thresholds were changed: only the thaw
    assert gc.get_freeze_count() == 0
