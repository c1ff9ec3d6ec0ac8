"""The SIGIR 2020 fidelity rows carry the counts the chapter shows."""

from __future__ import annotations

import pytest

from irrepro.papers import sigir2020


@pytest.fixture(scope="module")
def rows():
    return {row.item: row for row in sigir2020.fidelity()}


def test_figure3_row_counts_the_diagnosis_and_the_statements(rows):
    diagnosis, statements = sigir2020.figure3_diagnosis(), sigir2020.figure3_statements()
    note = rows["Figure 3"].note
    assert f"AP points in region 2: {int((diagnosis['region'] == 2).sum())} of {len(diagnosis)} (published)" in note
    assert f"{int((diagnosis['region_old'] == 2).sum())} (earlier file)" in note
    assert sigir2020.statements_note(statements, "Figure 3") in note
    compared = sigir2020.text_values_comparison().query("item == 'Figure 3'")
    assert (rows["Figure 3"].cells, rows["Figure 3"].matched) == (len(compared), int(compared["match"].sum()))
    assert rows["Figure 3"].reproduced == ("partly" if compared["match"].all() else "not reproduced")


def test_table5_row_says_why_no_printed_value_is_compared(rows):
    assert rows["Table 5"].cells is None and rows["Table 5"].reproduced == "computed on the paper's data, not compared"
    assert "states no value of this one" in rows["Table 5"].why_not
    assert "earlier AP file" in rows["Table 5"].note
    assert "arXiv:2010.13447" in rows["Table 5"].needs and rows["Table 5"].reach == "published, not transcribed"


def test_per_topic_rows_say_what_the_match_proves(rows):
    for item in ("Table 1", "Table 3", "appendix Table 1", "appendix Table 2"):
        assert "not a re-run of the runs" in rows[item].note, item


def test_one_row_per_table_and_figure_of_the_paper_and_its_appendix(rows):
    expected = {*(f"Table {n}" for n in range(1, 6)), *(f"Figure {n}" for n in range(1, 4)),
                "appendix Table 1", "appendix Table 2"}  # fmt: skip
    assert expected <= set(rows)
    for item in expected:
        row = rows[item]
        assert row.data and row.papers_data and row.kind == "table or figure", item
        assert row.cells is not None or row.why_not, item
    # the main paper's tables are not in the text copy: at most the values its text states are compared
    assert all(rows[f"Table {n}"].complete in (None, False) for n in range(1, 6))
    assert rows["Section 3.1 (text): Kendall's tau Union examples"].kind == "text"


def test_appendix_rows_count_the_cells_the_comparison_matches(rows):
    from irrepro.papers import published

    for number, printed in ((1, published.appendix_table1()), (2, published.appendix_table2())):
        row, comparison = rows[f"appendix Table {number}"], sigir2020.appendix_comparison(number)
        assert row.complete and row.cells == printed.size == len(comparison)
        assert row.matched == int(comparison["match"].sum())
    assert rows["appendix Table 2"].matched == rows["appendix Table 2"].cells - 1  # the misprint
    assert "misprint" in rows["appendix Table 2"].note
    assert rows["appendix Table 1"].reproduced == "reproduced" and rows["appendix Table 2"].reproduced == "partly"
    assert rows["appendix Table 2"].reach == "nothing missing" and "misprints" in rows["appendix Table 2"].needs


def test_the_collected_table_has_the_sigir_rows():
    from irrepro.papers.fidelity import fidelity_table

    table = fidelity_table(("sigir2020",))
    assert table["chapter"].eq("measuring_reproducibility").all()
    assert str(table["cells"].dtype) == "Int64"
