"""The authors' earlier score files (``*_old.csv``): what differs from the published ones, and where.

Beside their result files the SIGIR 2020 authors kept three earlier computations: the replicability
P@10 of both runs (``measures/rpl_<system>_p10_old.csv``) and the reproducibility AP of WCrobust0405
(``measures_rpd/rpd_wcrobust0405_ap_old.csv``). :func:`earlier_files` compares each with its
published counterpart cell by cell; :func:`earlier_rpd_ap_topics` and :func:`earlier_rpd_ap_groups`
show on which Core18 topics the earlier WCrobust0405 AP differs: WCrobust0405 is WCrobust04 with
more training data, the TREC 2005 Robust (Robust05) judgments, which exist for 15 of the 25 Core18
topics. They are evidence for (or against) the hypothesis that the paper's Table 2 (right), Figure 3
and Table 5 were computed with the earlier reproduction of WCrobust0405
(:mod:`irrepro.papers.sigir2020.figures`, :mod:`irrepro.papers.sigir2020.hypothesis`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.data import fetch
from irrepro.memo import cached
from irrepro.outputs import sha256_of
from irrepro.papers import datasets
from irrepro.papers.datasets import ADVANCED, BASELINE
from irrepro.papers.sigir2020.published_scores import CONSTELLATION_IDS, per_topic, read_scores
from irrepro.runs import read_qrels

__all__ = [
    "TOLERANCE",
    "earlier_data_files",
    "earlier_files",
    "robust05_topics",
    "earlier_rpd_ap_topics",
    "earlier_rpd_ap_groups",
]

#: Two scores count as equal when they differ by at most this (the files print 15 significant digits).
TOLERANCE = 1e-12


def _pairs() -> list[tuple[datasets.Dataset, str, datasets.Dataset, str]]:
    """(earlier data set, earlier file, current data set, current file) of every earlier file."""
    rpl_old, rpd_old = datasets.SIGIR2020_RPL_OLD, datasets.SIGIR2020_RPD_OLD
    pairs = [
        (rpl_old, rpl_old.file(system=system, part="p10"), datasets.SIGIR2020_RPL,
         datasets.sigir2020_file("rpl", system, "p10"))
        for system in rpl_old.fields["system"]
    ]  # fmt: skip
    pairs.append((rpd_old, rpd_old.files()[0], datasets.SIGIR2020_RPD, datasets.sigir2020_file("rpd", ADVANCED, "ap")))
    return pairs


def earlier_data_files() -> list[str]:
    """List the registry names of the earlier files and of what the comparison reads besides them.

    Returns
    -------
    list of str
        Registry names.
    """
    return [old for _, old, _, _ in _pairs()] + [datasets.TREC_QRELS.file(collection="robust05")]


def earlier_files() -> pd.DataFrame:
    """Compare each earlier file with its published counterpart.

    Returns
    -------
    pandas.DataFrame
        Index: the earlier file. Columns: ``current file``, ``identical bytes`` (same sha256), ``runs
        earlier`` / ``runs current`` (run columns), ``topics``, ``cells compared`` (common runs x
        topics), ``cells differing`` (by more than :data:`TOLERANCE`), ``largest difference``,
        ``mean earlier`` / ``mean current`` (over the compared cells).

    Raises
    ------
    ValueError
        If an earlier file's topics differ from its counterpart's.
    """
    rows = {}
    for old_set, old, new_set, new in _pairs():
        before, after = read_scores(old, old_set.topic_columns), read_scores(new, new_set.topic_columns)
        if list(before.index) != list(after.index):
            raise ValueError(f"{old}: its topics differ from those of {new}")
        common = [column for column in after.columns if column in before.columns]
        difference = (before[common] - after[common]).abs().to_numpy()
        rows[old] = {
            "current file": new,
            "identical bytes": sha256_of(fetch(old)) == sha256_of(fetch(new)),
            "runs earlier": before.shape[1],
            "runs current": after.shape[1],
            "topics": len(after),
            "cells compared": difference.size,
            "cells differing": int((difference > TOLERANCE).sum()),
            "largest difference": float(difference.max()),
            "mean earlier": float(before[common].to_numpy().mean()),
            "mean current": float(after[common].to_numpy().mean()),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "earlier file"
    return table


@cached(maxsize=1)
def robust05_topics() -> frozenset[str]:
    """Give the topics the TREC 2005 Robust qrels judge (WCrobust0405's extra training topics).

    Returns
    -------
    frozenset of str
        The topic ids.
    """
    qrels = read_qrels(fetch(datasets.TREC_QRELS.file(collection="robust05")))
    return frozenset(qrels["query_id"].astype(str))


def earlier_rpd_ap_topics() -> pd.DataFrame:
    """Give per Core18 topic the earlier and the published AP of the reproduced WCrobust0405, and WCrobust04's.

    Returns
    -------
    pandas.DataFrame
        Index: topic. Columns: ``judged in Robust05`` (WCrobust0405 has extra training data for the
        topic), ``runs equal`` (of the 50 constellations, how many have the same AP in both files),
        ``mean AP earlier``, ``mean AP current`` (WCrobust0405, means over the 50 constellations)
        and ``mean AP WCrobust04`` (the reproduced baseline, published file).
    """
    old = per_topic("rpd", ADVANCED, "ap", version="old")
    new = per_topic("rpd", ADVANCED, "ap")
    baseline = per_topic("rpd", BASELINE, "ap")
    equal = np.abs(old.to_numpy() - new.to_numpy()) <= TOLERANCE
    judged = robust05_topics()
    table = pd.DataFrame(
        {
            "judged in Robust05": [topic in judged for topic in new.index],
            "runs equal": equal.sum(axis=1),
            "mean AP earlier": old.mean(axis=1).to_numpy(),
            "mean AP current": new.mean(axis=1).to_numpy(),
            "mean AP WCrobust04": baseline.mean(axis=1).to_numpy(),
        },
        index=new.index,
    )
    return table


def earlier_rpd_ap_groups() -> pd.DataFrame:
    """Sum up :func:`earlier_rpd_ap_topics` for the topics judged in Robust05 and for the others.

    Returns
    -------
    pandas.DataFrame
        Index: ``judged in Robust05`` (True, False). Columns: ``topics``, ``cells`` (topics x 50
        constellations), ``cells equal``, the mean AP of the earlier and the published WCrobust0405
        and of the reproduced WCrobust04, and the mean improvement of each WCrobust0405 file over
        WCrobust04 (``improvement earlier``, ``improvement current``).
    """
    topics = earlier_rpd_ap_topics()
    groups = topics.groupby("judged in Robust05", sort=False)
    table = pd.DataFrame(
        {
            "topics": groups.size(),
            "cells": groups.size() * len(CONSTELLATION_IDS),
            "cells equal": groups["runs equal"].sum(),
            "mean AP earlier": groups["mean AP earlier"].mean(),
            "mean AP current": groups["mean AP current"].mean(),
            "mean AP WCrobust04": groups["mean AP WCrobust04"].mean(),
        }
    ).sort_index(ascending=False)
    table["improvement earlier"] = table["mean AP earlier"] - table["mean AP WCrobust04"]
    table["improvement current"] = table["mean AP current"] - table["mean AP WCrobust04"]
    return table

