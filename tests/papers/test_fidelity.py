"""The fidelity protocol: verdicts follow from compared values; counts, the intro's sentence and what is left."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.papers import PAPERS, clef2019, glm, sigir2020
from irrepro.papers.claims import claims_table
from irrepro.papers.fidelity import (
    KINDS,
    NOT_COMPARED,
    REACH,
    REPRODUCED,
    FidelityRow,
    fidelity_counts,
    fidelity_sentence,
    fidelity_table,
    for_page,
    unreproduced_table,
    verdict,
)
from irrepro.routing.experiment import RunCache

_LEFT = {"needs": "the printed values", "reach": "published, not transcribed"}


def _row(**fields) -> FidelityRow:
    fields = {"papers_data": True, **fields}
    return FidelityRow("glm", "Table 1", "deviances", "data", **fields)


def test_reproduced_with_no_compared_value_cannot_be_built():
    with pytest.raises(ValueError, match="cells=0"):
        _row(cells=0, matched=0, complete=True, tolerance="exactly")
    with pytest.raises(TypeError):
        _row(reproduced="reproduced", why_not="not in the text", **_LEFT)  # the verdict is not an argument
    not_compared = _row(why_not="not in the text", **_LEFT)
    assert not_compared.reproduced == NOT_COMPARED
    assert _row(papers_data=False, why_not="a stand-in", **_LEFT).reproduced == "not reproduced"
    assert _row(cells=3, matched=3, complete=True, tolerance="exactly").reproduced == "reproduced"


@given(st.one_of(st.none(), st.integers(min_value=1, max_value=400)), st.integers(min_value=0, max_value=400),
       st.booleans(), st.booleans())  # fmt: skip
def test_a_verdict_follows_from_the_compared_values(cells, matched, complete, papers_data):
    matched = None if cells is None else min(matched, cells)
    result = verdict(cells, matched, complete=complete if cells else None, papers_data=papers_data)
    assert result in REPRODUCED
    assert (result == "reproduced") == (cells is not None and matched == cells and complete)
    assert (result == NOT_COMPARED) == (cells is None and papers_data)
    if result == "partly":
        assert matched > 0 and (matched < cells or not complete)
    if cells is not None and matched == 0:
        assert result == "not reproduced"


def test_a_row_states_its_tolerance_why_not_and_what_is_left():
    with pytest.raises(ValueError, match="say why"):
        _row(**_LEFT)
    with pytest.raises(ValueError, match="need complete"):
        _row(cells=3, matched=3, tolerance="exactly")
    with pytest.raises(ValueError, match="need complete"):
        _row(cells=3, matched=3, complete=True)
    with pytest.raises(ValueError, match="would take"):
        _row(cells=3, matched=2, complete=True, tolerance="exactly")  # partly, and nothing said about the rest
    with pytest.raises(ValueError, match="both cells and matched"):
        _row(cells=3, complete=True, tolerance="exactly")
    with pytest.raises(ValueError, match="not between 0 and cells"):
        _row(cells=3, matched=4, complete=True, tolerance="exactly")
    with pytest.raises(ValueError, match="reach='soon'"):
        _row(why_not="x", needs="y", reach="soon")
    with pytest.raises(ValueError, match="kind='figure'"):
        _row(why_not="x", kind="figure", **_LEFT)
    with pytest.raises(ValueError, match="unknown paper"):
        FidelityRow("nature", "Table 1", "x", "data", papers_data=True, why_not="x", **_LEFT)


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


def test_fidelity_table_collects_every_paper_and_no_verdict_lacks_its_evidence(table):
    assert list(table["paper"].unique()) == list(PAPERS)
    assert set(table["reproduced"]) <= set(REPRODUCED) and set(table["kind"]) <= set(KINDS)
    reproduced = table[table["reproduced"] == "reproduced"]
    assert (reproduced["cells"] >= 1).all() and (reproduced["matched"] == reproduced["cells"]).all()
    assert reproduced["complete"].all()
    assert (table.loc[table["cells"].isna(), "why_not"].str.len() > 0).all()
    left = table[table["reproduced"] != "reproduced"]
    assert (left["needs"].str.len() > 0).all() and set(left["reach"]) <= set(REACH)
    with pytest.raises(ValueError, match="unknown paper"):
        fidelity_table(("sigir2020", "nature"))


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_table_and_figure_the_paper_names_has_a_row(paper, table, paper_texts):
    text = paper_texts[paper]
    named = {f"Table {n}" for n in re.findall(r"Table\s+(\d)", text.split("Online appendix")[0])}
    named |= {f"Figure {n}" for n in re.findall(r"(?:Figure|Fig\.)\s+(\d)", text)}
    items = set(table.loc[table["paper"] == paper, "item"])
    assert named - items == set()


def test_sigir2020_rows_carry_the_computed_matches(table):
    rows = table[table["paper"] == "sigir2020"].set_index("item")
    counts = sigir2020.match_counts()
    for name in ("appendix Table 1", "appendix Table 2"):
        assert rows.loc[name, "cells"] == counts.loc[name, "cells"]
        assert rows.loc[name, "matched"] == counts.loc[name, "matching"]
        assert rows.loc[name, "complete"]
    assert "rpd_C_1 p:nDCG" in rows.loc["appendix Table 2", "note"]  # the one miss is named
    text_values = sigir2020.text_values_comparison()
    for item in ("Table 3", "Table 4", "Figure 3"):
        compared = text_values[text_values["item"] == item]
        assert (rows.loc[item, "cells"], rows.loc[item, "matched"]) == (len(compared), compared["match"].sum())
        assert not rows.loc[item, "complete"]  # the printed table itself is not in the text copy
    for item in ("Table 1", "Table 2", "Table 5", "Figure 1", "Figure 2"):
        assert pd.isna(rows.loc[item, "cells"]) and rows.loc[item, "reproduced"] == NOT_COMPARED


def test_clef2019_rows_match_the_topic_counts_and_label_the_stand_in(table):
    rows = table[table["paper"] == "clef2019"].set_index("item")
    topics = clef2019.topic_sets().dropna(subset=["printed"])
    intersections = rows.loc["Sections 3.2, 4.3 (text): topic intersections"]
    assert (intersections["cells"], intersections["matched"]) == (len(topics), int((topics["difference"] == 0).sum()))
    assert intersections["kind"] == "text"
    for item in ("Table 2", "Table 4", "Figure 4"):
        assert clef2019.STAND_IN_DATA in rows.loc[item, "data"] and rows.loc[item, "reproduced"] == "not reproduced"
        assert rows.loc[item, "reach"] == "licensed"
    official = rows.loc[[item for item in rows.index if "official" in item]]
    assert (official["kind"] == "not of the paper").all()


def test_claims_table_works_for_every_paper():
    table = claims_table("clef2019")  # cheap: irrepro.papers.clef2019.claim_checks reads published files only
    assert {"claim", "verdict", "evidence"} <= set(table.columns) and len(table) >= 7


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_page_table_has_one_row_per_item_and_says_how_many_match_or_why_not(table, paper):
    rows = table[table["paper"] == paper]
    page, notes = for_page(table, paper)
    assert list(page.index) == list(rows["item"]) and page.index.name == "item"
    assert list(page["reproduced"]) == list(rows["reproduced"])
    for (_, row), matching, key in zip(rows.iterrows(), page["values matching"], page["data used"], strict=True):
        assert f"Data ({key}): {row['data']}." in notes
        if pd.isna(row["cells"]):
            number = re.fullmatch(r"none compared \((\d+)\)", matching).group(1)
            assert f"Not compared ({number}): {row['why_not']}." in notes
        else:
            found = re.fullmatch(r"(\d+) of (\d+) (printed|stated in the text) \(([A-Z])\)", matching)
            assert (int(found.group(1)), int(found.group(2))) == (row["matched"], row["cells"])
            assert (found.group(3) == "printed") == row["complete"]
            assert f"Tolerance ({found.group(4)}): {row['tolerance']}." in notes
    compared_rows = rows["cells"].notna()
    assert len(notes) == (rows["data"].nunique() + rows.loc[compared_rows, "tolerance"].nunique()
                          + rows.loc[~compared_rows, "why_not"].nunique())  # fmt: skip
    with pytest.raises(ValueError, match="no fidelity rows"):
        for_page(table, "nature")


def test_counts_keep_the_papers_tables_and_figures_apart_from_the_rest(table):
    counts = fidelity_counts(table)
    assert list(counts.index) == list(KINDS)
    assert counts["items"].sum() == len(table)
    assert (counts[list(REPRODUCED)].sum(axis=1) == counts["items"]).all()
    for kind in KINDS:
        part = table[table["kind"] == kind]
        assert counts.loc[kind, "values"] == int(part["cells"].sum())
        assert counts.loc[kind, "matched"] == int(part["matched"].sum())
    appendix = table[table["item"].str.startswith("appendix Table")]
    assert counts.loc["table or figure", "values"] >= appendix["cells"].sum()
    assert counts.loc["not of the paper", "items"] >= 1  # NIST's official scores, not in the papers' totals
    assert all(pd.api.types.is_integer_dtype(dtype) for dtype in counts.dtypes)


def test_the_intro_sentence_states_the_computed_counts(table):
    counts = fidelity_counts(table)
    sentence = fidelity_sentence(counts)
    tables = counts.loc["table or figure"]
    assert sentence.startswith(f"Of the {tables['items']} rows for the papers' tables and figures: ")
    assert f"{tables['matched']} of their {tables['values']} compared values match" in sentence
    for kind in ("text", "not of the paper"):
        assert f"{counts.loc[kind, 'matched']} of {counts.loc[kind, 'values']}" in sentence
    made_up = counts.copy()
    made_up.loc["table or figure", ["reproduced", "partly"]] = [2, 0]
    assert "2 reproduced" in fidelity_sentence(made_up) and "partly" not in fidelity_sentence(made_up).split(".")[0]


def test_every_row_not_reproduced_is_in_the_table_of_what_is_left(table):
    left = unreproduced_table(table)
    rows = table[table["reproduced"] != "reproduced"]
    assert left["count"].sum() == len(rows)
    assert list(dict.fromkeys(left.index)) == [reach for reach in REACH if reach in set(rows["reach"])]
    for _, row in rows.iterrows():
        group = left[(left.index == row["reach"]) & (left["it would take"] == row["needs"])]
        assert len(group) == 1 and PAPERS[row["paper"]].short in group["items"].iat[0]
        assert row["item"] in group["items"].iat[0]
