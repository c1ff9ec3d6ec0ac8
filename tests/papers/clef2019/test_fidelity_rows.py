"""The CLEF 2019 fidelity rows, registered for irrepro.papers.fidelity."""

from __future__ import annotations

from irrepro.papers import clef2019
from irrepro.papers.clef2019 import fidelity_rows
from irrepro.papers.fidelity import fidelity_table


def test_rows_are_registered_and_counted():
    assert clef2019.fidelity is fidelity_rows.fidelity
    rows = fidelity_table(("clef2019",)).set_index("item")
    for item in ("Table 1", "Table 2", "Table 3", "Table 4", "Table 5", "Table 6", "Figure 1", "Figure 2", "Figure 3",
                 "Figure 4"):  # fmt: skip
        assert item in rows.index
    text = rows.loc["Section 4.2 (text): MAP 0.2963 / 0.2924"]
    assert (text["cells"], text["matched"], text["printed_shown"]) == (2, 0, True)
    assert "2020 re-implementation" in rows.loc["Figure 3", "data"]
