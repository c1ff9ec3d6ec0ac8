"""The local Sphinx extensions, on a tiny book: notebook downloads, repository buttons only when
configured, and the package's version in every footer."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.myst_pages import NOTEBOOK_FRONT_MATTER

ROOT = Path(__file__).resolve().parents[2]
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"

CONFIG = f"""title: tiny
execute:
  execute_notebooks: "off"
only_build_toc_files: true
launch_buttons:
  notebook_interface: jupyterlab
  binderhub_url: https://mybinder.org
sphinx:
  extra_extensions: [sphinx_exercise]
  local_extensions:
    notebook_downloads: {ROOT / '_ext'}
    repository_buttons: {ROOT / '_ext'}
    version_footer: {ROOT / '_ext'}
"""
PAGE = NOTEBOOK_FRONT_MATTER + """# Page

```{exercise} Add
:label: tiny-add

Add one.
```

```{solution-start} tiny-add
:class: dropdown
```

```{code-cell} ipython3
1 + 1
```

```{solution-end}
```
"""
BUTTON_HOSTS = re.compile(r'href="https://(?:github\.com|gitlab\.com|mybinder\.org|colab\.research\.google\.com)[^"]*"')


def _build(folder: Path, repository: str | None) -> subprocess.CompletedProcess:
    folder.mkdir()
    (folder / "_config.yml").write_text(CONFIG)
    (folder / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n  - file: page\n")
    (folder / "intro.md").write_text("# Intro\n\nA page without code.\n")
    (folder / "page.md").write_text(PAGE)
    environment = {key: value for key, value in os.environ.items() if key != "IRREPRO_REPOSITORY_URL"}
    if repository is not None:
        environment["IRREPRO_REPOSITORY_URL"] = repository
    return subprocess.run(
        [str(JUPYTER_BOOK), "build", str(folder), "--builder", "html", "-W", "-n", "--keep-going"],
        capture_output=True, text=True, env=environment, timeout=600, check=False,
    )


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    base = tmp_path_factory.mktemp("books")
    built = {}
    for name, repository in (("plain", None), ("public", "https://github.com/example/irrepro")):
        result = _build(base / name, repository)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        built[name] = base / name / "_build" / "html"
    return built


@pytest.mark.slow
def test_without_the_setting_no_page_links_to_a_repository_or_a_launch_service(books):
    for page in ("intro.html", "page.html"):
        assert not BUTTON_HOSTS.findall((books["plain"] / page).read_text())


@pytest.mark.slow
def test_with_the_setting_the_repository_issues_and_binder_buttons_point_at_it(books):
    page = (books["public"] / "page.html").read_text()
    links = BUTTON_HOSTS.findall(page)
    assert 'href="https://github.com/example/irrepro"' in links
    assert any("/issues/new" in link for link in links)
    assert any(link.startswith('href="https://mybinder.org/v2/gh/example/irrepro/main') for link in links)
    assert all("example/irrepro" in link for link in links)
    assert "mybinder.org" not in (books["public"] / "intro.html").read_text()  # not a notebook: nothing to launch


@pytest.mark.slow
def test_notebook_pages_link_both_notebooks_and_the_links_resolve(books):
    html = books["plain"]
    page = (html / "page.html").read_text()
    for flavour in ("student", "solutions"):
        [href] = re.findall(rf'href="([^"]+)"\s+target="_blank"\s+class="btn btn-sm btn-download-{flavour}-notebook-button', page)
        notebook = nbformat.read(html / href, as_version=4)
        answers = [cell for cell in notebook.cells if "answer" in cell.metadata.get("tags", [])]
        assert len(answers) == (1 if flavour == "student" else 0)
        assert ("1 + 1" in [cell.source for cell in notebook.cells]) == (flavour == "solutions")
    assert "btn-download-student-notebook-button dropdown-item" not in (html / "intro.html").read_text()  # no code, no notebook


@pytest.mark.slow
def test_a_malformed_repository_url_stops_the_build(tmp_path):
    result = _build(tmp_path / "bad", "github.com/example")
    assert result.returncode != 0
    assert "expected https://github.com/OWNER/REPO" in result.stdout + result.stderr


@pytest.mark.slow
def test_every_footer_names_the_package_version(books):
    from irrepro import __version__

    for page in ("intro.html", "page.html"):
        footer = (books["plain"] / page).read_text().split("<footer", 1)[1]
        assert f'<p class="irrepro-version">irrepro {__version__}</p>' in footer, page
