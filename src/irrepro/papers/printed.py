"""A number a paper prints, and the rule by which a reproduced value matches it.

The fidelity protocol (:mod:`irrepro.papers.fidelity`) counts compared values; this module says what
one is. A :class:`PrintedValue` is one number as a paper prints it (kept as the printed string,
because its precision is part of the fact), the paper's words around it (the tests find them in the
text copies of the papers, so a typo in a transcription fails) and the rule it is held to:

- ``"rounded"``: the print is the value rounded to its last digit, ``0.70`` stands for [0.695, 0.705];
- ``"truncated"``: p-values the paper cuts, ``0.005`` stands for [0.005, 0.006);
- ``"above"`` / ``"below"`` / ``"at least"`` / ``"at most"``: a bound in the prose ("above 0.9",
  "lower than 0.86"), read strictly as worded at full precision (:func:`threshold_holds`): 0.8988 is
  not "above 0.9", although it rounds to 0.90;
- ``"exact"``: a count, in digits or words ("eight outlier runs", "just one point").

:func:`compare` sets reproduced values (:class:`Reading`) beside the printed ones, one row per value
with the difference and whether it matches.

>>> value = PrintedValue("sigir2020", "Table 3", "highest p-value", "0.005", "truncated",
...                      quote="being the highest p-value just 0.005", where="Section 5.2")
>>> value.matches(0.00546), value.matches(0.0061), value.tolerance
(True, False, 'in [0.005, 0.006): p-values are printed truncated')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd

__all__ = [
    "RULES", "THRESHOLDS", "NUMBER_WORDS", "PrintedValue", "Reading", "compare", "printed_interval",
    "printed_number", "rules_in_words", "threshold_holds", "rounding_note",
]  # fmt: skip

#: The matching rules, each in the words a table note uses (:func:`rules_in_words`).
RULES: dict[str, str] = {
    "rounded": "a rounded value within half a unit of its last printed digit",
    "truncated": "a truncated p-value from its print up to one unit of its last digit above",
    "above": "a bound read strictly as worded, at full precision",
    "below": "a bound read strictly as worded, at full precision",
    "at least": "a bound read strictly as worded, at full precision",
    "at most": "a bound read strictly as worded, at full precision",
    "exact": "a count exactly",
}
#: The threshold words, each with its comparison at full precision (:func:`threshold_holds`); the
#: paper's synonyms: "more than", "higher than" = above; "less than", "lower than" = below.
THRESHOLDS: dict[str, str] = {"above": ">", "below": "<", "at least": "\u2265", "at most": "\u2264"}
#: Counts a paper writes in words.
NUMBER_WORDS: dict[str, int] = {
    word: number
    for number, word in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
    )
}
_NOISE = 1e-12  # absorbs floating-point noise at the edges of a printed interval
COLUMNS: tuple[str, ...] = (
    "item", "value", "printed", "reproduced", "difference", "match", "tolerance", "note", "found at", "where", "quote",
)  # fmt: skip


def printed_number(text: str) -> Decimal:
    """Read the number a printed string stands for: ``"0.70"``, ``"5E-04"``, ``"54E-06"``, ``"eight"``.

    Parameters
    ----------
    text : str
        The printed string.

    Returns
    -------
    decimal.Decimal
        The number, with the printed digits.

    Raises
    ------
    ValueError
        If it is not a number.

    Examples
    --------
    >>> printed_number("eight"), printed_number("5E-04"), printed_number("0.290")
    (Decimal('8'), Decimal('0.0005'), Decimal('0.290'))
    """
    cleaned = text.strip().replace("\u2212", "-")
    if cleaned.lower() in NUMBER_WORDS:
        return Decimal(NUMBER_WORDS[cleaned.lower()])
    try:
        return Decimal(cleaned.upper())
    except InvalidOperation as error:
        raise ValueError(f"printed cell {text!r} is not a number") from error


def printed_interval(cell: str, *, truncated: bool) -> tuple[float, float]:
    """Give the interval [low, high) of values that print as ``cell``.

    Parameters
    ----------
    cell : str
        A printed number: ``"0.7760"``, ``"1"``, ``"0.046"`` or ``"5E-04"`` (mantissa times a power of ten).
    truncated : bool
        True for p-values, which the SIGIR 2020 paper truncates: ``"0.046"`` stands for [0.046, 0.047)
        and ``"5E-04"`` for [5e-4, 6e-4). False for the other cells, rounded to their last printed
        digit: ``"0.7760"`` stands for [0.77595, 0.77605). Integers without a decimal point (``"1"``,
        ``"0"``: the original run compared with itself) stand for exactly that value.

    Returns
    -------
    tuple of (float, float)
        The bounds low and high.

    Raises
    ------
    ValueError
        If the cell gives no finite interval.

    Examples
    --------
    >>> printed_interval("0.046", truncated=True)
    (0.046, 0.047)
    >>> printed_interval("5E-04", truncated=True)
    (0.0005, 0.0006)
    """
    value = printed_number(cell)
    text = cell.strip().upper()
    if "E" not in text and "." not in text:
        return float(value), float(value)
    # the unit of the last printed digit: 0.046 -> 0.001, 5E-04 -> 1E-04, 54E-06 -> 1E-06
    unit = Decimal(1).scaleb(value.as_tuple().exponent)
    low, high = (value, value + unit) if truncated else (value - unit / 2, value + unit / 2)
    if not (math.isfinite(float(low)) and math.isfinite(float(high))):
        raise ValueError(f"printed cell {cell!r} gives no finite interval")
    return float(low), float(high)


@dataclass(frozen=True)
class Reading:
    """A reproduced value and where in the reproduced tables it was found.

    Parameters
    ----------
    value : float
        The reproduced value.
    found_at : str
        Where it lies (``"WCrobust04, p:P@10 of rpd_df_1"``).
    """

    value: float
    found_at: str


@dataclass(frozen=True)
class PrintedValue:
    """One number a paper prints: its item, the printed string, the matching rule, its words and place.

    Parameters
    ----------
    paper : str
        The paper's key.
    item : str
        The table or figure it belongs to ("Table 4"), or "Section 3 (text)".
    name : str
        What the value is, unique within the paper ("ARP vs KTU, highest").
    printed : str
        Exactly as printed: "0.29", "eight".
    rule : str
        How a reproduced value matches it, one of :data:`RULES`.
    quote : str
        The paper's words holding the number.
    where : str
        Where the paper prints it ("Section 5.3").
    """

    paper: str
    item: str  # the table or figure it belongs to ("Table 4"), or "Section 3 (text)"
    name: str  # what the value is, unique within the paper ("ARP vs KTU, highest")
    printed: str  # exactly as printed: "0.29", "eight"
    rule: str  # one of RULES
    quote: str  # the paper's words holding the number
    where: str  # where the paper prints it ("Section 5.3")

    def __post_init__(self):
        if self.rule not in RULES:
            raise ValueError(f"{self.paper} {self.name}: rule {self.rule!r} is not one of {', '.join(RULES)}")
        number = printed_number(self.printed)  # raises for a non-number
        if self.rule == "exact" and number != number.to_integral_value():
            raise ValueError(f"{self.paper} {self.name}: an exact value is a count, not {self.printed!r}")
        if self.printed not in self.quote:
            raise ValueError(f"{self.paper} {self.name}: the quote does not contain the printed {self.printed!r}")

    @property
    def number(self) -> float:
        """The number the printed string stands for (:func:`printed_number`)."""
        return float(printed_number(self.printed))

    @property
    def decimals(self) -> int:
        """Decimals of the printed number (0 for a count)."""
        return max(0, -printed_number(self.printed).as_tuple().exponent)

    @property
    def tolerance(self) -> str:
        """The matching rule in words, with its interval or bound."""
        if self.rule == "exact":
            return "exactly (a count)"
        if self.rule in ("rounded", "truncated"):
            low, high = printed_interval(self.printed, truncated=self.rule == "truncated")
            close = ")" if self.rule == "truncated" else "]"
            why = "p-values are printed truncated" if self.rule == "truncated" else "the print rounds"
            return f"in [{low:.{self.decimals + 1}g}, {high:.{self.decimals + 1}g}{close}: {why}"
        return f"{THRESHOLDS[self.rule]} {self.printed} ({self.rule}), the reproduced value unrounded"

    def note(self, value: float) -> str:
        """Say whether the paper's rounding could explain a bound the value misses (:func:`rounding_note`).

        Parameters
        ----------
        value : float
            The reproduced value.

        Returns
        -------
        str
            The note; "" for other rules, or when the bound holds.
        """
        if self.rule not in THRESHOLDS or not math.isfinite(value):
            return ""
        return rounding_note(value, self.rule, self.number, self.decimals)

    def matches(self, value: float) -> bool:
        """Tell whether a reproduced ``value`` matches the print under :attr:`rule` (NaN never matches).

        Parameters
        ----------
        value : float
            The reproduced value.

        Returns
        -------
        bool
            True if it matches.
        """
        if not math.isfinite(value):
            return False
        if self.rule == "exact":
            return value == self.number
        if self.rule in THRESHOLDS:
            return threshold_holds(value, self.rule, self.number)
        low, high = printed_interval(self.printed, truncated=self.rule == "truncated")
        if self.rule == "truncated":
            return low - _NOISE <= value < high
        return low - _NOISE <= value <= high + _NOISE


def threshold_holds(value, side: str, bound: float, upper: float | None = None):
    """Tell whether ``value`` lies on the worded side of a bound, at full precision (the one home of the rule).

    A claim "above X" holds when the value is above X unrounded: a value that only rounds to X (or
    beyond it) does not pass; exact equality fails "above" and "below" and passes "at least" and "at
    most". ``side="between"`` takes a second bound, ``upper``, and holds strictly inside. Works on
    floats and on NumPy arrays (replicates); NaN never holds.

    Parameters
    ----------
    value : float or numpy.ndarray
        The computed value(s), unrounded.
    side : {"above", "below", "at least", "at most", "between"}
        The paper's word ("more than" = "above", "lower than" = "below").
    bound : float
        The bound, as the paper states it (the lower one for "between").
    upper : float, optional
        The upper bound, for "between" only.

    Returns
    -------
    bool or numpy.ndarray
        True where the claim holds.

    Raises
    ------
    ValueError
        For an unknown side, or ``upper`` given (or missing) against the side.

    Examples
    --------
    >>> threshold_holds(0.8988, "above", 0.9), threshold_holds(0.9001, "above", 0.9)
    (False, True)
    >>> threshold_holds(0.9, "above", 0.9), threshold_holds(0.9, "at least", 0.9)
    (False, True)
    >>> threshold_holds(0.29, "below", 0.29), threshold_holds(0.288, "below", 0.29), threshold_holds(0.5, "between", 0.4, 0.6)
    (False, True, True)
    """
    if side == "between":
        if upper is None:
            raise ValueError("threshold_holds: 'between' needs the upper bound")
        result = np.greater(value, bound) & np.less(value, upper)
    elif side in THRESHOLDS:
        if upper is not None:
            raise ValueError(f"threshold_holds: {side!r} takes one bound")
        result = {"above": np.greater, "below": np.less, "at least": np.greater_equal,
                  "at most": np.less_equal}[side](value, bound)  # fmt: skip
    else:
        raise ValueError(f"threshold_holds: side {side!r} is not one of {', '.join([*THRESHOLDS, 'between'])}")
    return bool(result) if np.ndim(result) == 0 else result


def rounding_note(value: float, side: str, bound: float, decimals: int) -> str:
    """Say, beside a failed threshold, whether the paper's own rounding could explain it ("" otherwise).

    The verdict stays the strict one (:func:`threshold_holds`); the note only says that the value,
    rounded to the bound's printed decimals, reaches the bound, so the authors may have computed it and
    written the bound thinking of the rounded number.

    Parameters
    ----------
    value : float
        The computed value.
    side : {"above", "below", "at least", "at most"}
        The paper's word.
    bound : float
        The bound.
    decimals : int
        The decimals the paper prints the bound with.

    Returns
    -------
    str
        The note, or "" when the claim holds or rounding does not reach the bound either.

    Examples
    --------
    >>> rounding_note(0.8988, "above", 0.9, 1)
    'rounding may explain the words: 0.8988 rounds to 0.9 at the printed decimals of the bound, yet is not above 0.9'
    >>> rounding_note(0.9118, "above", 0.9, 1), rounding_note(0.85, "above", 0.9, 1)
    ('', '')
    """
    if threshold_holds(value, side, bound):
        return ""
    rounded = round(float(value), decimals)
    if not (threshold_holds(rounded, side, bound) or math.isclose(rounded, bound, abs_tol=_NOISE)):
        return ""
    return (f"rounding may explain the words: {value:.4f} rounds to {rounded:.{decimals}f} at the printed decimals "
            f"of the bound, yet is not {side} {bound:g}")  # fmt: skip


def rules_in_words(rules: Iterable[str]) -> str:
    """Write the matching rules of several values in words, each once: a row's tolerance in a fidelity table.

    Parameters
    ----------
    rules : iterable of str
        Rules of :data:`RULES`.

    Returns
    -------
    str
        The rules in words, joined by semicolons.

    Raises
    ------
    ValueError
        For an unknown rule.

    Examples
    --------
    >>> rules_in_words(["at most", "rounded", "above"])
    'a bound read strictly as worded, at full precision; a rounded value within half a unit of its last printed digit'
    """
    unknown = [rule for rule in rules if rule not in RULES]
    if unknown:
        raise ValueError(f"unknown rule(s) {', '.join(unknown)}; expected one of {', '.join(RULES)}")
    return "; ".join(dict.fromkeys(RULES[rule] for rule in rules))


def compare(values: Sequence[PrintedValue], readings: Mapping[str, Reading]) -> pd.DataFrame:
    """Set printed values beside reproduced ones, read from ``readings`` by name.

    Parameters
    ----------
    values : sequence of PrintedValue
        The printed values.
    readings : mapping of str -> Reading
        A value's name -> its reproduced reading.

    Returns
    -------
    pandas.DataFrame
        One row per value; columns ``item``, ``value`` (its name), ``printed`` (the string),
        ``reproduced``, ``difference`` (reproduced minus the printed number), ``match``,
        ``tolerance`` (the rule in words), ``note`` (:meth:`PrintedValue.note`), ``found at`` (where the reproduced value lies in the
        reproduced tables), ``where`` and ``quote`` (the paper's).

    Raises
    ------
    ValueError
        If a value has no reading.
    """
    missing = [value.name for value in values if value.name not in readings]
    if missing:
        raise ValueError(f"no reproduced value for: {', '.join(missing)}")
    rows = []
    for value in values:
        reading = readings[value.name]
        rows.append({
            "item": value.item, "value": value.name, "printed": value.printed, "reproduced": reading.value,
            "difference": reading.value - value.number, "match": value.matches(reading.value),
            "tolerance": value.tolerance, "note": value.note(reading.value), "found at": reading.found_at, "where": value.where, "quote": value.quote,
        })  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype({"match": bool})
