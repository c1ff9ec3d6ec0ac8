"""Peak memory and time of ``irrepro evaluate`` against ir_measures on runs of N lines (issue 27).

Run: ``.venv/bin/python benchmarks/bench_evaluation_memory.py [--lines 2000000 10000000]
[--baseline-src ../main/src] [--order grouped|shuffled]``.

Each tool runs as a whole process on the same files, one after the other, and its peak resident
memory (maximum resident set size), wall time and CPU time (user + system) are taken by
:func:`perf.processes.run_measured` (GNU ``/usr/bin/time`` when installed); ratios are against ir_measures measured in the same run.  The commands:

- ``irrepro evaluate --qrels Q RUN --format json`` (its default measures AP, P@10, nDCG);
- ``python -m ir_measures Q RUN 'AP P@10 nDCG' --places -1`` (the same three measures, which
  ir_measures also computes with trec_eval's code through pytrec_eval);
- optionally irrepro from another checkout (``--baseline-src``, e.g. main's ``src``), to see that
  time is not worse than before.

The three means of every tool are compared (to 1e-12) and any difference is printed and written
with the results: a tool that ran but computed something else would make its timing meaningless.

The synthetic data (deterministic, ``--seed``; written once into ``--workdir`` and reused) is
:func:`perf.synthetic.write_run_of_lines`: Robust04's topics replicated to N / 1000 topics, 1000
documents each, qrels of at most 200 judgments per topic. The book's Performance page
(docs/using/performance.md) runs the same comparison at a size a book build can afford.

Results (a table on stdout; JSON and CSV with the machine described) go to
``benchmarks/results/`` (not committed).  Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from perf import evaluation, machine, processes
from perf.synthetic import write_run_of_lines

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


# --------------------------------------------------------------------------- measuring a process


@dataclass
class Measurement:
    lines: int
    tool: str
    peak_mib: float
    wall_s: float
    cpu_s: float
    means: dict


def measure(tool: str, command: list[str], env: dict, lines: int) -> Measurement:
    """Run ``command`` as a whole process (:func:`perf.processes.run_measured`): its peak RSS, wall and CPU time, its means."""
    try:
        finished = processes.run_measured(command, env=env)
    except RuntimeError as error:
        raise SystemExit(f"{tool}: {error}") from None
    read = evaluation.irrepro_means if tool.startswith("irrepro") else evaluation.ir_measures_means
    cost = finished.cost
    return Measurement(lines, tool, cost.peak_mib, cost.wall_s, cost.cpu_s, read(finished.stdout))


def _commands(qrels: Path, run: Path, baseline_src: Path | None) -> dict[str, tuple[list[str], dict]]:
    env = processes.environment()
    both = evaluation.commands(qrels, run)
    commands = {"irrepro": (both["irrepro"], env), "ir_measures": (both["ir_measures"], env)}
    if baseline_src is not None:
        commands["irrepro (baseline)"] = (both["irrepro"], processes.environment(baseline_src.resolve()))
    return commands


# --------------------------------------------------------------------------- the machine and the report


def disagreements(measurements: list[Measurement]) -> list[str]:
    """Where a tool's mean differs from ir_measures' at the same size by more than 1e-12."""
    found = []
    for m in measurements:
        peer = next(p for p in measurements if p.lines == m.lines and p.tool == "ir_measures")
        for name, value in peer.means.items():
            if abs(m.means[name] - value) > 1e-12:
                found.append(f"{m.tool} and ir_measures differ on {name} at {m.lines:,} lines: {m.means[name]!r} vs {value!r}")
    return found


def report(measurements: list[Measurement]) -> list[dict]:
    """Rows with ratios against ir_measures at the same size (< 1: less memory or time than it)."""
    rows = []
    for m in measurements:
        peer = next(p for p in measurements if p.lines == m.lines and p.tool == "ir_measures")
        rows.append(
            {
                **{k: v for k, v in asdict(m).items() if k != "means"},
                "memory_vs_ir_measures": m.peak_mib / peer.peak_mib,
                "wall_vs_ir_measures": m.wall_s / peer.wall_s,
                "cpu_vs_ir_measures": m.cpu_s / peer.cpu_s,
                **{f"mean {name}": value for name, value in m.means.items()},
            }
        )
    return rows


def _print_table(rows: list[dict]) -> None:
    print(f"{'lines':>10}  {'tool':<20} {'peak MiB':>9} {'wall s':>8} {'CPU s':>8}  {'memory/irm':>10} {'wall/irm':>8} {'CPU/irm':>8}")
    for r in rows:
        print(
            f"{r['lines']:>10,}  {r['tool']:<20} {r['peak_mib']:>9.0f} {r['wall_s']:>8.1f} {r['cpu_s']:>8.1f}"
            f"  {r['memory_vs_ir_measures']:>10.2f} {r['wall_vs_ir_measures']:>8.2f} {r['cpu_vs_ir_measures']:>8.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, nargs="+", default=[2_000_000, 10_000_000])
    parser.add_argument("--order", choices=["grouped", "shuffled"], default="grouped")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "irrepro-bench-memory")
    parser.add_argument("--baseline-src", type=Path, help="another checkout's src/ (e.g. ../main/src) to compare with")
    parser.add_argument("--tools", nargs="+", help="only these tools (irrepro, ir_measures, 'irrepro (baseline)')")
    args = parser.parse_args()
    measurements, load = [], [os.getloadavg()]
    for n_lines in args.lines:
        qrels, run = write_run_of_lines(n_lines, args.workdir, seed=args.seed, order=args.order)
        for tool, (command, env) in _commands(qrels, run, args.baseline_src).items():
            if args.tools and tool not in args.tools and tool != "ir_measures":
                continue
            measurements.append(measure(tool, command, env, n_lines))
            print(f"{n_lines:,} lines, {tool}: {measurements[-1].peak_mib:.0f} MiB, {measurements[-1].wall_s:.1f} s", file=sys.stderr)
    load.append(os.getloadavg())
    rows = report(measurements)
    _print_table(rows)
    differ = disagreements(measurements)
    for line in differ:
        print(f"WARNING: {line}")
    described = {
        "machine": machine.describe(), "load_average_start_end": load, "order": args.order, "seed": args.seed,
        "means_disagree": differ,
    }  # fmt: skip
    print(f"load average (1, 5, 15 min) at start {load[0]}, at end {load[1]}; {described['machine']}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (RESULTS / f"evaluation_memory-{stamp}.json").write_text(json.dumps({**described, "rows": rows}, indent=2))
    with open(RESULTS / f"evaluation_memory-{stamp}.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"written: {RESULTS}/evaluation_memory-{stamp}.{{json,csv}}")


if __name__ == "__main__":
    main()
