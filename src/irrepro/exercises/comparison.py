"""How a student's answer is compared with the reference answer of an exercise.

:func:`compare` walks the reference answer and the student's answer side by side and returns a
list of problems (empty: the answer is right). Numbers match within an absolute tolerance;
strings match ignoring case and surrounding blanks; mappings, sequences, Series and DataFrames
match entry by entry, by key or label (the order of a mapping's keys or a frame's rows does not
matter; the order of a sequence does). Each problem names where in the answer it is
(``RBO``, ``[2]``, ``row 10, column KTU``) and how the entry differs, but never the reference
value itself: the self-check gives a direction, not the answer.

An exercise whose answer needs another notion of "right" (a set of labels, a sign) passes its own
comparison to the :func:`irrepro.exercises.exercise` decorator; :func:`same_items` is one.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["compare", "same_items"]


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _where(path: str) -> str:
    return f"{path}: " if path else ""


def _compare_number(answer, reference, tolerance: float, path: str) -> list[str]:
    if not _is_number(answer):
        return [f"{_where(path)}expected a number, got {type(answer).__name__} {answer!r}"]
    answer, reference = float(answer), float(reference)
    if math.isnan(reference) or math.isnan(answer):
        return [] if math.isnan(reference) and math.isnan(answer) else [f"{_where(path)}{answer} is not what was asked"]
    if abs(answer - reference) <= tolerance:
        return []
    direction = "too high" if answer > reference else "too low"
    return [f"{_where(path)}{answer:.6g} is {direction} (tolerance ±{tolerance:g})"]


def _compare_mapping(answer, reference: Mapping, tolerance: float, path: str) -> list[str]:
    if isinstance(answer, pd.Series):
        answer = answer.to_dict()
    if not isinstance(answer, Mapping):
        return [f"{_where(path)}expected a mapping with keys {list(reference)}, got {type(answer).__name__}"]
    problems = []
    missing = [key for key in reference if key not in answer]
    extra = [key for key in answer if key not in reference]
    if missing:
        problems.append(f"{_where(path)}missing key(s) {missing}")
    if extra:
        problems.append(f"{_where(path)}unexpected key(s) {extra}")
    for key in reference:
        if key in answer:
            inner = f"{path}[{key!r}]" if path else str(key)
            problems += compare(answer[key], reference[key], tolerance=tolerance, path=inner)
    return problems


def _compare_sequence(answer, reference: Sequence, tolerance: float, path: str) -> list[str]:
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (Sequence, np.ndarray, pd.Series)):
        return [f"{_where(path)}expected a sequence of {len(reference)} entries, got {type(answer).__name__}"]
    answer = list(answer)
    if len(answer) != len(reference):
        return [f"{_where(path)}expected {len(reference)} entries, got {len(answer)}"]
    problems = []
    for i, (mine, theirs) in enumerate(zip(answer, reference, strict=True)):
        problems += compare(mine, theirs, tolerance=tolerance, path=f"{path}[{i}]")
    return problems


def _compare_frame(answer, reference: pd.DataFrame, tolerance: float, path: str) -> list[str]:
    if not isinstance(answer, pd.DataFrame):
        return [f"{_where(path)}expected a DataFrame with columns {list(reference.columns)}, got {type(answer).__name__}"]
    problems = []
    for axis, mine, theirs in (("row", answer.index, reference.index), ("column", answer.columns, reference.columns)):
        missing = [label for label in theirs if label not in mine]
        extra = [label for label in mine if label not in theirs]
        if missing:
            problems.append(f"{_where(path)}missing {axis}(s) {missing}")
        if extra:
            problems.append(f"{_where(path)}unexpected {axis}(s) {extra}")
    if not answer.index.is_unique or not answer.columns.is_unique:
        return problems + [f"{_where(path)}row and column labels must be unique"]
    rows = [label for label in reference.index if label in answer.index]
    columns = [label for label in reference.columns if label in answer.columns]
    for row in rows:
        for column in columns:
            where = f"{path + ', ' if path else ''}row {row!r}, column {column!r}"
            problems += compare(answer.at[row, column], reference.at[row, column], tolerance=tolerance, path=where)
    return problems


def compare(answer, reference, *, tolerance: float, path: str = "") -> list[str]:
    """List the problems with ``answer`` as an answer whose reference is ``reference``.

    ``tolerance`` is absolute and applies to every number. NaN matches NaN only.

    Parameters
    ----------
    answer : object
        The answer given.
    reference : object
        The reference answer: a number, string, sequence, mapping, Series or DataFrame.
    tolerance : float
        The absolute tolerance on every number.
    path : str, default ""
        Where in a nested answer this part is, for the messages.

    Returns
    -------
    list of str
        One message per problem; empty: right.

    Raises
    ------
    TypeError
        If no comparison is defined for the reference's type.

    Examples
    --------
    >>> compare({"KTU": 0.5, "RBO": 0.7}, {"KTU": 0.5, "RBO": 0.7031}, tolerance=0.005)
    []
    >>> compare({"KTU": 0.4, "RBO": 0.7}, {"KTU": 0.5, "RBO": 0.7031}, tolerance=0.005)
    ['KTU: 0.4 is too low (tolerance ±0.005)']
    """
    if isinstance(reference, pd.DataFrame):
        return _compare_frame(answer, reference, tolerance, path)
    if isinstance(reference, pd.Series):
        return _compare_mapping(answer, reference.to_dict(), tolerance, path)
    if isinstance(reference, Mapping):
        return _compare_mapping(answer, reference, tolerance, path)
    if isinstance(reference, (bool, np.bool_)):
        if not isinstance(answer, (bool, np.bool_)):
            return [f"{_where(path)}expected True or False, got {answer!r}"]
        return [] if bool(answer) == bool(reference) else [f"{_where(path)}{answer} is not right"]
    if _is_number(reference):
        return _compare_number(answer, reference, tolerance, path)
    if isinstance(reference, str):
        if not isinstance(answer, str):
            return [f"{_where(path)}expected text, got {type(answer).__name__} {answer!r}"]
        return [] if answer.strip().casefold() == reference.strip().casefold() else [f"{_where(path)}{answer!r} is not right"]
    if isinstance(reference, (Sequence, np.ndarray)):
        return _compare_sequence(answer, list(reference), tolerance, path)
    raise TypeError(f"no comparison defined for reference answers of type {type(reference).__name__}")


def same_items(answer, reference, *, tolerance: float, path: str = "") -> list[str]:
    """Compare two collections of labels as sets (order and repeats do not matter).

    Parameters
    ----------
    answer : iterable
        The labels given.
    reference : iterable
        The reference labels.
    tolerance : float
        Unused (labels match exactly); kept for the signature of :func:`compare`.
    path : str, default ""
        Where in a nested answer this part is, for the messages.

    Returns
    -------
    list of str
        One message per problem; empty: right.

    Examples
    --------
    >>> same_items(["rpd_tf_1", "rpd_C_1"], {"rpd_C_1", "rpd_tf_1"}, tolerance=0)
    []
    """
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (Sequence, set, frozenset, np.ndarray, pd.Index, pd.Series)):
        return [f"{_where(path)}expected a collection of labels, got {type(answer).__name__}"]
    mine, theirs = {str(item) for item in answer}, {str(item) for item in reference}
    problems = []
    if theirs - mine:
        problems.append(f"{_where(path)}{len(theirs - mine)} label(s) missing")
    if mine - theirs:
        problems.append(f"{_where(path)}{sorted(mine - theirs)} should not be there")
    return problems
