"""Where the memory of evaluating a big run goes: resident memory after each phase, two ways (issue 27).

Run: ``.venv/bin/python benchmarks/profile_evaluation_memory.py QRELS RUN`` (e.g. the files that
``benchmarks/bench_evaluation_memory.py`` writes).  Each way runs in a fresh process, so each
peak is its own:

- ``frame``: the run as one frame, as ``irrepro evaluate`` held it before issue 27 and as the
  library's :func:`~irrepro.evaluation.evaluate` still takes it: the file's bytes, pandas' parse
  (a str object per field), ``rank_by_score``'s sorted copy, then trec_eval's dicts;
- ``stream``: what ``irrepro evaluate`` does now: :class:`irrepro.runs.RunStream` read chunk by
  chunk and :meth:`irrepro.evaluation.Judgments.score` evaluating topic by topic.

Printed per phase: resident memory (VmRSS) and the peak so far (VmHWM) in MiB, and the phase's
CPU seconds.  Not a test: the numbers depend on the machine and the files.
"""

from __future__ import annotations

import subprocess
import sys
import time

MEASURES = ["AP", "P@10", "nDCG"]


def _memory() -> tuple[int, int]:
    with open("/proc/self/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


class _Phases:
    def __init__(self, way: str):
        self.way, self.cpu = way, time.process_time()

    def mark(self, phase: str) -> None:
        now, peak = _memory()
        cpu, self.cpu = time.process_time() - self.cpu, time.process_time()
        print(f"{self.way:<7} {phase:<48} {now:>7} MiB {peak:>7} MiB {cpu:>7.1f} s", flush=True)


def frame_way(qrels_path: str, run_path: str) -> None:
    phases = _Phases("frame")
    from irrepro import runs
    from irrepro.evaluation import Judgments, evaluate_prepared
    from irrepro.sources import Source

    phases.mark("imports")
    qrels = runs.read_qrels(qrels_path)
    judgments = Judgments(qrels)
    judgments.evaluator(frozenset(["map", "P.10", "ndcg"]))
    phases.mark("qrels read, dicts and trec_eval's copy")
    with open(run_path, "rb") as handle:
        data = handle.read()
    phases.mark("run: the file's bytes")
    unranked, _ = runs._read_run_lines(Source.from_bytes(data, run_path), chunk_bytes=0)
    phases.mark("run: parsed by pandas, one str per field")
    del data
    frame = runs.rank_by_score(unranked)
    phases.mark("run: ranked (a sorted copy), bytes dropped")
    del unranked
    evaluate_prepared({"run": frame}, qrels, MEASURES, missing_topics="zero", no_relevant="drop", judgments=judgments)
    phases.mark("evaluated (dicts of batches of topics)")


def stream_way(qrels_path: str, run_path: str) -> None:
    phases = _Phases("stream")
    from irrepro import runs
    from irrepro.evaluation import Judgments, evaluate_prepared

    phases.mark("imports")
    qrels = runs.read_qrels(qrels_path)
    judgments = Judgments(qrels)
    judgments.evaluator(frozenset(["map", "P.10", "ndcg"]))
    phases.mark("qrels read, dicts and trec_eval's copy")
    with runs.RunStream(run_path) as stream:
        scores = judgments.score(stream, MEASURES)
    phases.mark("run streamed and evaluated topic by topic")
    evaluate_prepared({"run": scores}, qrels, MEASURES, missing_topics="zero", no_relevant="drop", judgments=judgments)
    phases.mark("frames of the scores")


def main() -> None:
    if len(sys.argv) == 4:  # a child: one way
        {"frame": frame_way, "stream": stream_way}[sys.argv[1]](sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(f"{'way':<7} {'after':<48} {'RSS':>11} {'peak':>11} {'CPU':>9}")
    for way in ("frame", "stream"):
        subprocess.run([sys.executable, __file__, way, *sys.argv[1:]], check=True)


if __name__ == "__main__":
    main()
