"""Student and solutions notebooks: what each flavour keeps, and that a student notebook runs."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest

from tests.myst_pages import NOTEBOOK_FRONT_MATTER

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_notebooks", ROOT / "tools" / "make_notebooks.py")
make_notebooks = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = make_notebooks
_spec.loader.exec_module(make_notebooks)

PAGE = NOTEBOOK_FRONT_MATTER + '''# A page

```{code-cell} ipython3
x = 1
```

```{exercise} First
:label: demo-first

Compute `x + 1`.
```

````{solution-start} demo-first
:class: dropdown
````

Worked out:

```{code-cell} ipython3
y = x + 1
```

````{solution-end}
````

```{note}
A remark.
```

```{exercise}
:label: demo-second
:nonumber:

Unnumbered.
```

```{solution} demo-second
:class: dropdown

Plain text solution.
```

```{exercise} Third
:label: demo-third

Last one.
```

Text after.
'''


@pytest.fixture
def notebooks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    return make_notebooks.flavours(jupytext.read(page), check_ids={"demo-first"}, where="page.md")


def _sources(notebook, kind=None):
    return [cell.source for cell in notebook.cells if kind is None or cell.cell_type == kind]


def test_the_student_notebook_drops_every_solution_and_leaves_an_answer_cell_per_exercise(notebooks):
    student = notebooks["student"]
    text = "\n".join(_sources(student))
    assert "y = x + 1" not in text and "Worked out" not in text and "Plain text solution" not in text
    answers = [cell for cell in student.cells if "answer" in cell.metadata.get("tags", [])]
    assert [cell.source.splitlines()[0] for cell in answers] == [
        "# Exercise 1: your answer here.", "# Exercise: your answer here.", "# Exercise 2: your answer here."
    ]
    assert 'exercises.check("demo-first", answer)' in answers[0].source  # a registered id gets the self-check
    assert "check" not in answers[2].source
    assert _sources(student, "code")[0] == "x = 1" and "Text after." in text


def test_the_solutions_notebook_keeps_every_solution_and_has_no_answer_cells(notebooks):
    solutions = notebooks["solutions"]
    text = "\n".join(_sources(solutions))
    assert "y = x + 1" in _sources(solutions, "code") and "Worked out" in text and "Plain text solution" in text
    assert "**Solution to Exercise 1**" in text and "**Solution**" in text
    assert not any("answer" in cell.metadata.get("tags", []) for cell in solutions.cells)


def test_directives_become_plain_markdown(notebooks):
    text = "\n".join(_sources(notebooks["solutions"], "markdown"))
    assert "**Exercise 1** (First)" in text and "**Exercise 2** (Third)" in text
    assert "> **Note**" in text and "> A remark." in text
    assert "{exercise}" not in text and "{solution" not in text and ":label:" not in text
    assert "jupytext" not in notebooks["student"].metadata
    for notebook in notebooks.values():
        nbformat.validate(notebook)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("```{exercise}\n:label: a\n\nno end\n", "is not closed"),
        ("```{solution-start} nowhere\n```\n", "does not follow an exercise"),
        ("```{exercise}\n:label: a\n```\n\n```{solution-start} a\n```\n", "has no {solution-end}"),
        ("```{solution-end}\n```\n", "without {solution-start}"),
    ],
)
def test_malformed_exercise_markup_is_an_error_naming_the_cell(source, message):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(source)])
    with pytest.raises(ValueError, match=re.escape(message)) as error:
        make_notebooks.flavours(notebook, where="x.md")
    assert "x.md" in str(error.value)


def test_a_nested_code_block_stays_inside_its_directive():
    blocks = make_notebooks.parse_markdown("````{exercise} T\n:label: a\n\n```python\nprint(1)\n```\n````\nafter")
    directive, text = blocks
    assert directive.name == "exercise" and directive.options == {"label": "a"}
    assert directive.body == "```python\nprint(1)\n```" and text == "after"


# --------------------------------------------------------------------------- the book's chapters

PAGES = make_notebooks.toc_pages()


def _labels(page: Path) -> list[str]:
    return re.findall(r"^[`:]{3,}\{exercise(?:-start)?\}.*\n(?::[\w-]+:.*\n)*?:label:\s*(\S+)", page.read_text(encoding="utf-8"), re.MULTILINE)


def test_every_registered_exercise_is_on_its_chapter_page_and_labels_are_unique():
    from irrepro import exercises

    labels = {page.stem: _labels(page) for page in PAGES}
    flat = [label for page_labels in labels.values() for label in page_labels]
    assert len(flat) == len(set(flat)), "exercise labels must be unique across the book"
    for exercise_id in exercises.ids():
        chapter = exercises.get(exercise_id).chapter
        assert chapter in labels, f"{exercise_id}: no page {chapter}.md in _toc.yml"
        assert exercise_id in labels[chapter], f"{exercise_id}: no {{exercise}} with :label: {exercise_id} in {chapter}.md"


def _names(source: str) -> tuple[set[str], set[str], set[str]]:
    """Names a cell binds (assignments, imports, definitions), reads, and takes as function arguments."""
    try:
        tree = ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
    except SyntaxError:
        return set(), set(), set()
    bound, read, arguments = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            arguments.add(node.arg)
    return bound, read, arguments


@pytest.mark.parametrize("page", [page for page in PAGES if make_notebooks.is_notebook(page)], ids=lambda page: page.stem)
def test_solutions_define_nothing_the_rest_of_the_page_uses(page):
    notebooks = make_notebooks.flavours(jupytext.read(page), where=str(page))
    student_code = [cell.source for cell in notebooks["student"].cells if cell.cell_type == "code"]
    solution_code = [cell.source for cell in notebooks["solutions"].cells if cell.cell_type == "code" and cell.source not in student_code]
    bound_in_solutions = set().union(*(_names(source)[0] for source in solution_code))
    elsewhere = [_names(source) for source in student_code]
    read_elsewhere = set().union(*(read for _, read, _ in elsewhere)) - set().union(*(arguments for *_, arguments in elsewhere))
    # a name a solution binds and the rest of the page reads: the page would change with the solution left out
    leaking = bound_in_solutions & read_elsewhere - {"exercises"}
    assert not leaking, f"{page.name}: names bound in solutions and read outside them: {sorted(leaking)}"


def test_make_notebooks_writes_both_flavours_of_every_page(tmp_path):
    written = make_notebooks.write_notebooks(PAGES, tmp_path)
    assert set(written) == {page.stem for page in PAGES}
    for flavour in make_notebooks.FLAVOURS:
        assert sorted(path.name for path in (tmp_path / flavour).iterdir()) == sorted(f"{page.stem}.ipynb" for page in PAGES)


@pytest.mark.slow
def test_the_student_notebook_of_the_sigir_chapter_runs_top_to_bottom(tmp_path):
    from nbclient import NotebookClient

    page = ROOT / "chapters" / "measuring_reproducibility.md"
    student = make_notebooks.write_notebooks([page], tmp_path)[page.stem]["student"]
    notebook = nbformat.read(student, as_version=4)
    NotebookClient(notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [output for cell in notebook.cells for output in cell.get("outputs", []) if output.output_type == "error"]
    assert not errors
    assert sum("answer" in cell.metadata.get("tags", []) for cell in notebook.cells) == len(_labels(page))
