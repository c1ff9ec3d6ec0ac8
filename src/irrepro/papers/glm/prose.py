"""The numbers and sentences of the GLM chapter's prose, computed: the data used and the outlier rule.

- :func:`data_sentence`: what the chapter runs on, for the book's introduction ("Robust 2004 and
  others" said exactly);
- :func:`outlier_rule_table` and :func:`outlier_rule_sentence`: the MAP < 0.01 rule is this book's,
  chosen because on NIST's official Core 2018 results it selects exactly the eight runs the paper
  removes (the paper gives neither a threshold nor the runs);
- :func:`chapter_numbers`: every number the chapter's text states, with where it comes from.
"""

from __future__ import annotations

import pandas as pd

from irrepro.glm.outliers import NEAR_ZERO_MAP, near_zero_systems
from irrepro.papers import datasets
from irrepro.papers.glm.claim_checks import consistency_verdict, outlier_gap
from irrepro.papers.glm.models import CONSISTENCY_SEED, CONSISTENCY_SPLITS
from irrepro.papers.glm.scores import (
    data_used,
    load_scores,
    official_summary,
    outlier_systems,
)

__all__ = [
    "DATA_LABEL",
    "data_sentence",
    "outlier_rule_table",
    "outlier_rule_sentence",
    "chapter_numbers",
    "consistency_summary",
]

#: What the chapter's tables ran on, as their captions say it.
DATA_LABEL = (
    "per-topic scores of the TREC 2004 Robust runs and of the SIGIR 2020 Core17/Core18 runs "
    "(see the data table)"
)


def data_sentence() -> str:
    """One sentence naming exactly the score matrices of the GLM chapter (collection, topics x runs, measures)."""
    used = data_used().set_index("collection")

    def shape(collection: str) -> str:
        row = used.loc[collection]
        return f"{row['topics']} topics x {row['runs']} runs; {row['measures']}"

    return (
        f"per-topic scores of the runs submitted to TREC 2004 Robust, the paper's collection ({shape('Robust04')}), "
        f"and, as substitutes for the paper's TREC 2018 Core submissions, the SIGIR 2020 matrices of reproductions on "
        f"Core 2018 ({shape('Core18')}) and of replications on Core 2017 ({shape('Core17')})"
    )


def outlier_rule_table() -> pd.DataFrame:
    """NIST's official Core18 runs by increasing MAP: ``rank``, ``run``, ``map``, ``outlier`` (MAP < 0.01)."""
    maps = official_summary("Core18")["map"].sort_values(kind="stable")
    outliers = set(near_zero_systems(maps))
    return pd.DataFrame(
        {"rank": range(1, len(maps) + 1), "run": maps.index, "map": maps.to_numpy(),
         "outlier": [run in outliers for run in maps.index]}
    )  # fmt: skip


def outlier_rule_sentence() -> str:
    """Where the outlier rule comes from and what it removes, with the computed numbers."""
    table = outlier_rule_table()
    selected = table[table["outlier"]]
    k, ratio = outlier_gap(table.set_index("run")["map"])
    removed = "; ".join(
        f"{collection}: {', '.join(runs) if runs else 'none'}" for collection in ("Robust04", "Core17", "Core18")
        for runs in [outlier_systems(collection)]
    )
    return (
        f"The threshold is ours, not the paper's: the paper removes from Core 2018 “eight outlier runs, performing "
        f"extremely low in terms of MAP” without naming them or a threshold. In NIST's official Core 2018 results, "
        f"exactly {len(selected)} of the {len(table)} runs have a MAP below {NEAR_ZERO_MAP:g} "
        f"({', '.join(sorted(selected['run']))}; MAP {selected['map'].min():.4f} to {selected['map'].max():.4f}); the "
        f"next lowest, {table['run'].iloc[k]}, has {table['map'].iloc[k]:.4f}, {ratio:.1f} times the "
        f"{k}th lowest. On the matrices of this chapter the rule removes {removed}."
    )


def chapter_numbers() -> pd.DataFrame:
    """Every number of the chapter's prose: ``name``, ``value``, ``source`` (the function or file it comes from)."""
    used = data_used().set_index("collection")
    core18_means = load_scores("Core18", "AP").mean()
    kept_low = int(((core18_means >= NEAR_ZERO_MAP) & (core18_means < 0.05)).sum())
    table = outlier_rule_table()
    rows = [
        *((f"{c} topics", int(used.loc[c, "topics"]), "data_used") for c in used.index),
        *((f"{c} runs", int(used.loc[c, "runs"]), "data_used") for c in used.index),
        ("Core 2018 submitted runs (NIST)", len(table), datasets.NIST_SUMMARIES.file(collection="core18")),
        ("Core 2018 topics (qrels)", datasets.TREC_QRELS.topics["Core18"], "datasets.TREC_QRELS"),
        ("outlier threshold (MAP)", NEAR_ZERO_MAP, "irrepro.glm.outliers.NEAR_ZERO_MAP"),
        ("Core 2018 runs below the threshold (NIST)", int(table["outlier"].sum()), "outlier_rule_table"),
        ("Core18 substitute runs with 0.01 <= MAP < 0.05 (kept)", kept_low, "load_scores('Core18', 'AP')"),
        ("split-halves per setting", CONSISTENCY_SPLITS, "models.CONSISTENCY_SPLITS"),
        ("split seed", CONSISTENCY_SEED, "models.CONSISTENCY_SEED"),
        ("Core18 topics per half", f"{int(used.loc['Core18', 'topics']) // 2}-{-(-int(used.loc['Core18', 'topics']) // 2)}",
         "irrepro.glm.consistency.split_halves"),
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["name", "value", "source"])


def consistency_summary(table: pd.DataFrame) -> dict[str, object]:
    """The split-half setup and the active disagreements over every setting and link of
    :func:`consistency_table`, and the verdict sentences of :func:`consistency_verdict`."""
    return {
        "splits": int(table["splits"].max()),
        "seed": CONSISTENCY_SEED,
        "active_disagreements": float(table["active_disagreements"].sum()),
        "verdict": consistency_verdict(table),
    }
