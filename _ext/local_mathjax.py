"""Serve MathJax from the book itself, so that formulas render offline.

MathJax 3 comes from the PyPI package ``django-static-mathjax`` (a plain copy of the MathJax
distribution; nothing of Django is imported). Its ``es5`` folder is copied into ``_static/mathjax``
of the HTML output and ``mathjax_path`` points there.
"""

from __future__ import annotations

import shutil
from importlib.util import find_spec
from pathlib import Path


def _mathjax_es5() -> Path:
    spec = find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("MathJax not found: install django-static-mathjax (it is in requirements.txt)")
    folder = Path(next(iter(spec.submodule_search_locations))) / "static" / "mathjax" / "es5"
    if not (folder / "tex-chtml.js").is_file():
        raise RuntimeError(f"MathJax's tex-chtml.js not found under {folder}")
    return folder


def _copy_mathjax(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        shutil.copytree(_mathjax_es5(), Path(app.outdir) / "_static" / "mathjax", dirs_exist_ok=True)


def setup(app):
    _mathjax_es5()  # fail at start-up rather than after an hour of execution
    app.config.mathjax_path = "mathjax/tex-chtml.js"
    app.connect("build-finished", _copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
