"""Read the rendered book as a reader would: in headless Chromium, after JavaScript ran.

Usage: python tools/check_html.py [_build/html]

Serves the HTML on a loopback port, loads every page listed in ``_toc.yml`` in headless Chromium
(``--dump-dom`` after a virtual-time budget, so MathJax has typeset), and checks:

- no page shows a Python ``Traceback`` or an error output;
- every chapter page (all but the intro and provenance pages) has at least one table and one figure (``<img>``);
- every page that contains TeX has it typeset by MathJax (``mjx-container`` elements, no raw ``$$``);
- a screenshot of the intro page is kept at ``_build/screenshots/intro.png``.
Exit status 1 with one line per problem.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
NOT_CHAPTERS = {"chapters/intro", "chapters/provenance"}
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--virtual-time-budget=15000",
]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("check_html: Chromium not found; install it with `apt-get install chromium` (Debian)")


def _pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"]] + [chapter["file"] for chapter in toc.get("chapters", [])]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def _run_chromium(arguments: list[str]) -> str:
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *arguments],
            capture_output=True, text=True, timeout=120,
        )
    return result.stdout


def _has_math(source: str) -> bool:
    """Whether a MyST source has TeX outside code: ``$...$``, ``$$...$$`` or a math directive."""
    prose = re.sub(r"```.*?```", " ", source, flags=re.DOTALL)  # code cells and code blocks
    prose = re.sub(r"`[^`\n]*`", " ", prose)  # inline code
    return bool(re.search(r"\$\$|\$[^$\s][^$\n]*[^$\s]\$|\{math\}", prose))


def check_page(page: str, dom: str, source_has_math: bool) -> list[str]:
    problems = []
    text = re.sub(r"<[^>]+>", " ", dom)
    if "Traceback" in text or 'class="output traceback' in dom or "output_error" in dom:
        problems.append(f"{page}: shows a Traceback or an error output")
    if page not in NOT_CHAPTERS:
        if "<table" not in dom:
            problems.append(f"{page}: no table")
        if not re.search(r"<img[^>]+src=\"[^\"]*_images/", dom):
            problems.append(f"{page}: no figure (<img> from _images/)")
    if source_has_math and "<mjx-container" not in dom:
        problems.append(f"{page}: formulas not typeset by MathJax")
    return problems


def main() -> int:
    html = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "html"
    if not (html / "index.html").is_file():
        sys.exit(f"check_html: no built book at {html} (run `make book` first)")
    server, port = _serve(html)
    problems = []
    try:
        for page in _pages():
            url = f"http://127.0.0.1:{port}/{page}.html"
            dom = _run_chromium(["--dump-dom", url])
            if not dom.strip():
                problems.append(f"{page}: Chromium rendered nothing at {url}")
                continue
            source = (ROOT / f"{page}.md").read_text(encoding="utf-8")
            has_math = _has_math(source)
            page_problems = check_page(page, dom, has_math)
            problems += page_problems
            tables, images = dom.count("<table"), len(re.findall(r"<img[^>]+_images/", dom))
            formulas = dom.count("<mjx-container")
            print(f"{page}: {tables} tables, {images} figures, {formulas} typeset formulas"
                  f"{'' if not page_problems else '  <- ' + '; '.join(page_problems)}")
        shots = ROOT / "_build" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        _run_chromium([f"--screenshot={shots / 'intro.png'}", "--window-size=1280,1600",
                       f"http://127.0.0.1:{port}/{_pages()[0]}.html"])
        if not (shots / "intro.png").is_file():
            problems.append("no screenshot of the intro page was written")
        else:
            print(f"screenshot: {shots / 'intro.png'}")
    finally:
        server.shutdown()
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(f"check_html: {len(_pages())} pages, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
