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
"""

from __future__ import annotations

from dataclasses import dataclass

from irrepro.report.analysis import KINDS, PairAnalysis, ReportOptions
from irrepro.report.formatting import defined, fmt, fmt_interval, fmt_p, percent
from irrepro.reproducibility.bootstrap import ConfidenceInterval

__all__ = ["LEVELS", "STATUS", "Finding", "LevelVerdict", "delta_ri_status", "er_status", "pair_verdicts", "region"]

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


@dataclass(frozen=True)
class Finding:
    """One statistic of a level: compare's value, its bootstrap interval (or why none) and a status."""

    statistic: str  # KTU, RBO, RMSE, DeltaARP, ER, DeltaRI
    run: str  # "baseline", "advanced" or "" (a statistic of the pair)
    measure: str  # "" for KTU and RBO
    value: float | None
    interval: ConfidenceInterval | None
    reason: str | None
    status: str
    phrase: str
    p_value: float | None = None

    @property
    def label(self) -> str:
        parts = [self.measure] if self.measure else []
        if self.run:
            parts.append(f"({_SHORT[self.run]})")
        return " ".join(parts)


@dataclass(frozen=True)
class LevelVerdict:
    key: str
    title: str
    status: str
    reading: str
    findings: tuple[Finding, ...] = ()

    @property
    def symbol(self) -> str:
        return STATUS[self.status][0]

    @property
    def word(self) -> str:
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
    return fmt_interval(ci.low, ci.high) if ci is not None else "(no interval)"


# --------------------------------------------------------------------------- per statistic


def er_status(ci: ConfidenceInterval | None) -> tuple[str, str]:
    """ER's status and phrase from its interval (the paper: ER <= 0 failure, 0 < ER < 1 smaller
    effect, ER = 1 perfect, ER > 1 larger effect)."""
    if ci is None:
        return "undefined", "ER has no interval"
    low, high, within = ci.low, ci.high, _within(ci)
    if high < 0:
        return "fail", f"the effect is reversed, ER within {within}"
    if low <= 0:
        return "fail", f"the effect is not shown, ER within {within} includes 0"
    if high < 1:
        return "partial", f"a smaller effect is reproduced, ER within {within}"
    if low > 1:
        return "ok", f"a larger effect is reproduced, ER within {within}"
    return "ok", f"the effect is reproduced within {within}"


def delta_ri_status(ci: ConfidenceInterval | None) -> tuple[str, str]:
    """DeltaRI = RI - RI': 0 when the relative improvement is the same, > 0 when it is smaller."""
    if ci is None:
        return "undefined", "\u0394RI has no interval"
    within = _within(ci)
    if ci.low > 0:
        return "partial", f"a smaller relative improvement, \u0394RI within {within}"
    if ci.high < 0:
        return "partial", f"a larger relative improvement, \u0394RI within {within}"
    return "ok", f"the relative improvement is reproduced, \u0394RI within {within}"


def region(er, delta_ri) -> int | None:
    """The paper's region of the ER-DeltaRI plane (Section 3.3): 1 = ER > 0, DeltaRI > 0;
    2 = ER < 0, DeltaRI > 0; 3 = both < 0; 4 = ER > 0, DeltaRI < 0 (preferred); None on an axis."""
    if not (defined(er) and defined(delta_ri)) or er == 0 or delta_ri == 0:
        return None
    if delta_ri > 0:
        return 1 if er > 0 else 2
    return 4 if er > 0 else 3


# --------------------------------------------------------------------------- per level


def _ranking(analysis: PairAnalysis) -> LevelVerdict:
    c = analysis.comparison
    findings = []
    for statistic, per_run in (("KTU", c.ktu), ("RBO", c.rbo)):
        for kind in KINDS:
            series = per_run[kind]
            value = float(series.mean()) if series.notna().any() else None
            ci, reason = _ci(analysis, (statistic, kind, ""))
            status = "undefined" if value is None else ("identical" if value == 1 else "differs")
            findings.append(Finding(statistic, kind, "", value, ci, reason, status, f"mean {statistic} {fmt(value)}"))
    status = _worst(f.status for f in findings)
    values = {(f.statistic, f.run): fmt(f.value, 3) for f in findings}
    if status == "identical":
        reading = "The new runs return the original rankings: mean KTU and RBO are 1 for both runs."
    else:
        reading = (
            f"The rankings differ (1 = identical): mean RBO {values['RBO', 'baseline']} (b\u2032) and "
            f"{values['RBO', 'advanced']} (a\u2032), mean KTU {values['KTU', 'baseline']} and {values['KTU', 'advanced']}."
        )
    return LevelVerdict("ranking", "Ranked lists", status, reading, tuple(findings))


def _per_topic(analysis: PairAnalysis) -> LevelVerdict:
    c = analysis.comparison
    findings = []
    for m in c.measures:
        for kind in KINDS:
            value = c.rmse[kind][m]
            ci, reason = _ci(analysis, ("RMSE", kind, m))
            status = "undefined" if value is None else ("identical" if value == 0 else "differs")
            findings.append(Finding("RMSE", kind, m, value, ci, reason, status, f"RMSE {fmt(value)}"))
    status = _worst(f.status for f in findings)
    first = c.measures[0]
    if status == "identical":
        reading = "Per-topic scores are identical (RMSE 0 for every measure)."
    else:
        rmse = {kind: c.rmse[kind][first] for kind in KINDS}
        shares = {kind: percent(rmse[kind], c.arp[f"orig_{kind}"][first]) for kind in KINDS}
        reading = (
            f"Per-topic {first} scores differ by RMSE {fmt(rmse['baseline'], 3)} (b\u2032) and {fmt(rmse['advanced'], 3)} "
            f"(a\u2032): {shares['baseline']} and {shares['advanced']} of the original ARP."
        )
    return LevelVerdict("per_topic", "Per-topic scores", status, reading, tuple(findings))


def _averages(analysis: PairAnalysis, options: ReportOptions) -> LevelVerdict:
    c = analysis.comparison
    findings = []
    for m in c.measures:
        for kind in KINDS:
            orig, new = c.arp[f"orig_{kind}"][m], c.arp[f"new_{kind}"][m]
            value = new - orig if defined(orig) and defined(new) else None
            p = c.p_value[kind][m]
            ci, reason = _ci(analysis, ("DeltaARP", kind, m))
            status = "undefined" if not defined(p) else ("fail" if p < options.alpha else "ok")
            findings.append(Finding("DeltaARP", kind, m, value, ci, reason, status, f"p = {fmt_p(p)}", p_value=p))
    test = "paired" if c.setting == "replicability" else "unpaired"
    differing = [f.label for f in findings if f.status == "fail"]
    tested = [f for f in findings if f.status != "undefined"]
    if not tested:
        status, reading = "undefined", "The t-test is undefined (see the notes)."
    elif not differing:
        status = "ok"
        reading = f"No significant difference between original and new ARP (two-tailed {test} t-test, p \u2265 {options.alpha:g}) for any run and measure."
    elif len(differing) == len(tested):
        status = "fail"
        reading = f"Every new run's ARP differs significantly from the original's (two-tailed {test} t-test, p < {options.alpha:g})."
    else:
        status = "partial"
        reading = f"Significant ARP differences (two-tailed {test} t-test, p < {options.alpha:g}) for {len(differing)} of {len(tested)}: {', '.join(differing)}."
    if c.setting == "reproducibility":
        reading += " Across collections, ARP values are not directly comparable (Breuer et al. 2020)."
    return LevelVerdict("averages", "Averages", status, reading, tuple(findings))


def _effects(analysis: PairAnalysis) -> LevelVerdict:
    c = analysis.comparison
    findings, phrases = [], []
    for m in c.measures:
        ci, reason = _ci(analysis, ("ER", "", m))
        status, phrase = er_status(ci) if defined(c.er[m]) else ("undefined", f"ER undefined ({reason})")
        findings.append(Finding("ER", "", m, c.er[m], ci, reason, status, phrase))
        phrases.append(f"{m}: {phrase}")
    shifted = []
    for m in c.measures:
        ci, reason = _ci(analysis, ("DeltaRI", "", m))
        status, phrase = delta_ri_status(ci) if defined(c.delta_ri[m]) else ("undefined", f"\u0394RI undefined ({reason})")
        findings.append(Finding("DeltaRI", "", m, c.delta_ri[m], ci, reason, status, phrase))
        if status == "partial":
            shifted.append(m)
    reading = "; ".join(phrases) + "."
    if shifted:
        reading += f" The relative improvement differs (\u0394RI's interval excludes 0) for {', '.join(shifted)}."
    return LevelVerdict("effects", "Effects", _worst(f.status for f in findings), reading, tuple(findings))


def pair_verdicts(analysis: PairAnalysis, options: ReportOptions) -> list[LevelVerdict]:
    """The four levels' verdicts for one pair, in the order of :data:`LEVELS`."""
    if analysis.comparison.setting == "replicability":
        first = [_ranking(analysis), _per_topic(analysis)]
    else:
        why = "Not applicable across collections: the new runs rank other documents for other topics."
        first = [LevelVerdict(key, title, "na", why) for key, title in LEVELS[:2]]
    return [*first, _averages(analysis, options), _effects(analysis)]
