"""The book's table style: tables shaped as a journal prints them, from the frames of :mod:`irrepro.papers`.

How to write a chapter (the style guide; the book's page docs/using/writing.md says the same):

**A table** is one call, with a caption that names the paper's table and the data::

    tables.show(paper.replicability_table("WCrobust04"),
                caption="Replicability of WCrobust04 on Core17",
                source="the paper's Table 1", data=paper.DATA_LABELS["rpl"])

renders ``Table 3. Replicability of WCrobust04 on Core17 (the paper's Table 1). Data: ...`` above
the table. The frame is shown as the paper prints it:

- columns named ``statistic:measure`` (``ARP:P@10``, ``p:AP``) become grouped headers, the statistic
  over its measures; a MultiIndex works the same way; columns ``X:low`` and ``X:high`` next to ``X``
  become one interval cell ``1.27 [0.45, 2.65]``;
- rows are labelled by the index (``rows=["target", "training"]`` makes columns the labels); an
  unnamed positional index (0, 1, 2, ...) is never shown;
- each statistic has one number of decimals for the whole book (:data:`STATISTIC_FORMATS`; ``formats``
  overrides per column, ``number_format`` for the whole table): ARP, RMSE, KTU, RBO four, ER and ΔRI
  two, p-values (columns ``p``, ``p-value``, ``p (...)``) three decimals or ``1.2e-05`` below 0.001
  (``p_style="threshold"`` prints ``< 0.001``); integers as integers; NaN as ``–``; negative numbers
  with a true minus sign; numbers right-aligned in tabular figures. The rules are those of every
  output of the package (:mod:`irrepro.formatting`, medium ``BOOK``): a p-value or a score reads here
  as in ``irrepro compare`` and the report;
- marks have one wording each, stated under the table when used (:data:`MARKS`): ``*`` a p-value
  below 0.05, ``†`` a value that differs from the paper's print (``differs=`` a boolean frame),
  bold the best value of a row or column (``best="min"`` / ``"max"``, ``best_axis``);
- a table wider than about :data:`COMPACT_WIDTH` characters is set in a smaller (still >= 9 pt),
  condensed size;
  a table that still does not fit the text column must be split or transposed (the page check fails
  on any table wider than the column).

``show`` numbers the tables of a page 1, 2, ... in the order they are shown (the counter is reset
by :func:`irrepro.plots.style.use_book_style`, called once at the top of each chapter); ``table``
is the same without numbering. Both return a :class:`Table`, which Jupyter and MyST-NB display as
HTML (CSS classes ``irrepro-table``, styled by the book's ``_static/irrepro.css``).

**A figure** is a function of :mod:`irrepro.plots` drawn in a cell whose metadata gives the caption,
a label and a text alternative (MyST-NB)::

    ```{code-cell} ipython3
    ---
    mystnb:
      figure: {caption: "ER against ΔRI, replicability (the paper's Figure 2).", name: fig-er-rpl}
      image: {alt: "Four scatter plots, one per constellation family, ..."}
    ---
    plots.er_deltari_figure(paper.er_deltari_points("rpl"));
    ```

Sphinx numbers it ``Figure N`` per page; :func:`irrepro.plots.style.use_book_style` makes figures
SVG with text kept as text, at most :data:`irrepro.plots.style.TEXT_WIDTH` inches wide, with fonts
of at least 9 pt and seaborn's colour-blind palette.

**A number in the prose** is glued, never printed: a hidden cell calls
``tables.glue_values("transfer", paper.transfer_extremes(table))`` and the Markdown says
``the best pair reaches MAP {glue:text}`transfer-best-map:.4f```.
"""

from __future__ import annotations

import html
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from irrepro.formatting import BOOK, MINUS, format_interval, format_number, format_pvalue, format_significant

__all__ = [
    "COMPACT_WIDTH",
    "HEADERS",
    "INTEGER",
    "MARKS",
    "PVALUE",
    "STATISTIC_FORMATS",
    "TEXT",
    "Format",
    "Table",
    "data_files",
    "decimals",
    "format_interval",
    "format_number",
    "format_pvalue",
    "glue_values",
    "reset_numbering",
    "show",
    "side_by_side",
    "significant",
    "table",
    "triangles",
]

DASH = BOOK.undefined  # what an undefined value (NaN) is shown as
ALPHA = 0.05
#: Tables estimated wider than this many characters (row labels included) are set in the compact size.
COMPACT_WIDTH = 78
_WRAP = 26  # text longer than this wraps in its cell; a row label up to this length stays on one line
#: One wording per mark, for every table of the book.
MARKS: dict[str, tuple[str, str]] = {
    "significant": ("*", f"p < {ALPHA:g} (two-tailed)"),
    "differs": ("\u2020", "differs from the value printed in the paper"),
    "best_min": ("bold", "the lowest value of its {axis}"),
    "best_max": ("bold", "the highest value of its {axis}"),
}


@dataclass(frozen=True)
class Format:
    """How one column's numbers are written; call it on a value to get its text.

    Booleans are written ``yes``/``no`` and undefined values as the book's dash, whatever the kind.

    Parameters
    ----------
    kind : {"decimals", "integer", "pvalue", "threshold", "general", "text"}
        Fixed decimals; an integer; a p-value (``1.2e-05`` below 10^-digits); a p-value written
        ``< 0.001`` below; ``digits`` significant digits; the value as text.
    digits : int, default 4
        Decimals, or significant digits for ``"general"``.
    """

    kind: str
    digits: int = 4

    def __call__(self, value) -> str:
        if isinstance(value, (bool, np.bool_)):
            return "yes" if value else "no"
        if self.kind == "text" or isinstance(value, str) or value is None:
            return DASH if value is None or _is_nan(value) else str(value)
        if self.kind == "pvalue":
            return format_pvalue(value, digits=self.digits)
        if self.kind == "threshold":
            return format_pvalue(value, digits=self.digits, style="threshold")
        if self.kind == "integer":
            return format_number(value, 0)
        if self.kind == "general":
            return format_significant(value, self.digits)
        return format_number(value, self.digits)


def decimals(digits: int) -> Format:
    """Make the format of numbers with a fixed number of decimals.

    Parameters
    ----------
    digits : int
        The decimals.

    Returns
    -------
    Format
        The format.
    """
    return Format("decimals", digits)


def significant(digits: int) -> Format:
    """Make the format of numbers with ``digits`` significant digits.

    For differences spanning many orders of magnitude.

    Parameters
    ----------
    digits : int
        The significant digits.

    Returns
    -------
    Format
        The format.
    """
    return Format("general", digits)


INTEGER = Format("integer", 0)
PVALUE = Format("pvalue", 3)
TEXT = Format("text", 0)

#: The book's decimals per statistic (the column's top header label, or its name).
STATISTIC_FORMATS: dict[str, Format] = {
    **{name: decimals(4) for name in ("ARP", "MAP", "AP", "P@10", "nDCG", "KTU", "RBO", "RMSE", "nRMSE", "DeltaARP")},
    "ER": decimals(2),
    "DeltaRI": decimals(2),
    "p": PVALUE,
    "p-value": PVALUE,
}
#: How statistics are named in column headers.
HEADERS: dict[str, str] = {"p": "p-value", "DeltaRI": "\u0394RI", "DeltaARP": "\u0394ARP"}


def _is_nan(value) -> bool:
    """NaN, None, pandas' NA or NaT: an undefined value."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, numbers.Real) and math.isnan(value)


def _numeric_text(text: str) -> bool:
    """Whether a string is a number as printed (``0.7760``, ``5E-04``, ``−0.1``): set right-aligned."""
    try:
        float(text.replace(MINUS, "-"))
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- the Table


@dataclass(frozen=True)
class Table:
    """A table ready to show: display strings, their classes, the caption parts and the legend.

    Parameters
    ----------
    cells : pandas.DataFrame
        The strings as shown (index: row labels, possibly a MultiIndex; columns: a MultiIndex of
        header levels).
    classes : pandas.DataFrame
        The CSS classes of each cell (same shape).
    caption : str
        The caption.
    source : str, optional
        Where it comes from (``"the paper's Table 1"``), in parentheses after the caption.
    data : str, optional
        The data it is computed from, after the caption.
    number : int, optional
        Its number on the page; ``None``: not numbered.
    notes : tuple of str, default ()
        The legend under the table (marks used, folded columns, notes).
    name : str, optional
        Its HTML id, for references.
    compact : bool, default False
        Set in the smaller, condensed size.
    stub : bool, default True
        Whether the row labels are shown.
    """

    cells: pd.DataFrame
    classes: pd.DataFrame
    caption: str
    source: str | None = None
    data: str | None = None
    number: int | None = None
    notes: tuple[str, ...] = ()
    name: str | None = None
    compact: bool = False
    stub: bool = True  # whether the row labels are shown

    @property
    def label(self) -> str:
        """``Table N`` (or ``Table`` when not numbered)."""
        return "Table" if self.number is None else f"Table {self.number}"

    def caption_text(self) -> str:
        """Write the caption line: ``Table N. caption (source). Data: data.``.

        Returns
        -------
        str
            The caption line.
        """
        text = self.caption.rstrip(". ")
        if self.source:
            text += f" ({self.source})"
        text += "."
        if self.data:
            text += f" Data: {self.data.rstrip('. ')}."
        return f"{self.label}. {text}"

    def _repr_html_(self) -> str:
        return _render_html(self)

    def __repr__(self) -> str:
        body = self.cells.to_string(index=self.stub)
        return "\n".join([self.caption_text(), body, *self.notes])


def _column_tuples(columns: pd.Index, separator: str | None) -> list[tuple[str, ...]]:
    """Column keys as equal-length tuples of header labels (split on ``separator``)."""
    if isinstance(columns, pd.MultiIndex):
        keys = [tuple("" if pd.isna(x) else str(x) for x in column) for column in columns]
    elif separator is not None:
        keys = [tuple(str(column).split(separator)) for column in columns]
    else:
        keys = [(str(column),) for column in columns]
    depth = max((len(key) for key in keys), default=1)
    return [key + ("",) * (depth - len(key)) for key in keys]


def _merge_intervals(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, tuple[pd.Series, pd.Series]]]:
    """Take ``X:low`` / ``X:high`` columns beside ``X`` out; return the frame and {X: (low, high)}."""
    intervals = {}
    for column in frame.columns:
        if isinstance(column, str) and f"{column}:low" in frame.columns and f"{column}:high" in frame.columns:
            intervals[column] = (frame[f"{column}:low"], frame[f"{column}:high"])
    dropped = [bound.name for pair in intervals.values() for bound in pair]
    return frame.drop(columns=dropped), intervals


def _column_format(key: tuple[str, ...], dtype, formats: Mapping[str, Format]) -> Format:
    """The format of one column: ``formats`` by full name or header label, then the book's, then dtype."""
    joined = ":".join(label for label in key if label)
    for candidate in (joined, *key):
        if candidate in formats:
            return formats[candidate]
    numeric = pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
    if "*" in formats and numeric:  # the table's number_format
        return formats["*"]
    for candidate in key:
        if candidate in STATISTIC_FORMATS:
            return STATISTIC_FORMATS[candidate]
        if numeric and candidate.startswith(("p (", "p-value ")):  # "p (paired t-test)"
            return PVALUE
    if pd.api.types.is_bool_dtype(dtype):
        return TEXT
    if pd.api.types.is_integer_dtype(dtype):
        return INTEGER
    if pd.api.types.is_float_dtype(dtype):
        return decimals(4)
    return TEXT


def _mask(frame: pd.DataFrame, mask: pd.DataFrame | None) -> pd.DataFrame:
    """A boolean frame of ``frame``'s shape (False where ``mask`` says nothing)."""
    if mask is None:
        return pd.DataFrame(False, index=frame.index, columns=frame.columns)
    return mask.reindex(index=frame.index, columns=frame.columns).fillna(False).astype(bool)


def _best(values: pd.DataFrame, best: str | None, axis: str, among: Sequence[str] | None = None) -> pd.DataFrame:
    """Where the lowest (``best="min"``) or highest value of each row or column sits."""
    if best is None:
        return _mask(values, None)
    if best not in ("min", "max"):
        raise ValueError(f"best is 'min' or 'max', not {best!r}")
    if axis not in ("row", "column"):
        raise ValueError(f"best_axis is 'row' or 'column', not {axis!r}")
    numeric = values.apply(pd.to_numeric, errors="coerce")
    if among is not None:
        numeric = numeric.where(pd.Series(numeric.columns.isin(list(among)), index=numeric.columns), other=np.nan, axis=1)
    along = 1 if axis == "row" else 0
    extreme = numeric.min(axis=along) if best == "min" else numeric.max(axis=along)
    return numeric.eq(extreme, axis=0 if along == 1 else 1)


@dataclass
class _Cells:
    """The strings and classes of every cell, and which marks were used (for the legend)."""

    text: dict = field(default_factory=dict)
    classes: dict = field(default_factory=dict)
    used: set = field(default_factory=set)


def _cell(value, fmt: Format, bounds: tuple | None, *, differs: bool, best: str | None) -> tuple[str, list[str]]:
    """One cell's text and CSS classes; the marks it carries are among the classes."""
    text = fmt(value) if bounds is None else format_interval(value, *bounds, fmt.digits)
    textual = isinstance(value, (str, bool, np.bool_)) or (fmt.kind == "text" and not isinstance(value, numbers.Number))
    classes = ["text" if textual and not _numeric_text(text) else "num"]
    classes += [] if bounds is None else ["interval"]
    if fmt.kind in ("pvalue", "threshold") and not isinstance(value, str):
        significant = not _is_nan(value) and float(value) < ALPHA
        text += MARKS["significant"][0] if significant else ""
        classes.append("significant" if significant else "not-significant")
    if differs:
        text += MARKS["differs"][0]
        classes.append("differs")
    if best:
        classes.append(f"best_{best}")
    return text, classes


def _format_cells(frame, keys, formats, intervals, differs, best_mask, best, p_style) -> _Cells:
    cells = _Cells()
    for position, (column, key) in enumerate(zip(frame.columns, keys, strict=True)):
        fmt = _column_format(key, frame[column].dtype, formats)
        if fmt.kind == "pvalue" and p_style != "scientific":
            if p_style != "threshold":
                raise ValueError(f"p_style is 'scientific' or 'threshold', not {p_style!r}")
            fmt = Format("threshold", fmt.digits)
        texts, classes = [], []
        for row, value in enumerate(frame[column]):
            bounds = tuple(bound.iat[row] for bound in intervals[column]) if column in intervals else None
            is_best = best if best_mask.iat[row, position] else None
            text, names = _cell(value, fmt, bounds, differs=differs.iat[row, position], best=is_best)
            cells.used.update(name for name in names if name in ("significant", "differs") or name.startswith("best_"))
            texts.append(text)
            classes.append(names)
        if any(names[0] == "text" for names in classes):  # one alignment per column: words win
            classes = [["text", *names[1:]] for names in classes]
        cells.text[key] = texts
        cells.classes[key] = [" ".join(names) for names in classes]
    return cells


def table(
    frame: pd.DataFrame,
    *,
    caption: str,
    source: str | None = None,
    data: str | None = None,
    rows: str | Sequence[str] | None = None,
    columns: Sequence[str] | Mapping[str, str] | None = None,
    formats: Mapping[str, Format] | None = None,
    number_format: Format | None = None,
    headers: Mapping[str, str] | None = None,
    levels: Sequence[int] | None = None,
    differs: pd.DataFrame | None = None,
    best: str | None = None,
    best_axis: str = "column",
    best_columns: Sequence[str] | None = None,
    p_style: str = "scientific",
    notes: Sequence[str] = (),
    number: int | None = None,
    name: str | None = None,
    separator: str | None = ":",
    compact: bool | None = None,
    fold: Sequence[str] = (),
) -> Table:
    """Make a :class:`Table` of ``frame`` in the book's style (see the module docstring).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table's data.
    caption : str
        The caption.
    source : str, optional
        Where it comes from (``"the paper's Table 1"``).
    data : str, optional
        The data it is computed from.
    rows : str or sequence of str, optional
        Columns that label the rows (they become the index).
    columns : sequence of str or mapping of str -> str, optional
        The columns to show, in order (default: all but ``data``), or a mapping {column: header}
        that also renames them (``"MAP:WCrobust04"`` puts the column under a ``MAP`` group); a
        ``data`` column fills ``data`` with its values.
    formats : mapping of str -> Format, optional
        A column (full name or a header label) -> its :class:`Format`.
    number_format : Format, optional
        The format of every other numeric column (else the book's :data:`STATISTIC_FORMATS`).
    headers : mapping of str -> str, optional
        Renames header labels.
    levels : sequence of int, optional
        Picks and orders the header levels shown (after formatting, so a dropped ``p`` level still
        formats p-values).
    differs : pandas.DataFrame, optional
        Booleans, same labels as ``frame``: marks cells that differ from the paper's print.
    best : {"min", "max"}, optional
        Sets the lowest/highest value of each column in bold.
    best_axis : {"column", "row"}
        Whether ``best`` looks along columns or rows.
    best_columns : sequence of str, optional
        Only among these columns, if given.
    p_style : {"scientific", "threshold"}
        How p-values below 0.001 are written (``1.2e-05`` or ``< 0.001``).
    notes : sequence of str, default ()
        Notes under the table.
    number : int, optional
        Its number on the page (:func:`show` numbers tables itself).
    name : str, optional
        Its HTML id, for references.
    separator : str or None, default ":"
        Splits column names into header levels (``ARP:P@10``); ``None``: no split.
    compact : bool, optional
        Set in the smaller size; default: when wider than :data:`COMPACT_WIDTH` characters.
    fold : sequence of str, default ()
        A column named here that holds one value in every row is not shown; a note under the
        table gives its value.

    Returns
    -------
    Table
        The table, displayed as HTML by Jupyter.
    """
    frame, data = _prepare(frame, rows, columns, data)
    frame, folded = _fold(frame, fold)
    frame, intervals = _merge_intervals(frame)
    keys = _column_tuples(frame.columns, separator if not isinstance(frame.columns, pd.MultiIndex) else None)
    all_formats = {**({"*": number_format} if number_format else {}), **dict(formats or {})}
    best_mask = _best(frame, best, best_axis, best_columns)
    cells = _format_cells(frame, keys, all_formats, intervals, _mask(frame, differs), best_mask, best, p_style)
    names = {**HEADERS, **dict(headers or {})}
    shown_keys = [tuple(names.get(key[i], key[i]) for i in (levels or range(len(key)))) for key in keys]
    header = pd.MultiIndex.from_tuples(shown_keys)
    row_labels = _row_labels_shown(frame.index, separator, names)
    shown = pd.DataFrame(cells.text, index=frame.index).set_axis(header, axis=1).set_axis(row_labels, axis=0)
    classes = pd.DataFrame(cells.classes, index=frame.index).set_axis(header, axis=1).set_axis(row_labels, axis=0)
    marks = ("significant", "differs", "best_min", "best_max")
    legend = [_legend(mark, best_axis) for mark in marks if mark in cells.used]
    stub = not _positional(frame.index)
    return Table(
        cells=shown, classes=classes, caption=caption, source=source, data=data, number=number,
        notes=tuple(legend) + tuple(folded) + tuple(notes), name=name, stub=stub,
        compact=_width(shown, stub) > COMPACT_WIDTH if compact is None else compact,
    )  # fmt: skip


def _width(cells: pd.DataFrame, stub: bool) -> int:
    """A table's width in characters, roughly: each column as wide as its widest cell or header
    word (text wraps at :data:`_WRAP`; an interval stacks in a compact table), plus padding."""

    def widest(texts) -> int:
        return max((min(len(str(text)), _WRAP) for text in texts), default=0)

    width = 0
    for key in cells.columns:
        words = [word for label in key for word in str(label).split()]
        values = [text.split(" [")[-1] if " [" in text else text for text in cells[key]]
        width += max(widest(values), widest(words)) + 2
    if stub:
        for level in range(cells.index.nlevels):
            width += widest(cells.index.get_level_values(level)) + 2
    return width


def _prepare(frame: pd.DataFrame, rows, columns, data: str | None) -> tuple[pd.DataFrame, str | None]:
    """Row labels set, the ``data`` column taken into the caption, the shown columns chosen."""
    if rows is not None:
        unnamed = frame.index.nlevels == 1 and frame.index.name is None
        frame = frame.reset_index(drop=unnamed)  # an unnamed index is row numbers: dropped, not shown
        frame = frame.set_index([rows] if isinstance(rows, str) else list(rows))
    frame, data = _take_data(frame, data)
    if isinstance(columns, Mapping):
        frame = frame[list(columns)].rename(columns=dict(columns))
    elif columns is not None:
        frame = frame[list(columns)]
    return frame, data


def _fold(frame: pd.DataFrame, fold: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Columns of ``fold`` with one value in every row, taken out and stated in a note."""
    constant = [column for column in fold if column in frame.columns and frame[column].nunique(dropna=False) == 1]
    notes = [f"{column.capitalize()} of every row: {frame[column].iat[0]}." for column in constant]
    return frame.drop(columns=constant), notes


def _row_labels_shown(index: pd.Index, separator: str | None, names: Mapping[str, str]) -> pd.Index:
    """Row labels as shown: ``statistic:measure`` labels split into two levels, header names applied."""
    if index.nlevels > 1 or separator is None or not any(separator in str(label) for label in index):
        return index
    keys = _column_tuples(pd.Index([str(label) for label in index]), separator)
    shown = pd.MultiIndex.from_tuples([tuple(names.get(label, label) for label in key) for key in keys])
    return shown.set_names([index.name] + [None] * (shown.nlevels - 1))


def _legend(mark: str, axis: str) -> str:
    symbol, wording = MARKS[mark]
    wording = wording.format(axis=axis)
    return f"Bold: {wording}." if symbol == "bold" else f"{symbol} {wording}."


def _positional(index: pd.Index) -> bool:
    """An unnamed 0, 1, ..., n-1 index: row numbers, which the book never shows."""
    return (
        index.nlevels == 1
        and index.name is None
        and pd.api.types.is_integer_dtype(index.dtype)
        and list(index) == list(range(len(index)))
    )


def _take_data(frame: pd.DataFrame, data: str | None) -> tuple[pd.DataFrame, str | None]:
    """Move a ``data`` column into the caption's data statement (unique values, in order)."""
    if "data" not in frame.columns:
        return frame, data
    values = list(dict.fromkeys(frame["data"].dropna().astype(str)))
    if data is None:
        data = "; ".join(values)
    return frame.drop(columns="data"), data


# --------------------------------------------------------------------------- numbering per page


@dataclass
class _Numbering:
    """The page's table counter: the one piece of state of this module (reset once per chapter)."""

    shown: int = 0

    def next(self) -> int:
        self.shown += 1
        return self.shown


_PAGE = _Numbering()


def reset_numbering() -> None:
    """Start numbering tables at 1 again (called by :func:`irrepro.plots.style.use_book_style`)."""
    _PAGE.shown = 0


def show(frame: pd.DataFrame, **options) -> Table:
    """Make :func:`table` with the page's next table number (Table 1, Table 2, ... in order of display).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table's data.
    **options
        :func:`table`'s keyword arguments, ``number`` excepted.

    Returns
    -------
    Table
        The table, displayed as HTML by Jupyter.

    Raises
    ------
    ValueError
        If ``number`` is given.
    """
    if options.get("number") is not None:
        raise ValueError("show() numbers the tables itself; use table(..., number=N) for a fixed number")
    return table(frame, number=_PAGE.next(), **options)


# --------------------------------------------------------------------------- shaping helpers


def side_by_side(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Put frames with the same rows next to each other under one header each.

    Parameters
    ----------
    frames : mapping of str -> pandas.DataFrame
        Header -> frame (``{"replicability": a, ...}``).

    Returns
    -------
    pandas.DataFrame
        One frame, the headers as the top column level.
    """
    return pd.concat({str(label): frame for label, frame in frames.items()}, axis=1)


def triangles(upper: pd.DataFrame, lower: pd.DataFrame) -> pd.DataFrame:
    """Make one square matrix from two (as the SIGIR 2020 paper's Tables 4 and 5).

    Parameters
    ----------
    upper : pandas.DataFrame
        Its values go above the diagonal.
    lower : pandas.DataFrame
        Its values go below, with the same rows and columns in the same order.

    Returns
    -------
    pandas.DataFrame
        The matrix, NaN on the diagonal.

    Raises
    ------
    ValueError
        If the two matrices' rows and columns differ.
    """
    if list(upper.index) != list(lower.index) or list(upper.columns) != list(lower.columns):
        raise ValueError("triangles: the two matrices must have the same rows and columns, in the same order")
    n = len(upper)
    above = np.triu(np.ones((n, n), dtype=bool), k=1)
    below = np.tril(np.ones((n, n), dtype=bool), k=-1)
    values = np.where(above, upper.to_numpy(dtype=float), np.where(below, lower.to_numpy(dtype=float), np.nan))
    return pd.DataFrame(values, index=upper.index, columns=upper.columns)


def glue_values(prefix: str, values: Mapping[str, object]) -> None:
    """Glue every value under ``<prefix>-<key>`` (MyST-NB) for ``{glue:text}`` in the prose.

    Keys are written with dashes (``best_map`` -> ``transfer-best-map``). Only inside a notebook
    built by MyST-NB; nothing is displayed.

    Parameters
    ----------
    prefix : str
        The start of every name.
    values : mapping of str -> object
        Key -> value; numpy scalars are glued as Python numbers, lists as ``a, b, c``.
    """
    # MyST-NB is the book's dependency, not the package's: imported only when gluing.
    from myst_nb import glue

    for key, value in values.items():
        glue(f"{prefix}-{key}".replace("_", "-"), _plain(value), display=False)


def _plain(value):
    """numpy scalars as Python numbers, so ``{glue:text}`` can format them; lists as ``a, b, c``."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    return value.item() if isinstance(value, np.generic) else value


def data_files(entries: Sequence[Mapping[str, str]] | pd.DataFrame) -> pd.DataFrame:
    """List the files a page read, as the page shows them.

    One row per file, the first 12 hex digits of its sha256, whether it was verified (if said) and
    its source, a git commit in it shortened to 8 digits.

    Parameters
    ----------
    entries : list of dict or pandas.DataFrame
        Records of :func:`irrepro.data.provenance` (``name``, ``sha256``, ``source``) or the frame
        of :func:`irrepro.provenance.data_files` (``file``, ..., ``verified``).

    Returns
    -------
    pandas.DataFrame
        The table shown.

    Raises
    ------
    ValueError
        If the entries lack a column.
    """
    files = pd.DataFrame(entries) if isinstance(entries, pd.DataFrame) else pd.DataFrame(list(entries))
    files = files.rename(columns={"name": "file"})
    missing = [column for column in ("file", "sha256", "source") if column not in files.columns]
    if missing:
        raise ValueError(f"data_files: the entries lack {missing}; got {list(files.columns)}")
    source = files["source"].str.replace(r"@\s*([0-9a-f]{8})[0-9a-f]{32}", r" @ \1", regex=True)
    shown = files.assign(sha256=files["sha256"].str[:12] + "\u2026", source=source)
    columns = ["sha256", "verified", "source"] if "verified" in files.columns else ["sha256", "source"]
    return shown.set_index("file")[columns]


# --------------------------------------------------------------------------- HTML


def _esc(text) -> str:
    return html.escape(str(text))


def _breakable(text) -> str:
    """Escaped text with break opportunities after ``/`` and ``_`` (file names, run names)."""
    return _esc(text).replace("/", "/<wbr>").replace("_", "_<wbr>")


def _header_rows(table: Table) -> list[str]:
    """The ``<thead>`` rows: grouped labels span their columns, a label without sub-labels spans rows."""
    keys = list(table.cells.columns)
    depth = table.cells.columns.nlevels
    filled = [max([i + 1 for i, label in enumerate(key) if label] or [1]) for key in keys]
    rows = []
    for level in range(depth):
        cells = []
        if level == 0 and table.stub:
            cells += _stub_header(table.cells.index.names, depth)
        position = 0
        while position < len(keys):
            key, height = keys[position], filled[position]
            if level >= height:
                position += 1
                continue
            span = 1
            if level < height - 1:  # a group label: merge the columns that share it
                while (
                    position + span < len(keys)
                    and keys[position + span][: level + 1] == key[: level + 1]
                    and filled[position + span] > level + 1
                ):
                    span += 1
            rowspan = depth - level if level == height - 1 else 1
            kind = "group" if span > 1 or level < height - 1 else "leaf"
            attributes = f' colspan="{span}"' if span > 1 else ""
            attributes += f' rowspan="{rowspan}"' if rowspan > 1 else ""
            scope = "colgroup" if kind == "group" else "col"
            cells.append(f'<th class="{kind}" scope="{scope}"{attributes}>{_esc(key[level])}</th>')
            position += span
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return rows


def _stub_header(names: Sequence, depth: int) -> list[str]:
    """The header cells over the row labels; a level without a name joins the one before it."""
    cells, spans = [], []
    for position, name in enumerate(names):
        if position and name is None:
            spans[-1] += 1
        else:
            cells.append("" if name is None else str(name))
            spans.append(1)
    spanned = [f' colspan="{span}"' if span > 1 else "" for span in spans]
    return [
        f'<th class="stub" scope="col" rowspan="{depth}"{colspan}>{_esc(name)}</th>'
        for name, colspan in zip(cells, spanned, strict=True)
    ]


def _stub_cells(index: pd.Index, row: int) -> list[str]:
    """The row-label cells of one row: a label repeated in the rows below spans them."""
    labels = [index[row]] if index.nlevels == 1 else list(index[row])
    previous = None if row == 0 else ([index[row - 1]] if index.nlevels == 1 else list(index[row - 1]))
    cells = []
    for level, label in enumerate(labels):
        outer = level < len(labels) - 1
        if outer and previous is not None and previous[: level + 1] == labels[: level + 1]:
            continue  # covered by the rowspan above
        span = 1
        if outer:
            while row + span < len(index) and list(_row_labels(index, row + span))[: level + 1] == labels[: level + 1]:
                span += 1
        rowspan = f' rowspan="{span}"' if span > 1 else ""
        short = ' class="short"' if len(str(label)) <= _WRAP else ""  # a short label stays on one line
        cells.append(f'<th scope="row"{short}{rowspan}>{_esc(label)}</th>')
    return cells


def _row_labels(index: pd.Index, row: int) -> list:
    return [index[row]] if index.nlevels == 1 else list(index[row])


def _render_html(table: Table) -> str:
    body = []
    for row in range(len(table.cells)):
        cells = _stub_cells(table.cells.index, row) if table.stub else []
        for column in range(table.cells.shape[1]):
            text, classes = table.cells.iat[row, column], table.classes.iat[row, column]
            if "interval" in classes and " [" in text:
                estimate, interval = text.split(" [", 1)
                text_html = f'{_esc(estimate)} <span class="ci">[{_esc(interval)}</span>'
            else:
                text_html = _breakable(text) if classes.startswith("text") else _esc(text)
            cells.append(f'<td class="{classes}">{text_html}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    classes = "irrepro-table compact" if table.compact else "irrepro-table"
    anchor = f' id="{_esc(table.name)}"' if table.name else ""
    notes = "".join(f'<p class="irrepro-table-note">{_esc(note)}</p>' for note in table.notes)
    caption = table.caption_text()
    number, _, rest = caption.partition(". ")
    return (
        f'<div class="{classes}"{anchor}><table>'
        f'<caption><span class="caption-number">{_esc(number)}.</span> {_esc(rest)}</caption>'
        f"<thead>{''.join(_header_rows(table))}</thead><tbody>{''.join(body)}</tbody></table>{notes}</div>"
    )

