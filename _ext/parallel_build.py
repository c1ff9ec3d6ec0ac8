"""Let Sphinx read and write the pages on several processes (``tools/build_book.py --jobs``), with
the work spread evenly over them.

Sphinx falls back to one process when an extension does not declare itself safe for parallel
reading and writing. Two extensions that Jupyter Book loads do not declare it and are safe here:

- ``sphinx_multitoc_numbering`` (loaded by sphinx-external-toc) only replaces the toctree
  collector's section numbering, which Sphinx runs in the main process after every page is read;
- ``sphinx_jupyterbook_latex`` acts only in LaTeX builds, so it is declared safe for HTML only.

Sphinx cuts the pages into runs of consecutive names for its processes, sized by count alone.
Two changes keep both cores busy:

- **Reading.** One API page costs more to read than the whole of "Using irrepro", and the API
  pages sit together in name order, so one process read them all while the other waited. Before
  reading, the pages are ordered so that Sphinx's first runs (one per process) carry about the
  same work, by :func:`read_cost`, and the lightest pages form the later runs.
- **Writing.** The main process resolves each page's references, then a process forked from it
  writes the HTML; Sphinx gave the writer 16 pages at once, so it waited until the main process
  had resolved all 16. Pages are handed over :data:`WRITE_CHUNK_PAGES` at a time instead, so
  resolving and writing overlap. Sphinx has no setting for it: its ``make_chunks`` is replaced
  while the pages are written.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import sphinx.builders
from api_reference import documented_packages, public_modules
from sphinx.util.parallel import make_chunks

SAFE_FOR_EVERY_BUILDER = ("sphinx_multitoc_numbering",)
SAFE_FOR_HTML = ("sphinx_jupyterbook_latex",)
#: Pages a writer process is given at a time (Sphinx's own rule gives 16 of the book's 27).
WRITE_CHUNK_PAGES = 2


def declare_safe(app) -> None:
    names = SAFE_FOR_EVERY_BUILDER + (SAFE_FOR_HTML if app.builder.format == "html" else ())
    for name in names:
        extension = app.extensions.get(name)
        if extension is not None:
            extension.parallel_read_safe = True
            extension.parallel_write_safe = True


def read_cost(source: str) -> int:
    """The work of reading a page, in bytes: its ``source`` and the Python modules its API directives document.

    Parsing dominates reading, so bytes stand for seconds (4-10 µs of processor time a byte on the book's API pages).
    """
    modules = {name for package in documented_packages(source) for name in public_modules(package)}
    return len(source.encode()) + sum(os.path.getsize(importlib.import_module(name).__file__) for name in modules)


def balanced_order(costs: dict[str, int], processes: int) -> list[str]:
    """The pages of ``costs`` ordered so that Sphinx's first ``processes`` runs carry about equal costs.

    Sphinx reads the runs ``make_chunks`` cuts from the ordered pages, the first ``processes`` at
    once and each later one when a process is free. The costliest pages go, one by one, to the
    first run with room and the least cost so far; the lightest pages fill the later runs.
    """
    sizes = [len(run) for run in make_chunks(list(costs), processes)]
    first = min(processes, len(sizes))
    heavy_slots = sum(sizes[:first])
    pages = sorted(costs, key=lambda page: (-costs[page], page))
    runs: list[list[str]] = [[] for _ in range(first)]
    for page in pages[:heavy_slots]:
        open_runs = [index for index in range(first) if len(runs[index]) < sizes[index]]
        lightest = min(open_runs, key=lambda index: sum(costs[name] for name in runs[index]))
        runs[lightest].append(page)
    return [page for run in runs for page in run] + pages[heavy_slots:]


def order_for_reading(app, env, docnames: list[str]) -> None:
    if app.parallel > 1 and len(docnames) > app.parallel:
        costs = {name: read_cost(Path(env.doc2path(name)).read_text(encoding="utf-8")) for name in docnames}
        docnames[:] = balanced_order(costs, app.parallel)


def small_chunks(arguments, nproc: int, maxbatch: int = 10) -> list:
    """Sphinx's ``make_chunks`` for writing: :data:`WRITE_CHUNK_PAGES` pages a run, in order."""
    return [arguments[start : start + WRITE_CHUNK_PAGES] for start in range(0, len(arguments), WRITE_CHUNK_PAGES)]


def write_in_small_chunks(app, builder) -> None:
    if app.parallel > 1:
        sphinx.builders.make_chunks = small_chunks


def restore_chunks(app, exception) -> None:
    sphinx.builders.make_chunks = make_chunks


def setup(app):
    # Sphinx asks the extensions after builder-inited, when it starts to read
    app.connect("builder-inited", declare_safe)
    # after api_reference has imported the modules the pages document (priority 500), before the forks
    app.connect("env-before-read-docs", order_for_reading, priority=800)
    app.connect("write-started", write_in_small_chunks)
    app.connect("build-finished", restore_chunks)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
