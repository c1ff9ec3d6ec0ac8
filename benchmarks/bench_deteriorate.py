"""``irrepro deteriorate`` beside one ``irrepro evaluate`` on runs of N lines, as whole processes (issue 34, item 4).

Run: ``.venv/bin/python benchmarks/bench_deteriorate.py [--lines 2000000] [--repeats 5] [--workdir DIR]``.

The goal: a deteriorated run costs no more than one evaluation of the run. Both commands run on
the same synthetic files (:func:`perf.synthetic.write_run_of_lines`, written once into
``--workdir`` and reused), in turn, ``--repeats`` times each; each one's median peak memory,
wall-clock and CPU time (user + system) and the ratios evaluation / deterioration (above 1: the
deterioration cost less) are printed. The deteriorated file is checked first: it differs from the
run on exactly the lines the command reported (:mod:`perf.deterioration`). The book's Performance
page (docs/using/performance.md) runs the same comparison at 2,000,000 lines with 3 repeats.
Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from perf import deterioration, machine, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[2_000_000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workdir", type=Path, help="where the synthetic inputs are written (default: a temporary folder)")
    args = parser.parse_args()
    described = machine.describe()
    print(f"{described['cores']} cores, {described['cpu']}, load {described['load_1min']}; irrepro {described['irrepro']}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.workdir or Path(scratch)
        for n_lines in args.lines:
            result = deterioration.compare_deterioration(n_lines, folder / f"lines-{n_lines}", repeats=args.repeats)
            values = summary.deterioration_values(result)
            print(f"\n{values['lines']} lines ({values['topics']} topics), {values['settings']}: "
                  f"{result.swaps} swaps and {result.replacements} replacements, {values['lines-changed']} lines changed")
            for comparison in result.comparisons:
                print(f"  {comparison.quantity:<32} deteriorate {comparison.ours:8.3f} {comparison.unit:<4}"
                      f"evaluate {comparison.theirs:8.3f} {comparison.unit:<4}ratio evaluate/deteriorate {comparison.ratio:.3f}")
            print(f"  goal (deterioration <= one evaluation): wall-clock {values['wall-verdict']}, CPU {values['cpu-verdict']}")


if __name__ == "__main__":
    main()
