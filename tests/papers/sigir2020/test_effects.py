"""ER and DeltaRI of the constellation pairs (Table 2) and their bootstrap intervals."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.papers import sigir2020
from irrepro.papers.sigir2020 import effects
from irrepro.papers.sigir2020.published_scores import MEASURES
from irrepro.routing.constellations import PRINTED
from tests.papers.conftest import assert_made_once
from tests.papers.sigir2020.conftest import raw


def test_effect_ratio_pairs_constellation_k_of_both_runs():
    measures = sigir2020.effect_measures("rpl")
    assert measures.shape == (50, 6)
    assert measures.notna().all().all()
    advanced = raw("sigir2020/measures/rpl_wcrobust0405_ap.csv")
    baseline = raw("sigir2020/measures/rpl_wcrobust04_ap.csv")
    expected = (advanced["rpl_wcrobust0405_45"] - baseline["rpl_wcrobust04_45"]).mean() / (
        advanced["WCrobust0405"] - baseline["WCrobust04"]
    ).mean()
    assert sigir2020.effect_ratio_table("rpl").at["rpl_tf_1", "ER:AP"] == pytest.approx(expected, rel=1e-12)


def test_the_old_version_changes_only_the_ap_columns_of_reproducibility():
    current = sigir2020.effect_measures("rpd")
    old = sigir2020.effect_measures("rpd", version="old")
    unchanged = [c for c in current.columns if not c.endswith(":AP")]
    pd.testing.assert_frame_equal(current[unchanged], old[unchanged])
    assert (current["ER:AP"] != old["ER:AP"]).sum() > 40
    with pytest.raises(ValueError, match="no earlier version of the replicability files"):
        sigir2020.effect_measures("rpl", version="old")
    with pytest.raises(ValueError, match="pass intervals=False"):
        sigir2020.effect_ratio_table("rpd", version="old")
    with pytest.raises(ValueError, match="unknown setting"):
        sigir2020.effect_measures("rpx")


def test_bootstrap_intervals_are_seeded_and_contain_the_estimate():
    table = sigir2020.effect_ratio_table("rpl")
    again = sigir2020.effect_ratio_table("rpl")
    pd.testing.assert_frame_equal(table, again)
    for statistic in ("ER", "DeltaRI"):
        for measure in ("P@10", "AP", "nDCG"):
            low, high = table[f"{statistic}:{measure}:low"], table[f"{statistic}:{measure}:high"]
            assert (low <= high).all()
            # a percentile interval need not contain the estimate, but here every one does
            assert ((low <= table[f"{statistic}:{measure}"]) & (table[f"{statistic}:{measure}"] <= high)).all()


def test_the_effect_measures_are_computed_once_per_setting_ids_and_version(monkeypatch):
    """Figures, tables, correlations and claims of the chapter all read them."""
    assert_made_once(monkeypatch, lambda: sigir2020.effect_measures("rpd", version="old"), effects, "pair_scores")
    assert_made_once(monkeypatch, lambda: sigir2020.effect_measures("rpl", ids=list(range(1, 51))), effects, "pair_scores")


def test_the_bootstrap_intervals_read_each_measures_scores_once(monkeypatch):
    """One pair_scores per measure for all printed pairs, not one per pair, statistic and measure."""
    calls = []
    original = effects.pair_scores
    monkeypatch.setattr(effects, "pair_scores", lambda *args, **kwargs: calls.append(args) or original(*args, **kwargs))
    effects._effect_ratio_intervals.cache_clear()
    try:
        table = sigir2020.effect_ratio_intervals("rpl")
    finally:
        effects._effect_ratio_intervals.cache_clear()  # the next caller recomputes with the real pair_scores
    assert len(calls) == len(MEASURES)
    assert table.notna().all().all() and len(table) == len(PRINTED)
