"""A number a paper prints, and the rule by which a reproduced value matches it.

The fidelity protocol (:mod:`irrepro.papers.fidelity`) counts compared values; this module says what
one is. A :class:`PrintedValue` is one number as a paper prints it (kept as the printed string,
because its precision is part of the fact), the paper's words around it (the tests find them in the
text copies of the papers, so a typo in a transcription fails) and the rule it is held to:

- ``"rounded"``: the print is the value rounded to its last digit, ``0.70`` stands for [0.695, 0.705];
- ``"truncated"``: p-values the paper cuts, ``0.005`` stands for [0.005, 0.006);
- ``"at most"`` / ``"at least"``: a bound in the prose ("below 0.29", "above 0.9"), held at the
  bound's own precision: the reproduced value, rounded to the bound's decimals, must not pass it;
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

import pandas as pd

__all__ = [
    "RULES", "NUMBER_WORDS", "PrintedValue", "Reading", "compare", "printed_interval", "printed_number",
    "rules_in_words",
]  # fmt: skip

#: The matching rules, each in the words a table note uses (:func:`rules_in_words`).
RULES: dict[str, str] = {
    "rounded": "a rounded value within half a unit of its last printed digit",
    "truncated": "a truncated p-value from its print up to one unit of its last digit above",
    "at most": "a bound held at its own printed decimals",
    "at least": "a bound held at its own printed decimals",
    "exact": "a count exactly",
}
#: Counts a paper writes in words.
NUMBER_WORDS: dict[str, int] = {
    word: number
    for number, word in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
    )
}
_NOISE = 1e-12  # absorbs floating-point noise at the edges of a printed interval
COLUMNS: tuple[str, ...] = (
    "item", "value", "printed", "reproduced", "difference", "match", "tolerance", "found at", "where", "quote",
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
        sign = "\u2264" if self.rule == "at most" else "\u2265"
        unit = "decimal" if self.decimals == 1 else "decimals"
        return f"{sign} {self.printed}, the reproduced value rounded to {self.decimals} {unit}"

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
        if self.rule == "at most":
            return round(value, self.decimals) <= self.number + _NOISE
        if self.rule == "at least":
            return round(value, self.decimals) >= self.number - _NOISE
        low, high = printed_interval(self.printed, truncated=self.rule == "truncated")
        if self.rule == "truncated":
            return low - _NOISE <= value < high
        return low - _NOISE <= value <= high + _NOISE


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
    >>> rules_in_words(["at most", "rounded", "at least"])
    'a bound held at its own printed decimals; a rounded value within half a unit of its last printed digit'
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
        ``tolerance`` (the rule in words), ``found at`` (where the reproduced value lies in the
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
            "tolerance": value.tolerance, "found at": reading.found_at, "where": value.where, "quote": value.quote,
        })  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype({"match": bool})
