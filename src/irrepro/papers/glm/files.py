"""``irrepro reproduce glm --out DIR``: every table of the GLM chapter and the data of its figures, as CSV.

:func:`tables` maps each file name (without ``.csv``) to the frame the chapter shows (long form: one
row per setting and link; the chapter's wide tables are pivots of these), computed by the same
function; :func:`write_tables` writes them as one set with its manifest
(:func:`irrepro.outputs.write_table_set`). A *setting* is (``collection``, ``measure``,
``outliers_removed``). The files:

==============================  =======================================================================
``data_used``                   the collections: role for the paper, topics, runs, measures, source, files
``data_summary``                per collection and measure: topics, runs, zeros, outliers, dropped topics
``outlier_rule_core18``         NIST's official Core18 runs by MAP, flagged by the rule MAP < 0.01
``deviance``                    Table 1: deviance per setting and link, with convergence, AIC, BIC, sizes
``iterations``                  IRLS iterations per setting and link, convergence, rank by iterations
``ssd_pairs``                   ssd pairs per setting and link: Tukey HSD and Holm
``consistency``                 split-half consistency per setting and link (means over the splits)
``consistency_splits``          the same counts for every split (integers)
``deviance_statements``         the paper's statements on Table 1, per data group: columns where they hold
``claims``                      the paper's claims, one row per claim and data group, verdict and evidence
``verdicts``                    one row per claim: verdict on Robust04, on the substitutes, on NIST's Core18
``ssd_robustness``              per resampled setting and link: ssd pairs kept under topic resampling, and
                                the number of ssd pairs per resample
``ssd_pairs_robustness``        every ssd pair on all topics: the share of the resamples keeping it
``claims_robustness``           the claim on ssd pairs under topic resampling: share of resamples where it holds
``near_zero_se``                standard error of the lowest-mean system's effect against the median
``boundary_observations``       scores of 0 and 1 kept by the logit GLM
``assumption_tests``            normality and equal variance of the identity model's residuals
``mean_variance``               figure: per-run mean and variance over topics, every collection and measure
``residuals_robust04_ap``       figures: observed, fitted, residual, Pearson residual per link (Robust04 AP)
``qq_robust04_ap``              figure: normal QQ points of the Pearson residuals per link (Robust04 AP)
``system_effects_robust04_ap``  figure: centred system effects with 95% intervals, identity and logit
``fidelity``                    one row per table and text result of the paper: data, reproduced, why not
``chapter_numbers``             every number of the chapter's prose, with its source
``data_files``                  the published files the chapter read: file, sha256, source, URL
==============================  =======================================================================

Values are written at full precision (the shortest text that reads back to the same float). Counts
are integers; shares of counts (``consistent_share``, ``zero_scores``) and the P@10 means and
variances are single divisions of integers, so correctly rounded, with no float noise from sums.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from irrepro.data import provenance
from irrepro.outputs import write_table_set
from irrepro.papers.fidelity import fidelity_table
from irrepro.papers.glm import (
    claim_checks,
    diagnostics,
    models,
    prose,
    robustness,
    scores,
    statements,
)

__all__ = ["FILES", "tables", "mean_variance_table", "data_files_table", "write_tables"]

FIGURE_SETTING = ("Robust04", "AP")


def mean_variance_table() -> pd.DataFrame:
    """Gather :func:`~irrepro.papers.glm.models.mean_variance` of every collection and measure in one long table.

    Returns
    -------
    pandas.DataFrame
        One row per collection, measure and system.
    """
    frames = [
        models.mean_variance(collection, measure).assign(collection=collection, measure=measure)
        for collection in scores.COLLECTIONS
        for measure in scores.measures_of(collection)
    ]
    table = pd.concat(frames, ignore_index=True)
    return table[["collection", "measure", "system", "mean", "variance"]]


def data_files_table() -> pd.DataFrame:
    """List the published files the chapter reads (:func:`~irrepro.papers.glm.scores.data_files`).

    Returns
    -------
    pandas.DataFrame
        One row each: ``file``, ``sha256``, ``source``, ``url`` (from the data registry).
    """
    names = scores.data_files()
    entries = pd.DataFrame(provenance(names), columns=["name", "sha256", "source", "url"]).set_index("name")
    return entries.loc[names].rename_axis("file").reset_index()  # in the order the chapter reads them


def tables() -> dict[str, pd.DataFrame]:
    """Compute every table of the chapter and the data of its figures.

    Returns
    -------
    dict of str -> pandas.DataFrame
        CSV file name (without ``.csv``) -> table.
    """
    deviances = models.deviance_table()
    residuals = models.residuals(*FIGURE_SETTING)
    claims = claim_checks.claims()
    return {
        "data_used": scores.data_used(),
        "data_summary": scores.data_summary(),
        "outlier_rule_core18": prose.outlier_rule_table(),
        "deviance": deviances,
        "iterations": models.iteration_table(deviances),
        "ssd_pairs": models.ssd_table(),
        "consistency": models.consistency_table(),
        "consistency_splits": models.consistency_runs(),
        "deviance_statements": statements.deviance_claims(models.table1(deviances)),
        "claims": claims,
        "verdicts": claim_checks.verdict_table(claims),
        "ssd_robustness": robustness.ssd_robustness(),
        "ssd_pairs_robustness": robustness.ssd_pair_robustness(),
        "claims_robustness": robustness.claim_robustness(),
        "near_zero_se": diagnostics.near_zero_uncertainty(),
        "boundary_observations": diagnostics.boundary_observations(),
        "assumption_tests": diagnostics.assumption_tests(),
        "mean_variance": mean_variance_table(),
        "residuals_robust04_ap": residuals,
        "qq_robust04_ap": models.qq_points(residuals),
        "system_effects_robust04_ap": models.system_effects(*FIGURE_SETTING, links=("identity", "logit")),
        "fidelity": fidelity_table(("glm",)),
        "chapter_numbers": prose.chapter_numbers(),
        "data_files": data_files_table(),
    }


#: The file names :func:`write_tables` writes, in order.
FILES: tuple[str, ...] = (
    "data_used", "data_summary", "outlier_rule_core18", "deviance", "iterations", "ssd_pairs", "consistency",
    "consistency_splits", "deviance_statements", "claims", "verdicts", "ssd_robustness", "ssd_pairs_robustness",
    "claims_robustness", "near_zero_se", "boundary_observations",
    "assumption_tests", "mean_variance", "residuals_robust04_ap", "qq_robust04_ap", "system_effects_robust04_ap",
    "fidelity", "chapter_numbers", "data_files",
)  # fmt: skip


def write_tables(out_dir: Path) -> list[Path]:
    """Write every table of :func:`tables` as ``<name>.csv`` into ``out_dir``, as one set with its manifest.

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
    return write_table_set(out_dir, csv_files, producer="irrepro.papers.glm.write_tables")
