"""The GLM chapter's ssd pairs and its claim on them under topic resampling."""

from __future__ import annotations

import numpy as np
import pytest

from irrepro.papers import glm
from irrepro.reproducibility.resampling import stability


@pytest.fixture(scope="module")
def summary():
    return glm.ssd_robustness()


def test_identity_everywhere_and_the_log_type_links_on_robust04_only():
    chosen = glm.resampled_settings()
    assert {key[:3] for key in chosen} == set(glm.settings())
    refits = [key for key in chosen if key[3] != "identity"]
    assert {key[0] for key in refits} == {"Robust04"} and {key[3] for key in refits} == set(glm.REFIT_LINKS)
    with pytest.raises(ValueError, match="not resampled"):
        glm.pair_replicates("Core18", "AP", False, "logit")


def test_the_pairs_on_all_topics_are_the_chapters_and_every_pair_is_counted_once(summary):
    ssd = glm.ssd_table().set_index(["collection", "measure", "outliers_removed", "link"])
    assert (summary["ssd pairs"] == [ssd.at[k, "ssd_pairs"] for k in glm.resampled_settings()]).all()
    counted = summary["stable"] + summary["borderline"] + summary["kept by most"] + summary["kept by few"]
    assert (counted == summary["ssd pairs"]).all()
    expected = np.where(summary["link"] == "identity", glm.RESAMPLES, glm.REFIT_RESAMPLES)
    assert (summary["resamples"] + summary["unconverged"] == expected).all()
    assert (summary["low"] <= summary["ssd per resample"]).all() and (summary["ssd per resample"] <= summary["high"]).all()


def test_one_row_per_ssd_pair_with_its_share_kept(summary):
    pairs = glm.ssd_pair_robustness()
    assert len(pairs) == summary["ssd pairs"].sum()
    assert pairs["share kept"].between(0, 1).all() and set(pairs["sign"]) <= {-1, 1}
    robust04_ap = pairs[(pairs["collection"] == "Robust04") & (pairs["measure"] == "AP") & (pairs["link"] == "identity")]
    stable = summary.set_index(["collection", "measure", "link"]).loc[("Robust04", "AP", "identity"), "stable"]
    statuses = [stability(share, resamples=glm.RESAMPLES) for share in robust04_ap["share kept"]]
    assert statuses.count("stable") == int(np.asarray(stable).ravel()[0])
    # stable pairs are kept by at least 95% and are not within two points of it
    assert int((robust04_ap["share kept"] >= 0.97).sum()) == statuses.count("stable")


def test_the_claim_on_ssd_pairs_agrees_with_the_chapter_on_all_topics():
    table = glm.claim_robustness()
    verdict = glm.claims().set_index("id").at["glm.more-ssd-pairs.robust04", "verdict"]
    assert list(table["id"]) == ["glm.more-ssd-pairs.robust04"]
    assert bool(table.at[0, "holds on all topics"]) == (verdict == "holds")
    assert table.at[0, "resamples"] == glm.REFIT_RESAMPLES and 0 <= table.at[0, "share holding"] <= 1
    numbers = glm.robustness_numbers(glm.ssd_robustness(), table)
    assert numbers["claim_share"] == f"{table.at[0, 'share holding']:.0%}" and numbers["fits"] == len(glm.resampled_settings())
