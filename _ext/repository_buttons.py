"""Repository, issues and Binder buttons only when the book knows where its public repository is.

One setting: the environment variable ``IRREPRO_REPOSITORY_URL`` (or ``irrepro_repository_url``
under ``sphinx: config:`` in ``_config.yml``), e.g. ``https://github.com/ORG/irrepro``; the branch is
``IRREPRO_REPOSITORY_BRANCH`` (default ``main``). Without it, the book renders no repository,
issues or launch button, so no button points at a repository that does not exist. With it, the
theme's repository and issues buttons appear and, on every notebook page, a Binder button for the
services listed under ``launch_buttons`` in ``_config.yml`` (Binder builds the image from
``binder/``).
"""

from __future__ import annotations

import os
import re

from sphinx.errors import ConfigError

_URL = re.compile(r"^https://(github\.com|gitlab\.com)/[\w.-]+/[\w.-]+/?$")
_REPOSITORY_OPTIONS = ("repository_url", "repository_branch", "use_repository_button", "use_issues_button", "launch_buttons")


def repository_url(config) -> str:
    """The configured repository URL ('' when none), from the Sphinx config or the environment."""
    return (config.irrepro_repository_url or os.environ.get("IRREPRO_REPOSITORY_URL", "")).strip()


def _configure(app, config) -> None:
    options = config.html_theme_options
    url = repository_url(config)
    launch = options.get("launch_buttons", {})
    for key in _REPOSITORY_OPTIONS:
        options.pop(key, None)
    if not url:
        return
    if not _URL.match(url):
        raise ConfigError(
            f"IRREPRO_REPOSITORY_URL={url!r}: expected https://github.com/OWNER/REPO or https://gitlab.com/OWNER/REPO"
        )
    options.update(
        repository_url=url.rstrip("/"),
        repository_branch=os.environ.get("IRREPRO_REPOSITORY_BRANCH", "main"),
        use_repository_button=True,
        use_issues_button=True,
        launch_buttons=launch,
    )


def setup(app):
    app.add_config_value("irrepro_repository_url", "", "html", types=[str])
    app.connect("config-inited", _configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
