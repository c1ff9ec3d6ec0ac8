"""``irrepro evaluate`` against ir_measures on the same run file, as whole processes (issue 27, item 3).

The commands (the same three measures; ir_measures computes them with trec_eval's code through
pytrec_eval, as irrepro does):

- ``irrepro evaluate --qrels Q RUN --format json`` (its default measures AP, P@10, nDCG);
- ``python -m ir_measures Q RUN 'AP P@10 nDCG' --places -1``.

Their means are compared before any cost is reported: a tool that ran but computed something else
would make its timing meaningless.
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

MEASURES = ("AP", "P@10", "nDCG")
#: Means may differ in the last bits (sums in another order); more than this is a different result.
AGREEMENT = 1e-12


def commands(qrels: Path, run: Path) -> dict[str, list[str]]:
    """The two commands on the same files: {"irrepro": [...], "ir_measures": [...]}."""
    return {
        "irrepro": [sys.executable, "-m", "irrepro", "evaluate", "--qrels", str(qrels), str(run), "--format", "json"],
        "ir_measures": [sys.executable, "-m", "ir_measures", str(qrels), str(run), " ".join(MEASURES), "--places", "-1"],
    }


def irrepro_means(stdout: str) -> dict[str, float]:
    """The means ``irrepro evaluate --format json`` printed for its one run."""
    (run,) = json.loads(stdout)["runs"].values()
    return {name: float(run["mean"][name]) for name in MEASURES}


def ir_measures_means(stdout: str) -> dict[str, float]:
    """The means ``python -m ir_measures`` printed (``MEASURE<TAB>VALUE`` lines)."""
    by_name = dict(line.split("\t") for line in stdout.strip().splitlines())
    return {name: float(by_name[name]) for name in MEASURES}


def largest_difference(ours: Mapping[str, float], theirs: Mapping[str, float]) -> float:
    """The largest absolute difference between two tools' means of the same measures."""
    return max(abs(ours[name] - theirs[name]) for name in MEASURES)


@dataclass(frozen=True)
class EvaluationComparison:
    """The costs of both commands on one run file, and how far their means are apart."""

    comparisons: list[Comparison]
    lines: int
    topics: int
    repeats: int
    largest_difference: float


def compare_evaluation(n_lines: int, folder: Path, *, repeats: int = 3, seed: int = 27) -> EvaluationComparison:
    """Both commands ``repeats`` times in turn on a run of ``n_lines`` lines written into ``folder``.

    Peak memory, wall-clock and CPU time, each the median of the ``repeats`` runs. Raises
    :class:`RuntimeError` when the two tools' means differ by more than :data:`AGREEMENT`.
    """
    qrels, run = synthetic.write_run_of_lines(n_lines, folder, seed=seed)
    runs = processes.in_turn(commands(qrels, run), repeats, env=processes.environment())
    difference = largest_difference(irrepro_means(runs["irrepro"][0].stdout), ir_measures_means(runs["ir_measures"][0].stdout))
    if difference > AGREEMENT:
        raise RuntimeError(f"irrepro evaluate and ir_measures differ by {difference:.3g} on {run}: the costs would compare different work")
    topics = -(-n_lines // synthetic.DOCS_PER_TOPIC)
    size = f"a run of {n_lines:,} lines ({topics:,} topics)"
    return EvaluationComparison(
        comparisons=from_processes(processes.median_cost(runs["irrepro"]), processes.median_cost(runs["ir_measures"]),
                          task="irrepro evaluate", peer=f"ir_measures {metadata.version('ir_measures')}",
                          repeats=repeats, input_size=size),  # fmt: skip
        lines=n_lines, topics=topics, repeats=repeats, largest_difference=difference,
    )  # fmt: skip



def libraries_peak_mib() -> float:
    """Peak memory of a process that only imports numpy and pandas: the part of a peak no evaluation adds."""
    command = [sys.executable, "-c", "import numpy, pandas"]
    return processes.run_measured(command, env=processes.environment()).cost.peak_mib
