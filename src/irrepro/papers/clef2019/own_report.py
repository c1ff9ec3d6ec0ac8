"""The routing chapter's own constellation runs as an ``irrepro report``: the book's example report.

The originals are the default WCrobust04 (baseline) and WCrobust0405 (advanced) runs on the
stand-in's near target; each printed constellation (``tf_1`` ... ``C_5``) gives one reproduced pair,
its WCrobust04 and WCrobust0405 runs on the same target and qrels (a replicability setting, as the
SIGIR 2020 paper's Table 1). The runs (with their ir_metadata headers) and the qrels are written as
TREC files, and the report is made by the ``irrepro report`` command itself, so the report's methods
paragraph carries a command line a reader can run again on the files beside it, and the kind of
study the headers make of each pair (a parameter sweep: PRIMAD ``priMad``).
"""

from __future__ import annotations

import csv
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pandas as pd

from irrepro.outputs import atomic_open
from irrepro.papers.clef2019.published_facts import NEAR
from irrepro.papers.clef2019.run_files import write_run_file
from irrepro.routing.constellations import DEFAULT, PRINTED, TRAINING_COLLECTIONS
from irrepro.routing.experiment import RunRequest

__all__ = ["MEASURES", "REPORT_FOLDER", "SYSTEM_ORDER", "TITLE", "ReportJob", "start_report", "write_inputs", "write_report"]

#: Where the chapter writes the report, relative to the chapters folder (kept out of git and of
#: the book's source digest, tools/book_stamp.py).
REPORT_FOLDER = Path("_generated") / "own_runs_report"
SYSTEM_ORDER = tuple(TRAINING_COLLECTIONS)  # baseline (wcrobust04), advanced (wcrobust0405)
TITLE = "The book's own constellation runs on the Reuters-21578 stand-in, replicated on the near target"
MEASURES = "AP,P@10,nDCG"  # the report's --measures


def _write_qrels(qrels: pd.DataFrame, path: Path) -> None:
    """``qrels`` (query_id, doc_id, relevance) as a TREC qrels file."""
    with atomic_open(path, "w") as out:
        for topic, doc, grade in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"], strict=True):
            out.write(f"{topic} 0 {doc} {int(grade)}\n")


def write_inputs(data, folder: Path) -> dict[str, Path]:
    """Write the inputs of a report on the chapter's own runs into ``folder``.

    The near target's qrels, the two default runs, every printed constellation's two runs (each
    with its ir_metadata header: :func:`~irrepro.papers.clef2019.run_files.write_run_file`) and
    ``pairs.csv`` (``name,baseline,advanced``).

    Parameters
    ----------
    data : RoutingData
        The chapter's :class:`irrepro.papers.clef2019.routing_data.RoutingData` (its runs are
        reused, none is made twice).
    folder : pathlib.Path
        The folder.

    Returns
    -------
    dict of str -> pathlib.Path
        The paths by role.
    """
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"qrels": folder / "near.qrels", "pairs": folder / "pairs.csv"}
    _write_qrels(data.collections[NEAR].qrels, paths["qrels"])
    for role, system in zip(("orig_baseline", "orig_advanced"), SYSTEM_ORDER, strict=True):
        paths[role] = folder / f"{system}_default.run"
        write_run_file(data, RunRequest(TRAINING_COLLECTIONS[system], NEAR, DEFAULT), paths[role], tag=f"{system}_default")
    with atomic_open(paths["pairs"], "w") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["name", "baseline", "advanced"])
        for constellation in PRINTED:
            files = []
            for system in SYSTEM_ORDER:
                path = folder / f"{system}_{constellation.name}.run"
                request = RunRequest(TRAINING_COLLECTIONS[system], NEAR, constellation)
                write_run_file(data, request, path, tag=f"{system}_{constellation.name}")
                files.append(path.name)  # relative to pairs.csv, as irrepro report reads it
            writer.writerow([constellation.name, *files])
    return paths


@dataclass
class ReportJob:
    """``irrepro report`` running in another process on inputs written here (:func:`start_report`).

    Parameters
    ----------
    path : pathlib.Path
        The report the command writes.
    process : subprocess.Popen
        The command's process.
    said : file object
        What the command writes on standard output and error (a temporary file).
    """

    path: Path
    process: subprocess.Popen
    said: IO[str]

    def wait(self) -> Path:
        """Wait for the command to finish.

        Returns
        -------
        pathlib.Path
            The report.

        Raises
        ------
        RuntimeError
            If ``irrepro report`` failed, with its exit status and what it said.
        """
        status = self.process.wait()
        self.said.seek(0)
        said = self.said.read().strip()
        self.said.close()
        if status != 0:
            raise RuntimeError(f"irrepro report exited with status {status} on the inputs in {self.path.parent}: {said}")
        return self.path


def start_report(data, folder: Path = REPORT_FOLDER) -> ReportJob:
    """Write the inputs (:func:`write_inputs`) and start ``irrepro report`` on them in another process.

    The command itself runs, as a reader runs it, while the caller goes on. Paths on the command line
    are relative to the current folder (the chapters folder when the book runs it), so the report's
    command line reads as a reader would type it.

    Parameters
    ----------
    data : RoutingData
        The chapter's routing data.
    folder : pathlib.Path, default REPORT_FOLDER
        The folder of the inputs and the report.

    Returns
    -------
    ReportJob
        The running command; its :meth:`ReportJob.wait` gives the report.
    """
    paths = write_inputs(data, folder)
    report = folder / "report.html"
    arguments = [
        "report", "--qrels", str(paths["qrels"]), "--orig-baseline", str(paths["orig_baseline"]),
        "--orig-advanced", str(paths["orig_advanced"]), "--pairs", str(paths["pairs"]),
        "--measures", MEASURES, "--title", TITLE, "--out", str(report),
    ]  # fmt: skip
    said = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (outlives this call; wait() closes it)
    process = subprocess.Popen([sys.executable, "-m", "irrepro", *arguments], stdout=said, stderr=subprocess.STDOUT)
    return ReportJob(report, process, said)


def write_report(data, folder: Path = REPORT_FOLDER) -> Path:
    """Write the inputs and the report: :func:`start_report`, then wait for it.

    Parameters
    ----------
    data : RoutingData
        The chapter's routing data.
    folder : pathlib.Path, default REPORT_FOLDER
        The folder of the inputs and the report.

    Returns
    -------
    pathlib.Path
        The HTML report.

    Raises
    ------
    RuntimeError
        If ``irrepro report`` fails, with what it said.
    """
    return start_report(data, folder).wait()
