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


def test_rows_name_the_data_and_compare_only_the_one_number_the_text_states():
    rows = fidelity_table(("glm",)).set_index("item")
    outliers = rows.loc["Section 3 (text): Core 18 without its eight outlier runs"]
    others = rows.drop(index=outliers.name)
    assert others["cells"].isna().all() and (others["why_not"].str.len() > 0).all()
    assert rows.loc["Table 1", "data"] == glm.ROBUST04.label
    assert rows.loc["Table 1", "reproduced"] == "computed on the paper's data, not compared"
    assert rows.loc["Table 1, Core 18 columns", "data"] == glm.SUBSTITUTES.label
    assert rows.loc["Table 1, Core 18 columns", "reproduced"] == "not reproduced"
    assert rows.loc["Table 1, Core 18 columns", "reach"] == "licensed"
    compared = glm.text_values_comparison()
    assert (outliers["cells"], outliers["matched"]) == (len(compared), int(compared["match"].sum()))
    assert outliers["kind"] == "text" and "feup-run1" in outliers["note"]
    assert (rows["kind"] != "table or figure").sum() == 4  # the results stated in the text, counted apart


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


def test_the_outlier_count_is_the_papers_word_and_read_without_a_threshold(paper_texts):
    from irrepro.papers.claims import quote_occurs

    (value,) = glm.TEXT_VALUES
    assert quote_occurs(value.quote, paper_texts["glm"]) and value.printed == "eight"
    summary = glm.official_summary("Core18")["map"].sort_values()
    ratios = (summary.iloc[1:].to_numpy() / summary.iloc[:-1].to_numpy())
    widest = int(ratios.argmax()) + 1  # the runs below the widest ratio between consecutive MAPs
    compared = glm.text_values_comparison().iloc[0]
    assert compared["reproduced"] == widest and compared["match"] == (widest == 8)
    assert "the same runs" in compared["found at"]  # the book's MAP < 0.01 selects them too


def test_low_outliers_need_no_threshold_and_handle_zero_means():
    import pandas as pd
    import pytest

    assert glm.low_outliers(pd.Series({"a": 0.3, "b": 0.0, "c": 0.28, "d": 0.25})) == ["b"]
    assert glm.low_outliers(pd.Series({"a": 0.3, "b": 0.29, "c": 0.03})) == ["c"]
    with pytest.raises(ValueError, match="at least two"):
        glm.low_outliers(pd.Series({"a": 0.3}))
