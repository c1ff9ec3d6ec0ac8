"""Rendering: a self-contained HTML file (nothing fetched, no script) and well-formed booktabs LaTeX."""

from __future__ import annotations

import doctest
import re

import pytest

from irrepro.report import formatting, inputs, render
from irrepro.report.analysis import ReportOptions, analyse
from irrepro.report.build import build_context
from irrepro.report.inputs import InputFile
from irrepro.report.render import render_html, render_latex, tex_escape
from irrepro.reproducibility.compare import ROLES
from irrepro.runs import read_qrels, read_run


@pytest.fixture(scope="module")
def context(files):
    runs = {role: read_run(files[role]) for role in ROLES}
    data = analyse({r: runs[r] for r in ROLES[:2]}, [("a_&_b", runs["new_baseline"], runs["new_advanced"])],
                   read_qrels(files["qrels"]), options=ReportOptions(n_resamples=100))  # fmt: skip
    listed = [InputFile(role, "a_&_b" if role.startswith("new") else "", str(files[role]), "0" * 64) for role in ROLES]
    return build_context(data, listed, title="T <1> & 50%", command="irrepro report --x 'y z'", versions={"irrepro": "0.1.0"})


@pytest.mark.parametrize("module", [formatting, inputs, render], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_html_is_self_contained_and_escaped(context):
    html = render_html(context)
    assert html.startswith("<!DOCTYPE html>") and '<html lang="en">' in html
    assert "<script" not in html and "<link" not in html and "@import" not in html and " src=" not in html
    # the only URLs are XML namespace names, which nothing fetches
    assert set(re.findall(r"https?://[^\s\"')]+", html)) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert "<title>T &lt;1&gt; &amp; 50%</title>" in html and "a_&amp;_b" in html
    assert html.count("<svg") == 2 and "@media print" in html
    assert all('scope="' in th for th in re.findall(r"<th\b[^>]*>", html))


def test_latex_is_booktabs_and_escaped(context):
    latex = render_latex(context)
    # the verdicts under topic resampling, Table 1 and the intervals of the one pair, and the effects
    assert latex.count("\\begin{table}") == latex.count("\\end{table}") == len(context["latex_tables"]) == 4
    assert latex.count("\\toprule") == latex.count("\\midrule") == latex.count("\\bottomrule") == 4
    assert "\\hline" not in latex and "a\\_\\&\\_b" in latex and "T <1>" not in latex
    for match in re.finditer(r"\\begin\{tabular\}\{(\w+)\}(.*?)\\end\{tabular\}", latex, flags=re.DOTALL):
        columns = len(match.group(1))
        for line in match.group(2).splitlines():
            if line.endswith("\\\\") and "multicolumn" not in line:
                assert line.count(" & ") == columns - 1, line


def test_tex_escape_spells_out_the_reports_signs():
    assert tex_escape("\u0394RI \u2212 b\u2032 \u2020 100% #1 ~x^2 a\\b") == (
        "$\\Delta$RI $-$ b$'$ $^\\dagger$ 100\\% \\#1 \\textasciitilde{}x\\textasciicircum{}2 a\\textbackslash{}b"
    )
