"""Speed of the reproducibility measures (numbers for the report; not a test).

1. One constellation from files (4 runs, 50 topics x 1000 documents, qrels): ``irrepro``'s
   ``read_run``/``read_qrels`` + ``compare_runs`` (all measures) against repro_eval's
   ``RpdEvaluator`` (load, trim, evaluate, KTU, RBO, RMSE, ER, DeltaRI, t-test), side by side.
   repro_eval evaluates every trec_eval measure on load; the speed-up is also given against
   repro_eval's measure calls alone (after its evaluation). Then the floor: the parts no
   pipeline of this kind can skip (tokenising the files; trec_eval's own evaluation through
   pytrec_eval; KTU and RBO), each timed alone, and the speed-up they leave at most -- with
   pandas' C parser, and with polars' compiled parser when polars is installed (it is not a
   dependency: ``pip install polars`` to see that line).
   Then the same as whole processes, side by side: the ``irrepro compare`` command against a
   Python script that runs repro_eval's ``RpdEvaluator`` on the same files (imports, start-up and
   exit included, as a user meets them), each started ``--process-repeats`` times in turn
   (:mod:`perf.reproducibility`, which the book's Performance page runs too); median wall-clock
   and CPU time (user + system) of each, and their ratios, against the goal (>= 5x); the time
   ``irrepro compare`` spends importing; the import time ``scipy.special`` (``stdtr``) would add to
   each ``irrepro compare``, and the speed-up left then. Written to ``benchmarks/results/``
   (``--processes-only`` runs this part alone).
2. The paper's scale: 100 replicated run pairs (50 replicated baselines, 50 replicated advanced
   runs, each paired with its original) x 50 topics x 10,000 documents in memory; KTU, RBO (plus
   the label-free tau-b and tau on the intersection, which come with the same pass) at depth 1000
   and RMSE / ER / DeltaRI / paired t-test for three measures from topics x runs matrices.

Usage: ``.venv/bin/python benchmarks/bench_reproducibility.py [--skip-repro-eval] [--skip-paper-scale] [--repeats N]
[--process-repeats N] [--processes-only]``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from perf.synthetic import latent_runs, write_constellation


def constellation(tmp: Path, *, skip_repro_eval: bool, repeats: int, process_repeats: int) -> None:
    from irrepro.reproducibility.compare import compare_runs
    from irrepro.runs import read_qrels, read_run

    paths, topics, names = write_constellation(tmp)
    from irrepro.evaluation import evaluate
    from irrepro.reproducibility import ranking

    def ours():
        frames = [read_run(paths[n]) for n in names]
        qrels = read_qrels(paths["qrels"])
        return frames, qrels, compare_runs(**dict(zip(names, frames, strict=True)), qrels=qrels, rbo_variant="trunc", rbo_p=0.8, cutoff=1000)

    def reading():
        return [read_run(paths[n]) for n in names], read_qrels(paths["qrels"])

    def evaluation(frames, qrels):
        return evaluate(dict(zip(names, frames, strict=True)), qrels)

    def ranking_only(frames):  # the measures compare_runs reports
        for kind in ("baseline", "advanced"):
            ranking.ranking_measures(
                frames[names.index(f"orig_{kind}")], frames[names.index(f"new_{kind}")], depth=1000, rbo_p=0.8,
                rbo_variant="trunc", measures=("KTU", "RBO"),
            )

    # Same process, warm-up call first (first-call imports and set-up on neither side), then the
    # best of ``repeats`` calls for each side.
    frames, qrels, ours_result = ours()
    ours_seconds = _best(ours, repeats)
    read_seconds = _best(reading, repeats)
    evaluation_seconds = _best(lambda: evaluation(frames, qrels), repeats)
    ranking_seconds = _best(lambda: ranking_only(frames), repeats)
    print(f"[1] irrepro end to end (read_run x4 + read_qrels + compare_runs): {ours_seconds:.3f} s (best of {repeats}, after a warm-up); "
          f"reading files {read_seconds:.3f} s, evaluation (evaluate, 4 runs) {evaluation_seconds:.3f} s, "
          f"ranking measures (2 pairs) {ranking_seconds:.3f} s, rest {ours_seconds - read_seconds - evaluation_seconds - ranking_seconds:.3f} s")
    if skip_repro_eval:
        return
    from repro_eval.Evaluator import RpdEvaluator

    timings = {}

    def reference():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evaluator = RpdEvaluator(
                qrels_orig_path=str(paths["qrels"]),
                run_b_orig_path=str(paths["orig_baseline"]),
                run_a_orig_path=str(paths["orig_advanced"]),
                run_b_rep_path=str(paths["new_baseline"]),
                run_a_rep_path=str(paths["new_advanced"]),
            )
            evaluator.trim()
            evaluator.evaluate()
            evaluated = time.perf_counter()
            out = (
                evaluator.ktu(per_topic=True), evaluator.rbo(p=0.8, depth=1000, per_topic=True),
                evaluator.er(), evaluator.dri(), evaluator.rmse(), evaluator.ttest(),
            )
        timings.setdefault("measures", []).append(time.perf_counter() - evaluated)
        return out

    ktu, rbo, er, dri, rmse, p = reference()  # warm-up
    timings.clear()
    ref_seconds = _best(reference, repeats)
    measures_only = min(timings["measures"])
    result = ours_result.to_json()
    worst = max(
        max(abs(result["ER"][m] - er[m]), abs(result["DeltaRI"][m] - dri[m]),
            abs(result["RMSE"]["baseline"][m] - rmse["baseline"][m]), abs(result["p_value"]["advanced"][m] - p["advanced"][m]))
        for m in ("AP", "P@10", "nDCG")
    )
    worst_rank = max(
        max(abs(result["KTU"][k]["per_topic"][t] - ktu[k][t]) for t in topics) for k in ("baseline", "advanced")
    )
    worst_rank = max(worst_rank, max(abs(result["RBO"][k]["per_topic"][t] - rbo[k][t]) for t in topics for k in ("baseline", "advanced")))
    print(f"[1] repro_eval RpdEvaluator end to end:                              {ref_seconds:.3f} s (best of {repeats}, after a warm-up; "
          f"of which KTU/RBO/RMSE/ER/DeltaRI/t-test after its evaluation: {measures_only:.3f} s)")
    ours_measures = ours_seconds - read_seconds - evaluation_seconds
    print(f"[1] speed-up end to end: {ref_seconds / ours_seconds:.1f}x ({ref_seconds:.3f} s / {ours_seconds:.3f} s); "
          f"measures alone (after evaluation): {measures_only / max(ours_measures, 1e-9):.0f}x "
          f"({measures_only:.3f} s vs ~{ours_measures:.3f} s); largest difference: scores {worst:.1e}, KTU/RBO {worst_rank:.1e}")
    floor(paths, names, frames, qrels, ref_seconds, ranking_seconds, repeats)
    processes(tmp / "processes", process_repeats)


def processes(tmp: Path, repeats: int) -> dict:
    """[1] as a user meets it: whole processes (:func:`perf.reproducibility.compare_constellation`),
    the two commands in turn (A B A B ...) after one warm-up each; the same measures (ARP, KTU, RBO at
    depth 1000 with p = 0.8, RMSE, ER, DeltaRI, paired t-test for AP, P@10, nDCG). Then ``irrepro
    --help`` alone, and what scipy's Student-t would cost each ``irrepro compare`` (the import of
    ``scipy.special``, which ``stdtr`` needs; ``scipy.stats`` for scale), and the speed-up left if it
    were paid. The results go to ``benchmarks/results/``."""
    from perf import processes as measured
    from perf.reproducibility import GOAL, compare_constellation

    load_at_start = os.getloadavg()[0]
    result = compare_constellation(tmp, repeats=repeats, warm_up=True)
    wall, cpu = result.comparisons
    help_runs = measured.in_turn({"help": [sys.executable, "-m", "irrepro", "--help"]}, repeats, env=measured.environment())
    help_median = measured.median_cost(help_runs["help"]).wall_s
    print(f"[1] whole processes ({repeats} each, in turn, after a warm-up): irrepro compare median {wall.ours:.2f} s "
          f"(CPU {cpu.ours:.2f} s, of which imports {result.import_seconds:.2f} s); repro_eval script median {wall.theirs:.2f} s "
          f"(CPU {cpu.theirs:.2f} s); speed-up median {wall.ratio:.1f}x, CPU {cpu.ratio:.1f}x "
          f"(goal >= {GOAL:g}x: {'met' if wall.ratio >= GOAL else 'not met'}); largest difference of the outputs "
          f"{result.largest_difference:.1e}")
    print(f"[1] irrepro --help: median {help_median:.3f} s")
    special, scipy_stats = measured.module_import_seconds("scipy.special"), measured.module_import_seconds("scipy.stats")
    with_special = wall.theirs / (wall.ours + special)
    print(f"[1] import after numpy and pandas (median of 5): scipy.special {special:.3f} s (stdtr, the Student-t tail), "
          f"scipy.stats {scipy_stats:.3f} s; irrepro compare computes the tail itself (reproducibility/student_t.py): "
          f"with stdtr the speed-up would be {with_special:.1f}x ({wall.theirs:.2f} s / {wall.ours + special:.2f} s)")
    results = {
        "benchmark": "irrepro compare vs repro_eval, one constellation (4 runs x 50 topics x 1000 documents), whole processes",
        "cores": os.cpu_count(), "load average at start": round(load_at_start, 2), "load average at end": round(os.getloadavg()[0], 2),
        "python": sys.version.split()[0], "process repeats": repeats,
        "irrepro compare wall s (median)": wall.ours, "irrepro compare CPU s (median)": cpu.ours,
        "irrepro compare import s": result.import_seconds,
        "repro_eval wall s (median)": wall.theirs, "repro_eval CPU s (median)": cpu.theirs,
        "speed-up, wall (median)": wall.ratio, "speed-up, CPU (median)": cpu.ratio, "goal": GOAL,
        "import scipy.special s": special, "import scipy.stats s": scipy_stats, "speed-up with scipy.special's stdtr": with_special,
        "irrepro --help wall s (median)": help_median,
    }  # fmt: skip
    folder = Path(__file__).resolve().parent / "results"
    folder.mkdir(exist_ok=True)
    (folder / "reproducibility_processes.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"[1] results written to {folder / 'reproducibility_processes.json'}")
    return results


def floor(paths, names, frames, qrels, ref_seconds: float, ranking_seconds: float, repeats: int) -> None:
    """The speed-up no pipeline built from these parts can beat: the unavoidable steps alone.

    (a) tokenising the five files, nothing else: pandas' C parser, and polars' (a compiled,
        multi-threaded parser; measured only if installed) plus turning its docno column into the
        Python strings trec_eval's Python binding needs;
    (b) trec_eval's evaluation of the four runs through pytrec_eval (the Foundation issue's rule:
        trec_eval's own code, not a re-derivation): the {topic: {docno: score}} dicts and
        ``RelevanceEvaluator.evaluate``;
    (c) this package's KTU and RBO for both pairs (coding the docnos as integers in string order,
        as KTU compares docnos, and the vectorised kernels), the time given as ``ranking_seconds``.
    Whatever else a pipeline does (validating the files, ranks, frames, ARP, t-tests) only adds to this.
    """
    import pytrec_eval

    from irrepro.evaluation import _qrels_dict
    from irrepro.reproducibility import ranking
    from irrepro.run_dicts import nested

    columns = ["query_id", "iteration", "doc_id", "file_rank", "score", "run"]

    def pandas_tokenise():
        for n in names:
            pd.read_csv(paths[n], sep=" ", header=None, names=columns, dtype={"score": "float64"}, engine="c", na_filter=False)
        pd.read_csv(paths["qrels"], sep=" ", header=None, engine="c", na_filter=False)

    evaluator = pytrec_eval.RelevanceEvaluator(_qrels_dict(qrels), {"map", "P.10", "ndcg"})

    def trec_eval_alone():
        for frame in frames:
            evaluator.evaluate(nested(frame["query_id"], frame["doc_id"], frame["score"], what="run"))

    def docno_coding():
        for kind in ("baseline", "advanced"):
            ranking.rank_lists({"o": frames[names.index(f"orig_{kind}")], "n": frames[names.index(f"new_{kind}")]}, depth=1000)

    tokenise = _best(pandas_tokenise, repeats)
    evaluation = _best(trec_eval_alone, repeats)
    coding = _best(docno_coding, repeats)
    print(f"[1] floor: tokenising the 5 files with pandas' C parser {tokenise:.3f} s; trec_eval's evaluation of the 4 runs "
          f"(pytrec_eval: dicts + evaluate) {evaluation:.3f} s; KTU + RBO for 2 pairs {ranking_seconds:.3f} s "
          f"(of which docno coding {coding:.3f} s)")
    rest = evaluation + ranking_seconds
    print(f"[1] 20x needs <= {ref_seconds / 20:.3f} s; trec_eval's evaluation alone takes {evaluation / (ref_seconds / 20):.0%} of that; "
          f"bound with pandas' parser: {ref_seconds:.3f} s / {tokenise + rest:.3f} s = {ref_seconds / (tokenise + rest):.1f}x at most "
          f"(without KTU/RBO: {ref_seconds / (tokenise + evaluation):.1f}x)")
    try:
        import polars as pl
    except ImportError:
        print("[1] (polars not installed: no bound for a compiled parser)")
        return
    schema = {c: (pl.Float64 if c == "score" else pl.String) for c in columns}

    def polars_tokenise():
        for n in names:
            table = pl.read_csv(paths[n], separator=" ", has_header=False, schema=schema, quote_char=None)
            table["doc_id"].to_numpy()  # trec_eval's binding takes Python strings
        pl.read_csv(paths["qrels"], separator=" ", has_header=False, quote_char=None)

    compiled = _best(polars_tokenise, repeats)
    print(f"[1] bound with polars {pl.__version__} as the parser: tokenising + docno strings {compiled:.3f} s; "
          f"{ref_seconds:.3f} s / {compiled + rest:.3f} s = {ref_seconds / (compiled + rest):.1f}x at most "
          f"(without KTU/RBO: {ref_seconds / (compiled + evaluation):.1f}x; with free docno coding: "
          f"{ref_seconds / (compiled + rest - coding):.1f}x)")


def _best(function, repeats: int) -> float:
    """Best wall-clock time of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def paper_scale(repeats: int) -> None:
    from irrepro.reproducibility import ranking, scores

    rng = np.random.default_rng(7)
    topics = [str(t) for t in range(301, 351)]
    originals = ["orig_baseline", "orig_advanced"]
    replicated = [f"rpl_b_{i}" for i in range(50)] + [f"rpl_a_{i}" for i in range(50)]
    noise = {name: rng.uniform(0.05, 0.6) for name in originals + replicated}
    print("[2] generating 102 runs x 50 topics x 10,000 documents ...", flush=True)
    raw, _, _ = latent_runs(rng, topics, originals + replicated, depth=10_000, pool=15_000, noise=noise)
    ranks = np.tile(np.arange(1, 10_001), len(topics))
    frames = {
        name: pd.DataFrame({"query_id": q, "doc_id": d, "score": s, "rank": ranks, "run": name})
        for name, (q, d, s) in raw.items()
    }
    del raw
    per_topic = {m: pd.DataFrame(rng.random((50, 102)), index=topics, columns=originals + replicated) for m in ("AP", "P@10", "nDCG")}
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        for kind, prefix in (("baseline", "rpl_b_"), ("advanced", "rpl_a_")):
            ranking.ranking_measures(
                frames[f"orig_{kind}"], {n: frames[n] for n in replicated if n.startswith(prefix)}, depth=1000, rbo_p=0.8
            )
        ranked = time.perf_counter()
        for matrix in per_topic.values():
            ob, oa = matrix["orig_baseline"], matrix["orig_advanced"]
            nb = matrix[[f"rpl_b_{i}" for i in range(50)]]
            na = matrix[[f"rpl_a_{i}" for i in range(50)]].set_axis(nb.columns, axis=1)
            scores.rmse(ob, nb), scores.rmse(oa, na)
            runs = {"orig_baseline": ob, "orig_advanced": oa, "new_baseline": nb, "new_advanced": na}
            scores.effect_ratio(**runs, paired=True)
            scores.delta_relative_improvement(**runs)
            scores.paired_ttest(ob, nb), scores.paired_ttest(oa, na)
        done = time.perf_counter()
        timings.append((ranked - start, done - ranked))
    best = min(timings, key=sum)
    print(f"[2] paper scale: KTU + RBO (+ tau-b tied, tau intersection) at depth 1000 for 100 pairs x 50 topics: {best[0]:.2f} s; "
          f"RMSE/ER/DeltaRI/p for 3 measures: {best[1]:.3f} s; total {sum(best):.2f} s (best of {repeats})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-repro-eval", action="store_true")
    parser.add_argument("--repeats", type=int, default=2, help="repeats of part [2] (best of)")
    parser.add_argument("--constellation-repeats", type=int, default=5, help="repeats of part [1] per side, after a warm-up (best of)")
    parser.add_argument("--skip-paper-scale", action="store_true")
    parser.add_argument("--process-repeats", type=int, default=5, help="whole-process runs of each command (median of)")
    parser.add_argument("--processes-only", action="store_true", help="only [1]'s whole-process comparison (and the import cost)")
    args = parser.parse_args()
    print(f"cores visible: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    if args.processes_only:
        with tempfile.TemporaryDirectory() as tmp:
            processes(Path(tmp), args.process_repeats)
        return
    with tempfile.TemporaryDirectory() as tmp:
        constellation(
            Path(tmp), skip_repro_eval=args.skip_repro_eval, repeats=args.constellation_repeats,
            process_repeats=args.process_repeats,
        )
    if not args.skip_paper_scale:
        paper_scale(args.repeats)


if __name__ == "__main__":
    main()
