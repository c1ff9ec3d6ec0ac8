"""Measuring irrepro against a named peer: what the benchmark scripts and the book's Performance page share.

The scripts ``benchmarks/bench_*.py`` are the command-line entry points (large inputs, every detail
printed, results written to ``benchmarks/results/``); the page ``docs/using/performance.md`` runs the
same measurements at sizes a book build can afford and shows them as ratios. Both import this
package (the scripts find it beside them; the page puts ``benchmarks/`` on ``sys.path``).

Not part of the ``irrepro`` package, and not in its wheel: measuring needs the peers (ir_measures,
repro_eval, statsmodels) and starts processes, which no user of irrepro needs. Not in ``tools/``
either, which holds the book's build and page checks: this is the benchmarks' own code, next to
the scripts that use it most.

- :mod:`perf.processes`: a command as a whole process: peak memory, wall-clock and CPU time;
  repetitions in turn (A B A B ...); import time;
- :mod:`perf.synthetic`: the deterministic inputs (a run of N lines; one constellation of four runs);
- :mod:`perf.comparison`: one quantity for irrepro and its peer, and the ratio peer / irrepro;
- :mod:`perf.evaluation`, :mod:`perf.reproducibility`, :mod:`perf.glm`: the three comparisons
  (``irrepro evaluate`` vs ir_measures, ``irrepro compare`` vs repro_eval, the GLM fitter vs statsmodels);
- :mod:`perf.machine`: what the numbers were measured on;
- :mod:`perf.figure`: the ratios as a figure;
- :mod:`perf.summary`: the numbers the page's sentences say, from the comparisons.
"""

from __future__ import annotations

from pathlib import Path

#: The repository the package sits in (benchmarks/perf/ -> the root).
ROOT = Path(__file__).resolve().parents[2]
