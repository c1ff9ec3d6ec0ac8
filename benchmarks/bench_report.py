"""Speed of ``irrepro report`` (numbers for the issue; not a test).

Goal: a report for 20 reproduced pairs x 50 topics x 1000 documents in under 20 s on 2 cores,
bootstrap (1000 resamples) included. Synthetic runs: per topic a pool of 3000 documents with a
latent relevance score; every run ranks the pool by that score plus its own noise (runs of the same
pair share part of it, so they resemble each other) and keeps the top 1000; the qrels judge the top
500 of the latent score. Scores have four decimals, so some runs have ties.

Timed: the whole command in a fresh process (``python -m irrepro report``, imports included; wall
and CPU time, and the load average, since a shared machine stretches wall time), and in-process the
phases: reading 42 runs and the qrels, the analysis (compare_runs, intervals,
curves, diagnostics for 20 pairs), the context with its two figures, and rendering HTML and LaTeX.

Usage: ``.venv/bin/python benchmarks/bench_report.py [--pairs 20] [--topics 50] [--depth 1000] [--bootstrap 1000]``
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np


def _write_run(path: Path, topics, latent, names, rng, *, noise: float, shared: dict, depth: int) -> None:
    lines = []
    for topic in topics:
        scores = latent[topic] + shared[topic] + rng.normal(0, noise, len(latent[topic]))
        top = np.argsort(-scores, kind="stable")[:depth]
        lines += [f"{topic} Q0 {names[topic][doc]} {rank} {scores[doc]:.4f} {path.stem}\n" for rank, doc in enumerate(top, start=1)]
    path.write_text("".join(lines))


def make_inputs(folder: Path, *, n_pairs: int, n_topics: int, depth: int, pool: int = 3000, seed: int = 2020) -> dict:
    """Write the qrels, the original pair, ``n_pairs`` new pairs and the pairs CSV into ``folder``."""
    rng = np.random.default_rng(seed)
    topics = [str(t) for t in range(301, 301 + n_topics)]
    latent = {t: rng.random(pool) for t in topics}
    names = {t: [f"DOC{t}-{i:05d}" for i in range(pool)] for t in topics}
    with (folder / "qrels.txt").open("w") as out:
        for t in topics:
            for doc in np.argsort(-latent[t])[:500]:
                grade = 2 if latent[t][doc] > 0.995 else int(latent[t][doc] > 0.95)
                out.write(f"{t} 0 {names[t][doc]} {grade}\n")
    zero = {t: 0.0 for t in topics}
    base_noise = {t: rng.normal(0, 0.25, pool) for t in topics}
    _write_run(folder / "orig_baseline.run", topics, latent, names, rng, noise=0.1, shared=base_noise, depth=depth)
    _write_run(folder / "orig_advanced.run", topics, latent, names, rng, noise=0.2, shared=zero, depth=depth)
    rows = ["name,baseline,advanced"]
    for k in range(1, n_pairs + 1):
        noise = 0.05 + 0.02 * k  # later pairs drift further from the originals
        _write_run(folder / f"b{k}.run", topics, latent, names, rng, noise=noise, shared=base_noise, depth=depth)
        _write_run(folder / f"a{k}.run", topics, latent, names, rng, noise=0.15 + noise, shared=zero, depth=depth)
        rows.append(f"pair_{k},b{k}.run,a{k}.run")
    (folder / "pairs.csv").write_text("\n".join(rows) + "\n")
    return {"qrels": folder / "qrels.txt", "orig_baseline": folder / "orig_baseline.run",
            "orig_advanced": folder / "orig_advanced.run", "pairs": folder / "pairs.csv"}  # fmt: skip


def _arguments(paths: dict, out: Path, bootstrap: int) -> list[str]:
    return ["report", "--qrels", str(paths["qrels"]), "--orig-baseline", str(paths["orig_baseline"]),
            "--orig-advanced", str(paths["orig_advanced"]), "--pairs", str(paths["pairs"]),
            "--bootstrap", str(bootstrap), "--out", str(out), "--latex", str(out.with_suffix(".tex"))]  # fmt: skip


def phases(paths: dict, out: Path, bootstrap: int) -> dict[str, float]:
    """The command's steps, timed one by one in this process (after its imports)."""
    from irrepro.commands.report import _read_inputs, _versions
    from irrepro.report.analysis import ReportOptions, analyse
    from irrepro.report.build import build_context
    from irrepro.report.inputs import read_pairs
    from irrepro.report.render import render_html, render_latex

    class Args:  # what argparse would hand the command
        qrels, new_qrels = paths["qrels"], None
        orig_baseline, orig_advanced = paths["orig_baseline"], paths["orig_advanced"]

    times, start = {}, time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qrels, _, original, new, files = _read_inputs(Args, read_pairs(paths["pairs"]))
        times[f"read 2 + 2x{len(new)} runs and the qrels"] = time.perf_counter() - start
        start = time.perf_counter()
        data = analyse(original, new, qrels, options=ReportOptions(n_resamples=bootstrap))
        times["analysis (compare_runs, intervals, curves, diagnostics)"] = time.perf_counter() - start
    start = time.perf_counter()
    context = build_context(data, files, title="benchmark", command="irrepro report ...", versions=_versions())
    times["context and the two figures (SVG)"] = time.perf_counter() - start
    start = time.perf_counter()
    html, latex = render_html(context), render_latex(context)
    times["rendering HTML and LaTeX"] = time.perf_counter() - start
    times["(HTML size, MB)"] = len(html.encode()) / 1e6
    del latex
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--bootstrap", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = make_inputs(folder, n_pairs=args.pairs, n_topics=args.topics, depth=args.depth)
        out = folder / "report.html"
        print(f"inputs: {args.pairs} pairs x {args.topics} topics x {args.depth} documents, bootstrap {args.bootstrap}; "
              f"{os.cpu_count()} CPUs")  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "irrepro", *_arguments(paths, out, args.bootstrap)], check=True, capture_output=True)
        total = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"irrepro report, end to end in a fresh process: {total:.1f} s wall, {cpu:.1f} s CPU (goal: < 20 s); "
              f"load average {os.getloadavg()[0]:.1f}; HTML {out.stat().st_size / 1e6:.2f} MB, "
              f"LaTeX {out.with_suffix('.tex').stat().st_size / 1e3:.0f} kB")
        for phase, seconds in phases(paths, out, args.bootstrap).items():
            print(f"  {phase}: {seconds:.2f}" + ("" if phase.startswith("(") else " s"))


if __name__ == "__main__":
    main()
