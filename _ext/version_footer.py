"""The package's version in every page's footer, from the one place it is written: ``irrepro.__version__``.

Sphinx's ``version`` and ``release`` are set to it too (the HTML ``<meta>`` and the search index
carry them), so the book, ``irrepro --version``, the wheel's metadata (``pyproject.toml`` reads the
same attribute) and every manifest irrepro writes name one version.
"""

from __future__ import annotations

import html

FOOTER_CLASS = "irrepro-version"


def _configure(app, config) -> None:
    from irrepro import __version__  # the package is importable wherever its chapters execute

    config.version = config.release = __version__
    options = config.html_theme_options
    line = f'<p class="{FOOTER_CLASS}">irrepro {html.escape(__version__)}</p>'
    options["extra_footer"] = (options.get("extra_footer") or "") + line


def setup(app):
    app.connect("config-inited", _configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
