"""``irrepro evaluate --qrels Q RUN...``: trec_eval's numbers for many runs at once.

Without ``--per-topic`` it prints each run's mean per measure; with it, every topic's score
(and, in the table, the mean as topic ``all``, as ``trec_eval -q`` does).  Formats:

- ``table`` (default): aligned text, four decimals as trec_eval prints them;
- ``csv``: ``run,topic,measure,value`` with ``--per-topic``, else ``run,measure,value``;
  full precision; ``run`` is the file's run tag, ``measure`` the name as given;
- ``json``: ``{"runs": {run: {"file": ..., "mean": {measure: value},
  "per_topic": {measure: {topic: value}}}}, "missing_topics": ..., "notes": [...]}``.

Notes on topics the missing-topic policy touched and warnings (ignored lines, topics not in
the qrels) go to stderr.  Runs that share a run tag are labelled by their file path instead.
"""

from __future__ import annotations

import csv
import json
import sys
import warnings
from pathlib import Path

from irrepro.evaluation import MISSING_TOPIC_POLICIES, evaluate, parse_measure
from irrepro.runs import read_qrels, read_run

NAME = "evaluate"
HELP = "evaluate TREC runs against qrels exactly as trec_eval does (AP, P@k, nDCG, nDCG@k, R-prec, recall@k)"


def add_arguments(parser) -> None:
    parser.add_argument(
        "--qrels", required=True, type=Path, help="TREC qrels file (topic iteration docno relevance)"
    )
    parser.add_argument(
        "runs", nargs="+", type=Path, metavar="RUN", help="TREC run files (topic Q0 docno rank score tag)"
    )
    parser.add_argument(
        "--measures",
        default="AP,P@10,nDCG",
        help="comma-separated: AP, P@k, nDCG, nDCG@k, R-prec, recall@k (default: %(default)s)",
    )
    parser.add_argument(
        "--per-topic", action="store_true", help="print every topic's score, not only the means"
    )
    parser.add_argument("--format", choices=["table", "csv", "json"], default="table")
    parser.add_argument(
        "--missing-topics",
        choices=list(MISSING_TOPIC_POLICIES),
        default="zero",
        help="a judged topic missing from a run scores 0 (zero, trec_eval -c; default) or is left out (drop)",
    )


def _labels(paths: list[Path], tags: list[str]) -> list[str]:
    """The run tag, or the file path where two files share a tag."""
    return [str(path) if tags.count(tag) > 1 else tag for path, tag in zip(paths, tags)]


def run(args) -> int:
    measures = [name.strip() for name in args.measures.split(",") if name.strip()]
    for name in measures:
        parse_measure(name)  # fail before reading any file
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        qrels = read_qrels(args.qrels)
        frames = [read_run(path) for path in args.runs]
        labels = _labels(args.runs, [frame["run"].iat[0] for frame in frames])
        result = evaluate(dict(zip(labels, frames)), qrels, measures, missing_topics=args.missing_topics)
    notes = [str(w.message) for w in caught]
    notes += [line for line in result.report.summary() if line not in notes]
    for note in notes:
        print(f"irrepro evaluate: note: {note}", file=sys.stderr)

    files = dict(zip(labels, args.runs))
    if args.format == "json":
        print(json.dumps(_as_json(result, measures, files, args, notes), indent=2))
    elif args.format == "csv":
        _write_csv(result, measures, labels, per_topic=args.per_topic)
    else:
        print(_as_table(result, measures, labels, files, per_topic=args.per_topic))
    return 0


def _write_csv(result, measures, labels, *, per_topic: bool) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    if per_topic:
        writer.writerow(["run", "topic", "measure", "value"])
        for label in labels:
            for topic in result[measures[0]].index:
                for measure in measures:
                    value = result[measure].at[topic, label]
                    if value == value:  # NaN: a topic this run lacks under --missing-topics drop
                        writer.writerow([label, topic, measure, repr(float(value))])
    else:
        writer.writerow(["run", "measure", "value"])
        means = result.means()
        for label in labels:
            for measure in measures:
                writer.writerow([label, measure, repr(float(means.at[label, measure]))])


def _as_table(result, measures, labels, files, *, per_topic: bool) -> str:
    means = result.means()
    if not per_topic:
        table = means.loc[labels, measures].copy()
        table.index.name = "run"
        table.columns.name = None
        return table.to_string(float_format=lambda v: f"{v:.4f}")
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
        blocks.append(f"run {label} ({files[label]})\n" + table.to_string(float_format=lambda v: f"{v:.4f}"))
    return "\n\n".join(blocks)


def _as_json(result, measures, files, args, notes) -> dict:
    means = result.means()
    runs = {}
    for label, path in files.items():
        entry = {"file": str(path), "mean": {m: float(means.at[label, m]) for m in measures}}
        if args.per_topic:
            entry["per_topic"] = {
                m: {topic: float(v) for topic, v in result[m][label].dropna().items()} for m in measures
            }
        runs[label] = entry
    return {
        "qrels": str(args.qrels),
        "missing_topics": args.missing_topics,
        "measures": measures,
        "runs": runs,
        "notes": notes,
    }
