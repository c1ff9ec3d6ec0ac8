"""The numbers glued into the chapter's prose come from the computations."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.papers.clef2019 import prose, published_facts, routing_data, tables


def test_topic_numbers_are_the_papers_counts():
    numbers = prose.topic_numbers(published_facts.topic_sets())
    assert numbers == {"core17-r04": 50, "core17-both": 33, "core17-either": 50, "core18-r04": 25,
                       "core18-both": 15, "core18-either": 25, "common": 15}  # fmt: skip


def test_published_and_clef_numbers():
    numbers = prose.published_numbers()
    assert (numbers["rpl-topics"], numbers["rpd-topics"], numbers["common"]) == (50, 25, 15)
    assert numbers["rpl-improved"] == 14 and numbers["rpd-improved"] < numbers["rpl-improved"]
    assert prose.clef_text_numbers() == {"map-plain": 0.2963, "map-augmented": 0.2924}


def test_sentence_numbers_come_from_the_tables(tiny):
    transfer = tables.relevance_transfer(tiny)
    extremes = prose.transfer_extremes(transfer)
    assert extremes["best_map"] == transfer["MAP"].max() and extremes["worst_map"] == transfer["MAP"].min()
    best = transfer.loc[transfer["MAP"].idxmax()]
    assert (extremes["best_target"], extremes["best_training"]) == (best["target"], best["training"])
    augmentation = tables.feature_augmentation(tiny)
    summary = prose.augmentation_summary(augmentation, alpha=1.0)  # every p < 1 except exact ties
    assert summary["pairs"] == 12 and summary["significant"] == int((augmentation["p (paired t-test)"] < 1).sum())
    effect = tables.preprocessing_effect(tables.replication(tiny))
    prep = prose.preprocessing_summary(effect)
    assert prep["cases"] == len(effect) and prep["smallest"] == effect["difference"].min()
    assert prep["verdict"].endswith(("as in the paper", "on both targets"))


def _size_check(far_minus_near: float) -> pd.DataFrame:
    near, far = routing_data.STAND_IN_ROLE_NAMES["core17"], routing_data.STAND_IN_ROLE_NAMES["core18"]
    rows = []
    for targets in ("as built", "cut to equal size"):
        for target, shift in ((near, 0.0), (far, far_minus_near)):
            rows.append({"targets": targets, "target": target, "documents": 10, "topics": 3,
                         "MAP WCrobust04": 0.5 + shift, "MAP WCrobust0405": 0.6 + shift,
                         "far − near WCrobust04": far_minus_near if target == far else float("nan")})  # fmt: skip
    return pd.DataFrame(rows)


def _replicated() -> pd.DataFrame:
    near, far = routing_data.STAND_IN_ROLE_NAMES["core17"], routing_data.STAND_IN_ROLE_NAMES["core18"]
    rows = [
        {"run": run, "target": target, "preprocessing": tables.PREPROCESSING[True], "setting": "x", "MAP": value}
        for target, values in ((near, (0.5, 0.6)), (far, (0.7, 0.65)))
        for run, value in zip(("WCrobust04", "WCrobust0405 (= complemented)"), values, strict=True)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("far_minus_near", "verdict"), [(-0.1, "harder for both"), (0.1, "easier for both")])
def test_closing_numbers_say_what_the_numbers_say(far_minus_near, verdict):
    numbers = prose.closing_numbers(_replicated(), _size_check(far_minus_near))
    assert numbers["near_verdict"] == "improves on" and numbers["far_verdict"] == "does not improve on"
    assert verdict in numbers["built_verdict"] and verdict in numbers["equal_verdict"]
    assert numbers["size"] == "Size does not explain it"
    assert ("does not show that drift" in numbers["drift"]) == (far_minus_near > 0)


def test_tolerance_summary_reads_the_two_scales():
    rows = []
    for scale, ratios in (("mean (x)", [1.0, 0.05, 0.05]), ("sum (x)", [1.0, 0.9, 0.8])):
        for name, ratio in zip(("default", "tol_1", "tol_2"), ratios, strict=True):
            rows.append({"loss tol bounds": scale, "constellation": name, "ratio to default": ratio,
                         "ratio to default (SIGIR 2020)": ratio, "topics stopped before the first step":
                         "3 of 3" if scale.startswith("mean") and name != "default" else "0 of 3"})  # fmt: skip
    summary = prose.tolerance_summary(pd.DataFrame(rows))
    assert summary["stopped"] == "3 of 3" and summary["mean_kept"] == "5.0%"
    assert (summary["sum_max"], summary["sum_min"], summary["sum_falling"]) == (0.9, 0.8, "falling")


def test_licensed_status_says_which_corpora_ran(tiny):
    assert "stand-in only" in prose.licensed_status(None)
    assert "tiny test data" in prose.licensed_status(tiny)
