"""Benchmark of the constellation grid (issue 16): ``irrepro routing grid`` on the stand-in, serial
against two Dask workers, the saving of shared features, and the real 200-run grid projected.

    python benchmarks/bench_grid.py standin              # the stand-in's full grid: 84 runs, three ways
    python benchmarks/bench_grid.py phases --share 0.05  # feature vs run task time on a synthetic NYT sample
    python benchmarks/bench_grid.py project --share 0.05  # phases, then the 200-run grid on 1 ... 256 workers

``standin`` makes the full stand-in grid (2 systems x 2 targets x 21 constellations) (a) in one
process with every run building its own features (``route`` per run, the path before the grid),
(b) in one process with shared features (:func:`irrepro.routing.grid.run_grid` without a client)
and (c) on a local cluster of two workers (``--workers 2 --memory-limit 1GiB``; cluster start and
stop included), and prints wall times, the feature sets built, the share of task time saved by
sharing and each worker's peak resident memory.

``phases`` times one WCrobust04 run on a synthetic corpus (``benchmarks/make_synthetic_corpus.py``,
the NYT : Robust04 size ratio kept) split into the grid's two tasks: the feature task
(:func:`~irrepro.routing.pipeline.prepare_features`, tf-idf fitted on the training corpus and its
judged rows; the target is not held at NYT scale) and the run task
(:func:`~irrepro.routing.pipeline.rank_features`: classifiers, then the target streamed and ranked).

``project`` takes the measured feature share and the per-run figure at NYT scale of docs/using/cluster.md (1,118 s
= 18.6 min, ``benchmarks/bench_routing.py full``: a run at that scale cannot be repeated 200 times
here) and simulates Dask's greedy scheduling of the 200-run grid (50 SIGIR 2020 constellations x 2
systems x 2 targets; 38 distinct feature sets per system and target, from the authors'
``config/param.py``: 9 and 35-44 change only the classifier, 30 has 24's features) on W workers.
The numbers are reported in the issue, not asserted in tests.

Measured on 2026-12-01 on the project's 2-core machine, shared with other sessions (load average
2.9 at the start of ``standin``, 5.6 at its end: wall times are upper bounds, CPU times are the
tasks' own):

=================================================  =========  ===========================
stand-in grid, 84 runs (44 feature sets)           wall s     CPU s
=================================================  =========  ===========================
one process, every run its own features (route)    116.0      89.4 (process)
one process, shared features                       123.5      70.1 (tasks; 23.6% saved)
2 workers, 1 GiB each (cluster start included)     86.5       tasks 0.55 + 0.58 per set/run
=================================================  =========  ===========================

Worker peak RSS 340 MiB under the 1 GiB limit. ``phases`` at 5% of NYT scale (26,407 training,
92,782 target documents): feature task 16.8 s, run task 32.8 s, feature share 0.339. Projected
200-run grid at NYT scale (1,118 s per run): 62.1 h without sharing on one worker; with sharing
57.1 h on 1 worker, 7.2 h on 8 (speed-up 7.9), 2.0 h on 32 (29.1), 1.0 h on 64 (55.3), 0.5 h on
152 (110.6), 0.3 h on 256 (183.7); the floor is one feature task plus one run task, 0.31 h.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: docs/using/cluster.md ("about 19 minutes"), benchmarks/bench_routing.py full: one WCrobust04 run at NYT scale, streaming, 2 cores
NYT_RUN_SECONDS = 1118.0
#: the SIGIR 2020 grid: 50 constellations; of them 12 share constellation 1's features (1, 9, 35-44)
#: and 30 shares 24's, so 38 feature sets per system and target (config/param.py @ 3b4e760)
GRID_CONSTELLATIONS, GRID_FEATURE_SETS, GRID_SETTINGS = 50, 38, 4


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def standin(memory_limit: str = "1GiB") -> dict:
    """The stand-in's full grid three ways (see the module docstring)."""
    from irrepro.routing import standin as stand_in_module
    from irrepro.routing.experiment import StandInCorpora, local_cluster
    from irrepro.routing.grid import plan, run_grid
    from irrepro.routing.pipeline import route

    runs = plan(["wcrobust04", "wcrobust0405"], ["reuters-near", "reuters-far"])
    built = stand_in_module.load()
    results = {"runs": len(runs), "load average at start": round(os.getloadavg()[0], 1)}
    started, cpu = time.perf_counter(), time.process_time()
    for run in runs:  # (a) every run its own features
        r = run.request
        route([built.training[role] for role in r.training], built.collections[r.target],
              constellation=r.constellation, run_tag=r.tag)  # fmt: skip
    results["serial, features per run: wall s"] = round(time.perf_counter() - started, 1)
    results["serial, features per run: CPU s"] = round(time.process_time() - cpu, 1)
    with tempfile.TemporaryDirectory() as out:  # (b) one process, shared features
        report = run_grid(StandInCorpora(), runs, out, progress=False)
    results["serial, shared features: wall s"] = round(report.wall_seconds, 1)
    results["serial, shared features: task CPU s"] = round(report.cpu_seconds_with_sharing, 1)
    results["feature sets"] = report.feature_sets
    results["task time saved by sharing (serial)"] = round(report.saved_share, 3)
    results["feature task CPU s (mean)"] = round(sum(report.feature_cpu_seconds.values()) / report.feature_sets, 2)
    results["run task CPU s (mean)"] = round(sum(report.run_cpu_seconds) / len(report.run_cpu_seconds), 2)
    with tempfile.TemporaryDirectory() as out:  # (c) two workers
        started = time.perf_counter()
        with local_cluster(workers=2, memory_limit=memory_limit) as client:
            report = run_grid(StandInCorpora(), runs, out, client=client, progress=False)
            peaks = client.run(_peak_mib)
        results["2 workers (cluster start included): wall s"] = round(time.perf_counter() - started, 1)
        results["2 workers, grid only: wall s"] = round(report.wall_seconds, 1)
    results["task time saved by sharing (2 workers)"] = round(report.saved_share, 3)
    results["2 workers: feature task CPU s (mean)"] = round(sum(report.feature_cpu_seconds.values()) / report.feature_sets, 2)
    results["2 workers: run task CPU s (mean)"] = round(sum(report.run_cpu_seconds) / len(report.run_cpu_seconds), 2)
    results["2 workers: run task wall s (mean)"] = round(sum(report.run_seconds) / len(report.run_seconds), 2)
    results["worker memory limit"] = memory_limit
    results["worker peak RSS MiB"] = sorted(round(p) for p in peaks.values())
    results["load average at end"] = round(os.getloadavg()[0], 1)
    return results


def phases(share: float) -> dict:
    """Feature task and run task of one WCrobust04 run on a synthetic sample of NYT scale."""
    from make_synthetic_corpus import NYT_DOCUMENTS, ROBUST04_DOCUMENTS, SyntheticCorpus

    from irrepro.routing.pipeline import Collection, RunSettings, prepare_features, rank_features

    seed = 20190909
    training = SyntheticCorpus(int(ROBUST04_DOCUMENTS * share), seed=seed, stream=1, prefix="TRN")
    target = SyntheticCorpus(int(NYT_DOCUMENTS * share), seed=seed, stream=2, prefix="TGT")
    train = Collection("synthetic-robust04", training, training.qrels())
    nyt = Collection("synthetic-nyt", target, target.qrels())
    settings = RunSettings.resolve("paper")
    started = time.perf_counter()
    features = prepare_features([train], nyt, settings)
    feature_seconds = time.perf_counter() - started
    started = time.perf_counter()
    rank_features(features, settings, run_tag="synthetic")
    run_seconds = time.perf_counter() - started
    return {
        "share": share, "training documents": len(training), "target documents": len(target),
        "feature task s": round(feature_seconds, 1), "run task s": round(run_seconds, 1),
        "feature share": round(feature_seconds / (feature_seconds + run_seconds), 3), "peak MiB": round(_peak_mib()),
    }


def simulate(workers: int, feature_seconds: float, run_seconds: float) -> float:
    """Makespan of the grid as :func:`irrepro.routing.experiment.iter_runs` submits it: set by set, a
    feature task and then its runs; a free worker takes the first submitted task that is ready (a
    run is ready when its feature set is), and waits when none is."""
    # per system and target: constellation 1's set serves 12 runs, 24's serves 2, the other 36 one each
    sets = GRID_FEATURE_SETS * GRID_SETTINGS
    runs_per_set = [12 if i % GRID_FEATURE_SETS == 0 else 2 if i % GRID_FEATURE_SETS == 1 else 1 for i in range(sets)]
    assert sum(runs_per_set) == GRID_CONSTELLATIONS * GRID_SETTINGS
    pending = [task for i, count in enumerate(runs_per_set) for task in [("features", i)] + [("run", i)] * count]
    finished: dict[int, float] = {}  # feature set -> when its task ends
    free = [0.0] * workers
    while pending:
        now = heapq.heappop(free)
        ready = [k for k, (kind, i) in enumerate(pending) if kind == "features" or finished.get(i, float("inf")) <= now]
        if not ready:  # every pending task waits for a feature set being built
            now = min(finished[i] for _, i in pending)
            ready = [k for k, (_, i) in enumerate(pending) if finished[i] <= now]
        kind, i = pending.pop(ready[0])
        end = now + (feature_seconds if kind == "features" else run_seconds)
        if kind == "features":
            finished[i] = end
        heapq.heappush(free, end)
    return max(free)


def project(feature_share: float) -> dict:
    """The 200-run grid at NYT scale on 1 ... 256 workers, from the per-run figure and the feature share."""
    feature_seconds = NYT_RUN_SECONDS * feature_share
    run_seconds = NYT_RUN_SECONDS - feature_seconds
    unshared = GRID_CONSTELLATIONS * GRID_SETTINGS * NYT_RUN_SECONDS
    rows = {}
    for workers in (1, 8, 32, 64, 152, 256):
        makespan = simulate(workers, feature_seconds, run_seconds)
        rows[workers] = {"hours": round(makespan / 3600, 1), "speed-up": round(simulate(1, feature_seconds, run_seconds) / makespan, 1)}
    return {
        "per-run s (NYT scale)": NYT_RUN_SECONDS, "feature task s": round(feature_seconds),
        "run task s": round(run_seconds), "200 runs without sharing, 1 worker: hours": round(unshared / 3600, 1),
        "floor (one feature task + one run task): hours": round(NYT_RUN_SECONDS / 3600, 2), "workers": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("standin", "phases", "project"))
    parser.add_argument("--share", type=float, default=0.05)
    parser.add_argument("--feature-share", type=float, default=None)
    parser.add_argument("--memory-limit", default="1GiB")
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if args.what == "standin":
        result = standin(args.memory_limit)
    elif args.what == "phases":
        result = phases(args.share)
    elif args.feature_share is not None:
        result = project(args.feature_share)
    else:
        measured = phases(args.share)
        result = {"measured": measured, **project(measured["feature share"])}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
