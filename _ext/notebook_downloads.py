"""Offer every notebook page for download as a Jupyter notebook, with and without solutions.

For each page whose source is a MyST notebook, the two flavours that ``tools/make_notebooks.py``
writes (``make notebooks``) are written into the HTML output, ``_notebooks/solutions/NAME.ipynb``
and ``_notebooks/student/NAME.ipynb``, and the page's download menu (the theme's download button)
gets two entries for them. The notebooks are made from the sources at build time, so they can
never be older than the page. A small script gives the links a ``download`` file name
(``NAME.ipynb``, ``NAME-student.ipynb``) so browsers save them instead of showing JSON.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "make_notebooks.py"
FOLDER = "_notebooks"
ENTRIES = {
    "student": ("notebook (student)", "Download this page as a notebook: exercises without solutions"),
    "solutions": ("notebook (solutions)", "Download this page as a notebook, solutions included"),
}
_SCRIPT = """
document.addEventListener("DOMContentLoaded", () => {
  for (const [flavour, suffix] of [["student", "-student"], ["solutions", ""]]) {
    for (const link of document.querySelectorAll(`a.btn-download-${flavour}-notebook-button`)) {
      const name = link.getAttribute("href").split("/").pop().replace(/\\.ipynb$/, "");
      link.setAttribute("download", `${name}${suffix}.ipynb`);
      link.removeAttribute("target");
    }
  }
});
"""


def _tool():
    spec = importlib.util.spec_from_file_location("irrepro_make_notebooks", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class _Downloads:
    """Writes each notebook page's two flavours into the HTML output and links them from its menu.

    Stateless while pages are written, so Sphinx may write them on several processes; the check that
    no two notebook pages share a file name runs once, in the main process, after every page is read.
    """

    def __init__(self) -> None:
        self.tool = None

    def start(self, app) -> None:
        self.tool = _tool()

    def check_names(self, app, env) -> None:
        pages: dict[str, str] = {}
        for pagename in sorted(env.found_docs):
            source = Path(env.doc2path(pagename))
            if self.tool.is_notebook(source) and pages.setdefault(source.stem, pagename) != pagename:
                raise RuntimeError(
                    f"{pagename} and {pages[source.stem]} would share the notebook name {source.stem}.ipynb"
                )

    def _write(self, app, pagename: str) -> str | None:
        source = Path(app.env.doc2path(pagename))
        if not self.tool.is_notebook(source):
            return None
        self.tool.write_notebooks([source], Path(app.outdir) / FOLDER)
        return source.stem

    def add_entries(self, app, pagename, templatename, context, doctree) -> None:
        if app.builder.format != "html" or doctree is None:
            return
        stem = self._write(app, pagename)
        if stem is None:
            return
        buttons = context.get("header_buttons", [])
        group = next((button for button in buttons if button.get("label") == "download-buttons"), None)
        if group is None:
            raise RuntimeError("notebook_downloads: the theme's download menu is missing (use_download_button: false?)")
        group["buttons"][:0] = [
            {
                "type": "link",
                "url": context["pathto"](f"{FOLDER}/{flavour}/{stem}.ipynb", 1),
                "text": text,
                "tooltip": tooltip,
                "icon": "fas fa-book" if flavour == "solutions" else "fas fa-pencil-alt",
                "label": f"download-{flavour}-notebook-button",
            }
            for flavour, (text, tooltip) in ENTRIES.items()
        ]


def setup(app):
    downloads = _Downloads()
    app.connect("builder-inited", downloads.start)
    app.connect("env-updated", downloads.check_names)
    # after the theme has built its header buttons (priority 501)
    app.connect("html-page-context", downloads.add_entries, priority=600)
    app.add_js_file(None, body=_SCRIPT)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
