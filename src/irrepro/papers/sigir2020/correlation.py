"""Tables 4 and 5 of the paper: Kendall's tau among the measures, across the 50 constellations.

Before correlating, every measure is oriented so that lower means a better replication, as the paper
(Section 5.3) and the authors' script do: DeltaARP and RMSE as they are; the opposite of KTU, RBO and
the p-values (here ``1 - KTU``, ``1 - RBO``, ``-p``); ``|1 - ER|`` for ER. Kendall's tau is tau-b
(:func:`irrepro.reproducibility.resampling.kendall_tau_b`, the formula of scipy and pandas) with values
equal up to float noise tied: the ARP of P@10 is a multiple of 1/500, and two constellations with the
same ARP must tie even when their means, summed in floating point, differ in the last bit (pandas'
``corr("kendall")`` would order them by that bit). Table 4 (replicability) has ARP differences, KTU, RBO, RMSE, paired p-values and ER; Table 5
(reproducibility) only the unpaired p-values and ER ("For reproducibility we can not compare against
ARP"). ``version="old"`` computes Table 5 with the authors' earlier AP file of the reproduced
WCrobust0405 (it changes ``ER:AP`` for both systems and ``p:AP`` for WCrobust0405).
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.sigir2020.effects import effect_measures
from irrepro.papers.sigir2020.measure_tables import replicability_measures, reproducibility_measures
from irrepro.papers.sigir2020.published_scores import MEASURES, check_version
from irrepro.reproducibility.resampling import kendall_tau_b

__all__ = [
    "CORRELATION_COLUMNS",
    "REPRODUCIBILITY_CORRELATION_COLUMNS",
    "oriented_replicability_measures",
    "oriented_reproducibility_measures",
    "correlation_table",
    "reproducibility_correlation_table",
    "kendall_table",
]

CORRELATION_COLUMNS: tuple[str, ...] = (
    "DeltaARP:P@10", "DeltaARP:AP", "DeltaARP:nDCG", "KTU", "RBO",
    "RMSE:P@10", "RMSE:AP", "RMSE:nDCG", "p:P@10", "p:AP", "p:nDCG", "ER:P@10", "ER:AP", "ER:nDCG",
)  # fmt: skip
REPRODUCIBILITY_CORRELATION_COLUMNS: tuple[str, ...] = (
    *(f"p:{m}" for m in MEASURES), *(f"ER:{m}" for m in MEASURES)
)  # fmt: skip


def oriented_replicability_measures(system: str) -> pd.DataFrame:
    """Give the replicability measures of all 50 constellations, oriented so that lower is better.

    As the paper (Section 5.3) and the authors' script do: DeltaARP and RMSE as they are; the
    opposite of KTU, RBO and the p-values (here ``1 - KTU``, ``1 - RBO``, ``-p``); ``|1 - ER|``.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.

    Returns
    -------
    pandas.DataFrame
        One row per constellation, one column per oriented measure.
    """
    measures = replicability_measures(system)
    effects = effect_measures("rpl")
    oriented = pd.DataFrame(index=measures.index)
    for column in CORRELATION_COLUMNS:
        if column in ("KTU", "RBO"):
            oriented[column] = 1.0 - measures[column]
        elif column.startswith("p:"):
            oriented[column] = -measures[column]
        elif column.startswith("ER:"):
            oriented[column] = (1.0 - effects[column]).abs()
        else:
            oriented[column] = measures[column]
    return oriented


def oriented_reproducibility_measures(system: str, *, version: str = "current") -> pd.DataFrame:
    """Give ``-p`` (unpaired t-test) and ``|1 - ER|`` (reproducibility) of all 50 constellations, by id.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    version : {"current", "old"}
        ``"old"``: with the authors' earlier AP file of the reproduced WCrobust0405 (module docstring).

    Returns
    -------
    pandas.DataFrame
        Columns ``p:<m>`` and ``ER:<m>`` per measure.
    """
    version = check_version(version)
    measures = reproducibility_measures(system, version=version)
    effects = effect_measures("rpd", version=version)
    oriented = pd.DataFrame(index=measures.index)
    for label in MEASURES:
        oriented[f"p:{label}"] = -measures[f"p:{label}"]
    for label in MEASURES:
        oriented[f"ER:{label}"] = (1.0 - effects[f"ER:{label}"]).abs()
    return oriented


def kendall_table(measures: pd.DataFrame) -> pd.DataFrame:
    """Compute Kendall's tau-b between every two columns of ``measures``, values equal up to float noise tied.

    Parameters
    ----------
    measures : pandas.DataFrame
        One column per measure.

    Returns
    -------
    pandas.DataFrame
        Columns x columns.

    Examples
    --------
    >>> float(kendall_table(pd.DataFrame({"a": [0.1 + 0.2, 0.3, 0.5], "b": [1.0, 1.0, 2.0]})).loc["a", "b"])
    1.0
    """
    tau = kendall_tau_b(measures.to_numpy(dtype=float)[None])[0]
    table = pd.DataFrame(tau, index=measures.columns, columns=measures.columns)
    table.index.name = "measure"
    return table


def correlation_table(system: str) -> pd.DataFrame:
    """Compute the paper's Table 4 for one run: Kendall's tau (tau-b) among the oriented replicability measures.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.

    Returns
    -------
    pandas.DataFrame
        Measures x measures.
    """
    return kendall_table(oriented_replicability_measures(system))


def reproducibility_correlation_table(system: str, *, version: str = "current") -> pd.DataFrame:
    """Compute the paper's Table 5 for one run: Kendall's tau among ``-p`` (unpaired) and ``|1 - ER|`` (rpd).

    WCrobust04 is the table's upper triangle, WCrobust0405 its lower one.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.
    version : {"current", "old"}
        ``"old"``: with the authors' earlier AP file of the reproduced WCrobust0405 (module docstring).

    Returns
    -------
    pandas.DataFrame
        Measures x measures.
    """
    return kendall_table(oriented_reproducibility_measures(system, version=version))
