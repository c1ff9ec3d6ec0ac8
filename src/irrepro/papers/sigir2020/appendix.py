"""Printed versus reproduced: the online appendix's Tables 1, 2 and 3, cell by cell.

The appendix prints ARP, KTU, RBO and RMSE rounded to four decimals and, in Tables 1 and 2, p-values
truncated (three decimals, or the leading digit as ``xE-yy``), as it notes. Its Table 3 (each
replicated run against its reproduced twin) says nothing of the kind, so the rule of each of its
columns is read from the printed forms (:func:`rounding_evidence`: a print that equals the
truncation but not the rounding of the reproduced value, or the other way round, across the column).
:func:`appendix_comparison` checks every printed cell
against the value recomputed from the authors' published per-topic scores, :func:`match_counts`
counts the matches, :func:`appendix_misprints` explains each miss (and judges whether it is a
misprint, from the print itself), :func:`largest_differences` lists the largest gaps among the
matches and :func:`match_statement` says what the match does and does not show.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.papers import published
from irrepro.papers.datasets import ADVANCED
from irrepro.papers.sigir2020.measure_tables import replicability_table, reproducibility_table, rpl_vs_rpd_pvalues

__all__ = [
    "APPENDIX_TABLES",
    "PER_TOPIC_NOTE",
    "rounding_evidence",
    "appendix_comparison",
    "match_counts",
    "appendix_misprints",
    "largest_differences",
    "match_statement",
    "as_printed",
    "worst_cells",
]

APPENDIX_TABLES: tuple[int, ...] = (1, 2, 3)
#: What a match of recomputed cells shows (and what it does not).
PER_TOPIC_NOTE = (
    "computed from the authors' own per-topic scores: this checks the measures' arithmetic and conventions, "
    "not a re-run of the runs"
)
_TOLERANCE = 1e-12  # absorbs floating-point noise at the edges of a printed interval
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three"}


def _printed_and_reproduced(table: int) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    if table == 1:
        return published.appendix_table1(), replicability_table(ADVANCED), "appendix Table 1"
    if table == 2:
        return published.appendix_table2(), reproducibility_table(ADVANCED), "appendix Table 2"
    if table == 3:
        twins = rpl_vs_rpd_pvalues()
        twins = twins.set_axis([run.removeprefix("rpd_") for run in twins.index])  # the print names the pair tf_1
        twins.index.name = "run"
        return published.appendix_table3(), twins, "appendix Table 3"
    raise ValueError(f"the SIGIR 2020 online appendix has Tables 1, 2 and 3, not {table!r}")


def _checked(table: int) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    printed, reproduced, name = _printed_and_reproduced(table)
    if list(printed.index) != list(reproduced.index) or list(printed.columns) != list(reproduced.columns):
        raise ValueError(f"{name}: printed and reproduced tables differ in rows or columns")
    return printed, reproduced, name


def rounding_evidence(table: int) -> pd.DataFrame:
    """Tell, per column of an appendix table, whether its printed p-values are truncated or rounded.

    Every printed cell is held against the reproduced value under both rules: ``truncated`` (``0.046``
    stands for [0.046, 0.047), ``5E-04`` for [5e-4, 6e-4)) and ``rounded`` (``0.046`` for [0.0455,
    0.0465], ``5E-04`` for [4.5e-4, 5.5e-4]). A cell consistent with one rule only is evidence for
    it. Tables 1 and 2 follow the appendix's own note (p-values truncated, the rest rounded); the
    rule of a Table 3 column is the one more of its cells are consistent with only (a tie: the
    appendix's note, truncated).

    Parameters
    ----------
    table : {1, 2, 3}
        The appendix table.

    Returns
    -------
    pandas.DataFrame
        Index ``cell`` (the columns of the p-values); columns ``cells``, ``truncated`` and ``rounded``
        (cells consistent with each rule), ``only truncated``, ``only rounded``, ``neither`` and
        ``rule`` (the rule the comparison holds the column to).
    """
    printed, reproduced, _ = _checked(table)
    rows = []
    for cell in [c for c in printed.columns if c.startswith("p:")]:
        texts, values = printed[cell], reproduced[cell].astype(float)
        truncated = [_matches(t, v, truncated=True) for t, v in zip(texts, values, strict=True)]
        rounded = [_matches(t, v, truncated=False) for t, v in zip(texts, values, strict=True)]
        only_t = sum(a and not b for a, b in zip(truncated, rounded, strict=True))
        only_r = sum(b and not a for a, b in zip(truncated, rounded, strict=True))
        rule = "rounded" if table == 3 and only_r > only_t else "truncated"
        rows.append({"cell": cell, "cells": len(texts), "truncated": sum(truncated), "rounded": sum(rounded),
                     "only truncated": only_t, "only rounded": only_r,
                     "neither": sum(not (a or b) for a, b in zip(truncated, rounded, strict=True)), "rule": rule})  # fmt: skip
    return pd.DataFrame(rows).set_index("cell")


def _matches(text: str, value: float, *, truncated: bool) -> bool:
    low, high = published.printed_interval(text, truncated=truncated)
    if low == high:
        return abs(value - low) <= _TOLERANCE
    if truncated:
        return low * (1 - _TOLERANCE) <= value < high
    return low - _TOLERANCE <= value <= high + _TOLERANCE


def _format_like(value: float, printed: str, *, truncated: bool) -> str:
    """``value`` in the print's format: rounded or truncated decimals, or a truncated or rounded 'xE-yy'.

    >>> _format_like(7.7e-05, "8E-05", truncated=True), _format_like(7.7e-05, "8E-05", truncated=False)
    ('7E-05', '8E-05')
    >>> _format_like(9.6e-05, "1E-04", truncated=False), _format_like(0.0293, "0.030", truncated=False)
    ('1E-04', '0.029')
    """
    text = printed.upper()
    if "E" in text:
        exponent = int(np.floor(np.log10(value))) if value > 0 else 0
        mantissa = value / 10.0**exponent
        digit = int(np.floor(mantissa + 1e-9)) if truncated else int(np.floor(mantissa + 0.5))
        if digit == 10:  # rounded up to the next power of ten
            digit, exponent = 1, exponent + 1
        return f"{digit}E-{-exponent:02d}" if exponent < 0 else f"{digit}E+{exponent:02d}"
    if "." not in text:
        return f"{value:g}"
    decimals = len(text.split(".")[1])
    if truncated:
        return f"{np.floor(value * 10**decimals + 1e-9) / 10**decimals:.{decimals}f}"
    return f"{value:.{decimals}f}"


def _mantissa_digits(text: str) -> int | None:
    """Digits of the mantissa of an 'xE-yy' cell (``"54E-06"`` -> 2); None for other cells."""
    text = text.upper().replace("\u2212", "-")
    return len(text.split("E")[0].replace(".", "").lstrip("+-")) if "E" in text else None


def appendix_comparison(table: int) -> pd.DataFrame:
    """Compare the printed and the reproduced cells of the online appendix's Table 1, 2 (WCrobust0405) or 3.

    Matching rule: a rounded cell (ARP, KTU, RBO, RMSE; four decimals) matches when the reproduced
    value rounds to it, i.e. lies within half a unit of the last printed digit; a p-value of Tables 1
    and 2 is printed truncated, so ``0.046`` matches [0.046, 0.047) and ``5E-04`` (leading digit,
    truncated) matches [5e-4, 6e-4); a p-value of Table 3 is held to its column's rule as the print
    shows it (:func:`rounding_evidence`); integers printed for the original run compared with itself
    (``1``, ``0``) must be exact. A tolerance of 1e-12 absorbs floating-point noise at interval edges.

    Parameters
    ----------
    table : {1, 2, 3}
        The appendix table.

    Returns
    -------
    pandas.DataFrame
        One row per printed cell: ``run`` (Table 3: the constellation of the pair, as printed),
        ``cell``, ``rule`` ("rounded" or "truncated"), ``printed`` (text), ``reproduced`` (full
        precision), ``reproduced as printed``, ``difference`` (reproduced minus the printed number),
        ``match`` and ``note`` (for a miss judged a misprint by :func:`appendix_misprints`).

    Raises
    ------
    ValueError
        If the printed and reproduced tables differ in rows or columns.
    """
    printed, reproduced, name = _checked(table)
    rules = rounding_evidence(table)["rule"]
    rows = []
    for run in printed.index:
        for cell in printed.columns:
            text, value = printed.at[run, cell], float(reproduced.at[run, cell])
            truncated = rules.get(cell) == "truncated"
            rows.append({"run": run, "cell": cell, "rule": "truncated" if truncated else "rounded",
                         "printed": text, "reproduced": value,
                         "reproduced as printed": _format_like(value, text, truncated=truncated),
                         "difference": value - float(text),
                         "match": _matches(text, value, truncated=truncated)})  # fmt: skip
    comparison = pd.DataFrame(rows)
    notes = {(m.run, m.cell): m.note for m in _misprints(comparison, name).itertuples() if m.misprint}
    keys = zip(comparison["run"], comparison["cell"], strict=True)
    comparison["note"] = [notes.get(key, "") for key in keys]
    return comparison


def _misprint(comparison: pd.DataFrame, miss: pd.Series, name: str) -> dict:
    """Why one missing cell misses, judged from the print: the facts and the verdict."""
    column = comparison[(comparison["cell"] == miss["cell"]) & (comparison.index != miss.name)]
    row = comparison[(comparison["run"] == miss["run"]) & (comparison.index != miss.name)]
    digits = _mantissa_digits(miss["printed"])
    column_digits = sorted({d for d in map(_mantissa_digits, column["printed"]) if d is not None})
    shortened = None
    if digits is not None and len(column_digits) == 1 and digits > column_digits[0]:
        mantissa, exponent = miss["printed"].upper().split("E")
        shortened = f"{mantissa[: column_digits[0]]}E{exponent}"
    misprint = shortened is not None and shortened == miss["reproduced as printed"]
    words = _NUMBER_WORDS.get(column_digits[0], str(column_digits[0])) if column_digits else ""
    note = (f"misprint: '{miss['printed']}' is not in the table's {words}-digit 'xE-yy' format; the reproduced "
            "value's leading digit is shown in the 'reproduced as printed' column") if misprint else ""  # fmt: skip
    return {
        "table": name, "run": miss["run"], "cell": miss["cell"], "printed": miss["printed"],
        "reproduced": miss["reproduced"], "reproduced as printed": miss["reproduced as printed"],
        "printed mantissa digits": digits, "column mantissa digits": ", ".join(map(str, column_digits)),
        "column cells": len(column), "column cells matching": int(column["match"].sum()),
        "row cells": len(row), "row cells matching": int(row["match"].sum()),
        "printed in the column's format": shortened, "misprint": misprint, "note": note,
    }  # fmt: skip


def _misprints(comparison: pd.DataFrame, name: str) -> pd.DataFrame:
    rows = [_misprint(comparison, miss, name) for _, miss in comparison[~comparison["match"]].iterrows()]
    return pd.DataFrame(rows, columns=list(_misprint_columns()))


def _misprint_columns() -> tuple[str, ...]:
    return ("table", "run", "cell", "printed", "reproduced", "reproduced as printed", "printed mantissa digits",
            "column mantissa digits", "column cells", "column cells matching", "row cells", "row cells matching",
            "printed in the column's format", "misprint", "note")  # fmt: skip


def appendix_misprints() -> pd.DataFrame:
    """List every printed cell that the reproduced value does not match, and whether the print itself is wrong.

    A miss is judged a **misprint** when the printed 'xE-yy' cell has more mantissa digits than
    every other 'xE-yy' cell of its column (all of which have the same number) and, cut to that
    number of digits (``printed in the column's format``), it equals the reproduced value in the
    column's format.

    Returns
    -------
    pandas.DataFrame
        One row per miss of :func:`appendix_comparison` (both tables); the columns give the
        evidence: the mantissa digits of the cell and of the rest of its column, and how many of the
        other cells of its row and column match.
    """
    parts = [_misprints(appendix_comparison(number), f"appendix Table {number}") for number in APPENDIX_TABLES]
    parts = [part for part in parts if not part.empty]
    if not parts:
        return pd.DataFrame(columns=list(_misprint_columns()))
    misprints = pd.concat(parts, ignore_index=True)
    return misprints.astype({"printed mantissa digits": "Int64", "misprint": bool})


def match_counts() -> pd.DataFrame:
    """Count the matching cells per appendix table.

    Returns
    -------
    pandas.DataFrame
        Index ``table``; columns ``cells``, ``matching``, ``missing``.
    """
    rows = []
    for number in APPENDIX_TABLES:
        comparison = appendix_comparison(number)
        rows.append(
            {
                "table": f"appendix Table {number}",
                "cells": len(comparison),
                "matching": int(comparison["match"].sum()),
                "missing": int((~comparison["match"]).sum()),
            }
        )
    return pd.DataFrame(rows).set_index("table")


def largest_differences(table: int, n: int = 5) -> pd.DataFrame:
    """Find the ``n`` matching cells of appendix Table ``table`` farthest from their printed number.

    A truncated p-value can match with a large difference (``0.715`` printed for 0.7156): these rows
    show how far a match can lie from the printed digits.

    Parameters
    ----------
    table : {1, 2, 3}
        The appendix table.
    n : int, default 5
        How many cells.

    Returns
    -------
    pandas.DataFrame
        Rows of :func:`appendix_comparison`, largest absolute difference first.
    """
    comparison = appendix_comparison(table)
    matching = comparison[comparison["match"]]
    return matching.reindex(matching["difference"].abs().sort_values(ascending=False, kind="stable").index).head(n)


def match_statement() -> str:
    """State the appendix match counts and what they prove, in a sentence (for the chapter and the report).

    Returns
    -------
    str
        The sentence.
    """
    counts = match_counts()
    parts = [f"{row.matching} of the {row.cells} printed cells of {name}" for name, row in counts.iterrows()]
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return (
        f"The reproduced values match {listed}. They are recomputed from the authors' own "
        "per-topic scores, so the match shows that the measures are computed with the authors' arithmetic and "
        "conventions; it is not a re-run of their runs."
    )


def as_printed(table: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Reproduce appendix Table 1 or 2 in the print's own format, and mark where it differs from the print.

    Parameters
    ----------
    table : {1, 2, 3}
        The appendix table.

    Returns
    -------
    cells : pandas.DataFrame
        The reproduced values written as the appendix writes them (runs x cells, the appendix's row
        and column order).
    differs : pandas.DataFrame
        Booleans of the same shape, True where the reproduced value does not fall in the interval
        the printed text stands for.
    """
    comparison = appendix_comparison(table)
    runs = list(dict.fromkeys(comparison["run"]))
    cells = list(dict.fromkeys(comparison["cell"]))
    shown = comparison.pivot(index="run", columns="cell", values="reproduced as printed").loc[runs, cells]
    differs = ~comparison.pivot(index="run", columns="cell", values="match").loc[runs, cells].astype(bool)
    return shown, differs


def worst_cells(comparison: pd.DataFrame, *, n: int = 5) -> pd.DataFrame:
    """Give the cells of :func:`appendix_comparison` that do not match, or else the ``n`` largest differences.

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`appendix_comparison`'s rows.
    n : int, default 5
        How many cells when all match.

    Returns
    -------
    pandas.DataFrame
        The rows, largest absolute difference first when all match.
    """
    misses = comparison[~comparison["match"]]
    if len(misses):
        return misses
    return comparison.loc[comparison["difference"].abs().sort_values(ascending=False, kind="stable").index[:n]]
