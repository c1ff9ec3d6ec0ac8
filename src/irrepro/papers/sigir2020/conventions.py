"""The conventions the printed numbers fix, and the measures on small hand-made rankings.

- :func:`ndcg_cutoff_check`: the paper's "nDCG" is trec_eval's ``ndcg`` cut at 1000 (only that
  cut-off reproduces the printed ARP of appendix Table 1).
- :func:`rbo_depth_convention`: the published ``rbo_<k>_p08`` values are Webber et al.'s
  extrapolated RBO on the top k - 1 documents (found by enumerating every attainable value at k = 5).
- :func:`small_cases`: KTU, its label-free alternative, tau on the intersection and RBO on small
  rankings, among them the paper's two KTU examples (Section 3.1).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from irrepro.memo import cached
from irrepro.papers import published
from irrepro.papers.datasets import ADVANCED, CUTOFFS, SYSTEMS
from irrepro.papers.sigir2020.published_scores import per_topic, replicated_runs
from irrepro.reproducibility import ranking, scores

__all__ = ["SMALL_CASES", "RBO_P", "small_cases", "rbo_depth_convention", "ndcg_cutoff_check"]

#: (case, original ranking, new ranking, the paper's printed KTU or None).
SMALL_CASES: tuple[tuple[str, str, str, float | None], ...] = (
    ("paper's KTU example 1", "d1 d2 d3", "d1 d2 d4", 1.0),
    ("paper's KTU example 2", "d1 d2 d3 d4", "d2 d5 d3 d6", 2 / 3),
    ("identical", "d1 d2 d3 d4 d5", "d1 d2 d3 d4 d5", None),
    ("reversed", "d1 d2 d3 d4 d5", "d5 d4 d3 d2 d1", None),
    ("swap at the top", "d1 d2 d3 d4 d5", "d2 d1 d3 d4 d5", None),
    ("swap at the bottom", "d1 d2 d3 d4 d5", "d1 d2 d3 d5 d4", None),
    ("disjoint", "d1 d2 d3", "d4 d5 d6", None),
    ("example 1, d4 renamed d0", "d1 d2 d3", "d1 d2 d0", None),
    ("disjoint, other names", "d1 d2 d3", "d6 d5 d4", None),
)
RBO_P = 0.8  # the persistence of the published RBO files (rbo_<k>_p08)


@cached(maxsize=1)
def small_cases() -> pd.DataFrame:
    """Compute KTU, its label-free alternative, tau on the intersection and RBO on small hand-made rankings.

    Computed once per process (the chapter's numbers, its table and the fidelity table read them).

    Returns
    -------
    pandas.DataFrame
        Columns: ``original``, ``replicated``, ``KTU`` (the paper's Kendall's tau Union, as the
        authors' code computes it), ``KTU printed`` (the paper's value for its two examples),
        ``tau-b union tied`` (label-independent: unretrieved documents tied below the cut-off),
        ``tau intersection``, ``RBO ext`` (Webber et al.'s extrapolated RBO, p = 0.8, on the whole
        lists) and ``RBO sigir2020`` (the published files' convention: RBO ext at depth k on the top
        k - 1 documents, here k = list length).
    """
    rows = []
    for case, original, replicated, printed in SMALL_CASES:
        x, y = original.split(), replicated.split()
        k = max(len(x), len(y))
        rows.append(
            {
                "case": case,
                "original": original,
                "replicated": replicated,
                "KTU": float(ranking.kendall_tau_union(x, y, depth=k).iloc[0]),
                "KTU printed": printed,
                "tau-b union tied": float(ranking.kendall_tau_union_tied(x, y, depth=k).iloc[0]),
                "tau intersection": float(ranking.kendall_tau_intersection(x, y, depth=k).iloc[0]),
                "RBO ext": float(ranking.rbo(x, y, p=RBO_P, depth=k, variant="ext").iloc[0]),
                "RBO sigir2020": float(ranking.rbo(x, y, p=RBO_P, depth=k, variant="sigir2020").iloc[0]),
            }
        )
    return pd.DataFrame(rows).set_index("case")


def _attainable_rbo(length: int, *, depth: int, variant: str, decimals: int) -> set[float]:
    """Every RBO value (p = 0.8) two rankings of ``length`` distinct documents can have."""
    universe = [f"d{i:02d}" for i in range(2 * length)]
    choices = list(itertools.permutations(range(2 * length), length))  # all overlap patterns
    topics = np.repeat(np.arange(len(choices)).astype(str), length)
    ranks = np.tile(np.arange(1, length + 1), len(choices))
    original = pd.DataFrame({"query_id": topics, "doc_id": np.tile(universe[:length], len(choices)), "rank": ranks})
    replicated = pd.DataFrame(
        {"query_id": topics, "doc_id": [universe[i] for choice in choices for i in choice], "rank": ranks}
    )
    values = ranking.rbo(original, replicated, p=RBO_P, depth=depth, variant=variant)
    return set(np.round(values.to_numpy(), decimals))


@cached(maxsize=4)
def rbo_depth_convention(cutoff: int = 5, *, decimals: int = 9) -> pd.DataFrame:
    """Tell which RBO convention the published ``rbo_<cutoff>_p08`` files follow, by numerical signature.

    Enumerated once per process and arguments (the chapter's numbers and its table read it).

    The ranked lists of the 200 runs are not public, so RBO cannot be recomputed; but at a small
    cut-off every RBO value two rankings can have is enumerable. Only a convention that attains all
    the published values can be the one the authors used.

    Parameters
    ----------
    cutoff : int, default 5
        The cut-off of the published files read.
    decimals : int, default 9
        The published values are compared rounded to this many decimals.

    Returns
    -------
    pandas.DataFrame
        For each convention: how many of the distinct published per-topic values (both systems) are
        attainable at all.
    """
    published_values: set[float] = set()
    for system in SYSTEMS:
        values = per_topic("rpl", system, f"rbo_{cutoff}_p08").to_numpy().ravel()
        published_values |= set(np.round(values, decimals))
    conventions = {
        f"RBO ext on the top {cutoff - 1} (variant 'sigir2020')": (cutoff - 1, "sigir2020"),
        f"RBO ext on the top {cutoff}": (cutoff, "ext"),
        f"RBO min (lower bound) on the top {cutoff}": (cutoff, "min"),
        f"normalised truncated RBO on the top {cutoff}": (cutoff, "trunc"),
    }
    rows = []
    for name, (length, variant) in conventions.items():
        attainable = _attainable_rbo(length, depth=cutoff, variant=variant, decimals=decimals)
        rows.append(
            {
                "convention": name,
                "attainable values": len(attainable),
                "published distinct values": len(published_values),
                "published values attainable": len(published_values & attainable),
            }
        )
    return pd.DataFrame(rows).set_index("convention")


def ndcg_cutoff_check() -> pd.DataFrame:
    """Tell which nDCG cut-off is the paper's "nDCG": ARP of WCrobust0405 at every published cut-off vs the print.

    Appendix Table 1 prints ARP nDCG 0.6956 for the original WCrobust0405 and 0.6859 for
    rpl_wcr0405_tf_1.

    Returns
    -------
    pandas.DataFrame
        One row per cut-off; columns ``<run>:printed`` and ``<run>:reproduced`` per run, and
        ``matches both``.
    """
    printed = published.appendix_table1()["ARP:nDCG"]
    rows = []
    for cutoff in CUTOFFS:
        original, replicated = replicated_runs(ADVANCED, f"ndcg{cutoff}", ids=(45,))
        row = {"cut-off": cutoff}
        for run, value in ((ADVANCED, scores.arp(original)), ("rpl_wcr0405_tf_1", scores.arp(replicated[45]))):
            row[f"{run}:printed"] = printed[run]
            row[f"{run}:reproduced"] = value
        row["matches both"] = all(
            round(row[f"{run}:reproduced"], 4) == float(printed[run]) for run in (ADVANCED, "rpl_wcr0405_tf_1")
        )
        rows.append(row)
    return pd.DataFrame(rows).set_index("cut-off")
