"""_ext/notebook_times: a page read before the chapters states how long this build ran each notebook."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.myst_pages import NOTEBOOK_FRONT_MATTER

ROOT = Path(__file__).resolve().parents[2]
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
CONFIG = """title: tiny
execute:
  execute_notebooks: {execute}
only_build_toc_files: true
sphinx:
  local_extensions:
    notebook_times: {ext}
"""
NOTEBOOK = NOTEBOOK_FRONT_MATTER + """# A chapter

```{code-cell} ipython3
import time

time.sleep(1.5)
```
"""
# "course" is read before "page" (Sphinx reads in name order), as the course page before the chapters
COURSE = """# Course

The chapter took {notebook-time}`page`.

```{notebook-times}
```
"""


def _build(folder: Path, execute: str) -> Path:
    folder.mkdir()
    (folder / "_config.yml").write_text(CONFIG.format(execute=execute, ext=ROOT / "_ext"))
    (folder / "_toc.yml").write_text("format: jb-book\nroot: course\nchapters:\n  - file: page\n")
    (folder / "course.md").write_text(COURSE)
    (folder / "page.md").write_text(NOTEBOOK)
    result = subprocess.run([str(JUPYTER_BOOK), "build", str(folder), "--builder", "html", "-W", "-n", "--keep-going"],
                            capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return (folder / "_build" / "html" / "course.html").read_text()


@pytest.mark.slow
def test_the_course_page_states_each_notebooks_time_in_this_build(tmp_path):
    page = _build(tmp_path / "executed", "force")
    [seconds] = re.findall(r"The chapter took (\d+) s\.", page)
    assert int(seconds) >= 2  # the notebook sleeps 1.5 s, and starting its kernel takes time
    [row] = re.findall(r'<tr class="row-even">(.*?)</tr>', page, flags=re.DOTALL)
    assert 'href="page.html"' in row and "A chapter" in row and f"<p>{seconds} s</p>" in row


@pytest.mark.slow
def test_a_notebook_not_run_in_this_build_has_no_time(tmp_path):
    page = _build(tmp_path / "off", "off")
    assert "The chapter took not run in this build." in page
    # the table lists the notebooks this build executed: none
    assert "notebook run time" in page and re.search(r"<tbody>\s*</tbody>", page)
