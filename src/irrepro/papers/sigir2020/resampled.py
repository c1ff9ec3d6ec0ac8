"""The paper's measures on bootstrap replicates of the topics, computed at once from the per-topic scores.

Every measure of the paper's tables is a function of sums over topics (ARP, RMSE, ER, DeltaRI, the
t-tests) or a mean of per-topic values (KTU and RBO, the published per-topic files), so ``B``
replicates of the topics are ``B`` rows of topic weights and each measure is a matrix product
(:mod:`irrepro.reproducibility.resampling`); no run is evaluated again. One replicate resamples the
50 Core17 topics once for every run and constellation (the topics are shared: the pairing of original
and replicated runs is kept) and, independently, the 25 Core18 topics of the reproduced runs. The
weights of the identity resample give the measures of the chapter's tables.

:func:`replicate_measures` returns a :class:`Replicates`: every measure as a ``(B, 50)`` array over
the 50 constellations (in :data:`~irrepro.papers.sigir2020.published_scores.CONSTELLATION_IDS`
order), the twins' p-values and the Figure 1 curves of the 20 printed runs, and Kendall's tau among
the oriented measures (Tables 4 and 5, :mod:`~irrepro.papers.sigir2020.correlation`) per replicate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from irrepro.memo import cached
from irrepro.papers.datasets import ADVANCED, BASELINE, CUTOFFS, SYSTEMS
from irrepro.papers.sigir2020.correlation import CORRELATION_COLUMNS, REPRODUCIBILITY_CORRELATION_COLUMNS
from irrepro.papers.sigir2020.measure_tables import AGREEMENT_DEPTH
from irrepro.papers.sigir2020.published_scores import (
    CONSTELLATION_IDS,
    MEASURES,
    PRINTED_IDS,
    agreement_per_topic,
    replicated_runs,
    reproduced_runs,
)
from irrepro.reproducibility.resampling import (
    kendall_tau_b,
    paired_t_pvalues,
    recentred,
    resampled_means,
    resampled_rmse,
    student_t_pvalues,
)

__all__ = ["PRINTED_POSITIONS", "TopicScores", "Replicates", "topic_scores", "replicate_measures", "printed"]

#: Where each printed constellation (tf_1 ... C_5) sits among the 50 constellations.
PRINTED_POSITIONS: tuple[int, ...] = tuple(CONSTELLATION_IDS.index(k) for k in PRINTED_IDS)


@dataclass(frozen=True)
class TopicScores:
    """The per-topic arrays the measures are computed from, topics on the first axis.

    Parameters
    ----------
    replicated : dict of (system, measure) -> (numpy.ndarray, numpy.ndarray)
        (original on Core17 (50,), the 50 replicated runs (50, 50)).
    agreement : dict of (system, statistic) -> numpy.ndarray
        ``(system, "KTU" | "RBO")``: the published per-topic values at depth 1000 (50, 50).
    reproduced : dict of (system, measure) -> (numpy.ndarray, numpy.ndarray)
        (original on Core17 (50,), the 50 reproduced runs on Core18 (25, 50)).
    cutoff_ktu : numpy.ndarray
        (50, cutoffs, 20): Figure 1's KTU, WCrobust04.
    cutoff_ndcg : tuple of numpy.ndarray
        ((50, cutoffs), (50, cutoffs, 20)): Figure 1's nDCG@k, original and printed runs, WCrobust04.
    """

    replicated: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]
    agreement: dict[tuple[str, str], np.ndarray]
    reproduced: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]
    cutoff_ktu: np.ndarray
    cutoff_ndcg: tuple[np.ndarray, np.ndarray]

    @property
    def n_core17(self) -> int:
        """The number of Core17 topics."""
        return self.agreement[(BASELINE, "KTU")].shape[0]

    @property
    def n_core18(self) -> int:
        """The number of Core18 topics."""
        return self.reproduced[(BASELINE, "AP")][1].shape[0]


@cached(maxsize=1)
def topic_scores() -> TopicScores:
    """Read the published per-topic scores as arrays (:class:`TopicScores`).

    Returns
    -------
    TopicScores
        The arrays.

    Raises
    ------
    ValueError
        If the Core17 topics of the files are not the same, in the same order.
    """
    replicated, reproduced, topics = {}, {}, {}
    for system in SYSTEMS:
        for label, part in MEASURES.items():
            original, runs = replicated_runs(system, part)
            org, rpd = reproduced_runs(system, part)
            topics[f"rpl {system} {part}"], topics[f"org {system} {part}"] = runs.index, org.index
            replicated[(system, label)] = (original.to_numpy(), runs.to_numpy())
            reproduced[(system, label)] = (org.to_numpy(), rpd.to_numpy())
    agreement = {}
    for system in SYSTEMS:
        for statistic in ("KTU", "RBO"):
            frame = agreement_per_topic(system, statistic, AGREEMENT_DEPTH)
            topics[f"{statistic} {system}"], agreement[(system, statistic)] = frame.index, frame.to_numpy()
    ktu, ndcg_original, ndcg_runs = [], [], []
    for cutoff in CUTOFFS:
        frame = agreement_per_topic(BASELINE, "KTU", cutoff, PRINTED_IDS)
        original, runs = replicated_runs(BASELINE, f"ndcg{cutoff}", PRINTED_IDS)
        topics[f"KTU@{cutoff}"], topics[f"nDCG@{cutoff}"] = frame.index, runs.index
        ktu.append(frame.to_numpy()), ndcg_original.append(original.to_numpy()), ndcg_runs.append(runs.to_numpy())
    first = next(iter(topics.values()))
    differing = [name for name, index in topics.items() if not index.equals(first)]
    if differing:
        raise ValueError(f"the Core17 topics of {', '.join(differing)} differ from those of the other files")
    return TopicScores(replicated, agreement, reproduced, np.stack(ktu, axis=1),
                       (np.stack(ndcg_original, axis=1), np.stack(ndcg_runs, axis=1)))  # fmt: skip


@dataclass(frozen=True)
class Replicates:
    """The paper's measures on ``B`` replicates, named as the tables name them; arrays (B, 50 constellations).

    Parameters
    ----------
    replicability : dict of str -> dict of str -> numpy.ndarray
        ``[system]``: ``ARP:<m>``, ``DeltaARP:<m>``, ``KTU``, ``RBO``, ``RMSE:<m>``, ``p:<m>``.
    reproducibility : dict of str -> dict of str -> numpy.ndarray
        ``[system]``: ``ARP:<m>``, ``p:<m>``.
    effects : dict of str -> dict of str -> numpy.ndarray
        ``["rpl" | "rpd"]``: ``ER:<m>``, ``DeltaRI:<m>``.
    twins : dict of str -> numpy.ndarray
        ``["p:<m>:<system>"]``: (B, 20 printed).
    cutoffs : dict of str -> numpy.ndarray
        ``["KTU" | "RMSE:nDCG"]``: (B, cutoffs, 20 printed).
    table4 : dict of str -> numpy.ndarray
        ``[system]``: (B, 14, 14) Kendall's tau among the oriented replicability measures.
    table5 : dict of str -> numpy.ndarray
        ``[system]``: (B, 6, 6) Kendall's tau among the oriented reproducibility measures; columns as
        in :mod:`~irrepro.papers.sigir2020.correlation`.
    on_all_topics : Replicates, optional
        The measures on all topics (one replicate), for the checks that recentre their statistic on
        its value there (:meth:`moved`); ``None``: nothing is recentred.
    """

    replicability: dict[str, dict[str, np.ndarray]]
    reproducibility: dict[str, dict[str, np.ndarray]]
    effects: dict[str, dict[str, np.ndarray]]
    twins: dict[str, np.ndarray]
    cutoffs: dict[str, np.ndarray]
    table4: dict[str, np.ndarray]
    table5: dict[str, np.ndarray]
    on_all_topics: Replicates | None = None

    @property
    def n_resamples(self) -> int:
        """The number B of replicates."""
        return self.effects["rpl"]["ER:AP"].shape[0]

    def moved(self, statistic: Callable[[Replicates], np.ndarray], *, bounds: tuple[float, float] | None = None) -> np.ndarray:
        """Compute ``statistic`` on every replicate, recentred on its value on all topics if they are known.

        For statistics that the bootstrap biases (Kendall's tau among per-run measures and what is
        built on it): :func:`~irrepro.reproducibility.resampling.recentred`.

        Parameters
        ----------
        statistic : callable
            ``statistic(replicates) -> (B,)`` array.
        bounds : tuple of (float, float), optional
            The statistic's range, to clip the moved replicates to.

        Returns
        -------
        numpy.ndarray
            (B,) the statistic, recentred when :attr:`on_all_topics` is set.
        """
        values = statistic(self)
        if self.on_all_topics is None:
            return values
        return recentred(values, statistic(self.on_all_topics)[0], bounds=bounds)

    def tau(self, table: str, system: str, first: str, second: str) -> np.ndarray:
        """Give Kendall's tau between two oriented measures of Table 4 or 5 on every replicate.

        Parameters
        ----------
        table : {"table4", "table5"}
            The table.
        system : str
            The run.
        first, second : str
            The two measures, as the table names them.

        Returns
        -------
        numpy.ndarray
            (B,) tau.
        """
        columns = CORRELATION_COLUMNS if table == "table4" else REPRODUCIBILITY_CORRELATION_COLUMNS
        return getattr(self, table)[system][:, columns.index(first), columns.index(second)]


def printed(values: np.ndarray) -> np.ndarray:
    """Pick the 20 printed constellations (tf_1 ... C_5) of a (B, 50) array.

    Parameters
    ----------
    values : numpy.ndarray
        (B, 50 constellations).

    Returns
    -------
    numpy.ndarray
        (B, 20).
    """
    return values[:, list(PRINTED_POSITIONS)]


def _replicability(scores: TopicScores, weights: np.ndarray, system: str) -> dict[str, np.ndarray]:
    measures: dict[str, np.ndarray] = {}
    for label in MEASURES:
        original, runs = scores.replicated[(system, label)]
        measures[f"ARP:{label}"] = resampled_means(weights, runs)
        measures[f"DeltaARP:{label}"] = np.abs(resampled_means(weights, original)[:, None] - measures[f"ARP:{label}"])
    for statistic in ("KTU", "RBO"):
        measures[statistic] = resampled_means(weights, scores.agreement[(system, statistic)])
    for label in MEASURES:
        original, runs = scores.replicated[(system, label)]
        measures[f"RMSE:{label}"] = resampled_rmse(weights, original, runs)
        measures[f"p:{label}"] = paired_t_pvalues(weights, original[:, None] - runs)
    return measures


def _reproducibility(scores: TopicScores, core17: np.ndarray, core18: np.ndarray, system: str) -> dict[str, np.ndarray]:
    measures: dict[str, np.ndarray] = {}
    for label in MEASURES:
        original, runs = scores.reproduced[(system, label)]
        measures[f"ARP:{label}"] = resampled_means(core18, runs)
        measures[f"p:{label}"] = student_t_pvalues(core17, original, core18, runs)
    return measures


def _effects(scores: TopicScores, core17: np.ndarray, core18: np.ndarray, setting: str) -> dict[str, np.ndarray]:
    """ER (Eq. 5 / 7) and DeltaRI (Eq. 6) of every constellation pair, WCrobust0405 over WCrobust04."""
    source, new_weights = (scores.replicated, core17) if setting == "rpl" else (scores.reproduced, core18)
    measures: dict[str, np.ndarray] = {}
    for label in MEASURES:
        (orig_adv, new_adv), (orig_base, new_base) = source[(ADVANCED, label)], source[(BASELINE, label)]
        orig_a, orig_b = resampled_means(core17, orig_adv)[:, None], resampled_means(core17, orig_base)[:, None]
        new_a, new_b = resampled_means(new_weights, new_adv), resampled_means(new_weights, new_base)
        with np.errstate(invalid="ignore", divide="ignore"):
            measures[f"ER:{label}"] = (new_a - new_b) / (orig_a - orig_b)
            measures[f"DeltaRI:{label}"] = (orig_a - orig_b) / orig_b - (new_a - new_b) / new_b
    return {name: measures[name] for name in sorted(measures, key=lambda n: n.startswith("DeltaRI"))}


def _oriented(measures: dict[str, np.ndarray], effects: dict[str, np.ndarray], columns) -> np.ndarray:
    """(B, 50, columns): lower is better, as the paper orients before correlating (Section 5.3)."""
    oriented = []
    for column in columns:
        if column in ("KTU", "RBO"):
            oriented.append(1.0 - measures[column])
        elif column.startswith("p:"):
            oriented.append(-measures[column])
        elif column.startswith("ER:"):
            oriented.append(np.abs(1.0 - effects[column]))
        else:
            oriented.append(measures[column])
    return np.stack(oriented, axis=2)


def _twins(scores: TopicScores, core17: np.ndarray, core18: np.ndarray) -> dict[str, np.ndarray]:
    """Unpaired t-test p-values of each printed replicated run (Core17) against its reproduced twin (Core18)."""
    positions = list(PRINTED_POSITIONS)
    return {
        f"p:{label}:{system}": student_t_pvalues(core17, scores.replicated[(system, label)][1][:, positions],
                                                 core18, scores.reproduced[(system, label)][1][:, positions])
        for system in SYSTEMS for label in MEASURES
    }  # fmt: skip


def replicate_measures(core17: np.ndarray, core18: np.ndarray) -> Replicates:
    """Compute every measure of the paper on the replicates given by topic weights.

    The weights of :func:`irrepro.reproducibility.resampling.topic_weights`; the identity weights give
    the measures of the chapter's tables.

    Parameters
    ----------
    core17 : numpy.ndarray
        (B, 50) weights of the Core17 topics.
    core18 : numpy.ndarray
        (B, 25) weights of the Core18 topics.

    Returns
    -------
    Replicates
        The measures.

    Raises
    ------
    ValueError
        If the weights do not fit the topics or differ in B.
    """
    scores = topic_scores()
    if core17.shape[1] != scores.n_core17 or core18.shape[1] != scores.n_core18 or len(core17) != len(core18):
        raise ValueError(f"weights {core17.shape} and {core18.shape} do not fit {scores.n_core17} Core17 and "
                         f"{scores.n_core18} Core18 topics with one row per replicate")  # fmt: skip
    replicability = {system: _replicability(scores, core17, system) for system in SYSTEMS}
    reproducibility = {system: _reproducibility(scores, core17, core18, system) for system in SYSTEMS}
    effects = {setting: _effects(scores, core17, core18, setting) for setting in ("rpl", "rpd")}
    ndcg_original, ndcg_runs = scores.cutoff_ndcg
    cutoffs = {"KTU": resampled_means(core17, scores.cutoff_ktu),
               "RMSE:nDCG": resampled_rmse(core17, ndcg_original[:, :, None], ndcg_runs)}  # fmt: skip
    table4 = {s: kendall_tau_b(_oriented(replicability[s], effects["rpl"], CORRELATION_COLUMNS)) for s in SYSTEMS}
    table5 = {s: kendall_tau_b(_oriented(reproducibility[s], effects["rpd"], REPRODUCIBILITY_CORRELATION_COLUMNS))
              for s in SYSTEMS}  # fmt: skip
    return Replicates(replicability, reproducibility, effects, _twins(scores, core17, core18), cutoffs, table4, table5)
