"""``irrepro deteriorate --qrels Q RUN --mode M ... --out F``: a run made worse (or better) by a known amount.

The operations of Maistro, Breuer, Schaer and Ferro (IP&M 2023; their ``deteriorate_run.py``), as
:func:`irrepro.reproducibility.deterioration.deteriorate` implements them: in a share of the topics,
relevant documents of the source interval of ranks are swapped with non-relevant ones of the
destination interval, or replaced (mode ``worse``; ``better`` the other way). Settings that do not fit
together (overlapping intervals, more swaps than an interval holds, a share outside [0, 1]) are refused
with one line naming the option, before any file is read. The new run is written atomically to
``--out`` as the input file edited (:func:`irrepro.runs.edit_run`): the lines whose document changed
get the new docno, every other byte is the input's (without its ir_metadata header, which described
the original), so ``diff RUN OUT`` shows the deterioration; a run read from standard input or a pipe
is written anew in trec_eval order (:func:`irrepro.runs.write_run`). ``--report`` writes what was done
per topic as CSV; one line on standard output says what was done in all.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import TYPE_CHECKING

from irrepro.commands._common import InputError, input_path, read_input

__all__ = ["NAME", "HELP", "MODES", "rank_interval", "add_arguments", "run"]

if TYPE_CHECKING:
    import pandas as pd

NAME = "deteriorate"
HELP = "make a run worse (or better) by a known amount: swaps and replacements of relevant documents (IP&M 2023)"
#: The modes (irrepro.reproducibility.deterioration's; repeated so that building the parser imports no pandas).
MODES = ("worse", "better", "betterworse", "worsebetter")
_NAMES = {"swaps": "--swaps", "replacements": "--replacements", "source": "--source", "destination": "--destination"}


def rank_interval(text: str) -> tuple[int, int]:
    """Read a rank interval ``A-B`` (1-based, inclusive, A <= B).

    Parameters
    ----------
    text : str
        The option's text.

    Returns
    -------
    tuple of (int, int)
        ``(A, B)``.

    Raises
    ------
    argparse.ArgumentTypeError
        If the text is not two integers ``1 <= A <= B`` joined by ``-``.

    Examples
    --------
    >>> rank_interval("1-10")
    (1, 10)
    """
    start, dash, end = text.partition("-")
    if not dash or not start.strip().isdigit() or not end.strip().isdigit():
        raise argparse.ArgumentTypeError(f"a rank interval is A-B with whole numbers 1 <= A <= B, got {text!r}")
    low, high = int(start), int(end)
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"a rank interval is A-B with whole numbers 1 <= A <= B, got {text!r}")
    return low, high


def _count(text: str) -> int:
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"a whole number >= 0, got {text!r}")
    return int(text)


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a share in [0, 1], got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a share in [0, 1], got {text!r}")
    return value


def add_arguments(parser) -> None:
    """Add the options of ``irrepro deteriorate`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``deteriorate``.
    """
    parser.add_argument("--qrels", required=True, type=input_path, help="TREC qrels file (topic iteration docno relevance)")
    parser.add_argument("run", type=input_path, metavar="RUN", help="the TREC run file to deteriorate")
    parser.add_argument("--mode", required=True, choices=MODES,
                        help="worse: relevant documents of the source move to the destination or become unjudged fakes; "
                        "better: the other way; betterworse, worsebetter: swaps of one, replacements of the other")  # fmt: skip
    parser.add_argument("--swaps", type=_count, default=0, help="swaps per topic (default: %(default)s)")
    parser.add_argument("--replacements", type=_count, default=0, help="replacements per topic (default: %(default)s)")
    parser.add_argument("--topics-share", type=_share, required=True, help="the share of topics deteriorated, in [0, 1]")
    parser.add_argument("--source", type=rank_interval, required=True, metavar="A-B", help="the source ranks, e.g. 1-10")
    parser.add_argument("--destination", type=rank_interval, required=True, metavar="C-D",
                        help="the destination ranks, e.g. 51-100; must not overlap the source")  # fmt: skip
    parser.add_argument("--seed", type=_count, default=0, help="the seed of the random choices (default: %(default)s)")
    parser.add_argument("--out", required=True, help="the deteriorated run file to write")
    parser.add_argument("--report", help="also write what was done per topic, as CSV")
    parser.add_argument("--drop-unjudged", action="store_true",
                        help="leave out the run's topics that the qrels do not judge (otherwise an error names them)")  # fmt: skip


def run(args) -> int:
    """Run ``irrepro deteriorate`` with the parsed arguments.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    int
        The exit status: 0 on success.

    Raises
    ------
    InputError
        For settings that do not fit together (one line, exit status 2).
    """
    from irrepro.outputs import atomic_write_text
    from irrepro.reproducibility.deterioration import deteriorate, settings_problem
    from irrepro.runs import edit_run, read_qrels, read_run, write_run

    problem = settings_problem(swaps=args.swaps, replacements=args.replacements, source=args.source,
                               destination=args.destination, names=_NAMES)  # fmt: skip
    if problem:
        raise InputError(problem)
    qrels = read_input(read_qrels, args.qrels, "--qrels")
    settings = {"mode": args.mode, "swaps": args.swaps, "replacements": args.replacements,
                "topics_share": args.topics_share, "source": args.source, "destination": args.destination,
                "seed": args.seed}  # fmt: skip
    # A regular file is read topic by topic, keeping only the rows deteriorate looks at, and edited
    # line by line (read again to copy its bytes). A run whose topics are not in blocks, or with a
    # problem only the whole file shows, is read whole; standard input or a pipe cannot be read
    # twice, so that run is written anew by write_run.
    editable = args.run != "-" and Path(args.run).is_file()
    streamed = read_input(functools.partial(_rows_read, qrels, settings, args.drop_unjudged), args.run, "run") \
        if editable else None  # fmt: skip
    if streamed is not None:
        kept, left_out = streamed
    else:
        frame = read_input(functools.partial(read_run, line_numbers=editable), args.run, "run")
        kept, left_out = _judged_only(frame, qrels) if args.drop_unjudged else (frame, frame.iloc[:0])
    result = deteriorate(kept, qrels, **settings)
    if editable:
        edit_run(args.run, args.out, docnos=result.changed_lines(kept), leave_out=left_out["line"].tolist())
    else:
        write_run(result.run, args.out)
    if args.report:
        atomic_write_text(args.report, result.topics.to_csv(index=False))
    dropped = left_out["query_id"].nunique()
    note = f"; {dropped} unjudged topic(s) left out" if dropped else ""
    print(f"irrepro deteriorate: {result.summary()}{note}; written to {args.out}")
    return 0


def _judged_only(frame: pd.DataFrame, qrels: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of topics the qrels judge, and the others (``--drop-unjudged``)."""
    judged = frame["query_id"].isin(set(qrels["query_id"])).to_numpy()
    return frame[judged].reset_index(drop=True), frame[~judged]


def _by_score(rows: pd.DataFrame) -> pd.DataFrame:
    """Whole topics, each sorted by score (descending), with ``rank`` its position: ``rows`` as they
    are when the file lists each topic so (the usual case: no sort, ties left in file order,
    :func:`~irrepro.reproducibility.deterioration.rows_read` does not need them ordered), else ranked."""
    import numpy as np

    from irrepro.run_dicts import block_starts
    from irrepro.runs import rank_by_score

    scores = rows["score"].to_numpy(dtype="float64")
    starts = block_starts(rows["query_id"].to_numpy(dtype=object))
    same_topic = np.ones(len(rows), dtype=bool)
    same_topic[starts] = False
    if not (scores[1:][same_topic[1:]] <= scores[:-1][same_topic[1:]]).all():  # NaN fails too
        return rank_by_score(rows)
    return rows.assign(rank=np.arange(len(rows)) - np.repeat(starts, np.diff(np.r_[starts, len(rows)])) + 1)


def _rows_read(qrels: pd.DataFrame, settings: dict, drop_unjudged: bool, path: Path):
    """The rows of the run file ``path`` that deteriorate looks at, read topic by topic with their line
    numbers (:func:`~irrepro.reproducibility.deterioration.rows_read`), and the rows of unjudged topics
    left out; ``None`` when the run must be read whole (topics not in blocks, a document twice, no line)."""
    import pandas as pd

    from irrepro.reproducibility.deterioration import rows_reader
    from irrepro.run_dicts import NeedsWholeRun, whole_topics
    from irrepro.runs import RunStream, rank_by_score

    rows_read = rows_reader(qrels, mode=settings["mode"], source=settings["source"], destination=settings["destination"])
    kept, left_out = [], []
    with RunStream(path, line_numbers=True) as stream:
        try:
            for rows in whole_topics(stream, distinct_documents=True):
                if drop_unjudged:
                    rows, unjudged = _judged_only(rows, qrels)
                    left_out.append(unjudged[["query_id", "line"]])
                    if rows.empty:
                        continue
                ranked = _by_score(rows)
                kept.append(ranked[rows_read(ranked)])
        except NeedsWholeRun:
            return None
        stream.warn(stacklevel=3)
        tag = stream.tag
    if not kept:  # no judged topic: the whole run's reading says so
        return None
    frame = rank_by_score(pd.concat(kept, ignore_index=True).assign(run=tag))  # topics in string order, as deteriorate ranks
    return frame, (pd.concat(left_out, ignore_index=True) if left_out else frame.iloc[:0])
