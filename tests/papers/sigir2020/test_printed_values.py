"""The values the paper prints, transcribed as in its text, and the reproduced ones beside them."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

from irrepro.papers import published, sigir2020
from irrepro.papers.claims import quote_occurs
from irrepro.papers.sigir2020.printed_values import TEXT_VALUES, text_value_counts, text_values_comparison

from .conftest import PRINTED, raw


@pytest.fixture(scope="module")
def comparison():
    return text_values_comparison().set_index("value")


def test_every_transcribed_value_is_the_papers_own_words(paper_texts):
    text = paper_texts["sigir2020"]
    assert len({value.name for value in TEXT_VALUES}) == len(TEXT_VALUES)
    for value in TEXT_VALUES:
        assert value.printed in value.quote and quote_occurs(value.quote, text), value.name
    typo = dataclasses.replace(TEXT_VALUES[1], printed="0.28", quote=TEXT_VALUES[1].quote.replace("0.29", "0.28"))
    assert not quote_occurs(typo.quote, text)  # a mistyped number is caught against the text copy


def _appendix_lines(text: str, first: str, last: str) -> dict[str, list[str]]:
    start = text.index(first)
    block = text[start : text.index(last, start)]
    lines = {}
    for line in block.splitlines():
        fields = line.replace("\U0001d438", "E").replace("\u2212", "-").split()
        if fields and (fields[0].startswith(("rpl_", "rpd_")) or fields[0] == "WCrobust0405"):
            lines[fields[0]] = fields[1:]
    return lines


def test_the_appendix_transcription_is_the_text_copys_cell_for_cell(paper_texts):
    text = paper_texts["sigir2020"]
    for printed, first, last in (
        (published.appendix_table1(), "Table 1: Replicability results", "Table 2: Reproducibility"),
        (published.appendix_table2(), "Table 2: Reproducibility", "<end>"),
    ):
        lines = _appendix_lines(text + "\n<end>", first, last)
        assert list(lines) == list(printed.index)
        for run, cells in printed.iterrows():
            assert lines[run] == cells.tolist(), run


def test_the_appendix_table3_transcription_is_the_text_copys_cell_for_cell(paper_texts):
    text = paper_texts["sigir2020"]
    block = text[text.index("Table 3, as text") :]
    lines = {}
    for line in block.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].strip().split("_")[0] in ("tf", "df", "tol", "C"):
            lines[parts[0].strip()] = parts[1].split() + parts[2].split()
    printed = published.appendix_table3()
    assert list(lines) == list(printed.index) and sum(map(len, lines.values())) == 120
    for run, cells in printed.iterrows():
        assert lines[run] == cells.tolist(), run


def _unpaired_p(system: str, part: str, run_id: int) -> float:
    original = raw(f"sigir2020/measures_rpd/org_{system}_{part}.csv").iloc[:, 0]
    reproduced = raw(f"sigir2020/measures_rpd/rpd_{system}_{part}.csv")[f"rpd_{system}_{run_id}"]
    return float(stats.ttest_ind(original, reproduced).pvalue)


def test_table3_highest_p_recomputed_from_the_raw_files(comparison):
    highest = max(_unpaired_p("wcrobust04", part, run_id) for part in ("p10", "ap", "ndcg1000")
                  for run_id in PRINTED.values())  # fmt: skip
    row = comparison.loc["highest p-value"]
    assert math.isclose(row["reproduced"], highest, rel_tol=1e-9)
    assert row["match"] == (0.005 <= highest < 0.006)
    assert math.isclose(row["difference"], highest - 0.005)


def test_table4_bounds_are_the_extremes_over_both_triangles(comparison):
    tables = [sigir2020.correlation_table(system) for system in sigir2020.SYSTEMS]
    arp = [f"DeltaARP:{m}" for m in ("P@10", "AP", "nDCG")]
    rmse = [f"RMSE:{m}" for m in ("P@10", "AP", "nDCG")]
    expected = {
        "ARP vs KTU, highest": max(t.loc[arp, "KTU"].max() for t in tables),
        "ARP vs RBO, highest": max(t.loc[arp, "RBO"].max() for t in tables),
        "ARP vs RMSE, highest": max(t.loc[arp, rmse].to_numpy().max() for t in tables),
        "RMSE of AP vs RMSE of nDCG, lowest": min(t.loc["RMSE:AP", "RMSE:nDCG"] for t in tables),
        "p of AP vs p of nDCG, lowest": min(t.loc["p:AP", "p:nDCG"] for t in tables),
    }
    for name, value in expected.items():
        assert comparison.loc[name, "reproduced"] == pytest.approx(value, abs=1e-12), name
    below = comparison.loc["ARP vs KTU, highest"]
    assert below["match"] == (round(below["reproduced"], 2) <= 0.29)
    assert comparison.loc["ARP vs RBO, highest", "match"] == (abs(expected["ARP vs RBO, highest"] - 0.70) <= 0.005)


def test_figure3b_counts_the_region4_points_of_the_panels_family(comparison):
    (family,) = sigir2020.panel_families()["b"]
    points = sigir2020.er_deltari_points("rpd")
    points = points[points["family"] == family]
    in_region4 = int(((points["ER"] > 0) & (points["DeltaRI"] < 0)).sum())
    row = comparison.loc["points of panel (b) in region 4"]
    assert row["reproduced"] == in_region4 and row["match"] == (in_region4 == 1)
    assert f"family {family}" in row["found at"]


def test_counts_per_item_add_up(comparison):
    counts = text_value_counts()
    assert counts["values"].sum() == len(TEXT_VALUES) == len(comparison)
    assert counts["matched"].sum() == int(comparison["match"].sum())
    assert list(counts.index) == list(dict.fromkeys(value.item for value in TEXT_VALUES))
    assert np.all(counts["tolerance"].str.len() > 0)


def test_table4_matched_count_is_the_strict_one(comparison):
    """A bound of Table 4 matches only when the unrounded tau passes it as worded: 0.8988 is not "above 0.9"."""
    table4 = comparison[comparison["item"] == "Table 4"]
    bounds = {"below": lambda v, b: v < b, "above": lambda v, b: v > b}
    strict = 0
    for name, row in table4.iterrows():
        rule = next(value.rule for value in TEXT_VALUES if value.name == name)
        number = float(row["printed"])
        strict += (
            bounds[rule](row["reproduced"], number) if rule in bounds else abs(row["reproduced"] - number) <= 0.005
        )
    counts = text_value_counts(comparison.reset_index())
    assert counts.loc["Table 4", "matched"] == strict == 4 and counts.loc["Table 4", "values"] == 6
    misses = table4[~table4["match"]]
    assert sorted(misses["printed"]) == ["0.9", "0.91"]
    assert all("rounds to" in note for note in misses["note"])  # the print's rounding, said beside the verdict
    row = next(row for row in sigir2020.fidelity() if row.item == "Table 4")
    assert (row.cells, row.matched, row.reproduced) == (6, 4, "partly")
