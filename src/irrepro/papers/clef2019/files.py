"""The CSV files of the CLEF 2019 chapter that ``irrepro reproduce clef2019`` writes from this package.

:func:`write_tables` writes every table of the chapter, and the runs they use, as one table set (one
manifest): the tables of the routing runs (:mod:`~irrepro.papers.clef2019.tables`,
:mod:`~irrepro.papers.clef2019.own_dataset`, :mod:`~irrepro.papers.clef2019.tolerance`) and these.
:func:`published_tables` are cheap (published per-topic files and qrels only) and independent of the
stand-in runs; :func:`stand_in_tables` makes the few extra stand-in runs of
:mod:`~irrepro.papers.clef2019.implementation_effects`; ``claims_robustness`` reads the per-topic scores
of the runs the other tables made (:mod:`~irrepro.papers.clef2019.robustness`), on the stand-in only.

=============================  =====================================================================
``published_runs_15_topics``   AP per topic of the 2020 re-implementation (constellation 1) on the 15
                               topics judged in all four collections, per setting
``published_runs_summary``     MAP, P@10, nDCG of the published runs on the CLEF topic sets
``clef_text_numbers``          the CLEF MAP values surviving in the paper's text next to the 2020 runs
``claims``                     the CLEF paper's claims with verdicts and evidence
``fidelity``                   one row per table and figure of the CLEF paper
``implementation_effects``     each divergence between paper and code, measured on the stand-in
``implementation_comparison``  the three implementations' runs compared by KTU, RBO, RMSE, ER
``claims_robustness``          each claim of the chapter (the 2020 runs' and the stand-in's) under
                               topic resampling: share of the resamples in which it holds, status,
                               the number it turns on with its 95% interval
=============================  =====================================================================
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import pandas as pd

from irrepro.outputs import table_set
from irrepro.papers.clef2019 import published_runs
from irrepro.papers.clef2019.own_dataset import own_dataset_measures
from irrepro.papers.clef2019.published_facts import official_core17_scores, topic_sets
from irrepro.papers.clef2019.robustness import robustness_table
from irrepro.papers.clef2019.routing_data import (
    STAND_IN_DATA,
    RoutingData,
    data_or_stand_in,
    stand_in_summary,
)
from irrepro.papers.clef2019.run_files import write_run_file
from irrepro.papers.clef2019.run_requests import table_requests
from irrepro.papers.clef2019.tables import (
    feature_augmentation,
    per_topic_ap,
    relevance_transfer,
    replication,
    target_size_check,
)
from irrepro.papers.clef2019.tolerance import tolerance_check

__all__ = ["published_tables", "stand_in_tables", "write_tables"]


def published_tables() -> dict[str, pd.DataFrame]:
    """Compute the tables that need no routing run.

    Returns
    -------
    dict of str -> pandas.DataFrame
        File name (without ``.csv``) -> table.
    """
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
    """Compute the tables made from the extra stand-in runs (about a minute).

    Returns
    -------
    dict of str -> pandas.DataFrame
        File name (without ``.csv``) -> table.
    """
    from irrepro.papers.clef2019 import implementation_effects

    return {
        "implementation_effects": implementation_effects.implementation_effects(),
        "implementation_comparison": implementation_effects.implementation_comparison(),
    }


def write_tables(out_dir: Path, *, data: RoutingData | None = None, client=None) -> list[Path]:
    """Write every table of the chapter as CSV into ``out_dir`` and the runs they use under ``out_dir/runs``.

    ``topic_sets.csv``, ``official_core17.csv``, ``stand_in.csv``, ``relevance_transfer.csv``,
    ``feature_augmentation.csv``, ``replication.csv``, ``per_topic_ap.csv``,
    ``own_dataset_measures.csv``, ``tolerance_check.csv`` and, on the stand-in, ``target_size_check.csv`` and
    ``claims_robustness.csv``; the runs as TREC run files ``runs/<run tag>.run`` (evaluate them with
    trec_eval and the qrels of their target): exactly the runs of
    :func:`~irrepro.papers.clef2019.run_requests.table_requests`, whatever
    else ``data`` has made before.

    Parameters
    ----------
    out_dir : pathlib.Path
        The folder.
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in's.
    client : dask.distributed.Client, optional
        A Dask client the own dataset's runs are made on.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    data = data_or_stand_in(data)
    tables = {
        "topic_sets": topic_sets(),
        "official_core17": official_core17_scores(),
        "relevance_transfer": relevance_transfer(data),
        "feature_augmentation": feature_augmentation(data),
        "replication": replication(data),
        "per_topic_ap": per_topic_ap(data),
        "own_dataset_measures": own_dataset_measures(data, client=client),
        "tolerance_check": tolerance_check(data),
    }
    tables.update(published_tables())  # cheap: published files and qrels only
    if data.label == STAND_IN_DATA:
        tables.update(stand_in_tables())  # the divergences, measured on the stand-in
        tables["stand_in"] = stand_in_summary()
        tables["target_size_check"] = target_size_check()
        tables["claims_robustness"] = robustness_table(data)  # after the tables: reads their runs' scores
    with table_set(out_dir, producer="irrepro.papers.clef2019.write_tables") as written:  # one set, manifest last
        for name, table in tables.items():
            written.add_table(f"{name}.csv", table)
        requests = {request.tag: request for request in table_requests()}  # each once
        for result in data.results(list(requests.values())):
            tag = str(result.run["run"].iat[0])  # each file with its ir_metadata header
            written.add_file(f"runs/{tag}.run", functools.partial(write_run_file, data, requests[tag], tag=tag))
    return written.paths
