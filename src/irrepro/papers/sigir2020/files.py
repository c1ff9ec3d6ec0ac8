"""``irrepro reproduce sigir2020 --out DIR``: every table and figure's data of the chapter, as CSV.

:func:`tables` maps each file name (without ``.csv``) to the frame the chapter shows, computed by the
same function; :func:`write_tables` writes them as one set with its manifest
(:func:`irrepro.outputs.write_table_set`). The files, by what they hold:

========================================  ==================================================================
``table1_rpl_wcrobust04``,                Table 1 / appendix Table 1: replicability on Core17
``table1_rpl_wcrobust0405``               (:func:`~irrepro.papers.sigir2020.measure_tables.replicability_table`)
``nrmse_rpl_wcrobust04``,                 not in the paper: Table 1's RMSE with the normalised RMSE (nRMSE,
``nrmse_rpl_wcrobust0405``                repro_eval's; Maistro et al., IP&M 2023) beside it, never compared
                                          with a print (:func:`~irrepro.papers.sigir2020.measure_tables.nrmse_table`)
``rpd_wcrobust04``, ``rpd_wcrobust0405``  Table 3 / appendix Table 2: reproducibility on Core18
``er_deltari_rpl``, ``er_deltari_rpd``    Table 2 left / right with DeltaRI and bootstrap intervals
``rpl_vs_rpd_pvalues``                    each replicated run against its reproduced twin (online appendix)
``correlation_rpl_wcrobust04``,           Table 4 (upper / lower triangle)
``correlation_rpl_wcrobust0405``
``correlation_rpd_wcrobust04``,           Table 5 (upper / lower triangle), published files
``correlation_rpd_wcrobust0405``
``correlation_rpd_wcrobust04_old_ap``,    Table 5 with the authors' earlier AP file of the reproduced
``correlation_rpd_wcrobust0405_old_ap``   WCrobust0405
``appendix_table1_comparison``,           printed versus reproduced, cell by cell (appendix Tables 1, 2 and 3)
``appendix_table2_comparison``,
``appendix_table3_comparison``
``appendix_table1_as_printed``,           the reproduced values written as the appendix prints them
``appendix_table2_as_printed``,
``appendix_table3_as_printed``
``appendix_table1_worst_cells``,          the cells that do not match, or else the largest differences
``appendix_table2_worst_cells``,
``appendix_table3_worst_cells``
``appendix_table3_rounding_evidence``     per column of appendix Table 3: cells consistent with truncation, rounding
``appendix_match_counts``                 matching cells per appendix table
``appendix_misprints``                    the cells that do not match, and why (a misprint or not)
``appendix_largest_differences``          the matching cells farthest from their print (appendix Table 1)
``printed_text_values``                   the values the text states about Tables 3, 4 and Figure 3, printed
                                          versus reproduced
``ndcg_cutoff_check``                     the paper's nDCG is ndcg cut at 1000
``rbo_depth_convention``                  the published RBO files' depth convention
``small_cases``                           KTU, tau and RBO on small rankings (the paper's KTU examples)
``figure1_cutoff_curves``                 Figure 1: KTU, RBO, RMSE of nDCG@k against the cut-off (WCrobust04)
``figure2_points``, ``figure2_regions``   Figure 2: ER-DeltaRI points and points per region (replicability)
``figure2_panels``                        which families fit what the paper says of Figure 2's panels
``figure3_points``, ``figure3_regions``   Figure 3 (published files): points and points per region
``figure3_versions_points``               Figure 3 side by side: published files and the earlier AP file
``figure3_versions_regions``              AP points per region and family, both versions
``figure3_diagnosis``                     ER, DeltaRI and region (AP) of each reproduced pair, both versions
``figure3_statements``                    the paper's statements on Table 2 right, Figure 3, Table 5: verdicts
                                          on both versions
``figure3_evidence``                      the numbers a paragraph on the Figure 3 hypothesis states
``earlier_files``                         each earlier (``*_old``) file against its published counterpart
``earlier_rpd_ap_topics``,                where the earlier WCrobust0405 AP differs: per Core18 topic, and
``earlier_rpd_ap_groups``                 for the topics judged in Robust05 and the others
``claims``                                the paper's claims with verdicts and evidence
``claims_robustness``                     each claim under topic resampling: share of the resamples in which it
                                          holds, stable or fragile, the interval of the number it turns on
``correlation_robustness``                every correlation of Tables 4 and 5 with its interval under topic
                                          resampling
``fidelity``                              one row per table and figure: data, values compared and matched, verdict
``chapter_numbers``                       every number of the chapter's prose, computed, with its source
``data_files``                            the published files the chapter reads, with sha256 and source
========================================  ==================================================================

Values are written at full precision (the shortest text that reads back to the same float), except
where the quantity is an exact decimal fraction, which is written exactly (:data:`EXACT_DECIMALS`):
ARP of P@10 is a mean of multiples of 1/10 over 50 (Core17) or 25 (Core18) topics, a multiple of 1/500
or 1/250, so three decimals are exact (``0.646``, not ``0.6459999999999999``); its difference from a
printed four-decimal value is exact at four. Counts are integers (the fidelity rows' ``cells`` and
``matched`` too, empty where no printed cell is compared). Ratios and means of counts that no
decimal writes exactly (:data:`RATIO_COLUMNS`: ER and ΔRI of P@10, means of the per-topic KTU and
RBO, the measures on small rankings) are written rounded to :data:`RATIO_DECIMALS` decimals: float
noise (about 1e-16, e.g. ``1.5000000000000002``) is removed, every digit a print could use is kept.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from irrepro.data import provenance
from irrepro.outputs import write_table_set
from irrepro.papers.datasets import ADVANCED, BASELINE, SYSTEMS
from irrepro.papers.fidelity import fidelity_table
from irrepro.papers.sigir2020 import (
    appendix,
    conventions,
    correlation,
    earlier,
    effects,
    figures,
    hypothesis,
    printed_values,
)
from irrepro.papers.sigir2020.claim_checks import claims
from irrepro.papers.sigir2020.measure_tables import (
    nrmse_table,
    replicability_table,
    reproducibility_table,
    rpl_vs_rpd_pvalues,
)
from irrepro.papers.sigir2020.prose import chapter_numbers
from irrepro.papers.sigir2020.published_scores import data_files
from irrepro.papers.sigir2020.robustness import correlation_intervals, robustness_table

__all__ = [
    "EXACT_DECIMALS", "RATIO_DECIMALS", "RATIO_COLUMNS", "exact_decimals", "chapter_data_files", "tables",
    "write_tables",
]  # fmt: skip

#: file -> {column: decimals that hold the exact value}; for the long comparison tables the rows of
#: one printed cell (``cell == "ARP:P@10"``) are meant, see ``_exact_comparison``.
EXACT_DECIMALS: dict[str, dict[str, int]] = {
    "table1_rpl_wcrobust04": {"ARP:P@10": 3},
    "table1_rpl_wcrobust0405": {"ARP:P@10": 3},
    "rpd_wcrobust04": {"ARP:P@10": 3},
    "rpd_wcrobust0405": {"ARP:P@10": 3},
    "appendix_table1_comparison": {"reproduced": 3, "difference": 4},
    "appendix_table2_comparison": {"reproduced": 3, "difference": 4},
}
_EXACT_CELL = "ARP:P@10"  # the printed cell whose comparison rows hold exact fractions
#: Decimals of the ratios and means of counts (:data:`RATIO_COLUMNS`).
RATIO_DECIMALS = 12
_ER_P10 = [f"{s}:P@10{b}" for s in ("ER", "DeltaRI") for b in ("", ":low", ":high")]
_SMALL = ["KTU", "KTU printed", "tau-b union tied", "tau intersection", "RBO ext", "RBO sigir2020"]
#: file -> columns holding ratios or means of counts; in the long point files only the P@10 rows.
RATIO_COLUMNS: dict[str, list[str]] = {
    "table1_rpl_wcrobust04": ["KTU", "RBO"],
    "table1_rpl_wcrobust0405": ["KTU", "RBO"],
    "er_deltari_rpl": _ER_P10,
    "er_deltari_rpd": _ER_P10,
    "figure1_cutoff_curves": ["KTU", "RBO"],
    "figure2_points": ["ER", "DeltaRI"],
    "figure3_points": ["ER", "DeltaRI"],
    "figure3_versions_points": ["ER", "DeltaRI"],
    "small_cases": _SMALL,
}
_NOISE = 1e-9  # rounding may remove float noise, never change a value by more than this


def exact_decimals(values: pd.Series, decimals: int, *, what: str) -> pd.Series:
    """Round ``values`` to ``decimals``, checked to be float noise away from that exact decimal.

    Parameters
    ----------
    values : pandas.Series
        The values.
    decimals : int
        The decimals they stand for.
    what : str
        Names the values in the error message.

    Returns
    -------
    pandas.Series
        The rounded values.

    Raises
    ------
    ValueError
        If a value is more than float noise away from a ``decimals``-decimal value.

    Examples
    --------
    >>> exact_decimals(pd.Series([0.6459999999999999]), 3, what="ARP:P@10").tolist()
    [0.646]
    """
    rounded = values.round(decimals)
    off = (rounded - values).abs() > _NOISE
    if off.any():
        raise ValueError(f"{what}: {values[off].iloc[0]!r} is not an exact {decimals}-decimal value")
    return rounded


def _exact(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    rows = frame["measure"] == "P@10" if "measure" in frame.columns else slice(None)
    for column in RATIO_COLUMNS.get(name, []):
        frame.loc[rows, column] = frame.loc[rows, column].astype(float).round(RATIO_DECIMALS)
    for column, decimals in EXACT_DECIMALS.get(name, {}).items():
        if column not in frame.columns:
            continue
        rows = frame["cell"] == _EXACT_CELL if "cell" in frame.columns else slice(None)
        frame.loc[rows, column] = exact_decimals(frame.loc[rows, column], decimals, what=f"{name} {column}")
    return frame


def _paper_tables() -> dict[str, pd.DataFrame]:
    """Tables 1-5 and the appendix comparisons."""
    return {
        "table1_rpl_wcrobust04": replicability_table(BASELINE),
        "table1_rpl_wcrobust0405": replicability_table(ADVANCED),
        "nrmse_rpl_wcrobust04": nrmse_table(BASELINE),  # an extra: nRMSE is not in the paper
        "nrmse_rpl_wcrobust0405": nrmse_table(ADVANCED),
        "er_deltari_rpl": effects.effect_ratio_table("rpl"),
        "er_deltari_rpd": effects.effect_ratio_table("rpd"),
        "rpd_wcrobust04": reproducibility_table(BASELINE),
        "rpd_wcrobust0405": reproducibility_table(ADVANCED),
        "rpl_vs_rpd_pvalues": rpl_vs_rpd_pvalues(),
        **{f"correlation_rpl_{s.lower()}": correlation.correlation_table(s) for s in SYSTEMS},
        **{f"correlation_rpd_{s.lower()}": correlation.reproducibility_correlation_table(s) for s in SYSTEMS},
        **{
            f"correlation_rpd_{s.lower()}_old_ap": correlation.reproducibility_correlation_table(s, version="old")
            for s in SYSTEMS
        },  # fmt: skip
        **{f"appendix_table{n}_comparison": appendix.appendix_comparison(n) for n in appendix.APPENDIX_TABLES},
        **{f"appendix_table{n}_as_printed": appendix.as_printed(n)[0] for n in appendix.APPENDIX_TABLES},
        **{
            f"appendix_table{n}_worst_cells": appendix.worst_cells(appendix.appendix_comparison(n)).reset_index(
                drop=True
            )
            for n in appendix.APPENDIX_TABLES
        },  # fmt: skip
        "appendix_table3_rounding_evidence": appendix.rounding_evidence(3),
        "appendix_match_counts": appendix.match_counts(),
        "appendix_misprints": appendix.appendix_misprints(),
        "appendix_largest_differences": appendix.largest_differences(1),
        "printed_text_values": printed_values.text_values_comparison(),
    }


def _figure_tables() -> dict[str, pd.DataFrame]:
    """The data behind Figures 1-3, the conventions and the Figure 3 diagnosis."""
    return {
        "ndcg_cutoff_check": conventions.ndcg_cutoff_check(),
        "rbo_depth_convention": conventions.rbo_depth_convention(5),
        "small_cases": conventions.small_cases(),
        "figure1_cutoff_curves": figures.cutoff_curves(BASELINE),
        "figure2_points": figures.er_deltari_points("rpl"),
        "figure2_regions": figures.er_deltari_regions("rpl"),
        "figure2_panels": figures.figure2_panels(),
        "figure3_points": figures.er_deltari_points("rpd"),
        "figure3_regions": figures.er_deltari_regions("rpd"),
        "figure3_versions_points": figures.figure3_points(),
        "figure3_versions_regions": figures.figure3_regions("AP"),
        "figure3_diagnosis": figures.figure3_diagnosis(),
        "figure3_statements": hypothesis.figure3_statements(),
        "figure3_evidence": hypothesis.figure3_evidence().to_frame(),
        "earlier_files": earlier.earlier_files(),
        "earlier_rpd_ap_topics": earlier.earlier_rpd_ap_topics(),
        "earlier_rpd_ap_groups": earlier.earlier_rpd_ap_groups(),
        "claims": claims(),
        "claims_robustness": robustness_table(),
        "correlation_robustness": correlation_intervals(),
        "fidelity": fidelity_table(("sigir2020",)).set_index("item"),
        "chapter_numbers": chapter_numbers(),
        "data_files": chapter_data_files(),
    }


def chapter_data_files() -> pd.DataFrame:
    """List the published files the chapter reads (current and earlier versions).

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``sha256``, ``source``, ``url`` (:func:`irrepro.data.provenance`).
    """
    names = [*data_files(), *earlier.earlier_data_files()]
    return pd.DataFrame(provenance(names)).set_index("name")


def _indexed(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame with a plain row number as index gets its first column as index (the CSV's first column)."""
    if isinstance(frame.index, pd.RangeIndex) and frame.index.name is None:
        return frame.set_index(frame.columns[0])
    return frame


def tables() -> dict[str, pd.DataFrame]:
    """Compute every table of the chapter and the data of every figure.

    Exact decimal fractions are rounded to their exact value (:data:`EXACT_DECIMALS`); all else as
    computed. A table numbered by row (the long tables) is indexed by its first column.

    Returns
    -------
    dict of str -> pandas.DataFrame
        CSV file name (without ``.csv``) -> table.
    """
    return {name: _indexed(_exact(name, frame)) for name, frame in {**_paper_tables(), **_figure_tables()}.items()}


def write_tables(out_dir: Path) -> list[Path]:
    """Write :func:`tables` as CSV files into ``out_dir``, one set with its manifest.

    Parameters
    ----------
    out_dir : pathlib.Path
        The folder.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    csv_files = {f"{name}.csv": table for name, table in tables().items()}
    # to_csv writes the shortest repr that reads back to the same float: full precision
    return write_table_set(out_dir, csv_files, producer="irrepro.papers.sigir2020.write_tables", index=True)
