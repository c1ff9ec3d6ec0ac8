"""The deterioration grid on a tiny run whose outcome is known: no change at share 0, worse lowers AP, seeded."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.papers import ipm2023
from irrepro.papers.ipm2023 import Setting, deterioration_grid, mean_over_seeds, trend_checks


@pytest.fixture(scope="module")
def tiny() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Four topics of 100 documents; relevant: the top 5 of each, and ranks 60-64."""
    rows, judged = [], []
    for topic in ("1", "2", "3", "4"):
        for rank in range(1, 101):
            doc = f"d{topic}-{rank:03d}"
            rows.append({"query_id": topic, "doc_id": doc, "score": float(200 - rank), "rank": rank})
            judged.append({"query_id": topic, "doc_id": doc, "relevance": int(rank <= 5 or 60 <= rank <= 64)})
    return pd.DataFrame(rows), pd.DataFrame(judged)


GRID = (Setting("worse", 1, 0, 0.0), Setting("worse", 2, 0, 1.0), Setting("worse", 4, 0, 1.0), Setting("better", 2, 0, 1.0))


def test_share_zero_changes_nothing_and_worse_lowers_ap(tiny):
    grid = deterioration_grid(*tiny, grid=GRID, seeds=(0, 1))
    assert len(grid) == len(GRID) * 2 * len(ipm2023.MEASURES)
    untouched = grid[grid["topics share"] == 0.0]
    assert (untouched["KTU"] == 1.0).all() and (untouched["RMSE"] == 0.0).all() and (untouched["nRMSE"] == 0.0).all()
    assert (untouched["topics changed"] == 0).all()
    worse = grid[(grid["mode"] == "worse") & (grid["topics share"] == 1.0) & (grid["measure"] == "AP")]
    assert (worse["ARP"] < worse["ARP original"]).all() and (worse["topics changed"] == 4).all()
    better = grid[(grid["mode"] == "better") & (grid["measure"] == "AP")]
    assert (better["ARP"] > better["ARP original"]).all()  # top 10 has non-relevant 6-10, relevant in 51-100


def test_the_grid_is_seeded(tiny):
    first = deterioration_grid(*tiny, grid=GRID, seeds=(3,))
    pd.testing.assert_frame_equal(first, deterioration_grid(*tiny, grid=GRID, seeds=(3,)))


def test_more_swaps_move_every_statistic_away_from_a_perfect_reproduction(tiny):
    grid = deterioration_grid(*tiny, grid=GRID[1:3], seeds=(0,))
    means = mean_over_seeds(grid).set_index(["swaps", "measure"])
    for measure in ipm2023.MEASURES:
        assert means.at[(4, measure), "nRMSE"] > means.at[(2, measure), "nRMSE"]
    assert means.at[(4, "AP"), "KTU"] < means.at[(2, "AP"), "KTU"] and means.at[(4, "AP"), "RBO"] < means.at[(2, "AP"), "RBO"]
    checks = trend_checks(grid).set_index("id")
    assert checks.at["monotonic", "holds"] and checks.at["monotonic", "count"] == checks.at["monotonic", "of"]
    assert set(checks.columns) >= {"statement", "source", "count", "of", "holds"}
