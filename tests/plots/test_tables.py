"""The book's table style (irrepro.plots.tables): formats, headers, row labels, captions, marks, HTML."""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.plots import tables

# --------------------------------------------------------------------------- formats


@pytest.mark.parametrize(
    ("p", "scientific", "threshold"),
    [
        (0.0462, "0.046", "0.046"),
        (0.5, "0.500", "0.500"),
        (0.001, "0.001", "0.001"),
        (0.000949, "9.5e-04", "< 0.001"),
        (1.234e-05, "1.2e-05", "< 0.001"),
        (3.1e-21, "3.1e-21", "< 0.001"),
        (1.0, "1", "1"),
        (0.0, "0", "0"),
        (float("nan"), "–", "–"),
    ],
)
def test_pvalues_are_readable(p, scientific, threshold):
    assert tables.format_pvalue(p) == scientific
    assert tables.format_pvalue(p, style="threshold") == threshold


def test_a_pvalue_outside_0_1_or_an_unknown_style_is_an_error():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        tables.format_pvalue(1.5)
    with pytest.raises(ValueError, match="scientific"):
        tables.format_pvalue(0.5, style="stars")


def test_numbers_have_fixed_decimals_a_true_minus_and_no_negative_zero():
    assert tables.format_number(0.69, 4) == "0.6900"
    assert tables.format_number(-0.0456, 2) == "\u22120.05"
    assert tables.format_number(-0.0004, 2) == "0.00"
    assert tables.format_number(float("nan"), 2) == "–"


def test_intervals_are_one_cell():
    assert tables.format_interval(1.2724, 0.4502, 2.6508, 2) == "1.27 [0.45, 2.65]"
    assert tables.format_interval(-0.18, -0.6, 0.08, 2) == "\u22120.18 [\u22120.60, 0.08]"
    assert tables.format_interval(1.0, float("nan"), float("nan"), 2) == "1.00"


@given(st.floats(min_value=0, max_value=1, allow_nan=False), st.sampled_from(["scientific", "threshold"]))
def test_a_formatted_pvalue_reads_back_close_to_the_value(p, style):
    text = tables.format_pvalue(p, style=style)
    if text.startswith("<"):
        assert p < 0.001
        return
    value = float(text)
    if p >= 0.001:
        assert abs(value - p) <= 0.0005 + 1e-12
    else:
        assert math.isclose(value, p, rel_tol=0.06)


# --------------------------------------------------------------------------- tables


def _table1() -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "ARP:P@10": [0.646, 0.692],
            "ARP:AP": [0.37109, 0.36465],
            "KTU": [1.0, 0.0117],
            "p:P@10": [1.0, 0.1107],
            "p:AP": [1.0, 1.6e-05],
        },
        index=pd.Index(["WCrobust04", "rpl_wcr04_tf_1"], name="run"),
    )
    return frame


def test_statistic_colon_measure_columns_become_grouped_headers():
    table = tables.table(_table1(), caption="Replicability")
    assert list(table.cells.columns) == [
        ("ARP", "P@10"), ("ARP", "AP"), ("KTU", ""), ("p-value", "P@10"), ("p-value", "AP"),
    ]  # fmt: skip
    html = table._repr_html_()
    assert '<th class="group" scope="colgroup" colspan="2">ARP</th>' in html
    assert '<th class="leaf" scope="col" rowspan="2">KTU</th>' in html  # a label without sub-labels spans both rows


def test_each_statistic_has_its_decimals_and_pvalues_their_form():
    cells = tables.table(_table1(), caption="x").cells
    assert cells.loc["rpl_wcr04_tf_1", ("ARP", "AP")] == "0.3646"
    assert cells.loc["rpl_wcr04_tf_1", ("KTU", "")] == "0.0117"
    assert cells.loc["rpl_wcr04_tf_1", ("p-value", "P@10")] == "0.111"
    assert cells.loc["rpl_wcr04_tf_1", ("p-value", "AP")] == "1.6e-05*"  # significant: marked
    assert cells.loc["WCrobust04", ("p-value", "AP")] == "1"


def test_significance_is_marked_with_one_legend_wording():
    table = tables.table(_table1(), caption="x")
    assert table.notes == ("* p < 0.05 (two-tailed).",)
    assert "not-significant" in table.classes.loc["rpl_wcr04_tf_1", ("p-value", "P@10")]
    assert "significant" in table.classes.loc["rpl_wcr04_tf_1", ("p-value", "AP")].split()


def test_cells_that_differ_from_the_print_are_marked():
    frame = _table1()
    differs = pd.DataFrame(False, index=frame.index, columns=frame.columns)
    differs.loc["rpl_wcr04_tf_1", "KTU"] = True
    table = tables.table(frame, caption="x", differs=differs)
    assert table.cells.loc["rpl_wcr04_tf_1", ("KTU", "")] == "0.0117\u2020"
    assert "\u2020 differs from the value printed in the paper." in table.notes


def test_interval_columns_merge_into_one_cell():
    frame = pd.DataFrame(
        {"ER:AP": [1.2724], "ER:AP:low": [0.4502], "ER:AP:high": [2.6508], "DeltaRI:AP": [-0.29]},
        index=pd.Index(["rpd_tf_1"], name="run"),
    )
    table = tables.table(frame, caption="x")
    assert list(table.cells.columns) == [("ER", "AP"), ("\u0394RI", "AP")]
    assert table.cells.iat[0, 0] == "1.27 [0.45, 2.65]"
    assert '1.27 <span class="ci">[0.45, 2.65]</span>' in table._repr_html_()


def test_a_positional_index_is_never_shown():
    frame = pd.DataFrame({"target": ["near", "far"], "MAP": [0.7, 0.8]})
    table = tables.table(frame, caption="x")
    assert not table.stub
    html = table._repr_html_()
    assert '<th scope="row">' not in html and ">0<" not in html
    labelled = tables.table(frame, caption="x", rows="target")
    assert labelled.stub and '<th scope="row" class="short">near</th>' in labelled._repr_html_()


def test_row_labels_can_be_several_columns_and_repeated_labels_span_rows():
    frame = pd.DataFrame({"run": ["a", "a", "b"], "cell": ["x", "y", "x"], "value": [1.0, 2.0, 3.0]})
    html = tables.table(frame, caption="x", rows=["run", "cell"])._repr_html_()
    assert '<th scope="row" class="short" rowspan="2">a</th>' in html
    assert html.count('<th scope="row" class="short">x</th>') == 2


def test_caption_is_numbered_and_names_the_papers_table_and_the_data():
    table = tables.table(_table1(), caption="Replicability of WCrobust04", source="the paper's Table 1",
                         data="published per-topic scores", number=3)  # fmt: skip
    assert table.caption_text() == (
        "Table 3. Replicability of WCrobust04 (the paper's Table 1). Data: published per-topic scores."
    )
    assert "<caption><span class=\"caption-number\">Table 3.</span> Replicability" in table._repr_html_()


def test_a_data_column_moves_into_the_caption():
    frame = pd.DataFrame({"target": ["near"], "MAP": [0.7], "data": ["the stand-in"]})
    table = tables.table(frame, caption="x", rows="target", number=1)
    assert "data" not in {key[0] for key in table.cells.columns}
    assert table.caption_text().endswith("Data: the stand-in.")


def test_show_numbers_the_tables_of_a_page_in_order():
    tables.reset_numbering()
    first = tables.show(_table1(), caption="a")
    second = tables.show(_table1(), caption="b")
    assert (first.number, second.number) == (1, 2)
    tables.reset_numbering()
    assert tables.show(_table1(), caption="c").number == 1
    with pytest.raises(ValueError, match="numbers the tables itself"):
        tables.show(_table1(), caption="d", number=7)


def test_best_values_are_bold_with_a_legend():
    frame = pd.DataFrame({"identity": [3.0, 5.0], "logit": [2.0, 6.0]}, index=pd.Index(["A", "B"], name="setting"))
    table = tables.table(frame, caption="x", best="min", best_axis="row")
    assert table.classes.loc["A", ("logit",)].endswith("best_min")
    assert table.classes.loc["B", ("identity",)].endswith("best_min")
    assert "Bold: the lowest value of its row." in table.notes


def test_levels_reorder_headers_after_formatting():
    frame = pd.DataFrame({"p:AP:WCrobust04": [0.01], "p:AP:WCrobust0405": [0.2]}, index=pd.Index(["r"], name="run"))
    table = tables.table(frame, caption="x", levels=(2, 1))
    assert list(table.cells.columns) == [("WCrobust04", "AP"), ("WCrobust0405", "AP")]
    assert list(table.cells.iloc[0]) == ["0.010*", "0.200"]  # still formatted as p-values


def test_number_format_sets_every_numeric_column_and_statistic_rows_split():
    matrix = pd.DataFrame(
        [[1.0, 0.41], [0.41, 1.0]], index=pd.Index(["DeltaARP:AP", "KTU"], name="measure"),
        columns=["DeltaARP:AP", "KTU"],
    )  # fmt: skip
    table = tables.table(matrix, caption="x", number_format=tables.decimals(2))
    assert table.cells.iat[0, 1] == "0.41"
    assert list(table.cells.index) == [("\u0394ARP", "AP"), ("KTU", "")]
    assert '<th class="stub" scope="col" rowspan="2" colspan="2">measure</th>' in table._repr_html_()


def test_wide_tables_are_compact():
    wide = pd.DataFrame(np.ones((2, 12)), columns=[f"c{i}" for i in range(12)], index=pd.Index(["a", "b"], name="r"))
    assert tables.table(wide, caption="x").compact  # 12 columns of "1.0000": about 96 characters
    assert not tables.table(wide.iloc[:, :3], caption="x").compact


def test_text_that_is_a_number_is_right_aligned_and_words_are_not():
    frame = pd.DataFrame({"printed": ["0.7760", "5E-04"], "note": ["ok", "misprint"]}, index=pd.Index(["a", "b"], name="r"))
    classes = tables.table(frame, caption="x").classes
    assert list(classes[("printed",)]) == ["num", "num"]
    assert list(classes[("note",)]) == ["text", "text"]


class _Structure(HTMLParser):
    """Counts the cells of every body row, spans included, to check the HTML is rectangular."""

    def __init__(self):
        super().__init__()
        self.rows, self.in_body, self.pending = [], False, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.rows.append(0)
        elif tag in ("td", "th") and self.in_body:
            self.rows[-1] += 1
            span = int(attrs.get("rowspan", 1))
            if span > 1:
                self.pending[len(self.rows) - 1] = span

    def widths(self) -> list[int]:
        widths = list(self.rows)
        for start, span in self.pending.items():
            for row in range(start + 1, start + span):
                widths[row] += 1
        return widths


def test_the_html_is_a_rectangular_table():
    frame = pd.DataFrame(
        {"run": ["a", "a", "b"], "cell": ["x", "y", "x"], "ER:AP": [1.0, 2.0, 3.0], "p:AP": [0.1, 0.01, 0.5]}
    )
    parser = _Structure()
    parser.feed(tables.table(frame, caption="x", rows=["run", "cell"])._repr_html_())
    assert set(parser.widths()) == {4}


def test_triangles_and_side_by_side():
    upper = pd.DataFrame([[1.0, 0.2], [0.2, 1.0]], index=["a", "b"], columns=["a", "b"])
    lower = pd.DataFrame([[1.0, 0.7], [0.7, 1.0]], index=["a", "b"], columns=["a", "b"])
    both = tables.triangles(upper, lower)
    assert both.loc["a", "b"] == 0.2 and both.loc["b", "a"] == 0.7 and np.isnan(both.loc["a", "a"])
    with pytest.raises(ValueError, match="same rows"):
        tables.triangles(upper, lower.loc[["b", "a"]])
    combined = tables.side_by_side({"left": upper, "right": lower})
    assert list(combined.columns) == [("left", "a"), ("left", "b"), ("right", "a"), ("right", "b")]


def test_data_files_shortens_hashes_and_names_the_file_rows():
    shown = tables.data_files([{"name": "qrels/x.txt", "sha256": "ab" * 32, "source": "NIST", "url": "u"}])
    assert shown.index.name == "file" and list(shown.columns) == ["sha256", "source"]
    assert re.fullmatch(r"[0-9a-f]{12}\u2026", shown.iat[0, 0])
    with pytest.raises(ValueError, match="sha256"):
        tables.data_files([{"name": "x"}])
    frame = pd.DataFrame({"file": ["a"], "sha256": ["cd" * 32], "verified": [True], "source": ["o/r@" + "ab12" * 10]})
    shown = tables.data_files(frame)
    assert list(shown.columns) == ["sha256", "verified", "source"] and shown.iat[0, 2] == "o/r @ ab12ab12"


def test_columns_can_be_renamed_into_groups_and_constant_columns_folded():
    frame = pd.DataFrame(
        {"target": ["near", "far"], "MAP WCr04": [0.7, 0.8], "MAP WCr0405": [0.75, 0.85], "source": ["x", "x"]}
    )
    table = tables.table(
        frame, caption="x", rows="target", columns={"MAP WCr04": "MAP:WCr04", "MAP WCr0405": "MAP:WCr0405", "source": "source"},
        fold=["source"],
    )  # fmt: skip
    assert list(table.cells.columns) == [("MAP", "WCr04"), ("MAP", "WCr0405")]
    assert "Source of every row: x." in table.notes


def test_missing_values_of_any_kind_are_a_dash_and_p_columns_are_found_by_name():
    frame = pd.DataFrame(
        {"printed": pd.array([50, None], dtype="Int64"), "p (paired t-test)": [0.0207, 0.3937]},
        index=pd.Index(["a", "b"], name="r"),
    )
    cells = tables.table(frame, caption="x").cells
    assert list(cells[("printed",)]) == ["50", "–"]
    assert list(cells[("p (paired t-test)",)]) == ["0.021*", "0.394"]


def test_best_can_be_limited_to_some_columns():
    frame = pd.DataFrame({"pairs": [99], "identity": [3], "logit": [5]}, index=pd.Index(["A"], name="setting"))
    table = tables.table(frame, caption="x", best="max", best_axis="row", best_columns=["identity", "logit"])
    assert "best_max" in table.classes.loc["A", ("logit",)] and "best" not in table.classes.loc["A", ("pairs",)]
    with pytest.raises(ValueError, match="best_axis"):
        tables.table(frame, caption="x", best="max", best_axis="diagonal")


def test_a_column_of_words_and_numbers_is_aligned_as_words():
    frame = pd.DataFrame({"dropped": ["none", "356"]}, index=pd.Index(["a", "b"], name="r"))
    assert list(tables.table(frame, caption="x").classes[("dropped",)]) == ["text", "text"]
