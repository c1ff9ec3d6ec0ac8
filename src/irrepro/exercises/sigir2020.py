"""Exercises of the chapter "How to measure reproducibility" (Breuer et al., SIGIR 2020).

Besides the exercises, two helpers spell out the by-hand computations step by step, in plain
Python and straight from the definitions, so that a solution can show every step and a test can
hold them against the package's vectorised measures (:mod:`irrepro.reproducibility.ranking`):

- :func:`ktu_by_hand`: Kendall's tau Union as the paper defines it (Section 3.1): order the union
  of the two rankings by docno, replace every document by its position in that union, and count
  the concordant (P) and discordant (Q) pairs of positions;
  ``tau = (P - Q) / sqrt((P + Q + U) (P + Q + V))`` (no ties here, U = V = 0).
- :func:`rbo_by_hand`: rank-biased overlap, extrapolated (Webber et al. 2010, Eq. 32) for two lists
  of equal length k: ``RBO = (1 - p) sum_{d<=k} p^(d-1) A_d + A_k p^k`` with ``A_d = X_d / d`` the
  share of documents the two top-d lists have in common; the last term assumes the agreement
  stays at ``A_k`` below depth k.

:func:`predicted_after_swap` predicts, per topic, what swapping the documents at ranks k and k+1
does to KTU and RBO, and :func:`swap_explained` sets the prediction beside the measurement.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from irrepro.exercises.registry import exercise
from irrepro.memo import cached

__all__ = [
    "CHAPTER", "ORIGINAL", "REPLICATED", "RBO_P", "SWAP_RUN", "SWAP_RANKS", "SWAP_DEPTH",
    "ktu_by_hand", "rbo_by_hand", "ktu_and_rbo_by_hand", "predicted_after_swap", "swap_at_rank_k",
    "swap_explained", "drop_a_topic", "add_ties", "best_constellation",
]

CHAPTER = "measuring_reproducibility"
ORIGINAL = ("d1", "d2", "d3", "d4", "d5")
REPLICATED = ("d2", "d1", "d3", "d6", "d4")
RBO_P = 0.8
SWAP_RUN = "runs/robust04_bm25_rm3.run"
SWAP_RANKS = (1, 10, 100)
SWAP_DEPTH = 1000


def ktu_by_hand(original: Sequence[str], replicated: Sequence[str]) -> tuple[pd.DataFrame, float]:
    """Compute Kendall's tau Union of two equally long rankings, one row per pair of rank positions.

    Parameters
    ----------
    original, replicated : sequence of str
        The two rankings' docnos, in rank order, of one length.

    Returns
    -------
    pairs : pandas.DataFrame
        The documents at positions i < j of each ranking, their positions in the docno-ordered
        union, concordant or discordant.
    tau : float
        KTU.

    Raises
    ------
    ValueError
        If the rankings differ in length.
    """
    if len(original) != len(replicated):
        raise ValueError("ktu_by_hand compares two rankings of the same length")
    union = sorted(set(original) | set(replicated))
    position = {doc: union.index(doc) + 1 for doc in union}
    rows = []
    for i in range(len(original)):
        for j in range(i + 1, len(original)):
            x = (position[original[i]], position[original[j]])
            y = (position[replicated[i]], position[replicated[j]])
            same_order = (x[0] - x[1]) * (y[0] - y[1]) > 0
            rows.append(
                {
                    "ranks": f"{i + 1},{j + 1}",
                    "original": f"{original[i]},{original[j]}",
                    "replicated": f"{replicated[i]},{replicated[j]}",
                    "union positions (original)": f"{x[0]},{x[1]}",
                    "union positions (replicated)": f"{y[0]},{y[1]}",
                    "pair": "concordant" if same_order else "discordant",
                }
            )
    pairs = pd.DataFrame(rows).set_index("ranks")
    concordant = int((pairs["pair"] == "concordant").sum())
    discordant = len(pairs) - concordant
    return pairs, (concordant - discordant) / math.sqrt((concordant + discordant) ** 2)


def rbo_by_hand(original: Sequence[str], replicated: Sequence[str], *, p: float = RBO_P) -> tuple[pd.DataFrame, float]:
    """Compute extrapolated RBO of two equally long rankings, one row per depth d.

    Parameters
    ----------
    original, replicated : sequence of str
        The two rankings' docnos, in rank order, of one length.
    p : float, default RBO_P
        The persistence.

    Returns
    -------
    terms : pandas.DataFrame
        Columns: the documents shared by the two top-d lists, ``X_d``, ``A_d = X_d / d``, the weight
        ``(1 - p) p^(d-1)`` and the term ``(1 - p) p^(d-1) A_d``.
    rbo : float
        ``RBO = sum of the terms + A_k p^k``.

    Raises
    ------
    ValueError
        If the rankings differ in length.
    """
    if len(original) != len(replicated):
        raise ValueError("rbo_by_hand compares two rankings of the same length")
    rows = []
    for d in range(1, len(original) + 1):
        shared = sorted(set(original[:d]) & set(replicated[:d]))
        agreement = len(shared) / d
        weight = (1 - p) * p ** (d - 1)
        rows.append({"d": d, "shared": " ".join(shared), "X_d": len(shared), "A_d": agreement, "weight": weight, "term": weight * agreement})
    depths = pd.DataFrame(rows).set_index("d")
    k = len(original)
    return depths, float(depths["term"].sum() + depths["A_d"].iat[-1] * p**k)


@exercise(
    "sigir2020-ktu-by-hand",
    chapter=CHAPTER,
    title="KTU and RBO of two five-document rankings, by hand",
    kind="by hand",
    tolerance=5e-3,
    hint=(
        "KTU: order the union of the two rankings by docno, write each ranking as the positions of its "
        "documents in that union, and count concordant (P) and discordant (Q) pairs among the 10 pairs of "
        "ranks: tau = (P - Q) / (P + Q). RBO: for d = 1..5 count X_d, the documents the two top-d lists "
        "share; RBO = (1 - p) * sum_d p^(d-1) X_d / d + (X_5 / 5) p^5 with p = 0.8."
    ),
)
def ktu_and_rbo_by_hand() -> dict[str, float]:
    """Compute KTU and extrapolated RBO (p = 0.8) of :data:`ORIGINAL` and :data:`REPLICATED`, by the package.

    Returns
    -------
    dict of str -> float
        ``KTU`` and ``RBO``.
    """
    from irrepro.reproducibility.ranking import kendall_tau_union, rbo

    depth = len(ORIGINAL)
    return {
        "KTU": float(kendall_tau_union(list(ORIGINAL), list(REPLICATED), depth=depth).iloc[0]),
        "RBO": float(rbo(list(ORIGINAL), list(REPLICATED), p=RBO_P, depth=depth, variant="ext").iloc[0]),
    }


def predicted_after_swap(run: pd.DataFrame, k: int, *, depth: int = SWAP_DEPTH, p: float = RBO_P) -> pd.DataFrame:
    """Predict per topic KTU and RBO of ``run`` against itself with ranks k and k+1 swapped, from a formula.

    RBO: only the top-k lists differ (they share k - 1 documents instead of k), so
    ``RBO = 1 - (1 - p) p^(k-1) / k`` in every topic with more than k documents.
    KTU compares *positions in the docno-ordered union*, not the documents' ranks: beyond the
    swapped pair itself, the pairs (k, j) and (k+1, j) change order for every document j whose
    docno lies between the two swapped docnos. With m such documents among the n of the topic,
    Q = 1 + 2m pairs are discordant and ``KTU = 1 - 2 Q / (n (n - 1) / 2)``: it depends on the
    documents' names and hardly on k.

    Parameters
    ----------
    run : pandas.DataFrame
        A run frame.
    k : int
        The rank swapped with k+1.
    depth : int, default SWAP_DEPTH
        The depth of the lists compared.
    p : float, default RBO_P
        RBO's persistence.

    Returns
    -------
    pandas.DataFrame
        Columns ``n``, ``m``, ``KTU``, ``RBO``; one row per topic with more than k documents.
    """
    top = run.loc[run["rank"] <= depth, ["query_id", "doc_id", "rank"]]
    pair = top.loc[top["rank"].isin([k, k + 1])].pivot(index="query_id", columns="rank", values="doc_id").dropna()
    low = pair.min(axis=1).rename("low")
    high = pair.max(axis=1).rename("high")
    bounds = top.join(pd.concat([low, high], axis=1), on="query_id", how="inner")
    between = (bounds["doc_id"] > bounds["low"]) & (bounds["doc_id"] < bounds["high"])
    table = pd.DataFrame({"n": bounds.groupby("query_id").size(), "m": between.groupby(bounds["query_id"]).sum()})
    pairs = table["n"] * (table["n"] - 1) / 2
    table["KTU"] = 1 - 2 * (1 + 2 * table["m"]) / pairs
    table["RBO"] = 1 - (1 - p) * p ** (k - 1) / k
    return table


@exercise(
    "sigir2020-swap-at-rank-k",
    chapter=CHAPTER,
    title="Predict, then check: swap two documents at rank k",
    kind="predict-then-check",
    tolerance=1e-6,
    hint=(
        "KTU compares positions in the docno-ordered union, RBO the overlap of the top-d lists weighted by "
        "p^d: ask which pairs, and which depths, the swap changes. Then build each perturbed run with "
        "irrepro.exercises.perturb.swap_at_rank(run, k) and compare it with "
        "the unchanged run: kendall_tau_union(run, swapped, depth=1000) and rbo(run, swapped, p=0.8, "
        "depth=1000) from irrepro.reproducibility.ranking give one value per topic; take the mean over "
        "topics. Answer a DataFrame with index k = 1, 10, 100 and columns KTU and RBO."
    ),
)
@cached(maxsize=1)
def swap_at_rank_k() -> pd.DataFrame:
    """Measure mean KTU and RBO (depth 1000, p = 0.8) of BM25+RM3 on Robust04 against itself with ranks k, k+1 swapped.

    Measured once per process (the exercise's solution and :func:`swap_explained` read it).

    Returns
    -------
    pandas.DataFrame
        Index k = 1, 10, 100; columns ``KTU`` and ``RBO``.
    """
    from irrepro.data import fetch
    from irrepro.exercises.perturb import swap_at_rank
    from irrepro.reproducibility.ranking import ranking_measures
    from irrepro.runs import read_run

    run = read_run(fetch(SWAP_RUN))
    swapped = {f"k={k}": swap_at_rank(run, k) for k in SWAP_RANKS}
    # one coding pass for the three perturbed runs: the same kernels as kendall_tau_union and rbo
    measures = ranking_measures(run, swapped, depth=SWAP_DEPTH, rbo_p=RBO_P, rbo_variant="ext", measures=("KTU", "RBO"))
    table = pd.DataFrame({name: values.mean() for name, values in measures.items()})
    table.index = pd.Index(list(SWAP_RANKS), name="k")
    return table


def swap_explained() -> pd.DataFrame:
    """Set the swap exercise's measurement next to :func:`predicted_after_swap`'s formula, means over topics.

    Returns
    -------
    pandas.DataFrame
        Index k; columns ``documents between`` (mean m: documents whose docno lies between the two
        swapped ones), ``KTU predicted``, ``KTU measured``, ``RBO predicted``, ``RBO measured``.
    """
    from irrepro.data import fetch
    from irrepro.runs import read_run

    run = read_run(fetch(SWAP_RUN))
    measured = swap_at_rank_k()
    rows = {}
    for k in SWAP_RANKS:
        predicted = predicted_after_swap(run, k).mean()
        rows[k] = {
            "documents between": predicted["m"],
            "KTU predicted": predicted["KTU"],
            "KTU measured": measured.loc[k, "KTU"],
            "RBO predicted": predicted["RBO"],
            "RBO measured": measured.loc[k, "RBO"],
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("k")


DROP_PAIR = "tf_1"


@exercise(
    "sigir2020-drop-a-topic",
    chapter=CHAPTER,
    title="Predict, then check: drop the topic that helps most",
    kind="predict-then-check",
    tolerance=1e-6,
    hint=(
        "paper.pair_scores('rpd', 'ap', [k]) gives, by role, the original baseline and advanced AP (Core17) "
        "and the reproduced ones (Core18) of constellation k (tf_1 is 45). The reproduced improvement per "
        "topic is new_advanced minus new_baseline; drop its largest topic from both reproduced runs and "
        "recompute irrepro.reproducibility.scores.effect_ratio(orig_baseline=..., orig_advanced=..., "
        "new_baseline=..., new_advanced=..., paired=False) and delta_relative_improvement (same keywords)."
    ),
)
def drop_a_topic() -> dict[str, object]:
    """Compute ER and DeltaRI (AP) of the reproduced pair tf_1 with all Core18 topics and without one.

    The topic left out is the one of the largest reproduced improvement (WCrobust0405 over
    WCrobust04).

    Returns
    -------
    dict of str -> object
        ``topic`` (the one dropped), ``ER all``, ``DeltaRI all``, ``ER without`` and
        ``DeltaRI without``.
    """
    from irrepro.papers.sigir2020 import pair_scores
    from irrepro.reproducibility import scores
    from irrepro.routing.constellations import PRINTED

    k = next(c.constellation_id for c in PRINTED if c.name == DROP_PAIR)
    pair = pair_scores("rpd", "ap", [k])
    new_advanced, new_baseline = pair["new_advanced"][k], pair["new_baseline"][k]
    topic = str((new_advanced - new_baseline).idxmax())
    answer: dict[str, object] = {"topic": topic}
    for label, keep in (("all", new_advanced.index), ("without", new_advanced.index.drop(topic))):
        runs = {**pair, "new_baseline": new_baseline.loc[keep], "new_advanced": new_advanced.loc[keep]}
        answer[f"ER {label}"] = float(scores.effect_ratio(**runs, paired=False))
        answer[f"DeltaRI {label}"] = float(scores.delta_relative_improvement(**runs))
    return answer


TIE_WIDTH = 3


@exercise(
    "sigir2020-add-ties",
    chapter=CHAPTER,
    title="Predict, then check: add ties at rank k",
    kind="predict-then-check",
    tolerance=1e-6,
    hint=(
        "irrepro.exercises.perturb.tie_at_rank(run, k, width=3) gives the documents at ranks k..k+2 the score "
        "of rank k; trec_eval then orders them by docno (descending). Compare each perturbed run with the "
        "unchanged one: kendall_tau_union and rbo (p=0.8, depth=1000) of irrepro.reproducibility.ranking, "
        "means over topics. Answer a DataFrame with index k = 1, 10, 100 and columns KTU and RBO."
    ),
)
def add_ties() -> pd.DataFrame:
    """Measure mean KTU and RBO (depth 1000, p = 0.8) of BM25+RM3 on Robust04 against itself with ranks k..k+2 tied.

    Returns
    -------
    pandas.DataFrame
        Index k = 1, 10, 100; columns ``KTU`` and ``RBO``.
    """
    from irrepro.data import fetch
    from irrepro.exercises.perturb import tie_at_rank
    from irrepro.reproducibility.ranking import ranking_measures
    from irrepro.runs import read_run

    run = read_run(fetch(SWAP_RUN))
    tied = {f"k={k}": tie_at_rank(run, k, width=TIE_WIDTH) for k in SWAP_RANKS}
    measures = ranking_measures(run, tied, depth=SWAP_DEPTH, rbo_p=RBO_P, rbo_variant="ext", measures=("KTU", "RBO"))
    table = pd.DataFrame({name: values.mean() for name, values in measures.items()})
    table.index = pd.Index(list(SWAP_RANKS), name="k")
    return table


#: The levels of the interpretation exercise: (column of the table, best is "max"/"min"/"closest to 1").
BEST_LEVELS: dict[str, tuple[str, str]] = {
    "ranked lists": ("RBO", "max"),
    "per-topic scores": ("RMSE:AP", "min"),
    "averages": ("p:AP", "max"),
    "effect": ("ER:AP", "closest to 1"),
}


def _best(values: pd.Series, rule: str) -> str:
    if rule == "max":
        return str(values.idxmax())
    if rule == "min":
        return str(values.idxmin())
    return str((values - 1).abs().idxmin())


@exercise(
    "sigir2020-best-constellation",
    chapter=CHAPTER,
    title="Which constellation is replicated best, on which level?",
    kind="interpretation",
    tolerance=0,
    hint=(
        "Use the chapter's tables: paper.replicability_table('WCrobust04') (RBO, RMSE:AP, p:AP of the 20 "
        "printed runs) and paper.effect_ratio_table('rpl') (ER:AP of the pairs). Name each constellation by "
        "its suffix, e.g. 'tf_1'. Highest RBO, lowest RMSE of AP, highest p-value of AP, ER of AP closest to 1."
    ),
)
def best_constellation() -> dict[str, str]:
    """Name the printed constellation replicated best at each level (WCrobust04; ER: the pair), by suffix.

    Returns
    -------
    dict of str -> str
        Level -> the constellation's suffix (``"tf_1"``).
    """
    from irrepro.papers.sigir2020 import effect_ratio_table, replicability_table

    runs = replicability_table("WCrobust04").iloc[1:]
    runs.index = runs.index.str.removeprefix("rpl_wcr04_")
    pairs = effect_ratio_table("rpl", intervals=False)
    pairs.index = pairs.index.str.removeprefix("rpl_")
    answer = {}
    for level, (column, rule) in BEST_LEVELS.items():
        answer[level] = _best((pairs if column.startswith("ER") else runs)[column], rule)
    return answer
