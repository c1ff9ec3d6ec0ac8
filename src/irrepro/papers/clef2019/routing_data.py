"""The data a routing experiment of the CLEF 2019 chapter runs on: the four collections in the paper's roles.

:class:`RoutingData` holds the collections playing Robust04, Robust05, Core17 (the near target) and
Core18 (the far target), names them for the tables and keeps every run made on them (a
:class:`~irrepro.routing.experiment.RunCache`). Two sources fill it: :func:`stand_in`, the open
Reuters-21578 stand-in (:mod:`irrepro.routing.standin`), and :func:`licensed_data`, the user's own
copies of the TREC corpora named in a configuration (:mod:`irrepro.routing.config`). Every table
function takes one; ``None`` means the stand-in (:func:`data_or_stand_in`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pandas as pd

from irrepro.papers import datasets
from irrepro.routing import standin
from irrepro.routing.experiment import ConfiguredCorpora, RunCache, StandInCorpora
from irrepro.routing.trainer import shared_trainer
from irrepro.topic_order import sort_topics

__all__ = [
    "ROLES",
    "ROLE_NAMES",
    "STAND_IN_ROLE_NAMES",
    "SYSTEM_NAMES",
    "STAND_IN_DATA",
    "STAND_IN_EQUAL_TARGETS_DATA",
    "RoutingData",
    "stand_in",
    "stand_in_summary",
    "licensed_data",
    "data_or_stand_in",
    "common_stand_in_topics",
]


#: The paper's four roles (the training roles of each system: :data:`irrepro.routing.constellations.TRAINING_COLLECTIONS`).
ROLES: tuple[str, ...] = ("robust04", "robust05", "core17", "core18")
#: How the tables name the roles on the licensed corpora (the paper's names of the collections).
ROLE_NAMES: dict[str, str] = {"robust04": "Robust04", "robust05": "Robust05", "core17": "NYT", "core18": "WaPo"}
#: How the stand-in's tables and figures name its slices: by nature and role, so that no stand-in
#: number reads like a TREC result.
STAND_IN_ROLE_NAMES: dict[str, str] = {
    "robust04": "train-04 (Robust04 role)",
    "robust05": "train-05 (Robust05 role)",
    "core17": "near (NYT role)",
    "core18": "far (WaPo role)",
}
SYSTEM_NAMES: dict[str, str] = {name.lower(): name for name in datasets.SYSTEMS}  # system key -> name
STAND_IN_DATA = "Reuters-21578 stand-in (open; time slices in the roles of the TREC corpora)"
STAND_IN_EQUAL_TARGETS_DATA = "Reuters-21578 stand-in, targets cut to equal size (first near, last far stories)"


@dataclass(kw_only=True)
class RoutingData(RunCache):
    """The four collections a routing experiment needs, keyed by role, and what they are.

    The runs and their scores are made once and kept (:class:`irrepro.routing.experiment.RunCache`).

    Parameters
    ----------
    collections : dict of str -> Collection
        The roles ``robust04``, ``robust05``, ``core17`` (near target) and ``core18`` (far target)
        -> :class:`irrepro.routing.pipeline.Collection` objects with qrels.
    source : StandInCorpora or ConfiguredCorpora, optional
        Tells Dask workers where to find the collections themselves.
    _results, _scores, _judgments : dict, optional
        The cache's own state (:class:`~irrepro.routing.experiment.RunCache`); not to be given.
    _workers : int, default 1
        The most worker processes the runs were made on; not to be given.
    trainer : Trainer, optional
        Trains the classifiers of the runs made here, each content once
        (:class:`~irrepro.routing.trainer.Trainer`).
    label : str
        Goes into every table's ``data``.
    corpora : dict of str -> str
        Names the corpus playing each role.
    role_names : dict of str -> str, optional
        How tables and figures name each role.
    """

    label: str
    corpora: dict[str, str]
    role_names: dict[str, str] = field(default_factory=lambda: dict(ROLE_NAMES))

    def __post_init__(self):
        missing = [role for role in ROLES if role not in self.collections]
        if missing:
            raise ValueError(f"routing data {self.label!r} lacks the role(s) {', '.join(missing)}")


def stand_in(*, equal_targets: bool = False) -> RoutingData:
    """Give the Reuters-21578 stand-in (:mod:`irrepro.routing.standin`) in the paper's four roles.

    One object per variant for the whole process, however it is asked for: the chapter's tables share
    its run cache, so a second object would make every run again.

    Parameters
    ----------
    equal_targets : bool, default False
        Its size-controlled variant (both targets cut to the same number of stories).

    Returns
    -------
    RoutingData
        The stand-in.
    """
    return _stand_in(bool(equal_targets))


@cache  # two variants; keyed on the flag alone, so stand_in() is stand_in(equal_targets=False)
def _stand_in(equal_targets: bool) -> RoutingData:
    built = standin.load(equal_targets=equal_targets)
    by_role = {role: name for name, role in standin.ROLES.items()}
    return RoutingData(
        label=STAND_IN_EQUAL_TARGETS_DATA if equal_targets else STAND_IN_DATA,
        collections={role: built.collections[by_role[role]] for role in ROLES},
        corpora={role: by_role[role] for role in ROLES},
        role_names=dict(STAND_IN_ROLE_NAMES),
        source=StandInCorpora(equal_targets=equal_targets),
        trainer=shared_trainer(),  # standin.run (the exercises) reuses the tables' trainings
    )


def stand_in_summary() -> pd.DataFrame:
    """Describe the stand-in's four slices.

    Returns
    -------
    pandas.DataFrame
        Role, dates, documents, kept topics, relevant judgments.
    """
    table = standin.load().summary()
    table.insert(1, "slice", table["role"].map(STAND_IN_ROLE_NAMES))
    table["data"] = STAND_IN_DATA
    return table.drop(columns="role")


def licensed_data(config: str | Path | None = None) -> RoutingData | None:
    """Give the user's licensed TREC corpora in the four roles, or ``None`` when no configuration exists.

    Parameters
    ----------
    config : str or pathlib.Path, optional
        The configuration (:mod:`irrepro.routing.config`); else ``$IRREPRO_ROUTING_CONFIG``, else
        ``./routing-corpora.toml``. It must name the corpora ``robust04``, ``robust05``, ``core17``
        and ``core18``.

    Returns
    -------
    RoutingData or None
        The licensed data.

    Raises
    ------
    irrepro.routing.config.ConfigError
        If a configuration exists but is wrong.
    """
    from irrepro.routing.config import configured_collections, find_config

    path = find_config(config, required=config is not None)
    if path is None:
        return None
    path, collections = configured_collections(ROLES, path)
    return RoutingData(
        label=f"licensed TREC corpora ({path})", collections=collections, corpora={r: r for r in ROLES},
        source=ConfiguredCorpora(str(path), ROLES),
    )


def data_or_stand_in(data: RoutingData | None) -> RoutingData:
    """Give ``data``, or the stand-in (:func:`stand_in`) when it is ``None``: the table functions' default.

    Parameters
    ----------
    data : RoutingData or None
        The routing data.

    Returns
    -------
    RoutingData
        ``data`` or the stand-in.
    """
    return stand_in() if data is None else data


def common_stand_in_topics(data: RoutingData) -> list[str]:
    """List the topics judged in all four collections of ``data`` (for the stand-in: every kept topic).

    Parameters
    ----------
    data : RoutingData
        The routing data.

    Returns
    -------
    list of str
        The topic ids.
    """
    judged = [frozenset(c.qrels["query_id"].astype(str).unique()) for c in data.collections.values()]
    return sort_topics(frozenset.intersection(*judged))
