"""A claim of a paper, checked on the numbers: the protocol every paper module follows.

A claim is a small function registered in its paper's :class:`ClaimList`: the decorator records
what the claim is (its ``id``, the paper's ``section``, the ``quote`` with the paper's own words,
the ``data`` it is tested on), and the function computes a :class:`Finding`: whether the numbers
support it (``holds``: True, False, or None when it cannot be tested here) and ``evidence``, a
sentence with the computed numbers. Evaluating the list gives one :class:`Claim` per function.

Quotes are the paper's words exactly (math in Unicode: ``τ`` for ``$\\tau$``); a quote made of
passages that are not adjacent in the paper joins them with ``[…]`` between spaces. The tests check every quote
against the text copies of the papers with :func:`quote_occurs`.

>>> CLAIMS = ClaimList("example")
>>> @CLAIMS.claim("two", section="1", quote="Two is even.", data="the integers")
... def _two_is_even():
...     return Finding(2 % 2 == 0, f"2 mod 2 = {2 % 2}")
>>> [(c.id, c.verdict, c.evidence) for c in CLAIMS.evaluate()]
[('example.two', 'holds', '2 mod 2 = 0')]
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pandas as pd

from irrepro.papers import PAPERS

__all__ = [
    "VERDICTS",
    "ELISION",
    "COLUMNS",
    "Finding",
    "Claim",
    "ClaimList",
    "claims_table",
    "normalise_text",
    "quote_occurs",
]

VERDICTS: tuple[str, ...] = ("holds", "does not hold", "cannot be tested here")
ELISION = " […] "
COLUMNS: tuple[str, ...] = ("id", "section", "claim", "data", "verdict", "evidence", "holds")


@dataclass(frozen=True)
class Finding:
    """What a claim function computes: whether the claim holds, and the evidence sentence.

    Parameters
    ----------
    holds : bool or None
        Whether the claim holds on the numbers; None: it cannot be tested here.
    evidence : str
        The sentence giving the numbers it rests on.
    """

    holds: bool | None
    evidence: str


@dataclass(frozen=True)
class Claim:
    """One claim of a paper with its verdict on the numbers.

    Parameters
    ----------
    id : str
        ``<paper>.<name>``.
    paper : str
        The paper's key.
    section : str
        Where the paper makes it.
    quote : str
        The paper's words.
    data : str
        The data it is checked on.
    verdict : str
        The verdict on the numbers.
    evidence : str
        The sentence giving the numbers it rests on.
    """

    id: str
    paper: str
    section: str
    quote: str
    data: str
    verdict: str
    evidence: str

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.id}: verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")
        for name in ("quote", "data", "evidence"):
            if not getattr(self, name).strip():
                raise ValueError(f"claim {self.id}: empty {name}")

    @property
    def holds(self) -> bool:
        """True only when the verdict is "holds"."""
        return self.verdict == "holds"


@dataclass(frozen=True)
class _Registered:
    id: str
    section: str
    quote: str
    data: str
    check: Callable[[], Finding]


class ClaimList:
    """The claims of one paper, in the order they are registered.

    Parameters
    ----------
    paper : str
        The paper's key (a key of :data:`irrepro.papers.PAPERS`).
    """

    def __init__(self, paper: str):
        self.paper = paper
        self._registered: list[_Registered] = []

    def claim(self, name: str, *, section: str, quote: str, data: str) -> Callable:
        """Register a function returning a :class:`Finding` as claim ``<paper>.<name>`` (a decorator factory).

        Parameters
        ----------
        name : str
            The claim's name within the paper.
        section : str
            Where the paper makes it.
        quote : str
            The paper's words.
        data : str
            The data it is checked on.

        Returns
        -------
        callable
            The decorator; it returns the function unchanged.

        Raises
        ------
        ValueError
            When decorating, if the claim is registered twice.
        """
        claim_id = f"{self.paper}.{name}"
        if claim_id in self.ids():
            raise ValueError(f"claim {claim_id} is registered twice")

        def register(check: Callable[[], Finding]) -> Callable[[], Finding]:
            self._registered.append(_Registered(claim_id, section, quote, data, check))
            return check

        return register

    def ids(self) -> list[str]:
        """Give the registered claims' ids, in registration order.

        Returns
        -------
        list of str
            ``<paper>.<name>`` of each claim.
        """
        return [entry.id for entry in self._registered]

    def __len__(self) -> int:
        return len(self._registered)

    def __iter__(self) -> Iterator[_Registered]:
        return iter(self._registered)

    def evaluate(self, ids: list[str] | None = None) -> list[Claim]:
        """Run the claim functions and return their claims.

        Parameters
        ----------
        ids : list of str, optional
            The claims to run; default: all.

        Returns
        -------
        list of Claim
            The claims with their verdicts.

        Raises
        ------
        ValueError
            For an unknown id.
        """
        unknown = sorted(set(ids or ()) - set(self.ids()))
        if unknown:
            raise ValueError(f"unknown claim(s) {', '.join(unknown)}; known: {', '.join(self.ids())}")
        results = []
        for entry in self._registered:
            if ids is not None and entry.id not in ids:
                continue
            finding = entry.check()
            verdict = VERDICTS[2] if finding.holds is None else VERDICTS[0] if finding.holds else VERDICTS[1]
            results.append(
                Claim(entry.id, self.paper, entry.section, entry.quote, entry.data, verdict, finding.evidence)
            )
        return results

    def table(self, ids: list[str] | None = None) -> pd.DataFrame:
        """Give the evaluated claims as a table, one row per claim.

        Parameters
        ----------
        ids : list of str, optional
            The claims; default: all.

        Returns
        -------
        pandas.DataFrame
            Columns :data:`COLUMNS`.
        """
        return _as_table(self.evaluate(ids))


def _as_table(claims: list[Claim]) -> pd.DataFrame:
    rows = [
        {
            "id": c.id,
            "section": c.section,
            "claim": c.quote,
            "data": c.data,
            "verdict": c.verdict,
            "evidence": c.evidence,
            "holds": c.holds,
        }
        for c in claims
    ]
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype({"holds": bool})


def claims_table(paper: str) -> pd.DataFrame:
    """Check every claim of ``paper`` on the numbers.

    Parameters
    ----------
    paper : str
        A key of :data:`irrepro.papers.PAPERS`.

    Returns
    -------
    pandas.DataFrame
        One row per claim with its verdict, columns :data:`COLUMNS`.

    Raises
    ------
    ValueError
        For an unknown paper.
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; known: {', '.join(PAPERS)}")
    module = importlib.import_module(f"irrepro.papers.{paper}")  # the paper modules import this one
    return module.CLAIMS.table()


_LATEX = {r"\tau": "τ", r"\gg": "≫", r"\Delta": "Δ", r"\phi": "φ", r"\leq": "≤", r"\geq": "≥"}


def normalise_text(text: str) -> str:
    r"""Normalise text as quotes are compared: LaTeX math as Unicode, ``$`` removed, whitespace collapsed.

    Parameters
    ----------
    text : str
        A quote or a paper's text.

    Returns
    -------
    str
        The normalised text.

    Examples
    --------
    >>> normalise_text("Kendall’s $\\tau$ is low,\n below $0.29$")
    'Kendall’s τ is low, below 0.29'
    """
    text = re.sub(r"\\text\{([^}]*)\}", r"\1", text)
    for macro, symbol in _LATEX.items():
        text = text.replace(macro, symbol)
    return " ".join(text.replace("$", "").split())


def quote_occurs(quote: str, text: str, *, lost_blanks: bool = False) -> bool:
    r"""Tell whether ``quote`` occurs in ``text`` (both normalised); passages joined by ``ELISION`` in order.

    Parameters
    ----------
    quote : str
        The quote.
    text : str
        The paper's text.
    lost_blanks : bool, default False
        Compare without any whitespace, for a text copy whose extraction dropped the blank at line
        breaks ("15topics"); the words and their order must still be the paper's.

    Returns
    -------
    bool
        True if it occurs.

    Examples
    --------
    >>> quote_occurs("RBO is somehow less strict.", "showing that RBO is  somehow\nless strict.")
    True
    >>> quote_occurs("A […] C", "A B C"), quote_occurs("C […] A", "A B C")
    (True, False)
    >>> quote_occurs("of 15 topics", "14 out of 15topics"), quote_occurs("of 15 topics", "of 15topics", lost_blanks=True)
    (False, True)
    """
    def normal(part: str) -> str:
        part = normalise_text(part)
        return "".join(part.split()) if lost_blanks else part

    haystack = normal(text)
    position = 0
    for passage in quote.split(ELISION.strip()):
        passage = normal(passage)
        found = haystack.find(passage, position)
        if not passage or found < 0:
            return False
        position = found + len(passage)
    return True
