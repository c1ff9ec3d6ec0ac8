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
        return 1.0 - self.alpha

    def compare_options(self) -> dict:
        """The keyword arguments of :func:`compare_runs` (and of ``irrepro compare``)."""
        return {
            "measures": tuple(self.measures), "cutoff": self.cutoff, "rbo_p": self.rbo_p,
            "rbo_variant": self.rbo_variant, "missing_topics": self.missing_topics, "no_relevant": self.no_relevant,
        }  # fmt: skip


# An interval key: (statistic, run kind or "", measure or ""), e.g. ("ER", "", "AP"),
# ("KTU", "baseline", ""), ("RMSE", "advanced", "P@10"), ("DeltaARP", "baseline", "nDCG").
IntervalKey = tuple[str, str, str]


@dataclass
class PairAnalysis:
    """Everything the report shows about one reproduced pair."""

    name: str
    comparison: Comparison
    intervals: dict[IntervalKey, ConfidenceInterval | str]  # str: why it is undefined
    replicates: dict[IntervalKey, np.ndarray] = field(default_factory=dict)  # each statistic on the report's resamples
    curves: pd.DataFrame | None = None  # replicability: run, cutoff, KTU, RBO, RMSE (of nDCG@k)
    largest_differences: dict[str, pd.DataFrame] = field(default_factory=dict)  # kind -> frame

    def frame(self) -> pd.DataFrame:
        """The pair's result (:meth:`Comparison.to_frame`) with the bounds of its intervals."""
        return self.comparison.to_frame(self.intervals)


@dataclass(frozen=True)
class RunSummary:
    """Shape of one run file's ranking: topics, documents per topic, ties in the top ``depth``."""

    tag: str
    n_topics: int
    min_depth: int
    max_depth: int
    tied_topics: int
    tied_documents: int
    depth: int


@dataclass
class ReportData:
    """All numbers of a report: the pairs, the runs' shapes and the qrels' topic coverage."""

    setting: str
    options: ReportOptions
    pairs: list[PairAnalysis]
    runs: dict[tuple[str, str], RunSummary]  # (pair name, role) -> summary; pair "" for the originals
    coverage: dict[str, MissingTopicReport]  # "original" and each pair name -> report
    draws: TopicDraws | None = None  # the topic resamples every pair's intervals and verdict shares come from
    experiments: dict[str, PairExperiment] = field(default_factory=dict)  # pair name -> what its headers say


# --------------------------------------------------------------------------- intervals


def report_draws(comparisons: Sequence[Comparison], options: ReportOptions) -> TopicDraws:
    """The report's one resampling of the topics: every topic a pair has a score or a KTU for, on the
    original collection (and, for reproducibility, on the new one), ``options.n_resamples`` draws
    seeded by ``options.seed``."""
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
    """The ``1 - alpha`` percentile interval of every statistic the verdicts read, keyed ``(statistic, run,
    measure)``, from its ``replicates`` (:func:`~irrepro.reproducibility.replicates.comparison_replicates`);
    the estimate is ``compare_runs``' value. Resamples where the statistic is undefined are left out
    and counted (``n_undefined``); an undefined statistic gets the reason instead of an interval."""
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
    """The measures of Figure 1's RMSE: nDCG@k at each cut-off k."""
    return tuple(f"nDCG@{k}" for k in options.curve_cutoffs)


def cutoff_curves(
    original: Mapping[str, pd.DataFrame],
    pairs: Mapping[str, tuple[pd.DataFrame, pd.DataFrame]],
    comparisons: Mapping[str, Comparison],
    options: ReportOptions,
) -> pd.DataFrame:
    """Mean KTU, mean RBO and RMSE of nDCG@k at each cut-off k (replicability; the paper's Figure 1).

    ``original`` maps ``orig_baseline``/``orig_advanced`` to run frames, ``pairs`` a pair's name to
    its (new baseline, new advanced), ``comparisons`` a pair's name to its result of
    :func:`~irrepro.reproducibility.compare.compare_pairs` at ``options.cutoff`` with
    ``evaluate_also=curve_measures(options)``. One row per (pair, run kind, cut-off); at cut-off k the
    numbers are those of ``compare_runs(..., cutoff=k, measures=("nDCG@k",))``, NaN where undefined.
    Each (kind, k) ranks all pairs in one pass; at ``options.cutoff`` the comparisons' KTU and RBO are
    used as they are.
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
    """Per topic, how many documents the top ``depth`` of both runs share (0 .. depth).

    Topics of either run; a topic one run lacks shares nothing.
    """
    columns = ["query_id", "doc_id"]
    top_original = original.loc[original["rank"] <= depth, columns]
    top_new = new.loc[new["rank"] <= depth, columns]
    shared = top_original.merge(top_new, on=columns).groupby("query_id").size()
    topics = pd.Index(sorted(set(top_original["query_id"]) | set(top_new["query_id"])), name="query_id")
    return shared.reindex(topics, fill_value=0).astype(int).rename(f"overlap@{depth}")


def largest_differences(comparison: Comparison, runs: Mapping[str, pd.DataFrame], kind: str, options: ReportOptions) -> pd.DataFrame:
    """The topics on which the new ``kind`` run's score differs most from the original's.

    Ordered by the absolute difference in the first measure (ties by topic), at most
    ``options.n_diagnostic_topics`` rows. Columns: ``original`` and ``new`` (first measure),
    ``delta:<m>`` (new - original) for every measure, ``overlap`` (shared top-10 documents),
    and the topic's ``KTU`` and ``RBO``.
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
    """Topics, documents per topic and tied scores among each topic's top ``depth`` documents.

    Tied documents are ranked by docno (descending), as trec_eval does: their order says
    nothing about the system, yet KTU and RBO read it.
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
    """Every number of one pair but its cut-off curves (:func:`analyse` computes those for all
    pairs at once): ``runs`` maps the four :data:`~irrepro.reproducibility.compare.ROLES` to run frames."""
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
    """The report's numbers: ``original`` maps ``orig_baseline``/``orig_advanced`` to frames,
    ``pairs`` lists ``(name, new_baseline, new_advanced)``; ``experiments`` what each pair's
    ir_metadata headers say it is (:func:`irrepro.metadata.pair_experiment`), for the methods text."""
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
