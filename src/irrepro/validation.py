"""Argument checks for the public functions and for the command line's options, in one place.

The idea of scikit-learn's ``validate_params`` (``sklearn/utils/_param_validation.py``), kept
light: a public function declares once, with :func:`validate_params`, what each of its parameters
may be, and every violation raises :class:`InvalidParameterError` (both a ``ValueError`` and a
``TypeError``) worded one way -- function, parameter, what is allowed, what was given::

    compare_runs: rbo_p must be a number in (0, 1); got 1.5
    evaluate: qrels must be a pandas DataFrame with columns query_id, doc_id, relevance
        (irrepro.runs.read_qrels reads a file into one); got a path ('qrels.txt')

The command line parses its options with the same constraints (:meth:`Constraint.from_text`), so
``--rbo-p 1.5`` is refused in the same words before any file is read.

Only the standard library is imported at module level; pandas and numpy are imported inside the
checks that need them, so that ``irrepro --help`` stays light.

>>> check_probability("rbo_p", 0.8)
0.8
>>> check_int("depth", 2.5, minimum=1)
Traceback (most recent call last):
...
irrepro.validation.InvalidParameterError: depth must be an integer >= 1; got 2.5
>>> as_measure_list("measures", "AP")
('AP',)
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "InvalidParameterError",
    "Constraint",
    "Integer",
    "Real",
    "Boolean",
    "Choice",
    "Optional",
    "Text",
    "FilePath",
    "NameList",
    "MeasureList",
    "Items",
    "Pair",
    "Array",
    "Frame",
    "Scores",
    "RunFrame",
    "Qrels",
    "RUN_COLUMN_ALIASES",
    "QRELS_COLUMN_ALIASES",
    "RankedRun",
    "MappingOf",
    "Fields",
    "OneOrMany",
    "validate_params",
    "check_int",
    "check_real",
    "check_probability",
    "check_bool",
    "check_choice",
    "check_frame",
    "as_measure_list",
    "MAX_CUTOFF",
]

#: Largest cut-off / depth accepted (C's ``int``; trec_eval reads cut-offs as C integers). A
#: ranking longer than any run is the whole ranking, so nothing is lost by the bound.
MAX_CUTOFF = 2**31 - 1
_INT64 = (-(2**63), 2**63 - 1)


class InvalidParameterError(ValueError, TypeError):
    """An argument has the wrong type or value.

    The message names the parameter, what is allowed and what was given. Both a ``ValueError`` and
    a ``TypeError``, as in scikit-learn.
    """


def _show(value) -> str:
    """What was given, in a few words (a frame is described, not printed)."""
    kind = type(value).__name__
    if kind == "DataFrame":
        if value.empty:
            return f"an empty DataFrame (shape {value.shape})"
        return f"a DataFrame with columns {', '.join(map(str, list(value.columns)[:8]))}"
    if kind == "Series":
        return "an empty Series" if value.empty else f"a Series of length {len(value)}"
    if isinstance(value, os.PathLike):
        return f"a path ({os.fspath(value)!r})"
    try:
        text = repr(value)
    except ValueError:  # an int beyond Python's 4300-digit printing limit
        return f"an integer of {value.bit_length()} bits" if isinstance(value, int) else f"a {kind}"
    if len(text) > 80:
        text = text[:77] + "..."
    if isinstance(value, (str, bytes, bool, int, float, type(None), list, tuple, dict)):
        return text
    return f"{kind} {text}"


# --------------------------------------------------------------------------- constraints


class Constraint:
    """What one parameter may be.

    :meth:`describe` says it ("a number in (0, 1)"), :meth:`check` enforces it and returns the
    value in normal form (an ``int`` for an integer, a tuple for a list of names), and
    :meth:`from_text` reads a command-line string into a checked value.
    """

    def describe(self) -> str:
        """Say what the parameter may be, as error messages complete "NAME must be ...".

        Returns
        -------
        str
            The description ("a number in (0, 1)").
        """
        raise NotImplementedError

    def check(self, name: str, value):
        """Check ``value`` and return it in normal form.

        Parameters
        ----------
        name : str
            The parameter's name, for the error message.
        value : object
            The argument given.

        Returns
        -------
        object
            The value in normal form (an ``int`` for an integer, a tuple for a list of names).

        Raises
        ------
        InvalidParameterError
            If ``value`` is not what :meth:`Constraint.describe` says.
        """
        raise NotImplementedError

    def from_text(self, text: str):
        """Read a command-line string into a checked value (the option's name is added by argparse).

        Parameters
        ----------
        text : str
            The option's value as typed.

        Returns
        -------
        object
            The checked value.

        Raises
        ------
        InvalidParameterError
            If the value is not allowed.
        """
        return self.check("the value", text)

    def fail(self, name: str, value, *, got: str | None = None):
        """Raise the error of a value this constraint does not allow.

        Parameters
        ----------
        name : str
            The parameter's name.
        value : object
            The argument given.
        got : str, optional
            What to call the argument given; default: a short form of ``value``.

        Raises
        ------
        InvalidParameterError
            Always: "NAME must be DESCRIPTION; got VALUE".
        """
        raise InvalidParameterError(f"{name} must be {self.describe()}; got {got or _show(value)}")


def _bounds_text(minimum, maximum, closed: str) -> str:
    low, high = closed in ("both", "left"), closed in ("both", "right")
    if minimum is not None and maximum is not None:
        return f" in {'[' if low else '('}{minimum:g}, {maximum:g}{']' if high else ')'}"
    if minimum is not None:
        return f" {'>=' if low else '>'} {minimum:g}"
    if maximum is not None:
        return f" {'<=' if high else '<'} {maximum:g}"
    return ""


_INTEGER_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_REAL_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Integer(Constraint):
    """An integer (``bool`` is not one) within ``[minimum, maximum]``.

    Parameters
    ----------
    minimum, maximum : int or None, default None
        The bounds, included; ``None``: unbounded.
    """

    minimum: int | None = None
    maximum: int | None = None

    def describe(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"an integer in [{self.minimum}, {self.maximum}]"
        return "an integer" + _bounds_text(self.minimum, self.maximum, "both")

    def check(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            self.fail(name, value)
        value = int(value)
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            self.fail(name, value)
        return value

    def from_text(self, text):
        # int() would also read '1_000' and ' 7 ': only plain decimal digits are an integer here.
        if not _INTEGER_TEXT.fullmatch(text):
            self.fail("the value", text)
        return self.check("the value", int(text))


@dataclass(frozen=True)
class Real(Constraint):
    """A finite number within the bounds.

    Parameters
    ----------
    minimum, maximum : float or None, default None
        The bounds; ``None``: unbounded.
    closed : {"both", "neither", "left", "right"}
        Which bounds belong to the range.
    """

    minimum: float | None = None
    maximum: float | None = None
    closed: str = "both"  # "both", "neither", "left" or "right"

    def describe(self) -> str:
        return "a number" + _bounds_text(self.minimum, self.maximum, self.closed)

    def check(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            self.fail(name, value)
        number = float(value)
        low, high = self.closed in ("both", "left"), self.closed in ("both", "right")
        if not math.isfinite(number):
            self.fail(name, value)
        if self.minimum is not None and (number < self.minimum or (number == self.minimum and not low)):
            self.fail(name, value)
        if self.maximum is not None and (number > self.maximum or (number == self.maximum and not high)):
            self.fail(name, value)
        return number

    def from_text(self, text):
        # float() would also read 'nan', 'inf' and '1_0'; a number here is written in decimals.
        if not _REAL_TEXT.fullmatch(text):
            self.fail("the value", text)
        return self.check("the value", float(text))


@dataclass(frozen=True)
class Boolean(Constraint):
    """``True`` or ``False`` (also numpy's booleans); not a string like ``"no"``, not 0 or 1."""

    def describe(self) -> str:
        return "True or False"

    def check(self, name, value):
        if isinstance(value, bool):
            return value
        if getattr(value, "dtype", None) is not None and value.dtype.kind == "b" and getattr(value, "ndim", 1) == 0:
            return bool(value)
        self.fail(name, value)


@dataclass(frozen=True)
class Choice(Constraint):
    """One of a fixed set of values (strings, usually).

    Parameters
    ----------
    options : tuple
        The values allowed.
    """

    options: tuple

    def describe(self) -> str:
        return "one of " + ", ".join(repr(option) for option in self.options)

    def check(self, name, value):
        if not isinstance(value, (str, int, float, type(None))) or value not in self.options:
            self.fail(name, value)
        return value


@dataclass(frozen=True)
class Optional(Constraint):
    """``None`` or what ``inner`` allows.

    Parameters
    ----------
    inner : Constraint
        The constraint on a value that is not ``None``.
    """

    inner: Constraint

    def describe(self) -> str:
        return f"{self.inner.describe()}, or None"

    def check(self, name, value):
        return None if value is None else self.inner.check(name, value)


@dataclass(frozen=True)
class Text(Constraint):
    """A non-empty string; with ``no_blanks`` one without whitespace (a run tag, a docno).

    Parameters
    ----------
    no_blanks : bool, default False
        Refuse whitespace.
    what : str, default "a non-empty string"
        What error messages call it.
    """

    no_blanks: bool = False
    what: str = "a non-empty string"

    def describe(self) -> str:
        return self.what + (" without whitespace" if self.no_blanks else "")

    def check(self, name, value):
        if not isinstance(value, str) or not value or (self.no_blanks and any(ch.isspace() for ch in value)):
            self.fail(name, value)
        return value


@dataclass(frozen=True)
class FilePath(Constraint):
    """A file name: a non-empty ``str`` or an ``os.PathLike``."""

    def describe(self) -> str:
        return "a file path (str or os.PathLike)"

    def check(self, name, value):
        if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
            self.fail(name, value)
        return value


@dataclass(frozen=True)
class NameList(Constraint):
    """One name or a non-empty list of distinct names, as a tuple.

    A string is ONE name, never read letter by letter.

    Parameters
    ----------
    what : str, default "name"
        What error messages call a name.
    options : tuple, optional
        The names allowed; every name must be one of them.
    allow_empty : bool, default False
        Allow an empty list.
    """

    what: str = "name"
    options: tuple | None = None
    allow_empty: bool = False

    def describe(self) -> str:
        size = "" if self.allow_empty else "non-empty "
        text = f"a {self.what} or a {size}list of distinct {self.what}s"
        return text + (f" (each one of {', '.join(map(str, self.options))})" if self.options else "")

    def check(self, name, value):
        names = (value,) if isinstance(value, str) else value
        if isinstance(names, (bytes, Mapping)) or not isinstance(names, Iterable):
            self.fail(name, value)
        names = tuple(names)
        if (not names and not self.allow_empty) or not all(isinstance(item, str) and item for item in names):
            self.fail(name, value)
        twice = sorted({item for item in names if names.count(item) > 1})
        if twice:
            self.fail(name, value, got=f"{_show(value)} ({', '.join(twice)} named twice)")
        if self.options is not None and not set(names) <= set(self.options):
            self.fail(name, value, got=f"{_show(value)} (unknown: {', '.join(sorted(set(names) - set(self.options)))})")
        return names


@dataclass(frozen=True)
class MeasureList(NameList):
    """Measure names, as :class:`NameList`, where a measure object of ir_measures stands for its name.

    ``ir_measures.P@10`` stands for ``"P@10"``, which :func:`irrepro.measures.parse_measure` reads
    as ir_measures does.

    Parameters
    ----------
    what : str, default "measure name"
        What error messages call a name.
    options : tuple, optional
        The names allowed, as for :class:`NameList`.
    allow_empty : bool, default False
        Allow an empty list.
    """

    what: str = "measure name"

    def describe(self) -> str:
        return super().describe() + " (or ir_measures measures)"

    def check(self, name, value):
        def named(item):
            is_measure = hasattr(item, "NAME") and hasattr(item, "params") and type(item).__module__.startswith("ir_measures")
            return str(item) if is_measure else item

        if not isinstance(value, (str, bytes, Mapping)) and isinstance(value, Iterable):
            value = [named(item) for item in value]
        return super().check(name, named(value))


@dataclass(frozen=True)
class Items(Constraint):
    """A sequence (not a string) of at least ``min_length`` hashable items, e.g. topic ids.

    Parameters
    ----------
    what : str, default "items"
        What error messages call them.
    min_length : int, default 1
        The fewest items.
    """

    what: str = "items"
    min_length: int = 1

    def describe(self) -> str:
        return f"a sequence of at least {self.min_length} {self.what} (not a string)"

    def check(self, name, value):
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            self.fail(name, value)
        items = list(value)
        if len(items) < self.min_length:
            self.fail(name, value)
        try:
            len(set(items))
        except TypeError:
            self.fail(name, value)
        return items  # a list: an iterator given here would be spent


@dataclass(frozen=True)
class Array(Constraint):
    """A non-empty numeric array of ``ndim`` dimensions within ``[minimum, maximum]``, all finite.

    Parameters
    ----------
    ndim : int, default 1
        The number of dimensions.
    minimum, maximum : float or None, default None
        The bounds, included; ``None``: unbounded.
    what : str, default "numbers"
        What error messages call the values.
    finite : bool, default True
        Refuse NaN (off: NaN is allowed).
    """

    ndim: int = 1
    minimum: float | None = None
    maximum: float | None = None
    what: str = "numbers"
    finite: bool = True

    def describe(self) -> str:
        shape = "a 1-D array" if self.ndim == 1 else f"a {self.ndim}-D array"
        kind = f"finite {self.what}" if self.finite else self.what
        return f"{shape} of {kind}" + _bounds_text(self.minimum, self.maximum, "both")

    def check(self, name, value):
        import numpy as np

        if isinstance(value, (str, bytes)):
            self.fail(name, value)
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            self.fail(name, value)
        if array.ndim != self.ndim or array.size == 0 or (self.finite and not np.isfinite(array).all()):
            self.fail(name, value)
        known = array[~np.isnan(array)]
        if known.size and (
            (self.minimum is not None and known.min() < self.minimum)
            or (self.maximum is not None and known.max() > self.maximum)
        ):
            self.fail(name, value)
        return array


@dataclass(frozen=True)
class Frame(Constraint):
    """A pandas DataFrame with the given columns and at least ``min_rows`` rows.

    Parameters
    ----------
    columns : tuple of str, default ()
        The columns it must have.
    min_rows : int, default 1
        The fewest rows.
    hint : str, default ""
        Added to the error message (e.g. how the frame is laid out, or what makes one).
    """

    columns: tuple[str, ...] = ()
    min_rows: int = 1
    hint: str = ""

    def describe(self) -> str:
        text = "a pandas DataFrame"
        if self.columns:
            text += f" with columns {', '.join(self.columns)}"
        if self.min_rows > 1:
            text += f" and at least {self.min_rows} rows"
        return text + (f" ({self.hint})" if self.hint else "")

    def check(self, name, value):
        import pandas as pd

        if not isinstance(value, pd.DataFrame):
            self.fail(name, value)
        missing = [column for column in self.columns if column not in value.columns]
        if missing:
            self.fail(name, value, got=f"a DataFrame without column(s) {', '.join(missing)}")
        if len(value) < self.min_rows:
            self.fail(name, value, got=f"a DataFrame with {len(value)} row(s)")
        return value


def _numeric_column(frame, column: str) -> bool:
    import pandas as pd

    return pd.api.types.is_numeric_dtype(frame[column]) and not pd.api.types.is_bool_dtype(frame[column])


#: PyTerrier's column names for irrepro's (which are ir_datasets'): a results frame's ``qid`` and
#: ``docno``, a qrels frame's ``label``. A frame using them is read as if it used irrepro's.
RUN_COLUMN_ALIASES = {"qid": "query_id", "docno": "doc_id"}
QRELS_COLUMN_ALIASES = {"qid": "query_id", "docno": "doc_id", "label": "relevance"}


def _renamed(value, aliases: Mapping[str, str]):
    """``value`` with alias columns renamed (where irrepro's column is absent), else ``value`` itself."""
    import pandas as pd

    if not isinstance(value, pd.DataFrame):
        return value
    rename = {alias: column for alias, column in aliases.items() if alias in value.columns and column not in value.columns}
    return value.rename(columns=rename) if rename else value


class RunFrame(Frame):
    """A run as :func:`irrepro.runs.read_run` returns it.

    ``query_id``, ``doc_id`` and a numeric ``score`` without NaN, at least one line. A PyTerrier
    results frame (``qid``, ``docno``, ``score``) is one too: its columns are renamed and its
    ``rank`` (from 0, in PyTerrier's order of ties) is dropped, so that trec_eval's is computed
    where one is needed.

    Parameters
    ----------
    extra_columns : tuple of str, default ()
        Further columns it must have (``run`` for one frame holding several runs).
    """

    def __init__(self, extra_columns: tuple[str, ...] = ()):
        super().__init__(("query_id", "doc_id", "score", *extra_columns), 1, "irrepro.runs.read_run reads a file into one")

    def check(self, name, value):
        renamed = _renamed(value, RUN_COLUMN_ALIASES)
        if renamed is not value and "rank" in renamed.columns:
            renamed = renamed.drop(columns="rank")
        value = renamed
        super().check(name, value)
        _check_scores(self, name, value)
        return value


def _check_scores(constraint: Constraint, name, frame) -> None:
    """A run frame's ``score`` column: numeric and without NaN (NaN has no place in any ranking)."""
    if not _numeric_column(frame, "score"):
        constraint.fail(name, frame, got=f"a score column of dtype {frame['score'].dtype}")
    if frame["score"].isna().any():
        row = frame.loc[frame["score"].isna()].iloc[0]
        constraint.fail(name, frame, got=f"a NaN score (topic {row['query_id']}, document {row['doc_id']})")


class Qrels(Frame):
    """Qrels as :func:`irrepro.runs.read_qrels` returns them.

    ``query_id``, ``doc_id`` and an integer ``relevance`` grade within trec_eval's 64-bit integers
    (an integral float such as 1.0 is one); PyTerrier's ``qid``, ``docno`` and ``label`` are read as
    those.
    """

    def __init__(self):
        super().__init__(("query_id", "doc_id", "relevance"), 1, "irrepro.runs.read_qrels reads a file into one")

    def check(self, name, value):
        value = _renamed(value, QRELS_COLUMN_ALIASES)  # PyTerrier's qid, docno, label
        super().check(name, value)
        grades = value["relevance"]
        fits = _integer_grades(grades)
        if fits is None:
            self.fail(name, value, got=f"a relevance column of dtype {grades.dtype}")
        if not fits.all():
            bad = value.loc[~fits].iloc[0]
            grade = bad["relevance"].item() if hasattr(bad["relevance"], "item") else bad["relevance"]
            self.fail(name, value, got=f"the relevance grade {grade!r} of document {bad['doc_id']} in "
                                       f"topic {bad['query_id']}, not an integer in [-2**63, 2**63 - 1]")
        return value


def _integer_grades(grades):
    """Per grade, whether it is an integer (or an integral float) within int64; ``None`` when the
    column cannot hold numbers at all. Silently truncating 1.5 to 1 would change the judgment."""
    import numpy as np

    kind = grades.dtype.kind
    if kind == "i":
        return np.ones(len(grades), dtype=bool)
    if kind == "u":
        return grades.to_numpy() <= np.uint64(_INT64[1])
    if kind == "f":
        values = grades.to_numpy(dtype=float)
        with np.errstate(invalid="ignore"):
            return np.isfinite(values) & (values == np.round(values)) & (values >= -(2.0**63)) & (values < 2.0**63)
    if kind == "O":
        def fits(grade) -> bool:
            if isinstance(grade, bool) or not isinstance(grade, numbers.Real) or not math.isfinite(grade):
                return False
            return grade == int(grade) and _INT64[0] <= int(grade) <= _INT64[1]

        return np.fromiter((fits(grade) for grade in grades), dtype=bool, count=len(grades))
    return None


@dataclass(frozen=True)
class Scores(Constraint):
    """Numbers by label: a numeric pandas Series, or also a DataFrame of such columns.

    Per-topic scores indexed by topic, by default; with ``frame``, topics x runs; at least one row.

    Parameters
    ----------
    frame : bool, default False
        Also allow a DataFrame.
    what : str, default "per-topic scores indexed by topic"
        What error messages call it.
    """

    frame: bool = False
    what: str = "per-topic scores indexed by topic"

    def describe(self) -> str:
        return f"a pandas Series of {self.what}" + (", or a DataFrame of them (topics x runs)" if self.frame else "")

    def check(self, name, value):
        import pandas as pd

        allowed = (pd.Series, pd.DataFrame) if self.frame else pd.Series
        if not isinstance(value, allowed) or value.empty:
            self.fail(name, value)
        columns = [value] if isinstance(value, pd.Series) else [value[c] for c in value.columns]
        for column in columns:
            if pd.api.types.is_bool_dtype(column) or not pd.api.types.is_numeric_dtype(column):
                try:
                    column.astype(float)
                except (TypeError, ValueError):
                    self.fail(name, value, got=f"{_show(value)} holding non-numeric values")
        return value


class RankedRun(Constraint):
    """A ranking: a run frame or a list of docnos.

    A run frame with ``query_id``, ``doc_id`` and ``score`` (ranked as trec_eval ranks: score
    descending, ties by docno descending) or, without scores, ``rank``; or a non-empty list of
    docnos for one topic.
    """

    def describe(self) -> str:
        return ("a run frame with columns query_id, doc_id and score or rank (irrepro.runs.read_run reads a file "
                "into one) or a list of docnos")  # fmt: skip

    def check(self, name, value):
        import pandas as pd

        if isinstance(value, pd.DataFrame):
            columns = set(value.columns)
            if not {"query_id", "doc_id"} <= columns or not columns & {"score", "rank"} or value.empty:
                self.fail(name, value)
            if "score" in columns:
                _check_scores(self, name, value)
            return value
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (Sequence, pd.Series)) and not hasattr(
            value, "__array__"
        ):
            self.fail(name, value)
        docs = list(value)
        if not docs or not all(isinstance(doc, str) for doc in docs):
            self.fail(name, value)
        return value


@dataclass(frozen=True)
class Fields(Constraint):
    """A mapping of named fields (e.g. ir_metadata's), possibly empty; its values are checked elsewhere.

    Parameters
    ----------
    what : str, default "a mapping of fields"
        What error messages call it.
    """

    what: str = "a mapping of fields"

    def describe(self) -> str:
        return self.what

    def check(self, name, value):
        if not isinstance(value, Mapping):
            self.fail(name, value)
        return value


@dataclass(frozen=True)
class MappingOf(Constraint):
    """A non-empty mapping of names to values ``inner`` allows (each checked as ``name[key]``).

    Parameters
    ----------
    inner : Constraint
        The constraint on each value.
    """

    inner: Constraint

    def describe(self) -> str:
        return f"a non-empty mapping of names to {self.inner.describe()}"

    def check(self, name, value):
        if not isinstance(value, Mapping) or not value:
            self.fail(name, value)
        return {key: self.inner.check(f"{name}[{key!r}]", item) for key, item in value.items()}


@dataclass(frozen=True)
class Pair(Constraint):
    """Two values, each of which ``inner`` allows (e.g. a new baseline and a new advanced run).

    Parameters
    ----------
    inner : Constraint
        The constraint on each value.
    what : str, default "a pair"
        What error messages call it.
    """

    inner: Constraint
    what: str = "a pair"

    def describe(self) -> str:
        return f"{self.what}: two items, each {self.inner.describe()}"

    def check(self, name, value):
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            self.fail(name, value)
        items = tuple(value)
        if len(items) != 2:
            self.fail(name, value, got=f"{len(items)} item(s)")
        return tuple(self.inner.check(f"{name}[{index}]", item) for index, item in enumerate(items))


@dataclass(frozen=True)
class OneOrMany(MappingOf):
    """One value or a non-empty mapping of names to values ``inner`` allows.

    Parameters
    ----------
    inner : Constraint
        The constraint on each value of a mapping.
    single : Constraint, optional
        The constraint on one value; default ``inner`` (one frame holding several runs needs a
        ``run`` column).
    """

    single: Constraint | None = None

    def describe(self) -> str:
        return f"{(self.single or self.inner).describe()}, or a non-empty mapping of names to such"

    def check(self, name, value):
        if isinstance(value, Mapping):
            return super().check(name, value)
        return (self.single or self.inner).check(name, value)


# --------------------------------------------------------------------------- the decorator


def validate_params(**constraints: Constraint) -> Callable:
    """Check the named arguments of every call against their constraints before the body runs.

    Arguments left at their defaults are not checked (the defaults are valid by construction).
    The checked values replace the given ones (``depth=np.int64(5)`` arrives as ``5``). The
    constraints stay readable as ``function.parameter_constraints``.

    Parameters
    ----------
    **constraints : Constraint
        Parameter name -> its constraint.

    Returns
    -------
    callable
        The decorator; the decorated function raises :class:`InvalidParameterError` naming itself
        and the parameter.

    Raises
    ------
    TypeError
        When decorating, if the function has no parameter of a name given.
    """

    def decorate(function: Callable) -> Callable:
        signature = inspect.signature(function)
        unknown = set(constraints) - set(signature.parameters)
        if unknown:
            raise TypeError(f"validate_params: {function.__name__} has no parameter(s) {sorted(unknown)}")

        @functools.wraps(function)
        def checked(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            for name, constraint in constraints.items():
                if name in bound.arguments:
                    try:
                        bound.arguments[name] = constraint.check(name, bound.arguments[name])
                    except InvalidParameterError as error:
                        raise InvalidParameterError(f"{function.__name__}: {error}") from None
            return function(*bound.args, **bound.kwargs)

        checked.parameter_constraints = dict(constraints)
        return checked

    return decorate


# --------------------------------------------------------------------------- one-off checks


def check_int(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Check that ``value`` is an integer within the bounds.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The argument.
    minimum, maximum : int, optional
        The bounds, included.

    Returns
    -------
    int
        The value.

    Raises
    ------
    InvalidParameterError
        If it is not.
    """
    return Integer(minimum, maximum).check(name, value)


def check_real(name: str, value, *, minimum=None, maximum=None, closed: str = "both") -> float:
    """Check that ``value`` is a finite number within the bounds.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The argument.
    minimum, maximum : float, optional
        The bounds.
    closed : {"both", "neither", "left", "right"}
        Which bounds belong to the range.

    Returns
    -------
    float
        The value.

    Raises
    ------
    InvalidParameterError
        If it is not.
    """
    return Real(minimum, maximum, closed).check(name, value)


def check_probability(name: str, value, *, open_left: bool = True, open_right: bool = True) -> float:
    """Check that ``value`` lies in (0, 1) (with ``open_left=False``: [0, 1) and so on).

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The argument.
    open_left, open_right : bool, default True
        Leave 0 and 1 out of the range.

    Returns
    -------
    float
        The value.

    Raises
    ------
    InvalidParameterError
        If it does not.
    """
    closed = {(True, True): "neither", (False, True): "left", (True, False): "right", (False, False): "both"}
    return Real(0.0, 1.0, closed[open_left, open_right]).check(name, value)


def check_bool(name: str, value) -> bool:
    """Check that ``value`` is ``True`` or ``False``.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The argument.

    Returns
    -------
    bool
        The value.

    Raises
    ------
    InvalidParameterError
        If it is not.
    """
    return Boolean().check(name, value)


def check_choice(name: str, value, choices: Iterable):
    """Check that ``value`` is one of ``choices``.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The argument.
    choices : iterable
        The values allowed.

    Returns
    -------
    object
        The value.

    Raises
    ------
    InvalidParameterError
        If it is not.
    """
    return Choice(tuple(choices)).check(name, value)


def check_frame(name: str, value, *, columns: Iterable[str] = (), min_rows: int = 1):
    """Check that ``value`` is a DataFrame with ``columns`` and at least ``min_rows`` rows.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The argument.
    columns : iterable of str, default ()
        The columns it must have.
    min_rows : int, default 1
        The fewest rows.

    Returns
    -------
    pandas.DataFrame
        The value.

    Raises
    ------
    InvalidParameterError
        If it is not.
    """
    return Frame(tuple(columns), min_rows).check(name, value)


def as_measure_list(name: str, value) -> tuple[str, ...]:
    """Check measure names and give them as a tuple: a string is ONE measure (``"AP"``, not ``"A"``, ``"P"``).

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : str, ir_measures measure or sequence of them
        The measures.

    Returns
    -------
    tuple of str
        The names.

    Raises
    ------
    InvalidParameterError
        If a name is not a string or measure object, or the list is empty or repeats a name.
    """
    return MeasureList().check(name, value)
