"""The book's own reproducibility dataset: the SIGIR 2020 measures on the routing runs."""

from __future__ import annotations

import pytest

from irrepro.papers.clef2019 import own_dataset


def test_own_dataset_measures_hold_every_statistic(tiny):
    measures = own_dataset.own_dataset_measures(tiny)
    replicability = measures[measures["setting"] == "replicability"]
    reproducibility = measures[measures["setting"] == "reproducibility"]
    assert set(replicability["statistic"]) == {"ARP", "RMSE", "p-value", "KTU", "RBO", "ER", "DeltaRI"}
    assert set(reproducibility["statistic"]) == {"ARP", "p-value", "ER", "DeltaRI"}
    arp = replicability[(replicability["statistic"] == "ARP") & (replicability["system"] == "WCrobust04")]
    assert len(arp) == 20 * 3  # constellations x measures
    ktu = replicability[replicability["statistic"] == "KTU"]["value"]
    assert ktu.between(-1, 1).all()
    table = own_dataset.own_dataset_table(measures, setting="replicability", system="WCrobust0405")
    assert table.index[0] == "original (default, near target)" and len(table) == 21
    points = own_dataset.own_dataset_er_deltari_points(measures, setting="reproducibility")
    assert {"family", "level", "measure", "ER", "DeltaRI"} <= set(points.columns)
    assert len(points) == 20 * 3


def test_constellation_arp_comparison_is_relative_to_the_default(tiny):
    table = own_dataset.constellation_arp_comparison(own_dataset.own_dataset_measures(tiny))
    assert len(table) == 2 * 21
    defaults = table[table["constellation"] == "default"]
    assert defaults["ratio to default (ours)"].tolist() == [1.0, 1.0]
    assert defaults["ratio to default (SIGIR 2020)"].tolist() == [1.0, 1.0]
    published = table[(table["system"] == "WCrobust0405") & (table["constellation"] == "default")]
    assert published["AP SIGIR 2020 (Core17)"].iat[0] == pytest.approx(0.4208, abs=1e-4)  # rpl_wcrobust0405_1


def test_an_unchanged_constellation_replicates_perfectly(tiny):
    """A run identical to the original: KTU = RBO = 1, RMSE = 0 (tol only changes when lbfgs stops)."""
    original = tiny.system_run("wcrobust04", "core17")
    from irrepro.reproducibility import ranking

    measures = ranking.ranking_measures(original.run, {"same": original.run}, depth=10)
    assert measures["KTU"]["same"].tolist() == [1.0, 1.0, 1.0]
    assert measures["RBO"]["same"].to_numpy() == pytest.approx(1.0)
