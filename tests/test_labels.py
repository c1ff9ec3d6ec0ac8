"""irrepro.labels: never two runs under one label, whatever the tags and paths."""

from __future__ import annotations

import doctest

from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro import labels
from irrepro.labels import run_labels


def test_docstring_examples():
    assert doctest.testmod(labels).failed == 0


def test_issue_examples():
    # two files tagged X; a third tagged like the first file's path, a fourth like the second's name
    tags = ["X", "X", "runs/a/x.run", "x.run"]
    paths = ["runs/a/x.run", "runs/b/x.run", "third.run", "fourth.run"]
    assert run_labels(tags, paths) == ["runs/a/x.run", "runs/b/x.run", "third.run", "fourth.run"]


def test_adversarial_tags_that_look_like_the_last_resort():
    # the same file twice, and a tag that spells what the last level would give
    tags = ["T", "T", "x.run#2"]
    paths = ["x.run", "x.run", "y.run"]
    found = run_labels(tags, paths)
    assert len(set(found)) == 3 and found[:2] == ["x.run#1", "x.run#2"] and found[2] == "y.run"


def test_unique_tags_stay_tags():
    assert run_labels(["bm25", "rm3"], ["a/run1", "b/run2"]) == ["bm25", "rm3"]


pieces = st.sampled_from(["X", "Y", "a", "a/x", "x", "b/x", "x#1", "x#2", "a/x#1", "-", "a/", ""])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(pieces, pieces.filter(bool)), min_size=1, max_size=8))
def test_labels_are_unique_deterministic_and_keep_clear_tags(runs):
    tags, paths = [t for t, _ in runs], [p for _, p in runs]
    found = run_labels(tags, paths)
    assert len(set(found)) == len(found)
    assert found == run_labels(list(tags), list(paths))
    for i, tag in enumerate(tags):
        others = {
            text
            for j, path in enumerate(paths)
            if j != i
            for text in (tags[j], path.rstrip("/").rsplit("/", 1)[-1] or path, path, f"{path}#{j + 1}")
        }
        if tag not in others:
            assert found[i] == tag
