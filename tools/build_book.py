"""Build the book with every core: the chapters' notebooks run side by side, then Sphinx in parallel.

Usage: python tools/build_book.py [--jobs N] [--root BOOK] [--output-folder FOLDER]

``jupyter-book build`` runs one notebook after another and then reads and writes the pages on one
core, so on the 2-core machines of this project the second core idled for most of the build. This
tool does the same work in two steps, each on ``--jobs`` processes (default: the machine's cores):

1. **Execute.** Every notebook page of the table of contents runs top to bottom in a fresh kernel
   (what myst-nb does, with its settings from ``_config.yml``: working folder, timeout), ``--jobs``
   at a time in table-of-contents order, and the executed notebooks go into the build's execution
   cache (``_build/.jupyter_cache``, emptied first), each with its run time. A failing cell stops
   the build with the chapter's name and traceback.
2. **Build.** ``jupyter-book build . --builder html -W -n --keep-going`` with Sphinx reading and
   writing on ``--jobs`` processes. ``_config.yml`` executes notebooks in ``cache`` mode, so myst-nb
   takes each page's outputs from step 1 (it matches a notebook by the hash of its code cells) and
   executes only a page step 1 did not run.

The cache is marked with the digest of the book's sources (:mod:`book_stamp`); ``_ext/execution_cache``
empties a cache made from other sources before Sphinx reads a page, so a plain ``jupyter-book build``
never shows outputs of an older ``src/`` either.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "_ext"))  # the book's Sphinx extensions, as Sphinx finds them

import book_stamp  # noqa: E402  (a tool beside this one)

BUILD_ARGUMENTS = ("--builder", "html", "-W", "-n", "--keep-going")
#: The thread counts of the BLAS libraries numpy and scipy may use (as the Makefile pins them).
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@dataclasses.dataclass(frozen=True)
class Execution:
    """One notebook page run top to bottom: its executed notebook (JSON), seconds, and error, if any."""

    page: str
    notebook_json: str
    seconds: float
    error: str | None


def skip_iri_grammars() -> None:
    """Leave out jsonschema's optional check of the "iri" string format for this process.

    Importing jsonschema (jupyter-book validates ``_config.yml`` with it) imports rfc3987-syntax
    when installed, which compiles 38 Lark grammars: 2.2 s before the build starts. The check is
    for an "iri" format that no schema of the build asks for (jupyter-book validates without
    format checks); marked absent, the package is not imported and jsonschema skips that format.
    """
    sys.modules.setdefault("rfc3987_syntax", None)


def sphinx_settings(root: Path = ROOT) -> dict:
    """The Sphinx configuration ``jupyter-book build`` makes of the book's ``_config.yml``."""
    from jupyter_book.config import get_final_config

    settings, _ = get_final_config(user_yaml=root / "_config.yml", sourcedir=root,
                                   cli_config={"latex_individualpages": False})  # fmt: skip
    return settings


def notebook_pages(root: Path = ROOT) -> list[Path]:
    """The table of contents' pages that myst-nb executes (MyST notebooks and ``.ipynb``), in its order."""
    from myst_nb.core.read import is_myst_markdown_notebook
    from sphinx_external_toc.parsing import parse_toc_yaml

    pages = []
    for docname in parse_toc_yaml(root / "_toc.yml"):
        notebook = root / f"{docname}.ipynb"
        markdown = root / f"{docname}.md"
        if notebook.is_file():
            pages.append(notebook)
        elif markdown.is_file() and is_myst_markdown_notebook(markdown.read_text(encoding="utf-8")):
            pages.append(markdown)
    return pages


def read_notebook(path: Path, settings: dict):
    """``path`` as the notebook myst-nb reads from it in the build (same reader, same MyST settings),
    so the code cells, and with them the cache's hash, are the ones Sphinx will look up."""
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.read import create_nb_reader
    from myst_parser.config.main import MdParserConfig

    fields = {field.name for field in dataclasses.fields(MdParserConfig)}
    markdown = MdParserConfig(**{key[5:]: value for key, value in settings.items()
                                 if key.startswith("myst_") and key[5:] in fields})  # fmt: skip
    text = path.read_text(encoding="utf-8")
    return create_nb_reader(str(path), markdown, NbParserConfig(), text).read(text)


def execute(path: Path, settings: dict) -> Execution:
    """Run the notebook page ``path`` as myst-nb does (working folder: the page's, its timeout)."""
    import nbformat
    from jupyter_cache.executors.utils import single_nb_execution

    notebook = read_notebook(path, settings)
    result = single_nb_execution(notebook, cwd=str(path.parent), timeout=settings.get("nb_execution_timeout", 30),
                                 allow_errors=False, meta_override=True)  # fmt: skip
    return Execution(page=str(path), notebook_json=nbformat.writes(notebook), seconds=result.time,
                     error=result.exc_string if result.err is not None else None)  # fmt: skip


def execute_all(pages: list[Path], settings: dict, *, jobs: int, root: Path = ROOT) -> list[Execution]:
    """Every page of ``pages``, ``jobs`` at a time, in their order; printed (relative to ``root``) as each ends."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(execute, page, settings) for page in pages]
        executions = []
        for future in futures:
            executions.append(future.result())
            done = executions[-1]
            print(f"{Path(done.page).relative_to(root)}: executed in {done.seconds:.1f} s"
                  + (" (failed)" if done.error else ""), flush=True)  # fmt: skip
    return executions


def fill_cache(cache_path: Path, executions: list[Execution], stamp: str) -> None:
    """Put the executed notebooks into a new execution cache at ``cache_path``, marked with ``stamp``."""
    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    shutil.rmtree(cache_path, ignore_errors=True)
    cache = get_cache(str(cache_path))
    for done in executions:
        notebook = nbformat.reads(done.notebook_json, as_version=4)
        cache.cache_notebook_bundle(CacheBundleIn(notebook, done.page, data={"execution_seconds": done.seconds}),
                                    check_validity=False, overwrite=True)  # fmt: skip
    (cache_path / book_stamp.EXECUTION_CACHE_STAMP).write_text(stamp + "\n")


def build(root: Path, output_folder: Path, *, jobs: int) -> int:
    """``jupyter-book build`` with :data:`BUILD_ARGUMENTS`, Sphinx on ``jobs`` processes; its exit code."""
    import jupyter_book.cli.main as cli
    import jupyter_book.sphinx as jupyter_book_sphinx

    # jupyter-book's command line has no option for Sphinx's parallel jobs; its build function has
    sequential = jupyter_book_sphinx.build_sphinx
    jupyter_book_sphinx.build_sphinx = lambda *args, **kwargs: sequential(*args, **{**kwargs, "jobs": jobs})
    arguments = ["build", str(root), *BUILD_ARGUMENTS]
    if output_folder != root:
        arguments += ["--path-output", str(output_folder)]
    try:
        cli.main(arguments, standalone_mode=False)
    except SystemExit as stop:
        return int(stop.code or 0)
    except RuntimeError as error:  # jupyter-book's "There was an error in building your book"
        print(error, file=sys.stderr)
        return 1
    finally:
        jupyter_book_sphinx.build_sphinx = sequential
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: the machine's cores)"
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the book's folder (default: this repository)")
    parser.add_argument(
        "--output-folder", type=Path, help="the folder whose _build/ receives the book (default: the book's)"
    )
    options = parser.parse_args(argv)
    root = options.root.resolve()
    output_folder = (options.output_folder or root).resolve()
    started = time.perf_counter()
    if options.jobs > 1:  # notebooks side by side, each on one core: no BLAS threads competing for the others
        for variable in BLAS_THREAD_VARIABLES:
            os.environ.setdefault(variable, "1")
    skip_iri_grammars()
    settings = sphinx_settings(root)
    stamp = book_stamp.digest(root)
    pages = notebook_pages(root)
    print(f"executing {len(pages)} notebooks, {options.jobs} at a time", flush=True)
    executions = execute_all(pages, settings, jobs=options.jobs, root=root)
    failed = [done for done in executions if done.error]
    for done in failed:
        print(f"\n{done.page}: a cell failed\n{done.error}", file=sys.stderr)
    if failed:
        return 1
    fill_cache(output_folder / "_build" / ".jupyter_cache", executions, stamp)
    from notebook_times import JOBS_VARIABLE  # the extension whose table says how the times were taken

    os.environ[JOBS_VARIABLE] = str(options.jobs)
    print(f"notebooks executed in {time.perf_counter() - started:.0f} s; building the pages", flush=True)
    code = build(root, output_folder, jobs=options.jobs)
    print(f"build_book: {time.perf_counter() - started:.0f} s in all", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
