"""Were Table 2 (right), Figure 3 and Table 5 computed from an earlier reproduction of WCrobust0405?

What the paper says about its reproducibility ER (Table 2, right), the ER-DeltaRI plot of Figure 3
and the correlations of Table 5 does not hold on the published per-topic scores. The authors kept an
earlier AP file of the reproduced WCrobust0405 beside the published one
(``measures_rpd/rpd_wcrobust0405_ap_old.csv``). The *hypothesis*: the paper's numbers were computed
with that earlier reproduction. Each statement of the paper about these three items is a small
function of the data version (``"current"``: the published files; ``"old"``: the earlier AP file in
place of the published one), registered once per version (:data:`STATEMENTS`, the protocol of
:mod:`irrepro.papers.claims`); :func:`figure3_statements` puts the two verdicts side by side.

Limits, stated in every verdict: only the AP file survives in both versions, so the verdicts are
read on the AP points and ER:AP; P@10 and nDCG appear as context from the published files. The paper
does not name the constellation families of the panels of Figure 3; they are taken to be those of
Figure 2 that fit what the paper says about Figure 2's panels
(:func:`~irrepro.papers.sigir2020.figures.panel_families`).
Readings of vague words are ours and stated: "much lower or much higher than for the replicability
case" = outside the range of the replicability ER; "far from (1,0)" = farther than the replicability
twin of the same constellation; "low" correlation = below the midpoint of what the paper itself calls
low (0.29) and higher (0.70) in Section 5.3.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd

from irrepro.memo import cached
from irrepro.papers import datasets
from irrepro.papers.claims import ClaimList, Finding
from irrepro.papers.datasets import SYSTEMS
from irrepro.papers.sigir2020.correlation import correlation_table, reproducibility_correlation_table
from irrepro.papers.sigir2020.earlier import earlier_rpd_ap_groups
from irrepro.papers.sigir2020.effects import effect_ratio_table
from irrepro.papers.sigir2020.figures import er_deltari_region, figure3_diagnosis, majority_region, panel_families
from irrepro.papers.sigir2020.published_scores import MEASURES, VERSIONS

__all__ = [
    "PAPER_LOW_TAU",
    "PAPER_HIGHER_TAU",
    "LOW_TAU",
    "STATEMENTS",
    "IN_CLAIMS",
    "figure3_statements",
    "statement_counts",
    "figure3_evidence",
]

#: Section 5.3: "The correlation between ARP and τ is low, below 0.29, and higher for RBO 0.70."
PAPER_LOW_TAU, PAPER_HIGHER_TAU = 0.29, 0.70
#: A Kendall's tau is "low" when nearer to what the paper calls low than to what it calls higher.
LOW_TAU = (PAPER_LOW_TAU + PAPER_HIGHER_TAU) / 2

_VERSION_DATA = {
    "current": f"the published files: {datasets.SIGIR2020_RPD.label}, {datasets.SIGIR2020_ORG.label}",
    "old": f"{datasets.SIGIR2020_RPD_OLD.label} in place of the published one; the other files as published",
}
_AP_ONLY = "AP is the only measure of which both versions survive"

#: The statements of the paper on Table 2 (right), Figure 3 and Table 5, one claim list per version.
STATEMENTS: dict[str, ClaimList] = {version: ClaimList("sigir2020") for version in VERSIONS}
#: The statements also listed among the paper's claims (:data:`irrepro.papers.sigir2020.claim_checks.CLAIMS`);
#: "reproducing-harder" is there already, checked on all three measures with bootstrap intervals.
IN_CLAIMS: list[str] = []


def _statement(name: str, *, section: str, quote: str, data: str, in_claims: bool = True) -> Callable:
    """Register ``check(version) -> Finding`` once per version."""

    def register(check: Callable[[str], Finding]) -> Callable[[str], Finding]:
        for version, statements in STATEMENTS.items():
            described = f"{data}; {_VERSION_DATA[version]}"
            statements.claim(name, section=section, quote=quote, data=described)(functools.partial(check, version))
        if in_claims:
            IN_CLAIMS.append(f"sigir2020.{name}")
        return check

    return register


def _effects(setting: str, version: str = "current") -> pd.DataFrame:
    return effect_ratio_table(setting, intervals=False, version=version)


def _outside(rpd: pd.Series, rpl: pd.Series) -> tuple[int, int]:
    """How many reproducibility ER lie below / above the range of the replicability ER."""
    return int((rpd < rpl.min()).sum()), int((rpd > rpl.max()).sum())


@_statement(
    "table2-right-extremes",
    section="5.2",
    quote="At a first sight, we can see that ER scores are much lower (close to 0) or much higher (≫ 1) than for "
    "the replicability case.",
    data="ER of the 20 printed reproduced pairs against the range of the 20 replicability ER (Table 2)",
)
def _table2_right_extremes(version: str) -> Finding:
    rpl, rpd = _effects("rpl"), _effects("rpd", version)
    below, above = _outside(rpd["ER:AP"], rpl["ER:AP"])
    context = ", ".join(f"{m} {sum(_outside(rpd[f'ER:{m}'], rpl[f'ER:{m}']))} of 20" for m in ("P@10", "nDCG"))
    return Finding(
        below + above > len(rpd) / 2,
        f"ER:AP of the 20 reproduced pairs lies below the replicability range [{rpl['ER:AP'].min():.3f}, "
        f"{rpl['ER:AP'].max():.3f}] for {below} and above it for {above}; {int((rpd['ER:AP'].abs() < 0.1).sum())} "
        f"have |ER| < 0.1 (median ER:AP {rpd['ER:AP'].median():.3f}). Outside the range, published P@10 and nDCG "
        f"files: {context}. {_AP_ONLY}.",
    )


@_statement(
    "table2-right-harder-to-reproduce",
    section="5.2",
    quote="If it is hard to perfectly replicate an experiment, it is even harder to perfectly reproduce it.",
    data="|1 - ER:AP| of the 20 printed pairs, replicability and reproducibility (Table 2)",
    in_claims=False,
)
def _reproducing_harder_ap(version: str) -> Finding:
    rpl, rpd = (1 - _effects("rpl")["ER:AP"]).abs(), (1 - _effects("rpd", version)["ER:AP"]).abs()
    return Finding(
        rpd.median() > rpl.median(),
        f"median |1 - ER:AP|: replicability {rpl.median():.3f}, reproducibility {rpd.median():.3f}. {_AP_ONLY}.",
    )


def _panel_points(version: str, family: str, measure: str = "AP") -> pd.DataFrame:
    """The points of one family and measure in Figure 3 with region and distance to (1, 0), and their twins'."""
    rpd, rpl = _effects("rpd", version), _effects("rpl")
    rows = [run for run in rpd.index if run.rsplit("_", 1)[0] == f"rpd_{family}"]
    twins = [f"rpl_{run.removeprefix('rpd_')}" for run in rows]
    er, delta = rpd.loc[rows, f"ER:{measure}"], rpd.loc[rows, f"DeltaRI:{measure}"]
    twin_distance = np.hypot(rpl.loc[twins, f"ER:{measure}"] - 1, rpl.loc[twins, f"DeltaRI:{measure}"]).to_numpy()
    return pd.DataFrame(
        {"region": er_deltari_region(er, delta), "distance": np.hypot(er - 1, delta), "twin distance": twin_distance}
    )


def _region_counts(points: pd.DataFrame) -> str:
    counts = points["region"].value_counts()
    return ", ".join(f"region {r}: {int(counts.get(r, 0))}" for r in (1, 2, 3, 4))


def _verdict_over(families: tuple[str, ...], holds: dict[str, bool]) -> bool | None:
    """Holds / does not hold when all candidate families agree; cannot be told when they disagree."""
    values = {holds[family] for family in families}
    return values.pop() if len(values) == 1 else None


@_statement(
    "figure3a-far-region4",
    section="5.2",
    quote="In Figure 3(a) the majority of the points are far from the best reproduction (1,0), even if they are in "
    "region 4.",
    data="ER and DeltaRI (AP) of the reproduced pairs of each family that fits Figure 2(a), and of their "
    "replicability twins (Figures 2 and 3)",
)
def _figure3a_far_region4(version: str) -> Finding:
    families, holds, described = panel_families()["a"], {}, []
    for family in families:
        points = _panel_points(version, family)
        far = int(((points["region"] == 4) & (points["distance"] > points["twin distance"])).sum())
        holds[family] = far > len(points) / 2
        described.append(f"{family}: {far} of {len(points)} ({_region_counts(points)})")
    return Finding(
        _verdict_over(families, holds),
        "AP points in region 4 and farther from (1,0) than the same constellation's replicability point, for each "
        f"family Figure 3(a) may show: {'; '.join(described)}. {_AP_ONLY}.",
    )


@_statement(
    "figure3b-one-in-region4",
    section="5.2",
    quote="In Figure 3(b) just one point is in the preferred region 4",
    data="ER and DeltaRI of the reproduced pairs of the family that fits Figure 2(b) (Figure 3)",
)
def _figure3b_one_in_region4(version: str) -> Finding:
    families, holds, described = panel_families()["b"], {}, []
    for family in families:
        points = _panel_points(version, family)
        holds[family] = int((points["region"] == 4).sum()) == 1
        context = {m: int((_panel_points("current", family, m)["region"] == 4).sum()) for m in ("P@10", "nDCG")}
        described.append(
            f"{family}: AP {_region_counts(points)}; published P@10 and nDCG points in region 4: "
            + ", ".join(f"{m} {n}" for m, n in context.items())
        )
    return Finding(_verdict_over(families, holds), f"{'; '.join(described)}. {_AP_ONLY}.")


@_statement(
    "figure3b-many-in-region2",
    section="5.2",
    quote="while many points are in region 2, that is failure both in reproducing the effect size and the relative "
    "improvement.",
    data="ER and DeltaRI of the reproduced pairs (Figure 3); the panel: the family that fits Figure 2(b)",
)
def _figure3b_many_in_region2(version: str) -> Finding:
    families, holds, described = panel_families()["b"], {}, []
    for family in families:
        regions = _panel_points(version, family)["region"]
        holds[family] = majority_region(regions) == 2
        described.append(f"{family}: {int((regions == 2).sum())} of its {len(regions)} AP points in region 2 "
                         f"({'the most' if holds[family] else 'not the most'} of any region)")  # fmt: skip
    rpd = _effects("rpd", version)
    everywhere = int((er_deltari_region(rpd["ER:AP"], rpd["DeltaRI:AP"]) == 2).sum())
    negative = int((_effects("rpd")[[f"ER:{m}" for m in ("P@10", "nDCG")]] < 0).to_numpy().sum())
    return Finding(
        _verdict_over(families, holds),
        f"{'; '.join(described)}. Region 2 needs ER < 0: {everywhere} of the 20 AP points of all families are in "
        f"region 2; {negative} of the 40 published P@10 and nDCG points have ER < 0. {_AP_ONLY}.",
    )


def _block(table: pd.DataFrame, rows: list[str], columns: list[str]) -> np.ndarray:
    """The correlations between two groups of measures, without a measure's correlation with itself."""
    block = table.loc[rows, columns].to_numpy()
    return block[~np.equal.outer(np.array(rows), np.array(columns))]


_P = [f"p:{m}" for m in MEASURES]
_ER = [f"ER:{m}" for m in MEASURES]


@_statement(
    "table5-er-vs-p-low",
    section="5.3",
    quote="The correlation results for reproducibility show once more that ER is low correlated to p-values "
    "approaches, thus these methods are taking two different evaluation perspectives.",
    data="Kendall's tau between |1 - ER| and -p (unpaired), 50 constellations, both systems (Table 5)",
)
def _table5_er_vs_p_low(version: str) -> Finding:
    largest = {s: np.abs(_block(reproducibility_correlation_table(s, version=version), _ER, _P)).max() for s in SYSTEMS}
    return Finding(
        max(largest.values()) < LOW_TAU,
        "largest |tau| between an ER and a p-value: " + ", ".join(f"{s} {v:.3f}" for s, v in largest.items())
        + f" (low: below {LOW_TAU:.3f}, midway between the paper's low {PAPER_LOW_TAU} and higher {PAPER_HIGHER_TAU}).",
    )


@_statement(
    "table5-er-self-low",
    section="5.3",
    quote="Furthermore, ER has low correlation with itself when instantiated with different performance measures",
    data="Kendall's tau among |1 - ER| of P@10, AP and nDCG, 50 constellations (Table 5)",
)
def _table5_er_self_low(version: str) -> Finding:
    table = reproducibility_correlation_table(SYSTEMS[0], version=version)  # ER is a pair measure: same in both
    pairs = {f"{a}/{b}": table.loc[a, b] for i, a in enumerate(_ER) for b in _ER[i + 1 :]}
    return Finding(
        max(abs(v) for v in pairs.values()) < LOW_TAU,
        "tau among the ER: " + ", ".join(f"{k} {v:.3f}" for k, v in pairs.items()) + f" (low: below {LOW_TAU:.3f}).",
    )


@_statement(
    "table5-p-stronger",
    section="5.3",
    quote="Finally, all p-values approaches are fairly correlated with respect to each other, even stronger than in "
    "the replicability case of Table 4.",
    data="Kendall's tau among the p-values of P@10, AP and nDCG, 50 constellations per system (Tables 4 and 5)",
)
def _table5_p_stronger(version: str) -> Finding:
    holds, described = True, []
    for system in SYSTEMS:
        rpd = _block(reproducibility_correlation_table(system, version=version), _P, _P)
        rpl = _block(correlation_table(system), _P, _P)
        holds &= rpd.min() >= LOW_TAU and rpd.mean() > rpl.mean()
        described.append(f"{system}: smallest {rpd.min():.3f}, mean {rpd.mean():.3f} (Table 4: mean {rpl.mean():.3f})")
    return Finding(bool(holds), f"tau among the p-values, {'; '.join(described)}.")


@cached(maxsize=1)
def figure3_statements() -> pd.DataFrame:
    """Check every statement on Table 2 (right), Figure 3 and Table 5 on both data versions.

    Checked once per process (the chapter, its glue and the fidelity table read them).

    Returns
    -------
    pandas.DataFrame
        Columns: ``id``, ``section``, ``claim`` (the paper's words), ``data`` (current version),
        ``verdict``, ``evidence`` (published files), ``verdict old``, ``evidence old`` (with the
        earlier AP file), ``holds``, ``holds old``.
    """
    current, old = (STATEMENTS[version].table() for version in VERSIONS)
    table = current[["id", "section", "claim", "data", "verdict", "evidence"]].copy()
    table["verdict old"], table["evidence old"] = old["verdict"].to_numpy(), old["evidence"].to_numpy()
    table["holds"], table["holds old"] = current["holds"].to_numpy(), old["holds"].to_numpy()
    return table


def statement_counts() -> pd.DataFrame:
    """Count how many of the statements of :func:`figure3_statements` get each verdict, per version.

    Returns
    -------
    pandas.DataFrame
        Verdicts x versions.
    """
    table = figure3_statements()
    counts = pd.DataFrame({"current": table["verdict"].value_counts(), "old": table["verdict old"].value_counts()})
    order = ["holds", "does not hold", "cannot be tested here"]
    counts = counts.reindex(order).fillna(0).astype(int)
    counts.index.name = "verdict"
    return counts


def figure3_evidence() -> pd.Series:
    """Compute the numbers a paragraph on the hypothesis states (for glue), by name.

    ER:AP and the AP points' regions in both versions (:func:`~irrepro.papers.sigir2020.figures.figure3_diagnosis`),
    the statements' verdict counts, and where the earlier file differs
    (:func:`~irrepro.papers.sigir2020.earlier.earlier_rpd_ap_groups`).

    Returns
    -------
    pandas.Series
        Name -> number.
    """
    diagnosis, counts, groups = figure3_diagnosis(), statement_counts(), earlier_rpd_ap_groups()
    numbers = {"pairs": len(diagnosis), "statements": int(counts["current"].sum())}
    for version, suffix in (("current", ""), ("old", "_old")):
        er, regions = diagnosis[f"ER:AP{suffix}"], diagnosis[f"region{suffix}"]
        numbers[f"median ER:AP ({version})"] = float(er.median())
        numbers[f"ER:AP < 0 ({version})"] = int((er < 0).sum())
        for region in (1, 2, 3, 4):
            numbers[f"AP points in region {region} ({version})"] = int((regions == region).sum())
        for verdict in counts.index:
            numbers[f"statements: {verdict} ({version})"] = int(counts.at[verdict, version])
    statements = figure3_statements()
    rescued = statements[~statements["holds"] & statements["holds old"]]
    neither = statements[~statements["holds"] & ~statements["holds old"]]
    numbers["statements failing on the published files, holding with the earlier file"] = len(rescued)
    numbers["statements failing on the published files"] = int((~statements["holds"]).sum())
    numbers["statements holding on neither"] = len(neither)
    numbers["statements holding on neither: ids"] = ", ".join(neither["id"].str.split(".", n=1).str[1])
    for judged, label in ((True, "Robust05 topics"), (False, "other topics")):
        numbers[f"{label}"] = int(groups.at[judged, "topics"])
        numbers[f"{label}: cells equal"] = int(groups.at[judged, "cells equal"])
        numbers[f"{label}: cells"] = int(groups.at[judged, "cells"])
        numbers[f"{label}: improvement over WCrobust04 (old)"] = float(groups.at[judged, "improvement earlier"])
        numbers[f"{label}: improvement over WCrobust04 (current)"] = float(groups.at[judged, "improvement current"])
    return pd.Series(numbers, dtype=object, name="value")
