"""The paper's claims (Section 5), each a small function checked on the reproduced numbers.

:data:`CLAIMS` follows the protocol of :mod:`irrepro.papers.claims`: one registered function per
statement, its quote in the paper's words, the data it is tested on and a :class:`Finding` with the
computed evidence. The statements on Table 2 (right), Figure 3 and Table 5 are defined in
:mod:`irrepro.papers.sigir2020.hypothesis` (there checked on two data versions); their verdicts on
the published files are listed here too, after the others.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.papers import datasets
from irrepro.papers.claims import ELISION, ClaimList, Finding
from irrepro.papers.datasets import ADVANCED, BASELINE, SYSTEMS
from irrepro.papers.printed import rounding_note, threshold_holds
from irrepro.papers.sigir2020.correlation import correlation_table
from irrepro.papers.sigir2020.effects import effect_ratio_intervals, effect_ratio_table
from irrepro.papers.sigir2020.figures import cutoff_curves
from irrepro.papers.sigir2020.hypothesis import IN_CLAIMS, STATEMENTS
from irrepro.papers.sigir2020.measure_tables import replicability_table, reproducibility_table, rpl_vs_rpd_pvalues
from irrepro.papers.sigir2020.published_scores import MEASURES
from irrepro.routing.constellations import FAMILIES

__all__ = ["CLAIMS", "ALPHA", "MOSTLY", "LOW_KTU", "claims"]

#: The paper's claims (Section 5), each a small function checked on the reproduced numbers.
CLAIMS = ClaimList("sigir2020")
#: Significance level of "statistically significantly different": ours, the paper states none.
ALPHA = 0.05
#: "almost consistently" read as: at more than this share of the steps (ours).
MOSTLY = 0.75
#: Figure 1(a) "those documents are not the same" read as: no mean KTU reaches this value (ours).
LOW_KTU = 0.2

_PRINTED_RPL = (
    f"the 20 printed constellations of both systems (Table 1, appendix Table 1); {datasets.SIGIR2020_RPL.label}"
)
_PRINTED_EFFECTS = (
    f"ER of the 20 printed constellation pairs, P@10, AP and nDCG (Table 2); {datasets.SIGIR2020_RPL.label}, "
    f"{datasets.SIGIR2020_RPD.label}"
)


def claims() -> pd.DataFrame:
    """Check the paper's claims (Section 5) on the reproduced numbers (see :data:`CLAIMS`).

    Ordered by section (claims of one section in the order they are registered;
    :mod:`~irrepro.papers.sigir2020.effect_claims` and
    :mod:`~irrepro.papers.sigir2020.correlation_claims` register theirs after this module's).

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``id``, ``section``, ``claim`` (the paper's words), ``data``, ``verdict``
        ("holds", "does not hold" or "cannot be tested here"), ``evidence`` (a sentence with the
        computed numbers) and ``holds`` (True when the verdict is "holds").
    """
    return CLAIMS.table().sort_values("section", kind="stable", ignore_index=True)


def _family_trend(table: pd.DataFrame, family: str, first: str, second: str) -> float:
    """Kendall's tau between two columns over the five levels of one family (rows ``*_<family>_<level>``)."""
    rows = [name for name in table.index if name.rsplit("_", 2)[-2] == family]
    return float(table.loc[rows, [first, second]].corr(method="kendall").iloc[0, 1])


@CLAIMS.claim(
    "rbo-less-strict",
    section="5.1",
    quote="Replicability runs achieve higher RBO scores than Kendall’s τ, showing that RBO is somehow less strict.",
    data=f"KTU and RBO (depth 1000) of {_PRINTED_RPL}",
)
def _rbo_less_strict() -> Finding:
    pairs = pd.concat([replicability_table(system).iloc[1:][["KTU", "RBO"]] for system in SYSTEMS])
    higher = int((pairs["RBO"] > pairs["KTU"]).sum())
    return Finding(
        higher == len(pairs),
        f"RBO > KTU for {higher} of the {len(pairs)} printed replicated runs (both systems); "
        f"mean KTU {pairs['KTU'].mean():.4f}, mean RBO {pairs['RBO'].mean():.4f}.",
    )


@CLAIMS.claim(
    "rmse-p-inconsistent",
    section="5.1",
    quote="For rpl_wcr04_tf and rpl_wcr04_C, RMSE and p-values are not consistent: RMSE increases, thus the error "
    "increases, but p-values also increase, thus the runs are considered more similar.",
    data=f"RMSE and paired t-test p-value of P@10 of the 20 printed WCrobust04 constellations (Table 1); "
    f"{datasets.SIGIR2020_RPL.label}",
)
def _rmse_p_inconsistent() -> Finding:
    table = replicability_table(BASELINE).iloc[1:]
    trend = {family: _family_trend(table, family, "RMSE:P@10", "p:P@10") for family in FAMILIES}
    described = ", ".join(f"{family} {value:+.2f}" for family, value in trend.items())
    return Finding(
        trend["tf"] > 0 and trend["C"] > 0 and trend["df"] < 0 and trend["tol"] < 0,
        "Kendall's tau between RMSE:P@10 and p:P@10 over the five levels of each family "
        f"(positive = both rise together, i.e. the two disagree on which run replicates better): {described}.",
    )


@CLAIMS.claim(
    "reproducing-harder",
    section="5.2",
    quote="If it is hard to perfectly replicate an experiment, it is even harder to perfectly reproduce it.",
    data=_PRINTED_EFFECTS,
)
def _reproducing_harder() -> Finding:
    distance = {
        setting: (1.0 - effect_ratio_table(setting, intervals=False)[[f"ER:{m}" for m in MEASURES]]).abs().stack()
        for setting in ("rpl", "rpd")
    }
    covers_one = {}
    for setting in ("rpl", "rpd"):
        bounds = effect_ratio_intervals(setting)
        covers_one[setting] = sum(
            int(((bounds[f"ER:{m}:low"] <= 1) & (bounds[f"ER:{m}:high"] >= 1)).sum()) for m in MEASURES
        )
    return Finding(
        distance["rpd"].median() > distance["rpl"].median(),
        f"median |1 - ER| over the 20 printed pairs and 3 measures: replicability "
        f"{distance['rpl'].median():.3f}, reproducibility {distance['rpd'].median():.3f}; "
        f"|1 - ER| > 1 for {int((distance['rpl'] > 1).sum())} replicability and "
        f'{int((distance["rpd"] > 1).sum())} reproducibility cells of 60 ("harder" read as: a larger median '
        "distance of ER from 1). The 95% bootstrap interval of ER "
        f"contains 1 for {covers_one['rpl']} replicability and {covers_one['rpd']} reproducibility cells of 60: "
        "with 25 to 50 topics, many ER values are not distinguishable from a perfect replication.",
    )


@CLAIMS.claim(
    "all-reproduced-different",
    section="5.2",
    quote="From p-values in Table 3, we can conclude that all the reproducibility runs are statistically "
    "significantly different from the original run, being the highest p-value just 0.005.",
    data="unpaired t-test p-values of the 20 printed reproduced constellations of both systems (Table 3, appendix "
    f"Table 2); {datasets.SIGIR2020_RPD.label}, {datasets.SIGIR2020_ORG.label}",
)
def _all_reproduced_different() -> Finding:
    p_columns = [f"p:{m}" for m in MEASURES]
    values = {system: reproducibility_table(system)[p_columns].stack() for system in SYSTEMS}
    below = sum(int((v < ALPHA).sum()) for v in values.values())
    total = sum(len(v) for v in values.values())
    highest = values[BASELINE].max()
    return Finding(
        below == total and np.floor(highest * 1000) / 1000 == 0.005,
        f"p < {ALPHA} (our significance level; the paper states none) in {below} of {total} cells (20 runs x 3 "
        f"measures x 2 systems); the highest p-value for WCrobust04 is {highest:.4f} (truncated as the paper "
        f"prints p-values: {np.floor(highest * 1000) / 1000:.3f}; the paper's value: 0.005), for WCrobust0405 "
        f"{values[ADVANCED].max():.2E}.",
    )


@CLAIMS.claim(
    "twins-mostly-different",
    section="5.2",
    quote="Again, the majority of the runs are considered statistically differerent, except for a few cases for "
    "rpl_wcr04_df and rpl_wcr04_tol, which exhibit higher p-values also in Table 3.",
    data="unpaired t-test p-values between each printed replicated run (Core17) and its reproduced twin (Core18), "
    f"both systems (online appendix); {datasets.SIGIR2020_RPL.label}, {datasets.SIGIR2020_RPD.label}",
)
def _twins_mostly_different() -> Finding:
    twins = rpl_vs_rpd_pvalues()
    different = int((twins < ALPHA).to_numpy().sum())
    similar_runs = sorted({run for run, row in twins.iterrows() if (row >= ALPHA).any()})
    families_similar = sorted({run.split("_")[1] for run in similar_runs})
    return Finding(
        different > twins.size / 2 and set(families_similar) <= {"df", "tol"},
        f"p < {ALPHA} (our significance level; the paper states none) in {different} of {twins.size} cells "
        f'("the majority": more than half); runs with some p >= {ALPHA}: {", ".join(similar_runs) or "none"}.',
    )


@CLAIMS.claim(
    "arp-ktu-rbo-correlation",
    section="5.3",
    quote="The correlation between ARP and τ is low, below 0.29, and higher for RBO 0.70.",
    data="Kendall's tau among the oriented replicability measures of the 50 WCrobust04 constellations (Table 4, "
    f"upper triangle); {datasets.SIGIR2020_RPL.label}",
)
def _arp_ktu_rbo_correlation() -> Finding:
    correlation = correlation_table(BASELINE)
    arp_rows = [f"DeltaARP:{m}" for m in MEASURES]
    ktu, rbo = correlation.loc[arp_rows, "KTU"].max(), correlation.loc[arp_rows, "RBO"].max()
    note = rounding_note(ktu, "below", 0.29, 2)
    return Finding(
        threshold_holds(ktu, "below", 0.29) and round(rbo, 2) == 0.70,
        f"highest Kendall's tau between a DeltaARP and KTU: {ktu:.4f} (must be below 0.29, unrounded"
        f"{'; ' + note if note else ''}); between a DeltaARP and RBO: {rbo:.4f} (the printed 0.70 is a value, "
        "rounded to two decimals, not a bound).",
    )


@CLAIMS.claim(
    "rmse-p10-largest",
    section="5.1",
    quote="In general, RMSE values of P@10 are larger compared to those of AP and nDCG",
    data=f"RMSE of {_PRINTED_RPL}",
)
def _rmse_p10_largest() -> Finding:
    both = pd.concat([replicability_table(system).iloc[1:] for system in SYSTEMS])
    larger = int((both["RMSE:P@10"] > both[["RMSE:AP", "RMSE:nDCG"]].max(axis=1)).sum())
    return Finding(
        larger > len(both) / 2,
        f"RMSE:P@10 exceeds both RMSE:AP and RMSE:nDCG for {larger} of the {len(both)} printed "
        'replicated runs (both systems) ("in general" read as: more than half).',
    )


@CLAIMS.claim(
    "figure1-cutoffs",
    section="5.1",
    quote="RMSE decreases almost consistently as the cut-off value increases, as shown in Figure 1(b)."
    f"{ELISION}those documents are not the same, as shown in Figure 1(a), where Kendall’s τ is computed at "
    "different cut-offs.",
    data="KTU and RMSE of nDCG@k at the cut-offs 5-1000 of the 20 printed WCrobust04 constellations (Figure 1); "
    f"{datasets.SIGIR2020_RPL.label}",
)
def _figure1_cutoffs() -> Finding:
    curves = cutoff_curves(BASELINE).sort_values(["run", "cutoff"])
    steps = curves.groupby("run", sort=False)["RMSE:nDCG"].diff().dropna()
    ends = curves.groupby("run", sort=False)["RMSE:nDCG"].agg(["first", "last"])
    return Finding(
        (steps < 0).mean() > MOSTLY and curves["KTU"].max() < LOW_KTU,
        f"RMSE of nDCG@k falls at {int((steps < 0).sum())} of {len(steps)} steps between consecutive "
        f"cut-offs and is lower at 1000 than at 5 for {int((ends['last'] < ends['first']).sum())} of {len(ends)} "
        f"WCrobust04 runs; the largest mean KTU at any cut-off is {curves['KTU'].max():.3f} (our readings: "
        f'"almost consistently" = at more than {MOSTLY:.0%} of the steps; "not the same" = every mean KTU '
        f"below {LOW_KTU}).",
    )


for _entry in STATEMENTS["current"]:  # the hypothesis module's statements, verdicts on the published files
    if _entry.id in IN_CLAIMS:
        CLAIMS.claim(_entry.id.split(".", 1)[1], section=_entry.section, quote=_entry.quote, data=_entry.data)(
            _entry.check
        )
