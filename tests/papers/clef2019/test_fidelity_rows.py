"""The CLEF 2019 fidelity rows, registered for irrepro.papers.fidelity."""

from __future__ import annotations

import pandas as pd

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
    assert pd.isna(text["cells"]) and (text["kind"], text["reproduced"]) == ("text", "not reproduced")
    assert text["why_not"] == fidelity_rows.RE_IMPLEMENTATION_ONLY and "0 of the 2 values" in text["note"]
    assert "2020 re-implementation" in rows.loc["Figure 3", "data"]


def test_figure3_is_computed_on_the_2020_re_implementation_not_compared(paper_texts):
    """A count from someone else's data is a finding, not a verdict on the paper."""
    from irrepro.papers.claims import quote_occurs
    from irrepro.papers.clef2019 import printed_values, published_runs

    value = printed_values.FIGURE3_ENRICHED
    assert quote_occurs(value.quote, paper_texts["clef2019"], lost_blanks=True) and value.printed == "14"
    per_topic = published_runs.published_runs_15_topics().query("setting == 'replicability'")
    improved = int((per_topic["WCrobust0405"] > per_topic["WCrobust04"]).sum())
    counts = printed_values.figure3_counts()
    assert len(counts) == 51 and (counts["topics"] == 15).all()
    assert counts.set_index("constellation").at[1, "improved"] == improved
    found = printed_values.figure3_finding(counts)
    assert found["constellations"] == 50 and found["constellation-1"] == improved
    assert found["constellations-as-printed"] == int((counts["improved"].iloc[1:] == 14).sum()) == 28
    assert found["original"] == 13
    figure3 = fidelity_table(("clef2019",)).set_index("item").loc["Figure 3"]
    assert pd.isna(figure3["cells"]) and figure3["why_not"] == fidelity_rows.RE_IMPLEMENTATION_ONLY
    assert figure3["reproduced"] == "not reproduced" and "28 of the 50 constellations" in figure3["note"]
    assert figure3["reach"] == "licensed"  # the 2019 runs themselves need the licensed corpora
