"""_ext/lean_doctrees: nodes parsed in a nested document (myst's {eval-rst}) belong to the page's."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path

from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

_spec = importlib.util.spec_from_file_location(
    "lean_doctrees", Path(__file__).resolve().parents[2] / "_ext" / "lean_doctrees.py"
)
lean_doctrees = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = lean_doctrees
_spec.loader.exec_module(lean_doctrees)


class _Heavy:
    """Stands for the build environment a nested document's settings point to."""

    def __init__(self) -> None:
        self.payload = "x" * 200_000


def _page_with_a_nested_part() -> nodes.document:
    settings = get_default_settings(Parser)
    page = new_document("page.md", settings.copy())
    nested_settings = settings.copy()
    nested_settings.env = _Heavy()  # the page's own settings are cleared before pickling, these not
    nested = new_document("page.md", nested_settings)
    section = nodes.section()
    nested += section
    section += nodes.paragraph(text="parsed in the nested document")  # the parser adds it there
    page += section  # as myst-parser moves the nested document's children into the page
    return page


def test_nodes_of_a_nested_document_are_given_the_page():
    page = _page_with_a_nested_part()
    paragraph = next(iter(page.findall(nodes.paragraph)))
    assert paragraph.document is not page
    before = len(pickle.dumps(page))
    assert lean_doctrees.rehome(page) >= 1
    assert all(node.document is page for node in page.findall())
    assert len(pickle.dumps(page)) < before - 150_000  # the nested document's settings are gone
    assert page.astext() == "parsed in the nested document"


def test_a_page_of_its_own_nodes_is_left_alone():
    page = new_document("page.md", get_default_settings(Parser))
    page += nodes.paragraph(text="one")
    assert lean_doctrees.rehome(page) == 0
