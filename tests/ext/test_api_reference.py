"""_ext/api_reference.py: which modules the API pages document, and where a reference to a re-export goes."""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("api_reference", ROOT / "_ext" / "api_reference.py")
api_reference = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = api_reference
_spec.loader.exec_module(api_reference)


def test_a_package_is_listed_with_every_public_submodule_and_no_private_one():
    modules = api_reference.public_modules("irrepro.routing")
    assert modules[0] == "irrepro.routing" and modules == sorted(modules)
    assert "irrepro.routing.corpora.nyt" in modules and "irrepro.routing.pipeline" in modules
    assert not [name for name in modules if "._" in name]  # irrepro.routing.corpora._common


def test_a_package_documents_only_what_it_defines_or_takes_from_a_private_module():
    corpora = importlib.import_module("irrepro.routing.corpora")
    members = api_reference._member_options(corpora)[0]
    assert "Document" in members and "CorpusWarning" in members  # from corpora._common
    assert api_reference._member_options(importlib.import_module("irrepro.reproducibility")) == []  # re-exports only
    assert api_reference._member_options(importlib.import_module("irrepro.runs")) == list(api_reference.OPTIONS)


def test_references_to_re_exported_names_go_where_the_object_is_documented():
    resolve = api_reference.canonical_name
    assert resolve("irrepro.read_run") == "irrepro.runs.read_run"  # the lazy top level
    assert resolve("write_tables", "irrepro.papers.clef2019") == "irrepro.papers.clef2019.files.write_tables"
    assert resolve("CLAIMS", "irrepro.papers.sigir2020") == "irrepro.papers.sigir2020.claim_checks.CLAIMS"
    assert resolve("CorpusWarning", "irrepro.routing.corpora.nyt") == "irrepro.routing.corpora.CorpusWarning"
    # a field the class's docstring describes has no entry of its own: the reference goes to the class
    assert resolve("Document.date", "irrepro.routing.corpora.trec") == "irrepro.routing.corpora.Document"
    assert resolve("notes", "irrepro.reproducibility.compare", "Comparison") == "irrepro.reproducibility.compare.Comparison"
    assert resolve("published_runs", "irrepro.papers.clef2019.prose") == "irrepro.papers.clef2019.published_runs"


def test_a_name_that_is_documented_where_it_is_named_or_exists_nowhere_is_left_alone():
    assert api_reference.canonical_name("irrepro.runs.read_run") is None
    assert api_reference.canonical_name("no_such_function", "irrepro.routing") is None
    assert api_reference.canonical_name("pandas.DataFrame") is None


def _documented_modules() -> set[str]:
    """Every module the pages under docs/api/ document, by automodule or api-modules."""
    import re

    documented: set[str] = set()
    for page in (ROOT / "docs" / "api").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        documented |= set(re.findall(r"^\.\. automodule:: (\S+)", text, flags=re.MULTILINE))
        for package, options in re.findall(r"^\.\. api-modules:: (\S+)\n((?:   :.*\n)*)", text, flags=re.MULTILINE):
            excluded = re.findall(r":exclude: (.*)", options)
            skip = excluded[0].split() if excluded else []
            documented |= {m for m in api_reference.public_modules(package) if not any(m == s or m.startswith(f"{s}.") for s in skip)}
            documented |= {m for s in skip if f".. api-modules:: {s}" in text for m in api_reference.public_modules(s)}
    return documented


def test_every_public_module_but_the_command_line_is_on_an_api_page():
    modules = set(api_reference.public_modules("irrepro")) - {"irrepro.cli"}
    modules = {name for name in modules if not name.startswith("irrepro.commands")}  # documented in Using irrepro
    assert sorted(modules - _documented_modules()) == []


def test_a_page_names_the_packages_its_api_modules_directives_document():
    text = "# API\n\n```{eval-rst}\n.. api-modules:: irrepro.runs\n\n  .. api-modules:: irrepro.glm\n   :exclude: x\n```\n"
    assert api_reference.documented_packages(text) == ["irrepro.runs", "irrepro.glm"]
    assert api_reference.documented_packages("# Prose about api-modules:: irrepro.runs\n") == []


def test_the_modules_a_page_documents_are_imported_before_the_pages_are_read(tmp_path):
    """In a fresh interpreter (nothing of irrepro imported yet), as Sphinx's main process before it forks."""
    page = tmp_path / "api-glm.md"
    page.write_text("```{eval-rst}\n.. api-modules:: irrepro.glm\n```\n")
    script = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("api_reference", {str(ROOT / "_ext" / "api_reference.py")!r})
api_reference = importlib.util.module_from_spec(spec); spec.loader.exec_module(api_reference)
assert "irrepro.glm.contrasts" not in sys.modules
env = type("Env", (), {{"doc2path": staticmethod(lambda docname: {str(tmp_path)!r} + "/" + docname + ".md")}})()
api_reference.import_documented_modules(None, env, ["api-glm"])
print(sorted(set(api_reference.public_modules("irrepro.glm")) - set(sys.modules)))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_a_reference_is_looked_up_once_per_target_and_module():
    api_reference.canonical_name.cache_clear()
    assert api_reference.canonical_name("str", "irrepro.routing.corpora") is None
    assert api_reference.canonical_name("str", "irrepro.routing.corpora") is None
    info = api_reference.canonical_name.cache_info()
    assert (info.misses, info.hits) == (1, 1)


MODULE = '''"""A module with two small classes."""
import dataclasses
from typing import NamedTuple


@dataclasses.dataclass
class Point:
    """A point.

    Parameters
    ----------
    x, y : float
        The coordinates.
    """

    x: float
    y: float
    #: How the point was measured (documented on its own line).
    source: str = "survey"
    label: str = ""


class Pair(NamedTuple):
    """Two numbers.

    Attributes
    ----------
    first : int
        The first.
    """

    first: int
    second: int


def shift(point: Point) -> Point:
    """Move :attr:`Point.x` by one; :attr:`Point.source` stays."""
    return point
'''


def test_fields_the_class_describes_are_listed_once(tmp_path):
    """(References to such a field go to the class: see the references test above; they are resolved
    for irrepro's names only.)"""
    try:  # Sphinx and numpydoc come with the book's extra, not the tests'
        from sphinx.application import Sphinx
    except ImportError:
        pytest.skip("needs Sphinx (pip install irrepro[book])")

    (tmp_path / "fieldsdemo.py").write_text(MODULE)
    (tmp_path / "conf.py").write_text(
        f"import sys\nsys.path[:0] = [{str(tmp_path)!r}, {str(ROOT / '_ext')!r}]\n"
        "extensions = ['sphinx.ext.autodoc', 'numpydoc', 'api_reference']\n"
        "numpydoc_show_class_members = False\n"
    )
    (tmp_path / "index.rst").write_text("Demo\n====\n\n.. automodule:: fieldsdemo\n   :members:\n   :undoc-members:\n")
    warnings = io.StringIO()
    app = Sphinx(tmp_path, tmp_path, tmp_path / "_build", tmp_path / "_doctrees", "html", status=None,
                 warning=warnings, freshenv=True)  # fmt: skip
    app.build()
    html = (tmp_path / "_build" / "index.html").read_text()
    ids = set(re.findall(r'id="(fieldsdemo\.[\w.]+)"', html))
    assert {"fieldsdemo.Point", "fieldsdemo.Pair", "fieldsdemo.shift"} <= ids
    assert "fieldsdemo.Point.source" in ids  # its own documentation: kept
    assert "fieldsdemo.Point.label" in ids  # not described by the class: kept
    assert not {"fieldsdemo.Point.x", "fieldsdemo.Point.y", "fieldsdemo.Pair.first"} & ids  # described: once
    assert "fieldsdemo.Pair.second" in ids
    assert 'href="#fieldsdemo.Point.source"' in html  # a field with an entry: linked there
    assert "WARNING" not in warnings.getvalue()
