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
from typing import TYPE_CHECKING

from irrepro.validation import Constraint, InvalidParameterError

if TYPE_CHECKING:  # for the signatures only: building the parser imports no pandas
    import pandas as pd

    from irrepro.metadata import PairExperiment

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
    """Make an argparse ``type=`` that reads and checks an option's text with ``constraint``.

    Parameters
    ----------
    constraint : Constraint
        What the option's value may be.

    Returns
    -------
    callable
        Reads the text; raises ``argparse.ArgumentTypeError`` ("must be ...; got ...") for a
        value the constraint refuses.
    """

    def parse(text: str):
        try:
            return constraint.from_text(text)
        except InvalidParameterError:
            raise argparse.ArgumentTypeError(f"must be {constraint.describe()}; got {text!r}") from None

    return parse


def measure_list(text: str) -> list[str]:
    """Read ``--measures AP,P@10,nDCG``: comma-separated names, each one irrepro knows, none twice.

    Commas inside ir_measures' parameters, ``nDCG(dcg='log2',judged_only=False)@10``, do not
    separate.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    list of str
        The names.

    Raises
    ------
    argparse.ArgumentTypeError
        For no name, an unknown name, or a name given twice.
    """
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
    """Add ``--no-relevant {drop,keep}``: what to do with a qrels topic judged without a relevant document.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser.
    """
    parser.add_argument(
        "--no-relevant", choices=NO_RELEVANT_POLICIES, default="drop",
        help="a qrels topic whose judgments hold no relevant document (grades 0 or below only): 'drop' (the "
        "default) leaves it out of every mean; 'keep' scores it 0 on every measure and counts it in the means, as "
        "trec_eval does. trec_eval's numbers exactly: '--no-relevant keep' (with '--missing-topics zero' for "
        "'trec_eval -c', with '--missing-topics drop' for trec_eval without -c)",
    )  # fmt: skip


def input_path(text: str) -> Path | str:
    """Read a file argument: ``-`` (standard input) stays the string ``"-"``, anything else is a Path.

    Parameters
    ----------
    text : str
        The argument.

    Returns
    -------
    pathlib.Path or str
        The path, or ``"-"``.

    Raises
    ------
    argparse.ArgumentTypeError
        For an empty argument.
    """
    if not text:
        raise argparse.ArgumentTypeError("must be a file name; got ''")
    return text if text == "-" else Path(text)


def describe_os_error(error: OSError) -> str:
    """Describe an operating-system error as ``FILE: problem``.

    ``[Errno 2] No such file ...`` names no file the way a reader wants it.

    Parameters
    ----------
    error : OSError
        The error.

    Returns
    -------
    str
        The description.
    """
    if error.filename is None:
        return error.strerror or str(error)
    where = os.fsdecode(error.filename)
    if error.filename2 is not None:
        where += f" -> {os.fsdecode(error.filename2)}"
    return f"{where}: {error.strerror or error}"


def read_input(reader: Callable, path: Path | str, what: str):
    """Call ``reader(path)``, any failure turned into an :class:`InputError` that names the file.

    The readers name file and line themselves; errors from the operating system, from decoding or
    from pandas (a number too large for any column type) may not, and are prefixed with ``what``
    (e.g. ``--qrels``) and the path.

    Parameters
    ----------
    reader : callable
        Reads the file (:func:`irrepro.runs.read_run`, :func:`irrepro.runs.read_qrels`).
    path : pathlib.Path or str
        The file, or ``"-"``.
    what : str
        The option or argument that named it.

    Returns
    -------
    object
        What ``reader`` returns.

    Raises
    ------
    InputError
        For any failure, naming the file.
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
    """Write strict JSON (RFC 8259): an undefined value is ``null``, never ``NaN`` or ``Infinity``.

    Parameters
    ----------
    document : object
        Dicts, lists, strings, numbers, None (numpy numbers included).

    Returns
    -------
    str
        The JSON text, indented.
    """
    return json.dumps(_strict(document), indent=2, allow_nan=False)


def run_experiment(
    *,
    orig_baseline: pd.DataFrame,
    orig_advanced: pd.DataFrame,
    new_baseline: pd.DataFrame,
    new_advanced: pd.DataFrame,
    ignore: bool = False,
) -> PairExperiment:
    """Give the :class:`~irrepro.metadata.PairExperiment` of four run frames' ir_metadata headers.

    Parameters
    ----------
    orig_baseline, orig_advanced, new_baseline, new_advanced : pandas.DataFrame
        Run frames as :func:`irrepro.runs.read_run` returns them.
    ignore : bool, default False
        Read no header (``--ignore-metadata``).

    Returns
    -------
    PairExperiment
        What the headers say the comparison is.

    Raises
    ------
    InputError
        If the headers contradict each other.
    """
    from irrepro.metadata import MetadataError, PairExperiment, pair_experiment
    from irrepro.runs import run_metadata

    if ignore:
        return PairExperiment(reason="ir_metadata headers ignored (--ignore-metadata)")
    try:
        return pair_experiment(orig_baseline=run_metadata(orig_baseline), orig_advanced=run_metadata(orig_advanced),
                               new_baseline=run_metadata(new_baseline), new_advanced=run_metadata(new_advanced))
    except MetadataError as error:
        raise InputError(f"{error}; or pass --ignore-metadata to decide by --new-qrels") from None


def settle_setting(experiment: PairExperiment, *, new_qrels: bool, pair: str = "") -> str:
    """Say in one sentence how the setting was decided.

    By the runs' ir_metadata headers (PRIMAD: is the new runs' test collection the original one?)
    or, without complete headers, by ``--new-qrels`` as before.

    Parameters
    ----------
    experiment : PairExperiment
        What the headers say.
    new_qrels : bool
        Whether ``--new-qrels`` was given.
    pair : str, default ""
        The pair's name, for the error message.

    Returns
    -------
    str
        The sentence.

    Raises
    ------
    InputError
        If the headers and ``--new-qrels`` disagree.
    """
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
