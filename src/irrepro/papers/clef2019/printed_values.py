"""The number the CLEF paper's text states about its Figure 3, printed beside the 2020 re-implementation's.

Section 4.3 says of the replicated runs' per-topic bars (Figure 3): "14 out of 15 topics profit from
training data enrichment", i.e. WCrobust0405 has the higher AP on 14 of the 15 topics judged in all
four collections. No per-topic score of the 2019 runs is public, but the same authors' 2020
re-implementation on the real collections is (:mod:`~irrepro.papers.clef2019.published_runs`), so the
count can be compared there (:func:`text_values_comparison`); the verdict speaks for the 2020 runs.
The text copy lost the blank at line breaks ("15topics"): the tests find the quote with
``quote_occurs(..., lost_blanks=True)``.
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.clef2019.published_runs import published_gains
from irrepro.papers.printed import PrintedValue, Reading, compare

__all__ = ["FIGURE3_ENRICHED", "TEXT_VALUES", "text_values_comparison"]

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
