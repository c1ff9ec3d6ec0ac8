"""The one number the GLM paper's text states about its results, printed beside reproduced.

The public text (the extended abstract) prints none of its Table 1's deviances and reports no
iteration counts; of its results it states one number: Core 18 is also fitted "where we remove eight
outlier runs, performing extremely low in terms of MAP" (Section 3). :data:`TEXT_VALUES` transcribes
it (the tests find its words in the text copy) and :func:`text_values_comparison` sets it beside the
reproduced count.

How the count is read (ours, stated): the paper names neither the runs nor a threshold, so the
reading must not assume one: the outliers are the runs below the widest gap in NIST's official MAPs
of the 72 Core 2018 submissions, the gap measured as a ratio of consecutive MAPs (the runs that
"stand apart"), :func:`low_outliers`. The book's own rule (MAP < 0.01,
:data:`irrepro.glm.outliers.NEAR_ZERO_MAP`) selects the same runs, which the found-at column says.

>>> low_outliers(pd.Series({"a": 0.30, "b": 0.25, "c": 0.004, "d": 0.006}))
['c', 'd']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.glm.outliers import NEAR_ZERO_MAP, near_zero_systems
from irrepro.papers.glm.scores import official_summary
from irrepro.papers.printed import PrintedValue, Reading, compare

__all__ = ["TEXT_VALUES", "low_outliers", "text_values_comparison"]

#: The numbers the paper's text states about its results, as printed.
TEXT_VALUES: tuple[PrintedValue, ...] = (
    PrintedValue(
        "glm", "Section 3 (text): Core 18 without its eight outlier runs", "outlier runs of Core 18", "eight", "exact",
        quote="we also consider a second version of it, where we remove eight outlier runs, performing extremely low "
        "in terms of MAP.",
        where="Section 3",
    ),
)


def low_outliers(mean_scores: pd.Series) -> list[str]:
    """Find the systems below the widest gap in ``mean_scores``, the gap as the ratio of consecutive means.

    Ratios, not differences, because "extremely low" is relative: 0.003 and 0.007 lie close together
    on this scale, 0.007 and 0.047 far apart. Systems with a mean of 0 sit below every positive one.

    Parameters
    ----------
    mean_scores : pandas.Series
        Mean score per system.

    Returns
    -------
    list of str
        The systems, sorted by mean, lowest first.

    Raises
    ------
    ValueError
        With fewer than two systems or a missing mean.
    """
    ordered = mean_scores.sort_values(kind="stable")
    if len(ordered) < 2 or ordered.isna().any():
        raise ValueError("low_outliers needs at least two systems and no missing mean")
    values = ordered.to_numpy(dtype=float)
    with np.errstate(divide="ignore"):
        gaps = np.log(values[1:]) - np.log(values[:-1])  # log 0 = -inf: a zero mean stands apart
    widest = int(np.nanargmax(np.where(np.isnan(gaps), -np.inf, gaps)))
    return [str(system) for system in ordered.index[: widest + 1]]


def _outlier_runs() -> Reading:
    map_scores = official_summary("Core18")["map"]
    runs = low_outliers(map_scores)
    same = sorted(runs) == sorted(near_zero_systems(map_scores))
    return Reading(
        float(len(runs)),
        f"NIST's MAP of the {len(map_scores)} Core 2018 submissions: {', '.join(sorted(runs))} (MAP at most "
        f"{map_scores[runs].max():.4f}; the next run {map_scores.drop(runs).min():.4f}); the book's rule MAP < "
        f"{NEAR_ZERO_MAP:g} selects {'the same runs' if same else 'other runs'}",
    )


def text_values_comparison() -> pd.DataFrame:
    """Set each value of :data:`TEXT_VALUES` beside the reproduced one (:func:`irrepro.papers.printed.compare`).

    Returns
    -------
    pandas.DataFrame
        As :func:`irrepro.papers.printed.compare` returns it.
    """
    return compare(TEXT_VALUES, {"outlier runs of Core 18": _outlier_runs()})
