"""Shared test set-up: data comes from the local mirror when one is beside the repository."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

REPOSITORY = Path(__file__).resolve().parents[1]
_SHARED_MIRROR = REPOSITORY.parent / "shared" / "data"

if "IRREPRO_DATA_MIRROR" not in os.environ and _SHARED_MIRROR.is_dir():
    os.environ["IRREPRO_DATA_MIRROR"] = str(_SHARED_MIRROR)
os.environ.setdefault("IRREPRO_CACHE", str(Path(os.environ.get("TMPDIR", "/tmp")) / "irrepro-test-cache"))
