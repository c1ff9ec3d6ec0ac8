"""Let Sphinx read and write the pages on several processes (``tools/build_book.py --jobs``).

Sphinx falls back to one process when an extension does not declare itself safe for parallel
reading and writing. Two extensions that Jupyter Book loads do not declare it and are safe here:

- ``sphinx_multitoc_numbering`` (loaded by sphinx-external-toc) only replaces the toctree
  collector's section numbering, which Sphinx runs in the main process after every page is read;
- ``sphinx_jupyterbook_latex`` acts only in LaTeX builds, so it is declared safe for HTML only.
"""

from __future__ import annotations

SAFE_FOR_EVERY_BUILDER = ("sphinx_multitoc_numbering",)
SAFE_FOR_HTML = ("sphinx_jupyterbook_latex",)


def declare_safe(app) -> None:
    names = SAFE_FOR_EVERY_BUILDER + (SAFE_FOR_HTML if app.builder.format == "html" else ())
    for name in names:
        extension = app.extensions.get(name)
        if extension is not None:
            extension.parallel_read_safe = True
            extension.parallel_write_safe = True


def setup(app):
    # Sphinx asks the extensions after builder-inited, when it starts to read
    app.connect("builder-inited", declare_safe)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
