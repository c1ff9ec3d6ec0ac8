"""Read the rendered book as a reader would: in headless Chromium at 1280 x 900, after JavaScript ran.

Usage: python tools/check_html.py [_build/html]

Serves the HTML on a loopback port, opens every page listed in ``_toc.yml`` with Playwright in
Chromium (``/usr/bin/chromium`` or the one on ``PATH``), waits for MathJax, and reports one line per
problem, naming the page, the element (with the section it is in) and what is wrong:

- a Python ``Traceback`` or an error output on the page (not in a docstring's example, which may
  show the exception it expects);
- a chapter (every page of ``chapters/`` but the intro, the course and the provenance page; not the
  pages of "Using irrepro" and the API reference in ``docs/``) without a table or without a figure;
- TeX in the page's source that MathJax did not typeset;
- a table or a figure wider than the text column;
- a box whose content is clipped: any element of the article that scrolls or hides its overflow
  and whose content is wider than the box (``scrollWidth > clientWidth``: code lines in ``<pre>``,
  outputs, table containers);
- an ``<img>`` without alternative text (missing or empty ``alt``);
- a figure whose text is smaller than 9 pt as rendered: for an SVG image, the font size of every
  text element scaled by rendered width / intrinsic width (CSS px = pt x 4/3); a raster image in an
  output cannot be measured and is reported as such;
- a figure or table of a cell output without a numbered caption ("Figure N." / "Table N.");
- a table with an unnamed positional index (a column of row headers 0, 1, ..., n-1 under an
  empty header).

Full-page screenshots of every page go to ``_build/screenshots/<page>.png``. Exit status 1 when
there is any problem. :func:`check` is the same for any folder of pages (the tests use it).
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import yaml

ROOT = Path(__file__).resolve().parents[1]
NOT_CHAPTERS = {"chapters/intro", "chapters/course", "chapters/provenance"}


def is_chapter(page: str) -> bool:
    """A paper chapter, which must show a table and a figure (docs/ pages are reference, not chapters)."""
    return page.startswith("chapters/") and page not in NOT_CHAPTERS
VIEWPORT = {"width": 1280, "height": 900}
MIN_FONT_PT = 9.0
PX_PER_PT = 4 / 3
TOLERANCE_PX = 1.0
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic", "--hide-scrollbars",
]  # fmt: skip

# Everything the rules need, measured in the page after layout (one call per page).
_MEASURE_JS = r"""
() => {
  const article = document.querySelector("article.bd-article") || document.querySelector("main") || document.body;
  const style = getComputedStyle(article);
  const box = article.getBoundingClientRect();
  const column = {left: box.left + parseFloat(style.paddingLeft),
                  right: box.right - parseFloat(style.paddingRight)};
  column.width = column.right - column.left;
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const section = (el) => { const s = el.closest("section[id]"); return s ? "#" + s.id : "(top)"; };
  const snippet = (el) => (el.innerText || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 60);
  const inOutput = (el) => !!el.closest(".cell_output, .output");
  const tables = [...article.querySelectorAll("table")].filter(visible).map((t) => {
    const r = t.getBoundingClientRect();
    const caption = t.querySelector("caption");
    const headRows = [...t.querySelectorAll("thead tr")];
    const bodyRows = [...t.querySelectorAll("tbody tr")];
    const leading = bodyRows.map((row) => { const out = [];
      for (const cell of row.children) { if (cell.tagName !== "TH") break; out.push(cell.textContent.trim()); }
      return out; });
    const headers = headRows.map((row) => [...row.children].map((c) => c.tagName === "TH" ? c.textContent.trim() : null));
    return {section: section(t), caption: caption ? caption.textContent.trim() : "", text: snippet(t),
            left: r.left, right: r.right, width: r.width, output: inOutput(t), leading, headers};
  });
  const images = [...article.querySelectorAll("img")].filter(visible).map((img) => {
    const r = img.getBoundingClientRect();
    const figure = img.closest("figure");
    const caption = figure ? figure.querySelector("figcaption") : null;
    return {section: section(img), src: img.currentSrc || img.src, alt: img.getAttribute("alt"),
            left: r.left, right: r.right, width: r.width, naturalWidth: img.naturalWidth,
            output: inOutput(img), caption: caption ? caption.textContent.trim() : null};
  });
  const clipped = [];
  for (const el of article.querySelectorAll("*")) {
    // MathJax's own glyph boxes overhang by design; a display formula's container is still checked
    if (el.closest("mjx-container") || el.matches("span.math")) continue;
    if (!visible(el)) continue;
    const overflow = getComputedStyle(el).overflowX;
    if (overflow === "visible") continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      clipped.push({section: section(el), tag: el.tagName.toLowerCase(),
                    cls: (el.className && el.className.baseVal === undefined ? el.className : "").split(" ")[0],
                    scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, text: snippet(el)});
    }
  }
  // A docstring example (.doctest, on the API pages) may show the exception it expects.
  const shown = article.cloneNode(true);
  shown.querySelectorAll(".doctest").forEach((el) => el.remove());
  return {column, tables, images, clipped,
          formulas: document.querySelectorAll("mjx-container").length,
          traceback: /Traceback \(most recent call last\)/.test(shown.textContent)
                     || !!article.querySelector(".output.traceback, .output_error, .output.error, .stderr")};
}
"""


@dataclass
class PageReport:
    """What :func:`check` found on one page."""

    page: str
    tables: int
    figures: int
    formulas: int
    problems: list[str]
    found: bool = True  # whether the page was there at all


# --------------------------------------------------------------------------- rules on the measurements


def _where(item: dict) -> str:
    return item["section"]


def _table_name(table: dict) -> str:
    label = table["caption"] or table["text"]
    return f"table '{label[:50]}'"


def _image_name(image: dict) -> str:
    return f"figure '{image['caption'][:50]}'" if image["caption"] else f"image {Path(image['src']).name}"


def _too_wide(item: dict, column: dict) -> str | None:
    if item["width"] > column["width"] + TOLERANCE_PX or item["right"] > column["right"] + TOLERANCE_PX:
        return f"{item['width']:.0f} px wide, the text column is {column['width']:.0f} px"
    return None


def positional_index_columns(table: dict) -> list[int]:
    """Positions of body row-header columns that read 0, 1, ..., n-1 under an empty header."""
    rows = table["leading"]
    if len(rows) < 2:
        return []
    found = []
    for position in range(min(len(row) for row in rows)):
        labels = [row[position] for row in rows]
        if labels != [str(number) for number in range(len(rows))]:
            continue
        header = [row[position] for row in table["headers"] if position < len(row) and row[position] is not None]
        if not any(header):
            found.append(position)
    return found


def table_problems(table: dict, column: dict) -> list[str]:
    name, problems = _table_name(table), []
    wide = _too_wide(table, column)
    if wide:
        problems.append(f"{name} in {_where(table)}: wider than the text column ({wide})")
    if positional_index_columns(table):
        problems.append(f"{name} in {_where(table)}: shows an unnamed positional index (row numbers 0..n-1)")
    if table["output"] and not re.match(r"Table \d+\.", table["caption"]):
        problems.append(f"{name} in {_where(table)}: no numbered caption ('Table N. ...')")
    return problems


def image_problems(image: dict, column: dict, svg_text: Callable[[str], str | None]) -> list[str]:
    name, problems = _image_name(image), []
    if not (image["alt"] or "").strip():
        problems.append(f"{name} in {_where(image)}: no alternative text (alt)")
    wide = _too_wide(image, column)
    if wide:
        problems.append(f"{name} in {_where(image)}: wider than the text column ({wide})")
    if image["output"] and not re.match(r"Figure \d+\.", image["caption"] or ""):
        problems.append(f"{name} in {_where(image)}: no numbered caption ('Figure N. ...')")
    if image["src"].split("?")[0].lower().endswith(".svg"):
        source = svg_text(image["src"])
        smallest = None if source is None else smallest_font_px(source, image["width"])
        if source is None:
            problems.append(f"{name} in {_where(image)}: its SVG could not be read")
        elif smallest is not None and smallest < MIN_FONT_PT * PX_PER_PT - 0.01:
            problems.append(
                f"{name} in {_where(image)}: text of {smallest / PX_PER_PT:.1f} pt as rendered "
                f"(at least {MIN_FONT_PT:g} pt needed)"
            )
    elif image["output"]:
        problems.append(f"{name} in {_where(image)}: a raster image, its text size cannot be checked (use SVG)")
    return problems


# --------------------------------------------------------------------------- SVG font sizes

_LENGTH = re.compile(r"^\s*([0-9.]+)\s*(px|pt|in|cm|mm)?\s*$")
_UNIT_TO_PX = {None: 1.0, "px": 1.0, "pt": PX_PER_PT, "in": 96.0, "cm": 96 / 2.54, "mm": 9.6 / 2.54}
_FONT_SIZE = re.compile(r"font-size\s*:\s*([0-9.]+)\s*(px|pt)?|(?:^|;)\s*font\s*:[^;]*?([0-9.]+)(px|pt)")
_SCALE = re.compile(r"scale\(\s*([-0-9.eE]+)(?:[ ,]+([-0-9.eE]+))?\s*\)")


def _length_px(text: str | None) -> float | None:
    match = _LENGTH.match(text or "")
    return float(match.group(1)) * _UNIT_TO_PX[match.group(2)] if match else None


def _font_size(element: ElementTree.Element) -> float | None:
    """The element's own font size in user units, from its style or attribute."""
    match = _FONT_SIZE.search(element.get("style", ""))
    if match:
        value, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        return float(value) * (PX_PER_PT if unit == "pt" else 1.0)
    return _length_px(element.get("font-size"))


def _scale(element: ElementTree.Element) -> float:
    """The vertical scale an element's own ``transform`` applies (text height scales with it)."""
    factor = 1.0
    for match in _SCALE.finditer(element.get("transform", "")):
        factor *= abs(float(match.group(2) or match.group(1)))
    return factor


def smallest_font_px(svg: str, rendered_width: float) -> float | None:
    """The smallest font size of the SVG's text, in CSS px at ``rendered_width`` px; None without text."""
    root = ElementTree.fromstring(svg.encode() if isinstance(svg, str) else svg)
    view_box = [float(v) for v in re.split(r"[ ,]+", root.get("viewBox", "").strip()) if v]
    user_width = view_box[2] if len(view_box) == 4 else _length_px(root.get("width"))
    if not user_width or rendered_width <= 0:
        return None
    px_per_unit = rendered_width / user_width
    sizes = []

    def walk(element, inherited: float | None, scale: float) -> None:
        scale *= _scale(element)
        own = _font_size(element)
        size = own if own is not None else inherited
        tag = element.tag.rsplit("}", 1)[-1]
        if tag in ("text", "tspan") and size is not None and (element.text or "").strip():
            sizes.append(size * scale)
        for child in element:
            walk(child, size, scale)

    walk(root, None, 1.0)
    return min(sizes) * px_per_unit if sizes else None


# --------------------------------------------------------------------------- pages


def has_math(source: str) -> bool:
    """Whether a MyST source has TeX outside code: ``$...$``, ``$$...$$`` or a math directive."""
    prose = re.sub(r"```.*?```", " ", source, flags=re.DOTALL)  # code cells and code blocks
    prose = re.sub(r"`[^`\n]*`", " ", prose)  # inline code
    return bool(re.search(r"\$\$|\$[^$\s][^$\n]*[^$\s]\$|\{math\}", prose))


def page_problems(page: str, found: dict, *, chapter: bool, math: bool, svg_text) -> list[str]:
    """Every problem of one page, from the measurements of :data:`_MEASURE_JS`."""
    problems = []
    if found["traceback"]:
        problems.append("shows a Traceback or an error output")
    if chapter and not found["tables"]:
        problems.append("no table")
    if chapter and not any("/_images/" in image["src"] for image in found["images"]):
        problems.append("no figure (<img> from _images/)")
    if math and not found["formulas"]:
        problems.append("formulas not typeset by MathJax")
    for table in found["tables"]:
        problems += table_problems(table, found["column"])
    for image in found["images"]:
        problems += image_problems(image, found["column"], svg_text)
    for box in found["clipped"]:
        kind = f"<{box['tag']}{' class=' + box['cls'] if box['cls'] else ''}>"
        problems.append(
            f"{kind} in {box['section']}: content clipped ({box['scrollWidth']} px of content in a "
            f"{box['clientWidth']} px box): '{box['text'][:50]}'"
        )
    return [f"{page}: {problem}" for problem in problems]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _serve(folder: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium_path() -> str | None:
    """The Chromium binary: Debian's ``/usr/bin/chromium`` or one on ``PATH``."""
    for candidate in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


def _wait_for_math(page) -> None:
    page.wait_for_load_state("load")
    page.evaluate(
        "() => (window.MathJax && MathJax.startup && MathJax.startup.promise) ? MathJax.startup.promise : null"
    )
    page.wait_for_timeout(300)


def _check_page(tab, page: str, url: str, chapters, math_pages, svg_text) -> PageReport:
    response = tab.goto(url)
    if response is None or not response.ok:
        return PageReport(page, 0, 0, 0, [f"{page}: not found at {url}"], found=False)
    _wait_for_math(tab)
    found = tab.evaluate(_MEASURE_JS)
    problems = page_problems(page, found, chapter=page in chapters, math=page in math_pages, svg_text=svg_text)
    figures = sum("/_images/" in image["src"] for image in found["images"])
    return PageReport(page, len(found["tables"]), figures, found["formulas"], problems)


def check(
    html: Path,
    pages: Sequence[str],
    *,
    chapters: Sequence[str] = (),
    math_pages: Sequence[str] = (),
    screenshots: Path | None = None,
) -> list[PageReport]:
    """Open ``html/<page>.html`` for every page at 1280 x 900 and apply every rule; screenshots if asked."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError("check_html: Chromium not found; install it with `apt-get install chromium` (Debian)")
    server = _serve(html)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    reports = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=VIEWPORT)

            def svg_text(url: str) -> str | None:
                response = context.request.get(url)
                return response.text() if response.ok else None

            for page in pages:
                tab = context.new_page()  # a fresh tab per page: nothing carries over, not even scrolling
                reports.append(_check_page(tab, page, f"{base}/{page}.html", chapters, math_pages, svg_text))
                if screenshots is not None and reports[-1].found:
                    screenshots.mkdir(parents=True, exist_ok=True)
                    tab.screenshot(path=str(screenshots / f"{Path(page).name}.png"), full_page=True)
                tab.close()
            browser.close()
    finally:
        server.shutdown()
    return reports


def _toc_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"]] + [chapter["file"] for part in toc.get("parts", [toc]) for chapter in part.get("chapters", [])]


def main() -> int:
    html = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "html"
    if not (html / "index.html").is_file():
        sys.exit(f"check_html: no built book at {html} (run `make book` first)")
    pages = _toc_pages()
    math_pages = [page for page in pages if has_math((ROOT / f"{page}.md").read_text(encoding="utf-8"))]
    shots = ROOT / "_build" / "screenshots"
    reports = check(
        html, pages, chapters=[p for p in pages if is_chapter(p)], math_pages=math_pages, screenshots=shots
    )
    problems = [problem for report in reports for problem in report.problems]
    for report in reports:
        print(f"{report.page}: {report.tables} tables, {report.figures} figures, {report.formulas} typeset formulas, "
              f"{len(report.problems)} problems")  # fmt: skip
    print(f"screenshots: {shots}/")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(f"check_html: {len(reports)} pages, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
