"""tol on the mean loss against tol on the summed loss (the collapse of the tol constellations)."""

from __future__ import annotations

from irrepro.papers.clef2019 import routing_data, tolerance


def test_tolerance_check_contrasts_the_two_tol_scales(tiny):
    table = tolerance.tolerance_check(tiny)
    assert len(table) == 12 and set(table["constellation"]) == {"default", "tol_1", "tol_2", "tol_3", "tol_4", "tol_5"}
    mean = table[table["loss tol bounds"].str.startswith("mean")].set_index("constellation")
    summed = table[table["loss tol bounds"].str.startswith("sum")].set_index("constellation")
    # tol >= 1 on the mean loss: lbfgs never moves (every topic stopped before the first step)
    assert (mean.loc["tol_1":, "lbfgs iterations"] == "0-0 (median 0)").all()
    assert mean.loc["tol_3", "topics stopped before the first step"] == "3 of 3"
    assert (summed.loc["tol_1":, "topics stopped before the first step"] == "0 of 3").all()
    assert mean.loc["default", "ratio to default"] == summed.loc["default", "ratio to default"] == 1.0
    assert {r.run["run"].iat[0] for r in tiny.runs()} >= {
        "from_robust04+robust05_to_core17_tol_1_tolsum", "from_robust04+robust05_to_core17_tol_1",
    }


def test_the_tol_runs_follow_one_trajectory_per_topic(tiny, monkeypatch):
    """The 12 trainings of the check (6 tol levels x 2 losses, 3 topics each) run 3 L-BFGS-B states,
    one per topic with the tightest bound (the default's tol on the summed loss, 1e-4 / n), each
    looser bound stopping on its way (bit for bit the same fits: tests/routing/test_logistic.py)."""
    from irrepro.routing import logistic

    states = []
    made = logistic._Lbfgsb
    monkeypatch.setattr(logistic, "_Lbfgsb", lambda *a, **k: states.append(k["gtol"]) or made(*a, **k))
    fresh = routing_data.RoutingData(label=tiny.label, collections=tiny.collections, corpora=tiny.corpora)
    tolerance.tolerance_check(fresh)
    n = len(tiny.collections["robust04"].documents) + len(tiny.collections["robust05"].documents)
    assert fresh.trainer.trainings == 12 and states == [1e-4 / n] * 3
