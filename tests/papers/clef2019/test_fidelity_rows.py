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
    assert (text["cells"], text["matched"], text["kind"], text["reproduced"]) == (2, 0, "text", "not reproduced")
    assert "2020 re-implementation" in rows.loc["Figure 3", "data"]


def test_figure3_compares_the_14_of_15_topics_on_the_2020_re_implementation(paper_texts):
    from irrepro.papers.claims import quote_occurs
    from irrepro.papers.clef2019 import printed_values, published_runs

    value = printed_values.FIGURE3_ENRICHED
    assert quote_occurs(value.quote, paper_texts["clef2019"], lost_blanks=True) and value.printed == "14"
    per_topic = published_runs.published_runs_15_topics().query("setting == 'replicability'")
    improved = int((per_topic["WCrobust0405"] > per_topic["WCrobust04"]).sum())
    figure3 = fidelity_table(("clef2019",)).set_index("item").loc["Figure 3"]
    assert (figure3["cells"], figure3["matched"]) == (1, int(improved == 14))
    assert not figure3["complete"] and figure3["reproduced"] == ("partly" if improved == 14 else "not reproduced")
    assert figure3["reach"] == "licensed"  # the 2019 runs themselves need the licensed corpora
