"""Reading the authors' files: settings, systems, the two versions, copies of cached frames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.papers import sigir2020
from irrepro.papers.sigir2020 import published_scores
from tests.papers.sigir2020.conftest import raw


def test_rpd_wcrobust04_drops_the_runs_outside_the_paper():
    frame = sigir2020.per_topic("rpd", "WCrobust04", "ap")
    assert frame.shape == (25, 50)
    assert "rpd_wcrobust04_51" not in frame.columns


def test_undefined_inputs_raise():
    with pytest.raises(ValueError, match="unknown system"):
        sigir2020.replicability_table("WCrobust99")
    with pytest.raises(ValueError, match="unknown setting"):
        sigir2020.per_topic("xyz", "WCrobust04", "ap")
    with pytest.raises(ValueError, match="unknown version"):
        sigir2020.per_topic("rpd", "WCrobust0405", "ap", version="newest")
    with pytest.raises(ValueError, match="unknown agreement statistic"):
        published_scores.mean_agreement("WCrobust04", "RMSE", 1000)


@pytest.mark.parametrize(("setting", "system", "measure"), [("rpd", "WCrobust04", "ap"), ("rpd", "WCrobust0405", "p10"),
                                                            ("rpl", "WCrobust0405", "ap")])  # fmt: skip
def test_only_the_reproduced_wcrobust0405_ap_has_an_old_version(setting, system, measure):
    with pytest.raises(ValueError, match="only the AP of the reproduced WCrobust0405 runs survives"):
        sigir2020.per_topic(setting, system, measure, version="old")


def test_the_old_version_is_the_earlier_file_and_other_files_stay_current():
    expected = raw("sigir2020/measures_rpd/rpd_wcrobust0405_ap_old.csv")
    _, old = sigir2020.reproduced_runs("WCrobust0405", "ap", [45, 14], version="old")
    np.testing.assert_array_equal(old[45].to_numpy(), expected.loc[old.index, "rpd_wcrobust0405_45"].to_numpy())
    _, current = sigir2020.reproduced_runs("WCrobust0405", "ap", [45])
    assert not np.array_equal(current[45].to_numpy(), old[45].to_numpy())
    # the baseline has no earlier file: its old version is the published one
    pd.testing.assert_frame_equal(sigir2020.reproduced_runs("WCrobust04", "ap", [45], version="old")[1],
                                  sigir2020.reproduced_runs("WCrobust04", "ap", [45])[1])  # fmt: skip


def test_data_files_are_registry_names_of_the_current_version():
    names = sigir2020.data_files()
    assert len(names) == len(set(names))
    assert not any(name.endswith("_old.csv") for name in names)
    assert "sigir2020/measures_rpd/org_wcrobust04_ndcg1000.csv" in names


@pytest.mark.parametrize(
    "call",
    [lambda: sigir2020.per_topic("rpl", "WCrobust04", "ap"), lambda: sigir2020.per_topic("rpd", "WCrobust0405", "p10"),
     lambda: sigir2020.per_topic("rpd", "WCrobust0405", "ap", version="old"),
     lambda: sigir2020.effect_ratio_intervals("rpl")],
    ids=["per_topic rpl", "per_topic rpd", "per_topic old", "effect_ratio_intervals"],
)  # fmt: skip
def test_cached_results_are_handed_out_as_copies(call):
    first = call()
    expected = first.copy()
    first.iloc[0, 0] = -1.0
    first["added"] = 0.0
    pd.testing.assert_frame_equal(call(), expected)
