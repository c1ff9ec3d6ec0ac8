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
``R-prec``              ``Rprec``           relevant in the top R, / R
``AP@k``                ``map_cut_k``       AP of the top k (relevant retrieved below k count 0)
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
``no_relevant="keep"`` gives trec_eval's behaviour verbatim (on the command line
``--no-relevant keep``; with ``missing_topics="zero"``, ``trec_eval -c``'s numbers).
Either way :class:`MissingTopicReport` lists the topics concerned and a warning names the
ones left out.

Runs of many lines
------------------
trec_eval scores every topic on its own, so a run is given to its code in batches of whole
topics (:mod:`irrepro.run_dicts`): :func:`evaluate` builds the ``{topic: {docno: score}}`` dicts
of about 200,000 lines at a time, and :meth:`Judgments.score` evaluates a
:class:`irrepro.runs.RunStream` topic by topic as the file is read, as ``irrepro evaluate``
does, without ever holding the run's lines.  The numbers are those of one call on the whole run.

The report
----------
The returned mapping is an :class:`Evaluation` (a ``dict`` of measure name -> frame) whose
``report`` attribute is a :class:`MissingTopicReport`; :func:`missing_topic_report` computes
the same report without evaluating.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pytrec_eval

from irrepro.measures import Measure, parse_measure
from irrepro.run_dicts import NeedsWholeRun, NotInBlocks, grouped_batches, nested, nested_batches, sorted_batches
from irrepro.validation import (
    Choice,
    InvalidParameterError,
    MeasureList,
    OneOrMany,
    Qrels,
    RunFrame,
    validate_params,
)

if TYPE_CHECKING:
    from irrepro.runs import RunStream

__all__ = [
    "Measure",
    "parse_measure",
    "evaluate",
    "evaluate_prepared",
    "Judgments",
    "RunScores",
    "Evaluation",
    "MissingTopicReport",
    "missing_topic_report",
    "MISSING_TOPIC_POLICIES",
    "IgnoredTopicsWarning",
]

MISSING_TOPIC_POLICIES = ("zero", "drop")
NO_RELEVANT_POLICIES = ("drop", "keep")


class IgnoredTopicsWarning(UserWarning):
    """Topics were left out of an evaluation.

    Run topics not in the qrels, or qrels topics without a relevant document; filter this class to
    silence it where that is expected.
    """


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class MissingTopicReport:
    """Which topics the missing-topic policy touched, per run.

    Parameters
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
            fate = (
                "left out of every mean (trec_eval scores them 0 and counts them; for that, pass no_relevant='keep', "
                "on the command line --no-relevant keep)"
            )
        else:
            fate = "scored like any topic, 0 on every measure (as trec_eval does)"
        return f"{len(topics)} qrels topic(s) without a relevant document {fate}: {_topics(topics)}"

    def averaged(self, run: str) -> tuple[str, ...]:
        """Give the topics in ``run``'s mean: every evaluated topic, but under ``drop`` those it lacks.

        Parameters
        ----------
        run : str
            A run's name.

        Returns
        -------
        tuple of str
            The topics averaged, in the evaluation's order.
        """
        if self.policy == "zero":
            return self.evaluated_topics
        missing = set(self.missing[run])
        return tuple(t for t in self.evaluated_topics if t not in missing)

    def summary(self) -> list[str]:
        """Describe in one sentence per run each kind of topic touched.

        Returns
        -------
        list of str
            The sentences; empty when nothing was touched.
        """
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
    """Per-topic scores: a ``dict`` of measure name -> topics x runs frame, with its report.

    Parameters
    ----------
    frames : mapping of str -> pandas.DataFrame
        Measure name -> frame, index ``query_id``, one column per run.
    report : MissingTopicReport
        Which topics the missing-topic policy touched; kept as ``.report``.
    """

    report: MissingTopicReport

    def __init__(self, frames: Mapping[str, pd.DataFrame], report: MissingTopicReport):
        super().__init__(frames)
        self.report = report

    def means(self) -> pd.DataFrame:
        """Average each run's scores over its topics (NaN topics skipped, as under ``drop``).

        Returns
        -------
        pandas.DataFrame
            Runs x measures frame of per-run means, index ``run``.
        """
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
    return nested(qrels["query_id"], qrels["doc_id"], qrels["relevance"].astype("int64"), what="the qrels judge")


@validate_params(runs=RUNS, qrels=QRELS, **POLICIES)
def missing_topic_report(
    runs: Mapping[str, pd.DataFrame] | pd.DataFrame,
    qrels: pd.DataFrame,
    *,
    missing_topics: str = "zero",
    no_relevant: str = "drop",
) -> MissingTopicReport:
    """Give the :class:`MissingTopicReport` that :func:`evaluate` would attach, without evaluating.

    Parameters
    ----------
    runs : mapping of run name -> run frame, or one frame with a ``run`` column
        As for :func:`evaluate`.
    qrels : pandas.DataFrame
        As :func:`irrepro.runs.read_qrels` returns (``query_id``, ``doc_id``, ``relevance``).
    missing_topics : {"zero", "drop"}, default "zero"
        The missing-topic policy, as for :func:`evaluate`.
    no_relevant : {"drop", "keep"}, default "drop"
        What becomes of topics without a relevant document, as for :func:`evaluate`.

    Returns
    -------
    MissingTopicReport
        Which topics the policies touch, per run.

    Raises
    ------
    InvalidParameterError
        If an argument is not of the kind described here.
    """
    run_topics = {name: frame["query_id"].astype("str").unique() for name, frame in _as_runs(runs).items()}
    return _report(run_topics, qrels, missing_topics=missing_topics, no_relevant=no_relevant)


def _report(run_topics: Mapping[str, Iterable[str]], qrels: pd.DataFrame, *, missing_topics: str, no_relevant: str) -> MissingTopicReport:
    """The report of runs given by the topics each lists."""
    relevant = qrels.loc[qrels["relevance"] >= 1, "query_id"].astype("str").unique()
    judged = qrels["query_id"].astype("str").unique()
    without = tuple(sorted(set(judged) - set(relevant)))
    evaluated = set(judged) if no_relevant == "keep" else set(relevant)
    missing, not_in_qrels = {}, {}
    for name, topics in run_topics.items():
        topics = set(topics)
        missing[name] = tuple(sorted(evaluated - topics))
        not_in_qrels[name] = tuple(sorted(topics - set(judged)))
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


@dataclass(frozen=True)
class RunScores:
    """One run's part of an evaluation, before the missing-topic policy is applied.

    Parameters
    ----------
    topics : frozenset of str
        Every topic the run lists, judged or not.
    by_topic : dict topic -> dict trec_eval measure name -> float
        trec_eval's scores of the run's judged topics, as ``pytrec_eval`` returns them.
    """

    topics: frozenset[str]
    by_topic: dict[str, dict[str, float]]


class Judgments:
    """Qrels prepared once for several evaluations.

    The nested dict and one pytrec_eval ``RelevanceEvaluator`` per set of measures and relevance
    level (used by ``compare_runs`` for its two run pairs, and by ``irrepro evaluate`` for each run
    file).

    Parameters
    ----------
    qrels : pandas.DataFrame
        As :func:`irrepro.runs.read_qrels` returns (``query_id``, ``doc_id``, ``relevance``).
    """

    def __init__(self, qrels: pd.DataFrame):
        self.qrels = qrels
        self.by_topic = _qrels_dict(qrels)
        self._evaluators: dict[tuple[frozenset, int], pytrec_eval.RelevanceEvaluator] = {}

    def evaluator(self, requests: frozenset, relevance_level: int = 1) -> pytrec_eval.RelevanceEvaluator:
        """Give trec_eval's evaluator of ``requests``, made once and kept.

        Parameters
        ----------
        requests : frozenset of str
            pytrec_eval measure requests (``"map"``, ``"P.10"``).
        relevance_level : int, default 1
            Grades >= this count as relevant (trec_eval's ``-l``).

        Returns
        -------
        pytrec_eval.RelevanceEvaluator
            The evaluator of these qrels.
        """
        key = (requests, relevance_level)
        if key not in self._evaluators:
            self._evaluators[key] = pytrec_eval.RelevanceEvaluator(self.by_topic, set(requests), relevance_level=relevance_level)
        return self._evaluators[key]

    def evaluators(self, measures: Sequence[str]) -> dict[int, pytrec_eval.RelevanceEvaluator]:
        """Give one evaluator per relevance level the ``measures`` name (pytrec_eval takes one level each).

        Parameters
        ----------
        measures : sequence of str
            Names as :func:`parse_measure` reads them.

        Returns
        -------
        dict of int -> pytrec_eval.RelevanceEvaluator
            Relevance level -> the evaluator of the measures at that level.
        """
        parsed = [parse_measure(name) for name in measures]
        levels = sorted({m.relevance_level for m in parsed})
        return {level: self.evaluator(frozenset(m.request for m in parsed if m.relevance_level == level), level)
                for level in levels}  # fmt: skip

    def score(self, run: pd.DataFrame | RunStream, measures: Sequence[str], *, what: str = "run lists") -> RunScores:
        """Score one run by trec_eval, never holding more than a batch of its topics as dicts.

        A run frame is evaluated in batches of whole topics (:func:`~irrepro.run_dicts.nested_batches`);
        a :class:`irrepro.runs.RunStream` is evaluated topic by topic as the file is read
        (:func:`~irrepro.run_dicts.grouped_batches`); if its topics are not in blocks, it is read again
        and held as topic codes, docnos and scores, sorted by topic
        (:func:`~irrepro.run_dicts.sorted_batches`); if a topic lists a document twice or it is empty,
        it is read whole with :meth:`~irrepro.runs.RunStream.read`, whose errors and warnings are
        :func:`irrepro.runs.read_run`'s.  trec_eval scores each topic on its own, so the numbers are
        those of one call on the whole run.

        Parameters
        ----------
        run : pandas.DataFrame or irrepro.runs.RunStream
            A run frame (``query_id``, ``doc_id``, ``score``) or a run being read from its file.
        measures : sequence of str
            Names as :func:`parse_measure` reads them.
        what : str, default "run lists"
            The beginning of the error about a document twice in a frame's topic (``run X lists``).

        Returns
        -------
        RunScores
            The run's topics and trec_eval's scores of its judged ones.

        Raises
        ------
        ValueError
            If a run frame lists a document twice in one topic.
        irrepro.runs.RunFormatError
            If a streamed run is malformed.
        """
        evaluator = self.evaluators(measures)
        if isinstance(run, pd.DataFrame):
            return _score_batches(
                nested_batches(run["query_id"], run["doc_id"], run["score"].astype("float64"), what=what), evaluator
            )
        scores = _score_stream(run, evaluator)
        if scores is None:
            return self.score(run.read(), measures, what=what)
        run.warn(stacklevel=3)
        return scores


def _score_stream(stream, evaluator: dict[int, pytrec_eval.RelevanceEvaluator]) -> RunScores | None:
    """A stream's scores topic by topic as read; if its topics are not in blocks, from its lines
    held compactly and sorted by topic (a second reading); ``None``: read the run whole."""
    try:
        return _score_batches(grouped_batches(stream), evaluator)
    except NotInBlocks:
        try:
            return _score_batches(sorted_batches(stream), evaluator)
        except NeedsWholeRun:
            return None
    except NeedsWholeRun:
        return None


def _score_batches(batches, evaluators: dict[int, pytrec_eval.RelevanceEvaluator]) -> RunScores:
    """Every batch evaluated at each relevance level; a measure's score is kept under its
    :attr:`~irrepro.measures.Measure.key` (trec_eval's name, ``-l N`` added above level 1)."""
    topics: set[str] = set()
    by_topic: dict[str, dict[str, float]] = {}
    for batch in batches:
        topics.update(batch)
        for level, evaluator in evaluators.items():
            for topic, scores in evaluator.evaluate(batch).items():
                keyed = scores if level == 1 else {f"{name} -l {level}": value for name, value in scores.items()}
                by_topic.setdefault(topic, {}).update(keyed)
    return RunScores(frozenset(topics), by_topic)


def _warn_left_out(report: MissingTopicReport, *, stacklevel: int) -> None:
    """An :class:`IgnoredTopicsWarning` for topics without a relevant document left out and for
    each run's topics the qrels do not judge."""
    if report.topics_without_relevant and report.no_relevant_policy == "drop":
        warnings.warn(report._no_relevant_line(), IgnoredTopicsWarning, stacklevel=stacklevel)
    for run_name, ignored in report.not_in_qrels.items():
        if ignored:
            warnings.warn(
                f"run {run_name}: {len(ignored)} topic(s) not in the qrels ignored, as trec_eval does: "
                f"{_topics(ignored)}",
                IgnoredTopicsWarning,
                stacklevel=stacklevel,
            )


def evaluate_prepared(
    runs: Mapping[str, pd.DataFrame | RunScores] | pd.DataFrame,
    qrels: pd.DataFrame,
    measures: Sequence[str],
    *,
    missing_topics: str,
    no_relevant: str,
    judgments: Judgments | None = None,
    stacklevel: int = 2,
) -> Evaluation:
    """Evaluate as :func:`evaluate` does, with qrels prepared once for several evaluations.

    ``judgments`` (:class:`Judgments` of ``qrels``) is reused, as ``compare_runs`` does for its two
    run pairs. Arguments are not validated here: callers validate them (``evaluate`` does).
    A run may also be given as its :class:`RunScores` (``Judgments.score``), as ``irrepro
    evaluate`` does for runs streamed from files.

    Parameters
    ----------
    runs : mapping of run name -> run frame or RunScores, or one frame with a ``run`` column
        The runs, as for :func:`evaluate`.
    qrels : pandas.DataFrame
        As :func:`irrepro.runs.read_qrels` returns (``query_id``, ``doc_id``, ``relevance``).
    measures : sequence of str
        Names as :func:`parse_measure` reads them; they key the result.
    missing_topics : {"zero", "drop"}
        The missing-topic policy, as for :func:`evaluate`.
    no_relevant : {"drop", "keep"}
        What becomes of topics without a relevant document, as for :func:`evaluate`.
    judgments : Judgments, optional
        ``qrels`` prepared; made here when not given or prepared from other qrels.
    stacklevel : int, default 2
        The frame warnings are attributed to, counted as :func:`warnings.warn` counts.

    Returns
    -------
    Evaluation
        As :func:`evaluate` returns it.
    """
    parsed = [parse_measure(name) for name in measures]
    named_runs = _as_runs(runs)
    if judgments is None or judgments.qrels is not qrels:
        judgments = Judgments(qrels)
    run_topics = {
        name: run.topics if isinstance(run, RunScores) else run["query_id"].astype("str").unique()
        for name, run in named_runs.items()
    }
    report = _report(run_topics, qrels, missing_topics=missing_topics, no_relevant=no_relevant)
    _warn_left_out(report, stacklevel=stacklevel + 1)
    topics = list(report.evaluated_topics)
    fill = 0.0 if missing_topics == "zero" else np.nan
    columns: dict[str, dict[str, np.ndarray]] = {m.name: {} for m in parsed}
    for run_name, run in named_runs.items():
        if not isinstance(run, RunScores):
            run = judgments.score(run, measures, what=f"run {run_name} lists")
        for measure in parsed:
            values = [run.by_topic[t][measure.key] if t in run.by_topic else fill for t in topics]
            columns[measure.name][run_name] = np.array(values, dtype="float64")
    index = pd.Index(topics, dtype="str", name="query_id")
    frames = {
        name: pd.DataFrame(by_run, index=index, columns=list(named_runs), dtype="float64")
        for name, by_run in columns.items()
    }
    for name, frame in frames.items():
        frame.columns.name = "run"
        if missing_topics == "drop":  # a topic no run has is no row at all
            frames[name] = frame.dropna(how="all")
    return Evaluation(frames, report)
