"""The numbers of a reproducibility report, each computed by the package's own measures.

For the original pair (baseline b, advanced a) and each reproduced pair (b', a'):

- :func:`irrepro.reproducibility.compare.compare_pairs` (``compare_runs`` for several pairs): every
  measure of Breuer et al., SIGIR 2020, exactly the numbers ``irrepro compare --format json`` prints
  for the same files;
- one bootstrap resampling of the topics for the whole report (:func:`~irrepro.reproducibility.replicates.draw_topics`,
  ``--bootstrap`` resamples, ``--seed``): every statistic of every pair on the same topic draws
  (:func:`~irrepro.reproducibility.replicates.comparison_replicates`), from which come the percentile
  intervals of each level -- mean KTU and mean RBO, RMSE, the difference of mean scores and the
  t-test's p-value, ER and DeltaRI -- and the share of resamples in which each verdict holds
  (:mod:`irrepro.report.verdicts`); one draw for all four runs in the replicability setting, the new
  collection's topics drawn independently in reproducibility;
- the paper's Figure 1: mean KTU, mean RBO and RMSE of nDCG@k against the cut-off k
  (:func:`~irrepro.reproducibility.ranking.ranking_measures`, :func:`~irrepro.reproducibility.scores.rmse`;
  ``irrepro compare --cutoff k --measures nDCG@k`` gives the same numbers);
- diagnostics: the topics with the largest score differences and how many of their top-10
  documents the runs share, tied scores, run depths and the topics each qrels file covers.

Everything here takes frames (as :func:`irrepro.runs.read_run` returns them, or in ir_datasets' or
PyTerrier's columns: :func:`irrepro.runs.as_run_frame`) and returns frames or dataclasses; nothing
reads or writes files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from irrepro.evaluation import MissingTopicReport, missing_topic_report
from irrepro.metadata import PairExperiment
from irrepro.reproducibility import ranking, scores
from irrepro.reproducibility.bootstrap import ConfidenceInterval
from irrepro.reproducibility.compare import (
    KINDS,
    ROLES,
    Comparison,
    compare_pairs,
    compare_runs,
)
from irrepro.reproducibility.replicates import TopicDraws, comparison_replicates, draw_topics
from irrepro.reproducibility.resampling import percentile_interval
from irrepro.runs import as_run_frame

__all__ = [
    "CURVE_CUTOFFS",
    "KINDS",
    "PairAnalysis",
    "ReportData",
    "ReportOptions",
    "RunSummary",
    "analyse",
    "analyse_pair",
    "confidence_intervals",
    "curve_measures",
    "cutoff_curves",
    "report_draws",
    "largest_differences",
    "summarise_run",
    "top_overlap",
]

CURVE_CUTOFFS: tuple[int, ...] = (5, 10, 20, 50, 100, 1000)  # the paper's Figure 1


@dataclass(frozen=True)
class ReportOptions:
    """How the report measures: ``compare``'s options plus the bootstrap and the diagnostics.

    Intervals are ``1 - alpha`` percentile intervals; a p-value below ``alpha`` is marked as a
    significant difference between original and new run.

    Parameters
    ----------
    measures : tuple of str, default ("AP", "P@10", "nDCG")
        Effectiveness measures, as for :func:`~irrepro.reproducibility.compare.compare_runs`.
    cutoff : int, default 1000
        The depth of KTU and RBO.
    rbo_p : float, default 0.8
        RBO's persistence.
    rbo_variant : {"ext", "min", "trunc", "sigir2020"}
        How RBO treats the lists' end.
    missing_topics : {"zero", "drop"}
        The missing-topic policy of the evaluation.
    no_relevant : {"drop", "keep"}
        What becomes of topics without a relevant document.
    n_resamples : int, default 1000
        The number of topic resamples.
    seed : int, default 0
        The seed of the resampling.
    alpha : float, default 0.05
        The significance level; intervals are at ``1 - alpha``.
    curve_cutoffs : tuple of int, default CURVE_CUTOFFS
        The cut-offs of the replicability curves (the paper's Figure 1).
    n_diagnostic_topics : int, default 10
        How many topics :func:`largest_differences` lists.
    overlap_depth : int, default 10
        The depth of :func:`top_overlap` in the diagnostics.
    """

    measures: tuple[str, ...] = ("AP", "P@10", "nDCG")
    cutoff: int = 1000
    rbo_p: float = 0.8
    rbo_variant: str = "ext"
    missing_topics: str = "zero"
    no_relevant: str = "drop"
    n_resamples: int = 1000
    seed: int = 0
    alpha: float = 0.05
    curve_cutoffs: tuple[int, ...] = CURVE_CUTOFFS
    n_diagnostic_topics: int = 10
    overlap_depth: int = 10

    @property
    def level(self) -> float:
        """The intervals' confidence level, ``1 - alpha``."""
        return 1.0 - self.alpha

    def compare_options(self) -> dict:
        """Give the keyword arguments of :func:`compare_runs` (and of ``irrepro compare``).

        Returns
        -------
        dict
            Option name -> value.
        """
        return {
            "measures": tuple(self.measures), "cutoff": self.cutoff, "rbo_p": self.rbo_p,
            "rbo_variant": self.rbo_variant, "missing_topics": self.missing_topics, "no_relevant": self.no_relevant,
        }  # fmt: skip


# An interval key: (statistic, run kind or "", measure or ""), e.g. ("ER", "", "AP"),
# ("KTU", "baseline", ""), ("RMSE", "advanced", "P@10"), ("DeltaARP", "baseline", "nDCG").
IntervalKey = tuple[str, str, str]


@dataclass
class PairAnalysis:
    """Everything the report shows about one reproduced pair.

    Parameters
    ----------
    name : str
        The pair's name.
    comparison : Comparison
        :func:`~irrepro.reproducibility.compare.compare_runs`' result for the pair.
    intervals : dict of (statistic, run, measure) -> ConfidenceInterval or str
        Each statistic's interval, or why it is undefined.
    replicates : dict of (statistic, run, measure) -> numpy.ndarray, optional
        Each statistic on the report's resamples.
    curves : pandas.DataFrame, optional
        Replicability: run, cutoff, KTU, RBO, RMSE (of nDCG@k).
    largest_differences : dict of str -> pandas.DataFrame, optional
        Run kind -> :func:`largest_differences`' frame.
    """

    name: str
    comparison: Comparison
    intervals: dict[IntervalKey, ConfidenceInterval | str]  # str: why it is undefined
    replicates: dict[IntervalKey, np.ndarray] = field(default_factory=dict)  # each statistic on the report's resamples
    curves: pd.DataFrame | None = None  # replicability: run, cutoff, KTU, RBO, RMSE (of nDCG@k)
    largest_differences: dict[str, pd.DataFrame] = field(default_factory=dict)  # kind -> frame

    def frame(self) -> pd.DataFrame:
        """Give the pair's result (:meth:`Comparison.to_frame`) with the bounds of its intervals.

        Returns
        -------
        pandas.DataFrame
            As :meth:`Comparison.to_frame` returns it.
        """
        return self.comparison.to_frame(self.intervals)


@dataclass(frozen=True)
class RunSummary:
    """Shape of one run file's ranking: topics, documents per topic, ties in the top ``depth``.

    Parameters
    ----------
    tag : str
        The run's tag.
    n_topics : int
        How many topics it lists.
    min_depth, max_depth : int
        The fewest and most documents a topic lists.
    tied_topics : int
        How many topics have tied scores in their top ``depth``.
    tied_documents : int
        How many documents are tied there, over all topics.
    depth : int
        The depth looked at.
    """

    tag: str
    n_topics: int
    min_depth: int
    max_depth: int
    tied_topics: int
    tied_documents: int
    depth: int


@dataclass
class ReportData:
    """All numbers of a report: the pairs, the runs' shapes and the qrels' topic coverage.

    Parameters
    ----------
    setting : {"replicability", "reproducibility"}
        Same collection or another one.
    options : ReportOptions
        How the numbers were computed.
    pairs : list of PairAnalysis
        One per reproduced pair.
    runs : dict of (pair name, role) -> RunSummary
        Each run's shape; pair ``""`` for the originals.
    coverage : dict of str -> MissingTopicReport
        ``"original"`` and each pair name -> its report of missing topics.
    draws : TopicDraws, optional
        The topic resamples every pair's intervals and verdict shares come from.
    experiments : dict of str -> PairExperiment, optional
        Pair name -> what its ir_metadata headers say it is.
    """

    setting: str
    options: ReportOptions
    pairs: list[PairAnalysis]
    runs: dict[tuple[str, str], RunSummary]  # (pair name, role) -> summary; pair "" for the originals
    coverage: dict[str, MissingTopicReport]  # "original" and each pair name -> report
    draws: TopicDraws | None = None  # the topic resamples every pair's intervals and verdict shares come from
    experiments: dict[str, PairExperiment] = field(default_factory=dict)  # pair name -> what its headers say


# --------------------------------------------------------------------------- intervals


def report_draws(comparisons: Sequence[Comparison], options: ReportOptions) -> TopicDraws:
    """Draw the report's one resampling of the topics.

    Every topic a pair has a score or a KTU for, on the original collection (and, for
    reproducibility, on the new one).

    Parameters
    ----------
    comparisons : sequence of Comparison
        Every pair's result.
    options : ReportOptions
        ``options.n_resamples`` draws seeded by ``options.seed``.

    Returns
    -------
    TopicDraws
        The resamples.
    """
    original, new = set(), set()
    for comparison in comparisons:
        for per_topic in comparison.per_topic.values():
            for role in per_topic.columns:
                side = original if comparison.setting == "replicability" or role.startswith("orig") else new
                side.update(per_topic.index[per_topic[role].notna()])
        for series in (*(comparison.ktu or {}).values(), *(comparison.rbo or {}).values()):
            original.update(series.index)
    new_topics = new if comparisons[0].setting == "reproducibility" else None
    return draw_topics(original, options.n_resamples, seed=options.seed, new_topics=new_topics)


def _why(comparison: Comparison, key: IntervalKey) -> str:
    """Why a statistic is undefined: compare_runs' note on it."""
    statistic, run, measure = key
    label = {"p": f"p-value {run} {measure}", "DeltaARP": "ARP"}.get(statistic, " ".join(part for part in key if part))
    return next((note for note in comparison.notes if note.startswith(label)), f"{statistic} is undefined")


def confidence_intervals(comparison: Comparison, replicates: Mapping[IntervalKey, np.ndarray],
                         options: ReportOptions) -> dict[IntervalKey, ConfidenceInterval | str]:  # fmt: skip
    """Give the ``1 - alpha`` percentile interval of every statistic the verdicts read.

    The estimate is ``compare_runs``' value. Resamples where the statistic is undefined are left out
    and counted (``n_undefined``); an undefined statistic gets the reason instead of an interval.

    Parameters
    ----------
    comparison : Comparison
        The pair's result.
    replicates : mapping of (statistic, run, measure) -> numpy.ndarray
        Each statistic on the resamples
        (:func:`~irrepro.reproducibility.replicates.comparison_replicates`).
    options : ReportOptions
        Its ``alpha``, ``n_resamples`` and ``seed``.

    Returns
    -------
    dict of (statistic, run, measure) -> ConfidenceInterval or str
        The interval, or why the statistic is undefined.
    """
    values = comparison.to_frame().set_index(["statistic", "run", "measure"])["value"]
    out: dict[IntervalKey, ConfidenceInterval | str] = {}
    for key, replicate in replicates.items():
        finite = np.isfinite(replicate)
        if np.isnan(values[key]):
            out[key] = _why(comparison, key)
        elif not finite.any():
            out[key] = "the statistic is undefined in every bootstrap resample"
        else:
            low, high = percentile_interval(replicate, options.level)
            out[key] = ConfidenceInterval(float(values[key]), low, high, options.level, len(replicate), int((~finite).sum()), options.seed)
    return out


# --------------------------------------------------------------------------- Figure 1


def _mean(values: pd.Series) -> float:
    """Mean over the topics with a value, as ``Comparison.to_json`` reports KTU and RBO."""
    return float(values.mean()) if values.notna().any() else float("nan")


def curve_measures(options: ReportOptions) -> tuple[str, ...]:
    """Give the measures of Figure 1's RMSE: nDCG@k at each cut-off k.

    Parameters
    ----------
    options : ReportOptions
        Its ``curve_cutoffs``.

    Returns
    -------
    tuple of str
        ``nDCG@k`` names.
    """
    return tuple(f"nDCG@{k}" for k in options.curve_cutoffs)


def cutoff_curves(
    original: Mapping[str, pd.DataFrame],
    pairs: Mapping[str, tuple[pd.DataFrame, pd.DataFrame]],
    comparisons: Mapping[str, Comparison],
    options: ReportOptions,
) -> pd.DataFrame:
    """Mean KTU, mean RBO and RMSE of nDCG@k at each cut-off k (replicability; the paper's Figure 1).

    At cut-off k the numbers are those of ``compare_runs(..., cutoff=k, measures=("nDCG@k",))``,
    NaN where undefined. Each (kind, k) ranks all pairs in one pass; at ``options.cutoff`` the
    comparisons' KTU and RBO are used as they are.

    Parameters
    ----------
    original : mapping of str -> pandas.DataFrame
        ``orig_baseline`` and ``orig_advanced`` -> run frames.
    pairs : mapping of str -> (pandas.DataFrame, pandas.DataFrame)
        A pair's name -> its (new baseline, new advanced).
    comparisons : mapping of str -> Comparison
        A pair's name -> its result of :func:`~irrepro.reproducibility.compare.compare_pairs` at
        ``options.cutoff`` with ``evaluate_also=curve_measures(options)``.
    options : ReportOptions
        Its ``curve_cutoffs`` and RBO options.

    Returns
    -------
    pandas.DataFrame
        One row per (pair, run kind, cut-off).
    """
    names = list(pairs)
    rows = []
    for kind in KINDS:
        position = KINDS.index(kind)
        for k in options.curve_cutoffs:
            if k == options.cutoff:
                ranked = {m: pd.DataFrame({name: getattr(comparisons[name], m.lower())[kind] for name in names}) for m in ("KTU", "RBO")}
            else:
                ranked = ranking.ranking_measures(
                    original[f"orig_{kind}"], {name: pairs[name][position] for name in names}, depth=k,
                    rbo_p=options.rbo_p, rbo_variant=options.rbo_variant, measures=("KTU", "RBO"),
                )  # fmt: skip
            for name in names:
                scored = comparisons[name].per_topic[f"nDCG@{k}"]
                rows.append({
                    "pair": name, "run": kind, "cutoff": k, "KTU": _mean(ranked["KTU"][name]), "RBO": _mean(ranked["RBO"][name]),
                    "RMSE": _rmse(scored[f"orig_{kind}"], scored[f"new_{kind}"]),
                })  # fmt: skip
    return pd.DataFrame(rows)


def _rmse(original: pd.Series, new: pd.Series) -> float:
    try:
        return scores.rmse(original, new)  # one pair at a time: the very computation compare_runs makes
    except ValueError:
        return float("nan")


# --------------------------------------------------------------------------- diagnostics


def top_overlap(original: pd.DataFrame, new: pd.DataFrame, *, depth: int = 10) -> pd.Series:
    """Count per topic how many documents the top ``depth`` of both runs share (0 .. depth).

    Topics of either run; a topic one run lacks shares nothing.

    Parameters
    ----------
    original, new : pandas.DataFrame
        Run frames.
    depth : int, default 10
        The depth compared.

    Returns
    -------
    pandas.Series
        The shared count, indexed by topic.
    """
    columns = ["query_id", "doc_id"]
    top_original = original.loc[original["rank"] <= depth, columns]
    top_new = new.loc[new["rank"] <= depth, columns]
    shared = top_original.merge(top_new, on=columns).groupby("query_id").size()
    topics = pd.Index(sorted(set(top_original["query_id"]) | set(top_new["query_id"])), name="query_id")
    return shared.reindex(topics, fill_value=0).astype(int).rename(f"overlap@{depth}")


def largest_differences(comparison: Comparison, runs: Mapping[str, pd.DataFrame], kind: str, options: ReportOptions) -> pd.DataFrame:
    """Find the topics on which the new ``kind`` run's score differs most from the original's.

    Ordered by the absolute difference in the first measure (ties by topic), at most
    ``options.n_diagnostic_topics`` rows.

    Parameters
    ----------
    comparison : Comparison
        The pair's result, with its per-topic scores and KTU, RBO.
    runs : mapping of str -> pandas.DataFrame
        The four roles -> run frames.
    kind : {"baseline", "advanced"}
        The run kind.
    options : ReportOptions
        Its ``n_diagnostic_topics`` and ``overlap_depth``.

    Returns
    -------
    pandas.DataFrame
        Columns ``original`` and ``new`` (first measure), ``delta:<m>`` (new - original) for every
        measure, ``overlap`` (shared top documents), and the topic's ``KTU`` and ``RBO``.
    """
    first = comparison.measures[0]
    scored = comparison.per_topic[first]
    frame = pd.DataFrame({"original": scored[f"orig_{kind}"], "new": scored[f"new_{kind}"]})
    for m in comparison.measures:
        t = comparison.per_topic[m]
        frame[f"delta:{m}"] = t[f"new_{kind}"] - t[f"orig_{kind}"]
    overlap = top_overlap(runs[f"orig_{kind}"], runs[f"new_{kind}"], depth=options.overlap_depth)
    frame["overlap"] = overlap.reindex(frame.index, fill_value=0).to_numpy()
    frame["KTU"] = comparison.ktu[kind].reindex(frame.index).to_numpy()
    frame["RBO"] = comparison.rbo[kind].reindex(frame.index).to_numpy()
    frame = frame.sort_index()
    order = np.argsort(-frame[f"delta:{first}"].abs().fillna(-1).to_numpy(), kind="stable")
    return frame.iloc[order[: options.n_diagnostic_topics]]


def summarise_run(frame: pd.DataFrame, *, depth: int) -> RunSummary:
    """Count topics, documents per topic and tied scores among each topic's top ``depth`` documents.

    Tied documents are ranked by docno (descending), as trec_eval does: their order says
    nothing about the system, yet KTU and RBO read it.

    Parameters
    ----------
    frame : pandas.DataFrame
        A run frame.
    depth : int
        How deep to look for ties.

    Returns
    -------
    RunSummary
        The run's shape.
    """
    sizes = frame.groupby("query_id").size()
    top = frame.loc[frame["rank"] <= depth, ["query_id", "score"]]
    tied = top.duplicated(keep=False).to_numpy()
    tags = frame["run"].unique() if "run" in frame.columns else []
    return RunSummary(
        tag=str(tags[-1]) if len(tags) else "",
        n_topics=len(sizes),
        min_depth=int(sizes.min()) if len(sizes) else 0,
        max_depth=int(sizes.max()) if len(sizes) else 0,
        tied_topics=int(top.loc[tied, "query_id"].nunique()),
        tied_documents=int(tied.sum()),
        depth=depth,
    )


# --------------------------------------------------------------------------- the whole report


def analyse_pair(name: str, runs: Mapping[str, pd.DataFrame], qrels: pd.DataFrame, *, new_qrels: pd.DataFrame | None = None,
                 options: ReportOptions = ReportOptions()) -> PairAnalysis:  # fmt: skip
    """Compute every number of one pair but its cut-off curves (:func:`analyse` computes those for all pairs).

    Parameters
    ----------
    name : str
        The pair's name.
    runs : mapping of str -> pandas.DataFrame
        The four :data:`~irrepro.reproducibility.compare.ROLES` -> run frames.
    qrels : pandas.DataFrame
        The original collection's judgments.
    new_qrels : pandas.DataFrame, optional
        The new collection's judgments (reproducibility).
    options : ReportOptions, default ReportOptions()
        How to measure.

    Returns
    -------
    PairAnalysis
        The pair's numbers.
    """
    runs = {role: as_run_frame(runs[role], role) for role in ROLES}  # trec_eval's order; PyTerrier's columns renamed
    comparison = compare_runs(**runs, qrels=qrels, new_qrels=new_qrels, **options.compare_options())
    return _pair_analysis(name, comparison, runs, report_draws([comparison], options), options)


def _pair_analysis(name: str, comparison: Comparison, runs: Mapping[str, pd.DataFrame], draws: TopicDraws,
                   options: ReportOptions) -> PairAnalysis:  # fmt: skip
    replicates = comparison_replicates(comparison, draws)
    analysis = PairAnalysis(name, comparison, confidence_intervals(comparison, replicates, options), replicates)
    if comparison.setting == "replicability":
        analysis.largest_differences = {kind: largest_differences(comparison, runs, kind, options) for kind in KINDS}
    return analysis


def analyse(
    original: Mapping[str, pd.DataFrame],
    pairs: Sequence[tuple[str, pd.DataFrame, pd.DataFrame]],
    qrels: pd.DataFrame,
    *,
    new_qrels: pd.DataFrame | None = None,
    options: ReportOptions = ReportOptions(),
    experiments: Mapping[str, PairExperiment] | None = None,
) -> ReportData:
    """Compute the report's numbers.

    Parameters
    ----------
    original : mapping of str -> pandas.DataFrame
        ``orig_baseline`` and ``orig_advanced`` -> run frames.
    pairs : sequence of (str, pandas.DataFrame, pandas.DataFrame)
        ``(name, new_baseline, new_advanced)`` of each reproduced pair.
    qrels : pandas.DataFrame
        The original collection's judgments.
    new_qrels : pandas.DataFrame, optional
        The new collection's judgments (reproducibility); without them, replicability.
    options : ReportOptions, default ReportOptions()
        How to measure.
    experiments : mapping of str -> PairExperiment, optional
        What each pair's ir_metadata headers say it is
        (:func:`irrepro.metadata.pair_experiment`), for the methods text.

    Returns
    -------
    ReportData
        All numbers of the report.

    Raises
    ------
    ValueError
        If no pair is given or two pairs share a name.
    """
    if not pairs:
        raise ValueError("report: no reproduced pair given")
    # The diagnostics (ties, top-10 overlap) read the runs in trec_eval's order, as compare_pairs does;
    # frames in PyTerrier's columns are renamed (runs.as_run_frame).
    original = {role: as_run_frame(original[role], role) for role in ROLES[:2]}
    pairs = [(name, as_run_frame(b, f"{name} baseline"), as_run_frame(a, f"{name} advanced")) for name, b, a in pairs]
    names = [name for name, _, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError(f"report: pair names must be unique, got {names}")
    new_pairs = {name: (baseline, advanced) for name, baseline, advanced in pairs}
    # One call for all pairs: the original runs are evaluated and coded once (same numbers as compare_runs).
    comparisons = compare_pairs(orig_baseline=original["orig_baseline"], orig_advanced=original["orig_advanced"], pairs=new_pairs,
                                qrels=qrels, new_qrels=new_qrels,
                                evaluate_also=curve_measures(options) if new_qrels is None else (), **options.compare_options())  # fmt: skip
    summaries = {("", role): summarise_run(original[role], depth=options.cutoff) for role in ROLES[:2]}
    coverage = {"original": missing_topic_report(dict(original), qrels, missing_topics=options.missing_topics,
                                                     no_relevant=options.no_relevant)}  # fmt: skip
    draws = report_draws(list(comparisons.values()), options)  # one resampling for every pair and measure
    analyses = []
    for name, (new_baseline, new_advanced) in new_pairs.items():
        runs = {**original, "new_baseline": new_baseline, "new_advanced": new_advanced}
        analyses.append(_pair_analysis(name, comparisons[name], runs, draws, options))
        for role in ROLES[2:]:
            summaries[(name, role)] = summarise_run(runs[role], depth=options.cutoff)
        new_runs = {role: runs[role] for role in ROLES[2:]}
        coverage[name] = missing_topic_report(new_runs, qrels if new_qrels is None else new_qrels,
                                              missing_topics=options.missing_topics, no_relevant=options.no_relevant)  # fmt: skip
    if new_qrels is None:  # replicability: the paper's Figure 1
        curves = cutoff_curves(original, new_pairs, comparisons, options)
        for analysis in analyses:
            analysis.curves = curves[curves["pair"] == analysis.name].drop(columns="pair").reset_index(drop=True)
    return ReportData(analyses[0].comparison.setting, options, analyses, summaries, coverage, draws,
                      dict(experiments or {}))
