"""Which routing runs each table of the CLEF 2019 chapter needs, as :class:`~irrepro.routing.experiment.RunRequest`.

A table function hands its requests to :meth:`~irrepro.routing.experiment.RunCache.prefetch`, so that
the runs are made together (in worker processes, or on a Dask cluster) before the table reads them one
by one; :func:`table_requests` is every run of :func:`irrepro.papers.clef2019.files.write_tables`, each once.
"""

from __future__ import annotations

from collections.abc import Sequence

from irrepro.papers.clef2019.published_facts import FAR, NEAR
from irrepro.papers.clef2019.routing_data import ROLES
from irrepro.routing.constellations import DEFAULT, PRINTED, TRAINING_COLLECTIONS, Constellation
from irrepro.routing.experiment import RunRequest, unique_requests

__all__ = [
    "TOL_LEVELS",
    "ordered_pairs",
    "transfer_requests",
    "system_requests",
    "own_dataset_requests",
    "tolerance_requests",
    "table_requests",
]


#: The constellations of :func:`~irrepro.papers.clef2019.tolerance.tolerance_check`: the default and tol_1 ... tol_5.
TOL_LEVELS = (DEFAULT, *[c for c in PRINTED if c.family == "tol"])


def ordered_pairs() -> list[tuple[str, str]]:
    """List (target, training) for every two different roles: the pairs of Tables 2 and 3.

    Returns
    -------
    list of (str, str)
        The pairs.
    """
    return [(target, training) for target in ROLES for training in ROLES if training != target]


def transfer_requests(*, augmented: Sequence[bool] = (False,)) -> list[RunRequest]:
    """Request one training corpus, one target, for every ordered pair.

    Parameters
    ----------
    augmented : sequence of bool, default (False,)
        With and/or without feature augmentation.

    Returns
    -------
    list of RunRequest
        The requests.
    """
    return [RunRequest((training,), target, augment=a) for target, training in ordered_pairs() for a in augmented]


def system_requests(
    *,
    constellations: Sequence[Constellation] = (DEFAULT,),
    preprocessing: Sequence[bool] = (True,),
) -> list[RunRequest]:
    """Request both systems on both targets for each constellation (and each preprocessing choice).

    Parameters
    ----------
    constellations : sequence of Constellation, default (DEFAULT,)
        The constellations.
    preprocessing : sequence of bool, default (True,)
        With and/or without the preprocessing.

    Returns
    -------
    list of RunRequest
        The requests.
    """
    return [
        RunRequest(TRAINING_COLLECTIONS[s], t, c, preprocess=p)
        for p in preprocessing for c in constellations for s in TRAINING_COLLECTIONS for t in (NEAR, FAR)
    ]


def own_dataset_requests() -> list[RunRequest]:
    """Request the own dataset's runs: both systems on both targets, the default and the 20 printed constellations.

    Returns
    -------
    list of RunRequest
        The requests.
    """
    return system_requests(constellations=(DEFAULT, *PRINTED))


def tolerance_requests(system: str) -> list[RunRequest]:
    """Request the default and tol runs of ``system`` on the near target, tol on the mean and on the summed loss.

    Parameters
    ----------
    system : str
        The system.

    Returns
    -------
    list of RunRequest
        The requests.
    """
    return [RunRequest(TRAINING_COLLECTIONS[system], NEAR, c, tol_scale=scale) for scale in ("mean", "sum") for c in TOL_LEVELS]


def table_requests() -> list[RunRequest]:
    """List every run the tables of :func:`~irrepro.papers.clef2019.files.write_tables` use, each once (what ``runs/`` holds).

    Returns
    -------
    list of RunRequest
        The requests.
    """
    requests = [
        *transfer_requests(augmented=(False, True)), *system_requests(preprocessing=(True, False)),
        *own_dataset_requests(), *tolerance_requests("wcrobust0405"),
    ]
    return unique_requests(requests)
