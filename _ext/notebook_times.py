"""How long each chapter's notebook took to run in this build, stated on the page that asks for it.

myst-nb executes every chapter as a notebook, top to bottom in a fresh kernel (what "Run All" does
in ``make lab``), and records the run time of each (its execution data, as for its own
``nb-exec-table``). Two placeholders show those times:

- the directive ``notebook-times``: a table, one row per executed chapter in table-of-contents
  order (chapter, seconds), with a caption naming the build machine's cores;
- the role ``notebook-time``: one chapter's time, e.g. ``{notebook-time}`routing_runs``` (a page
  name relative to the page the role is on) becomes "95 s".

They are filled in after every page was executed (a post-transform), so a page read before the
chapters, such as the course page, states this build's times; myst-nb rewrites such a page whenever
a notebook was executed again. A chapter not executed in this build reads "not run in this build".
"""

from __future__ import annotations

import os
import posixpath

from docutils import nodes
from myst_nb.ext.execution_tables import METADATA_KEY
from myst_nb.sphinx_ import NbMetadataCollector
from sphinx.addnodes import pending_xref
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxRole

NOT_RUN = "not run in this build"
#: Set by tools/build_book.py to the number of notebooks it ran side by side (unset: one at a time).
JOBS_VARIABLE = "IRREPRO_NOTEBOOK_JOBS"


class notebook_times_node(nodes.General, nodes.Element):
    """Placeholder of the table of every chapter's notebook time."""


class notebook_time_node(nodes.Inline, nodes.TextElement):
    """Placeholder of one chapter's notebook time (``docname`` attribute)."""


def _mark(env) -> None:
    # myst-nb's own key: its env-updated handler rewrites the page when a notebook ran again
    NbMetadataCollector.set_doc_data(env, env.docname, METADATA_KEY, True)


class NotebookTimes(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        _mark(self.env)
        return [notebook_times_node()]


class NotebookTime(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list]:
        _mark(self.env)
        docname = posixpath.normpath(posixpath.join(posixpath.dirname(self.env.docname), self.text.strip()))
        return [notebook_time_node(docname=docname)], []


def _seconds(env, docname: str) -> float | None:
    data = NbMetadataCollector.get_doc_data(env).get(docname, {}).get("exec_data")
    return data["runtime"] if data and data.get("succeeded") and data.get("runtime") is not None else None


def _text(seconds: float | None) -> str:
    return NOT_RUN if seconds is None else f"{seconds:.0f} s"


def _toc_order(env) -> list[str]:
    """Every page, depth first from the root page, as the table of contents lists them."""
    order: list[str] = []

    def visit(docname: str) -> None:
        if docname not in order:
            order.append(docname)
            for child in env.toctree_includes.get(docname, []):
                visit(child)

    visit(env.config.root_doc)
    return order


def _how_run() -> str:
    """The build machine's cores, and how many notebooks ran at a time (tools/build_book.py says so)."""
    jobs = int(os.environ.get(JOBS_VARIABLE, "1"))
    at_a_time = "one notebook at a time" if jobs == 1 else f"{jobs} notebooks at a time"
    return f"a machine with {os.cpu_count()} cores, {at_a_time}"


def _cell(*children: nodes.Node) -> nodes.entry:
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return nodes.entry("", paragraph)


def _table(env, from_docname: str) -> nodes.table:
    executed = [d for d in _toc_order(env) if NbMetadataCollector.get_doc_data(env).get(d, {}).get("exec_data")]
    table = nodes.table(classes=["colwidths-auto"], ids=["notebook-times"])  # a captioned table needs an id
    table += nodes.title(text=f"Time to run each chapter's notebook top to bottom in this build "
                              f"({_how_run()})")  # fmt: skip
    group = nodes.tgroup(cols=2)
    table += group
    group.extend(nodes.colspec(colwidth=width) for width in (70, 30))
    head, body = nodes.thead(), nodes.tbody()
    head += nodes.row("", _cell(nodes.Text("chapter")), _cell(nodes.Text("notebook run time")))
    for docname in executed:
        link = pending_xref(refdoc=from_docname, reftarget="/" + docname, reftype="doc", refdomain="std",
                            refexplicit=True, refwarn=True)  # fmt: skip
        link += nodes.inline(text=env.titles[docname].astext() if docname in env.titles else docname)
        body += nodes.row("", _cell(link), _cell(nodes.Text(_text(_seconds(env, docname)))))
    group += head
    group += body
    return table


class FillNotebookTimes(SphinxPostTransform):
    """Replace the placeholders once every notebook of the build has run."""

    default_priority = 8  # before the references are resolved (the table links the chapters)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(notebook_times_node)):
            node.replace_self(_table(self.env, self.env.docname))
        for node in list(self.document.findall(notebook_time_node)):
            node.replace_self(nodes.Text(_text(_seconds(self.env, node["docname"]))))


def setup(app):
    app.add_node(notebook_times_node)
    app.add_node(notebook_time_node)
    app.add_directive("notebook-times", NotebookTimes)
    app.add_role("notebook-time", NotebookTime())
    app.add_post_transform(FillNotebookTimes)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
