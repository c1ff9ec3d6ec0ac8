"""_ext/parallel_build.py: the pages ordered so that Sphinx's reading processes get equal work, and
the pages handed to the writing process a few at a time."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

# the extension works inside Sphinx, which comes with the book's extra (irrepro[book]), not the tests'
sphinx_builders = pytest.importorskip("sphinx.builders")
make_chunks = pytest.importorskip("sphinx.util.parallel").make_chunks

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    """An extension of ``_ext/`` as Sphinx imports it (by its module name, ``_ext`` on the path)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "_ext" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_load("api_reference")  # parallel_build reads the API directives with it
parallel_build = _load("parallel_build")

# The book's pages as Sphinx named them in order, with the bytes read_cost gave them (rounded):
# the API pages sit together, so Sphinx's first run of 11 held them all.
BOOK = {
    "chapters/course": 9_000, "chapters/glm": 40_000, "chapters/intro": 8_000,
    "chapters/measuring_reproducibility": 60_000, "chapters/provenance": 5_000, "chapters/routing_runs": 70_000,
    "docs/api/api": 1_000, "docs/api/api-evaluation": 50_000, "docs/api/api-exercises": 57_000,
    "docs/api/api-glm": 51_000, "docs/api/api-io": 138_000, "docs/api/api-papers": 1_064_000,
    "docs/api/api-report": 106_000, "docs/api/api-reproducibility": 135_000, "docs/api/api-routing": 275_000,
    "docs/api/api-support": 146_000, "docs/using/benchmarks": 2_000, "docs/using/cluster": 6_000,
    "docs/using/command-line": 20_000, "docs/using/inputs-and-errors": 12_000, "docs/using/installation": 7_000,
    "docs/using/layout": 3_000, "docs/using/licensed-corpora": 4_000, "docs/using/own-runs": 9_000,
    "docs/using/performance": 10_000, "docs/using/teaching": 8_000, "docs/using/writing": 6_000,
}  # fmt: skip


def _run_costs(order: list[str], costs: dict[str, int], processes: int) -> list[int]:
    return [sum(costs[page] for page in run) for run in make_chunks(order, processes)]


def test_the_book_read_in_sphinx_order_leaves_one_process_with_most_of_the_work():
    first, second, *_ = _run_costs(sorted(BOOK), BOOK, 2)
    assert second > 3 * first  # what the reordering is for


def test_the_book_in_balanced_order_gives_both_first_runs_about_half():
    order = parallel_build.balanced_order(BOOK, 2)
    assert sorted(order) == sorted(BOOK)
    first, second, *later = _run_costs(order, BOOK, 2)
    assert abs(first - second) < 0.1 * (first + second)
    assert sum(later) < 0.02 * sum(BOOK.values())  # the lightest pages, read last


@given(
    costs=st.dictionaries(st.text("abcdef", min_size=1, max_size=6), st.integers(0, 10**6), min_size=1, max_size=40),
    processes=st.integers(1, 4),
)
def test_a_balanced_order_is_every_page_once_and_evens_out_the_first_runs(costs, processes):
    order = parallel_build.balanced_order(costs, processes)
    assert sorted(order) == sorted(costs)
    runs = make_chunks(order, processes)
    first = runs[:processes]
    later = [page for run in runs[processes:] for page in run]
    if later:  # the later runs hold the cheapest pages
        assert max(costs[page] for page in later) <= min(costs[page] for run in first for page in run)
    loads = [sum(costs[page] for page in run) for run in first]
    assert max(loads) - min(loads) <= max(costs.values())  # greedy: no run ahead by more than one page


def test_a_page_costs_its_source_and_the_modules_its_api_directive_documents():
    text = "# GLM\n\n```{eval-rst}\n.. api-modules:: irrepro.glm\n```\n"
    modules = parallel_build.public_modules("irrepro.glm")
    assert len(modules) > 1
    module_bytes = sum(os.path.getsize(importlib.import_module(name).__file__) for name in modules)
    assert parallel_build.read_cost(text) == len(text.encode()) + module_bytes
    assert parallel_build.read_cost("# Prose only\n") == len(b"# Prose only\n")


def test_pages_are_written_a_few_at_a_time_while_writing_only():
    pages = [f"page{number}" for number in range(7)]
    chunks = parallel_build.small_chunks(pages, 1)
    assert [page for chunk in chunks for page in chunk] == pages
    assert {len(chunk) for chunk in chunks[:-1]} == {parallel_build.WRITE_CHUNK_PAGES}
    app = SimpleNamespace(parallel=2)
    try:
        parallel_build.write_in_small_chunks(app, None)
        assert sphinx_builders.make_chunks is parallel_build.small_chunks
    finally:
        parallel_build.restore_chunks(app, None)
    assert sphinx_builders.make_chunks is make_chunks
    parallel_build.write_in_small_chunks(SimpleNamespace(parallel=1), None)  # one process: Sphinx writes alone
    assert sphinx_builders.make_chunks is make_chunks
