"""The number the CLEF paper's text states about its Figure 3, printed beside the 2020 re-implementation's.

Section 4.3 says of the replicated runs' per-topic bars (Figure 3): "14 out of 15 topics profit from
training data enrichment", i.e. WCrobust0405 has the higher AP on 14 of the 15 topics judged in all
four collections. No per-topic score of the 2019 runs is public, but the same authors' 2020
re-implementation on the real collections is (:mod:`~irrepro.papers.clef2019.published_runs`), so the
count can be set beside it there (:func:`text_values_comparison`), and over all 50 constellations of
the 2020 code and the original TREC 2017 runs (:func:`figure3_counts`, :func:`figure3_finding`). That
compares the paper with a later re-implementation, not with its own data: a finding about the 2020
runs, not a verdict on the paper (the fidelity row of Figure 3 is computed, not compared).
The text copy lost the blank at line breaks ("15topics"): the tests find the quote with
``quote_occurs(..., lost_blanks=True)``.
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.clef2019.published_runs import common_topics, published_gains, run_scores
from irrepro.papers.datasets import ADVANCED, BASELINE, run_column
from irrepro.papers.printed import PrintedValue, Reading, compare

__all__ = ["FIGURE3_ENRICHED", "TEXT_VALUES", "CONSTELLATIONS", "text_values_comparison", "figure3_counts",
           "figure3_finding"]  # fmt: skip

#: The constellations of the 2020 re-implementation (config/param.py of the SIGIR 2020 code).
CONSTELLATIONS = 50

#: Figure 3: on how many of the 15 common topics the replicated WCrobust0405 beats WCrobust04.
FIGURE3_ENRICHED = PrintedValue(
    "clef2019", "Figure 3", "topics profiting from enrichment, replicated", "14", "exact",
    quote="14 out of 15 topics profit from training data enrichment.", where="Section 4.3 (Figure 3)",
)  # fmt: skip
TEXT_VALUES: tuple[PrintedValue, ...] = (FIGURE3_ENRICHED,)


def _enriched_replicated() -> Reading:
    gains = published_gains().set_index("setting").loc["replicability"]
    return Reading(
        float(gains["improved"]),
        f"2020 re-implementation, Core17: rpl_wcrobust0405_1 above rpl_wcrobust04_1 on {int(gains['improved'])} of "
        f"{int(gains['topics'])} topics",
    )


def text_values_comparison() -> pd.DataFrame:
    """Set :data:`TEXT_VALUES` beside the 2020 re-implementation's values (:func:`irrepro.papers.printed.compare`).

    Returns
    -------
    pandas.DataFrame
        As :func:`irrepro.papers.printed.compare` returns it.
    """
    return compare(TEXT_VALUES, {FIGURE3_ENRICHED.name: _enriched_replicated()})


def figure3_counts() -> pd.DataFrame:
    """Count, per pair of runs, the 15 common topics on which WCrobust0405 has the higher AP (Core17).

    Returns
    -------
    pandas.DataFrame
        One row for the original TREC 2017 runs, then one per constellation 1-50 of the 2020
        re-implementation; columns ``runs``, ``constellation`` (0 for the original runs),
        ``improved``, ``topics`` and ``as printed`` (``improved`` equals the printed 14).
    """
    topics = common_topics()

    def improved(advanced: str, baseline: str) -> int:
        high = run_scores("replicability", advanced, "AP").reindex(topics)
        return int((high > run_scores("replicability", baseline, "AP").reindex(topics)).sum())

    rows = [{"runs": "original TREC 2017 runs", "constellation": 0, "improved": improved(ADVANCED, BASELINE)}]
    rows += [{"runs": "2020 re-implementation", "constellation": k,
              "improved": improved(run_column("rpl", ADVANCED, k), run_column("rpl", BASELINE, k))}
             for k in range(1, CONSTELLATIONS + 1)]  # fmt: skip
    frame = pd.DataFrame(rows)
    frame["topics"] = len(topics)
    frame["as printed"] = [FIGURE3_ENRICHED.matches(float(n)) for n in frame["improved"]]
    return frame


def figure3_finding(counts: pd.DataFrame | None = None) -> dict[str, int]:
    """The numbers of the chapter's finding on Figure 3's "14 out of 15 topics" (the 2020 runs, not the paper's).

    Parameters
    ----------
    counts : pandas.DataFrame, optional
        :func:`figure3_counts`; default: computed now.

    Returns
    -------
    dict of str -> int
        ``printed`` (14), ``topics`` (15), ``constellations`` (50), ``constellations-as-printed``
        (how many give the printed count), ``constellation-1`` (its count) and ``original`` (the
        original TREC 2017 runs' count).
    """
    counts = figure3_counts() if counts is None else counts
    re_implemented = counts[counts["constellation"] > 0]
    return {
        "printed": int(FIGURE3_ENRICHED.number),
        "topics": int(counts["topics"].iat[0]),
        "constellations": len(re_implemented),
        "constellations-as-printed": int(re_implemented["as printed"].sum()),
        "constellation-1": int(re_implemented.set_index("constellation").at[1, "improved"]),
        "original": int(counts.loc[counts["constellation"] == 0, "improved"].iat[0]),
    }
