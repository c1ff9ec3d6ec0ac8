"""``irrepro evaluate --qrels Q RUN...``: trec_eval's numbers for many runs at once.

Without ``--per-topic`` it prints each run's mean per measure; with it, every topic's score
(and, in the table, the mean as topic ``all``, as ``trec_eval -q`` does).  Formats:

- ``table`` (default): aligned text, four decimals as trec_eval prints them, and the number of
  topics each mean averages;
- ``csv``: ``run,file,topic,measure,value`` with ``--per-topic``, else
  ``run,file,measure,value,n_topics`` (``n_topics``: the topics the mean averages); full
  precision; ``measure`` the name as given;
- ``json`` (strict: an undefined value is ``null``): ``{"runs": {run: {"file": ...,
  "mean": {measure: value}, "n_topics": n, "topics": [topics averaged], "per_topic": {measure:
  {topic: value}}}}, "missing_topics": ..., "no_relevant": ..., "topics_without_relevant": [...],
  "notes": [...]}``.

Which topics a mean averages: the qrels topics (``--no-relevant drop``, the default: those with a
relevant document; ``keep``: all, as trec_eval), less, under ``--missing-topics drop``, those the
run lacks. ``--missing-topics zero --no-relevant keep`` gives ``trec_eval -c``'s numbers.

``run`` is the run's label: its run tag, or where tags collide its file name, path or
``path#position`` (:func:`irrepro.labels.run_labels`); every output gives the file beside it.
Notes on topics the missing-topic policy touched and warnings (ignored lines, topics not in
the qrels) go to stderr.

Each run file is read in chunks and evaluated topic by topic as it is read (a run whose topics
are not in blocks is held as topic codes, docnos and scores and sorted by topic), so its lines are
never all held as a frame (:class:`irrepro.runs.RunStream`, :meth:`irrepro.evaluation.Judgments.score`).
"""

from __future__ import annotations

import csv
import math
import sys
import warnings
from functools import partial

from irrepro.commands._common import add_no_relevant, dump_json, input_path, measure_list, read_input

__all__ = ["NAME", "HELP", "MISSING_TOPIC_POLICIES", "add_arguments", "run"]

NAME = "evaluate"
HELP = "evaluate TREC runs against qrels with trec_eval's own code (AP, P@k, R@k, RR, nDCG, ... and ir_measures' names)"
#: The choices of --missing-topics: irrepro.evaluation.MISSING_TOPIC_POLICIES (repeated here so that
#: building the parser does not import pandas; a test checks that the two agree).
MISSING_TOPIC_POLICIES = ("zero", "drop")


def add_arguments(parser) -> None:
    """Add the options of ``irrepro evaluate`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``evaluate``.
    """
    parser.add_argument(
        "--qrels", required=True, type=input_path, help="TREC qrels file (topic iteration docno relevance)"
    )
    parser.add_argument(
        "runs", nargs="+", type=input_path, metavar="RUN", help="TREC run files (topic Q0 docno rank score tag)"
    )
    parser.add_argument(
        "--measures",
        type=measure_list,
        default="AP,P@10,nDCG",
        help="comma-separated: AP, AP@k, P@k, R@k, RR, R-prec, nDCG, nDCG@k, also with ir_measures' rel "
        "parameter, e.g. P(rel=2)@10 (default: %(default)s)",
    )
    parser.add_argument(
        "--per-topic", action="store_true", help="print every topic's score, not only the means"
    )
    parser.add_argument("--format", choices=["table", "csv", "json"], default="table")
    parser.add_argument(
        "--missing-topics",
        choices=MISSING_TOPIC_POLICIES,
        default="zero",
        help="a judged topic that a run lacks: 'zero' (the default) scores it 0 on every measure, as "
        "'trec_eval -c' does, so all runs are averaged over the same topics; 'drop' leaves it out of "
        "that run's mean, which is trec_eval's own default (without -c)",
    )
    add_no_relevant(parser)


def run(args) -> int:
    """Run ``irrepro evaluate`` with the parsed arguments.

    Errors in the user's input raise; :func:`irrepro.cli.main` prints them as one line (exit
    status 2).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    int
        The exit status: 0 on success.
    """
    from irrepro.evaluation import Judgments, evaluate_prepared
    from irrepro.labels import run_labels
    from irrepro.runs import read_qrels

    measures = args.measures
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        qrels = read_input(read_qrels, args.qrels, "--qrels")
        judgments = Judgments(qrels)
        scored = [read_input(partial(_score_file, judgments, measures), path, "run") for path in args.runs]
        labels = run_labels([tag for tag, _ in scored], args.runs)
        result = evaluate_prepared(
            {label: scores for label, (_, scores) in zip(labels, scored, strict=True)}, qrels, measures,
            missing_topics=args.missing_topics, no_relevant=args.no_relevant, judgments=judgments,
        )  # fmt: skip
    notes = [str(w.message) for w in caught]
    notes += [line for line in result.report.summary() if line not in notes]
    for note in notes:
        print(f"irrepro evaluate: note: {note}", file=sys.stderr)

    files = {label: str(path) for label, path in zip(labels, args.runs, strict=True)}
    if args.format == "json":
        print(dump_json(_as_json(result, measures, files, args, notes)))
    elif args.format == "csv":
        _write_csv(result, measures, files, per_topic=args.per_topic)
    else:
        print(_as_table(result, measures, labels, files, per_topic=args.per_topic))
    return 0


def _score_file(judgments, measures, path):
    """(run tag, :class:`~irrepro.evaluation.RunScores`) of one run file, streamed: its lines are
    evaluated topic by topic as they are read, never held all at once (``irrepro.runs.RunStream``)."""
    from irrepro.runs import RunStream

    with RunStream(path) as stream:
        scores = judgments.score(stream, measures)
        return stream.tag, scores


def _write_csv(result, measures, files, *, per_topic: bool) -> None:
    """Rows of label, file, (topic,) measure, value; an undefined mean is an empty field."""
    writer = csv.writer(sys.stdout, lineterminator="\n")
    if per_topic:
        writer.writerow(["run", "file", "topic", "measure", "value"])
        for label, path in files.items():
            for topic in result[measures[0]].index:
                for measure in measures:
                    value = result[measure].at[topic, label]
                    if not math.isnan(value):  # NaN: a topic this run lacks under --missing-topics drop
                        writer.writerow([label, path, topic, measure, repr(float(value))])
    else:
        writer.writerow(["run", "file", "measure", "value", "n_topics"])
        means = result.means()
        for label, path in files.items():
            n_topics = len(result.report.averaged(label))
            for measure in measures:
                value = float(means.at[label, measure])
                writer.writerow([label, path, measure, "" if math.isnan(value) else repr(value), n_topics])


def _as_table(result, measures, labels, files, *, per_topic: bool) -> str:
    means = result.means()
    if not per_topic:
        table = means.loc[labels, measures].copy()
        table["topics"] = [len(result.report.averaged(label)) for label in labels]
        table["file"] = [files[label] for label in labels]
        table.index.name = "run"
        table.columns.name = None
        return table.to_string(float_format=lambda v: f"{v:.4f}", na_rep="undefined")
    blocks = []
    for label in labels:
        table = (
            result[measures[0]][[label]]
            .rename(columns={label: measures[0]})
            .join([result[m][[label]].rename(columns={label: m}) for m in measures[1:]])
            .dropna(how="all")
        )
        table.loc["all"] = means.loc[label, measures]
        table.index.name = "topic"
        table.columns.name = None
        text = table.to_string(float_format=lambda v: f"{v:.4f}", na_rep="undefined")
        blocks.append(f"run {label} ({files[label]})\n{text}")
    return "\n\n".join(blocks)


def _as_json(result, measures, files, args, notes) -> dict:
    means = result.means()
    runs = {}
    for label, path in files.items():
        averaged = result.report.averaged(label)
        entry = {"file": path, "mean": {m: float(means.at[label, m]) for m in measures}, "n_topics": len(averaged),
                 "topics": list(averaged)}  # fmt: skip
        if args.per_topic:
            entry["per_topic"] = {
                m: {topic: float(v) for topic, v in result[m][label].dropna().items()} for m in measures
            }
        runs[label] = entry
    return {
        "qrels": str(args.qrels),
        "missing_topics": args.missing_topics,
        "no_relevant": args.no_relevant,
        "topics_without_relevant": list(result.report.topics_without_relevant),
        "measures": measures,
        "runs": runs,
        "notes": notes,
    }
