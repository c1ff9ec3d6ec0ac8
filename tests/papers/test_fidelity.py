"""The fidelity protocol: one row per table and figure of each paper, matching cells computed."""

from __future__ import annotations

import re

import pytest

from irrepro.papers import clef2019, glm, sigir2020
from irrepro.papers.claims import claims_table
from irrepro.papers.fidelity import REPRODUCED, FidelityRow, fidelity_table
from irrepro.routing.experiment import RunCache


def test_a_row_says_why_printed_values_are_not_shown_and_counts_cells_consistently():
    FidelityRow("glm", "Table 1", "deviances", "data", reproduced="yes", printed_shown=True, cells=3, matched=3)
    with pytest.raises(ValueError, match="say why"):
        FidelityRow("glm", "Table 1", "deviances", "data", reproduced="yes", printed_shown=False)
    with pytest.raises(ValueError, match="reproduced='maybe'"):
        FidelityRow("glm", "Table 1", "deviances", "data", reproduced="maybe", printed_shown=True)
    with pytest.raises(ValueError, match="both cells and matched"):
        FidelityRow("glm", "Table 1", "deviances", "data", reproduced="yes", printed_shown=True, cells=3)
    with pytest.raises(ValueError, match="not between 0 and cells"):
        FidelityRow("glm", "Table 1", "deviances", "data", reproduced="yes", printed_shown=True, cells=3, matched=4)
    with pytest.raises(ValueError, match="unknown paper"):
        FidelityRow("nature", "Table 1", "x", "data", reproduced="yes", printed_shown=True)


@pytest.fixture(scope="module")
def table(cheap):
    return fidelity_table()


@pytest.fixture(scope="module")
def cheap():
    """Fidelity must not run a routing run or fit a GLM: both raise while the table is built."""
    patch = pytest.MonkeyPatch()

    def forbidden(*args, **kwargs):
        raise AssertionError("fidelity() must be cheap: no routing run, no GLM fit")

    patch.setattr(RunCache, "prefetch", forbidden)
    patch.setattr(clef2019.routing_data, "stand_in", forbidden)
    patch.setattr(glm.models, "fit_two_way", forbidden)
    yield
    patch.undo()


def test_fidelity_table_collects_every_paper(table):
    assert list(table["paper"].unique()) == ["sigir2020", "clef2019", "glm"]
    assert set(table["reproduced"]) <= set(REPRODUCED)
    assert (table.loc[~table["printed_shown"], "why_not"].str.len() > 0).all()
    with pytest.raises(ValueError, match="unknown paper"):
        fidelity_table(("sigir2020", "nature"))


@pytest.mark.parametrize("paper", ["sigir2020", "clef2019", "glm"])
def test_every_table_and_figure_the_paper_names_has_a_row(paper, table, paper_texts):
    text = paper_texts[paper]
    named = {f"Table {n}" for n in re.findall(r"Table\s+(\d)", text.split("Online appendix")[0])}
    named |= {f"Figure {n}" for n in re.findall(r"(?:Figure|Fig\.)\s+(\d)", text)}
    items = set(table.loc[table["paper"] == paper, "item"])
    assert named - items == set()


def test_sigir2020_appendix_rows_carry_the_computed_matches(table):
    rows = table[table["paper"] == "sigir2020"].set_index("item")
    counts = sigir2020.match_counts()
    for name in ("appendix Table 1", "appendix Table 2"):
        assert rows.loc[name, "cells"] == counts.loc[name, "cells"]
        assert rows.loc[name, "matched"] == counts.loc[name, "matching"]
    assert "rpd_C_1 p:nDCG" in rows.loc["appendix Table 2", "note"]  # the one miss is named
    assert not rows.loc["Table 1", "printed_shown"]


def test_clef2019_rows_match_the_topic_counts_and_label_the_stand_in(table):
    rows = table[table["paper"] == "clef2019"].set_index("item")
    topics = clef2019.topic_sets().dropna(subset=["printed"])
    intersections = rows.loc["Sections 3.2, 4.3 (text): topic intersections"]
    assert (intersections["cells"], intersections["matched"]) == (len(topics), int((topics["difference"] == 0).sum()))
    for item in ("Table 2", "Table 4", "Figure 3"):
        assert clef2019.STAND_IN_DATA in rows.loc[item, "data"] and rows.loc[item, "reproduced"] == "partly"


def test_claims_table_works_for_every_paper():
    table = claims_table("clef2019")  # cheap: irrepro.papers.clef2019.claim_checks reads published files only
    assert {"claim", "verdict", "evidence"} <= set(table.columns) and len(table) >= 7


@pytest.mark.parametrize("paper", ["sigir2020", "clef2019", "glm"])
def test_the_page_table_has_one_row_per_item_and_says_why_or_how_many(table, paper):
    from irrepro.papers.fidelity import for_page

    rows = table[table["paper"] == paper]
    page, notes = for_page(table, paper)
    assert list(page.index) == list(rows["item"]) and page.index.name == "item"
    shown = rows["printed_shown"].to_numpy()
    assert (page["printed values"][shown] == "shown").all()
    # every reason and every data text is spelled out once in the notes, under its key
    for (_, row), printed, key in zip(rows.iterrows(), page["printed values"], page["data used"], strict=True):
        assert f"Data ({key}): {row['data']}." in notes
        if not row["printed_shown"]:
            number = printed.removeprefix("not shown (").removesuffix(")")
            assert f"Not shown ({number}): {row['why_not']}." in notes
    assert len(notes) == rows["data"].nunique() + rows.loc[~rows["printed_shown"], "why_not"].nunique()
    compared = rows["cells"].notna().to_numpy()
    for text, cells, matched in zip(page["cells matched"][compared], rows["cells"][compared],
                                    rows["matched"][compared], strict=True):
        assert text == f"{matched} of {cells}"
    assert (page["cells matched"][~compared] == "").all()
    with pytest.raises(ValueError, match="no fidelity rows"):
        for_page(table, "nature")


def test_the_counts_the_intro_quotes_add_up(table):
    from irrepro.papers.fidelity import REPRODUCED, fidelity_counts

    counts = fidelity_counts(table)
    assert counts["items"] == len(table)
    assert sum(counts[f"reproduced_{value}"] for value in REPRODUCED) == len(table)
    assert counts["matched"] <= counts["cells"]
    assert counts["cells"] == int(table["cells"].sum())
    assert counts["compared_items"] <= counts["printed_shown"]
    assert all(isinstance(value, int) for value in counts.values())
