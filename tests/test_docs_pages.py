"""The README of one screen and the book's "Using irrepro" and API reference parts it points to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import irrepro

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
USING = sorted((ROOT / "docs" / "using").glob("*.md"))
API = sorted((ROOT / "docs" / "api").glob("*.md"))


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [chapter["file"] for part in toc["parts"] for chapter in part["chapters"]]


def test_the_readme_fits_one_screen_and_keeps_the_two_commands():
    assert len(README.splitlines()) <= 120
    assert "make book" in README and "make test" in README


def test_every_link_of_the_readme_reaches_a_file():
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [target for target in targets if "://" not in target]
    assert local and [target for target in local if not (ROOT / target).is_file()] == []


@pytest.mark.parametrize("page", USING + API, ids=lambda path: path.stem)
def test_every_page_of_docs_is_in_the_book(page):
    assert page.relative_to(ROOT).with_suffix("").as_posix() in _toc_files()


@pytest.mark.parametrize("page", USING, ids=lambda path: path.stem)
def test_the_readme_links_every_using_page(page):
    assert f"(docs/using/{page.name})" in README


@pytest.mark.parametrize("page", [ROOT / "README.md", *USING], ids=lambda path: path.stem)
def test_the_functions_a_page_calls_from_the_top_level_exist(page):
    called = set(re.findall(r"\birrepro\.([a-z_]+)\(", page.read_text(encoding="utf-8")))
    assert [name for name in called if name not in irrepro.__all__] == []


def test_the_parts_come_after_the_papers_and_the_course_stays_first():
    captions = [part["caption"] for part in yaml.safe_load((ROOT / "_toc.yml").read_text())["parts"]]
    assert captions[0] == "Course"
    assert captions.index("Using irrepro") > captions.index("The papers")
    assert captions.index("API reference") == captions.index("Using irrepro") + 1


def test_the_api_overview_lists_every_top_level_function_where_it_is_defined():
    text = (ROOT / "docs" / "api" / "api.md").read_text(encoding="utf-8")
    listed = re.findall(r"^   ~(irrepro\.\S+)$", text, flags=re.MULTILINE)
    expected = [f"{getattr(irrepro, name).__module__}.{name}" for name in irrepro.__all__ if name != "__version__"]
    assert listed == expected
