"""What the commands share: option types, reading input files with errors that name them, strict JSON.

Option types are built on :mod:`irrepro.validation`, so an option is refused when it is parsed, in
the words a library call would use, before any file is read::

    irrepro compare: error: argument --rbo-p: must be a number in (0, 1); got '1.5'

Only light modules are imported here: every ``irrepro`` start builds the parser of every command.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable
from pathlib import Path

from irrepro.validation import Constraint, InvalidParameterError

__all__ = [
    "InputError", "NO_RELEVANT_POLICIES", "add_no_relevant", "option", "measure_list", "input_path", "read_input",
    "describe_os_error", "dump_json", "run_experiment", "settle_setting",
]  # fmt: skip

#: irrepro.evaluation.NO_RELEVANT_POLICIES, repeated so that building the parser imports no pandas
#: (a test checks that the two agree).
NO_RELEVANT_POLICIES = ("drop", "keep")


class InputError(ValueError):
    """A user's input cannot be used; the message names the file or option and the problem."""


def option(constraint: Constraint) -> Callable[[str], object]:
    """An argparse ``type=`` that reads and checks an option's text with ``constraint``."""

    def parse(text: str):
        try:
            return constraint.from_text(text)
        except InvalidParameterError:
            raise argparse.ArgumentTypeError(f"must be {constraint.describe()}; got {text!r}") from None

    return parse


def measure_list(text: str) -> list[str]:
    """``--measures AP,P@10,nDCG``: comma-separated names (commas inside ir_measures' parameters,
    ``nDCG(dcg='log2',judged_only=False)@10``, do not separate), each one irrepro knows, none twice."""
    from irrepro.measures import parse_measure, split_measure_names

    names = split_measure_names(text) if text.strip() else []
    if not names:
        raise argparse.ArgumentTypeError(f"give at least one measure; got {text!r}")
    for name in names:
        try:
            parse_measure(name)
        except InvalidParameterError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"{', '.join(twice)} named twice in {text!r}")
    return names


def add_no_relevant(parser) -> None:
    """``--no-relevant {drop,keep}``: what to do with a qrels topic judged without a relevant document."""
    parser.add_argument(
        "--no-relevant", choices=NO_RELEVANT_POLICIES, default="drop",
        help="a qrels topic whose judgments hold no relevant document (grades 0 or below only): 'drop' (the "
        "default) leaves it out of every mean; 'keep' scores it 0 on every measure and counts it in the means, as "
        "trec_eval does. trec_eval's numbers exactly: '--no-relevant keep' (with '--missing-topics zero' for "
        "'trec_eval -c', with '--missing-topics drop' for trec_eval without -c)",
    )  # fmt: skip


def input_path(text: str) -> Path | str:
    """A file argument: ``-`` (standard input) stays the string ``"-"``, anything else is a Path."""
    if not text:
        raise argparse.ArgumentTypeError("must be a file name; got ''")
    return text if text == "-" else Path(text)


def describe_os_error(error: OSError) -> str:
    """``FILE: problem`` for an operating-system error (``[Errno 2] No such file ...`` names no file
    the way a reader wants it)."""
    if error.filename is None:
        return error.strerror or str(error)
    where = os.fsdecode(error.filename)
    if error.filename2 is not None:
        where += f" -> {os.fsdecode(error.filename2)}"
    return f"{where}: {error.strerror or error}"


def read_input(reader: Callable, path: Path | str, what: str):
    """``reader(path)``, any failure turned into an :class:`InputError` that names the file.

    The readers name file and line themselves; errors from the operating system, from decoding or
    from pandas (a number too large for any column type) may not, and are prefixed with ``what``
    (e.g. ``--qrels``) and the path.
    """
    try:
        return reader(path)
    except OSError as error:
        raise InputError(f"{what}: {describe_os_error(error)}") from error
    except ValueError as error:
        message = str(error)
        # The readers call standard input "<stdin>"; any other message is prefixed with the file.
        shown = "<stdin>" if str(path) == "-" else str(path)
        if shown not in message:
            message = f"{what} {shown}: {message}"
        raise InputError(message) from error


def _strict(value):
    """``value`` with NaN and infinities as ``None`` and numpy scalars as Python numbers."""
    if isinstance(value, dict):
        return {str(key): _strict(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(item) for item in value]
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", None) == 0:
        value = value.item()  # numpy scalar
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def dump_json(document) -> str:
    """Strict JSON (RFC 8259): an undefined value is ``null``, never ``NaN`` or ``Infinity``."""
    return json.dumps(_strict(document), indent=2, allow_nan=False)


def run_experiment(*, orig_baseline, orig_advanced, new_baseline, new_advanced, ignore: bool = False):
    """The :class:`~irrepro.metadata.PairExperiment` of four run frames' ir_metadata headers (none
    derived with ``ignore``); headers that contradict each other are an :class:`InputError`."""
    from irrepro.metadata import MetadataError, PairExperiment, pair_experiment
    from irrepro.runs import run_metadata

    if ignore:
        return PairExperiment(reason="ir_metadata headers ignored (--ignore-metadata)")
    try:
        return pair_experiment(orig_baseline=run_metadata(orig_baseline), orig_advanced=run_metadata(orig_advanced),
                               new_baseline=run_metadata(new_baseline), new_advanced=run_metadata(new_advanced))
    except MetadataError as error:
        raise InputError(f"{error}; or pass --ignore-metadata to decide by --new-qrels") from None


def settle_setting(experiment, *, new_qrels: bool, pair: str = "") -> str:
    """How the setting was decided, in one sentence: by the runs' ir_metadata headers (PRIMAD: is
    the new runs' test collection the original one?) or, without complete headers, by
    ``--new-qrels`` as before. Headers and ``--new-qrels`` that disagree are an :class:`InputError`."""
    where = f"pair {pair}: " if pair else ""
    setting = "reproducibility (another test collection)" if new_qrels else "replicability (the original test collection)"
    if experiment.primad is None:
        return f"{where}{experiment.summary()}; --new-qrels {'given' if new_qrels else 'not given'}: {setting}"
    if experiment.same_collection and new_qrels:
        raise InputError(f"{where}the runs' ir_metadata headers put the new runs on the original test collection "
                         f"({experiment.summary()}); leave out --new-qrels, or decide by it with --ignore-metadata")
    if not experiment.same_collection and not new_qrels:
        raise InputError(f"{where}the runs' ir_metadata headers put the new runs on another test collection "
                         f"({experiment.summary()}); give its qrels with --new-qrels, or --ignore-metadata")
    return f"{where}{experiment.summary()}: {setting}"
