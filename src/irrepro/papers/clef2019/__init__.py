"""Breuer & Schaer, "Replicability and Reproducibility of Automatic Routing Runs" (CENTRE@CLEF 2019).

Shared by the chapter ``chapters/routing_runs.md`` and ``irrepro reproduce clef2019 --out DIR``
(:func:`write_tables`). The modules, one concern each; what the chapter and the command line call is
re-exported here, so ``clef2019.replication(...)`` works:

- :mod:`~irrepro.papers.clef2019.published_facts`: the four TREC collections, the topic sets the paper
  prints and how the real qrels reproduce them, NIST's official Core17 scores (no run);
- :mod:`~irrepro.papers.clef2019.published_runs`: the 2020 re-implementation's and the original TREC
  runs' published per-topic scores on the real collections (Tables 4-5, Figures 3-4 analogues);
- :mod:`~irrepro.papers.clef2019.routing_data`: :class:`RoutingData`, the four collections a run needs,
  from the open stand-in (:func:`stand_in`) or the user's licensed corpora (:func:`licensed_data`);
- :mod:`~irrepro.papers.clef2019.run_requests`: which runs each table needs;
- :mod:`~irrepro.papers.clef2019.tables`: Tables 2-6 and Figures 3-4 made by the routing pipeline;
- :mod:`~irrepro.papers.clef2019.own_dataset`: the SIGIR 2020 measures on the book's own runs;
- :mod:`~irrepro.papers.clef2019.tolerance`: the ``tol`` constellations on the mean and the summed loss;
- :mod:`~irrepro.papers.clef2019.implementation_effects`: what the authors' code did that the paper
  does not say, each choice measured on the stand-in, and the three implementations compared;
- :mod:`~irrepro.papers.clef2019.own_report`: the own runs as an ``irrepro report``;
- :mod:`~irrepro.papers.clef2019.run_files`: the chapter's runs written with their ir_metadata
  headers, and grouped by PRIMAD string from the files (:func:`~irrepro.papers.clef2019.run_files.runs_by_primad`);
- :mod:`~irrepro.papers.clef2019.claim_checks`: the paper's claims with verdicts (:data:`CLAIMS`);
- :mod:`~irrepro.papers.clef2019.robustness`: every claim of the chapter under topic resampling, from the
  per-topic scores of :mod:`~irrepro.papers.clef2019.claim_scores`, re-read by
  :mod:`~irrepro.papers.clef2019.resampled_claims` (the 2020 runs) and
  :mod:`~irrepro.papers.clef2019.stand_in_claims` (the stand-in);
- :mod:`~irrepro.papers.clef2019.printed_values`: the "14 out of 15 topics" of Figure 3, printed beside
  the 2020 re-implementation's count;
- :mod:`~irrepro.papers.clef2019.fidelity_rows`: one fidelity row per table and figure (:func:`fidelity`);
- :mod:`~irrepro.papers.clef2019.prose`: the numbers and verdicts of the chapter's sentences;
- :mod:`~irrepro.papers.clef2019.files`: :func:`write_tables`, the CSV files.
"""

from __future__ import annotations

from irrepro.papers.clef2019.claim_checks import CLAIMS
from irrepro.papers.clef2019.fidelity_rows import fidelity
from irrepro.papers.clef2019.files import write_tables
from irrepro.papers.clef2019.own_dataset import (
    constellation_arp_comparison,
    own_dataset_er_deltari_points,
    own_dataset_measures,
    own_dataset_sharing,
    own_dataset_table,
)
from irrepro.papers.clef2019.prose import (
    augmentation_summary,
    closing_numbers,
    licensed_status,
    preprocessing_summary,
    tolerance_ratios,
    tolerance_summary,
    transfer_extremes,
)
from irrepro.papers.clef2019.published_facts import (
    OFFICIAL_CORE17,
    TREC_COLLECTIONS,
    common_topics,
    official_core17_scores,
    topic_sets,
)
from irrepro.papers.clef2019.routing_data import (
    STAND_IN_DATA,
    RoutingData,
    common_stand_in_topics,
    licensed_data,
    stand_in,
    stand_in_summary,
)
from irrepro.papers.clef2019.run_requests import own_dataset_requests, table_requests
from irrepro.papers.clef2019.tables import (
    feature_augmentation,
    per_topic_ap,
    per_topic_gains,
    preprocessing_effect,
    relevance_transfer,
    replication,
    replication_table,
    target_size_check,
)
from irrepro.papers.clef2019.tolerance import tolerance_check

__all__ = [
    "CLAIMS",
    "OFFICIAL_CORE17",
    "STAND_IN_DATA",
    "TREC_COLLECTIONS",
    "RoutingData",
    "augmentation_summary",
    "closing_numbers",
    "common_stand_in_topics",
    "common_topics",
    "constellation_arp_comparison",
    "feature_augmentation",
    "fidelity",
    "licensed_data",
    "licensed_status",
    "official_core17_scores",
    "own_dataset_er_deltari_points",
    "own_dataset_measures",
    "own_dataset_requests",
    "own_dataset_sharing",
    "own_dataset_table",
    "per_topic_ap",
    "per_topic_gains",
    "preprocessing_effect",
    "preprocessing_summary",
    "relevance_transfer",
    "replication",
    "replication_table",
    "stand_in",
    "stand_in_summary",
    "table_requests",
    "target_size_check",
    "tolerance_check",
    "tolerance_ratios",
    "tolerance_summary",
    "topic_sets",
    "transfer_extremes",
    "write_tables",
]
