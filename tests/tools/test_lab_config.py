"""`make lab`'s JupyterLab setting: Markdown chapters open as notebooks (jupytext's viewer) by default."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETTING = "@jupyterlab/docmanager-extension:plugin"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_project_setting_makes_jupytext_the_default_viewer_of_markdown():
    overrides = json.loads((ROOT / ".jupyter" / "labconfig" / "default_setting_overrides.json").read_text())
    assert overrides[SETTING]["defaultViewers"] == {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}
    makefile = (ROOT / "Makefile").read_text()
    assert 'JUPYTER_CONFIG_PATH="$(CURDIR)/.jupyter' in makefile


@pytest.mark.slow
def test_jupyterlab_started_as_make_lab_does_serves_the_setting(tmp_path):
    port, token = _free_port(), "irrepro-test"
    environment = dict(os.environ, JUPYTER_CONFIG_PATH=str(ROOT / ".jupyter"), JUPYTER_RUNTIME_DIR=str(tmp_path))
    command = [
        str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}", "--allow-root",
    ]
    server = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/lab/api/settings/{SETTING}", headers={"Authorization": f"token {token}"})
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    settings = json.load(response)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(1)
    finally:
        server.terminate()
        server.wait(timeout=60)
    defaults = settings["schema"]["properties"]["defaultViewers"]["default"]
    assert defaults["markdown"] == "Jupytext Notebook" and defaults["myst"] == "Jupytext Notebook"
