"""Routing experiments: run requests, runs made with shared features (here or on Dask), a run cache.

Every table of the routing chapter, ``irrepro reproduce clef2019`` and ``irrepro routing grid`` make
their runs through this module:

- :class:`RunRequest` -- one run: training corpora, target, constellation and the other choices,
  and its run tag. :attr:`RunRequest.feature_key` says which runs share their features: runs that
  differ only in the classifier's ``C`` and ``tol`` (the ``C`` and ``tol`` constellations, the
  default) use the same tf-idf model, training rows and target rows.
- :class:`StandInCorpora` / :class:`ConfiguredCorpora` -- where a worker process finds the corpora
  (it builds the stand-in, or reads the user's configuration, itself; nothing large is sent). A
  mapping name -> :class:`~irrepro.routing.pipeline.Collection` works too (it is sent to the workers).
- :func:`iter_runs` -- makes the requested runs, each distinct feature set once
  (:func:`~irrepro.routing.pipeline.prepare_features`) and every run from it
  (:func:`~irrepro.routing.pipeline.rank_features`): in this process, one feature set at a time, or
  on a Dask cluster (``client``), where the feature tasks' results stay in the workers' memory and
  are handed to the run tasks that need them. Identical runs either way (no randomness; tested).
- :func:`local_cluster` -- a Dask client on a local cluster of worker processes (or on a running
  scheduler, probed first: :mod:`irrepro.routing.scheduler`), with distributed's log lines silenced
  below errors. Workers that keep dying over their memory limit end the runs with a
  :class:`WorkersLostError` that says so, rather than a hang or Dask's ``KilledWorker``.
- :class:`RunCache` -- the collections, the runs made so far and their scores. A cache only: what
  a table or a written folder contains is decided by the requests it names, never by what the
  cache happens to hold.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd

from irrepro.evaluation import Judgments, evaluate_prepared
from irrepro.provenance import platform_metadata
from irrepro.routing import implementations
from irrepro.routing.classifier import TopicModels
from irrepro.routing.constellations import DEFAULT, TRAINING_COLLECTIONS, Constellation
from irrepro.routing.implementations import Implementation
from irrepro.routing.pipeline import (
    PACKAGES,
    Collection,
    Features,
    RoutingResult,
    RunSettings,
    prepare_features,
    rank_features,
    retarget_features,
    train_models,
)
from irrepro.routing.trainer import Trainer

__all__ = [
    "RunRequest",
    "StandInCorpora",
    "ConfiguredCorpora",
    "MadeRun",
    "HOLD_TARGET_DOCUMENTS",
    "resolve_corpora",
    "iter_runs",
    "unique_requests",
    "local_cluster",
    "default_workers",
    "dashboard_available",
    "worker_count",
    "WorkersLostError",
    "RunCache",
    "MEASURES",
]

#: measures of :meth:`RunCache.scores`
MEASURES: tuple[str, ...] = ("AP", "P@10", "nDCG")
#: targets up to this many documents are held as tf-idf rows by the feature task and shared by its
#: runs; a larger target (the NYT: 1.86 M documents, several GB of rows) is streamed again by every
#: run, whose peak memory then stays that of one run of the routing benchmark
HOLD_TARGET_DOCUMENTS = 250_000


@dataclass(frozen=True)
class RunRequest:
    """One routing run: training corpora (in priority order), target, parameters, run tag.

    Parameters
    ----------
    training : tuple of str
        The training corpora, in priority order.
    target : str
        The corpus ranked.
    constellation : Constellation, default DEFAULT
        The run's parameters.
    augment : bool, default False
        Fit tf-idf on training and target (feature augmentation).
    preprocess : bool, default True
        Stop words removed and Porter stems, or plain lowercase tokens.
    tol_scale : {"mean", "sum"}, optional
        ``None`` takes the implementation's (``paper``: ``"mean"``).
    implementation : str or Implementation, default "paper"
        The implementation.
    run_tag : str, optional
        ``None`` names the run ``from_<training>_to_<target>_<constellation>[...]`` (:attr:`tag`).
    """

    training: tuple[str, ...]
    target: str
    constellation: Constellation = DEFAULT
    augment: bool = False
    preprocess: bool = True
    tol_scale: str | None = None
    implementation: str | Implementation = "paper"
    run_tag: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "training", tuple(self.training))
        if self.tol_scale is None:
            object.__setattr__(self, "tol_scale", implementations.get(self.implementation).tol_scale or "mean")

    @property
    def implementation_name(self) -> str:
        """The implementation's name."""
        return implementations.get(self.implementation).name

    @property
    def tag(self) -> str:
        """The run tag: ``run_tag``, else ``from_<training>_to_<target>_<constellation>`` with the options that differ from the defaults."""
        if self.run_tag is not None:
            return self.run_tag
        parts = ["from", "+".join(self.training), "to", self.target, self.constellation.name]
        parts += ["augmented"] if self.augment else []
        parts += [] if self.preprocess else ["unprocessed"]
        parts += ["tolsum"] if self.tol_scale == "sum" and self.implementation_name == "paper" else []
        parts += [] if self.implementation_name == "paper" else [self.implementation_name]
        return "_".join(parts)

    @property
    def key(self) -> tuple:
        """What identifies the run (two requests with equal keys make the same run file)."""
        return (self.training, self.target, self.constellation.name, self.augment, self.preprocess,
                self.tol_scale, self.implementation_name, self.tag)  # fmt: skip

    @property
    def settings(self) -> RunSettings:
        """The run's settings, resolved against its implementation (:class:`RunSettings`)."""
        return RunSettings.resolve(
            self.implementation, constellation=self.constellation, augment=self.augment,
            preprocess=self.preprocess, tol_scale=self.tol_scale,
        )  # fmt: skip

    @property
    def run_key(self) -> tuple:
        """What the run's lines depend on: :attr:`key` without the tag.

        Runs with equal run keys rank the same documents with the same scores.
        """
        return self.key[:-1]

    @property
    def feature_key(self) -> tuple:
        """Runs with equal feature keys share steps 1 and 2 (tf-idf, training rows, target rows)."""
        return (self.training, self.target, self.settings.feature_key)

    @property
    def training_key(self) -> tuple:
        """Runs with equal training keys share the tf-idf model and the training rows whatever their target.

        Unless the target routes other topics (:func:`~irrepro.routing.pipeline.retarget_features`):
        the target enters only an augmented tf-idf fit.
        """
        settings = self.settings
        return (self.training, self.target if settings.augment else None, settings.feature_key)


# --------------------------------------------------------------------------- where workers find corpora


@dataclass(frozen=True)
class StandInCorpora:
    """The Reuters-21578 stand-in (:mod:`irrepro.routing.standin`), built by each process from the registry's files.

    Under its corpus names (``reuters-near``) and its roles (``core17``).

    Parameters
    ----------
    equal_targets : bool, default False
        Its size-controlled variant (both targets cut to the same number of stories).
    holds_target : bool, default True
        Small: the feature tasks hold the targets' rows.
    """

    equal_targets: bool = False
    holds_target: bool = True  # small: the feature tasks hold the targets' rows

    def collections(self, implementation: Implementation) -> dict[str, Collection]:
        """Build the stand-in's collections with the implementation's text rule.

        Parameters
        ----------
        implementation : Implementation
            Gives the text rule.

        Returns
        -------
        dict of str -> Collection
            By corpus name and by role.
        """
        from irrepro.routing import standin

        built = standin.load(equal_targets=self.equal_targets, text=implementation.text)
        by_role = {standin.ROLES[name]: collection for name, collection in built.collections.items()}
        return {**built.collections, **by_role}


@dataclass(frozen=True)
class ConfiguredCorpora:
    """The user's corpora of a configuration file (:mod:`irrepro.routing.config`), read by each process itself.

    The files must be where every worker can read them.

    Parameters
    ----------
    config : str
        The configuration file.
    names : tuple of str
        The corpora.
    holds_target : bool, default False
        Licensed corpora are large: every run streams its target.
    """

    config: str
    names: tuple[str, ...]
    holds_target: bool = False  # licensed corpora are large: every run streams its target

    def collections(self, implementation: Implementation) -> dict[str, Collection]:
        """Read the configured corpora with the implementation's text rule.

        Parameters
        ----------
        implementation : Implementation
            Gives the text rule.

        Returns
        -------
        dict of str -> Collection
            By corpus name.
        """
        from irrepro.routing.config import configured_collections

        return configured_collections(self.names, self.config, implementation=implementation)[1]


@lru_cache(maxsize=4)
def _source_collections(source, implementation: Implementation) -> dict[str, Collection]:
    return source.collections(implementation)


def resolve_corpora(corpora, implementation) -> Mapping[str, Collection]:
    """Give the collections of ``corpora``, resolved once per process.

    Parameters
    ----------
    corpora : mapping of str -> Collection, StandInCorpora or ConfiguredCorpora
        A mapping, or a source object.
    implementation : Implementation
        Gives the text rule of a source object.

    Returns
    -------
    mapping of str -> Collection
        By name.
    """
    if isinstance(corpora, Mapping):
        return corpora
    return _source_collections(corpora, implementations.get(implementation))


def _holds_target(corpora) -> bool:
    if not isinstance(corpora, Mapping):
        return corpora.holds_target
    sizes = [len(c.documents) if isinstance(c.documents, Sequence) else None for c in corpora.values()]
    return all(size is not None and size <= HOLD_TARGET_DOCUMENTS for size in sizes)


# --------------------------------------------------------------------------- making runs


@dataclass
class MadeRun:
    """A run made by :func:`iter_runs`, with the wall and CPU seconds of its own task and of its feature task.

    CPU time of the task's thread: what the task cost, whatever else the machine ran.

    Parameters
    ----------
    request : RunRequest
        What was asked for.
    result : RoutingResult
        The run.
    seconds, cpu_seconds : float
        Wall and CPU seconds of the run's task.
    feature_seconds, feature_cpu_seconds : float
        Wall and CPU seconds of its feature task.
    feature_key : tuple
        Identifies the feature set it shares.
    """

    request: RunRequest
    result: RoutingResult
    seconds: float
    cpu_seconds: float
    feature_seconds: float
    feature_cpu_seconds: float
    feature_key: tuple


def _feature_task(corpora, request: RunRequest, hold_target: bool, shared: Features | None = None) -> Features:
    """The features of ``request``: ``shared`` (features of the same training key) for this target
    where they can be (:func:`~irrepro.routing.pipeline.retarget_features`), else prepared here."""
    collections = resolve_corpora(corpora, request.implementation)
    started, cpu = time.perf_counter(), time.thread_time()
    training, target = [collections[name] for name in request.training], collections[request.target]
    features = None
    if shared is not None:
        features = retarget_features(shared, training, target, request.settings, hold_target=hold_target)
    if features is None:
        features = prepare_features(training, target, request.settings, hold_target=hold_target)
    features.seconds, features.cpu_seconds = time.perf_counter() - started, time.thread_time() - cpu
    return features


def _run_task(corpora, features: Features, request: RunRequest, models: TopicModels | None = None) -> tuple:
    """The run of ``request`` from ``features`` (with ``models`` if trained already) and its times."""
    started, cpu = time.perf_counter(), time.thread_time()
    target = None
    if features.target_chunks is None and features.target is None:  # sent here without the target
        target = resolve_corpora(corpora, request.implementation)[request.target]
    if models is None:
        models = train_models(features, request.settings)
    # ids as categories: a run of 10,000 documents x 50 topics takes a tenth of the memory
    result = rank_features(features, request.settings, target=target, run_tag=request.tag, models=models,
                           categorical=True)  # fmt: skip
    result.platform = platform_metadata(PACKAGES)  # of the process that made it: a Dask worker may run elsewhere
    return result, time.perf_counter() - started, time.thread_time() - cpu, features.seconds, features.cpu_seconds


def unique_requests(requests: Sequence[RunRequest]) -> list[RunRequest]:
    """Drop repeats (same :attr:`RunRequest.key`) from ``requests``, in first-seen order.

    Parameters
    ----------
    requests : sequence of RunRequest
        The requests.

    Returns
    -------
    list of RunRequest
        Each distinct one once.
    """
    return list({request.key: request for request in requests}.values())


def iter_runs(corpora, requests: Sequence[RunRequest], *, client=None, hold_target: bool | None = None,
              trainer: Trainer | None = None) -> Iterator[MadeRun]:
    """Make ``requests`` (each distinct one once), yielding each run as it is finished.

    Without ``client``: here, training set by training set (``_serial_runs``), the classifiers
    trained by ``trainer``. With a Dask ``client``: one task per feature set and one per run
    depending on it; a worker that dies loses only its tasks, which Dask runs again elsewhere.

    Parameters
    ----------
    corpora : mapping of str -> Collection, StandInCorpora or ConfiguredCorpora
        A mapping name -> collection, or a source object.
    requests : sequence of RunRequest
        The runs.
    client : dask.distributed.Client, optional
        The Dask client to make them on.
    hold_target : bool, optional
        Keep the target's rows in the feature task (default: for targets up to
        :data:`HOLD_TARGET_DOCUMENTS`).
    trainer : Trainer, optional
        Trains the classifiers here, each content once (:class:`~irrepro.routing.trainer.Trainer`);
        default: a new one for this call. Pass one to share its trainings between calls.

    Yields
    ------
    MadeRun
        Each run, as it is finished.
    """
    requests = unique_requests(requests)
    hold = _holds_target(corpora) if hold_target is None else hold_target
    if client is None:
        yield from _serial_runs(corpora, requests, hold, Trainer() if trainer is None else trainer)
    else:
        yield from _dask_runs(client, corpora, requests, hold)


def _serial_runs(corpora, requests: list[RunRequest], hold: bool, trainer: Trainer) -> Iterator[MadeRun]:
    """The runs here, training set by training set (:attr:`RunRequest.training_key`): the tf-idf
    model and training rows once, the target's rows once per target (each training set dropped after
    its last run), the classifiers by ``trainer``, so once per content and classifier setting
    (:attr:`~irrepro.routing.pipeline.RunSettings.classifier_key`), e.g. for both targets when they
    route the same topics, and the settings of a feature set that differ only in ``tol`` together
    (:meth:`~irrepro.routing.trainer.Trainer.train_all`)."""
    by_training: dict[tuple, dict[tuple, list[RunRequest]]] = {}
    for request in requests:
        by_training.setdefault(request.training_key, {}).setdefault(request.feature_key, []).append(request)
    for groups in by_training.values():
        shared: Features | None = None
        for key, group in groups.items():
            shared = features = _feature_task(corpora, group[0], hold, shared)
            trainer.train_all(features, [request.settings for request in group])  # tol variants on one trajectory
            for request in group:
                models = trainer.train(features, request.settings)
                yield MadeRun(request, *_run_task(corpora, features, request, models), key)


class WorkersLostError(RuntimeError):
    """Dask workers died while making runs (killed over their memory limit, most often).

    The message says what happened and what to change.
    """


def _dask_runs(client, corpora, requests: list[RunRequest], hold: bool) -> Iterator[MadeRun]:
    from distributed import KilledWorker

    if isinstance(corpora, Mapping):  # on every worker, so a dead worker does not take the data with it
        corpora = client.scatter([dict(corpora)], broadcast=True, hash=False)[0]
    features: dict[tuple, object] = {}
    runs: dict[object, tuple[RunRequest, object]] = {}  # run future -> its request and feature future
    token = os.urandom(4).hex()
    order = {key: number for number, key in enumerate(dict.fromkeys(r.feature_key for r in requests))}
    # submitted set by set (a feature task, then its runs): Dask starts tasks in that order, so a
    # worker holds few feature sets at a time (at NYT scale each holds the judged training rows)
    for number, request in enumerate(sorted(requests, key=lambda r: order[r.feature_key])):
        if request.feature_key not in features:
            features[request.feature_key] = client.submit(
                _feature_task, corpora, request, hold, key=f"features-{len(features)}-{token}"
            )
        feature_future = features[request.feature_key]
        future = client.submit(_run_task, corpora, feature_future, request, key=f"run-{number}-{token}")
        runs[future] = (request, feature_future)
    # A feature set is held by its runs' entries only, and released after the last of them; held
    # until then, so that a feature task that failed gives its runs its error, not a cancellation.
    features.clear()
    for future in _completed(client, list(runs)):
        request, _ = runs.pop(future)
        try:
            result = future.result()
        except KilledWorker as error:
            # Dask gave up on the task before the restart budget of _completed was spent: when the
            # nannies restarted workers over their memory limit, say that rather than Dask's text
            restarts = _memory_restarts(client)
            if restarts:
                raise WorkersLostError(f"the Dask workers were restarted {restarts} times for going over their memory "
                                       f"limit and run {request.tag} did not finish: {_memory_hint(client)}") from error
            raise WorkersLostError(f"run {request.tag}: {error}; a worker dies most often of running out of "
                                   f"memory: {_memory_hint(client)}") from error
        except CancelledError as error:  # the corpora scattered to a lone worker died with it
            raise WorkersLostError(f"run {request.tag}: cancelled by Dask, its input lost with a worker that died "
                                   f"(most often of running out of memory): {_memory_hint(client)}") from error
        future.release()
        yield MadeRun(request, *result, request.feature_key)


def _memory_restarts(client) -> int:
    """How many times the cluster's nannies restarted a worker for going over its memory limit."""
    return len(client.get_events("worker-restart-memory"))


def _memory_hint(client) -> str:
    limits = {info.get("memory_limit") for info in client.scheduler_info()["workers"].values()}
    limit = f" ({_bytes(min(limits))} per worker)" if limits and None not in limits and 0 not in limits else ""
    return f"give each worker more memory{limit}, or run fewer workers"


def _bytes(size: int) -> str:
    return f"{size / 2**30:.3g} GiB" if size >= 2**30 else f"{size / 2**20:.3g} MiB"


def _completed(client, futures: list, *, poll_seconds: float = 1.0) -> Iterator:
    """``futures`` as they finish; :class:`WorkersLostError` when the workers keep being restarted for
    their memory while no run finishes (Dask would restart an idle worker too big for its limit forever).

    The budget is what Dask itself tolerates of one task, ``allowed-failures + 1`` deaths, per worker.
    """
    import dask
    from distributed import wait

    pending = set(futures)
    budget = (dask.config.get("distributed.scheduler.allowed-failures") + 1) * max(1, worker_count(client))
    restarts_before = _memory_restarts(client)
    while pending:
        try:
            done, pending = wait(pending, timeout=poll_seconds, return_when="FIRST_COMPLETED")
        except TimeoutError:
            done = set()
        except CancelledError:  # handed on: their result() says so
            done = {future for future in pending if future.cancelled()}
            pending -= done
        restarts = _memory_restarts(client) - restarts_before
        if not done and restarts >= budget:
            raise WorkersLostError(f"the Dask workers were restarted {restarts} times for going over their memory limit "
                                   f"and no run finished: {_memory_hint(client)}")
        if done:
            restarts_before += restarts
        yield from sorted(done, key=lambda future: future.key)


# --------------------------------------------------------------------------- clusters


def default_workers() -> int:
    """Count the cores this process may use (the default number of local workers).

    Returns
    -------
    int
        The cores.
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def dashboard_available() -> bool:
    """Tell whether Dask can serve its dashboard (it needs bokeh, which irrepro does not depend on).

    Returns
    -------
    bool
        True if bokeh is installed.
    """
    try:
        import bokeh  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def local_cluster(*, workers: int | None = None, memory_limit: str | int | None = None,
                  scheduler: str | None = None) -> Iterator:
    """Give a Dask client, on ``scheduler`` if given, else on a local cluster started and shut down here.

    distributed's log lines below errors are silenced, so a notebook cell or a terminal shows only
    this package's output.

    Parameters
    ----------
    workers : int, optional
        Local worker processes (default: the cores), one thread each.
    memory_limit : str or int, optional
        Per worker (e.g. ``"2GiB"``; default: Dask's share of the machine's memory).
    scheduler : str, optional
        An address such as ``tcp://host:8786``.

    Yields
    ------
    dask.distributed.Client
        The client.

    Raises
    ------
    irrepro.routing.scheduler.SchedulerError
        Within seconds, for a ``scheduler`` that is not a Dask scheduler.
    """
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        yield from _scheduler_client(scheduler)
        return
    # Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which also fixes glibc's mmap
    # threshold: every large numpy temporary is then a fresh mmap, and the routing tasks ran 1.8x
    # slower (measured on the stand-in). Left out here; the memory limit still bounds each worker.
    environ = {name: value for name, value in dask.config.get("distributed.nanny.pre-spawn-environ", {}).items()
               if not name.startswith("MALLOC_")}  # fmt: skip
    # a worker process configures its logging when it imports distributed, before the cluster's
    # silence_logs reaches it: without this, a worker restarted over its memory limit could still
    # print an INFO line ("Starting established connection") beside irrepro's one error
    environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), LocalCluster(
        n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
        memory_limit=memory_limit if memory_limit is not None else "auto",
        # any free port: no 'port 8787 is in use' warning. Only CRITICAL log lines: a worker that dies
        # or goes over its limit reaches the user as one error of irrepro's (WorkersLostError), and
        # the nanny's ERROR lines about the same event came before it, in a varying number.
        dashboard_address=":0", silence_logs=logging.CRITICAL,
    ) as cluster, Client(cluster) as client:  # fmt: skip
        yield client


def _scheduler_client(address: str) -> Iterator:
    """A client of the running scheduler at ``address``, probed first (:mod:`irrepro.routing.scheduler`)."""
    from distributed import Client

    from irrepro.routing.scheduler import SchedulerError, check_scheduler

    check_scheduler(address)
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as error:  # answered the probe, then failed the client's handshake
        raise SchedulerError(f"cannot connect a Dask client to {address}: {error}") from error
    with client:
        yield client


def worker_count(client) -> int:
    """Count the workers a client's scheduler knows now.

    Parameters
    ----------
    client : dask.distributed.Client
        The client.

    Returns
    -------
    int
        The workers.
    """
    return len(client.scheduler_info()["workers"])


# --------------------------------------------------------------------------- the cache


def _lines_digest(run: pd.DataFrame) -> bytes | None:
    """A digest of a run's lines without its tag (ids and scores), for a run whose ids are categories
    (:func:`_run_task`'s); ``None`` for another frame."""
    columns = [run[name] for name in ("query_id", "doc_id")]
    if not all(isinstance(column.dtype, pd.CategoricalDtype) for column in columns):
        return None
    digest = hashlib.blake2b(digest_size=20)
    for column in columns:
        digest.update(repr(column.cat.categories.tolist()).encode())
        digest.update(np.ascontiguousarray(column.cat.codes.to_numpy(), dtype=np.int64).view(np.uint8))
    digest.update(np.ascontiguousarray(run["score"].to_numpy(dtype=np.float64)).view(np.uint8))
    return digest.digest()


def _tagged(result: RoutingResult, tag: str) -> RoutingResult:
    """``result`` under the run tag ``tag``: itself when it has that tag, else a copy with the new tag."""
    run = result.run
    if len(run) == 0 or run["run"].iat[0] == tag:
        return result
    return dataclasses.replace(result, run=run.assign(run=pd.Categorical([tag] * len(run))))


@dataclass(kw_only=True)
class RunCache:
    """Collections by name, the runs made from them and their scores, each made once.

    Parameters
    ----------
    collections : dict of str -> Collection
        The collections, by name.
    source : StandInCorpora or ConfiguredCorpora, optional
        Where the collections of another implementation (and Dask workers) find the corpora; without
        it the collections themselves are used (and sent to the workers).
    _results, _scores, _judgments : dict, optional
        The cache's own state; not to be given.
    _workers : int, default 1
        The most worker processes the runs were made on; not to be given.
    trainer : Trainer, optional
        Trains the classifiers of the runs made here (:class:`~irrepro.routing.trainer.Trainer`): it
        keeps recent trainings, so a run whose features equal another's in content, in a later
        prefetch too, is not trained again.
    """

    collections: dict[str, Collection]
    source: StandInCorpora | ConfiguredCorpora | None = None
    _results: dict = field(default_factory=dict, repr=False)
    _scores: dict = field(default_factory=dict, repr=False)
    _judgments: dict = field(default_factory=dict, repr=False)
    _workers: int = field(default=1, repr=False)
    trainer: Trainer = field(default_factory=Trainer, repr=False)

    def result(self, request: RunRequest) -> RoutingResult:
        """Give the run of ``request``, made here unless it was made before.

        A run made before under another tag (same :attr:`RunRequest.run_key`) is handed out under
        ``request``'s tag, the same lines.

        Parameters
        ----------
        request : RunRequest
            The run.

        Returns
        -------
        RoutingResult
            The run.
        """
        if request.run_key not in self._results:
            self.prefetch([request])
        return _tagged(self._results[request.run_key], request.tag)

    def run(self, training: tuple[str, ...], target: str, *, constellation: Constellation = DEFAULT,
            augment: bool = False, preprocess: bool = True, tol_scale: str = "mean") -> RoutingResult:
        """Give the run of classifiers trained on ``training`` (in priority order) ranking ``target``.

        Parameters
        ----------
        training : tuple of str
            The training corpora, in priority order.
        target : str
            The corpus ranked.
        constellation : Constellation, default DEFAULT
            The run's parameters.
        augment : bool, default False
            Feature augmentation.
        preprocess : bool, default True
            Stop words removed and Porter stems.
        tol_scale : {"mean", "sum"}
            How ``tol`` is applied.

        Returns
        -------
        RoutingResult
            The run.
        """
        return self.result(RunRequest(tuple(training), target, constellation, augment, preprocess, tol_scale))

    def system_run(self, system: str, target: str, *, constellation: Constellation = DEFAULT,
                   preprocess: bool = True, tol_scale: str = "mean") -> RoutingResult:
        """Give WCrobust04 / WCrobust0405 (trained where a topic is judged, "complemented") on ``target``.

        Parameters
        ----------
        system : {"WCrobust04", "WCrobust0405"}
            The system.
        target : str
            The corpus ranked.
        constellation : Constellation, default DEFAULT
            The run's parameters.
        preprocess : bool, default True
            Stop words removed and Porter stems.
        tol_scale : {"mean", "sum"}
            How ``tol`` is applied.

        Returns
        -------
        RoutingResult
            The run.
        """
        return self.run(TRAINING_COLLECTIONS[system], target, constellation=constellation, preprocess=preprocess, tol_scale=tol_scale)

    def prefetch(self, requests: Sequence[RunRequest], *, client=None) -> None:
        """Make the runs of ``requests`` not made yet, features shared (:func:`iter_runs`).

        The collections come from ``source`` where there is one (so a request of another
        implementation reads the corpora with its own text rule), else from :attr:`collections`.

        Parameters
        ----------
        requests : sequence of RunRequest
            The runs.
        client : dask.distributed.Client, optional
            Make them on its Dask cluster (:func:`local_cluster`); else here.
        """
        missing = list({r.run_key: r for r in unique_requests(requests) if r.run_key not in self._results}.values())
        if not missing:
            return
        corpora = self.collections if self.source is None else self.source
        for made in iter_runs(corpora, missing, client=client, trainer=self.trainer):
            self._results[made.request.run_key] = made.result
        if client is not None:
            self._workers = max(self._workers, worker_count(client))

    def results(self, requests: Sequence[RunRequest]) -> list[RoutingResult]:
        """Give the runs of ``requests`` (each distinct one once, in order), made where missing.

        Parameters
        ----------
        requests : sequence of RunRequest
            The runs.

        Returns
        -------
        list of RoutingResult
            The runs.
        """
        requests = unique_requests(requests)
        self.prefetch(requests)
        return [self.result(request) for request in requests]

    def scores(self, result: RoutingResult, target: str, *, topics: Sequence[str] | None = None) -> pd.DataFrame:
        """Evaluate a run: per-topic AP, P@10 and nDCG on its own topics (or ``topics``).

        Parameters
        ----------
        result : RoutingResult
            The run.
        target : str
            The collection whose qrels judge it.
        topics : sequence of str, optional
            The topics; default: the run's own.

        Returns
        -------
        pandas.DataFrame
            Topics x measures.
        """
        key = (result.run["run"].iat[0], target)
        if key not in self._scores:
            # runs of equal lines under other tags (tol_1 ... tol_5 on the mean loss: every score 1/2) are scored once
            content = (_lines_digest(result.run), target, tuple(result.topics))
            if content[0] is None or content not in self._scores:
                qrels, judgments = self._judgments_of(target, result.topics)
                # evaluate()'s defaults, with the target's qrels prepared once for all its runs
                evaluation = evaluate_prepared({key[0]: result.run}, qrels, MEASURES, missing_topics="zero",
                                               no_relevant="drop", judgments=judgments, stacklevel=3)  # fmt: skip
                self._scores[content] = pd.DataFrame({m: evaluation[m].iloc[:, 0] for m in MEASURES})
            self._scores[key] = self._scores[content]
        table = self._scores[key]
        return table if topics is None else table.reindex([t for t in topics if t in table.index])

    def _judgments_of(self, target: str, topics: Sequence[str]) -> tuple[pd.DataFrame, Judgments]:
        """The target's qrels of ``topics`` and their :class:`~irrepro.evaluation.Judgments`, made once."""
        key = (target, tuple(sorted(topics)))
        if key not in self._judgments:
            qrels = self.collections[target].qrels
            qrels = qrels[qrels["query_id"].astype(str).isin(topics)]
            self._judgments[key] = (qrels, Judgments(qrels))
        return self._judgments[key]

    def runs(self) -> list[RoutingResult]:
        """List the runs in the cache (what this process has made; a written folder names its own runs).

        Returns
        -------
        list of RoutingResult
            The runs.
        """
        return list(self._results.values())

    @property
    def n_jobs(self) -> int:
        """The most worker processes a prefetch of this cache ran on (1: only this process)."""
        return self._workers
