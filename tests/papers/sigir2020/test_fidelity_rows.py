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
    figure3 = statements[statements["id"].str.startswith("sigir2020.figure3")]
    assert rows["Figure 3"].reproduced == ("yes" if figure3["holds"].all() else "partly")


def test_table5_row_says_why_no_printed_value_is_shown(rows):
    assert not rows["Table 5"].printed_shown
    assert "states no Table 5 value" in rows["Table 5"].why_not
    assert "earlier AP file" in rows["Table 5"].note


def test_per_topic_rows_say_what_the_match_proves(rows):
    for item in ("Table 1", "Table 3", "appendix Table 1", "appendix Table 2"):
        assert "not a re-run of the runs" in rows[item].note, item
