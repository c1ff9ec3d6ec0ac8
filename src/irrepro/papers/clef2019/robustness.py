"""How often the CLEF 2019 chapter's claims hold when the topics are resampled (beyond the paper).

Two kinds of claim, each re-read on :data:`RESAMPLES` bootstrap replicates of its topics for each of
the :data:`SEEDS`, pooled (:mod:`~irrepro.papers.clef2019.claim_scores` says which topics are drawn
together; a seed's topic groups take seeds ``seed``, ``seed + 1``, ...):

- the paper's claims as the chapter checks them on the authors' published 2020 runs
  (:data:`~irrepro.papers.clef2019.claim_checks.CLAIMS`), re-read by :data:`CHECKS`;
- the paper's claims as the chapter's tables test them on the Reuters-21578 stand-in (relevance
  transfer, feature augmentation, preprocessing, enrichment, near against far target) and the
  chapter's own statements on its ``tol`` runs: :data:`STAND_IN_CLAIMS`, re-read by
  :data:`STAND_IN_CHECKS` (:mod:`~irrepro.papers.clef2019.stand_in_claims`). Their ``quote`` is the
  paper's words, or the chapter's where the statement is the chapter's own (section ``chapter 6``).

:func:`robustness_table` gives one row per claim (:mod:`irrepro.papers.robustness`): its verdict on
all topics, the share of the replicates in which it holds, stable, borderline or fragile, and the number
it turns on with its 95% percentile interval (the statistics are counts and means, whose bootstrap is
not biased: no recentring, see :mod:`irrepro.papers.sigir2020.resampling_design`); :func:`robustness_numbers` what the chapter's prose says of it.
"""

from __future__ import annotations

import pandas as pd

from irrepro.papers.clef2019.claim_scores import ClaimScores, Resampled, claim_scores
from irrepro.papers.clef2019.resampled_claims import CHECKS
from irrepro.papers.clef2019.routing_data import STAND_IN_DATA, RoutingData, data_or_stand_in, stand_in
from irrepro.papers.clef2019.stand_in_claims import STAND_IN_CHECKS, STAND_IN_CLAIMS
from irrepro.papers.robustness import BORDERLINE_MARGIN, INTERVAL_LEVEL, STABLE_SHARE

__all__ = [
    "RESAMPLES", "SEED", "SEEDS", "SECTION_TITLES", "CHECKS", "STAND_IN_CHECKS", "STAND_IN_CLAIMS", "chapter_scores",
    "robustness_table", "robustness_numbers",
]  # fmt: skip

#: Bootstrap replicates of the topics per seed, and the seeds of the first topic group (the others: seed + 1,
#: ...; the seeds lie apart so that no group of one seed is drawn as a group of another). SEED: the first.
RESAMPLES = 1000
SEEDS: tuple[int, ...] = (0, 100, 200, 300, 400)
SEED = SEEDS[0]
#: How the robustness figure titles the claims' sections: the paper's section and the data.
#: Their order is the table's and the figure's.
SECTION_TITLES: dict[str, str] = {
    "4.2": "2020 runs, Sec. 4.2",
    "4.3": "2020 runs, Sec. 4.3",
    "4.1 (stand-in)": "Stand-in, Sec. 4.1",
    "4.2 (stand-in)": "Stand-in, Sec. 4.2",
    "4.3 (stand-in)": "Stand-in, Sec. 4.3",
    "chapter 6 (stand-in)": "Stand-in, tol runs",
}


def _equal_targets(data: RoutingData) -> RoutingData | None:
    """The size-controlled stand-in for the stand-in; nothing for other data (it has no such variant)."""
    return stand_in(equal_targets=True) if data.label == STAND_IN_DATA else None


def chapter_scores(data: RoutingData | None = None) -> ClaimScores:
    """Read the per-topic scores of every claim (:func:`~irrepro.papers.clef2019.claim_scores.claim_scores`).

    From ``data``'s run cache and the published files.

    Parameters
    ----------
    data : RoutingData, optional
        The routing data; default: the stand-in, with its size-controlled variant.

    Returns
    -------
    ClaimScores
        The per-topic frames.
    """
    data = data_or_stand_in(data)
    return claim_scores(data, _equal_targets(data))


def robustness_table(data: RoutingData | None = None, *, n_resamples: int = RESAMPLES, seeds: tuple[int, ...] = SEEDS,
                     scores: ClaimScores | None = None) -> pd.DataFrame:  # fmt: skip
    """Check each claim on all topics and under topic resampling, by section (:data:`SECTION_TITLES`).

    Parameters
    ----------
    data : RoutingData, optional
        The routing data whose run cache holds the chapter's runs (default: the stand-in, with its
        size-controlled variant).
    n_resamples : int, default RESAMPLES
        The number of replicates per seed.
    seeds : tuple of int, default SEEDS
        The seeds of the resampling, pooled.
    scores : ClaimScores, optional
        The per-topic scores themselves, instead of reading them.

    Returns
    -------
    pandas.DataFrame
        One row per claim: :data:`~irrepro.papers.robustness.COLUMNS` with ``data`` (what the claim
        is tested on) after ``claim``.
    """
    scores = chapter_scores(data) if scores is None else scores
    on_all_topics = Resampled.all_topics(scores)
    replicates = [Resampled.draw(scores, n_resamples, seed) for seed in seeds]
    tables = []
    for checks in (CHECKS, STAND_IN_CHECKS):
        table = checks.table(on_all_topics, *replicates, level=INTERVAL_LEVEL)
        table.insert(4, "data", table["id"].map({entry.id: entry.data for entry in checks.claims}))
        tables.append(table)
    table = pd.concat(tables, ignore_index=True)
    order = table["section"].map(list(SECTION_TITLES).index)
    return table.iloc[order.argsort(kind="stable")].reset_index(drop=True)


def _listed(rows: pd.DataFrame) -> str:
    """Claims as "label (X%)", separated by semicolons; "none" when there is none."""
    return "; ".join(f"{row['label']} ({row['share holding']:.0%})" for _, row in rows.iterrows()) or "none"


def robustness_numbers(table: pd.DataFrame, scores: ClaimScores) -> dict[str, object]:
    """Compute what the chapter's prose says about :func:`robustness_table` (keys for glue).

    The topics drawn per group (``topics_<group>``; ``equal_drawn``: how the size-controlled
    stand-in is drawn), counts of claims by data (``published``: the 2020 runs; ``stand_in``: the
    stand-in and the ``tol`` runs), verdict on all topics and status, and the fragile ones listed
    with their shares.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`robustness_table`'s table.
    scores : ClaimScores
        The per-topic scores it was computed from.

    Returns
    -------
    dict of str -> object
        Name -> number or text.
    """
    seeds, pooled = int(table["seeds"].max()), int(table["resamples"].max())
    numbers: dict[str, object] = {"resamples": pooled // seeds, "pooled_resamples": pooled,
                                  "seed": SEED, "seeds": seeds, "seed_list": ", ".join(map(str, SEEDS[:seeds])),
                                  "stable_share": f"{STABLE_SHARE:.0%}", "level": f"{INTERVAL_LEVEL:.0%}",
                                  "borderline_margin": f"{BORDERLINE_MARGIN * 100:.0f}"}  # fmt: skip
    numbers.update({f"topics_{group.replace(' ', '_').replace('-', '_')}": len(topics) for group, topics in scores.topics.items()})
    together = scores.drawn_with.get("stand-in equal") == "stand-in"
    numbers["equal_drawn"] = "together with the stand-in's, among whose topics they are" if together else "on their own"
    published = table["id"].isin(CHECKS.ids())
    for key, part in (("published", table[published]), ("stand_in", table[~published])):
        holds, status = part["holds on all topics"], part["status"]
        stable, borderline, fragile = status == "stable", status == "borderline", status == "fragile"
        numbers.update({
            f"{key}_claims": len(part), f"{key}_holding": int(holds.sum()), f"{key}_failing": int((~holds).sum()),
            f"{key}_stable": int(stable.sum()), f"{key}_borderline": int(borderline.sum()), f"{key}_fragile": int(fragile.sum()),
            f"{key}_holding_stable": _listed(part[holds & stable]), f"{key}_holding_fragile": _listed(part[holds & fragile]),
            f"{key}_failing_fragile": _listed(part[~holds & fragile]), f"{key}_failing_stable": _listed(part[~holds & stable]),
            f"{key}_borderline_list": _listed(part[borderline]),
        })  # fmt: skip
    outside = (table["on all topics"] < table["low"]) | (table["on all topics"] > table["high"])
    numbers["outside_interval"] = int(outside.sum())
    numbers["outside_interval_list"] = ", ".join(table.loc[outside, "label"]) or "none"
    return numbers
