"""_ext/docstring_template.py: numpydoc's docstrings rendered as numpydoc renders them, the template compiled once."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import numpydoc.docscrape_sphinx as numpydoc_sphinx
import numpydoc.numpydoc as numpydoc_extension
import pytest

import irrepro.glm
import irrepro.routing.corpora
import irrepro.runs

_spec = importlib.util.spec_from_file_location(
    "docstring_template", Path(__file__).resolve().parents[2] / "_ext" / "docstring_template.py"
)
docstring_template = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = docstring_template
_spec.loader.exec_module(docstring_template)

OBJECTS = [  # functions and dataclasses, as autodoc hands them to numpydoc
    (irrepro.runs.read_run, "function"),
    (irrepro.glm.fit_two_way, "function"),
    (irrepro.routing.corpora.Document, "class"),
    (irrepro.glm.TwoWayFit, "class"),
]


@pytest.mark.parametrize(("obj", "what"), OBJECTS)
def test_a_docstring_renders_as_numpydoc_renders_it(obj, what):
    config = {"show_class_members": False}
    expected = str(numpydoc_sphinx.get_doc_object(obj, what, config=dict(config)))
    assert str(docstring_template.get_doc_object(obj, what, config=dict(config))) == expected
    assert "Parameters" in expected


def test_the_template_is_compiled_once_per_loader():
    docstring_template.docstring_template.cache_clear()
    first = docstring_template.get_doc_object(irrepro.runs.read_run, config={})
    second = docstring_template.get_doc_object(irrepro.glm.TwoWayFit)
    assert first.template is second.template
    assert docstring_template.docstring_template.cache_info().misses == 1
    # numpydoc's own function compiles it again on every call
    assert numpydoc_sphinx.get_doc_object(irrepro.runs.read_run).template is not first.template


def test_setup_hands_the_function_to_numpydoc_after_numpydoc_is_set_up():
    loaded = []
    app = SimpleNamespace(setup_extension=loaded.append)
    original = numpydoc_extension.get_doc_object
    try:
        metadata = docstring_template.setup(app)
        assert loaded == ["numpydoc"]
        assert numpydoc_extension.get_doc_object is docstring_template.get_doc_object
        assert metadata["parallel_read_safe"] and metadata["parallel_write_safe"]
    finally:
        numpydoc_extension.get_doc_object = original
