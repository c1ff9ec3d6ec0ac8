"""Fewer full garbage collections while Sphinx builds the book.

A page's doctree is tens of thousands of small objects linked both ways (parent and children), and
Sphinx makes one for each page three times (reading, numbering figures, resolving references).
Python's default thresholds (700, 10, 10) start a collection of the oldest generation about every
70,000 new objects, and each walks every object the process holds: the imported packages (pandas,
scikit-learn, statsmodels for the API pages) and the whole build environment. Measured on the
book: 45 such collections, 22 s of the 68 s of processor time of ``jupyter-book build``.

During the build the oldest generation is collected ten times less often (threshold 100, not 10),
and before Sphinx forks its reading and writing processes the main process freezes what it holds
(:func:`gc.freeze`), so that a forked process neither walks nor copies the inherited objects when
it collects. Unreachable cycles are still collected, less often: the processes' peak memory stays
about 0.5 GB. The default thresholds come back when the build ends.
"""

from __future__ import annotations

import gc

#: Collections of a younger generation before the oldest one is collected (Python's default: 10).
OLDEST_GENERATION_THRESHOLD = 100


def collect_less(app) -> None:
    app.lean_gc_thresholds = gc.get_threshold()
    young, middle, _ = app.lean_gc_thresholds
    gc.set_threshold(young, middle, OLDEST_GENERATION_THRESHOLD)


def freeze_before_fork(*_) -> None:
    gc.freeze()


def restore(app, exception) -> None:
    if hasattr(app, "lean_gc_thresholds"):
        gc.set_threshold(*app.lean_gc_thresholds)
    gc.unfreeze()


def setup(app):
    app.connect("builder-inited", collect_less)
    # the main process forks the readers after env-before-read-docs, the writers after write-started
    app.connect("env-before-read-docs", freeze_before_fork, priority=900)
    app.connect("write-started", freeze_before_fork)
    app.connect("build-finished", restore)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
