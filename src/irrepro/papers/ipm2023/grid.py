"""The reproducibility measures under controlled deterioration of a real run (Maistro et al., IP&M 2023).

Maistro, Breuer, Schaer and Ferro (*An in-depth investigation on the behaviour of measures to quantify
reproducibility*, Information Processing & Management 60(3), 2023) make "reproduced" runs with a known
amount of error (:func:`irrepro.reproducibility.deterioration.deteriorate`: relevant documents of a
source interval of ranks swapped with non-relevant ones of a destination interval, or replaced by
unjudged fakes) and watch how the reproducibility measures respond. :func:`deterioration_grid` does
this on one run: every mode, amount and share of topics of :data:`GRID`, for :data:`SEEDS`, each
deteriorated run compared with the original by KTU, RBO, RMSE, nRMSE and the paired t-test's p-value
(AP, nDCG, P@10). :func:`trend_checks` reads the grid for the statements the chapter checks.

The paper's text is not among this book's sources; the statements come from the issue that asked for
the chapter and from the authors' public code, and the chapter says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from irrepro.evaluation import evaluate
from irrepro.memo import cached
from irrepro.reproducibility.deterioration import deteriorate
from irrepro.reproducibility.ranking import kendall_tau_union, rbo
from irrepro.reproducibility.scores import nrmse, paired_ttest, rmse

__all__ = ["Setting", "RUN_FILE", "QRELS_FILE", "DATA_LABEL", "robust04_inputs", "robust04_grid", "GRID", "SEEDS", "MEASURES", "DEPTH", "SOURCE", "DESTINATION", "STATISTICS",
           "deterioration_grid", "mean_over_seeds", "trend_checks"]

#: The effectiveness measures the per-topic scores are compared on.
MEASURES: tuple[str, ...] = ("AP", "nDCG", "P@10")
#: The depth of the ranked lists (KTU and RBO) and of the run evaluated: the top 100 of each topic.
DEPTH = 100
#: Source and destination intervals (1-based ranks): the top 10, and ranks 51-100.
SOURCE: tuple[int, int] = (1, 10)
DESTINATION: tuple[int, int] = (51, 100)
SEEDS: tuple[int, ...] = (0, 1, 2)


@dataclass(frozen=True)
class Setting:
    """One deterioration of the grid.

    Parameters
    ----------
    mode : str
        ``"worse"`` or ``"better"`` (:func:`~irrepro.reproducibility.deterioration.deteriorate`).
    swaps : int
        Swaps per topic.
    replacements : int
        Replacements per topic.
    topics_share : float
        The share of topics deteriorated.
    """

    mode: str
    swaps: int
    replacements: int
    topics_share: float


#: Modes x amounts (1, 2 or 4 swaps, or 4 replacements, per topic) x shares of topics.
GRID: tuple[Setting, ...] = tuple(
    Setting(mode, swaps, replacements, share)
    for mode in ("worse", "better")
    for swaps, replacements in ((1, 0), (2, 0), (4, 0), (0, 4))
    for share in (0.2, 0.6, 1.0)
)


def _top(run: pd.DataFrame, depth: int) -> pd.DataFrame:
    return run[run["rank"] <= depth].reset_index(drop=True)


def deterioration_grid(run: pd.DataFrame, qrels: pd.DataFrame, *, grid: tuple[Setting, ...] = GRID,
                       seeds: tuple[int, ...] = SEEDS, depth: int = DEPTH) -> pd.DataFrame:  # fmt: skip
    """Deteriorate ``run`` in every setting of ``grid`` for every seed and measure the result against it.

    The run is cut to its top ``depth`` documents per topic and to the topics ``qrels`` judges first;
    each deteriorated run is compared with that original: per measure of :data:`MEASURES`, ARP of
    both, RMSE, nRMSE and the paired t-test's p-value over the topics; KTU and RBO (p = 0.8, ``ext``)
    of the ranked lists, as their means over the topics.

    Parameters
    ----------
    run, qrels : pandas.DataFrame
        As :func:`irrepro.runs.read_run` and :func:`~irrepro.runs.read_qrels` give them.
    grid : tuple of Setting, default GRID
        The deteriorations.
    seeds : tuple of int, default SEEDS
        The seeds of each setting.
    depth : int, default DEPTH
        The documents kept per topic.

    Returns
    -------
    pandas.DataFrame
        One row per setting, seed and measure: ``mode``, ``swaps``, ``replacements``, ``amount``
        (swaps + replacements), ``topics share``, ``seed``, ``measure``, ``ARP original``, ``ARP``,
        ``RMSE``, ``nRMSE``, ``p``, ``KTU``, ``RBO``, ``topics changed``.
    """
    original = _top(run[run["query_id"].isin(set(qrels["query_id"]))], depth)
    base = evaluate({"original": original}, qrels, MEASURES)
    rows = []
    for setting in grid:
        for seed in seeds:
            result = deteriorate(original, qrels, mode=setting.mode, swaps=setting.swaps, replacements=setting.replacements,
                                 topics_share=setting.topics_share, source=SOURCE, destination=DESTINATION, seed=seed)  # fmt: skip
            new = result.run
            scores = evaluate({"new": new}, qrels, MEASURES)
            ktu = float(kendall_tau_union(original, new, depth=depth).mean())
            overlap = float(rbo(original, new, depth=depth).mean())
            changed = int((result.topics["swaps"] + result.topics["replacements"] > 0).sum())
            for measure in MEASURES:
                before, after = base[measure]["original"], scores[measure]["new"]
                rows.append({
                    "mode": setting.mode, "swaps": setting.swaps, "replacements": setting.replacements,
                    "amount": setting.swaps + setting.replacements, "topics share": setting.topics_share, "seed": seed,
                    "measure": measure, "ARP original": float(before.mean()), "ARP": float(after.mean()),
                    "RMSE": float(rmse(before, after)), "nRMSE": float(nrmse(before, after)),
                    "p": float(paired_ttest(before, after)), "KTU": ktu, "RBO": overlap, "topics changed": changed,
                })  # fmt: skip
    return pd.DataFrame(rows)


#: The data of the chapter: the registry's real Robust04 run and the official Robust04 qrels.
RUN_FILE, QRELS_FILE = "runs/robust04_bm25_rm3.run", "qrels/robust04.txt"
DATA_LABEL = f"{RUN_FILE} (Anserini BM25+RM3 on Robust04) and the official {QRELS_FILE}"


@cached(maxsize=1)
def robust04_inputs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read the chapter's run and qrels from the data registry (cached).

    Returns
    -------
    tuple of (pandas.DataFrame, pandas.DataFrame)
        The run and the qrels.
    """
    from irrepro import data
    from irrepro.runs import read_qrels, read_run

    return read_run(data.fetch(RUN_FILE), name="BM25+RM3"), read_qrels(data.fetch(QRELS_FILE))


@cached(maxsize=1)
def robust04_grid() -> pd.DataFrame:
    """Run :func:`deterioration_grid` on the chapter's data (cached).

    Returns
    -------
    pandas.DataFrame
        The grid.
    """
    return deterioration_grid(*robust04_inputs())


#: The statistics of a reproduction, each with the value a perfect one has.
STATISTICS: dict[str, float] = {"KTU": 1.0, "RBO": 1.0, "RMSE": 0.0, "nRMSE": 0.0, "p": 1.0}


def mean_over_seeds(grid: pd.DataFrame) -> pd.DataFrame:
    """Average every statistic of :func:`deterioration_grid` over the seeds.

    Parameters
    ----------
    grid : pandas.DataFrame
        The grid.

    Returns
    -------
    pandas.DataFrame
        One row per mode, swaps, replacements, share and measure.
    """
    keys = ["mode", "swaps", "replacements", "amount", "topics share", "measure"]
    return grid.groupby(keys, sort=False)[["ARP original", "ARP", *STATISTICS, "topics changed"]].mean().reset_index()


def trend_checks(grid: pd.DataFrame) -> pd.DataFrame:
    """Check the chapter's statements on the grid, each at full precision.

    - ``monotonic``: with more swaps per topic (1, 2, 4) every statistic moves away from a perfect
      reproduction (KTU and RBO down, RMSE and nRMSE up; the p-value is not required to), for every mode,
      share and measure, on the means over the seeds;
    - ``share``: with a larger share of topics changed, likewise;
    - ``measure-dependent``: the same deterioration gives different nRMSE for AP, nDCG and P@10 (largest
      over smallest above 1.25, our threshold) in most settings;
    - ``order-by-measure``: the order of the three measures by nRMSE is not the same in every setting.

    Parameters
    ----------
    grid : pandas.DataFrame
        :func:`deterioration_grid`.

    Returns
    -------
    pandas.DataFrame
        One row per statement: ``id``, ``statement``, ``source``, ``count`` (settings in which it holds),
        ``of`` (settings), ``holds``.
    """
    means = mean_over_seeds(grid)
    swaps = means[means["replacements"] == 0]
    moves = {"KTU": -1, "RBO": -1, "RMSE": 1, "nRMSE": 1}

    def steady(frame: pd.DataFrame, along: str) -> tuple[int, int]:
        held = total = 0
        for _, part in frame.groupby([c for c in ("mode", "topics share", "amount", "measure") if c != along]):
            ordered = part.sort_values(along)
            for statistic, sign in moves.items():
                total += 1
                held += bool((np.sign(np.diff(ordered[statistic].to_numpy())) == sign).all())
        return held, total

    by_amount, by_share = steady(swaps.drop(columns="amount").rename(columns={"swaps": "amount"}), "amount"), steady(swaps, "topics share")
    settings = means.groupby(["mode", "amount", "replacements", "topics share"], sort=False)
    spread = settings["nRMSE"].agg(lambda x: x.max() / x.min() if x.min() > 0 else np.inf)
    orders = settings.apply(lambda part: tuple(part.sort_values("nRMSE")["measure"]), include_groups=False)
    rows = [
        ("monotonic", "with more swaps per topic, KTU and RBO fall and RMSE and nRMSE rise", "this chapter", *by_amount),
        ("share", "with a larger share of topics deteriorated, KTU and RBO fall and RMSE and nRMSE rise", "this chapter", *by_share),
        ("measure-dependent", "one deterioration gives nRMSE differing by more than a quarter between AP, nDCG and P@10",
         "the issue's summary of Maistro et al.: a measure's response depends on the effectiveness measure",
         int((spread > 1.25).sum()), len(spread)),
        ("order-by-measure", "the order of AP, nDCG and P@10 by nRMSE changes between settings", "this chapter",
         len(set(orders)), len(orders)),
    ]  # fmt: skip
    table = pd.DataFrame(rows, columns=["id", "statement", "source", "count", "of"])
    table["holds"] = [
        count == of if name in ("monotonic", "share") else (count > of / 2 if name == "measure-dependent" else count > 1)
        for name, count, of in zip(table["id"], table["count"], table["of"], strict=True)
    ]
    return table
