"""Keep each page's pickled doctree to its own nodes, not the whole build environment.

myst-parser parses an ``{eval-rst}`` block (every API page is one) into a document of its own that
shares the page's settings, and the nodes parsed there keep that document as theirs. Sphinx clears
the environment only from a copy of the settings it pickles with the page, so each such node
pickled the whole environment with it (every exercise of the book, the chapters' outputs): the API
pages' doctrees were 1-3 MB each, about 25 MB in all, and Sphinx unpickles every doctree two or
three times (figure numbers, references, writing), about 10 s of the build. Once a page is read,
every node is given the page's document; nothing else about the nodes changes.
"""

from __future__ import annotations

from docutils import nodes


def rehome(doctree: nodes.document) -> int:
    """Give every node of ``doctree`` that belongs to another document ``doctree``; return how many."""
    moved = 0
    for node in doctree.findall():
        if getattr(node, "_document", None) is not None and node._document is not doctree:
            node.document = doctree
            moved += 1
    return moved


def setup(app):
    # doctree-read: after the page is parsed and transformed, before Sphinx pickles it
    app.connect("doctree-read", lambda app, doctree: rehome(doctree))
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
