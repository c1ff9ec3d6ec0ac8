"""Build an example ``irrepro report`` from public data: the screenshot in docs/using/own-runs.md comes from it.

Usage: python tools/report_example.py [OUT_DIR]   (default _build/report-example)

The Robust04 qrels and Anserini's BM25+RM3 run (``irrepro data``; no licensed data) make the
original advanced run; the same run with its scores blurred by noise (a quarter of each topic's
score range) makes a weaker original baseline. Three reproductions follow: ``close`` and ``loose``
add 1% and 5% noise to both runs, ``top-100`` adds 2% and keeps only each topic's top 100
documents, and its baseline lost topics 301 and 302. Seeded, so the files and the report are the
same at every run. Then ``irrepro report`` writes ``report.html`` and ``tables.tex`` into OUT_DIR;
``python tools/check_report.py OUT_DIR/report.html`` checks it in Chromium and saves the screenshot.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
TITLE = "Robust04: BM25+RM3, blurred and replicated"


def _blurred(run: pd.DataFrame, scale: float, tag: str, rng: np.random.Generator) -> pd.DataFrame:
    """The run with Gaussian noise of ``scale`` times each topic's score range added to its scores."""
    spread = run.groupby("query_id")["score"].transform(lambda scores: scores.max() - scores.min())
    noise = rng.normal(0.0, scale, len(run)) * spread.to_numpy()
    return run.assign(score=(run["score"] + noise).round(4), run=tag)


def write_inputs(folder: Path) -> Path:
    """Write the qrels, the original pair, three reproduced pairs and ``pairs.csv``; return the CSV."""
    from irrepro.data import fetch
    from irrepro.runs import read_run, write_run

    rng = np.random.default_rng(2020)
    shutil.copyfile(fetch("qrels/robust04.txt"), folder / "qrels.txt")
    advanced = read_run(fetch("runs/robust04_bm25_rm3.run")).assign(run="orig_advanced")
    baseline = _blurred(advanced, 0.25, "orig_baseline", rng)
    write_run(baseline, folder / "orig_baseline.run")
    write_run(advanced, folder / "orig_advanced.run")
    rows = ["name,baseline,advanced"]
    for name, scale in (("close", 0.01), ("loose", 0.05)):
        write_run(_blurred(baseline, scale, f"{name}_b", rng), folder / f"{name}_b.run")
        write_run(_blurred(advanced, scale, f"{name}_a", rng), folder / f"{name}_a.run")
        rows.append(f"{name},{name}_b.run,{name}_a.run")
    short_baseline = _blurred(baseline, 0.02, "top100_b", rng)
    short_baseline = short_baseline[(short_baseline["rank"] <= 100) & ~short_baseline["query_id"].isin(["301", "302"])]
    short_advanced = _blurred(advanced, 0.02, "top100_a", rng)
    write_run(short_baseline, folder / "top100_b.run")
    write_run(short_advanced[short_advanced["rank"] <= 100], folder / "top100_a.run")
    rows.append("top-100,top100_b.run,top100_a.run")
    (folder / "pairs.csv").write_text("\n".join(rows) + "\n")
    return folder / "pairs.csv"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else ROOT / "_build" / "report-example"
    folder.mkdir(parents=True, exist_ok=True)
    write_inputs(folder)
    # Run in the folder with relative names: the report then shows (and records) portable paths.
    command = [sys.executable, "-m", "irrepro", "report", "--qrels", "qrels.txt", "--orig-baseline", "orig_baseline.run",
               "--orig-advanced", "orig_advanced.run", "--pairs", "pairs.csv", "--title", TITLE,
               "--out", "report.html", "--latex", "tables.tex"]  # fmt: skip
    return subprocess.run(command, cwd=folder, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
