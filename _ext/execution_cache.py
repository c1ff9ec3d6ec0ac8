"""Use the notebooks' execution cache only when it was made from the book's current sources.

``_config.yml`` runs notebooks in myst-nb's ``cache`` mode so that ``tools/build_book.py`` can
execute the chapters side by side before Sphinx reads them. myst-nb matches a cached notebook by
the hash of its code cells alone, so after an edit of ``src/`` (or of the data registry, the lock,
...) a cached page would show outputs the current package did not compute. ``tools/build_book.py``
marks the cache with the digest of the book's sources (``tools/book_stamp.py``); before any page
is read, this extension empties a cache whose mark is missing or differs, and myst-nb executes
every notebook again, one after the other, as in ``force`` mode.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

from sphinx.util import logging

TOOLS = Path(__file__).resolve().parents[1] / "tools"
logger = logging.getLogger(__name__)


def _book_stamp():
    spec = importlib.util.spec_from_file_location("irrepro_book_stamp", TOOLS / "book_stamp.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cache_folder(app) -> Path:
    """The folder myst-nb's ``cache`` mode uses (its own rule: the setting, else ``_build/.jupyter_cache``)."""
    configured = app.config.nb_execution_cache_path
    return Path(configured) if configured else Path(app.outdir).parent / ".jupyter_cache"


def is_current(folder: Path, book_stamp, root: Path) -> bool:
    """Whether the cache in ``folder`` was made from the sources of the book in ``root`` as they are now."""
    stamp = folder / book_stamp.EXECUTION_CACHE_STAMP
    return stamp.is_file() and stamp.read_text().strip() == book_stamp.digest(root)


def check_cache(app) -> None:
    if app.config.nb_execution_mode != "cache":
        return
    folder = cache_folder(app)
    if folder.exists() and not is_current(folder, _book_stamp(), Path(app.srcdir)):
        logger.info(f"execution cache {folder} was made from other sources: emptied, every notebook runs again")
        shutil.rmtree(folder)


def setup(app):
    # before myst-nb opens the cache: the first page is read after builder-inited
    app.connect("builder-inited", check_cache)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
