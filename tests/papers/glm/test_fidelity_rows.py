"""The GLM paper's fidelity rows tell the truth about the paper's text and the data used."""

from __future__ import annotations

import re

from irrepro.papers import glm
from irrepro.papers.fidelity import fidelity_table


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end)]


def test_the_papers_results_sections_print_no_numbers(paper_texts):
    """Why no printed value is shown: Sections 3 and 4 of the text hold no decimal number at all."""
    results = _section(paper_texts["glm"], "3. Experimental Analysis", "References")
    results = results[: results.index("org/10.1007")]  # a reference's DOI that the text copy placed there
    assert re.findall(r"\d+[.,]\d+", results) == []
    assert "not reported here" in results


def test_rows_name_the_data_and_never_claim_printed_values():
    rows = fidelity_table(("glm",)).set_index("item")
    assert not rows["printed_shown"].any() and rows["cells"].isna().all()
    assert rows.loc["Table 1", "data"] == glm.ROBUST04.label
    assert rows.loc["Table 1, Core 18 columns", "data"] == glm.SUBSTITUTES.label
    outliers = rows.loc["Section 3 (text): Core 18 without its eight outlier runs"]
    assert "this book's" in outliers["note"] and "feup-run1" in outliers["note"]
    assert outliers["why_not"] == "the paper names neither the runs nor a threshold"


def test_table1_rows_count_the_columns_the_chapter_fits():
    rows = fidelity_table(("glm",)).set_index("item")
    assert glm.table1_columns("Robust04") == "2 (AP, P@10)"
    assert glm.table1_columns("Core18") == "6 (AP, P@10, nDCG, AP w/o outliers, P@10 w/o outliers, nDCG w/o outliers)"
    assert "7 links x 2 (AP, P@10) columns" in rows.loc["Table 1", "note"]
    assert "7 links x 6 (AP" in rows.loc["Table 1, Core 18 columns", "note"]
    items = list(rows.index)
    assert items[0] == "Table 1" and not any(item.startswith("Figure") for item in items)  # the paper has no figure


def test_the_paper_has_one_table_and_no_figure(paper_texts):
    text = paper_texts["glm"]
    assert "Table 1" in text and "Table 2" not in text and "Figure" not in text and "Fig." not in text
