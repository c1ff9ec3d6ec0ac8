"""``irrepro deteriorate --qrels Q RUN --mode M ... --out F``: a run made worse (or better) by a known amount.

The operations of Maistro, Breuer, Schaer and Ferro (IP&M 2023; their ``deteriorate_run.py``), as
:func:`irrepro.reproducibility.deterioration.deteriorate` implements them: in a share of the topics,
relevant documents of the source interval of ranks are swapped with non-relevant ones of the
destination interval, or replaced (mode ``worse``; ``better`` the other way). Settings that do not fit
together (overlapping intervals, more swaps than an interval holds, a share outside [0, 1]) are refused
with one line naming the option, before any file is read. The new run is written atomically to
``--out``; ``--report`` writes what was done per topic as CSV; one line on standard output says what
was done in all.
"""

from __future__ import annotations

import argparse

from irrepro.commands._common import InputError, input_path, read_input

__all__ = ["NAME", "HELP", "MODES", "rank_interval", "add_arguments", "run"]

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
    from irrepro.runs import read_qrels, read_run, write_run

    problem = settings_problem(swaps=args.swaps, replacements=args.replacements, source=args.source,
                               destination=args.destination, names=_NAMES)  # fmt: skip
    if problem:
        raise InputError(problem)
    qrels = read_input(read_qrels, args.qrels, "--qrels")
    frame = read_input(read_run, args.run, "run")
    dropped = 0
    if args.drop_unjudged:
        judged = frame["query_id"].isin(set(qrels["query_id"]))
        dropped = frame.loc[~judged, "query_id"].nunique()
        frame = frame[judged].reset_index(drop=True)
    result = deteriorate(frame, qrels, mode=args.mode, swaps=args.swaps, replacements=args.replacements,
                         topics_share=args.topics_share, source=args.source, destination=args.destination,
                         seed=args.seed)  # fmt: skip
    write_run(result.run, args.out)
    if args.report:
        atomic_write_text(args.report, result.topics.to_csv(index=False))
    note = f"; {dropped} unjudged topic(s) left out" if dropped else ""
    print(f"irrepro deteriorate: {result.summary()}{note}; written to {args.out}")
    return 0
