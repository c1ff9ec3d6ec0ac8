"""The paper's claims under topic resampling: every claim re-read, agreeing with the chapter on all topics,
the resampled measures equal to the package's functions on the drawn topics, seeded, written as CSV."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.papers import sigir2020
from irrepro.papers.sigir2020.published_scores import replicated_runs, reproduced_runs
from irrepro.papers.sigir2020.resampled import PRINTED_POSITIONS, replicate_measures
from irrepro.reproducibility import scores
from irrepro.reproducibility.resampling import identity_weights, topic_resamples, topic_weights
from irrepro.routing.constellations import PRINTED


@pytest.fixture(scope="module")
def small_table() -> pd.DataFrame:
    return sigir2020.robustness_table(n_resamples=60, seeds=(3, 4))


def test_every_claim_is_re_read_on_the_resamples():
    assert sorted(sigir2020.CHECKS.ids()) == sorted(sigir2020.CLAIMS.ids())


def test_on_all_topics_every_check_agrees_with_the_chapters_verdict(small_table):
    verdicts = sigir2020.claims().set_index("id")["verdict"]
    holds = small_table.set_index("id")["holds on all topics"]
    assert set(verdicts) <= {"holds", "does not hold"}
    disagreeing = [claim for claim in holds.index if holds[claim] != (verdicts[claim] == "holds")]
    assert not disagreeing


def test_the_identity_resample_gives_the_chapters_tables():
    measures = replicate_measures(identity_weights(50), identity_weights(25))
    for system in sigir2020.SYSTEMS:
        table = sigir2020.replicability_measures(system)
        for column, values in measures.replicability[system].items():
            np.testing.assert_allclose(values[0], table[column].to_numpy(), rtol=1e-9, atol=1e-15, err_msg=column)
        np.testing.assert_allclose(measures.table4[system][0], sigir2020.correlation_table(system).to_numpy(), atol=1e-12)
        np.testing.assert_allclose(measures.table5[system][0],
                                   sigir2020.reproducibility_correlation_table(system).to_numpy(), atol=1e-12)  # fmt: skip
    for setting in ("rpl", "rpd"):
        table = sigir2020.effect_measures(setting)
        for column, values in measures.effects[setting].items():
            np.testing.assert_allclose(values[0], table[column].to_numpy(), rtol=1e-9, atol=1e-12, err_msg=column)
    twins = sigir2020.rpl_vs_rpd_pvalues()
    for column, values in measures.twins.items():
        np.testing.assert_allclose(values[0], twins[column].to_numpy(), rtol=1e-9, atol=1e-15, err_msg=column)
    curves = sigir2020.cutoff_curves("WCrobust04")
    ktu = curves.pivot(index="cutoff", columns="run", values="KTU")[[c.replicated_name("WCrobust04") for c in PRINTED]]
    np.testing.assert_allclose(measures.cutoffs["KTU"][0], ktu.to_numpy(), atol=1e-15)


def _drawn(frame, rows):
    """The rows ``rows`` of a per-topic frame or series, as new topics (a topic drawn twice is two topics)."""
    picked = frame.iloc[rows]
    return picked.set_axis([f"draw{i}" for i in range(len(rows))], axis=0)


def test_a_resample_equals_the_package_on_the_drawn_topics():
    core17, core18 = topic_resamples(50, 2, seed=11), topic_resamples(25, 2, seed=12)
    measures = replicate_measures(topic_weights(core17), topic_weights(core18))
    system, b = "WCrobust0405", 1
    original, runs = replicated_runs(system, "ap")
    original, runs = _drawn(original, core17[b]), _drawn(runs, core17[b])
    np.testing.assert_allclose(measures.replicability[system]["RMSE:AP"][b], scores.rmse(original, runs), rtol=1e-9)
    np.testing.assert_allclose(measures.replicability[system]["p:AP"][b], scores.paired_ttest(original, runs), rtol=1e-7)
    org, rpd = reproduced_runs(system, "ndcg1000")
    np.testing.assert_allclose(measures.reproducibility[system]["p:nDCG"][b],
                               scores.unpaired_ttest(_drawn(org, core17[b]), _drawn(rpd, core18[b])), rtol=1e-7)  # fmt: skip
    pairs = {s: reproduced_runs(s, "p10") for s in sigir2020.SYSTEMS}
    expected = scores.effect_ratio(
        orig_advanced=_drawn(pairs["WCrobust0405"][0], core17[b]), orig_baseline=_drawn(pairs["WCrobust04"][0], core17[b]),
        new_advanced=_drawn(pairs["WCrobust0405"][1], core18[b]), new_baseline=_drawn(pairs["WCrobust04"][1], core18[b]),
        paired=False,
    )  # fmt: skip
    np.testing.assert_allclose(measures.effects["rpd"]["ER:P@10"][b], expected, rtol=1e-9)
    assert measures.twins["p:AP:WCrobust04"].shape == (2, len(PRINTED_POSITIONS))


def test_the_table_is_seeded_and_its_shares_are_shares(small_table):
    again = sigir2020.robustness_table(n_resamples=60, seeds=(3, 4))
    other = sigir2020.robustness_table(n_resamples=60, seeds=(5, 6))
    pd.testing.assert_frame_equal(small_table, again)
    assert not small_table["share holding"].equals(other["share holding"])
    assert small_table["share holding"].between(0, 1).all() and (small_table["resamples"] == 120).all()
    assert (small_table["low"] <= small_table["high"]).all() and (small_table["seeds"] == 2).all()
    assert set(small_table["status"]) <= {"stable", "borderline", "fragile"} and set(small_table["section"]) == {"5.1", "5.2", "5.3"}


def test_the_prose_numbers_add_up(small_table):
    numbers = sigir2020.robustness_numbers(small_table)
    assert numbers["stable"] + numbers["borderline"] + numbers["fragile"] == numbers["claims"] == len(sigir2020.CLAIMS)
    assert numbers["holding_stable"] + numbers["holding_borderline"] + numbers["holding_fragile"] == numbers["holding"]
    assert numbers["resamples"] == 60 and numbers["pooled_resamples"] == 120 and numbers["seeds"] == 2
    fragile = small_table[small_table["holds on all topics"] & (small_table["status"] == "fragile")]
    assert all(label in numbers["holding_fragile_list"] for label in fragile["label"])


def test_reproduce_writes_the_robustness_table_as_csv(written):
    out, _ = written
    from_file = pd.read_csv(out / "claims_robustness.csv", index_col=0)
    table = sigir2020.robustness_table()
    assert list(from_file.index) == list(table["id"])
    assert (from_file["resamples"] == sigir2020.RESAMPLES * len(sigir2020.SEEDS)).all()
    np.testing.assert_allclose(from_file["share holding"], table["share holding"])


def test_every_correlation_of_tables_4_and_5_has_its_interval():
    intervals = sigir2020.correlation_intervals(n_resamples=60, seeds=(3,))
    assert len(intervals) == 2 * (14 * 13 // 2 + 6 * 5 // 2)
    table4 = sigir2020.correlation_table("WCrobust0405")
    row = intervals[(intervals["table"] == "Table 4") & (intervals["system"] == "WCrobust0405")
                    & (intervals["first"] == "DeltaARP:AP") & (intervals["second"] == "RBO")].iloc[0]  # fmt: skip
    assert row["tau"] == pytest.approx(table4.at["DeltaARP:AP", "RBO"], abs=1e-12)
    assert (intervals["low"] <= intervals["high"]).all() and intervals[["low", "high"]].abs().le(1).all().all()
    # recentred: every interval holds the value on all topics; as drawn, the replicates lie mostly below it
    assert ((intervals["low"] <= intervals["tau"] + 1e-12) & (intervals["tau"] <= intervals["high"] + 1e-12)).all()
    assert intervals["drawn below"].median() > 0.5


def test_every_interval_of_the_claims_holds_the_value_on_all_topics():
    table = sigir2020.robustness_table()
    assert ((table["low"] <= table["on all topics"]) & (table["on all topics"] <= table["high"])).all()
    assert set(table.loc[table["interval"] == "percentile, recentred", "id"]) == {
        check.id for check in sigir2020.CHECKS._checks if check.recentred
    }


def test_no_share_within_two_points_of_95_percent_is_called_stable_or_fragile():
    table = sigir2020.robustness_table()
    from irrepro.papers.robustness import STABLE_SHARE

    close = (table["verdict kept"] - STABLE_SHARE).abs() < 0.02
    assert (table.loc[close, "status"] == "borderline").all()


def test_recentring_removes_the_bootstraps_bias_of_the_correlation_claims():
    from irrepro.papers.sigir2020 import resampling_design

    bias = resampling_design.bias_table(n_resamples=200, seed=1)
    tau = bias[bias["recentred"]]
    drawn, moved = ("bootstrap, as drawn", "below"), ("bootstrap, recentred", "below")
    assert tau[drawn].median() > 0.6  # as drawn, most replicates below the value on all topics
    assert (tau[moved] - 0.5).abs().max() < 0.2 and (tau[moved] - 0.5).abs().median() < 0.02


def test_in_the_simulation_recentring_centres_the_correlation_and_leaves_the_mean_alone():
    from irrepro.papers.sigir2020 import resampling_design

    simulation = resampling_design.coverage_simulation(studies=15, resamples=100, seed=7)
    tau, mean = dict.fromkeys(simulation["statistic"])
    simulation = simulation.set_index(["statistic", "design"])
    assert tau.startswith("tau") and mean.startswith("mean")
    assert simulation.at[(tau, "bootstrap, as drawn"), "below"] > 0.6
    assert abs(simulation.at[(tau, "bootstrap, recentred"), "below"] - 0.5) < 0.1
    assert abs(simulation.at[(mean, "bootstrap, as drawn"), "below"] - 0.5) < 0.1
    assert simulation["coverage"].between(0, 1).all() and simulation["true share"].between(0.6, 0.8).all()
