"""The book's stamp changes exactly when something the built book depends on changes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("book_stamp", ROOT / "tools" / "book_stamp.py")
book_stamp = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = book_stamp
_spec.loader.exec_module(book_stamp)


@pytest.fixture
def book(tmp_path):
    for name, text in {
        "chapters/a.md": "# A\n", "docs/using/u.md": "# U\n", "src/pkg/mod.py": "x = 1\n", "_ext/ext.py": "", "_config.yml": "title: t\n",
        "_toc.yml": "root: chapters/a\n", "requirements.txt": "numpy==2.0\n", "data/registry.tsv": "name\tsha\n",
        "README.md": "not a source\n", "tests/test_x.py": "", "benchmarks/perf/comparison.py": "", "benchmarks/bench_x.py": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_stamp_is_stable_and_ignores_what_the_book_does_not_read(book):
    first = book_stamp.digest(book, {})
    (book / "README.md").write_text("edited\n")
    (book / "tests" / "test_x.py").write_text("edited\n")
    (book / "benchmarks" / "bench_x.py").write_text("edited\n")  # a script the book does not run
    (book / "src" / "pkg" / "__pycache__").mkdir()
    (book / "src" / "pkg" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\0")
    assert book_stamp.digest(book, {}) == first


@pytest.mark.parametrize(
    "name",
    ["chapters/a.md", "docs/using/u.md", "src/pkg/mod.py", "benchmarks/perf/comparison.py", "_config.yml", "requirements.txt",
     "data/registry.tsv"],
)  # fmt: skip
def test_editing_a_source_changes_the_stamp(book, name):
    first = book_stamp.digest(book, {})
    with open(book / name, "a") as handle:
        handle.write("# edited\n")
    assert book_stamp.digest(book, {}) != first


def test_a_new_chapter_a_renamed_file_and_the_repository_setting_change_the_stamp(book):
    first = book_stamp.digest(book, {})
    (book / "chapters" / "b.md").write_text("# B\n")
    second = book_stamp.digest(book, {})
    assert second != first
    (book / "chapters" / "b.md").rename(book / "chapters" / "c.md")
    assert book_stamp.digest(book, {}) not in (first, second)
    assert book_stamp.digest(book, {"IRREPRO_REPOSITORY_URL": "https://github.com/o/r"}) != book_stamp.digest(book, {})
