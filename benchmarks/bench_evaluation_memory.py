"""Peak memory and time of ``irrepro evaluate`` against ir_measures on runs of N lines (issue 27).

Run: ``.venv/bin/python benchmarks/bench_evaluation_memory.py [--lines 2000000 10000000]
[--baseline-src ../main/src] [--order grouped|shuffled]``.

Each tool runs as a whole process on the same files, one after the other, and its peak resident
memory (maximum resident set size), wall time and CPU time (user + system) are taken with GNU
``/usr/bin/time``; ratios are against ir_measures measured in the same run.  The commands:

- ``irrepro evaluate --qrels Q RUN --format json`` (its default measures AP, P@10, nDCG);
- ``python -m ir_measures Q RUN 'AP P@10 nDCG' --places -1`` (the same three measures, which
  ir_measures also computes with trec_eval's code through pytrec_eval);
- optionally irrepro from another checkout (``--baseline-src``, e.g. main's ``src``), to see that
  time is not worse than before.

The three means of every tool are compared (to 1e-12) and any difference is printed and written
with the results: a tool that ran but computed something else would make its timing meaningless.

The synthetic data (deterministic, ``--seed``; written once into ``--workdir`` and reused):
Robust04's 249 judged topics (``qrels/robust04.txt`` from the data mirror) replicated with a
suffix (``301``, ``301-1``, ``301-2``, ...) until there are N / 1000 topics.  Each copy has its
own qrels: all relevant judgments of the original topic (at most 100) plus non-relevant ones up to
200 in all, so that, as in real collections, the qrels are far smaller than a big run (replicating
all of Robust04's 1,250 judgments per topic would make a 12.5-million-line qrels file for a
10-million-line run, and the benchmark would measure the qrels).  Each topic ranks 1000 documents:
up to 150 of its judged documents and the rest drawn from Robust04's 174,787 judged docnos,
scores descending with four decimals (so some scores tie), one line per document, topics in
blocks in copy order (not in string order), as TREC runs are written.  ``--order shuffled``
writes the same lines in random order (no topic in one block).

Results (a table on stdout; JSON and CSV with the machine described) go to
``benchmarks/results/`` (not committed).  Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DOCS_PER_TOPIC = 1000
MEASURES = ("AP", "P@10", "nDCG")
#: ir_measures' names of the same measures (trec_eval map, P_10, ndcg)
IR_MEASURES_NAMES = {"AP": "AP", "P@10": "P@10", "nDCG": "nDCG"}


# --------------------------------------------------------------------------- the synthetic data


def _robust04_judgments() -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Robust04's qrels as (topics, topic code, doc code, grade per judgment, docnos by code)."""
    from irrepro.data import fetch
    from irrepro.runs import read_qrels

    qrels = read_qrels(fetch("qrels/robust04.txt"))
    topic_codes, topics = qrels["query_id"].factorize()
    doc_codes, docnos = qrels["doc_id"].factorize()
    return list(topics), topic_codes, doc_codes, qrels["relevance"].to_numpy(), np.asarray(docnos, dtype=object)


def write_synthetic(n_lines: int, folder: Path, *, seed: int, order: str) -> tuple[Path, Path]:
    """Write (qrels, run) of ``n_lines`` run lines as the module docstring says; reuse existing files."""
    stem = f"synthetic-{n_lines}-seed{seed}"
    qrels_path, run_path = folder / f"{stem}.qrels", folder / f"{stem}-{order}.run"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    topics, topic_codes, doc_codes, grades, docnos = _robust04_judgments()
    by_topic = [np.flatnonzero(topic_codes == code) for code in range(len(topics))]
    qrels_lines, run_blocks = [], []
    for number in range(-(-n_lines // DOCS_PER_TOPIC)):
        copy, original = divmod(number, len(topics))
        topic = topics[original] if copy == 0 else f"{topics[original]}-{copy}"
        judged = _judgments_of_copy(rng, by_topic[original], grades)
        qrels_lines += [f"{topic} 0 {docnos[doc_codes[j]]} {grades[j]}\n" for j in judged]
        ranked = _ranking(rng, doc_codes[judged], len(docnos))
        scores = np.sort(rng.random(len(ranked)) * 10)[::-1]
        run_blocks.append(
            [f"{topic} Q0 {docnos[d]} {r} {s:.4f} synthetic\n" for r, (d, s) in enumerate(zip(ranked, scores, strict=True), 1)]
        )
    run_lines = [line for block in run_blocks for line in block][:n_lines]
    if order == "shuffled":
        run_lines = [run_lines[i] for i in rng.permutation(len(run_lines))]
    if not qrels_path.exists():  # the same lines for every order: written once
        _write(qrels_path, qrels_lines)
    _write(run_path, run_lines)
    return qrels_path, run_path


def _judgments_of_copy(rng, judgments: np.ndarray, grades: np.ndarray) -> np.ndarray:
    """Row numbers of one topic copy's judgments: its relevant ones (<= 100), then non-relevant, 200 in all."""
    relevant = judgments[grades[judgments] >= 1]
    other = judgments[grades[judgments] < 1]
    relevant = rng.choice(relevant, size=min(len(relevant), 100), replace=False)
    other = rng.choice(other, size=min(len(other), 200 - len(relevant)), replace=False)
    return np.sort(np.r_[relevant, other])


def _ranking(rng, judged_docs: np.ndarray, n_docs: int) -> np.ndarray:
    """1000 distinct doc codes: up to 150 judged ones, the rest unjudged, in random order."""
    from_judged = rng.choice(judged_docs, size=min(150, len(judged_docs)), replace=False)
    unjudged = np.setdiff1d(rng.choice(n_docs, size=2 * DOCS_PER_TOPIC, replace=False), judged_docs)
    ranked = np.r_[from_judged, unjudged[rng.permutation(len(unjudged))][: DOCS_PER_TOPIC - len(from_judged)]]
    return ranked[rng.permutation(len(ranked))]


def _write(path: Path, lines: list[str]) -> None:
    partial = path.with_suffix(path.suffix + ".partial")
    with open(partial, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
    partial.replace(path)


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
    """Run ``command`` under ``/usr/bin/time``: its peak RSS, wall and CPU time, and its means.

    ``/usr/bin/time`` rather than this process's ``wait4``: Linux carries the peak RSS of the
    process that forks over into the child's ``ru_maxrss`` (a floor of this process's own size).
    """
    timer = shutil.which("time", path="/usr/bin:/bin")
    if timer is None:
        raise SystemExit("needs GNU time (/usr/bin/time): apt-get install time")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        done = subprocess.run(
            [timer, "-f", "%M %e %U %S", "-o", timing.name, *command], capture_output=True, text=True, env=env
        )
        if done.returncode != 0:
            raise SystemExit(f"{tool} failed (exit {done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
        peak_kib, wall, user, system = (float(v) for v in timing.read().split()[-4:])
    means = _irrepro_means(done.stdout) if tool.startswith("irrepro") else _ir_measures_means(done.stdout)
    return Measurement(lines, tool, peak_kib / 1024, wall, user + system, means)


def _irrepro_means(stdout: str) -> dict:
    (run,) = json.loads(stdout)["runs"].values()
    return run["mean"]


def _ir_measures_means(stdout: str) -> dict:
    by_name = dict(line.split("\t") for line in stdout.strip().splitlines())
    return {ours: float(by_name[theirs]) for ours, theirs in IR_MEASURES_NAMES.items()}


def _commands(qrels: Path, run: Path, baseline_src: Path | None) -> dict[str, tuple[list[str], dict]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    irrepro = [sys.executable, "-m", "irrepro", "evaluate", "--qrels", str(qrels), str(run), "--format", "json"]
    ir_measures = [sys.executable, "-m", "ir_measures", str(qrels), str(run), " ".join(IR_MEASURES_NAMES.values())]
    commands = {"irrepro": (irrepro, env), "ir_measures": (ir_measures + ["--places", "-1"], env)}
    if baseline_src is not None:
        commands["irrepro (baseline)"] = (irrepro, dict(env, PYTHONPATH=str(baseline_src.resolve())))
    return commands


# --------------------------------------------------------------------------- the machine and the report


def machine() -> dict:
    """What the numbers were measured on."""
    cpu = next((line.split(":", 1)[1].strip() for line in _lines("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    memory_kib = next((int(line.split()[1]) for line in _lines("/proc/meminfo") if line.startswith("MemTotal")), 0)
    packages = {name: _version(name) for name in ("numpy", "pandas", "pytrec-eval-terrier", "ir_measures")}
    revision = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gib": round(memory_kib / 2**20, 1),
        "system": platform.platform(),
        "python": platform.python_version(),
        "packages": packages,
        "irrepro_revision": revision.stdout.strip(),
    }


def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


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
        qrels, run = write_synthetic(n_lines, args.workdir, seed=args.seed, order=args.order)
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
        "machine": machine(), "load_average_start_end": load, "order": args.order, "seed": args.seed,
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
