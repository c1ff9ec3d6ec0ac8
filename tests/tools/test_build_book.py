"""tools/build_book.py: the notebooks run side by side into the execution cache, Sphinx takes them from it;
_ext/execution_cache: a cache made from other sources is not used."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.myst_pages import NOTEBOOK_FRONT_MATTER

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("build_book", ROOT / "tools" / "build_book.py")
build_book = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = build_book
_spec.loader.exec_module(build_book)

JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
CONFIG = """title: tiny
execute:
  execute_notebooks: cache
  timeout: 120
only_build_toc_files: true
sphinx:
  local_extensions:
    execution_cache: {ext}
    parallel_build: {ext}
    notebook_times: {ext}
"""
# Each chapter notes when it ran, so a test can tell whether the two ran at the same time.
CHAPTER = (
    NOTEBOOK_FRONT_MATTER
    + """# Chapter {name}

```{{code-cell}} ipython3
import time
from pathlib import Path

started = time.time()
time.sleep(2)
Path("..", "..", "{name}.ran").write_text(f"{{started}} {{time.time()}}")  # beside the book, not in it
print("computed by chapter {name}")
```
"""
)
TOC = "format: jb-book\nroot: chapters/a\nchapters:\n  - file: chapters/b\n  - file: chapters/plain\n"


def _book(folder: Path, *, chapter_b: str | None = None) -> Path:
    (folder / "chapters").mkdir(parents=True)
    (folder / "_config.yml").write_text(CONFIG.format(ext=ROOT / "_ext"))
    (folder / "_toc.yml").write_text(TOC)
    (folder / "chapters" / "a.md").write_text(CHAPTER.format(name="a"))
    (folder / "chapters" / "b.md").write_text(chapter_b or CHAPTER.format(name="b"))
    (folder / "chapters" / "plain.md").write_text("# Not a notebook\n\nText only.\n")
    return folder


def _build_book(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "build_book.py"), "--jobs", "2", "--root", str(folder)],
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


def _jupyter_book(folder: Path) -> subprocess.CompletedProcess:
    # --all: Sphinx reads every page again (it skips pages whose text did not change)
    return subprocess.run([str(JUPYTER_BOOK), "build", str(folder), "--all", "--builder", "html", "-W", "-n", "--keep-going"],
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip


def _interval(path: Path) -> tuple[float, float]:
    start, end = map(float, path.read_text().split())
    return start, end


def test_the_notebook_pages_are_the_tables_notebooks_in_its_order():
    pages = [page.relative_to(ROOT).as_posix() for page in build_book.notebook_pages()]
    assert pages[:3] == ["chapters/intro.md", "chapters/measuring_reproducibility.md", "chapters/routing_runs.md"]
    assert "chapters/glm.md" in pages and "docs/using/performance.md" in pages
    # pages without code cells are not executed
    assert "docs/using/installation.md" not in pages and "docs/api/api.md" not in pages


def test_each_chapter_is_read_with_the_code_cells_myst_nb_hashes():
    from jupyter_cache.cache.main import JupyterCacheBase
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    settings = build_book.sphinx_settings()
    hasher = JupyterCacheBase.__new__(JupyterCacheBase)
    for page in build_book.notebook_pages():
        ours = build_book.read_notebook(page, settings)
        text = page.read_text(encoding="utf-8")
        extensions = settings["myst_enable_extensions"]
        theirs = read_myst_markdown_notebook(text, MdParserConfig(enable_extensions=extensions), path=str(page))
        assert hasher.create_hashed_notebook(ours)[1] == hasher.create_hashed_notebook(theirs)[1], page
        assert any(cell.cell_type == "code" for cell in ours.cells), page


@pytest.mark.slow
def test_the_chapters_run_side_by_side_and_sphinx_takes_their_outputs_from_the_cache(tmp_path):
    book = _book(tmp_path / "book")
    result = _build_book(book)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    first, second = _interval(tmp_path / "a.ran"), _interval(tmp_path / "b.ran")
    assert first[0] < second[1] and second[0] < first[1], "the two chapters did not run at the same time"
    log = result.stdout + result.stderr
    assert log.count("Using cached notebook") == 2 and "Executing notebook" not in log
    page = (book / "_build" / "html" / "chapters" / "b.html").read_text()
    assert "computed by chapter b" in page


@pytest.mark.slow
def test_a_cache_made_from_other_sources_is_emptied_and_every_notebook_runs_again(tmp_path):
    book = _book(tmp_path / "book")
    assert _build_book(book).returncode == 0
    unchanged = _jupyter_book(book)
    assert unchanged.returncode == 0 and "Executing notebook" not in unchanged.stdout + unchanged.stderr
    (book / "src").mkdir()
    (book / "src" / "module.py").write_text("ANSWER = 42\n")  # the package the chapters call changed
    changed = _jupyter_book(book)
    log = changed.stdout + changed.stderr
    assert changed.returncode == 0, log[-3000:]
    assert "made from other sources" in log and log.count("Executing notebook") == 2


@pytest.mark.slow
def test_a_failing_chapter_stops_the_build_naming_it_with_its_traceback(tmp_path):
    failing = NOTEBOOK_FRONT_MATTER + "# B\n\n```{code-cell} ipython3\nraise ValueError('the data is not there')\n```\n"
    book = _book(tmp_path / "book", chapter_b=failing)
    result = _build_book(book)
    assert result.returncode == 1
    assert f"{book / 'chapters' / 'b.md'}: a cell failed" in result.stderr
    assert "ValueError: the data is not there" in re.sub(r"\x1b\[[0-9;]*m", "", result.stderr)  # colours off
    assert not (book / "_build" / "html").exists()


def test_the_book_configuration_is_validated_without_compiling_the_iri_grammars():
    """In a fresh interpreter, as `make book` starts: jupyter-book's schema check of _config.yml runs, rfc3987-syntax is not imported."""
    script = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("build_book", {str(ROOT / "tools" / "build_book.py")!r})
build_book = sys.modules["build_book"] = importlib.util.module_from_spec(spec); spec.loader.exec_module(build_book)
build_book.skip_iri_grammars()
settings = build_book.sphinx_settings()
import jsonschema
from jupyter_book.config import validate_yaml
import yaml
validate_yaml(yaml.safe_load(open({str(ROOT / "_config.yml")!r})), raise_on_errors=True)
validate_yaml({{"title": 3}}, raise_on_errors=False, print_func=lambda message: print("INVALID", message))
print(settings["html_theme"], "rfc3987_syntax" in sys.modules and sys.modules["rfc3987_syntax"] is not None)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "sphinx_book_theme False"
    assert any(line.startswith("INVALID") and "title" in result.stdout for line in lines)  # still validated
