"""The examples in the docstrings (paper examples among them) hold."""

from __future__ import annotations

import doctest

import pytest

from irrepro.reproducibility import bootstrap, compare, ranking, scores


@pytest.mark.parametrize("module", [scores, ranking, bootstrap, compare], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
