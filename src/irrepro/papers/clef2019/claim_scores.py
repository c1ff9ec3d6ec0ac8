"""The per-topic scores the CLEF 2019 chapter's claims rest on, gathered once for topic resampling.

Every claim of the chapter is a statement about means, counts and t-tests over topics, so a
bootstrap replicate of the topics (:mod:`irrepro.reproducibility.resampling`) re-reads it from the
per-topic scores alone: no run is made and none is evaluated again. :class:`ClaimScores` holds them
as frames (topics x named columns), each frame on one **topic group**, the sample that is drawn:

- ``core17``, ``core18``: the SIGIR 2020 authors' published per-topic files
  (:mod:`~irrepro.papers.clef2019.published_runs`; the 50 Core17 and 25 Core18 topics of their
  files; the CLEF paper's smaller topic sets are subsets, :attr:`ClaimScores.subsets`);
- ``common``: the 15 topics judged in all four TREC collections, on which the paper's Figures 3 and
  4 compare replication and reproduction topic by topic (drawn once for both settings);
- ``stand-in`` and ``stand-in equal``: the topics of the Reuters-21578 stand-in as built and of its
  variant with both targets cut to equal size, read from the run cache the chapter filled
  (:class:`~irrepro.routing.experiment.RunCache`: :func:`stand_in_scores` asks for runs the chapter's
  tables made, so it only reads them). The variant keeps a subset of the stand-in's topics (Reuters
  categories), so it is drawn *with* the stand-in (:attr:`ClaimScores.drawn_with`): a replicate's mean
  on the variant is over the drawn categories it keeps.

:class:`Resampled` is ``B`` replicates of every group (``(B, n)`` topic weights, one seed per group
drawn on its own) with the means, counts and paired t-tests the claims need; :meth:`Resampled.all_topics`
is the identity resample, whose values are the chapter's own.

>>> frame = pd.DataFrame({"AP": [0.2, 0.4, 0.9]}, index=["t1", "t2", "t3"])
>>> toy = ClaimScores({"runs": frame}, {"runs": "stand-in"}, {"stand-in": ["t1", "t2", "t3"]})
>>> Resampled.all_topics(toy).means("runs").round(6).to_dict("list")
{'AP': [0.5]}
>>> replicates = Resampled.draw(toy, 1000, seed=0)
>>> replicates.size, bool(replicates.counts("runs", frame["AP"] > 0.3).max() <= 3)
(1000, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from irrepro.memo import cached
from irrepro.papers.clef2019 import published_runs
from irrepro.papers.clef2019.published_facts import FAR, NEAR
from irrepro.papers.clef2019.routing_data import RoutingData, common_stand_in_topics
from irrepro.papers.clef2019.run_requests import TOL_LEVELS, ordered_pairs
from irrepro.papers.datasets import SYSTEMS, run_column
from irrepro.reproducibility.resampling import (
    identity_weights,
    paired_t_pvalues,
    topic_resamples,
    topic_weights,
)
from irrepro.routing.constellations import TRAINING_COLLECTIONS

__all__ = [
    "GROUPS", "PUBLISHED_CONSTELLATIONS", "TOL_SYSTEM", "ClaimScores", "Resampled", "published_scores",
    "stand_in_scores", "claim_scores",
]  # fmt: skip

#: The topic groups, in the order of their seeds (group ``k`` is drawn with seed + k).
GROUPS: tuple[str, ...] = ("core17", "core18", "common", "stand-in", "stand-in equal")
#: The 2020 code's constellations the claims read: 1 the default, 7 tf-idf augmented by the target's
#: vocabulary, 8 without preprocessing (irgroup/sigir2020-measure-reproducibility ``config/param.py``).
PUBLISHED_CONSTELLATIONS: tuple[int, ...] = (1, 7, 8)
#: The system of the chapter's ``tol`` comparison (:func:`~irrepro.papers.clef2019.tolerance.tolerance_check`).
TOL_SYSTEM = "wcrobust0405"


@dataclass(frozen=True)
class ClaimScores:
    """Per-topic frames (topics x columns) by name, the topic group of each and the groups' topics.

    Parameters
    ----------
    frames : mapping of str -> pandas.DataFrame
        Name -> per-topic frame, topics x columns.
    groups : mapping of str -> str
        Frame name -> its topic group.
    topics : mapping of str -> list of str
        Group -> its topics.
    subsets : mapping of (str, str) -> list of str, optional
        Named topic subsets of a group (``(group, name) -> topics``), e.g. the CLEF paper's topic
        sets within the 50 Core17 topics.
    drawn_with : mapping of str -> str, optional
        Group -> the group whose draws it takes (its topics are within that group's, the same
        topics drawn once for both).
    """

    frames: Mapping[str, pd.DataFrame]
    groups: Mapping[str, str]
    topics: Mapping[str, list[str]]
    subsets: Mapping[tuple[str, str], list[str]] = field(default_factory=dict)
    drawn_with: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        unknown = sorted(set(self.topics) - set(GROUPS))
        if unknown:
            raise ValueError(f"unknown topic group(s) {unknown}; known: {', '.join(GROUPS)}")
        for name, frame in self.frames.items():
            group = self.groups[name]
            if list(frame.index) != list(self.topics[group]):
                raise ValueError(f"frame {name!r}: its rows are not the topics of group {group!r}")
            if frame.isna().to_numpy().any():
                raise ValueError(f"frame {name!r}: a topic has no score ({frame.columns[frame.isna().any()].tolist()})")
        for (group, name), chosen in self.subsets.items():
            if not set(chosen) <= set(self.topics[group]):
                raise ValueError(f"topic subset {name!r} is not within the topics of group {group!r}")
        for group, parent in self.drawn_with.items():
            if GROUPS.index(parent) >= GROUPS.index(group) or not set(self.topics[group]) <= set(self.topics[parent]):
                raise ValueError(f"group {group!r} cannot be drawn with {parent!r}: not an earlier group holding its topics")

    def merged(self, other: ClaimScores) -> ClaimScores:
        """Put both score sets in one (their groups must not overlap).

        Parameters
        ----------
        other : ClaimScores
            The other set.

        Returns
        -------
        ClaimScores
            The union.

        Raises
        ------
        ValueError
            If a topic group is in both.
        """
        if set(self.topics) & set(other.topics):
            raise ValueError(f"topic groups {sorted(set(self.topics) & set(other.topics))} given twice")
        return ClaimScores({**self.frames, **other.frames}, {**self.groups, **other.groups},
                           {**self.topics, **other.topics}, {**self.subsets, **other.subsets},
                           {**self.drawn_with, **other.drawn_with})  # fmt: skip


@dataclass(frozen=True)
class Resampled:
    """``B`` bootstrap replicates of the topics of every group of ``scores``.

    Parameters
    ----------
    scores : ClaimScores
        The per-topic frames.
    weights : mapping of str -> numpy.ndarray
        ``weights[group]``: (B, n) how often each replicate drew each topic.
    """

    scores: ClaimScores
    weights: Mapping[str, np.ndarray]

    @classmethod
    def draw(cls, scores: ClaimScores, n_resamples: int, seed: int) -> Resampled:
        """Draw topics with replacement, group ``k`` of :data:`GROUPS` with seed ``seed + k``.

        A group drawn with another (:attr:`ClaimScores.drawn_with`) takes that group's draws of its
        topics.

        Parameters
        ----------
        scores : ClaimScores
            The per-topic frames.
        n_resamples : int
            The number B of replicates.
        seed : int
            The seed of the first group.

        Returns
        -------
        Resampled
            The replicates.
        """
        weights: dict[str, np.ndarray] = {}
        for group in (g for g in GROUPS if g in scores.topics):
            parent = scores.drawn_with.get(group)
            if parent is None:
                indices = topic_resamples(len(scores.topics[group]), n_resamples, seed=seed + GROUPS.index(group))
                weights[group] = topic_weights(indices)
            else:
                weights[group] = weights[parent][:, np.isin(scores.topics[parent], scores.topics[group])]
        return cls(scores, weights)

    @classmethod
    def all_topics(cls, scores: ClaimScores) -> Resampled:
        """Make the identity resample (every topic once): the chapter's values, one replicate.

        Parameters
        ----------
        scores : ClaimScores
            The per-topic frames.

        Returns
        -------
        Resampled
            One replicate.
        """
        return cls(scores, {g: identity_weights(len(topics)) for g, topics in scores.topics.items()})

    def _weights(self, frame: str, subset: str | None) -> tuple[np.ndarray, np.ndarray]:
        group = self.scores.groups[frame]
        values = self.scores.frames[frame].to_numpy(dtype=float)
        if subset is None:
            return self.weights[group], values
        mask = np.isin(self.scores.topics[group], self.scores.subsets[(group, subset)])
        return self.weights[group][:, mask], values[mask]

    def means(self, frame: str, *, subset: str | None = None) -> pd.DataFrame:
        """Average every column of ``frame`` over the drawn topics (of ``subset``).

        ``weights @ values / weights.sum()``: on all of a group drawn on its own, the weights of a
        replicate sum to the number of topics (:func:`~irrepro.reproducibility.resampling.resampled_means`);
        on a subset, or a group drawn with another, the mean is over the drawn topics that belong to it
        (NaN where none was drawn).

        Parameters
        ----------
        frame : str
            The frame's name.
        subset : str, optional
            A named topic subset of the frame's group.

        Returns
        -------
        pandas.DataFrame
            Replicates x columns.
        """
        weights, values = self._weights(frame, subset)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.tensordot(weights, values, axes=(1, 0)) / weights.sum(axis=1, keepdims=True)
        return pd.DataFrame(means, columns=self.scores.frames[frame].columns)

    def counts(self, frame: str, condition) -> np.ndarray:
        """Count the drawn topics of ``frame``'s group that satisfy ``condition``, a topic drawn twice twice.

        Parameters
        ----------
        frame : str
            The frame's name.
        condition : numpy.ndarray
            Bools, topics first.

        Returns
        -------
        numpy.ndarray
            (B, ...) counts.
        """
        return np.tensordot(self.weights[self.scores.groups[frame]], np.asarray(condition, dtype=float), axes=(1, 0))

    def paired_p(self, frame: str, differences) -> np.ndarray:
        """Two-tailed paired t-test p-value of per-topic ``differences`` per replicate.

        Parameters
        ----------
        frame : str
            The frame whose group's topics ``differences`` are on.
        differences : numpy.ndarray
            Topics of the group first.

        Returns
        -------
        numpy.ndarray
            (B, ...) p-values.

        Raises
        ------
        ValueError
            If the group is drawn with another.
        """
        group = self.scores.groups[frame]
        if group in self.scores.drawn_with:  # the t-test needs n draws of n topics
            raise ValueError(f"group {group!r} is drawn with {self.scores.drawn_with[group]!r}: no paired t-test on it")
        return paired_t_pvalues(self.weights[group], np.asarray(differences, dtype=float))

    @property
    def size(self) -> int:
        """The number of replicates."""
        return next(iter(self.weights.values())).shape[0]


# --------------------------------------------------------------------------- the published files


def _published_frame(setting: str, runs: Sequence[str], topics: list[str]) -> pd.DataFrame:
    columns = {(run, measure): published_runs.run_scores(setting, run, measure).reindex(topics)
               for run in runs for measure in published_runs.MEASURE_NAMES}  # fmt: skip
    return pd.DataFrame(columns, index=topics)


@cached(maxsize=1)
def published_scores() -> ClaimScores:
    """Read the published per-topic scores the claims on the 2020 runs read (cheap: files only).

    Returns
    -------
    ClaimScores
        ``core17``: the original TREC runs and the 2020 runs of :data:`PUBLISHED_CONSTELLATIONS`
        on the Core17 file's topics, columns (run, measure) with the CLEF paper's measure names;
        ``core18``: the 2020 runs on the Core18 file's topics; ``common``: AP, P@10 and nDCG of
        constellation 1 on the 15 common topics, columns (setting, system, measure). Subsets: the
        CLEF paper's topic sets.
    """
    frames, groups, topics, subsets = {}, {}, {}, {}
    for setting, group in (("replicability", "core17"), ("reproducibility", "core18")):
        prefix = published_runs.SETTINGS[setting][0]
        runs = [run_column(prefix, s, c) for s in SYSTEMS for c in PUBLISHED_CONSTELLATIONS]
        runs = (list(SYSTEMS) if setting == "replicability" else []) + runs
        index = published_runs.run_scores(setting, runs[-1], "MAP").index.astype(str).tolist()
        frames[group], groups[group], topics[group] = _published_frame(setting, runs, index), group, index
        subsets.update({(group, name): chosen for name, chosen in published_runs.topic_sets(setting).items()})
    common = published_runs.common_topics()
    frames["common"] = pd.DataFrame({
        (setting, system, measure): frames[group][(run_column(published_runs.SETTINGS[setting][0], system, 1), measure)]
        .reindex(common).to_numpy()
        for setting, group in (("replicability", "core17"), ("reproducibility", "core18"))
        for system in SYSTEMS for measure in published_runs.MEASURE_NAMES
    }, index=common)  # fmt: skip
    groups["common"], topics["common"] = "common", common
    return ClaimScores(frames, groups, topics, subsets)


# --------------------------------------------------------------------------- the stand-in's run cache


def _ap(data: RoutingData, result, target: str, topics: list[str]) -> np.ndarray:
    """AP per topic of ``result``, which must be scored on exactly ``topics`` (the chapter's means are
    over a run's own topics: on other topics the claims would be read on other numbers)."""
    scores = data.scores(result, target)
    if set(scores.index.astype(str)) != set(topics):
        raise ValueError(f"run {result.run['run'].iat[0]} on {target}: scored on {len(scores)} topics, not on the "
                         f"{len(topics)} topics judged in all four collections; its claims cannot be resampled together")
    return scores.reindex(topics)["AP"].to_numpy(dtype=float)


def _transfer_frames(data: RoutingData, topics: list[str]) -> dict[str, pd.DataFrame]:
    """AP per topic of every ordered pair (target, training), tf-idf from training only and augmented."""
    frames = {}
    for name, augment in (("transfer", False), ("augmented", True)):
        frames[name] = pd.DataFrame({(target, training): _ap(data, data.run((training,), target, augment=augment), target, topics)
                                     for target, training in ordered_pairs()}, index=topics)  # fmt: skip
    return frames


def _system_frame(data: RoutingData, topics: list[str], *, preprocessing: Sequence[bool]) -> pd.DataFrame:
    """AP per topic of both systems' default runs, columns (system, target, preprocess)."""
    return pd.DataFrame({
        (system, target, preprocess): _ap(data, data.system_run(system, target, preprocess=preprocess), target, topics)
        for system in TRAINING_COLLECTIONS for target in (NEAR, FAR) for preprocess in preprocessing
    }, index=topics)  # fmt: skip


def _tolerance_frame(data: RoutingData, topics: list[str]) -> pd.DataFrame:
    """AP per topic of WCrobust0405's default and tol runs on the near target, columns (tol_scale, constellation)."""
    return pd.DataFrame({
        (scale, c.name): _ap(data, data.system_run(TOL_SYSTEM, NEAR, constellation=c, tol_scale=scale), NEAR, topics)
        for scale in ("mean", "sum") for c in TOL_LEVELS
    }, index=topics)  # fmt: skip


def _sigir2020_tolerance_frame(topics: list[str]) -> pd.DataFrame:
    """AP per Core17 topic of the SIGIR 2020 authors' default and tol runs of WCrobust0405, columns constellation."""
    return pd.DataFrame({c.name: published_runs.run_scores("replicability", c.dataset_column(TOL_SYSTEM), "AP")
                         .reindex(topics).to_numpy() for c in TOL_LEVELS}, index=topics)  # fmt: skip


def stand_in_scores(data: RoutingData, equal: RoutingData | None = None) -> ClaimScores:
    """Read the stand-in's per-topic AP the chapter's tables computed, from ``data``'s run cache.

    Parameters
    ----------
    data : RoutingData
        The chapter's routing data and run cache (:class:`~irrepro.papers.clef2019.routing_data.RoutingData`).
    equal : RoutingData, optional
        The targets cut to equal size.

    Returns
    -------
    ClaimScores
        ``stand-in`` (the topics of ``data`` judged in all four collections; on the stand-in
        every kept topic): ``transfer`` and ``augmented`` (Tables 2 and 3), ``systems`` (Tables
        4-6 with and without the preprocessing, Figures 3-4), ``tolerance`` (the ``tol`` runs on
        the mean and the summed loss). ``stand-in equal`` (with ``equal``): ``equal systems``,
        drawn with ``stand-in`` when its topics are among the stand-in's.
    """
    topics = common_stand_in_topics(data)
    frames = {**_transfer_frames(data, topics), "systems": _system_frame(data, topics, preprocessing=(True, False)),
              "tolerance": _tolerance_frame(data, topics)}  # fmt: skip
    groups = dict.fromkeys(frames, "stand-in")
    topic_groups, drawn_with = {"stand-in": topics}, {}
    if equal is not None:
        equal_topics = common_stand_in_topics(equal)
        frames["equal systems"] = _system_frame(equal, equal_topics, preprocessing=(True,))
        groups["equal systems"], topic_groups["stand-in equal"] = "stand-in equal", equal_topics
        if set(equal_topics) <= set(topics):  # the same categories: drawn once for both
            drawn_with["stand-in equal"] = "stand-in"
    return ClaimScores(frames, groups, topic_groups, drawn_with=drawn_with)


def claim_scores(data: RoutingData, equal: RoutingData | None = None) -> ClaimScores:
    """Gather every per-topic frame of the chapter's claims.

    :func:`published_scores` and :func:`stand_in_scores`, with the SIGIR 2020 ``tol`` runs
    (``tolerance sigir2020``) on the Core17 topics.

    Parameters
    ----------
    data : RoutingData
        The chapter's routing data and run cache (:class:`~irrepro.papers.clef2019.routing_data.RoutingData`).
    equal : RoutingData, optional
        The targets cut to equal size.

    Returns
    -------
    ClaimScores
        All of them.
    """
    published = published_scores()
    core17 = published.topics["core17"]
    with_tol = ClaimScores({**published.frames, "tolerance sigir2020": _sigir2020_tolerance_frame(core17)},
                           {**published.groups, "tolerance sigir2020": "core17"}, published.topics, published.subsets)  # fmt: skip
    return with_tol.merged(stand_in_scores(data, equal))
