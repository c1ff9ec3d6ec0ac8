"""The front matter that makes a MyST Markdown page a notebook (jupytext, a Python 3 kernel), for the
tests that write small books and pages."""

NOTEBOOK_FRONT_MATTER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

"""
