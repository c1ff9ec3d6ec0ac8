"""Number figures per page: Figure 1, 2, ... on every chapter, as tables are (irrepro.plots.tables).

Sphinx numbers figures across the whole book when the table of contents is not numbered (the
introduction's figure would make the SIGIR chapter's first figure "Figure 2"). After Sphinx has
assigned its numbers (``env-get-updated``), this renumbers each page's figures 1, 2, ... in the
order Sphinx found them, so ``{numref}`` and the captions agree with the page's own table numbers.
"""

from __future__ import annotations


def _renumber_per_page(app, env) -> list[str]:
    changed = []
    for docname, by_type in env.toc_fignumbers.items():
        for figtype, numbers in by_type.items():
            ordered = sorted(numbers, key=lambda figure_id: numbers[figure_id])
            renumbered = {figure_id: (position,) for position, figure_id in enumerate(ordered, start=1)}
            if renumbered != numbers:
                by_type[figtype] = renumbered
                changed.append(docname)
    return sorted(set(changed))


def setup(app):
    # After the toctree collector (priority 500) has assigned the book-wide numbers.
    app.connect("env-get-updated", _renumber_per_page, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1.0"}
