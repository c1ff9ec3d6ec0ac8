"""``irrepro deteriorate`` beside one ``irrepro evaluate`` of the same run file, as whole processes (issue 34, item 4).

The goal: making a deteriorated run costs no more than evaluating the run once. The yardstick is
irrepro's own ``evaluate`` (trec_eval's code through pytrec_eval, AP, P@10 and nDCG), the work a
user does with every run anyway; no peer tool deteriorates runs. The commands:

- ``irrepro deteriorate --qrels Q RUN --mode worse --swaps 3 --replacements 2 --topics-share 0.5
  --source 1-10 --destination 51-100 --seed 0 --out OUT`` (:data:`SETTINGS`);
- ``irrepro evaluate --qrels Q RUN --format json``.

Before any cost is kept, the deteriorated file is checked against what the command said it did:
it differs from the run on exactly ``2 * swaps + replacements`` lines (both ends of a swap and
each replaced line), and only in the docno field. A command that wrote something else would make
its time meaningless.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from perf import processes, synthetic
from perf.comparison import Comparison, from_processes

#: The deterioration timed: a setting of the book's chapter, relevant documents of the top 10 moved to 51-100.
SETTINGS = {"mode": "worse", "swaps": 3, "replacements": 2, "topics-share": 0.5, "source": "1-10",
            "destination": "51-100", "seed": 0}  # fmt: skip
_DONE = re.compile(r"(\d+) swaps and (\d+) replacements in all")


def commands(qrels: Path, run: Path, out: Path) -> dict[str, list[str]]:
    """The two commands on the same files: {"deteriorate": [...], "evaluate": [...]}."""
    options = [part for key, value in SETTINGS.items() for part in (f"--{key}", str(value))]
    return {
        "deteriorate": [sys.executable, "-m", "irrepro", "deteriorate", "--qrels", str(qrels), str(run), *options,
                        "--out", str(out)],  # fmt: skip
        "evaluate": [sys.executable, "-m", "irrepro", "evaluate", "--qrels", str(qrels), str(run), "--format", "json"],
    }


def edits_said(stdout: str) -> tuple[int, int]:
    """(swaps, replacements) in all, as ``irrepro deteriorate`` printed them."""
    found = _DONE.search(stdout)
    if found is None:
        raise RuntimeError(f"irrepro deteriorate printed no count of swaps and replacements: {stdout!r}")
    return int(found.group(1)), int(found.group(2))


def lines_changed(before: Path, after: Path) -> int:
    """How many lines differ between two run files of the same lines; raises if a line differs in more than its docno."""
    old_lines, new_lines = before.read_bytes().splitlines(), after.read_bytes().splitlines()
    if len(old_lines) != len(new_lines):
        raise RuntimeError(f"{after} has {len(new_lines)} lines, {before} {len(old_lines)}")
    changed = 0
    for old, new in zip(old_lines, new_lines, strict=True):
        if old != new:
            old_fields, new_fields = old.split(), new.split()
            if old_fields[:2] + old_fields[3:] != new_fields[:2] + new_fields[3:]:
                raise RuntimeError(f"{after}: a line differs in more than its docno: {new!r} (was {old!r})")
            changed += 1
    return changed


@dataclass(frozen=True)
class DeteriorationComparison:
    """The costs of both commands on one run file, and what the deterioration did."""

    comparisons: list[Comparison]
    lines: int
    topics: int
    repeats: int
    swaps: int
    replacements: int
    lines_changed: int


def compare_deterioration(n_lines: int, folder: Path, *, repeats: int = 3, seed: int = 27) -> DeteriorationComparison:
    """Both commands ``repeats`` times in turn on a run of ``n_lines`` lines written into ``folder``.

    Peak memory, wall-clock and CPU time, each the median of the ``repeats`` runs; in the
    comparisons "peer" is the evaluation, so a ratio above 1 says the deterioration cost less.
    Raises :class:`RuntimeError` when the written run is not the edit the command reported.
    """
    qrels, run = synthetic.write_run_of_lines(n_lines, folder, seed=seed)
    out = Path(folder) / "deteriorated.run"
    runs = processes.in_turn(commands(qrels, run, out), repeats, env=processes.environment())
    swaps, replacements = edits_said(runs["deteriorate"][-1].stdout)
    changed = lines_changed(run, out)
    if changed != 2 * swaps + replacements:
        raise RuntimeError(f"{out} differs from {run} on {changed} lines; {swaps} swaps and {replacements} "
                           f"replacements change {2 * swaps + replacements}")  # fmt: skip
    topics = -(-n_lines // synthetic.DOCS_PER_TOPIC)
    return DeteriorationComparison(
        comparisons=from_processes(processes.median_cost(runs["deteriorate"]), processes.median_cost(runs["evaluate"]),
                                   task="irrepro deteriorate", peer="one irrepro evaluate", repeats=repeats,
                                   input_size=f"a run of {n_lines:,} lines ({topics:,} topics)",
                                   meanings={"s": "deteriorating is faster", "MiB": "deteriorating uses less memory"}),  # fmt: skip
        lines=n_lines, topics=topics, repeats=repeats, swaps=swaps, replacements=replacements, lines_changed=changed,
    )  # fmt: skip
