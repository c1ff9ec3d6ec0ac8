"""Check the teaching parts of the rendered book as a student meets them, in headless Chromium.

Usage: python tools/check_teaching.py [_build/html] [--root BOOK]   (BOOK holds _toc.yml; default: this repository)

Serves the HTML on a loopback port, opens every page of ``_toc.yml`` with Playwright in Chromium
(Debian's, never a downloaded one) and checks:

- exercises are numbered 1, 2, ... on each page, and each solution is folded until its toggle is clicked;
- the download menu offers both notebooks, and both links answer with a valid notebook: the student
  one without solution cells and with one answer cell per exercise, the other with every solution;
- repository, issues and launch buttons appear only when ``IRREPRO_REPOSITORY_URL`` is set, and
  then point at that repository;
- the course page comes first in a "Course" part of the table of contents, holds the four lessons,
  each with its objectives, prerequisites, reading, exercises, timing and hand-in, and every link
  of it leads to a section or exercise that exists on the rendered page it names;
- every paper chapter has at least ``MIN_EXERCISES_PER_CHAPTER`` exercises, the book at least
  ``MIN_EXERCISES``.

Prints one line per page and a total; exit status 1 with one line per problem.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import nbformat
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_notebooks import ROOT, is_notebook, toc_pages

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
REPOSITORY_BUTTONS = ".dropdown-source-buttons a, .dropdown-launch-buttons a"
COURSE_PAGE = "chapters/course"
PAPER_CHAPTERS = ("chapters/measuring_reproducibility", "chapters/routing_runs", "chapters/glm")
MIN_EXERCISES_PER_CHAPTER = 5
LESSONS = 4  # one per paper chapter and one on controlled deterioration
MIN_EXERCISES = 15
LESSON_PARTS = ("Objectives", "Prerequisites", "Read", "Exercises", "Timing", "Hand in")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    sys.exit("check_teaching: Chromium not found; install it with `apt-get install chromium` (Debian)")


def check_exercises(page, name: str) -> tuple[int, list[str]]:
    """Numbering of the exercises; every solution folded, and unfolded by its toggle."""
    problems = []
    numbers = [text.strip() for text in page.locator("div.exercise .caption-number").all_inner_texts()]
    if numbers != [f"Exercise {i}" for i in range(1, len(numbers) + 1)]:
        problems.append(f"{name}: exercises are not numbered 1..n: {numbers}")
    solutions = page.locator("div.solution")
    for i in range(solutions.count()):
        solution = solutions.nth(i)
        content = solution.locator("section").first
        if "dropdown" not in (solution.get_attribute("class") or "") or content.is_visible():
            problems.append(f"{name}: solution {i + 1} is not folded")
            continue
        solution.locator("button.toggle-button").first.click()
        content.wait_for(state="visible", timeout=5000)
    return len(numbers), problems


def check_course_place(root: Path) -> list[str]:
    """The course page is the first page of a part captioned "Course"."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    parts = toc.get("parts", [])
    first = parts[0] if parts else {}
    if first.get("caption") != "Course" or [e.get("file") for e in first.get("chapters", [])][:1] != [COURSE_PAGE]:
        return [f"_toc.yml: {COURSE_PAGE} is not the first page of a first part captioned 'Course'"]
    return []


def check_course(page, port: int) -> list[str]:
    """Four lessons with their parts; every link of the course page reaches an existing target."""
    problems = []
    lessons = page.locator("section:has(> h2)")
    titles = [text.strip() for text in page.locator("section > h2").all_inner_texts()]
    lesson_titles = [title for title in titles if title.startswith("Lesson")]
    if len(lesson_titles) != LESSONS:
        problems.append(f"{COURSE_PAGE}: expected {LESSONS} lessons (h2 'Lesson ...'), found {lesson_titles}")
    for i in range(lessons.count()):
        lesson = lessons.nth(i)
        title = lesson.locator("> h2").inner_text().strip()
        if not title.startswith("Lesson"):
            continue
        text = lesson.inner_text()
        missing = [part for part in LESSON_PARTS if part not in text]
        if missing:
            problems.append(f"{COURSE_PAGE}: {title!r} lacks {missing}")
    links = page.eval_on_selector_all(
        "article a.reference.internal", "links => links.map(a => a.getAttribute('href'))")
    targets = sorted({link for link in links if link and "#" in link and not link.startswith("#")})
    if len(targets) < 10:
        problems.append(f"{COURSE_PAGE}: only {len(targets)} links into the chapters")
    for link in targets:  # the course page is checked last: leaving it is fine
        document, anchor = link.split("#", 1)
        page.goto(f"http://127.0.0.1:{port}/chapters/{document}", wait_until="load")
        if page.locator(f"[id='{anchor}']").count() == 0:
            problems.append(f"{COURSE_PAGE}: link {link} has no target")
    return problems


def _notebook_problems(text: str, flavour: str, exercises: int, name: str) -> list[str]:
    try:
        notebook = nbformat.reads(text, as_version=4)
        nbformat.validate(notebook)
    except (json.JSONDecodeError, nbformat.ValidationError) as error:
        return [f"{name}: the {flavour} notebook is not a valid notebook ({error})"]
    answers = [cell for cell in notebook.cells if "answer" in cell.metadata.get("tags", [])]
    sources = "\n".join(cell.source for cell in notebook.cells)
    if flavour == "student" and (len(answers) != exercises or "Solution to Exercise" in sources):
        included = "included" if "Solution to Exercise" in sources else "left out"
        return [f"{name}: the student notebook has {len(answers)} answer cells for {exercises} exercises, solutions {included}"]
    if flavour == "solutions" and (answers or sources.count("**Solution to Exercise") != exercises):
        return [f"{name}: the solutions notebook does not hold one solution per exercise"]
    return []


def check_downloads(page, name: str, exercises: int) -> list[str]:
    """Both notebook entries of the download menu answer with the right notebook."""
    problems = []
    for flavour in ("student", "solutions"):
        link = page.locator(f"a.btn-download-{flavour}-notebook-button")
        if link.count() != 1:
            problems.append(f"{name}: no '{flavour}' notebook in the download menu")
            continue
        href = link.get_attribute("href")
        if not (link.get_attribute("download") or "").endswith(".ipynb"):
            problems.append(f"{name}: the {flavour} notebook link does not download a .ipynb file")
        response = page.request.get(page.url.rsplit("/", 1)[0] + "/" + href)
        if not response.ok:
            problems.append(f"{name}: {href} answers {response.status}")
            continue
        problems += _notebook_problems(response.text(), flavour, exercises, name)
    return problems


def check_repository_buttons(page, name: str, repository: str) -> list[str]:
    targets = [page.locator(REPOSITORY_BUTTONS).nth(i).get_attribute("href") for i in range(page.locator(REPOSITORY_BUTTONS).count())]
    if not repository:
        return [f"{name}: a repository or launch button without IRREPRO_REPOSITORY_URL: {targets}"] if targets else []
    owner_repo = repository.rstrip("/").split("/", 3)[-1]
    wrong = [target for target in targets if owner_repo not in target]
    missing = [] if targets else [f"{name}: IRREPRO_REPOSITORY_URL is set, but the page has no repository button"]
    return missing + ([f"{name}: buttons pointing elsewhere than {repository}: {wrong}"] if wrong else [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", nargs="?", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--root", type=Path, default=ROOT, help="the book's folder (with _toc.yml)")
    args = parser.parse_args()
    if not (args.html / "index.html").is_file():
        sys.exit(f"check_teaching: no built book at {args.html} (run `make book` first)")
    pages = {page.relative_to(args.root).with_suffix("").as_posix(): is_notebook(page) for page in toc_pages(args.root)}
    repository = os.environ.get("IRREPRO_REPOSITORY_URL", "").strip()
    server, port = _serve(args.html)
    problems, total = check_course_place(args.root), 0
    if COURSE_PAGE not in pages:
        problems.append(f"_toc.yml has no {COURSE_PAGE}")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page()
            for name, notebook in pages.items():
                page.goto(f"http://127.0.0.1:{port}/{name}.html", wait_until="load")
                exercises, found = check_exercises(page, name)
                if notebook:
                    found += check_downloads(page, name, exercises)
                found += check_repository_buttons(page, name, repository)
                if name == COURSE_PAGE:
                    found += check_course(page, port)
                if name in PAPER_CHAPTERS and exercises < MIN_EXERCISES_PER_CHAPTER:
                    found.append(f"{name}: {exercises} exercises, fewer than {MIN_EXERCISES_PER_CHAPTER}")
                total += exercises
                print(f"{name}: {exercises} exercises, solutions folded"
                      f"{', both notebooks downloaded' if notebook else ', not a notebook'}"
                      f"{'' if not found else '  <- ' + '; '.join(found)}")
                problems += found
            browser.close()
    finally:
        server.shutdown()
    if total < MIN_EXERCISES:
        problems.append(f"the book has {total} exercises, fewer than {MIN_EXERCISES}")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(f"check_teaching: {len(pages)} pages, {total} exercises, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
