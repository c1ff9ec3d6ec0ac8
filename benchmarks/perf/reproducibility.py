"""``irrepro compare`` against repro_eval on one constellation, as whole processes (issue 23, item 10).

The same measures on the same files (:func:`perf.synthetic.write_constellation`: four runs of
50 topics x 1000 documents and their qrels): ARP, KTU, RBO at depth 1000 with p = 0.8, RMSE, ER,
DeltaRI and the paired t-test for AP, P@10 and nDCG; on the peer's side a script that runs
repro_eval's ``RpdEvaluator`` (load, trim, evaluate, then the measures) and prints them as JSON.
Imports, start-up and exit are included, as a user meets them. Both outputs are compared before any
cost is reported.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from perf import processes, synthetic
from perf.comparison import Comparison, from_processes

#: irrepro compare at least this many times faster than repro_eval (median wall-clock, whole processes)
GOAL = 5.0
MEASURES = ("AP", "P@10", "nDCG")
#: Scores may differ in the last bits; more than this is a different result.
AGREEMENT = 1e-9

REPRO_EVAL_SCRIPT = """\
import json, sys, warnings
from repro_eval.Evaluator import RpdEvaluator
qrels, orig_b, orig_a, new_b, new_a = sys.argv[1:6]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    evaluator = RpdEvaluator(qrels_orig_path=qrels, run_b_orig_path=orig_b, run_a_orig_path=orig_a,
                             run_b_rep_path=new_b, run_a_rep_path=new_a)
    evaluator.trim()
    evaluator.evaluate()
    measured = {"KTU": evaluator.ktu(per_topic=True), "RBO": evaluator.rbo(p=0.8, depth=1000, per_topic=True),
                "ER": evaluator.er(), "DeltaRI": evaluator.dri(), "RMSE": evaluator.rmse(), "p_value": evaluator.ttest()}
print(json.dumps(measured, default=float))
"""


def commands(paths: Mapping[str, Path], folder: Path) -> dict[str, list[str]]:
    """{"irrepro": irrepro compare ..., "repro_eval": python SCRIPT ...} on the constellation's ``paths``."""
    script = Path(folder) / "repro_eval_script.py"
    script.write_text(REPRO_EVAL_SCRIPT)
    irrepro = [sys.executable, "-m", "irrepro", "compare", "--qrels", str(paths["qrels"]), "--rbo-variant", "trunc",
               "--rbo-p", "0.8", "--cutoff", "1000", "--format", "json"]  # fmt: skip
    for role in synthetic.CONSTELLATION_ROLES:
        irrepro += [f"--{role.replace('_', '-')}", str(paths[role])]
    reference = [sys.executable, str(script), *(str(paths[n]) for n in ("qrels", *synthetic.CONSTELLATION_ROLES))]
    return {"irrepro": irrepro, "repro_eval": reference}


def largest_difference(ours: dict, theirs: dict) -> float:
    """The largest absolute difference between irrepro compare's JSON and the peer script's, over every
    measure both give: ER and DeltaRI per measure, RMSE and p-value per run kind and measure, KTU and
    RBO per run kind and topic."""
    pairs = [(ours[s][m], theirs[s][m]) for s in ("ER", "DeltaRI") for m in MEASURES]
    pairs += [(ours[s][k][m], theirs[s][k][m]) for s in ("RMSE", "p_value") for k in ("baseline", "advanced") for m in MEASURES]
    for statistic in ("KTU", "RBO"):
        for kind in ("baseline", "advanced"):
            per_topic = ours[statistic][kind]["per_topic"]
            pairs += [(per_topic[topic], value) for topic, value in theirs[statistic][kind].items()]
    return max(abs(a - b) for a, b in pairs)


@dataclass(frozen=True)
class CompareComparison:
    """The costs of ``irrepro compare`` and the repro_eval script, and what irrepro spends importing."""

    comparisons: list[Comparison]
    repeats: int
    import_seconds: float
    largest_difference: float
    goal: float = GOAL

    @property
    def speed_up(self) -> float:
        """repro_eval's median wall-clock time over irrepro compare's (the goal's quantity)."""
        return next(c.ratio for c in self.comparisons if "wall-clock" in c.measure)


def compare_constellation(folder: Path, *, repeats: int = 3, warm_up: bool = False, topics: int = 50,
                          depth: int = 1000) -> CompareComparison:  # fmt: skip
    """Both commands ``repeats`` times in turn on one constellation (``topics`` x ``depth`` documents
    per run) written into ``folder`` (after one uncounted run of each with ``warm_up``: file cache,
    bytecode); then one more ``irrepro compare`` under ``-X importtime`` for its import time.
    Wall-clock and CPU time are medians. Raises :class:`RuntimeError` when the two outputs differ by
    more than :data:`AGREEMENT`."""
    paths, topic_ids, _ = synthetic.write_constellation(folder, topics=topics, depth=depth)
    env = processes.environment()
    both = commands(paths, folder)
    if warm_up:
        processes.in_turn(both, 1, env=env)
    runs = processes.in_turn(both, repeats, env=env)
    difference = largest_difference(json.loads(runs["irrepro"][0].stdout), json.loads(runs["repro_eval"][0].stdout))
    if difference > AGREEMENT:
        raise RuntimeError(f"irrepro compare and repro_eval differ by {difference:.3g}: the costs would compare different work")
    size = f"4 runs x {len(topic_ids)} topics x {depth:,} documents"
    return CompareComparison(
        comparisons=from_processes(processes.median_cost(runs["irrepro"]), processes.median_cost(runs["repro_eval"]),
                                   task="irrepro compare", peer=f"repro_eval {metadata.version('repro_eval')}",
                                   repeats=repeats, input_size=size, quantities=("wall_s", "cpu_s")),
        repeats=repeats, import_seconds=processes.command_import_seconds(both["irrepro"], env=env),
        largest_difference=difference,
    )  # fmt: skip
