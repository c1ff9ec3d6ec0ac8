"""Per-topic effectiveness of many runs, computed by trec_eval's own code.

:func:`evaluate` returns, for each measure, a topics x runs frame.  The numbers come from
trec_eval's C code (version 9) through ``pytrec_eval`` (package *pytrec-eval-terrier*):
nothing is re-derived here.  The test suite checks them against trec_eval's own expected
outputs (``test/out.test``, ``out.test.aq``, ``out.test.aqc``, ``out.test.meas_params``)
to the four printed decimals.

Measures
--------
======================  ==================  ================================================
name (as given)         trec_eval           definition (R = number of relevant documents)
======================  ==================  ================================================
``AP``                  ``map``             sum of P@rank over relevant retrieved, / R
``P@k``                 ``P_k``             relevant in the top k, / k
``nDCG``                ``ndcg``            DCG / ideal DCG over the whole ranking, gain =
                                            grade, discount log2(rank + 1)
``nDCG@k``              ``ndcg_cut_k``      the same, both cut at rank k
``AP@k``                ``map_cut_k``       AP of the top k (relevant retrieved below k count 0)
``R-prec``              ``Rprec``           relevant in the top R, / R
``recall@k``, ``R@k``   ``recall_k``        relevant in the top k, / R
``RR``                  ``recip_rank``      1 / rank of the first relevant document
======================  ==================  ================================================

``k`` is an integer from 1 to 2,147,483,647 (trec_eval's defaults are 5, 10, 15, 20, 30, 100,
200, 500, 1000).  trec_eval's own names (``map``, ``P_10``, ``ndcg_cut_10`` ...) are accepted
too, and so are ir_measures' names with the parameter ``rel`` and ir_measures measure objects
(``P(rel=2)@10``, ``ir_measures.nDCG@10``); the frame is keyed by the name as given (an object
by its name, ``str(measure)``; :mod:`irrepro.measures`).  A document is relevant when its grade
is >= 1, or >= ``rel`` for a measure given one (``trec_eval -l``; nDCG's gains are the grades);
a grade must be an integer within 64 bits (1.0 is one, 1.5 is refused rather than truncated).
Arguments are checked by :mod:`irrepro.validation` before any work.

Ranking: score descending, ties by docno descending; a run's rank column is ignored
(see :mod:`irrepro.runs`).

Missing-topic policy
--------------------
trec_eval evaluates a topic only when it is in both the run and the qrels.

``missing_topics="zero"`` (default, ``trec_eval -c``)
    a topic judged in the qrels but absent from a run scores 0 on every measure (an empty
    ranking), so every run is scored on the same topics and means are comparable.
``missing_topics="drop"`` (trec_eval's default)
    such a topic is left out for that run (NaN in its column); the column mean is then
    trec_eval's default mean.

Topics in a run but not in the qrels are ignored, as trec_eval ignores them; a warning names
them.

Topics without any relevant document -- what trec_eval really does
-------------------------------------------------------------------
trec_eval's test suite holds no such topic (``qrels.test`` has 474, 77 and 10 relevant
documents for topics 301-303), so it was checked by running trec_eval's code (``pytrec_eval``)
on ``qrels.test`` with topic 303's grades set to 0 (see ``tests/test_evaluation.py``) and in its
sources (``trec_eval.c``, ``meas_avg.c``): trec_eval does **not** leave such a topic out.  It
evaluates the topic like any other, every measure here comes out 0 (trec_eval returns 0 where
R or the ideal DCG is 0), and the topic counts in the mean -- with ``-c`` the mean divides by
the number of topics in the qrels, these included.

This module's default, ``no_relevant="drop"``, leaves them out: a topic that no run can score
above 0 says nothing about the runs, and TREC organisers drop such topics when they publish qrels
(in the public qrels of Robust04, Robust05, Core17 and Core18 every judged topic has a relevant
document, so the choice changes nothing there).
``no_relevant="keep"`` gives trec_eval's behaviour verbatim.
Either way :class:`MissingTopicReport` lists the topics concerned and a warning names the
ones left out.

The report
----------
The returned mapping is an :class:`Evaluation` (a ``dict`` of measure name -> frame) whose
``report`` attribute is a :class:`MissingTopicReport`; :func:`missing_topic_report` computes
the same report without evaluating.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytrec_eval

from irrepro.measures import Measure, parse_measure
from irrepro.validation import (
    Choice,
    InvalidParameterError,
    MeasureList,
    OneOrMany,
    Qrels,
    RunFrame,
    validate_params,
)

__all__ = [
    "Measure",
    "parse_measure",
    "evaluate",
    "evaluate_prepared",
    "Judgments",
    "Evaluation",
    "MissingTopicReport",
    "missing_topic_report",
    "MISSING_TOPIC_POLICIES",
    "IgnoredTopicsWarning",
]

MISSING_TOPIC_POLICIES = ("zero", "drop")
NO_RELEVANT_POLICIES = ("drop", "keep")


class IgnoredTopicsWarning(UserWarning):
    """Topics were left out of an evaluation (run topics not in the qrels, or qrels topics
    without a relevant document); filter this class to silence it where that is expected."""


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class MissingTopicReport:
    """Which topics the missing-topic policy touched, per run.

    Attributes
    ----------
    policy : str
        ``"zero"`` or ``"drop"`` (see the module docstring).
    no_relevant_policy : str
        ``"drop"`` or ``"keep"``.
    evaluated_topics : tuple of str
        Qrels topics a run can be scored on (with ``no_relevant="drop"``: those with at least
        one relevant document).
    topics_without_relevant : tuple of str
        Qrels topics with judgments but no relevant document.
    missing : dict run -> tuple of str
        Evaluated topics absent from the run: scored 0 (``zero``) or left out (``drop``).
    not_in_qrels : dict run -> tuple of str
        Run topics the qrels do not judge: ignored, as trec_eval ignores them.
    """

    policy: str
    no_relevant_policy: str
    evaluated_topics: tuple[str, ...]
    topics_without_relevant: tuple[str, ...]
    missing: dict[str, tuple[str, ...]]
    not_in_qrels: dict[str, tuple[str, ...]]

    @property
    def affected(self) -> bool:
        """True when any run misses a topic or holds topics the qrels do not judge."""
        return any(self.missing.values()) or any(self.not_in_qrels.values())

    def _no_relevant_line(self) -> str:
        topics = self.topics_without_relevant
        if self.no_relevant_policy == "drop":
            fate = "left out (trec_eval would score them 0; pass no_relevant='keep' for that)"
        else:
            fate = "scored like any topic, 0 on every measure (as trec_eval does)"
        return f"{len(topics)} qrels topic(s) without a relevant document {fate}: {_topics(topics)}"

    def summary(self) -> list[str]:
        """One sentence per run and kind of topic touched (empty when nothing was)."""
        lines = []
        if self.topics_without_relevant:
            lines.append(self._no_relevant_line())
        for run, topics in self.missing.items():
            if topics:
                fate = "scored 0 (trec_eval -c)" if self.policy == "zero" else "left out (trec_eval default)"
                lines.append(
                    f"run {run}: {len(topics)} judged topic(s) missing from the run {fate}: {_topics(topics)}"
                )
        for run, topics in self.not_in_qrels.items():
            if topics:
                lines.append(
                    f"run {run}: {len(topics)} topic(s) not in the qrels ignored, as trec_eval does: "
                    f"{_topics(topics)}"
                )
        return lines


def _topics(topics: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(topics[:limit])
    return shown + (f", ... ({len(topics) - limit} more)" if len(topics) > limit else "")


class Evaluation(dict):
    """``dict`` of measure name -> topics x runs frame, with the :class:`MissingTopicReport`."""

    report: MissingTopicReport

    def __init__(self, frames: Mapping[str, pd.DataFrame], report: MissingTopicReport):
        super().__init__(frames)
        self.report = report

    def means(self) -> pd.DataFrame:
        """Runs x measures frame of per-run means (NaN topics skipped, as under ``drop``)."""
        return pd.DataFrame({name: frame.mean(axis=0) for name, frame in self.items()}).rename_axis("run")


# --------------------------------------------------------------------------- evaluation


#: What ``runs`` may be: a mapping of run name -> run frame, or one frame with a ``run`` column.
RUNS = OneOrMany(RunFrame(), single=RunFrame(("run",)))
QRELS = Qrels()
POLICIES = {"missing_topics": Choice(MISSING_TOPIC_POLICIES), "no_relevant": Choice(NO_RELEVANT_POLICIES)}


def _as_runs(runs: Mapping[str, pd.DataFrame] | pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Run name -> frame; the names are strings and, as strings, distinct (1 and "1" would be one run)."""
    if isinstance(runs, pd.DataFrame):
        return {str(name): frame for name, frame in runs.groupby("run", sort=False)}
    named = {str(name): frame for name, frame in runs.items()}
    if len(named) != len(runs):
        raise InvalidParameterError(f"runs must have distinct names as strings; got {list(runs)}")
    return named


def _qrels_dict(qrels: pd.DataFrame) -> dict[str, dict[str, int]]:
    return _nested(
        qrels["query_id"], qrels["doc_id"], qrels["relevance"].astype("int64"), what="the qrels judge"
    )


def _nested(query_ids: pd.Series, doc_ids: pd.Series, values: pd.Series, *, what: str) -> dict[str, dict]:
    """{query: {doc: value}} built from blocks of one topic (fast for 10^5-10^6 rows).

    Frames from :func:`irrepro.runs.read_run` hold each topic in one block already; other
    frames are sorted by topic first.

    A document twice in one topic would silently keep one value, so the sizes are checked and
    a ``ValueError`` names the first such pair.
    """
    topics = query_ids.astype("str").to_numpy(dtype=object)
    docs = doc_ids.astype("str").to_numpy(dtype=object)
    vals = values.to_numpy()
    starts = np.flatnonzero(np.r_[True, topics[1:] != topics[:-1]])
    if len(set(topics[starts].tolist())) != len(starts):  # a topic in several blocks: sort first
        order = np.argsort(topics, kind="stable")
        topics, docs, vals = topics[order], docs[order], vals[order]
        starts = np.flatnonzero(np.r_[True, topics[1:] != topics[:-1]])
    docs, vals = docs.tolist(), vals.tolist()
    ends = np.r_[starts[1:], len(topics)]
    nested = {str(topics[a]): dict(zip(docs[a:b], vals[a:b], strict=True)) for a, b in zip(starts, ends, strict=True)}
    if sum(map(len, nested.values())) != len(topics):
        frame = pd.DataFrame({"query_id": query_ids.astype("str"), "doc_id": doc_ids.astype("str")})
        row = frame[frame.duplicated()].iloc[0]
        raise ValueError(f"evaluate: {what} document {row['doc_id']} twice in topic {row['query_id']}")
    return nested


@validate_params(runs=RUNS, qrels=QRELS, **POLICIES)
def missing_topic_report(
    runs: Mapping[str, pd.DataFrame] | pd.DataFrame,
    qrels: pd.DataFrame,
    *,
    missing_topics: str = "zero",
    no_relevant: str = "drop",
) -> MissingTopicReport:
    """The :class:`MissingTopicReport` that :func:`evaluate` would attach, without evaluating."""
    run_frames = _as_runs(runs)
    relevant = qrels.loc[qrels["relevance"] >= 1, "query_id"].astype("str").unique()
    judged = qrels["query_id"].astype("str").unique()
    without = tuple(sorted(set(judged) - set(relevant)))
    evaluated = set(judged) if no_relevant == "keep" else set(relevant)
    missing, not_in_qrels = {}, {}
    for name, frame in run_frames.items():
        run_topics = set(frame["query_id"].astype("str").unique())
        missing[name] = tuple(sorted(evaluated - run_topics))
        not_in_qrels[name] = tuple(sorted(run_topics - set(judged)))
    return MissingTopicReport(
        policy=missing_topics,
        no_relevant_policy=no_relevant,
        evaluated_topics=tuple(sorted(evaluated)),
        topics_without_relevant=without,
        missing=missing,
        not_in_qrels=not_in_qrels,
    )


@validate_params(runs=RUNS, qrels=QRELS, measures=MeasureList(), **POLICIES)
def evaluate(
    runs: Mapping[str, pd.DataFrame] | pd.DataFrame,
    qrels: pd.DataFrame,
    measures: Sequence[str] = ("AP", "P@10", "nDCG"),
    *,
    missing_topics: str = "zero",
    no_relevant: str = "drop",
) -> Evaluation:
    """Per-topic scores of many runs, by trec_eval's code.

    Parameters
    ----------
    runs : mapping of run name -> run frame, or one frame with a ``run`` column
        Run frames as :func:`irrepro.runs.read_run` returns them (``query_id``, ``doc_id``,
        ``score``; other columns, ``rank`` included, are ignored).  A single frame may hold
        several runs, told apart by ``run``.
    qrels : DataFrame
        As :func:`irrepro.runs.read_qrels` returns (``query_id``, ``doc_id``, ``relevance``).
    measures : sequence of str
        Names as :func:`parse_measure` reads them; they key the result.
    missing_topics : {"zero", "drop"}
        A judged topic a run lacks scores 0 (``trec_eval -c``) or is left out (NaN).
    no_relevant : {"drop", "keep"}
        Topics judged without any relevant document are left out (default) or, as trec_eval
        does, evaluated (every measure is 0 for them).

    Returns
    -------
    Evaluation
        ``dict`` measure name -> DataFrame, index ``query_id`` (str, in string order), one float64
        column per run (in the given order); ``.report`` is the :class:`MissingTopicReport`.

    Warns
    -----
    IgnoredTopicsWarning
        When run topics are not in the qrels (ignored) or topics without relevant documents
        are left out.

    Examples
    --------
    ir_measures' names and measure objects give ir_measures' numbers (trec_eval's code either way):

    >>> import ir_measures, pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["a", "b", "c"], "relevance": [2, 1, 0]})
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["a", "b", "c"], "score": [0.1, 0.9, 0.5]})
    >>> scores = evaluate({"r": run}, qrels, ["P@1", ir_measures.P(rel=2) @ 1, "RR(rel=2)"])
    >>> {name: float(frame.at["1", "r"]) for name, frame in scores.items()}
    {'P@1': 1.0, 'P(rel=2)@1': 0.0, 'RR(rel=2)': 0.3333333333333333}
    """
    return evaluate_prepared(runs, qrels, measures, missing_topics=missing_topics, no_relevant=no_relevant, stacklevel=3)


class Judgments:
    """Qrels prepared once for several evaluations: the nested dict and one pytrec_eval
    ``RelevanceEvaluator`` per set of measures and relevance level (used by ``compare_runs`` for
    its two run pairs)."""

    def __init__(self, qrels: pd.DataFrame):
        self.qrels = qrels
        self.by_topic = _qrels_dict(qrels)
        self._evaluators: dict[tuple[frozenset, int], pytrec_eval.RelevanceEvaluator] = {}

    def evaluator(self, requests: frozenset, relevance_level: int = 1) -> pytrec_eval.RelevanceEvaluator:
        """trec_eval's evaluator of ``requests`` counting grades >= ``relevance_level`` relevant (``-l``)."""
        key = (requests, relevance_level)
        if key not in self._evaluators:
            self._evaluators[key] = pytrec_eval.RelevanceEvaluator(self.by_topic, set(requests), relevance_level=relevance_level)
        return self._evaluators[key]


def evaluate_prepared(
    runs,
    qrels: pd.DataFrame,
    measures: Sequence[str],
    *,
    missing_topics: str,
    no_relevant: str,
    judgments: Judgments | None = None,
    stacklevel: int = 2,
) -> Evaluation:
    """:func:`evaluate` with qrels prepared once (``judgments``, :class:`Judgments` of ``qrels``)
    for several evaluations, as ``compare_runs`` does; warnings are attributed ``stacklevel``
    frames up. Arguments are not validated here: callers validate them (``evaluate`` does)."""
    parsed = [parse_measure(name) for name in measures]
    run_frames = _as_runs(runs)
    if judgments is None or judgments.qrels is not qrels:
        judgments = Judgments(qrels)
    report = missing_topic_report(run_frames, qrels, missing_topics=missing_topics, no_relevant=no_relevant)
    if report.topics_without_relevant and no_relevant == "drop":
        warnings.warn(report._no_relevant_line(), IgnoredTopicsWarning, stacklevel=stacklevel)
    for run_name, ignored in report.not_in_qrels.items():
        if ignored:
            warnings.warn(
                f"run {run_name}: {len(ignored)} topic(s) not in the qrels ignored, as trec_eval does: "
                f"{_topics(ignored)}",
                IgnoredTopicsWarning,
                stacklevel=stacklevel,
            )

    # one evaluator per relevance level (trec_eval -l): pytrec_eval takes one level per evaluator
    levels = {level: [m for m in parsed if m.relevance_level == level] for level in sorted({m.relevance_level for m in parsed})}
    evaluators = {level: judgments.evaluator(frozenset(m.request for m in group), level) for level, group in levels.items()}
    topics = list(report.evaluated_topics)
    columns: dict[str, dict[str, np.ndarray]] = {m.name: {} for m in parsed}
    fill = 0.0 if missing_topics == "zero" else np.nan
    for run_name, frame in run_frames.items():
        run_dict = _nested(
            frame["query_id"], frame["doc_id"], frame["score"].astype("float64"), what=f"run {run_name} lists"
        )
        for level, group in levels.items():
            scored = evaluators[level].evaluate(run_dict)
            for measure in group:
                values = np.array(
                    [scored[t][measure.trec_eval] if t in scored else fill for t in topics], dtype="float64"
                )
                columns[measure.name][run_name] = values
    index = pd.Index(topics, dtype="str", name="query_id")
    frames = {
        name: pd.DataFrame(by_run, index=index, columns=list(run_frames), dtype="float64")
        for name, by_run in columns.items()
    }
    for name, frame in frames.items():
        frame.columns.name = "run"
        if missing_topics == "drop":  # a topic no run has is no row at all
            frames[name] = frame.dropna(how="all")
    return Evaluation(frames, report)
