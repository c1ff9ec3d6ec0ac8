"""The environment files agree: environment.yml installs the lock, the lock pins everything exactly."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"requirements.txt: {line!r} is not pinned exactly"
            pins[re.sub(r"[-_.]+", "-", name.lower())] = version
    return pins


def test_every_top_level_requirement_is_locked():
    pins = _pins()
    for line in (ROOT / "requirements.in").read_text().splitlines():
        requirement = line.split("#")[0].strip()
        if requirement:
            name = re.split(r"[=<>!~\[ ]", requirement)[0]
            assert re.sub(r"[-_.]+", "-", name.lower()) in pins, f"{name} is not in requirements.txt"


def test_environment_yml_installs_the_lock_with_the_same_python():
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    dependencies = environment["dependencies"]
    assert "python=3.11" in dependencies
    pip_section = next(item["pip"] for item in dependencies if isinstance(item, dict))
    assert "-r requirements.txt" in pip_section
    assert "jupyter-book" not in str(dependencies)  # versions come from the lock only, never twice


def test_jupyter_book_is_the_1x_line():
    assert _pins()["jupyter-book"] == "1.0.4.post1"


def test_ci_calls_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make book" in readme
    assert re.search(r"^make test$", ci, flags=re.MULTILINE)
