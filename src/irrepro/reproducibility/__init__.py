"""Reproducibility measures of Breuer et al., SIGIR 2020, and what a careful user needs beyond them.

- :mod:`irrepro.reproducibility.scores`: ARP, RMSE (and nRMSE), ER, DeltaRI and the t-tests (per-topic scores).
- :mod:`irrepro.reproducibility.ranking`: Kendall's tau Union (KTU), RBO and label-independent variants.
- :mod:`irrepro.reproducibility.bootstrap`: seeded bootstrap confidence intervals over topics.
- :mod:`irrepro.reproducibility.resampling`: many bootstrap replicates of per-topic statistics at once
  (topic weights times per-topic arrays), for how often a conclusion holds under topic resampling.
- :mod:`irrepro.reproducibility.compare`: the run-file-level entry point behind ``irrepro compare``.
- :mod:`irrepro.reproducibility.deterioration`: runs made worse (or better) on purpose by swapping and
  replacing documents, by the rules of Maistro et al. (IP&M 2023), behind ``irrepro deteriorate``.

Terms follow the paper: *replicability* = same collection, *reproducibility* = a different one.
"""

from irrepro.reproducibility.bootstrap import (
    ConfidenceInterval,
    bootstrap_delta_relative_improvement,
    bootstrap_effect_ratio,
    bootstrap_mean,
    bootstrap_mean_difference,
    bootstrap_rmse,
)
from irrepro.reproducibility.deterioration import Deterioration, deteriorate
from irrepro.reproducibility.ranking import (
    RankedLists,
    kendall_tau_intersection,
    kendall_tau_union,
    kendall_tau_union_tied,
    rank_lists,
    ranking_measures,
    rbo,
)
from irrepro.reproducibility.scores import (
    UndefinedMeasureWarning,
    arp,
    delta_relative_improvement,
    effect_ratio,
    nrmse,
    paired_ttest,
    relative_improvement,
    rmse,
    unpaired_ttest,
    wilcoxon_test,
)

__all__ = [
    "ConfidenceInterval",
    "bootstrap_delta_relative_improvement",
    "bootstrap_effect_ratio",
    "bootstrap_mean",
    "bootstrap_mean_difference",
    "bootstrap_rmse",
    "Deterioration",
    "deteriorate",
    "RankedLists",
    "kendall_tau_intersection",
    "kendall_tau_union",
    "kendall_tau_union_tied",
    "rank_lists",
    "ranking_measures",
    "rbo",
    "UndefinedMeasureWarning",
    "arp",
    "delta_relative_improvement",
    "effect_ratio",
    "nrmse",
    "paired_ttest",
    "relative_improvement",
    "rmse",
    "unpaired_ttest",
    "wilcoxon_test",
]
