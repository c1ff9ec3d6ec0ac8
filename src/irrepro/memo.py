"""Computed once, handed out as copies: the package's one way to cache results.

A cached frame handed out as it is would be shared by every caller: one caller's
``table["x"] = ...`` would change what every later caller sees. :func:`cached` keeps the result of
each argument set (an :func:`functools.lru_cache`) and returns a *copy* of it on every call: deep
for pandas and NumPy objects and for the dicts, lists and tuples holding them, by
:func:`copy.deepcopy` for anything else that is mutable (e.g. a fitted model). Strings, numbers and
other immutable values are returned as they are.

Arguments are bound to the function's signature first, so ``f("a")`` and ``f("a", k=1)`` (with
``k=1`` the default) share one cache entry.

>>> calls = []
>>> @cached(maxsize=4)
... def table(n):
...     calls.append(n)
...     return {"values": [0] * n}
>>> first = table(2)
>>> first["values"].append(99)
>>> table(2), calls
({'values': [0, 0]}, [2])
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pandas as pd

__all__ = ["cached", "fresh_copy"]

F = TypeVar("F", bound=Callable[..., Any])

_IMMUTABLE = (str, bytes, int, float, complex, bool, type(None), frozenset, range, np.generic)


def fresh_copy(value: Any) -> Any:
    """Copy ``value`` so that the copy shares no mutable part with it (see the module docstring).

    Parameters
    ----------
    value : object
        A result to hand out.

    Returns
    -------
    object
        The copy.
    """
    if isinstance(value, _IMMUTABLE):
        return value
    if isinstance(value, (pd.DataFrame, pd.Series, pd.Index, np.ndarray)):
        return value.copy()  # pandas: deep by default
    if isinstance(value, dict):
        return type(value)((key, fresh_copy(item)) for key, item in value.items())
    if isinstance(value, list):
        return [fresh_copy(item) for item in value]
    if type(value) is tuple:  # a named tuple or other subclass goes through deepcopy
        return tuple(fresh_copy(item) for item in value)
    return copy.deepcopy(value)


def cached(maxsize: int | None = 128) -> Callable[[F], F]:
    """Cache a function's results and return fresh copies of them (a decorator factory).

    The decorated function keeps ``cache_clear()`` and ``cache_info()`` of the underlying cache.

    Parameters
    ----------
    maxsize : int or None, default 128
        How many results the cache keeps (``None``: no bound), as for :func:`functools.lru_cache`.

    Returns
    -------
    callable
        The decorator.
    """

    def decorate(function: F) -> F:
        signature = inspect.signature(function)

        @functools.lru_cache(maxsize=maxsize)
        def compute(args: tuple, kwargs: tuple) -> Any:
            return function(*args, **dict(kwargs))

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return fresh_copy(compute(bound.args, tuple(bound.kwargs.items())))

        wrapper.cache_clear = compute.cache_clear  # type: ignore[attr-defined]
        wrapper.cache_info = compute.cache_info  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
