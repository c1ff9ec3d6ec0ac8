"""The CSV files of the CLEF 2019 chapter that ``irrepro reproduce routing`` writes from this package.

:func:`published_tables` are cheap (published per-topic files and qrels only) and independent of the
stand-in runs; :func:`stand_in_tables` makes the few extra stand-in runs of
:mod:`~irrepro.papers.clef2019.implementation_effects`. :func:`irrepro.papers.routing.write_tables`
adds both to the one table set it writes (one manifest).

=============================  =====================================================================
``published_runs_15_topics``   AP per topic of the 2020 re-implementation (constellation 1) on the 15
                               topics judged in all four collections, per setting
``published_runs_summary``     MAP, P@10, nDCG of the published runs on the CLEF topic sets
``clef_text_numbers``          the CLEF MAP values surviving in the paper's text next to the 2020 runs
``claims``                     the CLEF paper's claims with verdicts and evidence
``fidelity``                   one row per table and figure of the CLEF paper
``implementation_effects``     each divergence between paper and code, measured on the stand-in
``implementation_comparison``  the three implementations' runs compared by KTU, RBO, RMSE, ER
=============================  =====================================================================
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from irrepro.papers.clef2019 import published_runs

__all__ = ["published_tables", "stand_in_tables"]


def published_tables() -> dict[str, pd.DataFrame]:
    """File name (without ``.csv``) -> table, for the tables that need no routing run."""
    from irrepro.papers.clef2019.claim_checks import claims
    from irrepro.papers.clef2019.fidelity_rows import fidelity

    return {
        "published_runs_15_topics": published_runs.published_runs_15_topics(),
        "published_runs_summary": published_runs.published_runs_summary(),
        "clef_text_numbers": published_runs.surviving_clef_numbers(),
        "claims": claims(),
        "fidelity": pd.DataFrame([dataclasses.asdict(row) for row in fidelity()]),
    }


def stand_in_tables() -> dict[str, pd.DataFrame]:
    """File name -> table, for the tables made from the extra stand-in runs (about a minute)."""
    from irrepro.papers.clef2019 import implementation_effects

    return {
        "implementation_effects": implementation_effects.implementation_effects(),
        "implementation_comparison": implementation_effects.implementation_comparison(),
    }
