"""The values Breuer et al. (SIGIR 2020) PRINTED in appendix Tables 1, 2 and 3, kept as printed text.

These are facts from the paper, transcribed from its online appendix (``appendix/appendix.pdf`` of
irgroup/sigir2020-measure-reproducibility; text copies ``breuer2020_appendix_tables_1_2.txt`` and
``breuer2020_appendix_table3.txt``). They are
used only to compare the reproduced numbers with the print, never as outputs.

Cells are kept as the strings the paper prints, because their precision is part of the fact:
``"0.7760"`` is a value rounded to four decimals, ``"0.046"`` a p-value truncated to three decimals
(the appendix notes that p-values are truncated, not rounded), ``"5E-04"`` a p-value whose leading
digit is kept and truncated (``5E-04`` stands for a value in [5e-4, 6e-4)). :func:`printed_interval`
(:mod:`irrepro.papers.printed`, re-exported here) turns a cell into the interval of values the print
stands for.

* Appendix Table 1: replicability of WCrobust0405 (ARP, Kendall's tau Union, RBO, RMSE, paired
  t-test p-values) for the original run and the 20 printed constellations, on Core17.
* Appendix Table 2: reproducibility of WCrobust0405 on Core18 (ARP and unpaired t-test p-values).
* Appendix Table 3: unpaired t-test p-values between each replicated run (Core17) and its
  reproduced twin (Core18), 20 constellations x WCrobust04 / WCrobust0405 x P@10 / AP / nDCG. Its
  text copy leaves open whether a column is truncated or rounded: the comparison reads it from the
  printed forms (:func:`irrepro.papers.sigir2020.appendix.rounding_evidence`).

The print's Table 2 cell ``rpd_C_1`` / ``p:nDCG`` reads ``54E-06``, which is not in the table's
one-digit format: it is transcribed as printed and reported as a misprint by the comparison.
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.printed import printed_interval

__all__ = [
    "TABLE1_COLUMNS",
    "TABLE2_COLUMNS",
    "TABLE3_COLUMNS",
    "appendix_table1",
    "appendix_table2",
    "appendix_table3",
    "printed_interval",
]

TABLE1_COLUMNS: tuple[str, ...] = (
    "ARP:P@10", "ARP:AP", "ARP:nDCG", "KTU", "RBO",
    "RMSE:P@10", "RMSE:AP", "RMSE:nDCG", "p:P@10", "p:AP", "p:nDCG",
)  # fmt: skip

TABLE2_COLUMNS: tuple[str, ...] = ("ARP:P@10", "ARP:AP", "ARP:nDCG", "p:P@10", "p:AP", "p:nDCG")

#: Appendix Table 3's columns, named as :func:`irrepro.papers.sigir2020.measure_tables.rpl_vs_rpd_pvalues` names them.
TABLE3_COLUMNS: tuple[str, ...] = tuple(
    f"p:{measure}:{system}" for system in ("WCrobust04", "WCrobust0405") for measure in ("P@10", "AP", "nDCG")
)

# Appendix Table 1 (WCrobust0405, replicability), as printed; "E-" written for the print's "E−".
_APPENDIX_TABLE_1 = """
WCrobust0405        0.7500 0.4278 0.6956 1      1      0      0      0      1      1      1
rpl_wcr0405_tf_1    0.7760 0.4233 0.6859 0.0100 0.6401 0.0927 0.0442 0.0373 0.046  0.470  0.063
rpl_wcr0405_tf_2    0.7660 0.4211 0.6841 0.0104 0.6133 0.0938 0.0510 0.0467 0.231  0.354  0.079
rpl_wcr0405_tf_3    0.7760 0.4186 0.6816 0.0071 0.5684 0.1122 0.0605 0.0541 0.101  0.287  0.066
rpl_wcr0405_tf_4    0.7340 0.3942 0.6631 0.0075 0.5304 0.1876 0.1002 0.0833 0.551  0.015  0.004
rpl_wcr0405_tf_5    0.7400 0.3711 0.6433 0.0078 0.4770 0.1913 0.1219 0.1075 0.715  5E-04  2E-04
rpl_wcr0405_df_1    0.7700 0.4136 0.6789 0.0153 0.6744 0.1020 0.0419 0.0373 0.167  0.014  9E-04
rpl_wcr0405_df_2    0.7620 0.3947 0.6663 0.0125 0.6573 0.1020 0.0530 0.0564 0.410  9E-07  9E-05
rpl_wcr0405_df_3    0.7100 0.3504 0.6286 0.0066 0.5561 0.1249 0.1008 0.1043 0.021  4E-11  3E-07
rpl_wcr0405_df_4    0.6220 0.2854 0.5570 0.0111 0.4793 0.2107 0.1729 0.1900 2E-06  1E-13  1E-09
rpl_wcr0405_df_5    0.5380 0.2320 0.4891 0.0085 0.3817 0.3105 0.2296 0.2668 3E-08  1E-15  2E-11
rpl_wcr0405_tol_1   0.7820 0.4161 0.6780 0.0096 0.6736 0.0980 0.0550 0.0451 0.019  0.132  0.004
rpl_wcr0405_tol_2   0.7060 0.3725 0.6031 0.0126 0.5890 0.2315 0.1455 0.2318 0.181  0.005  0.003
rpl_wcr0405_tol_3   0.5640 0.3031 0.4938 0.0068 0.4634 0.3947 0.2196 0.3445 4E-04  1E-05  6E-06
rpl_wcr0405_tol_4   0.4360 0.2175 0.3674 0.0039 0.3333 0.4930 0.3053 0.4610 5E-07  2E-08  4E-09
rpl_wcr0405_tol_5   0.2000 0.0682 0.1463 0.0013 0.1287 0.6479 0.4073 0.6001 3E-15  1E-17  5E-21
rpl_wcr0405_C_1     0.7680 0.4028 0.6713 0.0087 0.6648 0.0860 0.0540 0.0467 0.140  6E-04  8E-05
rpl_wcr0405_C_2     0.7800 0.4135 0.6786 0.0133 0.6934 0.0949 0.0434 0.0384 0.023  0.017  0.001
rpl_wcr0405_C_3     0.7740 0.4167 0.6802 0.0062 0.6605 0.0917 0.0514 0.0431 0.063  0.128  0.009
rpl_wcr0405_C_4     0.7200 0.3828 0.6518 0.0036 0.5571 0.1581 0.0903 0.0834 0.182  1E-04  7E-05
rpl_wcr0405_C_5     0.7060 0.3722 0.6424 0.0096 0.5279 0.1918 0.1047 0.0987 0.105  5E-05  4E-05
"""

# Appendix Table 2 (WCrobust0405, reproducibility on Core18), as printed.
_APPENDIX_TABLE_2 = """
rpd_tf_1   0.4920 0.2341 0.5065 3E-04 7E-06 9E-06
rpd_tf_2   0.4760 0.2377 0.5090 1E-04 9E-06 1E-05
rpd_tf_3   0.4840 0.2354 0.5073 2E-04 7E-06 1E-05
rpd_tf_4   0.4520 0.2286 0.4943 6E-05 5E-06 6E-06
rpd_tf_5   0.4520 0.1993 0.4645 3E-05 1E-07 1E-07
rpd_df_1   0.4720 0.2294 0.5103 1E-04 3E-06 1E-05
rpd_df_2   0.4640 0.2252 0.5113 7E-05 2E-06 8E-06
rpd_df_3   0.4080 0.2066 0.4926 3E-06 1E-07 1E-06
rpd_df_4   0.3760 0.1750 0.4489 3E-07 3E-09 2E-08
rpd_df_5   0.3360 0.1416 0.3920 2E-08 4E-11 4E-10
rpd_tol_1  0.4800 0.2245 0.4984 1E-04 2E-06 4E-06
rpd_tol_2  0.4800 0.2064 0.4636 2E-04 4E-07 7E-07
rpd_tol_3  0.4120 0.1811 0.4075 1E-05 2E-08 3E-08
rpd_tol_4  0.3200 0.1389 0.2863 1E-07 1E-09 3E-11
rpd_tol_5  0.0480 0.0071 0.0376 6E-21 3E-21 2E-34
rpd_C_1    0.4840 0.2299 0.4999 2E-04 3E-06 54E-06
rpd_C_2    0.4920 0.2330 0.5052 3E-04 5E-06 8E-06
rpd_C_3    0.4840 0.2259 0.5013 2E-04 3E-06 5E-06
rpd_C_4    0.4280 0.2024 0.4704 2E-05 3E-07 4E-07
rpd_C_5    0.4120 0.1958 0.4597 8E-06 1E-07 1E-07
"""

# Appendix Table 3 (replicated vs reproduced twin, unpaired t-test p-values), as printed; rows are the
# constellations as the print names them (the pair rpl_<k> / rpd_<k>), columns TABLE3_COLUMNS.
_APPENDIX_TABLE_3 = """
tf_1   8E-05 1E-05 7E-05 8E-05 2E-05 4E-05
tf_2   1E-04 2E-05 5E-05 8E-05 3E-05 7E-05
tf_3   1E-05 1E-05 3E-05 6E-05 4E-05 9E-05
tf_4   7E-06 8E-06 1E-05 2E-04 3E-04 3E-04
tf_5   7E-05 3E-05 2E-05 1E-04 1E-04 1E-04
df_1   0.001 3E-04 0.002 5E-05 2E-05 1E-04
df_2   0.002 0.001 0.010 3E-05 6E-05 3E-04
df_3   0.007 0.003 0.013 4E-05 4E-04 0.002
df_4   0.017 0.013 0.073 0.001 0.006 0.031
df_5   0.055 0.017 0.094 0.010 0.021 0.084
tol_1  0.002 5E-04 0.006 2E-05 2E-05 5E-05
tol_2  0.065 0.028 0.291 0.007 7E-04 0.026
tol_3  0.064 0.097 0.246 0.116 0.025 0.263
tol_4  0.046 0.051 0.048 0.246 0.152 0.329
tol_5  0.098 0.094 0.031 0.025 0.053 0.030
C_1    1E-07 7E-07 1E-07 8E-05 6E-05 9E-05
C_2    1E-07 3E-07 1E-07 5E-05 3E-05 7E-05
C_3    1E-07 6E-08 2E-08 4E-05 2E-05 6E-05
C_4    8E-04 4E-04 0.003 2E-04 8E-05 1E-04
C_5    0.001 5E-04 0.003 4E-04 1E-04 2E-04
"""


def _parse(text: str, columns: tuple[str, ...], table: str) -> pd.DataFrame:
    rows = {}
    for line_number, line in enumerate(text.strip().splitlines(), start=1):
        fields = line.split()
        if len(fields) != len(columns) + 1:
            raise ValueError(f"{table}, line {line_number}: expected {len(columns) + 1} fields, got {len(fields)}")
        rows[fields[0]] = fields[1:]
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(columns))
    frame.index.name = "run"
    return frame


def appendix_table1() -> pd.DataFrame:
    """Give appendix Table 1 (WCrobust0405, replicability) as printed.

    Returns
    -------
    pandas.DataFrame
        Run x cell, strings.
    """
    return _parse(_APPENDIX_TABLE_1, TABLE1_COLUMNS, "appendix Table 1")


def appendix_table2() -> pd.DataFrame:
    """Give appendix Table 2 (WCrobust0405, reproducibility on Core18) as printed.

    Returns
    -------
    pandas.DataFrame
        Run x cell, strings.
    """
    return _parse(_APPENDIX_TABLE_2, TABLE2_COLUMNS, "appendix Table 2")


def appendix_table3() -> pd.DataFrame:
    """Give appendix Table 3 (replicated vs reproduced twin, unpaired t-test p-values) as printed.

    Returns
    -------
    pandas.DataFrame
        Constellation (``tf_1`` ... ``C_5``, as printed) x :data:`TABLE3_COLUMNS`, strings: 120 cells.

    Examples
    --------
    >>> table = appendix_table3()
    >>> table.size, table.at["tol_5", "p:nDCG:WCrobust0405"]
    (120, '0.030')
    """
    return _parse(_APPENDIX_TABLE_3, TABLE3_COLUMNS, "appendix Table 3")
