"""The numbers and sentences of the GLM chapter's prose, computed: the data used and the outlier rule.

- :func:`data_sentence`: what the chapter runs on, for the book's introduction ("Robust 2004 and
  others" said exactly);
- :func:`outlier_rule_table` and :func:`outlier_rule_sentence`: the MAP < 0.01 rule is this book's,
  chosen because on NIST's official Core 2018 results it selects exactly the eight runs the paper
  removes (the paper gives neither a threshold nor the runs);
- :func:`chapter_numbers`: every number the chapter's text states, with where it comes from.
"""

from __future__ import annotations

import posixpath

import pandas as pd

from irrepro.glm.outliers import NEAR_ZERO_MAP, near_zero_systems
from irrepro.papers import datasets
from irrepro.papers.glm.claim_checks import consistency_verdict, outlier_gap, verdict_table
from irrepro.papers.glm.data_groups import NIST_CORE18, ROBUST04, SUBSTITUTES
from irrepro.papers.glm.models import CONSISTENCY_SEED, CONSISTENCY_SPLITS
from irrepro.papers.glm.scores import (
    boundary_dropped,
    data_used,
    load_scores,
    official_summary,
    outlier_systems,
    settings,
)

__all__ = [
    "DATA_LABEL",
    "OUTLIER_QUOTES",
    "data_sentence",
    "outlier_rule_table",
    "outlier_rule_sentence",
    "chapter_numbers",
    "consistency_summary",
    "verdict_summary",
]

#: What the chapter's tables ran on, as their captions say it.
DATA_LABEL = (
    "per-topic scores of the TREC 2004 Robust runs and of the SIGIR 2020 Core17/Core18 runs "
    "(see the data table)"
)


#: What the paper itself says about outliers, word for word (Sections 2 and 3; checked against its text).
OUTLIER_QUOTES: dict[str, str] = {
    "Section 2": "It is therefore advisable to remove outliers with close-to-zero expected performance.",
    "Section 3": "Systems mean performance is very close to 0 can challenge the log-based links. Since this happens "
    "in the case of Core 18, we also consider a second version of it, where we remove eight outlier runs, "
    "performing extremely low in terms of MAP.",
}


def _files_named(collection: str) -> str:
    """The files of ``collection`` as few words: the file names, or their common folder when there are many."""
    files = data_used().set_index("collection").loc[collection, "files"].split()
    return ", ".join(files) if len(files) <= 2 else f"the {len(files)} files under {posixpath.commonpath(files)}/"


def _removed(collection: str) -> str:
    runs = outlier_systems(collection)
    return f"{len(runs)} ({', '.join(runs)})" if runs else "none"


def _dropped_topics() -> str:
    dropped = [
        f"{collection} {measure}: topic {', '.join(topics)}"
        for collection, measure, removed in settings() if not removed
        for topics in [boundary_dropped(collection, measure)[0]] if topics
    ]  # fmt: skip
    return "; ".join(dropped) or "none"


def data_sentence() -> str:
    """Name exactly the data of the GLM chapter in one sentence.

    Collections, files, topics x runs, measures, and what is removed (the outliers of
    :func:`outlier_systems`, the topics of :func:`boundary_dropped`). For the book's introduction,
    where it replaces "Robust 2004 and others"; the numbers come from :func:`data_used`, so
    sentence, data table and CSV files cannot disagree.

    Returns
    -------
    str
        The sentence.
    """
    used = data_used().set_index("collection")

    def shape(collection: str) -> str:
        row = used.loc[collection]
        return f"{row['topics']} topics x {row['runs']} runs; {row['measures']}; {_files_named(collection)}"

    return (
        f"The GLM chapter fits per-topic scores of the runs submitted to TREC 2004 Robust, the paper's own "
        f"collection ({shape('Robust04')}), and, as substitutes for the paper's TREC 2018 Core submissions (whose "
        f"per-topic scores are not public), the SIGIR 2020 authors' matrices of reproductions of WCrobust04 and "
        f"WCrobust0405 on Core 2018 ({shape('Core18')}) and of the two runs and their replications on Core 2017 "
        f"({shape('Core17')}). Removed: runs with a MAP below {NEAR_ZERO_MAP:g}, a rule of this book, in a second "
        f"version of each collection that has any (Robust04: {_removed('Robust04')}; Core18: {_removed('Core18')}; "
        f"Core17: {_removed('Core17')}), and before every fit the topics where all runs score 0 (or all 1) "
        f"({_dropped_topics()}). NIST's official MAPs of the {len(official_summary('Core18'))} Core 2018 submissions "
        f"({datasets.NIST_SUMMARIES.file(collection='core18')}) are read only to check the outlier rule."
    )


def outlier_rule_table() -> pd.DataFrame:
    """List NIST's official Core18 runs by increasing MAP.

    Returns
    -------
    pandas.DataFrame
        ``rank``, ``run``, ``map``, ``outlier`` (MAP < 0.01).
    """
    maps = official_summary("Core18")["map"].sort_values(kind="stable")
    outliers = set(near_zero_systems(maps))
    return pd.DataFrame(
        {"rank": range(1, len(maps) + 1), "run": maps.index, "map": maps.to_numpy(),
         "outlier": [run in outliers for run in maps.index]}
    )  # fmt: skip


def outlier_rule_sentence() -> str:
    """Say where the outlier rule comes from and what it removes, with the computed numbers.

    Returns
    -------
    str
        The sentence.
    """
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
    """Compute every number of the chapter's prose.

    Returns
    -------
    pandas.DataFrame
        ``name``, ``value``, ``source`` (the function or file it comes from).
    """
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
    """Sum up the split-half setup and the active disagreements, with the verdict sentences.

    Over every setting and link of :func:`~irrepro.papers.glm.models.consistency_table`, and the
    verdict sentences of :func:`consistency_verdict`.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`~irrepro.papers.glm.models.consistency_table`.

    Returns
    -------
    dict of str -> object
        Name -> number or text, for glue.
    """
    return {
        "splits": int(table["splits"].max()),
        "seed": CONSISTENCY_SEED,
        "active_disagreements": float(table["active_disagreements"].sum()),
        "verdict": consistency_verdict(table),
    }


def verdict_summary(verdicts: pd.DataFrame | None = None) -> dict[str, object]:
    """Count the verdicts of :func:`verdict_table` per data group, for the chapter's prose.

    Parameters
    ----------
    verdicts : pandas.DataFrame, optional
        :func:`verdict_table`; default: computed now.

    Returns
    -------
    dict of str -> object
        Keys ``<group>_tested``, ``<group>_holds``, ``<group>_fails``, ``<group>_untestable``
        (claims tested on the group, holding, not holding, not testable there) for ``robust04``,
        ``substitutes`` and ``nist_core18``, ``<group>_failing`` (the ids of the claims that do not
        hold there, or "none"), and ``differ`` (the claims whose verdicts on Robust04 and on the
        substitutes differ, by id, in table order; "none" if none).
    """
    verdicts = verdict_table() if verdicts is None else verdicts
    summary: dict[str, object] = {}
    for group in (ROBUST04, SUBSTITUTES, NIST_CORE18):
        column = verdicts[group.name]
        key = group.key.replace("-", "_")
        summary[f"{key}_tested"] = int((column != "not tested").sum())
        summary[f"{key}_holds"] = int((column == "holds").sum())
        summary[f"{key}_fails"] = int((column == "does not hold").sum())
        summary[f"{key}_untestable"] = int((column == "cannot be tested here").sum())
        summary[f"{key}_failing"] = ", ".join(verdicts.loc[column == "does not hold", "claim"]) or "none"
    both = verdicts[(verdicts[ROBUST04.name] != "not tested") & (verdicts[SUBSTITUTES.name] != "not tested")]
    differ = both.loc[both[ROBUST04.name] != both[SUBSTITUTES.name], "claim"]
    summary["differ"] = ", ".join(differ) or "none"
    return summary
