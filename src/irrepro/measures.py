"""Measure names: what the user writes (``AP``, ``P@10``, ``nDCG@20``) and the trec_eval measure it means.

Kept apart from :mod:`irrepro.evaluation` (which needs pandas and trec_eval's C code) so that the
command line can check ``--measures`` when it parses its options, before anything heavy is
imported. :mod:`irrepro.evaluation` re-exports :class:`Measure` and :func:`parse_measure`.

The names are those of ir_measures (MacAvaney, Macdonald & Ounis, ECIR 2022) where it has one,
and trec_eval's own: ``AP``, ``AP@k`` (trec_eval's ``map_cut_k``), ``P@k``, ``R@k`` (``recall_k``),
``RR`` (``recip_rank``), ``Rprec``, ``nDCG``, ``nDCG@k``; a name with parameters, such as
``P(rel=2)@10``, and an ir_measures measure object (``ir_measures.P(rel=2)@10``) are read by
ir_measures' own parser, so they mean what they mean there. The one parameter trec_eval's code
takes besides the cut-off is ``rel``, the lowest grade counted as relevant (``trec_eval -l``);
other parameters (``judged_only``, ``gains``, another ``dcg``) are refused with a clear error
rather than computed differently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irrepro.validation import MAX_CUTOFF, InvalidParameterError, Text, validate_params

__all__ = ["Measure", "parse_measure", "split_measure_names", "MEASURE_NAMES"]

#: The names :func:`parse_measure` reads, as an error message lists them.
MEASURE_NAMES = (
    "AP, AP@k, P@k, R@k (recall@k), RR, R-prec, nDCG, nDCG@k, each with ir_measures' parameter rel where it has it, "
    "e.g. P(rel=2)@10 (k an integer from 1 to 2147483647; trec_eval's own names such as map, P_10, ndcg_cut_10 work too)"
)


@dataclass(frozen=True)
class Measure:
    """A measure by the name the user gave and the trec_eval measure it stands for.

    Parameters
    ----------
    name : str
        The name the user gave (``"nDCG@10"``), which keys the evaluation's result.
    family : str
        trec_eval's measure (``map``, ``map_cut``, ``P``, ``ndcg``, ``ndcg_cut``, ``Rprec``,
        ``recall``, ``recip_rank``).
    cutoff : int or None, default None
        Its parameter k, or ``None``.
    relevance_level : int, default 1
        The lowest grade counted as relevant (``trec_eval -l``).

    See Also
    --------
    parse_measure : Makes one from a name.
    """

    name: str
    family: str
    cutoff: int | None = None
    relevance_level: int = 1

    @property
    def trec_eval(self) -> str:
        """The name trec_eval prints (``P_10``)."""
        return self.family if self.cutoff is None else f"{self.family}_{self.cutoff}"

    @property
    def request(self) -> str:
        """The name passed to pytrec_eval (``P.10``)."""
        return self.family if self.cutoff is None else f"{self.family}.{self.cutoff}"

    @property
    def key(self) -> str:
        """Its score's name in an evaluation of several relevance levels.

        ``trec_eval``, with ``-l N`` added above level 1 (``P_10 -l 2``).
        """
        return self.trec_eval if self.relevance_level == 1 else f"{self.trec_eval} -l {self.relevance_level}"


_PATTERNS = (
    (re.compile(r"(?:AP|MAP)", re.I | re.A), "map", False),
    (re.compile(r"(?:R-?prec)", re.I | re.A), "Rprec", False),
    (re.compile(r"nDCG", re.I | re.A), "ndcg", False),
    (re.compile(r"(?:RR|recip_rank)", re.I | re.A), "recip_rank", False),
    (re.compile(r"(?:AP@|map_cut_)(\d+)", re.I | re.A), "map_cut", True),
    (re.compile(r"(?:P@|P_|precision@)(\d+)", re.I | re.A), "P", True),
    (re.compile(r"(?:nDCG@|ndcg_cut_)(\d+)", re.I | re.A), "ndcg_cut", True),
    (re.compile(r"(?:recall@|recall_|R@)(\d+)", re.I | re.A), "recall", True),
)
# What ir_measures' parser reads: Name, Name@k, Name(params), Name(params)@k.
_IR_MEASURES_SYNTAX = re.compile(r"[A-Za-z_]\w*(?:\(.*\))?(?:@\w+)?", re.S)
# ir_measures' measures that trec_eval's code computes here: name -> (family without, with a cut-off)
_IR_MEASURES = {"AP": ("map", "map_cut"), "P": (None, "P"), "R": (None, "recall"), "RR": ("recip_rank", None),
                "Rprec": ("Rprec", None), "nDCG": ("ndcg", "ndcg_cut")}


def _cutoff(name: str, text: str) -> int:
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(MAX_CUTOFF)) or not 1 <= int(digits) <= MAX_CUTOFF:
        raise InvalidParameterError(f"measure {name!r}: the cut-off k must be an integer from 1 to {MAX_CUTOFF}; got {text}")
    return int(digits)


def _from_ir_measures(name: str, measure) -> Measure:
    """An ir_measures measure object (``name``: as given) as the trec_eval measure it is."""
    params = dict(measure.params)
    families = _IR_MEASURES.get(measure.NAME)
    if families is None:
        raise InvalidParameterError(f"unknown measure {name!r}: ir_measures' {measure.NAME} is not one trec_eval's code "
                                    f"computes here; the measures are {MEASURE_NAMES}")
    cutoff, rel = params.pop("cutoff", None), params.pop("rel", 1)
    if params.pop("dcg", "log2") != "log2":
        raise InvalidParameterError(f"measure {name!r}: only dcg='log2' is trec_eval's nDCG")
    if params:
        raise InvalidParameterError(f"measure {name!r}: the parameter(s) {', '.join(sorted(params))} are not trec_eval's; "
                                    "the cut-off and rel (the lowest relevant grade) are")
    family = families[0] if cutoff is None else families[1]
    if family is None:
        needs = "needs a cut-off (@k)" if cutoff is None else "takes no cut-off in trec_eval"
        raise InvalidParameterError(f"measure {name!r}: {measure.NAME} {needs}")
    if not isinstance(rel, int) or isinstance(rel, bool) or rel < 1:
        raise InvalidParameterError(f"measure {name!r}: rel must be an integer grade >= 1; got {rel!r}")
    return Measure(name=name, family=family, cutoff=None if cutoff is None else _cutoff(name, str(cutoff)), relevance_level=rel)


def _is_ir_measure(value) -> bool:
    return hasattr(value, "NAME") and hasattr(value, "params") and type(value).__module__.startswith("ir_measures")


@validate_params(text=Text(what="comma-separated measure names"))
def split_measure_names(text: str) -> list[str]:
    """Split ``--measures`` text at the commas outside parentheses and braces.

    Parameters
    ----------
    text : str
        Comma-separated measure names (``P(rel=2)@10,AP``).

    Returns
    -------
    list of str
        The names, stripped of surrounding blanks.

    Examples
    --------
    >>> split_measure_names("AP, nDCG(dcg='log2', judged_only=False)@10")
    ['AP', "nDCG(dcg='log2', judged_only=False)@10"]
    """
    names, depth, current = [], 0, []
    for char in text:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth <= 0:
            names.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    names.append("".join(current).strip())
    return [name for name in names if name]


def parse_measure(name) -> Measure:
    """Map a measure name (or an ir_measures measure object) to trec_eval's measure.

    ``AP`` -> ``map``, ``AP@k`` -> ``map_cut_k``, ``P@k`` -> ``P_k``, ``nDCG`` -> ``ndcg``, ``nDCG@k``
    -> ``ndcg_cut_k``, ``R-prec`` -> ``Rprec``, ``R@k`` / ``recall@k`` -> ``recall_k``, ``RR`` ->
    ``recip_rank`` (case-insensitive; trec_eval's own names are accepted too); a name with
    parameters, ``P(rel=2)@10``, or a measure object of ir_measures, through ir_measures' parser.

    Parameters
    ----------
    name : str or ir_measures measure
        The measure's name, or an ir_measures measure object (``ir_measures.P(rel=2)@10``).

    Returns
    -------
    Measure
        The trec_eval measure, cut-off and relevance level it stands for.

    Raises
    ------
    InvalidParameterError
        A ``ValueError``: for an unknown name, a value neither a string nor a measure object, and a
        cut-off k outside 1 .. 2,147,483,647 (trec_eval reads k as a C integer; a larger k would be
        misread).

    Examples
    --------
    >>> parse_measure("nDCG@10").trec_eval
    'ndcg_cut_10'
    >>> parse_measure("P@5").request
    'P.5'
    >>> m = parse_measure("P(rel=2)@10")
    >>> m.trec_eval, m.relevance_level
    ('P_10', 2)
    """
    if _is_ir_measure(name):
        return _from_ir_measures(str(name), name)
    if not isinstance(name, str):
        raise InvalidParameterError(f"a measure name must be a string or an ir_measures measure; got {name!r}")
    text = name.strip()
    for pattern, family, has_cutoff in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            return Measure(name=name, family=family, cutoff=_cutoff(name, match.group(1)) if has_cutoff else None)
    if _IR_MEASURES_SYNTAX.fullmatch(text):
        import ir_measures

        try:
            parsed = ir_measures.parse_measure(text)
        except (ValueError, NameError, SyntaxError, TypeError, AttributeError):
            raise InvalidParameterError(f"unknown measure {name!r}; the measures are {MEASURE_NAMES}") from None
        return _from_ir_measures(name, parsed)
    raise InvalidParameterError(f"unknown measure {name!r}; the measures are {MEASURE_NAMES}")
