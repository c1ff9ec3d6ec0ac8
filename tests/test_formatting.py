"""irrepro.formatting: one rule per kind of number, and every output writes the same number the same way."""

from __future__ import annotations

import doctest
import json
import re

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro import formatting
from irrepro.cli import main
from irrepro.formatting import BOOK, MINUS, REPORT, TEXT, format_bounds, format_interval, format_number, format_pvalue
from irrepro.plots import tables
from irrepro.report.render import tex_escape
from irrepro.reproducibility.compare import ROLES, compare_runs
from irrepro.runs import read_qrels, read_run
from tests.report.files import TOPICS, _grades, _shared, number_cells, write_qrels, write_run


def test_docstring_examples():
    assert doctest.testmod(formatting, optionflags=doctest.ELLIPSIS).failed == 0


@pytest.mark.parametrize(("p", "text"), [
    (0.0462, "0.046"), (0.5, "0.500"), (0.001, "0.001"), (0.0009995, "1.0e-03"), (0.000949, "9.5e-04"),
    (1.234e-05, "1.2e-05"), (3.1e-21, "3.1e-21"), (1.0, "1"), (0.0, "0"), (float("nan"), "undefined"), (None, "undefined"),
])  # fmt: skip
def test_the_one_pvalue_rule(p, text):
    """Three decimals from 0.001 up (the SIGIR 2020 paper's print), two significant digits below."""
    assert format_pvalue(p, medium=TEXT) == text


@pytest.mark.parametrize(("value", "digits", "text", "book"), [
    (-0.04567, 3, "-0.046", "\u22120.046"), (-0.00004, 4, "0.0000", "0.0000"), (-0.0, 2, "0.00", "0.00"),
    (2.0, 0, "2", "2"), (float("inf"), 2, "undefined", "\u2013"), (None, 4, "undefined", "\u2013"),
])  # fmt: skip
def test_numbers_by_medium(value, digits, text, book):
    assert format_number(value, digits, medium=TEXT) == text
    assert format_number(value, digits, medium=BOOK) == book
    assert format_number(value, digits, medium=REPORT) == book.replace("\u2013", "undefined")


def test_intervals_take_the_decimals_of_their_estimate():
    assert format_interval(-0.18, -0.6, 0.08, 2) == "\u22120.18 [\u22120.60, 0.08]"
    assert format_interval(1.0, None, float("nan"), 2) == "1.00"
    assert format_bounds(-0.0001, 1.5, 3, medium=TEXT) == "[0.000, 1.500]"


def test_bad_pvalues_and_styles_are_errors():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        format_pvalue(1.5)
    with pytest.raises(ValueError, match="scientific"):
        format_pvalue(0.5, style="stars")


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), st.integers(0, 6),
       st.sampled_from([TEXT, REPORT, BOOK]))  # fmt: skip
def test_a_number_reads_back_and_zero_has_no_sign(value, digits, medium):
    text = format_number(value, digits, medium=medium)
    number = float(text.replace(MINUS, "-"))
    assert abs(number - value) <= 0.5 * 10.0**-digits * (1 + 1e-9) + 1e-9 * abs(value)
    assert not (number == 0 and text.startswith(("-", MINUS)))
    assert ("-" in text) == (number < 0 and medium.minus == "-")


# --------------------------------------------------------------------------- one string per number, every output

MEASURES = ("AP", "P@10", "nDCG")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """An original pair and a new pair: the original baseline again (p = 1, RMSE 0) and an advanced run
    that ignores relevance (p-values near 1e-17, negative KTU and ER)."""
    import numpy as np

    folder = tmp_path_factory.mktemp("formatting")
    rng = np.random.default_rng(2020)
    grades, shared = _grades(rng, TOPICS), _shared(rng, TOPICS)
    files = {"qrels": write_qrels(folder / "qrels.txt", grades)}
    for role, weight in zip(ROLES, (0.2, 0.6, 0.2, 0.0), strict=True):
        files[role] = write_run(folder / f"{role}.run", grades, shared, rng, weight=weight)
    files["new_baseline"] = files["orig_baseline"]
    return files


def _expected(statistic: str, value) -> str:
    return format_pvalue(value, medium=TEXT) if statistic == "p" else format_number(value, 4, medium=TEXT)


def _text_table(pair, capsys) -> dict:
    """The numbers of ``irrepro compare``'s table by (statistic, run, measure)."""
    args = ["compare", *(f"--{role.replace('_', '-')}={pair[role]}" for role in ROLES), f"--qrels={pair['qrels']}"]
    assert main(args) == 0
    shown, block = {}, None
    for line in capsys.readouterr().out.splitlines():
        words = line.split()
        if re.match(r"(KTU|RBO) \(mean over topics\)", line):
            shown.update({(line[:3], kind, ""): text for kind, text in re.findall(r"(baseline|advanced) (\S+?)(?:,|$)", line)})
        elif line == "nRMSE" or line.startswith("nRMSE "):
            block = None  # nRMSE's block is held against repro_eval elsewhere (tests/reproducibility/test_compare.py)
        elif line in ("ARP", "RMSE", "ER / DeltaRI") or line.startswith("p-value"):
            block = {"ER / DeltaRI": "effects", "ARP": "ARP", "RMSE": "RMSE"}.get(line, "p")
        elif block and words and words[0] in (*ROLES, "baseline", "advanced", "ER", "DeltaRI"):
            for measure, text in zip(MEASURES, words[1:], strict=True):
                statistic, run = (words[0], "") if block == "effects" else (block, words[0])
                shown[(statistic, run, measure)] = text
    return shown


def _json(pair, capsys) -> dict:
    """``irrepro compare --format json``'s numbers, written by the rule (the JSON holds the number itself)."""
    args = ["compare", *(f"--{role.replace('_', '-')}={pair[role]}" for role in ROLES), f"--qrels={pair['qrels']}", "--format=json"]
    assert main(args) == 0
    document = json.loads(capsys.readouterr().out)
    shown = {("ARP", role, m): v for role, values in document["ARP"].items() for m, v in values.items()}
    shown |= {(s, kind, ""): document[s][kind]["mean"] for s in ("KTU", "RBO") for kind in ("baseline", "advanced")}
    shown |= {("RMSE", kind, m): v for kind, values in document["RMSE"].items() for m, v in values.items()}
    shown |= {("p", kind, m): v for kind, values in document["p_value"].items() for m, v in values.items()}
    shown |= {(s, "", m): v for s in ("ER", "DeltaRI") for m, v in document[s].items()}
    return {key: _expected(key[0], value) for key, value in shown.items()}


def _report(pair, tmp_path) -> tuple[str, str]:
    html, latex = tmp_path / "r.html", tmp_path / "r.tex"
    args = ["report", *(f"--{role.replace('_', '-')}={pair[role]}" for role in ROLES), f"--qrels={pair['qrels']}",
            "--bootstrap=20", f"--out={html}", f"--latex={latex}"]  # fmt: skip
    assert main(args) == 0
    return html.read_text(), latex.read_text()


def _html(pair, tmp_path) -> dict:
    """The report's Table 1 and effects table (cells with data-stat, data-run, data-measure)."""
    shown = {}
    for cell in number_cells(_report(pair, tmp_path)[0]):
        if "value" in cell and cell["stat"] in ("ARP", "KTU", "RBO", "RMSE", "p", "ER", "DeltaRI") and "topic" not in cell and "cutoff" not in cell:
            shown[(cell["stat"], cell.get("run", ""), cell.get("measure", ""))] = cell["text"].split()[0].rstrip("\u2020")
    return shown


def _latex(pair, tmp_path) -> dict:
    """The LaTeX Table 1 (a row per run) and effects table (a row per measure)."""
    shown = {}
    for line in _report(pair, tmp_path)[1].splitlines():
        cells = [c.strip().replace("$^\\dagger$", "") for c in line.removesuffix("\\\\").split(" & ")]
        if cells[0] in (tex_escape("new baseline (b\u2032)"), tex_escape("new advanced (a\u2032)"), "original baseline (b)", "original advanced (a)"):
            side, kind = ("new" if cells[0].startswith("new") else "orig"), ("baseline" if "baseline" in cells[0] else "advanced")
            shown |= {("ARP", f"{side}_{kind}", m): c for m, c in zip(MEASURES, cells[1:4], strict=True)}
            if side == "new":
                shown |= {("KTU", kind, ""): cells[4], ("RBO", kind, ""): cells[5]}
                shown |= {(s, kind, m): c for s, at in (("RMSE", 6), ("p", 12)) for m, c in zip(MEASURES, cells[at : at + 3], strict=True)}
        elif cells[0] == "1: replication" and cells[1] in MEASURES:
            shown |= {("ER", "", cells[1]): cells[2], ("DeltaRI", "", cells[1]): cells[4]}
    return {key: text.replace("$-$", MINUS) for key, text in shown.items()}


def _book(pair) -> dict:
    """The comparison's frame as a book table (irrepro.plots.tables), ER and DeltaRI at the tools' four decimals."""
    comparison = compare_runs(**{role: read_run(pair[role]) for role in ROLES}, qrels=read_qrels(pair["qrels"]))
    frame = comparison.to_frame().query("statistic not in ('DeltaARP', 'nRMSE')")  # those of the reference, below
    wide = frame.assign(column=frame["statistic"] + ":" + frame["measure"]).pivot(index="run", columns="column", values="value")
    shown = tables.table(wide, caption="A comparison", formats={"ER": tables.decimals(4), "DeltaRI": tables.decimals(4)})
    cells = shown.cells.set_axis(list(wide.columns), axis=1)
    texts = {(column.split(":")[0], run, column.split(":")[1]): cells.at[run, column] for column in wide.columns for run in wide.index
             if pd.notna(wide.at[run, column])}  # fmt: skip
    return {key: text.rstrip("*") for key, text in texts.items()}


@pytest.mark.parametrize("output", ["text", "json", "html", "latex", "book"])
def test_every_output_writes_a_number_as_compares_table(output, pair, capsys, tmp_path):
    """The same number reads the same in every output, but for the minus sign of the medium (ASCII in
    the terminal, U+2212 in HTML and the book, $-$ in LaTeX): p-values, negative values, zero."""
    reference = _text_table(pair, capsys)
    assert len(reference) == 12 + 4 + 6 + 6 + 6 and {"1", "0.0000"} <= set(reference.values())  # p = 1 and RMSE 0 occur
    assert any(t.startswith("-") for t in reference.values()) and any("e-" in t for t in reference.values())
    shown = {"text": lambda: reference, "json": lambda: _json(pair, capsys), "html": lambda: _html(pair, tmp_path),
             "latex": lambda: _latex(pair, tmp_path), "book": lambda: _book(pair)}[output]()  # fmt: skip
    assert set(shown) == set(reference)
    minus = "-" if output in ("text", "json") else MINUS
    for key, text in shown.items():
        expected = minus + reference[key][1:] if reference[key].startswith("-") else reference[key]
        assert text == expected, (key, text, expected)
