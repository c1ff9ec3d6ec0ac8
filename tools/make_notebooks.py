"""Write every page of the book as a Jupyter notebook, in two flavours, for handing out.

Usage: python tools/make_notebooks.py [--out _build/notebooks] [PAGE.md ...]   (default: the pages of _toc.yml)

``solutions/NAME.ipynb`` holds the whole page; ``student/NAME.ipynb`` drops every solution (a
``{solution}`` directive, or everything from ``{solution-start}`` to ``{solution-end}``, code cells
included) and puts one empty answer cell (tagged ``answer``) after every exercise. In both, the
exercise and solution directives of sphinx-exercise become plain Markdown ("**Exercise 2** (title)",
numbered per page as the HTML numbers them) and admonitions become quotes, so they read well in
Jupyter. Nothing is executed: the notebooks carry no outputs.

Rule for chapter authors this relies on: a name defined in a solution's code cells is not used
outside that solution (tests/tools/test_make_notebooks.py checks every chapter).
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
FLAVOURS = ("solutions", "student")
_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[A-Za-z][\w-]*)\}[ \t]*(?P<argument>.*?)\s*$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*?)\s*$")
ADMONITIONS = {"admonition", "note", "important", "tip", "hint", "warning", "caution", "attention", "seealso"}


@dataclass
class Directive:
    """A top-level MyST directive of a Markdown cell: ``{name} argument``, ``:key: value`` options, body."""

    name: str
    argument: str
    options: dict[str, str]
    body: str
    raw: str


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def parse_markdown(source: str, *, where: str = "") -> list[str | Directive]:
    """Split Markdown into plain text and top-level directives (nested ones stay in the body)."""
    lines = source.split("\n")
    blocks: list[str | Directive] = []
    text: list[str] = []
    i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if not opened:
            text.append(lines[i])
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if _closes(lines[j], opened["fence"])), None)
        if end is None:
            raise ValueError(f"{where}: directive {{{opened['name']}}} is not closed: {lines[i]!r}")
        inner = lines[i + 1 : end]
        options = {}
        while inner and _OPTION.match(inner[0]):
            option = _OPTION.match(inner.pop(0))
            options[option["key"]] = option["value"]
        if text:
            blocks.append("\n".join(text))
            text = []
        body = "\n".join(inner).strip("\n")
        blocks.append(Directive(opened["name"], opened["argument"], options, body, "\n".join(lines[i : end + 1])))
        i = end + 1
    if text:
        blocks.append("\n".join(text))
    return blocks


def _quote(title: str, body: str) -> str:
    lines = [f"**{title}**"] + ([""] + body.split("\n") if body else [])
    return "\n".join(f"> {line}" if line else ">" for line in lines)


@dataclass
class _Flavours:
    """The two notebooks' cells being built, with the Markdown not yet closed into a cell."""

    check_ids: set[str]
    cells: dict[str, list] = field(default_factory=lambda: {flavour: [] for flavour in FLAVOURS})
    text: dict[str, list[str]] = field(default_factory=lambda: {flavour: [] for flavour in FLAVOURS})
    numbers: dict[str, int | None] = field(default_factory=dict)  # exercise label -> its number on the page
    count: int = 0  # numbered exercises so far
    exercise_of: tuple[str, int | None] | None = None  # label and number of the open gated exercise
    solution_of: str | None = None  # the exercise whose gated solution is open

    def add_text(self, piece: str, flavours=FLAVOURS) -> None:
        for flavour in flavours:
            if flavour == "student" and self.solution_of is not None:
                continue
            self.text[flavour].append(piece)

    def flush(self) -> None:
        for flavour in FLAVOURS:
            source = "\n".join(self.text[flavour]).strip("\n")
            if source.strip():
                self.cells[flavour].append(nbformat.v4.new_markdown_cell(source))
            self.text[flavour] = []

    def add_code(self, cell) -> None:
        self.flush()
        self.cells["solutions"].append(copy.deepcopy(cell))
        if self.solution_of is None:
            self.cells["student"].append(copy.deepcopy(cell))

    def answer_cell(self, label: str, number: int | None) -> None:
        self.flush()
        lines = [f"# Exercise{'' if number is None else f' {number}'}: your answer here."]
        if label in self.check_ids:
            lines.append(f'# Check it: from irrepro import exercises; exercises.check("{label}", answer)')
        self.cells["student"].append(nbformat.v4.new_code_cell("\n".join(lines), metadata={"tags": ["answer"]}))


def _exercise(state: _Flavours, block: Directive) -> None:
    label = block.options.get("label", "")
    number = None
    if "nonumber" not in block.options:
        state.count += 1
        number = state.count
    if label:
        state.numbers[label] = number
    title = f" ({block.argument})" if block.argument else ""
    heading = "Exercise" if number is None else f"Exercise {number}"
    state.add_text(f"---\n\n**{heading}**{title}" + (f"\n\n{block.body}" if block.body else ""))
    if block.name == "exercise":
        state.answer_cell(label, number)
    else:
        state.exercise_of = (label, number)


def _solution(state: _Flavours, block: Directive, where: str) -> None:
    label = block.argument.strip()
    if label not in state.numbers:
        raise ValueError(f"{where}: {{{block.name}}} {label!r} does not follow an exercise with that label")
    number = state.numbers[label]
    heading = "**Solution**" if number is None else f"**Solution to Exercise {number}**"
    if block.name == "solution":
        state.add_text(heading + (f"\n\n{block.body}" if block.body else ""), flavours=("solutions",))
    else:
        state.add_text(heading, flavours=("solutions",))
        state.solution_of = label


def _markdown(state: _Flavours, source: str, where: str) -> None:
    for block in parse_markdown(source, where=where):
        if isinstance(block, str):
            state.add_text(block)
        elif block.name in ("exercise", "exercise-start"):
            _exercise(state, block)
        elif block.name == "exercise-end":
            if state.exercise_of is None:
                raise ValueError(f"{where}: {{exercise-end}} without {{exercise-start}}")
            state.answer_cell(*state.exercise_of)
            state.exercise_of = None
        elif block.name in ("solution", "solution-start"):
            _solution(state, block, where)
        elif block.name == "solution-end":
            if state.solution_of is None:
                raise ValueError(f"{where}: {{solution-end}} without {{solution-start}}")
            state.solution_of = None
        elif block.name in ADMONITIONS:
            title = block.argument or block.name.capitalize()
            state.add_text(_quote(title, block.body))
        else:
            state.add_text(block.raw)


def flavours(notebook: nbformat.NotebookNode, *, check_ids: set[str] = frozenset(), where: str = "") -> dict[str, nbformat.NotebookNode]:
    """The solutions and student notebooks of one page's notebook (as ``jupytext.read`` gives it)."""
    state = _Flavours(set(check_ids))
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            _markdown(state, cell.source, f"{where} cell {index}")
        else:
            state.add_code(cell)
    if state.solution_of is not None:
        raise ValueError(f"{where}: the solution of {state.solution_of!r} has no {{solution-end}}")
    state.flush()
    metadata = {key: value for key, value in notebook.metadata.items() if key != "jupytext"}
    return {
        flavour: nbformat.v4.new_notebook(cells=cells, metadata=copy.deepcopy(metadata) | {"irrepro": {"flavour": flavour}})
        for flavour, cells in state.cells.items()
    }


def is_notebook(page: Path) -> bool:
    """Whether a page source is a MyST notebook (a jupytext header naming a kernel)."""
    if page.suffix != ".md":
        return False
    header = page.read_text(encoding="utf-8").split("\n---", 1)[0]
    return header.startswith("---") and "kernelspec:" in header


def toc_pages(root: Path = ROOT) -> list[Path]:
    """The page sources of ``_toc.yml``, root page first."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [entry["file"] for part in toc.get("parts", [toc]) for entry in part.get("chapters", [])]
    return [root / f"{name}.md" for name in files]


def _registered_ids() -> set[str]:
    from irrepro import exercises

    return set(exercises.ids())


def write_notebooks(pages: list[Path], out: Path) -> dict[str, dict[str, Path]]:
    """Write both flavours of every page under ``out/solutions`` and ``out/student``; return the paths."""
    stems = [page.stem for page in pages]
    clashes = sorted({stem for stem in stems if stems.count(stem) > 1})
    if clashes:
        raise ValueError(f"pages with the same file name would overwrite each other's notebooks: {clashes}")
    check_ids = _registered_ids()
    written: dict[str, dict[str, Path]] = {}
    for page in pages:
        notebooks = flavours(jupytext.read(page), check_ids=check_ids, where=str(page))
        written[page.stem] = {}
        for flavour, notebook in notebooks.items():
            path = out / flavour / f"{page.stem}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            nbformat.validate(notebook)
            nbformat.write(notebook, path)
            written[page.stem][flavour] = path
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="MyST pages (default: those of _toc.yml)")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "notebooks")
    args = parser.parse_args()
    written = write_notebooks(args.pages or toc_pages(), args.out)
    for flavour in FLAVOURS:
        print(f"{args.out / flavour}: {len(written)} notebooks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
