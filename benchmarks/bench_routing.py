"""Scale benchmark of the routing runs (issue 5): a full WCrobust04 run on a synthetic NYT-sized corpus,
and, on a 10% sample, the straightforward in-memory approach against irrepro's streaming pipeline.

    python benchmarks/bench_routing.py full                 # 1,855,658 target documents (NYT size)
    python benchmarks/bench_routing.py compare --share 0.1  # both approaches on 10% of the documents

``full`` trains on a synthetic Robust04-sized corpus (528,155 documents, 50 topics judged like TREC
pools), fits tf-idf on it, scores every target document for the 50 topics and writes the top 10,000
per topic with :func:`irrepro.runs.write_run`; it prints wall time, CPU time and peak resident memory
(``ru_maxrss``). ``compare`` runs each approach in a fresh subprocess (so each peak memory is its own)
and prints the ratios. Progress bars go to stderr. The numbers are reported in the issue, not asserted
in tests. Corpora: ``benchmarks/make_synthetic_corpus.py`` (seeded; nothing is stored).

Measured on 2026-11-30 on the project's 2-core machine (shared with other jobs, load 2-7):

=====================================  ==========  =======  ==========  =====================
run                                    documents   wall s   CPU s       peak RSS MiB
=====================================  ==========  =======  ==========  =====================
full, irrepro streaming                1,855,658   1,118    911         1,596
10%, straightforward (in memory)         185,566     145    170         2,391
10%, irrepro streaming                   185,566     110    110         1,026
=====================================  ==========  =======  ==========  =====================

(full: 528,155 training documents, 299,269 features, 50 topics, 500,000 run lines; 10%: 52,816
training documents.) Ratios straightforward / streaming at 10%: time 1.32, peak memory 2.33. The
straightforward approach holds every text and the whole target matrix, so its memory grows with the
corpus; the streaming run's does not (1.6 GiB at full size, mostly the training rows and the models).
The synthetic topics are easy to separate (MAP ~ 0.99): the benchmark measures cost, not quality.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_synthetic_corpus import NYT_DOCUMENTS, ROBUST04_DOCUMENTS, SyntheticCorpus

SEED = 20190909


def _corpora(target_documents: int, training_documents: int):
    training = SyntheticCorpus(training_documents, seed=SEED, stream=1, prefix="TRN")
    target = SyntheticCorpus(target_documents, seed=SEED, stream=2, prefix="TGT")
    return training, target


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_streaming(target_documents: int, training_documents: int, out: Path, *, progress: bool) -> dict:
    """irrepro's pipeline: streamed tf-idf, one product per chunk for all topics, top-k by partial sort."""
    from irrepro.evaluation import evaluate
    from irrepro.routing.pipeline import Collection, run_system
    from irrepro.runs import write_run

    training, target = _corpora(target_documents, training_documents)
    train_qrels, target_qrels = training.qrels(), target.qrels()
    start, cpu = time.perf_counter(), time.process_time()
    result = run_system(
        "wcrobust04",
        {"robust04": Collection("synthetic-robust04", training, train_qrels)},
        Collection("synthetic-nyt", target, target_qrels),
        progress=progress,
    )
    write_run(result.run, out)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    ap = evaluate({"r": result.run}, target_qrels, measures=("AP",))["AP"]["r"].mean()
    return {
        "approach": "irrepro streaming", "target_documents": target_documents,
        "training_documents": training_documents, "topics": len(result.topics),
        "features": result.n_features, "run_lines": len(result.run), "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1), "peak_mib": round(_peak_mib(), 1), "MAP": round(float(ap), 4),
    }


def run_straightforward(target_documents: int, training_documents: int, out: Path, *, progress: bool) -> dict:
    """All texts in memory, one TfidfVectorizer, predict_proba per topic, full sort per topic."""
    import numpy as np
    import pandas as pd
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    from irrepro.routing.preprocess import analyze
    from irrepro.runs import write_run

    training, target = _corpora(target_documents, training_documents)
    train_qrels = training.qrels()
    start, cpu = time.perf_counter(), time.process_time()
    train_ids, train_texts = zip(*((d.doc_id, d.text) for d in training), strict=True)
    target_ids, target_texts = zip(*((d.doc_id, d.text) for d in target), strict=True)
    vectorizer = TfidfVectorizer(analyzer=analyze, sublinear_tf=True)
    train_matrix = vectorizer.fit_transform(train_texts)
    target_matrix = vectorizer.transform(target_texts)
    row_of = {doc_id: row for row, doc_id in enumerate(train_ids)}
    frames = []
    for topic, judged in train_qrels.groupby("query_id"):
        rows = [row_of[d] for d in judged["doc_id"]]
        model = LogisticRegression(C=1.5, tol=1e-4, solver="lbfgs").fit(train_matrix[rows], judged["relevance"] >= 1)
        scores = model.predict_proba(target_matrix)[:, 1]
        best = np.argsort(-scores, kind="stable")[:10_000]
        frames.append(pd.DataFrame({"query_id": topic, "doc_id": np.asarray(target_ids)[best], "score": scores[best], "run": "naive"}))
    write_run(pd.concat(frames, ignore_index=True), out)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return {
        "approach": "straightforward in-memory", "target_documents": target_documents,
        "training_documents": training_documents, "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1), "peak_mib": round(_peak_mib(), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["full", "compare", "one"])
    parser.add_argument("--share", type=float, default=1.0, help="share of the NYT / Robust04 sizes")
    parser.add_argument("--approach", choices=["streaming", "straightforward"], default="streaming")
    parser.add_argument("--out", default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    target_n = int(round(NYT_DOCUMENTS * args.share))
    training_n = int(round(ROBUST04_DOCUMENTS * args.share))
    if args.mode in ("full", "one"):
        out = Path(args.out or tempfile.mkstemp(suffix=".run")[1])
        runner = run_streaming if args.approach == "streaming" or args.mode == "full" else run_straightforward
        print(json.dumps(runner(target_n, training_n, out, progress=not args.quiet)), flush=True)
        return
    results = {}
    for approach in ("straightforward", "streaming"):
        completed = subprocess.run(
            [sys.executable, __file__, "one", "--approach", approach, "--share", str(args.share), "--quiet"],
            capture_output=True, text=True, check=True,
        )
        results[approach] = json.loads(completed.stdout.strip().splitlines()[-1])
        print(json.dumps(results[approach]), flush=True)
    naive, ours = results["straightforward"], results["streaming"]
    print(json.dumps({
        "time_ratio_straightforward_over_streaming": round(naive["seconds"] / ours["seconds"], 2),
        "peak_memory_ratio_straightforward_over_streaming": round(naive["peak_mib"] / ours["peak_mib"], 2),
    }))


if __name__ == "__main__":
    main()
