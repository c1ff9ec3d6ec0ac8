"""Tables 1 and 3 of the paper and Tables 1 and 2 of its online appendix, and the twins' p-values (its Table 3).

- :func:`replicability_table`: Table 1 (WCrobust04) / appendix Table 1 (WCrobust0405) on Core17:
  ARP, KTU, RBO, RMSE and paired t-test p-values (Section 3.1-3.2, Eq. 3).
- :func:`reproducibility_table`: Table 3 (WCrobust04) / appendix Table 2 (WCrobust0405) on Core18:
  ARP and unpaired t-test p-values (Section 3.4).
- :func:`rpl_vs_rpd_pvalues`: each replicated run against its reproduced twin (online appendix).
- :func:`nrmse_table`: beside Table 1's RMSE, the normalised RMSE (nRMSE) of the same runs, an extra
  the paper does not have (repro_eval; Maistro et al., IP&M 2023): never compared with a print.

The ``*_measures`` functions give the same measures for all 50 constellations, indexed by
constellation id (for the correlations of Tables 4 and 5).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from irrepro.memo import cached
from irrepro.papers import published
from irrepro.papers.datasets import SYSTEMS
from irrepro.papers.sigir2020.published_scores import (
    CONSTELLATION_IDS,
    MEASURES,
    PRINTED_IDS,
    check_system,
    check_version,
    mean_agreement,
    replicated_runs,
    reproduced_runs,
)
from irrepro.reproducibility import scores
from irrepro.routing.constellations import PRINTED

__all__ = [
    "TABLE1_COLUMNS",
    "REPRODUCIBILITY_COLUMNS",
    "SELF_AGREEMENT",
    "AGREEMENT_DEPTH",
    "replicability_measures",
    "replicability_table",
    "reproducibility_measures",
    "reproducibility_table",
    "rpl_vs_rpd_pvalues",
    "NRMSE_COLUMNS",
    "nrmse_table",
]

TABLE1_COLUMNS: tuple[str, ...] = published.TABLE1_COLUMNS  # the printed table's cells, in its order
REPRODUCIBILITY_COLUMNS: tuple[str, ...] = published.TABLE2_COLUMNS
#: The original run compared with itself: KTU and RBO are 1 by definition (no per-topic file holds them).
SELF_AGREEMENT: dict[str, float] = {"KTU": 1.0, "RBO": 1.0}
#: The depth of the published KTU and RBO files the tables use (``kendalls_tau_1000``, ``rbo_1000_p08``).
AGREEMENT_DEPTH = 1000
#: The columns of :func:`nrmse_table`: Table 1's RMSE, then nRMSE (not published).
NRMSE_COLUMNS: tuple[str, ...] = (*(f"RMSE:{m}" for m in MEASURES), *(f"nRMSE:{m}" for m in MEASURES))


def replicability_measures(system: str, *, ids: Sequence[int] = CONSTELLATION_IDS) -> pd.DataFrame:
    """Compute every replicability measure of the replicated runs of ``system``, indexed by constellation id.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.

    Returns
    -------
    pandas.DataFrame
        Columns: ``ARP:<m>``, ``DeltaARP:<m>`` (``|ARP(original) - ARP(replicated)|``), ``KTU``,
        ``RBO``, ``RMSE:<m>``, ``p:<m>`` (paired t-test) for m in P@10, AP, nDCG.
    """
    return _replicability_measures(check_system(system), tuple(ids))


@cached(maxsize=8)
def _replicability_measures(system: str, ids: tuple[int, ...]) -> pd.DataFrame:
    """:func:`replicability_measures`, computed once per system and ids (tables, correlations and claims read it)."""
    runs = {label: replicated_runs(system, measure, ids) for label, measure in MEASURES.items()}
    columns: dict[str, pd.Series] = {}
    for label, (original, replicated) in runs.items():
        columns[f"ARP:{label}"] = scores.arp(replicated)
        columns[f"DeltaARP:{label}"] = (scores.arp(original) - scores.arp(replicated)).abs()
    columns["KTU"] = mean_agreement(system, "KTU", AGREEMENT_DEPTH, ids)
    columns["RBO"] = mean_agreement(system, "RBO", AGREEMENT_DEPTH, ids)
    for label, (original, replicated) in runs.items():
        columns[f"RMSE:{label}"] = scores.rmse(original, replicated)
    for label, (original, replicated) in runs.items():
        columns[f"p:{label}"] = scores.paired_ttest(original, replicated)
    frame = pd.DataFrame(columns)
    frame.index.name = "constellation_id"
    return frame


def replicability_table(system: str) -> pd.DataFrame:
    """Give the paper's Table 1 (WCrobust04) / appendix Table 1 (WCrobust0405): replicability on Core17.

    The original row compares the run with itself: RMSE 0 and p = 1 are computed, KTU = RBO = 1 by
    definition.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.

    Returns
    -------
    pandas.DataFrame
        One row for the original run and one per printed constellation (``rpl_wcr04_tf_1`` ...),
        columns ARP, KTU, RBO (depth 1000, p = 0.8), RMSE and paired t-test p-values of P@10, AP and
        nDCG.
    """
    system = check_system(system)
    measures = replicability_measures(system, ids=PRINTED_IDS)
    table = measures[list(TABLE1_COLUMNS)].set_axis([c.replicated_name(system) for c in PRINTED])
    original_row = {}
    for label, measure in MEASURES.items():
        original, _ = replicated_runs(system, measure, ids=())
        original_row[f"ARP:{label}"] = scores.arp(original)
        original_row[f"RMSE:{label}"] = scores.rmse(original, original)
        original_row[f"p:{label}"] = scores.paired_ttest(original, original)
    original_row.update(SELF_AGREEMENT)
    table = pd.concat([pd.DataFrame([original_row], index=[system]), table])[list(TABLE1_COLUMNS)]
    table.index.name = "run"
    return table


def nrmse_table(system: str) -> pd.DataFrame:
    """Give the normalised RMSE beside Table 1's RMSE, for the rows of :func:`replicability_table`.

    ``nRMSE = RMSE / maxRMSE`` with ``maxRMSE = sqrt(1/n * sum_j max(M_j(r), 1 - M_j(r))^2)`` over
    the original's per-topic scores (:func:`irrepro.reproducibility.scores.nrmse`, as repro_eval 0.5.0
    computes it; Maistro et al., IP&M 2023). The SIGIR 2020 paper does not have nRMSE: these values
    are not published and never compared with a printed cell; Table 1 itself
    (:func:`replicability_table`) keeps the paper's columns.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.

    Returns
    -------
    pandas.DataFrame
        The rows of :func:`replicability_table` (the original run, nRMSE 0, then the 20 printed
        constellations); columns :data:`NRMSE_COLUMNS`: ``RMSE:<m>`` (Table 1's) and ``nRMSE:<m>``
        for m in P@10, AP, nDCG.
    """
    system = check_system(system)
    runs = {label: replicated_runs(system, measure, PRINTED_IDS) for label, measure in MEASURES.items()}
    original_row, columns = {}, {}
    for label, (original, replicated) in runs.items():
        columns[f"RMSE:{label}"] = scores.rmse(original, replicated)
        columns[f"nRMSE:{label}"] = scores.nrmse(original, replicated)
        original_row[f"RMSE:{label}"] = scores.rmse(original, original)
        original_row[f"nRMSE:{label}"] = scores.nrmse(original, original)
    table = pd.DataFrame(columns).set_axis([c.replicated_name(system) for c in PRINTED])
    table = pd.concat([pd.DataFrame([original_row], index=[system]), table])[list(NRMSE_COLUMNS)]
    table.index.name = "run"
    return table


def reproducibility_measures(
    system: str, *, ids: Sequence[int] = CONSTELLATION_IDS, version: str = "current"
) -> pd.DataFrame:
    """Compute ARP on Core18 and unpaired t-test p-values (original on Core17 vs reproduced on Core18), by id.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    ids : sequence of int, default CONSTELLATION_IDS
        The constellation ids.
    version : {"current", "old"}
        ``"old"``: the earlier AP file of the reproduced WCrobust0405 in place of the current one
        (every other file is the same in both versions).

    Returns
    -------
    pandas.DataFrame
        Columns ``ARP:<m>`` and ``p:<m>``.
    """
    return _reproducibility_measures(check_system(system), tuple(ids), check_version(version))


@cached(maxsize=16)
def _reproducibility_measures(system: str, ids: tuple[int, ...], version: str) -> pd.DataFrame:
    """:func:`reproducibility_measures`, computed once per system, ids and version."""
    runs = {label: reproduced_runs(system, measure, ids, version=version) for label, measure in MEASURES.items()}
    columns: dict[str, pd.Series] = {}
    for label, (_, reproduced) in runs.items():
        columns[f"ARP:{label}"] = scores.arp(reproduced)
    for label, (original, reproduced) in runs.items():
        columns[f"p:{label}"] = scores.unpaired_ttest(original, reproduced, equal_var=True)
    frame = pd.DataFrame(columns)
    frame.index.name = "constellation_id"
    return frame


def reproducibility_table(system: str) -> pd.DataFrame:
    """Give the paper's Table 3 (WCrobust04) / appendix Table 2 (WCrobust0405): reproducibility on Core18.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.

    Returns
    -------
    pandas.DataFrame
        Rows ``rpd_tf_1`` ... ``rpd_C_5``; ARP over the 25 Core18 topics and two-tailed Student's
        t-test p-values against the original run's 50 Core17 scores.
    """
    table = reproducibility_measures(system, ids=PRINTED_IDS).set_axis([c.reproduced_name for c in PRINTED])
    table.index.name = "run"
    return table[list(REPRODUCIBILITY_COLUMNS)]


def rpl_vs_rpd_pvalues() -> pd.DataFrame:
    """Compute unpaired t-test p-values between each replicated run (Core17) and its reproduced twin (Core18).

    Returns
    -------
    pandas.DataFrame
        The paper's online appendix: rows ``rpd_tf_1`` ...; columns ``p:<measure>:<run>``.
    """
    columns: dict[str, pd.Series] = {}
    for system in SYSTEMS:
        for label, measure in MEASURES.items():
            _, replicated = replicated_runs(system, measure, PRINTED_IDS)
            _, reproduced = reproduced_runs(system, measure, PRINTED_IDS)
            columns[f"p:{label}:{system}"] = pd.Series(
                {k: scores.unpaired_ttest(replicated[k], reproduced[k], equal_var=True) for k in PRINTED_IDS}
            )
    table = pd.DataFrame(columns).set_axis([c.reproduced_name for c in PRINTED])
    table.index.name = "run"
    return table
