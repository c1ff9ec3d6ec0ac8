"""Split-half consistency of ssd pairs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.glm.consistency import split_half_consistency, split_halves


def test_split_halves_are_disjoint_seeded_partitions():
    topics = list(range(11))
    splits = split_halves(topics, n_splits=3, seed=7)
    assert splits == split_halves(topics, n_splits=3, seed=7)
    for first, second in splits:
        assert len(first) == 5 and len(second) == 6
        assert sorted(first + second) == topics
    with pytest.raises(ValueError):
        split_halves([1, 2, 3], n_splits=1, seed=0)


def test_clear_differences_agree_in_both_halves():
    rng = np.random.default_rng(3)
    levels = np.array([0.1, 0.3, 0.5, 0.7])
    scores = pd.DataFrame(np.clip(levels + rng.normal(0, 0.02, size=(40, 4)), 0, 1), columns=list("abcd"))
    table = split_half_consistency(scores, links=["identity", "logit"], n_splits=3, seed=1)
    assert set(table["link"]) == {"identity", "logit"}
    assert (table["active_agreements"] == 6).all()
    assert (table["consistent_share"] == 1).all()
    counts = table[["active_agreements", "active_disagreements", "passive_disagreements", "passive_agreements"]].sum(axis=1)
    assert (counts == table["pairs"]).all()


def test_no_differences_give_no_active_agreements():
    rng = np.random.default_rng(4)
    scores = pd.DataFrame(np.clip(0.4 + rng.normal(0, 0.1, size=(30, 5)), 0, 1))
    table = split_half_consistency(scores, links=["identity"], n_splits=4, seed=2)
    assert table["active_agreements"].sum() == 0


def test_one_link_name_is_one_link_and_unknown_links_are_named():
    """``links="logit"`` was read letter by letter ('l', 'o', ...: an 'unknown link' error at best)."""
    rng = np.random.default_rng(5)
    scores = pd.DataFrame(np.clip(0.4 + rng.normal(0, 0.1, size=(12, 3)), 0.01, 0.99))
    assert set(split_half_consistency(scores, links="logit", n_splits=1, seed=0)["link"]) == {"logit"}
    with pytest.raises(ValueError, match=r"links must be .*\(unknown: logt\)"):
        split_half_consistency(scores, links=["logit", "logt"], n_splits=1, seed=0)
