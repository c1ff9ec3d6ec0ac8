"""Maistro, Breuer, Schaer and Ferro, IP&M 2023: the reproducibility measures under controlled deterioration.

The chapter "The measures under controlled deterioration" calls :mod:`~irrepro.papers.ipm2023.grid`.
"""

from __future__ import annotations

from irrepro.papers.ipm2023 import grid
from irrepro.papers.ipm2023.grid import *  # noqa: F403

__all__ = list(grid.__all__)
