"""The published runs on the real collections, against a computation from the raw files."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.data import fetch
from irrepro.papers.clef2019 import published_runs


def _judged(name: str) -> set[str]:
    """Topics of a qrels file, read line by line (not through irrepro.runs)."""
    with open(fetch(f"qrels/{name}.txt"), encoding="utf-8") as lines:
        return {line.split()[0] for line in lines if line.strip()}


def _column(folder: str, prefix: str, system: str, part: str, run: str) -> pd.Series:
    frame = pd.read_csv(fetch(f"sigir2020/{folder}/{prefix}_{system}_{part}.csv"), dtype={"Row": str})
    return frame.set_index("Row")[run]


@pytest.fixture(scope="module")
def common() -> list[str]:
    return sorted(_judged("robust04") & _judged("robust05") & _judged("core17") & _judged("core18"), key=int)


def test_the_15_topics_are_judged_in_all_four_collections(common):
    assert published_runs.common_topics() == common and len(common) == 15


def test_topic_sets_have_the_papers_counts():
    counts = {s: [len(t) for t in published_runs.topic_sets(s).values()] for s in published_runs.SETTINGS}
    assert counts == {"replicability": [50, 33, 15], "reproducibility": [25, 15]}
    assert "= all four collections" in list(published_runs.topic_sets("reproducibility"))[1]


def test_15_topic_file_holds_constellation_1_ap(common):
    table = published_runs.published_runs_15_topics()
    assert list(table.columns) == ["setting", "topic", "WCrobust04", "WCrobust0405"]
    assert list(table["setting"].unique()) == ["replicability", "reproducibility"] and len(table) == 30
    for setting, folder, prefix in (("replicability", "measures", "rpl"), ("reproducibility", "measures_rpd", "rpd")):
        part = table[table["setting"] == setting].set_index("topic")
        assert list(part.index) == common
        for system in ("WCrobust04", "WCrobust0405"):
            expected = _column(folder, prefix, system.lower(), "ap", f"{prefix}_{system.lower()}_1").loc[common]
            assert part[system].to_numpy() == pytest.approx(expected.to_numpy(), abs=0)


def test_summary_means_against_the_raw_files(common):
    summary = published_runs.published_runs_summary()
    assert list(summary.columns) == ["setting", "topics", "system", "measure", "value"]
    topics33 = sorted(_judged("robust04") & _judged("robust05") & _judged("core17"), key=int)
    row = summary.query("setting == 'replicability' and topics == 33 and system == 'WCrobust0405' and measure == 'P@10'")
    assert row["value"].item() == pytest.approx(_column("measures", "rpl", "wcrobust0405", "p10", "WCrobust0405").loc[topics33].mean())
    row = summary.query("setting == 'reproducibility' and topics == 25 and system == 'rpd_wcrobust04_1' and measure == 'nDCG'")
    assert row["value"].item() == pytest.approx(_column("measures_rpd", "rpd", "wcrobust04", "ndcg1000", "rpd_wcrobust04_1").mean())
    row = summary.query("setting == 'replicability' and topics == 50 and system == 'WCrobust04' and measure == 'MAP'")
    assert round(row["value"].item(), 4) == 0.3711  # NIST's official MAP of the original run
    assert set(summary.query("setting == 'reproducibility'")["system"]) == {"rpd_wcrobust04_1", "rpd_wcrobust0405_1"}
    assert len(summary) == 3 * 4 * 3 + 2 * 2 * 3


def test_gains_count_the_topics_where_wcrobust0405_wins(common):
    gains = published_runs.published_gains().set_index("setting")
    for setting, folder, prefix in (("replicability", "measures", "rpl"), ("reproducibility", "measures_rpd", "rpd")):
        a = _column(folder, prefix, "wcrobust0405", "ap", f"{prefix}_wcrobust0405_1").loc[common]
        b = _column(folder, prefix, "wcrobust04", "ap", f"{prefix}_wcrobust04_1").loc[common]
        assert gains.loc[setting, "improved"] == int((a > b).sum())
    assert gains.loc["replicability", "improved"] == 14 and gains.loc["reproducibility", "improved"] == 11


def test_surviving_clef_numbers_are_set_against_the_2020_runs():
    table = published_runs.surviving_clef_numbers()
    assert list(table["CLEF 2019 (printed)"]) == [0.2963, 0.2924]
    assert list(table["2020 run"]) == ["rpl_wcrobust04_1", "rpl_wcrobust04_7"]
    expected = _column("measures", "rpl", "wcrobust04", "ap", "rpl_wcrobust04_7").mean()
    assert table["2020 re-implementation"].iloc[1] == pytest.approx(expected)
    assert (table["difference"] == table["2020 re-implementation"] - table["CLEF 2019 (printed)"]).all()


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="unknown setting"):
        published_runs.topic_sets("repeatability")
    with pytest.raises(ValueError, match="no published run"):
        published_runs.run_scores("reproducibility", "WCrobust04", "MAP")  # no original run on Core18
    with pytest.raises(ValueError, match="unknown collection"):
        published_runs.judged_topics("Core19")
