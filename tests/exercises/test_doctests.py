"""The examples in the exercises' docstrings hold."""

from __future__ import annotations

import doctest

import pytest

import irrepro.exercises
from irrepro.exercises import comparison, registry, sigir2020


@pytest.mark.parametrize("module", [irrepro.exercises, comparison, registry, sigir2020], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
