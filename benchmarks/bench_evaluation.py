"""Speed of reading and evaluating a real run (Robust04 BM25+RM3, 250 topics x 1000 documents, 10 MB).

Run: ``.venv/bin/python benchmarks/bench_evaluation.py [--repeat N]``; prints the best and the
median wall time of each step and the best CPU time (the fairer figure on a shared machine).
Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from pathlib import Path

from irrepro.data import fetch
from irrepro.evaluation import IgnoredTopicsWarning, evaluate
from irrepro.runs import read_qrels, read_run


def _time(label: str, function, repeat: int):
    times, cpu_times, result = [], [], None
    for _ in range(repeat):
        start, cpu_start = time.perf_counter(), time.process_time()
        result = function()
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    print(
        f"{label:<40} wall best {min(times):.3f} s, median {statistics.median(times):.3f} s;"
        f" CPU best {min(cpu_times):.3f} s"
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    run_path, qrels_path = fetch("runs/robust04_bm25_rm3.run"), fetch("qrels/robust04.txt")
    print(
        f"run: {run_path} ({run_path.stat().st_size / 1e6:.1f} MB); "
        f"qrels: {qrels_path.stat().st_size / 1e6:.1f} MB"
    )
    run = _time("read_run (250,000 lines)", lambda: read_run(run_path), args.repeat)
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        # A comment line sends the file to the line-by-line reference reader (see irrepro.runs).
        commented = Path(folder) / "commented.run"
        commented.write_bytes(b"# a comment\n" + run_path.read_bytes())
        warnings.simplefilter("ignore", UserWarning)
        _time("read_run, line by line (+ a comment)", lambda: read_run(commented), args.repeat)
    qrels = _time("read_qrels (311,410 judgments)", lambda: read_qrels(qrels_path), args.repeat)
    warnings.simplefilter("ignore", IgnoredTopicsWarning)  # topic 672 is not in the qrels
    _time("evaluate 1 run x (AP, P@10, nDCG)", lambda: evaluate({"bm25": run}, qrels), args.repeat)
    measures = ["AP", "P@10", "nDCG", "nDCG@10", "R-prec", "recall@1000"]
    _time(
        "evaluate 10 runs x 6 measures",
        lambda: evaluate({f"r{i}": run for i in range(10)}, qrels, measures),
        args.repeat,
    )


if __name__ == "__main__":
    main()
