"""tol on the mean loss against tol on the summed loss (the collapse of the tol constellations)."""

from __future__ import annotations

from irrepro.papers.clef2019 import tolerance


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
