"""Exercises of the chapter "Replicating and reproducing routing runs" (Breuer & Schaer, CLEF 2019).

Add an exercise with one decorated function returning its reference answer, computed by the
package (see :mod:`irrepro.exercises.registry` and the exercises of :mod:`irrepro.exercises.sigir2020`);
ids start with ``routing-`` and ``chapter="routing_runs"``. None is written yet.
"""

from __future__ import annotations

CHAPTER = "routing_runs"
