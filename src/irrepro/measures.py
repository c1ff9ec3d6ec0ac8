"""Measure names: what the user writes (``AP``, ``P@10``, ``nDCG@20``) and the trec_eval measure it means.

Kept apart from :mod:`irrepro.evaluation` (which needs pandas and trec_eval's C code) so that the
command line can check ``--measures`` when it parses its options, before anything heavy is
imported. :mod:`irrepro.evaluation` re-exports :class:`Measure` and :func:`parse_measure`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irrepro.validation import MAX_CUTOFF, InvalidParameterError

__all__ = ["Measure", "parse_measure", "MEASURE_NAMES"]

#: The names :func:`parse_measure` reads, as an error message lists them.
MEASURE_NAMES = "AP, P@k, nDCG, nDCG@k, R-prec, recall@k (k an integer from 1 to 2147483647; trec_eval's own names such as map, P_10, ndcg_cut_10 work too)"


@dataclass(frozen=True)
class Measure:
    """A measure by the name the user gave and the trec_eval measure it stands for.

    ``family`` is trec_eval's measure (``map``, ``P``, ``ndcg``, ``ndcg_cut``, ``Rprec``,
    ``recall``), ``cutoff`` its parameter k or ``None``; ``trec_eval`` is the name trec_eval
    prints (``P_10``) and ``request`` the one passed to pytrec_eval (``P.10``).
    """

    name: str
    family: str
    cutoff: int | None = None

    @property
    def trec_eval(self) -> str:
        return self.family if self.cutoff is None else f"{self.family}_{self.cutoff}"

    @property
    def request(self) -> str:
        return self.family if self.cutoff is None else f"{self.family}.{self.cutoff}"


_PATTERNS = (
    (re.compile(r"(?:AP|MAP)", re.I | re.A), "map", False),
    (re.compile(r"(?:R-?prec)", re.I | re.A), "Rprec", False),
    (re.compile(r"nDCG", re.I | re.A), "ndcg", False),
    (re.compile(r"(?:P@|P_|precision@)(\d+)", re.I | re.A), "P", True),
    (re.compile(r"(?:nDCG@|ndcg_cut_)(\d+)", re.I | re.A), "ndcg_cut", True),
    (re.compile(r"(?:recall@|recall_|R@)(\d+)", re.I | re.A), "recall", True),
)


def parse_measure(name: str) -> Measure:
    """Map a measure name to trec_eval's measure.

    ``AP`` -> ``map``, ``P@k`` -> ``P_k``, ``nDCG`` -> ``ndcg``, ``nDCG@k`` -> ``ndcg_cut_k``,
    ``R-prec`` -> ``Rprec``, ``recall@k`` -> ``recall_k`` (case-insensitive; trec_eval's own
    names are accepted too).  Raises ``ValueError`` for anything else and for a cut-off k outside
    1 .. 2,147,483,647 (trec_eval reads k as a C integer; a larger k would be misread).

    >>> parse_measure("nDCG@10").trec_eval
    'ndcg_cut_10'
    >>> parse_measure("P@5").request
    'P.5'
    """
    if not isinstance(name, str):
        raise InvalidParameterError(f"a measure name must be a string; got {name!r}")
    text = name.strip()
    for pattern, family, has_cutoff in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            if not has_cutoff:
                return Measure(name=name, family=family)
            digits = match.group(1).lstrip("0") or "0"
            if len(digits) > len(str(MAX_CUTOFF)) or not 1 <= int(digits) <= MAX_CUTOFF:
                raise InvalidParameterError(
                    f"measure {name!r}: the cut-off k must be an integer from 1 to {MAX_CUTOFF}; got {match.group(1)}"
                )
            return Measure(name=name, family=family, cutoff=int(digits))
    raise InvalidParameterError(f"unknown measure {name!r}; the measures are {MEASURE_NAMES}")
