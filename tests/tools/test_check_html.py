"""The reader check (tools/check_html.py), rule by rule, on tiny hand-written pages in Chromium.

All pages are checked in one browser session (module fixture); each test reads its page's report.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "check_html.py"
_SPEC = importlib.util.spec_from_file_location("check_html", _PATH)
check_html = importlib.util.module_from_spec(_SPEC)
sys.modules["check_html"] = check_html  # dataclasses look their module up there
_SPEC.loader.exec_module(check_html)

pytest.importorskip("playwright.sync_api")
if check_html.chromium_path() is None:
    pytest.skip("Chromium is not installed", allow_module_level=True)

_PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; font: 16px sans-serif; }}
article.bd-article {{ width: 688px; padding: 0 32px; }}
pre, .cell_output {{ overflow: auto; }}
</style></head><body><article class="bd-article"><section id="results">
{body}
</section></article></body></html>"""

_TABLE = """<div class="cell_output"><table><caption>Table 1. Scores.</caption>
<thead><tr><th>run</th><th>AP</th></tr></thead>
<tbody><tr><th>a</th><td>0.1</td></tr><tr><th>b</th><td>0.2</td></tr></tbody></table></div>"""

_FIGURE = """<div class="cell_output"><figure><img src="_images/{name}" {alt} {size}>
<figcaption>{caption}</figcaption></figure></div>"""

# A 1 x 1 PNG.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f80f00000101000518d84e0000000049454e44ae426082"
)


def _svg(font_px: float, width_pt: float = 300) -> str:
    """An SVG in matplotlib's form: viewBox in points, font sizes in user units."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width_pt}pt" height="100pt" '
        f'viewBox="0 0 {width_pt} 100"><text x="10" y="50" style="font-size: {font_px}px; '
        f"font-family: 'DejaVu Sans'\">label</text></svg>"
    )


def _figure(name: str, *, alt='alt="A line rising."', size="", caption="Figure 1. A line.") -> str:
    return _FIGURE.format(name=name, alt=alt, size=size, caption=caption)


_IMAGES = {
    "ok.svg": _svg(9),
    "small.svg": _svg(7),
    "half.svg": _svg(10),
    "wide.svg": _svg(12, width_pt=600),
}
_PAGES = {
    "good": _TABLE + _figure("ok.svg"),
    "wide_table": _TABLE.replace("<table>", '<table style="width: 900px">').replace(
        'class="cell_output"', 'class="cell_output" style="overflow: visible"'
    ),
    "clipped": "<pre>x = 1  # " + "long comment " * 12 + "</pre>",
    "empty_alt": _figure("ok.svg", alt='alt=""'),
    "no_alt": _figure("ok.svg", alt=""),
    "small_text": _figure("small.svg"),
    "scaled_down": _figure("half.svg", size='style="width: 200px"'),
    "wide_figure": _figure("wide.svg"),
    "raster": _figure("r.png"),
    "positional": _TABLE.replace("<th>run</th>", "<th></th>")
    .replace("<th>a</th>", "<th>0</th>")
    .replace("<th>b</th>", "<th>1</th>"),
    "named_numbers": _TABLE.replace("<th>a</th>", "<th>0</th>").replace("<th>b</th>", "<th>1</th>"),
    "uncaptioned": _TABLE.replace("Table 1. Scores.", "Scores") + _figure("ok.svg", caption="A line"),
    "broken": "<pre>Traceback (most recent call last):\n  File x</pre>",
    "doctest": '<div class="doctest"><pre>&gt;&gt;&gt; f()\nTraceback (most recent call last):\n...</pre></div>',
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, list[str]]:
    site = tmp_path_factory.mktemp("html")
    (site / "_images").mkdir()
    for name, text in _IMAGES.items():
        (site / "_images" / name).write_text(text)
    (site / "_images" / "r.png").write_bytes(_PNG)
    for name, body in _PAGES.items():
        (site / f"{name}.html").write_text(_PAGE.format(body=body))
    shots = tmp_path_factory.mktemp("shots")
    found = check_html.check(
        site, list(_PAGES), chapters=["good", "broken"], math_pages=["broken"], screenshots=shots
    )
    assert (shots / "good.png").stat().st_size > 0  # a screenshot of every page
    return {report.page: report.problems for report in found}


def test_a_page_in_the_book_style_has_no_problem(reports):
    assert reports["good"] == []


def test_a_table_wider_than_the_text_column(reports):
    (problem,) = reports["wide_table"]
    assert problem.startswith("wide_table: table 'Table 1. Scores.' in #results: wider than the text column (900 px")


def test_clipped_code_and_output_boxes(reports):
    (problem,) = reports["clipped"]
    assert problem.startswith("clipped: <pre> in #results: content clipped (")
    assert "'x = 1 # long comment" in problem


def test_images_need_alternative_text(reports):
    for page in ("empty_alt", "no_alt"):
        assert reports[page] == [f"{page}: figure 'Figure 1. A line.' in #results: no alternative text (alt)"]


def test_svg_text_below_9_pt_as_rendered(reports):
    assert reports["small_text"] == [
        "small_text: figure 'Figure 1. A line.' in #results: text of 7.0 pt as rendered (at least 9 pt needed)"
    ]
    # 10 pt text in an SVG of 300 pt (400 px) shown 200 px wide renders at 5 pt
    assert reports["scaled_down"] == [
        "scaled_down: figure 'Figure 1. A line.' in #results: text of 5.0 pt as rendered (at least 9 pt needed)"
    ]


def test_a_figure_wider_than_the_column_and_a_raster_output(reports):
    assert reports["wide_figure"] == [
        "wide_figure: figure 'Figure 1. A line.' in #results: wider than the text column "
        "(800 px wide, the text column is 688 px)",
        "wide_figure: <div class=cell_output> in #results: content clipped (840 px of content in a 688 px box): "
        "'Figure 1. A line.'",
    ]
    assert reports["raster"] == [
        "raster: figure 'Figure 1. A line.' in #results: a raster image, its text size cannot be checked (use SVG)"
    ]


def test_an_unnamed_positional_index(reports):
    assert reports["positional"] == [
        "positional: table 'Table 1. Scores.' in #results: shows an unnamed positional index (row numbers 0..n-1)"
    ]
    assert reports["named_numbers"] == []  # the same numbers under a header are labels


def test_outputs_need_numbered_captions(reports):
    assert reports["uncaptioned"] == [
        "uncaptioned: table 'Scores' in #results: no numbered caption ('Table N. ...')",
        "uncaptioned: figure 'A line' in #results: no numbered caption ('Figure N. ...')",
    ]


def test_tracebacks_missing_tables_figures_and_math(reports):
    assert reports["broken"] == [
        "broken: shows a Traceback or an error output",
        "broken: no table",
        "broken: no figure (<img> from _images/)",
        "broken: formulas not typeset by MathJax",
    ]


def test_a_docstring_example_may_show_the_exception_it_expects(reports):
    assert reports["doctest"] == []


def test_svg_font_sizes_follow_inheritance_units_and_scale():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50pt" viewBox="0 0 100 50">'
        '<g style="font-size: 12px"><text>a</text><text style="font-size: 6pt">b</text></g>'
        '<text font-size="20" transform="scale(0.5)">c</text></svg>'
    )
    # at its intrinsic size (133.3 px for 100 user units), 6 pt = 8 user units -> 10.7 px
    assert check_html.smallest_font_px(svg, 100 * 4 / 3) == pytest.approx(8 * 4 / 3)
    assert check_html.smallest_font_px('<svg xmlns="http://www.w3.org/2000/svg" width="10"/>', 10) is None


def test_math_in_a_source_is_found_outside_code():
    assert check_html.has_math("The mean $\\bar{x}$ of $x$.")
    assert not check_html.has_math("Costs `$5` and ```\n$$x$$\n```")


def test_paper_chapters_need_tables_and_figures_reference_pages_do_not():
    assert check_html.is_chapter("chapters/glm")
    assert not check_html.is_chapter("chapters/course")
    assert not check_html.is_chapter("docs/using/command-line")
    assert not check_html.is_chapter("docs/api/api-glm")
