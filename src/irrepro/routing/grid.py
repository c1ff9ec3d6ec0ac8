"""The constellation grid of the SIGIR 2020 dataset as one resumable command: ``irrepro routing grid``.

Breuer et al. (SIGIR 2020) derived their dataset from WCrobust04 and WCrobust0405 run with many
parameter constellations on two targets. :func:`plan` lists such a grid (systems x targets x
constellations, one implementation) with the file each run goes to; :func:`run_grid` makes it on a
Dask cluster (:func:`irrepro.routing.experiment.local_cluster`: local worker processes, or a
running scheduler) or in this process:

- **the same runs as** ``irrepro routing run``: the same pipeline, tags and writer, so every run
  file is byte-identical to the one the single-run command writes with the same parameters;
- **shared features**: each distinct tf-idf model and feature matrix is built once per (system,
  target, feature parameters) by a task whose result Dask keeps and hands to the run tasks that
  need it (:func:`irrepro.routing.experiment.iter_runs`): the ``C`` and ``tol`` constellations and
  the default change only the classifier, so they share one feature set;
- **resumable**: each finished run is written atomically (:mod:`irrepro.outputs`) and entered with
  its parameters, sha256 and size in ``grid.json``, itself rewritten atomically after every run; a
  second call skips every run whose file still has its recorded sha256 and parameters;
- **one grid at a time per folder**: a call holds the folder's lock (``.grid.json.lock``, an
  ``flock`` released when its holder dies) from reading the manifest to its last run, so a second
  grid into the same folder waits, then skips what the first made: no run is made twice and no
  manifest entry is lost;
- **fault tolerant**: a worker that dies loses only its tasks; Dask runs them again on another
  worker (and recomputes a feature set that died with it), and the results are the same;
- **progress**: runs done / total with a time estimate (tqdm, on stderr), and the dashboard link
  when Dask can serve one (it needs bokeh, which irrepro does not install);
- **runs that describe themselves**: each file begins with its ir_metadata header
  (:func:`irrepro.routing.headers.run_header`), built in this process from what the worker reports
  (its platform, the collections' judgments). The header holds no time, so a run made again is the
  same file; the fields a user lays over the headers are part of the recorded request (as their
  sha256), so a grid resumed with others makes its runs again.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from irrepro.metadata import header_lines
from irrepro.outputs import atomic_write_text, sha256_of
from irrepro.routing import implementations
from irrepro.routing.constellations import DEFAULT, PRINTED, TRAINING_COLLECTIONS, Constellation
from irrepro.routing.experiment import MadeRun, RunRequest, iter_runs
from irrepro.routing.headers import run_header
from irrepro.routing.pipeline import default_run_tag
from irrepro.runs import write_run

__all__ = ["GRID_MANIFEST", "GRID_FORMAT", "ALL_CONSTELLATIONS", "PlannedRun", "GridReport", "plan", "run_grid",
           "read_grid_manifest", "grid_lock"]

#: the grid's manifest in the output folder: every finished run with its sha256 and parameters
GRID_MANIFEST = "grid.json"
GRID_FORMAT = "irrepro run grid 1"
#: ``--constellations all``: the default and the 20 constellations the SIGIR 2020 paper prints
ALL_CONSTELLATIONS: tuple[Constellation, ...] = (DEFAULT, *PRINTED)


@dataclass(frozen=True)
class PlannedRun:
    """One run of the grid: its request, its system and its file (relative to the output folder).

    Parameters
    ----------
    system : str
        The system.
    request : RunRequest
        The run.
    name : str
        Its file, relative to the output folder.
    """

    system: str
    request: RunRequest
    name: str

    def description(self, corpora: str, header: str = "ir_metadata") -> dict:
        """Describe the run's request as the manifest records it (a finished run is skipped only if it is equal).

        Parameters
        ----------
        corpora : str
            Names the corpora.
        header : str, default "ir_metadata"
            ``"none"``, ``"ir_metadata"`` or ``"ir_metadata+<sha256 of the fields given>"``.

        Returns
        -------
        dict
            The manifest entry's fields.
        """
        r = self.request
        return {"system": self.system, "target": r.target, "constellation": r.constellation.name,
                "preprocess": r.preprocess, "implementation": r.implementation_name, "tol_scale": r.tol_scale,
                "tag": r.tag, "corpora": corpora, "header": header}  # fmt: skip


def plan(systems: Sequence[str], targets: Sequence[str], constellations: Sequence[Constellation] = ALL_CONSTELLATIONS,
         *, preprocess: bool = True, implementation: str = "paper") -> list[PlannedRun]:
    """Plan the grid's runs, target by target, system by system.

    Each run is tagged as ``irrepro routing run`` tags it
    (:func:`~irrepro.routing.pipeline.default_run_tag`) and filed as ``<target>/<tag>.run``.

    Parameters
    ----------
    systems : sequence of str
        The systems.
    targets : sequence of str
        The target corpora.
    constellations : sequence of Constellation, default ALL_CONSTELLATIONS
        The constellations.
    preprocess : bool, default True
        Stop words removed and Porter stems.
    implementation : str, default "paper"
        The implementation.

    Returns
    -------
    list of PlannedRun
        The runs.
    """
    implementation = implementations.get(implementation).name
    runs = []
    for target in targets:
        for system in systems:
            for constellation in constellations:
                tag = default_run_tag(system, implementation=implementation, constellation=constellation,
                                      preprocess=preprocess)  # fmt: skip
                request = RunRequest(TRAINING_COLLECTIONS[system], target, constellation, preprocess=preprocess,
                                     implementation=implementation, run_tag=tag)  # fmt: skip
                runs.append(PlannedRun(system, request, f"{target}/{tag}.run"))
    return runs


# --------------------------------------------------------------------------- the manifest


def read_grid_manifest(out_dir: str | Path) -> dict[str, dict]:
    """Read the finished runs recorded in ``out_dir/grid.json``.

    Parameters
    ----------
    out_dir : str or pathlib.Path
        The output folder.

    Returns
    -------
    dict of str -> dict
        File name -> entry; empty without a manifest.

    Raises
    ------
    ValueError
        For a manifest that is unreadable or not a grid manifest.
    """
    path = Path(out_dir) / GRID_MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: unreadable grid manifest ({error}); remove it to start the grid afresh") from None
    if not isinstance(manifest, dict) or manifest.get("format") != GRID_FORMAT:
        raise ValueError(f"{path}: not an irrepro grid manifest (format {GRID_FORMAT!r} expected)")
    return {entry["name"]: entry for entry in manifest.get("runs", [])}


def _write_manifest(out_dir: Path, entries: dict[str, dict]) -> None:
    from irrepro.version import __version__

    manifest = {"format": GRID_FORMAT, "producer": "irrepro routing grid", "irrepro_version": __version__,
                "runs": [entries[name] for name in sorted(entries)]}  # fmt: skip
    atomic_write_text(out_dir / GRID_MANIFEST, json.dumps(manifest, indent=2) + "\n")


@contextmanager
def grid_lock(out_dir: Path, *, on_wait: Callable[[Path], None] | None = None) -> Iterator[None]:
    """Hold ``out_dir``'s grid lock (``.grid.json.lock``), waiting for another process that holds it.

    An ``flock`` (as the data cache's): the kernel releases it when its holder dies, so a lock file
    left behind never blocks.

    Parameters
    ----------
    out_dir : pathlib.Path
        The output folder.
    on_wait : callable, optional
        Called once with the lock's path if another process holds it.

    Yields
    ------
    None
        The block runs holding the lock.
    """
    from filelock import FileLock, Timeout  # imported here: only a grid needs it (the CLI's start-up time)

    lock = FileLock(out_dir / f".{GRID_MANIFEST}.lock")
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if on_wait is not None:
            on_wait(Path(lock.lock_file))
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def _say_waiting(lock_path: Path) -> None:
    print(f"waiting for another grid writing into {lock_path.parent} (it holds {lock_path.name}); "
          "this one goes on when it ends and skips the runs it made", file=sys.stderr, flush=True)


def _header_kind(headers: bool, given: Mapping | None) -> str:
    """How the grid's runs are annotated, as the manifest records it (:meth:`PlannedRun.description`)."""
    if not headers:
        return "none"
    if not given:
        return "ir_metadata"
    text = "\n".join(header_lines(given))
    return f"ir_metadata+{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def _finished(out_dir: Path, run: PlannedRun, entry: dict | None, corpora: str, header: str) -> bool:
    """Whether ``run`` is done: recorded with the same request, its file there with the recorded sha256."""
    if entry is None or entry.get("request") != run.description(corpora, header):
        return False
    path = out_dir / run.name
    return path.is_file() and path.stat().st_size == entry.get("bytes") and sha256_of(path) == entry.get("sha256")


# --------------------------------------------------------------------------- running it


@dataclass
class GridReport:
    """What :func:`run_grid` did: runs made and skipped, feature sets built, and the times measured.

    Parameters
    ----------
    planned : int
        Runs planned.
    skipped : int, default 0
        Runs finished before, skipped.
    made : int, default 0
        Runs made.
    feature_sets : int, default 0
        Feature sets built.
    wall_seconds : float, default 0.0
        The grid's wall time.
    run_seconds : list of float, optional
        Wall seconds per run task (training and ranking).
    run_cpu_seconds : list of float, optional
        CPU seconds per run task.
    feature_seconds : dict of tuple -> float, optional
        Wall seconds per feature task.
    feature_cpu_seconds : dict of tuple -> float, optional
        CPU seconds per feature task.
    runs_per_feature_set : dict of tuple -> int, optional
        How many runs shared each feature set.
    """

    planned: int
    skipped: int = 0
    made: int = 0
    feature_sets: int = 0
    wall_seconds: float = 0.0
    run_seconds: list[float] = field(default_factory=list)  # wall, per run task (training and ranking)
    run_cpu_seconds: list[float] = field(default_factory=list)
    feature_seconds: dict[tuple, float] = field(default_factory=dict)  # wall, per feature task
    feature_cpu_seconds: dict[tuple, float] = field(default_factory=dict)
    runs_per_feature_set: dict[tuple, int] = field(default_factory=dict)

    @property
    def cpu_seconds_without_sharing(self) -> float:
        """CPU time of the tasks had every run built its own features (its task plus its feature task)."""
        features = sum(self.feature_cpu_seconds[k] * n for k, n in self.runs_per_feature_set.items())
        return sum(self.run_cpu_seconds) + features

    @property
    def cpu_seconds_with_sharing(self) -> float:
        """CPU time of the tasks as made: every run task plus each feature task once."""
        return sum(self.run_cpu_seconds) + sum(self.feature_cpu_seconds.values())

    @property
    def saved_share(self) -> float:
        """The share of the tasks' CPU time that sharing features saved (0 when nothing was made)."""
        unshared = self.cpu_seconds_without_sharing
        return 1.0 - self.cpu_seconds_with_sharing / unshared if unshared else 0.0

    def add(self, made: MadeRun) -> None:
        """Count a run made, with its times.

        Parameters
        ----------
        made : MadeRun
            The run.
        """
        self.made += 1
        self.run_seconds.append(made.seconds)
        self.run_cpu_seconds.append(made.cpu_seconds)
        self.feature_seconds[made.feature_key] = made.feature_seconds
        self.feature_cpu_seconds[made.feature_key] = made.feature_cpu_seconds
        self.runs_per_feature_set[made.feature_key] = self.runs_per_feature_set.get(made.feature_key, 0) + 1
        self.feature_sets = len(self.feature_seconds)


def run_grid(corpora, runs: Sequence[PlannedRun], out_dir: str | Path, *, client=None, corpora_label: str = "",
             progress: bool = True, on_run: Callable[[MadeRun], None] | None = None, headers: bool = True,
             given: Mapping | None = None) -> GridReport:
    """Make the runs of ``runs`` not finished in ``out_dir`` yet and write each as it finishes.

    Each run file begins with its ir_metadata header. The folder's lock (:func:`grid_lock`) is held
    throughout: a grid already writing there is waited for (said on stderr).

    Parameters
    ----------
    corpora : mapping of str -> Collection, StandInCorpora or ConfiguredCorpora
        As for :func:`~irrepro.routing.experiment.iter_runs`.
    runs : sequence of PlannedRun
        The runs.
    out_dir : str or pathlib.Path
        The output folder.
    client : dask.distributed.Client, optional
        A Dask client; else the runs are made here.
    corpora_label : str, default ""
        Names the corpora in the manifest (a run recorded for other corpora is made again).
    progress : bool, default True
        Show progress.
    on_run : callable, optional
        Called with each :class:`MadeRun` after it is written.
    headers : bool, default True
        Write the ir_metadata headers (``False``: none).
    given : Mapping, optional
        Fields laid over each header.

    Returns
    -------
    GridReport
        What was done.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    header = _header_kind(headers, given)
    with grid_lock(out, on_wait=_say_waiting):
        entries = read_grid_manifest(out)  # read under the lock: what an earlier holder made is skipped
        todo = [run for run in runs if not _finished(out, run, entries.get(run.name), corpora_label, header)]
        report = GridReport(planned=len(runs), skipped=len(runs) - len(todo))
        by_key = {run.request.key: run for run in todo}
        bar = tqdm(total=len(todo), desc="runs", unit="run", file=sys.stderr, disable=not progress or not todo)
        with bar:
            for made in iter_runs(corpora, [run.request for run in todo], client=client):
                run = by_key[made.request.key]
                entries[run.name] = _write_run(out, run, made, corpora_label, header, given)
                _write_manifest(out, entries)
                report.add(made)
                bar.update(1)
                if on_run is not None:
                    on_run(made)
    report.wall_seconds = time.perf_counter() - started
    return report


def _write_run(out: Path, run: PlannedRun, made: MadeRun, corpora_label: str, header: str,
               given: Mapping | None) -> dict:
    """Write one run atomically (as ``irrepro routing run`` writes it) and return its manifest entry."""
    path = out / run.name
    path.parent.mkdir(parents=True, exist_ok=True)
    tag = run.request.tag
    annotation = None if header == "none" else run_header(run.request.settings, made.result, given=given)
    write_run(made.result.run, path, name=tag, metadata=annotation)
    parameters = {name: value for name, value in made.result.parameters.items()}
    return {"name": run.name, "sha256": sha256_of(path), "bytes": path.stat().st_size,
            "request": run.description(corpora_label, header), "parameters": parameters,
            "topics": len(made.result.topics), "seconds": round(made.seconds, 3)}  # fmt: skip
