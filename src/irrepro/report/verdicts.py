"""A verdict and a one-line reading per level of Breuer et al., SIGIR 2020, from numbers and intervals.

Four levels, from the strictest to the most lenient (Section 3 of the paper):

===============  =====================  =====================================================
level            statistics             verdict
===============  =====================  =====================================================
ranked lists     mean KTU, mean RBO     *identical* only if both are 1; otherwise the rankings
                                        *differ* (the paper gives no threshold, nor do we)
per-topic        RMSE                   *identical* only if 0; otherwise they *differ*, read
scores                                  against the original ARP
averages         ARP difference,        *reproduced* where the t-test finds no difference at
                 p-value                ``alpha``; *not reproduced* where it does
effects          ER, DeltaRI            from ER's interval: *reproduced* when it holds 1 (or
                                        lies above 1: a larger effect) and excludes 0;
                                        *partly* when it lies in (0, 1) (a smaller effect) or
                                        DeltaRI's interval excludes 0; *not reproduced* when it
                                        holds 0 or lies below it
===============  =====================  =====================================================

Ranked lists, per-topic scores and the paired test exist only in the replicability setting (same
collection); in reproducibility they are *not applicable*. A level's status is the worst of its
statistics' (not reproduced > partly > differs > reproduced), except for averages, which are
*partly* reproduced when only some t-tests find a difference; ``undefined`` where no number exists.

**Under topic resampling** (beyond the paper). Each statistic's verdict rests on a :class:`Claim`, the
side of its threshold the statistic lies on: mean KTU ``= 1`` or ``< 1``, RMSE ``= 0`` or ``> 0``,
``p >= alpha`` or ``p < alpha``, ER ``> 0`` (reproduced), ``> 1`` (larger), ``0 < ER < 1``
(smaller), ``< 0`` (reversed) or ``<= 0`` (not shown), DeltaRI ``> 0`` or ``< 0`` (a shifted relative
improvement; a DeltaRI whose interval holds 0 claims no side). Every claim is re-read on the report's
one resampling of the topics (:mod:`irrepro.reproducibility.replicates`: the same draws for every
pair, measure and statistic), and a level's verdict *holds* in a resample when all its claims do.
The level is **stable** when it holds in at least :data:`~irrepro.reproducibility.resampling.STABLE_SHARE`
of the resamples and every statistic's interval (its percentile interval over the same resamples)
agrees with the verdict -- lies wholly on the claimed side of the threshold; for averages, DeltaARP's
interval excludes 0 where the t-test finds a difference and holds 0 where it does not; **borderline**
when every interval agrees but the share lies too close to that threshold to tell (within
:data:`~irrepro.reproducibility.resampling.BORDERLINE_MARGIN` or twice its standard error,
:func:`~irrepro.reproducibility.resampling.stability`, the rule of the book's chapters); and
**fragile** otherwise; its reading says which interval crosses. The report's statistics are KTU, RBO,
RMSE, means, p-values, ER and DeltaRI, whose bootstrap is not biased to one side (the book's chapter
on SIGIR 2020 measures it): plain percentile intervals, nothing recentred. A verdict of "no significant
difference" over several runs and measures is often fragile: each t-test finds a difference in
some resamples, and the verdict needs all of them to find none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from irrepro.formatting import REPORT, defined, format_bounds, format_number, format_pvalue
from irrepro.report.analysis import KINDS, PairAnalysis, ReportOptions
from irrepro.report.formatting import percent
from irrepro.reproducibility.bootstrap import ConfidenceInterval
from irrepro.reproducibility.resampling import share_holding, stability

__all__ = [
    "LEVELS", "STATUS", "Claim", "Finding", "LevelVerdict", "delta_ri_status", "er_status", "pair_verdicts", "region",
]  # fmt: skip

# status -> (symbol, word); symbols and words carry the meaning, colour only repeats it
STATUS: dict[str, tuple[str, str]] = {
    "ok": ("\u2713", "reproduced"),
    "partial": ("\u25d0", "partly"),
    "fail": ("\u2717", "not reproduced"),
    "differs": ("\u2260", "differs"),
    "identical": ("\u2713", "identical"),
    "undefined": ("\u2013", "undefined"),
    "na": ("\u2013", "not applicable"),
}
_SEVERITY = ("fail", "partial", "differs", "undefined", "ok", "identical")
LEVELS: tuple[tuple[str, str], ...] = (
    ("ranking", "Ranked lists"), ("per_topic", "Per-topic scores"), ("averages", "Averages"), ("effects", "Effects"),
)  # fmt: skip
LEVEL_STATISTICS = {"ranking": "KTU, RBO", "per_topic": "RMSE", "averages": "ARP, t-test", "effects": "ER, \u0394RI"}
_SHORT = {"baseline": "b\u2032", "advanced": "a\u2032"}  # b', a': the new runs


GREATER_EQUAL = "\u2265"


def _number(value, digits: int = 4) -> str:
    return format_number(value, digits, medium=REPORT)


@dataclass(frozen=True)
class Claim:
    """What a verdict says of one statistic: that it lies between ``low`` and ``high``.

    A bound is included where ``closed`` says so; ``low == high``, both closed: equal to it.

    Parameters
    ----------
    key : tuple of (str, str, str)
        The statistic, ``(statistic, run, measure)``, as ``Comparison.to_frame()``'s rows.
    name : str
        How the reading writes it.
    low, high : float, default -inf, inf
        The bounds.
    closed : tuple of (bool, bool), default (False, False)
        Whether ``low`` and ``high`` are included.
    """

    key: tuple[str, str, str]
    name: str
    low: float = -math.inf
    high: float = math.inf
    closed: tuple[bool, bool] = (False, False)

    def holds(self, values: float | np.ndarray) -> np.ndarray:
        """Tell where ``values`` satisfy the claim (NaN never does).

        Parameters
        ----------
        values : float or numpy.ndarray
            Values of the statistic (e.g. on every resample).

        Returns
        -------
        numpy.ndarray
            Bool, shaped as ``values``.
        """
        values = np.asarray(values, dtype=float)
        above = values >= self.low if self.closed[0] else values > self.low
        below = values <= self.high if self.closed[1] else values < self.high
        return above & below

    def certain(self, interval: ConfidenceInterval | None) -> bool:
        """Tell whether the whole interval satisfies the claim (else it crosses the claim's threshold).

        Parameters
        ----------
        interval : ConfidenceInterval or None
            The statistic's interval.

        Returns
        -------
        bool
            False without an interval.
        """
        return interval is not None and bool(self.holds([interval.low, interval.high]).all())

    @property
    def text(self) -> str:
        """The claim as the report writes it: ``p \u2265 0.05``, ``0 < ER < 1``, ``mean KTU = 1``."""
        low, high = math.isfinite(self.low), math.isfinite(self.high)
        below, above = ("\u2264" if closed else "<" for closed in self.closed)
        if low and high and self.low == self.high:
            return f"{self.name} = {self.low:g}"
        if low and high:
            return f"{self.low:g} {below} {self.name} {above} {self.high:g}"
        if low:
            return f"{self.name} {GREATER_EQUAL if self.closed[0] else '>'} {self.low:g}"
        return f"{self.name} {above} {self.high:g}"

    @property
    def thresholds(self) -> str:
        """The claim's finite bounds: ``0.05``, ``0 and 1``."""
        bounds = dict.fromkeys(b for b in (self.low, self.high) if math.isfinite(b))
        return " and ".join(f"{b:g}" for b in bounds)

    def bounds_text(self, interval: ConfidenceInterval) -> str:
        """Write the interval's bounds as the report writes them.

        Parameters
        ----------
        interval : ConfidenceInterval
            The statistic's interval.

        Returns
        -------
        str
            ``[low, high]``, p-values as p-values are written.
        """
        if self.key[0] == "p":
            return f"[{format_pvalue(interval.low, medium=REPORT)}, {format_pvalue(interval.high, medium=REPORT)}]"
        return format_bounds(interval.low, interval.high, 3, medium=REPORT)


def _equal(key, name: str, value: float) -> Claim:
    return Claim(key, name, value, value, (True, True))


@dataclass(frozen=True)
class Finding:
    """One statistic of a level, with its verdict.

    Compare's value, its bootstrap interval (or why none), a status, the claim the status makes
    and, under topic resampling, the share of resamples in which it holds.

    Parameters
    ----------
    statistic : str
        KTU, RBO, RMSE, DeltaARP, ER or DeltaRI.
    run : str
        ``"baseline"``, ``"advanced"`` or ``""`` (a statistic of the pair).
    measure : str
        ``""`` for KTU and RBO.
    value : float or None
        Compare's value.
    interval : ConfidenceInterval or None
        Its bootstrap interval.
    reason : str or None
        Why there is no interval.
    status : str
        A key of :data:`STATUS`.
    phrase : str
        The status in words, for the reading.
    p_value : float, optional
        The t-test's p-value, where the level reads one.
    claim : Claim, optional
        What the status says of the statistic.
    share : float, optional
        The share of resamples in which the claim holds.
    certain : bool, optional
        Whether the interval agrees with the verdict.
    doubt : str, default ""
        Where it does not: which interval crosses which threshold.
    """

    statistic: str  # KTU, RBO, RMSE, DeltaARP, ER, DeltaRI
    run: str  # "baseline", "advanced" or "" (a statistic of the pair)
    measure: str  # "" for KTU and RBO
    value: float | None
    interval: ConfidenceInterval | None
    reason: str | None
    status: str
    phrase: str
    p_value: float | None = None
    claim: Claim | None = None
    share: float | None = None  # the share of resamples in which the claim holds
    certain: bool | None = None  # whether the interval agrees with the verdict (see _certainty)
    doubt: str = ""  # where it does not: which interval crosses which threshold

    @property
    def label(self) -> str:
        """``AP (b\u2032)``: the measure and the new run it concerns (either may be absent)."""
        parts = [self.measure] if self.measure else []
        if self.run:
            parts.append(f"({_SHORT[self.run]})")
        return " ".join(parts)


@dataclass(frozen=True)
class LevelVerdict:
    """A level's status and reading, and how stable it is under topic resampling.

    Parameters
    ----------
    key : str
        The level (:data:`LEVELS`).
    title : str
        Its title.
    status : str
        A key of :data:`STATUS`.
    reading : str
        The verdict in words.
    findings : tuple of Finding, default ()
        The statistics it rests on.
    share : float, optional
        The share of the resamples in which it holds.
    stability : str, default ""
        ``"stable"``, ``"borderline"`` or ``"fragile"`` (``""`` where nothing is claimed).
    """

    key: str
    title: str
    status: str
    reading: str
    findings: tuple[Finding, ...] = ()
    share: float | None = None
    stability: str = ""

    @property
    def symbol(self) -> str:
        """The status's symbol (:data:`STATUS`)."""
        return STATUS[self.status][0]

    @property
    def word(self) -> str:
        """The status's word (:data:`STATUS`)."""
        return STATUS[self.status][1]


def _worst(statuses) -> str:
    statuses = list(statuses)
    if not statuses:
        return "undefined"
    defined_statuses = [s for s in statuses if s != "undefined"] or ["undefined"]
    return min(defined_statuses, key=_SEVERITY.index)


def _ci(analysis: PairAnalysis, key) -> tuple[ConfidenceInterval | None, str | None]:
    found = analysis.intervals.get(key)
    if isinstance(found, ConfidenceInterval):
        return found, None
    return None, found or "no interval"


def _within(ci: ConfidenceInterval | None) -> str:
    return format_bounds(ci.low, ci.high, 3, medium=REPORT) if ci is not None else "(no interval)"


# --------------------------------------------------------------------------- per statistic


def _er_reading(ci: ConfidenceInterval | None, key=("ER", "", "")) -> tuple[str, str, Claim | None]:
    """ER's status, phrase and claim from its interval."""
    if ci is None:
        return "undefined", "ER has no interval", None
    low, high, within = ci.low, ci.high, _within(ci)
    if high < 0:
        return "fail", f"the effect is reversed, ER within {within}", Claim(key, "ER", high=0.0)
    if low <= 0:
        return "fail", f"the effect is not shown, ER within {within} includes 0", Claim(key, "ER", high=0.0, closed=(False, True))
    if high < 1:
        return "partial", f"a smaller effect is reproduced, ER within {within}", Claim(key, "ER", 0.0, 1.0)
    if low > 1:
        return "ok", f"a larger effect is reproduced, ER within {within}", Claim(key, "ER", low=1.0)
    return "ok", f"the effect is reproduced within {within}", Claim(key, "ER", low=0.0)


def er_status(ci: ConfidenceInterval | None) -> tuple[str, str]:
    """Give ER's status and phrase from its interval.

    The paper: ER <= 0 failure, 0 < ER < 1 smaller effect, ER = 1 perfect, ER > 1 larger effect.

    Parameters
    ----------
    ci : ConfidenceInterval or None
        ER's interval.

    Returns
    -------
    status : str
        A key of :data:`STATUS`.
    phrase : str
        The status in words.
    """
    return _er_reading(ci)[:2]


def _delta_ri_reading(ci: ConfidenceInterval | None, key=("DeltaRI", "", "")) -> tuple[str, str, Claim | None]:
    """DeltaRI's status, phrase and claim (none where its interval holds 0: no side is claimed)."""
    if ci is None:
        return "undefined", "\u0394RI has no interval", None
    within = _within(ci)
    if ci.low > 0:
        return "partial", f"a smaller relative improvement, \u0394RI within {within}", Claim(key, "\u0394RI", low=0.0)
    if ci.high < 0:
        return "partial", f"a larger relative improvement, \u0394RI within {within}", Claim(key, "\u0394RI", high=0.0)
    return "ok", f"the relative improvement is reproduced, \u0394RI within {within}", None


def delta_ri_status(ci: ConfidenceInterval | None) -> tuple[str, str]:
    """Give DeltaRI's status and phrase from its interval.

    DeltaRI = RI - RI': 0 when the relative improvement is the same, > 0 when it is smaller.

    Parameters
    ----------
    ci : ConfidenceInterval or None
        DeltaRI's interval.

    Returns
    -------
    status : str
        A key of :data:`STATUS`.
    phrase : str
        The status in words.
    """
    return _delta_ri_reading(ci)[:2]


def region(er: float | None, delta_ri: float | None) -> int | None:
    """Give the paper's region of the ER-DeltaRI plane (Section 3.3).

    1 = ER > 0, DeltaRI > 0; 2 = ER < 0, DeltaRI > 0; 3 = both < 0; 4 = ER > 0, DeltaRI < 0
    (preferred).

    Parameters
    ----------
    er : float or None
        The effect ratio.
    delta_ri : float or None
        DeltaRI.

    Returns
    -------
    int or None
        The region; None on an axis or when either is undefined.
    """
    if not (defined(er) and defined(delta_ri)) or er == 0 or delta_ri == 0:
        return None
    if delta_ri > 0:
        return 1 if er > 0 else 2
    return 4 if er > 0 else 3


# --------------------------------------------------------------------------- per level


def _values(analysis: PairAnalysis) -> dict[tuple[str, str, str], float | None]:
    """The pair's result (``Comparison.to_frame()``) by ``(statistic, run, measure)``; None where undefined."""
    frame = analysis.comparison.to_frame()
    keys = zip(frame["statistic"], frame["run"], frame["measure"], strict=True)
    return {key: (float(v) if defined(v) else None) for key, v in zip(keys, frame["value"], strict=True)}


def _ranking(analysis: PairAnalysis, values) -> LevelVerdict:
    findings = []
    for statistic in ("KTU", "RBO"):
        for kind in KINDS:
            key = (statistic, kind, "")
            value = values[key]
            ci, reason = _ci(analysis, key)
            status = "undefined" if value is None else ("identical" if value == 1 else "differs")
            name = f"mean {statistic}"
            claim = None if value is None else (_equal(key, name, 1.0) if value == 1 else Claim(key, name, high=1.0))
            findings.append(Finding(statistic, kind, "", value, ci, reason, status, f"{name} {_number(value)}", claim=claim))
    status = _worst(f.status for f in findings)
    shown = {(f.statistic, f.run): _number(f.value, 3) for f in findings}
    if status == "identical":
        reading = "The new runs return the original rankings: mean KTU and RBO are 1 for both runs."
    else:
        reading = (
            f"The rankings differ (1 = identical): mean RBO {shown['RBO', 'baseline']} (b\u2032) and "
            f"{shown['RBO', 'advanced']} (a\u2032), mean KTU {shown['KTU', 'baseline']} and {shown['KTU', 'advanced']}."
        )
    return LevelVerdict("ranking", "Ranked lists", status, reading, tuple(findings))


def _per_topic(analysis: PairAnalysis, values) -> LevelVerdict:
    measures = analysis.comparison.measures
    findings = []
    for m in measures:
        for kind in KINDS:
            key = ("RMSE", kind, m)
            value = values[key]
            ci, reason = _ci(analysis, key)
            status = "undefined" if value is None else ("identical" if value == 0 else "differs")
            claim = None if value is None else (_equal(key, "RMSE", 0.0) if value == 0 else Claim(key, "RMSE", low=0.0))
            findings.append(Finding("RMSE", kind, m, value, ci, reason, status, f"RMSE {_number(value)}", claim=claim))
    status = _worst(f.status for f in findings)
    first = measures[0]
    if status == "identical":
        reading = "Per-topic scores are identical (RMSE 0 for every measure)."
    else:
        rmse = {kind: values[("RMSE", kind, first)] for kind in KINDS}
        shares = {kind: percent(rmse[kind], values[("ARP", f"orig_{kind}", first)]) for kind in KINDS}
        reading = (
            f"Per-topic {first} scores differ by RMSE {_number(rmse['baseline'], 3)} (b\u2032) and {_number(rmse['advanced'], 3)} "
            f"(a\u2032): {shares['baseline']} and {shares['advanced']} of the original ARP."
        )
    return LevelVerdict("per_topic", "Per-topic scores", status, reading, tuple(findings))


def _averages(analysis: PairAnalysis, values, options: ReportOptions) -> LevelVerdict:
    setting, alpha = analysis.comparison.setting, options.alpha
    findings = []
    for m in analysis.comparison.measures:
        for kind in KINDS:
            p = values[("p", kind, m)]
            ci, reason = _ci(analysis, ("DeltaARP", kind, m))
            status = "undefined" if p is None else ("fail" if p < alpha else "ok")
            key = ("p", kind, m)
            claim = None if p is None else (Claim(key, "p", high=alpha) if p < alpha else Claim(key, "p", low=alpha, closed=(True, False)))
            phrase = f"p = {format_pvalue(p, medium=REPORT)}"
            findings.append(Finding("DeltaARP", kind, m, values[("DeltaARP", kind, m)], ci, reason, status, phrase, p_value=p, claim=claim))
    test = "paired" if setting == "replicability" else "unpaired"
    differing = [f.label for f in findings if f.status == "fail"]
    tested = [f for f in findings if f.status != "undefined"]
    if not tested:
        status, reading = "undefined", "The t-test is undefined (see the notes)."
    elif not differing:
        status = "ok"
        reading = f"No significant difference between original and new ARP (two-tailed {test} t-test, p \u2265 {alpha:g}) for any run and measure."
    elif len(differing) == len(tested):
        status = "fail"
        reading = f"Every new run's ARP differs significantly from the original's (two-tailed {test} t-test, p < {alpha:g})."
    else:
        status = "partial"
        reading = f"Significant ARP differences (two-tailed {test} t-test, p < {alpha:g}) for {len(differing)} of {len(tested)}: {', '.join(differing)}."
    if setting == "reproducibility":
        reading += " Across collections, ARP values are not directly comparable (Breuer et al. 2020)."
    return LevelVerdict("averages", "Averages", status, reading, tuple(findings))


def _effects(analysis: PairAnalysis, values) -> LevelVerdict:
    findings, phrases, shifted = [], [], []
    for statistic, read, name in (("ER", _er_reading, "ER"), ("DeltaRI", _delta_ri_reading, "\u0394RI")):
        for m in analysis.comparison.measures:
            key = (statistic, "", m)
            ci, reason = _ci(analysis, key)
            status, phrase, claim = read(ci, key) if values[key] is not None else ("undefined", f"{name} undefined ({reason})", None)
            findings.append(Finding(statistic, "", m, values[key], ci, reason, status, phrase, claim=claim))
            if statistic == "ER":
                phrases.append(f"{m}: {phrase}")
            elif status == "partial":
                shifted.append(m)
    reading = "; ".join(phrases) + "."
    if shifted:
        reading += f" The relative improvement differs (\u0394RI's interval excludes 0) for {', '.join(shifted)}."
    return LevelVerdict("effects", "Effects", _worst(f.status for f in findings), reading, tuple(findings))


# --------------------------------------------------------------------------- under topic resampling


def _interval(analysis: PairAnalysis, key) -> ConfidenceInterval | None:
    found = analysis.intervals.get(key)
    return found if isinstance(found, ConfidenceInterval) else None


def _certainty(f: Finding, analysis: PairAnalysis) -> tuple[bool, str]:
    """Whether the finding's interval agrees with its verdict, and what it says where it does not.

    A statistic's interval must lie wholly on the claimed side of the threshold; for averages the
    interval shown is DeltaARP's: it must exclude 0 where the t-test finds a difference and hold 0
    where it does not (the p-value's own resampled range always reaches alpha, whatever the runs)."""
    if f.statistic == "DeltaARP":
        interval = _interval(analysis, ("DeltaARP", f.run, f.measure))
        if interval is None:
            return False, f"\u0394ARP of {f.label} has no interval"
        excludes = interval.low > 0 or interval.high < 0
        agrees = excludes == (f.status == "fail")
        words = "excludes" if excludes else "includes"
        return agrees, f"\u0394ARP of {f.label} within {format_bounds(interval.low, interval.high, 3, medium=REPORT)} {words} 0"
    interval = _interval(analysis, f.claim.key)
    where = f"within {f.claim.bounds_text(interval)}" if interval is not None else "without an interval"
    return f.claim.certain(interval), f"{f.claim.name} of {f.label} {where} crosses {f.claim.thresholds}"


def _resampled(level: LevelVerdict, analysis: PairAnalysis) -> LevelVerdict:
    """``level`` with each claim's share of resamples and certainty, the level's share (all its claims
    hold) and its stability, said at the end of its reading."""
    findings, holding, crossing = [], [], []
    for f in level.findings:
        if f.claim is None or f.claim.key not in analysis.replicates:
            findings.append(f)
            continue
        holds = f.claim.holds(analysis.replicates[f.claim.key])
        certain, why = _certainty(f, analysis)
        holding.append(holds)
        crossing += [] if certain else [why]
        findings.append(replace(f, share=share_holding(holds), certain=certain, doubt="" if certain else why))
    if not holding:
        return replace(level, findings=tuple(findings))
    share = share_holding(np.logical_and.reduce(holding))
    settled = stability(share, resamples=len(holding[0])) if not crossing else "fragile"
    sentence = f"{settled.capitalize()} under topic resampling: the verdict holds in {_percent(share)} of {len(holding[0])} resamples"
    sentence += "".join(f"; {why}" for why in crossing[:3])
    return replace(level, findings=tuple(findings), share=share, stability=settled, reading=f"{level.reading} {sentence}.")


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def pair_verdicts(analysis: PairAnalysis, options: ReportOptions) -> list[LevelVerdict]:
    """Give the four levels' verdicts for one pair, in the order of :data:`LEVELS`.

    With their stability under the report's topic resampling (where ``analysis.replicates`` holds
    it).

    Parameters
    ----------
    analysis : PairAnalysis
        The pair's numbers.
    options : ReportOptions
        Its ``alpha``.

    Returns
    -------
    list of LevelVerdict
        One per level.
    """
    values = _values(analysis)
    if analysis.comparison.setting == "replicability":
        first = [_ranking(analysis, values), _per_topic(analysis, values)]
    else:
        why = "Not applicable across collections: the new runs rank other documents for other topics."
        first = [LevelVerdict(key, title, "na", why) for key, title in LEVELS[:2]]
    levels = [*first, _averages(analysis, values, options), _effects(analysis, values)]
    return [_resampled(level, analysis) for level in levels]
