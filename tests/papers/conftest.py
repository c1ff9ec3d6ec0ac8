"""The text copies of the three papers (kept outside the repository, next to the data mirror)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from irrepro.papers import PAPERS

_BESIDE_REPOSITORY = Path(__file__).resolve().parents[2].parent / "shared" / "papers"


def _papers_folder() -> Path:
    """``$IRREPRO_PAPERS``, else ``papers/`` beside the data mirror, else ``../shared/papers``."""
    if "IRREPRO_PAPERS" in os.environ:
        return Path(os.environ["IRREPRO_PAPERS"])
    if "IRREPRO_DATA_MIRROR" in os.environ:
        return Path(os.environ["IRREPRO_DATA_MIRROR"]).parent / "papers"
    return _BESIDE_REPOSITORY


@pytest.fixture(scope="session")
def paper_texts() -> dict[str, str]:
    """Paper key -> the text of its copies, joined; skips when the copies are not found."""
    folder = _papers_folder()
    if not folder.is_dir():
        pytest.skip(f"the papers' text copies are not at {folder} (set IRREPRO_PAPERS)")
    return {key: "\n".join((folder / name).read_text(encoding="utf-8") for name in paper.texts) for key, paper in PAPERS.items()}


def assert_made_once(monkeypatch, make, module, dependency: str):
    """Call ``make()`` twice, the second time with ``module.dependency`` refusing to run: the second
    result must come from the cache (the chapter's cells share what one of them computed) and equal
    the first."""
    first = make()

    def refuse(*args, **kwargs):
        raise AssertionError(f"{module.__name__}.{dependency} ran again: {make} is not cached")

    with monkeypatch.context() as patched:
        patched.setattr(module, dependency, refuse)
        second = make()
    if isinstance(first, pd.DataFrame):
        pd.testing.assert_frame_equal(second, first)
    else:
        assert second == first
