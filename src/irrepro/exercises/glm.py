"""Exercises of the chapter "GLMs for IR evaluation" (Faggioli, Ferro & Fuhr).

Add an exercise with one decorated function returning its reference answer, computed by the
package (see :mod:`irrepro.exercises.registry` and the exercises of :mod:`irrepro.exercises.sigir2020`);
ids start with ``glm-`` and ``chapter="glm"``. None is written yet.
"""

from __future__ import annotations

CHAPTER = "glm"
