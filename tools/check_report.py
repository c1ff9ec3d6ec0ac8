"""Open an ``irrepro report`` HTML file from disk in headless Chromium with the network off, as a reader would.

Usage: python tools/check_report.py REPORT.html [--screenshot PNG]

Checks, each a line on failure (exit status 1):

- the page loads from ``file://`` with the browser offline (``context.set_offline(True)``) and every
  request that is not ``file://`` aborted and counted: there must be none;
- no console error and no uncaught page error;
- every figure is displayed: each ``<svg>`` has a nonzero rendered size, an accessible name
  (``<title>``) and a ``<desc>``;
- every table has header cells with a ``scope``.

A screenshot of the first screen (1280 x 800) goes to ``_build/screenshots/report.png`` unless
``--screenshot`` says elsewhere. Chromium is Debian's ``/usr/bin/chromium`` (or ``$CHROMIUM``),
driven by Playwright without downloading a browser.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip

_FIGURES_JS = """() => Array.from(document.querySelectorAll('svg')).map(svg => {
  const box = svg.getBoundingClientRect();
  const title = svg.querySelector(':scope > title');
  const desc = svg.querySelector(':scope > desc');
  return {id: svg.id, width: box.width, height: box.height,
          title: title ? title.textContent : '', desc: desc ? desc.textContent : ''};
})"""
_HEADERS_JS = """() => Array.from(document.querySelectorAll('table')).map(table => ({
  id: table.id || table.className,
  headers: table.querySelectorAll('th').length,
  unscoped: Array.from(table.querySelectorAll('th')).filter(th => !th.getAttribute('scope')).length,
}))"""


def chromium_path() -> str | None:
    """Debian's Chromium (or ``$CHROMIUM``), None when absent."""
    candidate = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return candidate if Path(candidate).is_file() else None


def check_report(report: Path, screenshot: Path | None) -> tuple[list[str], dict]:
    """Load the report offline and return (problems, facts)."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        return ["Chromium not found (apt-get install chromium, or set $CHROMIUM)"], {}
    problems: list[str] = []
    blocked: list[str] = []
    console_errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.set_offline(True)

            def route(request_route):
                url = request_route.request.url
                if url.startswith("file://"):
                    request_route.continue_()
                else:
                    blocked.append(url)
                    request_route.abort()

            context.route("**/*", route)
            page = context.new_page()
            page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: console_errors.append(str(error)))
            page.goto(report.resolve().as_uri(), wait_until="load")
            page.wait_for_timeout(300)
            figures = page.evaluate(_FIGURES_JS)
            tables = page.evaluate(_HEADERS_JS)
            if screenshot is not None:
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(screenshot))
        finally:
            browser.close()
    problems += [f"request to the network (blocked): {url}" for url in blocked]
    problems += [f"console error: {text}" for text in console_errors]
    if not figures:
        problems.append("no figure (<svg>) in the report")
    for figure in figures:
        if not (figure["width"] > 0 and figure["height"] > 0):
            problems.append(f"figure {figure['id'] or '?'} is not displayed (size {figure['width']} x {figure['height']})")
        if not figure["title"].strip() or not figure["desc"].strip():
            problems.append(f"figure {figure['id'] or '?'} lacks a <title> or a <desc>")
    for table in tables:
        if table["headers"] == 0 or table["unscoped"]:
            problems.append(f"table {table['id']}: {table['headers']} header cells, {table['unscoped']} without scope")
    facts = {"requests_blocked": len(blocked), "console_errors": len(console_errors), "figures": figures, "tables": len(tables)}
    return problems, facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--screenshot", type=Path, default=ROOT / "_build" / "screenshots" / "report.png")
    args = parser.parse_args(argv)
    if not args.report.is_file():
        print(f"check_report: no report at {args.report}", file=sys.stderr)
        return 1
    problems, facts = check_report(args.report, args.screenshot)
    for figure in facts.get("figures", []):
        print(f"figure {figure['id']}: {figure['width']:.0f} x {figure['height']:.0f} px")
    print(f"check_report: {facts.get('tables', 0)} tables, {facts.get('requests_blocked', 0)} network requests, "
          f"{facts.get('console_errors', 0)} console errors, {len(problems)} problems")  # fmt: skip
    if args.screenshot and args.screenshot.is_file():
        print(f"screenshot: {args.screenshot}")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
