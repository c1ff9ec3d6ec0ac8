"""Run-level entry point: every SIGIR 2020 measure for one original/new pair of run pairs.

:func:`compare_runs` takes the four run frames (original baseline b and advanced a, new b' and a',
as :func:`irrepro.runs.read_run` returns them) and the qrels, evaluates them with
:func:`irrepro.evaluation.evaluate` and computes the measures of Breuer et al., SIGIR 2020:

- **replicability** (no ``new_qrels``: same collection): ARP, KTU and RBO per topic and their
  means (original vs new, for the baseline and the advanced run), RMSE, ER, DeltaRI and the
  two-tailed paired t-test, and beside RMSE the normalised RMSE (nRMSE, RMSE over the largest RMSE
  any run could have; repro_eval's, Maistro et al., IP&M 2023; not in the SIGIR 2020 paper);
- **reproducibility** (``new_qrels`` given: new collection): ARP, ER, DeltaRI and the two-tailed
  unpaired (Student) t-test; rankings and per-topic differences are meaningless across
  collections, so KTU, RBO, RMSE and nRMSE are left out.

Every measure sees one ranking per run, trec_eval's (score descending, ties by docno descending):
effectiveness through trec_eval's code, KTU and RBO through :func:`irrepro.runs.rank_by_score`;
a frame's ``rank`` column is ignored and a NaN score refused.

:meth:`Comparison.to_frame` is the result as one tidy frame (a row per statistic, run and measure,
by the paper's level); the text table, the JSON, the report and the book's tables are derived from
it, and write its numbers by the rules of :mod:`irrepro.formatting`. Undefined values (zero
original improvement for ER, zero baseline mean for DeltaRI, ...) are NaN there, ``None`` in
:meth:`Comparison.to_json`, and listed in :attr:`Comparison.notes`. ``cutoff`` is the depth of the
ranking measures; effectiveness is computed on the whole runs, as trec_eval does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from irrepro.evaluation import MISSING_TOPIC_POLICIES, NO_RELEVANT_POLICIES, Judgments, evaluate_prepared
from irrepro.formatting import TEXT, format_number, format_pvalue
from irrepro.reproducibility import ranking, scores
from irrepro.run_dicts import block_starts
from irrepro.validation import (
    MAX_CUTOFF,
    Choice,
    Integer,
    MappingOf,
    MeasureList,
    Optional,
    Pair,
    Qrels,
    Real,
    RunFrame,
    validate_params,
)

__all__ = ["Comparison", "compare_runs", "compare_pairs", "FRAME_COLUMNS", "KINDS", "LEVEL_OF", "LEVELS", "ROLES"]

ROLES = ("orig_baseline", "orig_advanced", "new_baseline", "new_advanced")
KINDS = ("baseline", "advanced")
#: The paper's four levels (Section 3), from the strictest to the most lenient, and their statistics.
LEVELS: dict[str, tuple[str, ...]] = {
    "ranking": ("KTU", "RBO"), "per_topic": ("RMSE", "nRMSE"), "averages": ("ARP", "DeltaARP", "p"), "effects": ("ER", "DeltaRI"),
}  # fmt: skip
LEVEL_OF: dict[str, str] = {statistic: level for level, statistics in LEVELS.items() for statistic in statistics}
#: The columns of :meth:`Comparison.to_frame`.
FRAME_COLUMNS = ("setting", "level", "statistic", "run", "measure", "value", "low", "high")


def _number(value) -> float | None:
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def _nested(frame: pd.DataFrame, statistic: str) -> dict[str, dict[str, float | None]]:
    """``{run: {measure: value}}`` of one statistic's rows (None where undefined), in the frame's order."""
    rows = frame[frame["statistic"] == statistic]
    out: dict[str, dict[str, float | None]] = {}
    for run, measure, value in zip(rows["run"], rows["measure"], rows["value"], strict=True):
        out.setdefault(run, {})[measure] = _number(value)
    return out


@dataclass
class Comparison:
    """All measures of one comparison, as :func:`compare_runs` computes them.

    :meth:`to_frame` is the one result: the text table (:meth:`to_table`), the JSON (:meth:`to_json`),
    the report and the book's tables are derived from it.

    Parameters
    ----------
    setting : {"replicability", "reproducibility"}
        Same collection (new runs replicate the original ones) or another one.
    measures : tuple of str
        The effectiveness measures, by the names the user gave.
    arp : dict of role -> dict of measure -> float or None
        Average retrieval performance of each run (``orig_baseline``, ``orig_advanced``,
        ``new_baseline``, ``new_advanced``).
    er : dict of measure -> float or None
        Effect ratio of the new pair to the original pair.
    delta_ri : dict of measure -> float or None
        Difference of the pairs' relative improvements.
    p_value : dict of kind -> dict of measure -> float or None
        The t-test's p-value per run kind (``baseline``, ``advanced``): paired under
        replicability, unpaired under reproducibility.
    rmse : dict of kind -> dict of measure -> float or None, optional
        Root mean squared error of the per-topic scores (replicability only).
    ktu : dict of kind -> pandas.Series, optional
        Kendall's tau Union per topic (replicability only).
    rbo : dict of kind -> pandas.Series, optional
        Rank-biased overlap per topic (replicability only).
    per_topic : dict of str -> pandas.DataFrame, optional
        Measure -> topics x runs frame of the per-topic scores.
    notes : list of str, optional
        Why a value is undefined (None), one sentence each.
    topics : dict of role -> tuple of str, optional
        The topics each run's ARP averages.
    nrmse : dict of kind -> dict of measure -> float or None, optional
        Normalised RMSE (:func:`~irrepro.reproducibility.scores.nrmse`; replicability only): an
        extra of repro_eval and Maistro et al. (IP&M 2023), not a measure of the SIGIR 2020 paper.
    """

    setting: str
    measures: tuple[str, ...]
    arp: dict[str, dict[str, float | None]]
    er: dict[str, float | None]
    delta_ri: dict[str, float | None]
    p_value: dict[str, dict[str, float | None]]
    rmse: dict[str, dict[str, float | None]] | None = None
    ktu: dict[str, pd.Series] | None = None
    rbo: dict[str, pd.Series] | None = None
    per_topic: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    topics: dict[str, tuple[str, ...]] = field(default_factory=dict)  # role -> the topics its ARP averages
    nrmse: dict[str, dict[str, float | None]] | None = None  # last: positional construction stays as it was

    def _rows(self):
        """``(statistic, run, measure, value)`` of every statistic, level by level (:data:`LEVELS`)."""
        if self.setting == "replicability":
            for statistic, per_run in (("KTU", self.ktu), ("RBO", self.rbo)):
                for kind, series in per_run.items():
                    yield statistic, kind, "", series.mean() if series.notna().any() else None
            yield from (("RMSE", kind, m, value) for kind, values in self.rmse.items() for m, value in values.items())
            yield from (("nRMSE", kind, m, value) for kind, values in (self.nrmse or {}).items() for m, value in values.items())
        yield from (("ARP", role, m, value) for role, values in self.arp.items() for m, value in values.items())
        for kind in KINDS:
            for m in self.measures:
                orig, new = (_number(self.arp[f"{side}_{kind}"][m]) for side in ("orig", "new"))
                yield "DeltaARP", kind, m, None if orig is None or new is None else new - orig
        yield from (("p", kind, m, value) for kind, values in self.p_value.items() for m, value in values.items())
        yield from (("ER", "", m, value) for m, value in self.er.items())
        yield from (("DeltaRI", "", m, value) for m, value in self.delta_ri.items())

    def to_frame(self, intervals: Mapping[tuple[str, str, str], object] | None = None) -> pd.DataFrame:
        """Give the comparison as one tidy frame: a row per statistic, run and measure.

        ``level`` is the paper's level of the statistic (:data:`LEVELS`); ``statistic`` one of ARP,
        DeltaARP (ARP of the new run minus the original's), p (the t-test of the setting), KTU and RBO
        (means over topics), RMSE, nRMSE (normalised RMSE, not in the SIGIR 2020 paper), ER and DeltaRI; ``run`` a role (ARP), a run kind (``baseline``,
        ``advanced``) or ``""`` (ER, DeltaRI: a statistic of the pair); ``measure`` ``""`` for KTU and
        RBO. ``value`` is NaN where undefined (:attr:`notes` say why).

        Parameters
        ----------
        intervals : mapping of (statistic, run, measure) -> interval, optional
            Confidence intervals: any object with ``low`` and ``high``, e.g. a bootstrap
            :class:`~irrepro.reproducibility.bootstrap.ConfidenceInterval`.

        Returns
        -------
        pandas.DataFrame
            Columns :data:`FRAME_COLUMNS`; ``low`` and ``high`` hold the bounds of
            ``intervals[(statistic, run, measure)]``, NaN without one.
        """
        rows = []
        for statistic, run, measure, value in self._rows():
            interval = (intervals or {}).get((statistic, run, measure))
            bounds = (interval.low, interval.high) if hasattr(interval, "low") else (math.nan, math.nan)
            value = _number(value)
            rows.append((self.setting, LEVEL_OF[statistic], statistic, run, measure, math.nan if value is None else value, *bounds))
        return pd.DataFrame(rows, columns=list(FRAME_COLUMNS)).astype({c: float for c in ("value", "low", "high")})

    def to_json(self) -> dict:
        """Give the object ``irrepro compare --format json`` prints.

        Returns
        -------
        dict
            The statistics by level, ``None`` for undefined values, with the notes.
        """
        frame = self.to_frame()
        out: dict = {"setting": self.setting, "ARP": _nested(frame, "ARP")}
        if self.setting == "replicability":
            for key, per_role in (("KTU", self.ktu), ("RBO", self.rbo)):
                means = _nested(frame, key)
                out[key] = {
                    role: {"mean": means[role][""], "per_topic": {str(topic): _number(v) for topic, v in series.items()}}
                    for role, series in per_role.items()
                }
            out["RMSE"] = _nested(frame, "RMSE")
            out["nRMSE"] = _nested(frame, "nRMSE")
        out["ER"], out["DeltaRI"] = (_nested(frame, statistic)[""] for statistic in ("ER", "DeltaRI"))
        out["p_value"] = _nested(frame, "p")
        return out

    def to_table(self) -> str:
        """Give the same numbers, readable in a terminal (:data:`irrepro.formatting.TEXT`).

        Returns
        -------
        str
            A block per measure family.
        """
        frame = self.to_frame()

        def block(statistic: str, write) -> pd.DataFrame:
            rows = frame[frame["statistic"] == statistic]
            table = rows.pivot(index="run", columns="measure", values="value")
            table = table.reindex(index=list(dict.fromkeys(rows["run"])), columns=list(dict.fromkeys(rows["measure"])))
            return table.rename_axis(index=None, columns=None).map(write)

        def number(value) -> str:
            return format_number(value, 4, medium=TEXT)

        lines = [f"setting: {self.setting}", "", "ARP", block("ARP", number).to_string(), ""]
        if self.setting == "replicability":
            for key in ("KTU", "RBO"):
                means = block(key, number).iloc[:, 0]
                lines.append(f"{key} (mean over topics): " + ", ".join(f"{kind} {text}" for kind, text in means.items()))
            lines += ["", "RMSE", block("RMSE", number).to_string(), ""]
            if (frame["statistic"] == "nRMSE").any():
                lines += ["nRMSE (RMSE / maximum RMSE; repro_eval, not in SIGIR 2020)", block("nRMSE", number).to_string(), ""]
        effects = pd.concat([block(statistic, number) for statistic in ("ER", "DeltaRI")]).set_axis(["ER", "DeltaRI"])
        lines += ["ER / DeltaRI", effects.to_string(), ""]
        test = "paired t-test" if self.setting == "replicability" else "unpaired t-test"
        p_values = block("p", lambda p: format_pvalue(p, medium=TEXT))
        lines += [f"p-value ({test})", p_values.to_string()]
        if self.notes:
            lines += ["", "notes:"] + [f"- {note}" for note in self.notes]
        return "\n".join(lines)


def _guard(notes: list[str], label: str, function, *args, **kwargs) -> float | None:
    try:
        return _number(function(*args, **kwargs))
    except ValueError as error:
        notes.append(f"{label}: {error}")
        return None


_RUN = RunFrame()  # ranked by score as trec_eval ranks, for every measure: a rank column is ignored


@validate_params(
    orig_baseline=_RUN,
    orig_advanced=_RUN,
    new_baseline=_RUN,
    new_advanced=_RUN,
    qrels=Qrels(),
    new_qrels=Optional(Qrels()),
    measures=MeasureList(),
    cutoff=Integer(1, MAX_CUTOFF),
    rbo_p=Real(0.0, 1.0, closed="neither"),
    rbo_variant=Choice(ranking.RBO_VARIANTS),
    missing_topics=Choice(MISSING_TOPIC_POLICIES),
    no_relevant=Choice(NO_RELEVANT_POLICIES),
)
def compare_runs(
    *,
    orig_baseline: pd.DataFrame,
    orig_advanced: pd.DataFrame,
    new_baseline: pd.DataFrame,
    new_advanced: pd.DataFrame,
    qrels: pd.DataFrame,
    new_qrels: pd.DataFrame | None = None,
    measures: Sequence[str] = ("AP", "P@10", "nDCG"),
    cutoff: int = 1000,
    rbo_p: float = 0.8,
    rbo_variant: str = "ext",
    missing_topics: str = "zero",
    no_relevant: str = "drop",
) -> Comparison:
    """Compute every SIGIR 2020 measure for an original and a new (baseline, advanced) run pair.

    Every argument is keyword-only: the four runs have one type, and a swap would silently change
    the measures. Without ``new_qrels`` the new runs are replications on the same collection (the
    paper's replicability: ARP, KTU, RBO, RMSE, ER, DeltaRI, paired t-test, and nRMSE beside RMSE); with it, reproductions on
    another collection (reproducibility: ARP, ER, DeltaRI, unpaired t-test).

    Runs and qrels are frames in ir_datasets' columns (``query_id``, ``doc_id``, ``score``;
    ``relevance``), as :mod:`irrepro.runs` reads files into, or PyTerrier's: a results frame
    (``qid``, ``docno``, ``score``; its ``rank`` from 0 is ignored, as every rank column is) and
    qrels (``qid``, ``docno``, ``label``).

    Parameters
    ----------
    orig_baseline : pandas.DataFrame
        The original baseline run b, as :func:`irrepro.runs.read_run` returns it.
    orig_advanced : pandas.DataFrame
        The original advanced run a.
    new_baseline : pandas.DataFrame
        The new baseline run b'.
    new_advanced : pandas.DataFrame
        The new advanced run a'.
    qrels : pandas.DataFrame
        The judgments of the original collection, as :func:`irrepro.runs.read_qrels` returns them.
    new_qrels : pandas.DataFrame, optional
        The judgments of the new collection (reproducibility); without them the new runs are
        replications on the same collection (replicability).
    measures : sequence of str, default ("AP", "P@10", "nDCG")
        Effectiveness measures: names, as :func:`irrepro.measures.parse_measure` reads them, or
        ir_measures measures.
    cutoff : int, default 1000
        The depth of the ranking measures (KTU, RBO); effectiveness uses the whole runs.
    rbo_p : float, default 0.8
        RBO's persistence, in (0, 1).
    rbo_variant : {"ext", "min", "trunc", "sigir2020"}
        How RBO treats the lists' end (:func:`irrepro.reproducibility.ranking.rbo`).
    missing_topics : {"zero", "drop"}
        A judged topic a run lacks scores 0 (``trec_eval -c``) or is left out
        (:func:`irrepro.evaluation.evaluate`).
    no_relevant : {"drop", "keep"}
        A topic judged without a relevant document is left out of the means, or scores 0 and counts,
        as trec_eval does (:func:`irrepro.evaluation.evaluate`).

    Returns
    -------
    Comparison
        Every measure; ``to_json()`` and ``to_table()`` give what ``irrepro compare`` prints,
        undefined values are None and explained in ``notes``; ``topics`` names the topics
        each run's ARP averages.

    See Also
    --------
    compare_pairs : The same for several new pairs of one original pair.

    Examples
    --------
    A PyTerrier results frame and qrels:

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["a", "b", "a", "c"], "label": [1, 0, 0, 1]})
    >>> def results(scores):  # what a PyTerrier pipeline returns: qid, docno, score, rank from 0
    ...     frame = pd.DataFrame([(q, d, s) for q, docs in scores.items() for d, s in docs.items()],
    ...                          columns=["qid", "docno", "score"])
    ...     frame["rank"] = frame.groupby("qid")["score"].rank(ascending=False).astype(int) - 1
    ...     return frame
    >>> b = results({"1": {"a": 0.2, "b": 0.9}, "2": {"a": 0.5, "c": 0.1}})
    >>> a = results({"1": {"a": 0.9, "b": 0.1}, "2": {"a": 0.2, "c": 0.8}})
    >>> comparison = compare_runs(orig_baseline=b, orig_advanced=a, new_baseline=b, new_advanced=a, qrels=qrels,
    ...                           measures=["AP", "RR"])
    >>> comparison.arp["orig_baseline"], comparison.arp["orig_advanced"]
    ({'AP': 0.5, 'RR': 0.5}, {'AP': 1.0, 'RR': 1.0})
    >>> float(comparison.ktu["baseline"].mean()), comparison.rmse["advanced"]["AP"]
    (1.0, 0.0)
    """
    ranking._rbo_depth(cutoff, rbo_variant, where="compare_runs", name="cutoff")  # named as the caller knows it
    return compare_pairs(
        orig_baseline=orig_baseline, orig_advanced=orig_advanced, pairs={"new": (new_baseline, new_advanced)}, qrels=qrels,
        new_qrels=new_qrels,
        measures=measures, cutoff=cutoff, rbo_p=rbo_p, rbo_variant=rbo_variant, missing_topics=missing_topics,
        no_relevant=no_relevant,
    )["new"]


@validate_params(
    orig_baseline=_RUN,
    orig_advanced=_RUN,
    pairs=MappingOf(Pair(_RUN, what="a (new_baseline, new_advanced) pair")),
    qrels=Qrels(),
    new_qrels=Optional(Qrels()),
    measures=MeasureList(),
    cutoff=Integer(1, MAX_CUTOFF),
    rbo_p=Real(0.0, 1.0, closed="neither"),
    rbo_variant=Choice(ranking.RBO_VARIANTS),
    missing_topics=Choice(MISSING_TOPIC_POLICIES),
    no_relevant=Choice(NO_RELEVANT_POLICIES),
    evaluate_also=MeasureList(allow_empty=True),
)
def compare_pairs(
    *,
    orig_baseline: pd.DataFrame,
    orig_advanced: pd.DataFrame,
    pairs: Mapping[str, tuple[pd.DataFrame, pd.DataFrame]],
    qrels: pd.DataFrame,
    new_qrels: pd.DataFrame | None = None,
    measures: Sequence[str] = ("AP", "P@10", "nDCG"),
    cutoff: int = 1000,
    rbo_p: float = 0.8,
    rbo_variant: str = "ext",
    missing_topics: str = "zero",
    no_relevant: str = "drop",
    evaluate_also: Sequence[str] = (),
) -> dict[str, Comparison]:
    """Compare several new run pairs with one original pair.

    Each pair is compared as :func:`compare_runs` compares one:
    ``compare_pairs(orig_baseline=b, orig_advanced=a, pairs={"x": (b2, a2)}, qrels=q)["x"]`` is
    ``compare_runs(orig_baseline=b, orig_advanced=a, new_baseline=b2, new_advanced=a2, qrels=q)``; the
    original pair is evaluated once and each run kind's ranking measures are computed for all new
    runs in one pass (as the SIGIR 2020 constellations need).

    Parameters
    ----------
    orig_baseline : pandas.DataFrame
        The original baseline run b, as :func:`irrepro.runs.read_run` returns it.
    orig_advanced : pandas.DataFrame
        The original advanced run a.
    pairs : mapping of str to (pandas.DataFrame, pandas.DataFrame)
        Name -> (new baseline b', new advanced a') of each new pair.
    qrels : pandas.DataFrame
        The judgments of the original collection, as :func:`irrepro.runs.read_qrels` returns them.
    new_qrels : pandas.DataFrame, optional
        The judgments of the new collection (reproducibility); without them the new runs are
        replications on the same collection (replicability).
    measures : sequence of str, default ("AP", "P@10", "nDCG")
        Effectiveness measures, as :func:`irrepro.measures.parse_measure` reads them.
    cutoff : int, default 1000
        The depth of the ranking measures (KTU, RBO); effectiveness uses the whole runs.
    rbo_p : float, default 0.8
        RBO's persistence, in (0, 1).
    rbo_variant : {"ext", "min", "trunc", "sigir2020"}
        How RBO treats the lists' end (:func:`irrepro.reproducibility.ranking.rbo`).
    missing_topics : {"zero", "drop"}
        A judged topic a run lacks scores 0 (``trec_eval -c``) or is left out
        (:func:`irrepro.evaluation.evaluate`).
    no_relevant : {"drop", "keep"}
        A topic judged without a relevant document is left out of the means, or scores 0 and counts,
        as trec_eval does (:func:`irrepro.evaluation.evaluate`).
    evaluate_also : sequence of str, default ()
        Measures evaluated in the same pass and only kept as per-topic scores
        (``Comparison.per_topic``); no statistic is computed for them.

    Returns
    -------
    dict of str to Comparison
        The comparison of each new pair, by the names of ``pairs``.
    """
    ranking._rbo_depth(cutoff, rbo_variant, where="compare_pairs", name="cutoff")  # before any work
    measures = tuple(measures)
    evaluated = (*measures, *(m for m in dict.fromkeys(evaluate_also) if m not in measures))
    paired = new_qrels is None
    # The qrels are prepared once when both pairs are evaluated on them (same numbers as evaluate).
    judgments = Judgments(qrels)
    new_judgments = judgments if paired else Judgments(new_qrels)
    original = evaluate_prepared({"orig_baseline": orig_baseline, "orig_advanced": orig_advanced}, qrels, evaluated,
                         missing_topics=missing_topics, no_relevant=no_relevant, judgments=judgments)  # fmt: skip
    ranked = _ranked_lists(orig_baseline, orig_advanced, pairs, cutoff, rbo_p, rbo_variant) if paired else {}
    out = {}
    for name, (new_baseline, new_advanced) in pairs.items():
        runs = dict(zip(ROLES, (orig_baseline, orig_advanced, new_baseline, new_advanced), strict=True))
        new = evaluate_prepared(
            {r: runs[r] for r in ROLES[2:]}, qrels if paired else new_qrels, evaluated,
            missing_topics=missing_topics, no_relevant=no_relevant, judgments=new_judgments,
        )
        comparison = _score_measures(original, new, measures, paired)
        if paired:
            _ranking_measures(comparison, runs, {kind: {m: ranked[kind][m][name] for m in ranked[kind]} for kind in ranked}, cutoff)
        out[name] = comparison
    return out


def _ranked_lists(orig_baseline, orig_advanced, pairs, cutoff, rbo_p, rbo_variant) -> dict[str, dict[str, pd.DataFrame]]:
    """KTU and RBO per topic of every new run against its original, one pass per run kind.

    Each pair's columns hold the union of topics of all runs; :func:`_ranking_measures` keeps the
    pair's own (those of the original run and of that new run), as a single pair would have them.
    """
    ranked = {}
    for kind, original, position in (("baseline", orig_baseline, 0), ("advanced", orig_advanced, 1)):
        new_runs = {name: new_pair[position] for name, new_pair in pairs.items()}
        ranked[kind] = ranking.ranking_measures(
            original, new_runs, depth=cutoff, rbo_p=rbo_p, rbo_variant=rbo_variant, measures=("KTU", "RBO")
        )
    return ranked


def _score_measures(original, new, measures: tuple[str, ...], paired: bool) -> Comparison:
    """ARP, ER, DeltaRI, p-values (and RMSE and nRMSE when ``paired``) of one pair from its per-topic scores."""
    per_topic = {m: pd.concat([original[m], new[m]], axis=1) for m in original}
    # Which topics the missing-topic policy touched (e.g. judged topics a run lacks, scored 0).
    notes: list[str] = [*original.report.summary(), *new.report.summary()]
    arp = {role: {m: _guard(notes, f"ARP {role} {m}", scores.arp, per_topic[m][role]) for m in measures} for role in ROLES}
    er, dri = {}, {}
    for m in measures:
        t = per_topic[m]
        runs = {role: t[role] for role in ROLES}
        er[m] = _guard(notes, f"ER {m}", scores.effect_ratio, **runs, paired=paired)
        dri[m] = _guard(notes, f"DeltaRI {m}", scores.delta_relative_improvement, **runs)
    test = scores.paired_ttest if paired else scores.unpaired_ttest
    p_value = {
        kind: {m: _guard(notes, f"p-value {kind} {m}", test, per_topic[m][f"orig_{kind}"], per_topic[m][f"new_{kind}"]) for m in measures}
        for kind in ("baseline", "advanced")
    }
    setting = "replicability" if paired else "reproducibility"
    topics = {role: report.averaged(role) for report in (original.report, new.report) for role in report.missing}
    comparison = Comparison(setting, measures, arp, er, dri, p_value, per_topic=per_topic, notes=notes, topics=topics)
    if paired:
        comparison.rmse = {
            kind: {m: _guard(notes, f"RMSE {kind} {m}", scores.rmse, per_topic[m][f"orig_{kind}"], per_topic[m][f"new_{kind}"]) for m in measures}
            for kind in ("baseline", "advanced")
        }
        comparison.nrmse = {
            kind: {m: _guard(notes, f"nRMSE {kind} {m}", scores.nrmse, per_topic[m][f"orig_{kind}"], per_topic[m][f"new_{kind}"]) for m in measures}
            for kind in ("baseline", "advanced")
        }
    return comparison


def _topic_sizes(run: pd.DataFrame) -> pd.Series:
    """The number of lines of each topic of ``run``, sorted by topic, as ``groupby("query_id").size()``
    gives it; counted from the bounds of the topics' blocks when each topic is one block (as in a
    frame :func:`irrepro.runs.read_run` returns), without hashing every line."""
    topics = run["query_id"].to_numpy()
    starts = block_starts(topics)
    heads = topics[starts]
    if len(set(heads.tolist())) < len(heads):  # a topic in several blocks
        return run.groupby("query_id").size()
    index = pd.Index(heads, dtype=run["query_id"].dtype, name="query_id")
    return pd.Series(np.diff(np.r_[starts, len(topics)]), index=index).sort_index()


def _ranking_measures(comparison: Comparison, runs: dict[str, pd.DataFrame], ranked: dict[str, dict[str, pd.Series]], cutoff: int) -> None:
    """Attach one pair's KTU and RBO per topic (cut to its own topics) and their notes."""
    notes = comparison.notes
    comparison.ktu, comparison.rbo = {}, {}
    for kind in ("baseline", "advanced"):
        sizes = [_topic_sizes(runs[f"{side}_{kind}"]) for side in ("orig", "new")]
        own = {str(topic) for size in sizes for topic in size.index}
        ktu, rbo = (ranked[kind][m] for m in ("KTU", "RBO"))
        keep = ktu.index.isin(list(own))
        comparison.ktu[kind] = ktu[keep].rename("KTU")
        comparison.rbo[kind] = rbo[keep].rename("RBO")
        lengths = pd.concat([size.clip(upper=cutoff) for size in sizes], axis=1).dropna()
        truncated = lengths.index[lengths.iloc[:, 0] != lengths.iloc[:, 1]]
        if len(truncated):
            notes.append(
                f"KTU {kind}: top-{cutoff} lists of different lengths on {len(truncated)} topic(s), "
                f"compared on the top min(n, n') documents: {list(truncated)[:10]}"
            )
        undefined = comparison.ktu[kind].index[comparison.ktu[kind].isna()]
        if len(undefined):
            notes.append(f"KTU {kind}: undefined (NaN) on {len(undefined)} topic(s) missing from a run or with < 2 documents: {list(undefined)[:10]}")
