"""The CLEF 2019 chapter's claims under topic resampling: every claim re-read, agreeing with the chapter on
all topics, read from the run cache without a new run, equal to the package's functions on drawn topics,
seeded, and written by ``irrepro reproduce clef2019``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.papers import clef2019
from irrepro.papers.claims import quote_occurs
from irrepro.papers.clef2019 import claim_checks, files, prose, robustness, stand_in_claims
from irrepro.papers.clef2019.claim_scores import ClaimScores, Resampled, claim_scores, published_scores
from irrepro.papers.clef2019.published_facts import OFFICIAL_CORE17
from irrepro.papers.robustness import COLUMNS, STATUSES
from irrepro.reproducibility import scores
from irrepro.routing import experiment


@pytest.fixture(scope="module")
def chapter(tiny):
    """The chapter's tables on the tiny world (they make its runs), and the claims' scores read afterwards."""
    made = {
        "transfer": clef2019.relevance_transfer(tiny), "augmentation": clef2019.feature_augmentation(tiny),
        "replication": clef2019.replication(tiny), "per_topic": clef2019.per_topic_ap(tiny),
        "tolerance": clef2019.tolerance_check(tiny),
    }  # fmt: skip
    return made


@pytest.fixture(scope="module")
def tiny_scores(chapter, tiny):
    return claim_scores(tiny, tiny)  # the tiny world in the place of its size-controlled variant too


def _point(checks, tiny_scores) -> dict[str, tuple[bool, float]]:
    outcomes = checks.outcomes(Resampled.all_topics(tiny_scores))
    return {claim: (bool(o.holds[0]), float(o.statistic[0])) for claim, o in outcomes.items()}


def test_every_claim_is_re_read_on_the_resamples():
    assert sorted(robustness.CHECKS.ids()) == sorted(claim_checks.CLAIMS.ids())
    assert sorted(robustness.STAND_IN_CHECKS.ids()) == sorted(robustness.STAND_IN_CLAIMS.ids())
    assert not set(robustness.CHECKS.ids()) & set(robustness.STAND_IN_CHECKS.ids())
    assert set(robustness.SECTION_TITLES) == {e.section for e in [*claim_checks.CLAIMS, *robustness.STAND_IN_CLAIMS]}


@pytest.mark.parametrize("entry", list(stand_in_claims.STAND_IN_CLAIMS), ids=lambda entry: entry.id)
def test_every_quote_is_the_papers_or_the_chapters_own_words(entry, paper_texts):
    from pathlib import Path

    if entry.section.startswith("chapter"):
        chapter_text = (Path(__file__).resolve().parents[3] / "chapters" / "routing_runs.md").read_text(encoding="utf-8")
        assert quote_occurs(entry.quote, chapter_text), entry.quote
    else:
        assert quote_occurs(entry.quote, paper_texts["clef2019"], lost_blanks=True), entry.quote
    assert "stand-in" in entry.data and entry.section.endswith("(stand-in)")


def test_on_all_topics_the_published_checks_give_the_chapters_verdicts():
    verdicts = claim_checks.claims().set_index("id")["verdict"]
    point = robustness.CHECKS.outcomes(Resampled.all_topics(published_scores()))
    assert {claim: bool(o.holds[0]) for claim, o in point.items()} == (verdicts == "holds").to_dict()
    # NIST's official scores are the original runs' means on all topics: the resampled reading is the claim's
    means = Resampled.all_topics(published_scores()).means("core17")
    for system, official in OFFICIAL_CORE17.items():
        assert means[(system, "MAP")].iat[0] == pytest.approx(official["AP"], abs=5e-5)


def test_stand_in_scores_read_the_run_cache_and_evaluate_nothing(chapter, tiny, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the claims' scores must come from the runs and scores the chapter made")

    monkeypatch.setattr(experiment, "iter_runs", forbidden)
    monkeypatch.setattr(experiment, "evaluate_prepared", forbidden)  # RunCache.scores evaluates with it
    made = len(tiny.runs())
    read = claim_scores(tiny, tiny)
    assert len(tiny.runs()) == made
    assert read.frames["transfer"].shape == (3, 12) and read.frames["systems"].shape == (3, 8)


def test_on_all_topics_the_stand_in_checks_give_the_chapters_numbers(chapter, tiny_scores):
    point = _point(robustness.STAND_IN_CHECKS, tiny_scores)
    means = Resampled.all_topics(tiny_scores).means("transfer").iloc[0]
    transfer = chapter["transfer"]
    assert np.allclose(means.to_numpy(), transfer["MAP"].to_numpy(), rtol=1e-12)
    augmentation = prose.augmentation_summary(chapter["augmentation"])
    assert point["clef2019.stand-in.augmentation-not-significant"] == (augmentation["significant"] == 0,
                                                                       augmentation["significant"])  # fmt: skip
    effect = clef2019.preprocessing_effect(chapter["replication"])
    assert point["clef2019.stand-in.preprocessing-raises"][1] == (effect["difference"] > 0).sum() == prose.preprocessing_summary(effect)["raised"]
    helps_wcrobust04 = prose.preprocessing_summary(effect)["verdict"].startswith("it helps")
    assert point["clef2019.stand-in.preprocessing-wcrobust04"][0] == helps_wcrobust04
    gains = clef2019.per_topic_gains(chapter["per_topic"]).set_index("target")["improved"]
    assert point["clef2019.stand-in.enrichment-fewer-far"][1] == gains.iloc[0] - gains.iloc[1]
    tolerance = prose.tolerance_summary(chapter["tolerance"])
    gradual = tolerance["sum_falling"] == tolerance["published_falling"] == "falling"
    assert point["clef2019.stand-in.tol-gradual"][0] == gradual


def test_the_stand_in_checks_agree_with_the_chapters_closing_verdicts(chapter, tiny_scores):
    point = _point(robustness.STAND_IN_CHECKS, tiny_scores)
    replicated = chapter["replication"]
    ours = replicated[(replicated["preprocessing"] == clef2019.tables.PREPROCESSING[True]) & (replicated["setting"] != "original")]
    by = ours.drop_duplicates(["run", "setting"]).set_index(["setting", "run"])["MAP"]
    near = {run.split(" ")[0]: value for (setting, run), value in by.items() if setting == "replicated"}
    far = {run.split(" ")[0]: value for (setting, run), value in by.items() if setting == "reproduced"}
    difference = min(near["WCrobust0405"] - near["WCrobust04"], far["WCrobust0405"] - far["WCrobust04"])
    assert point["clef2019.stand-in.enrichment-improves"][1] == pytest.approx(difference, abs=1e-12)
    harder = max(far[s] - near[s] for s in ("WCrobust04", "WCrobust0405"))
    assert point["clef2019.stand-in.reproduced-lower"][1] == pytest.approx(harder, abs=1e-12)


def _drawn(series: pd.Series, rows: np.ndarray) -> pd.Series:
    """The rows ``rows`` of a per-topic series as new topics (a topic drawn twice is two topics)."""
    return pd.Series(series.to_numpy()[rows], index=[f"draw{i}" for i in range(len(rows))])


def test_a_resample_equals_the_package_on_the_drawn_topics():
    published = published_scores()
    resampled = Resampled.draw(published, 3, seed=5)
    indices = np.random.default_rng(5).integers(0, 50, size=(3, 50))  # the core17 draws (group 0: seed + 0)
    assert np.array_equal(resampled.weights["core17"], np.stack([np.bincount(row, minlength=50) for row in indices]))
    frame, b = published.frames["core17"], 2
    plain, augmented = frame[("rpl_wcrobust04_1", "MAP")], frame[("rpl_wcrobust04_7", "MAP")]
    p = resampled.paired_p("core17", (augmented - plain).to_numpy())[b]
    assert p == pytest.approx(scores.paired_ttest(_drawn(plain, indices[b]), _drawn(augmented, indices[b])), rel=1e-9)
    subset = published.subsets[("core17", "all four collections")]
    members = [i for i in indices[b] if published.topics["core17"][i] in subset]
    expected = frame[("WCrobust0405", "P@10")].to_numpy()[members].mean()
    assert resampled.means("core17", subset="all four collections")[("WCrobust0405", "P@10")].iat[b] == pytest.approx(expected)
    better = (frame[("rpl_wcrobust0405_1", "MAP")] > frame[("rpl_wcrobust04_1", "MAP")]).to_numpy()
    assert resampled.counts("core17", better)[b] == better[indices[b]].sum()


def test_a_group_drawn_with_another_takes_its_draws_of_its_topics():
    frame = pd.DataFrame({"a": [1.0, 2.0, 4.0]}, index=["x", "y", "z"])
    scores = ClaimScores({"all": frame, "kept": frame.loc[["x", "z"]]}, {"all": "stand-in", "kept": "stand-in equal"},
                         {"stand-in": ["x", "y", "z"], "stand-in equal": ["x", "z"]}, drawn_with={"stand-in equal": "stand-in"})  # fmt: skip
    resampled = Resampled.draw(scores, 30, seed=4)
    assert np.array_equal(resampled.weights["stand-in equal"], resampled.weights["stand-in"][:, [0, 2]])
    weights = resampled.weights["stand-in"]
    drawn = weights[:, [0, 2]].sum(axis=1)
    expected = np.where(drawn > 0, (weights[:, 0] * 1.0 + weights[:, 2] * 4.0) / np.where(drawn > 0, drawn, 1), np.nan)
    np.testing.assert_allclose(resampled.means("kept")["a"].to_numpy(), expected)
    with pytest.raises(ValueError, match="no paired t-test"):
        resampled.paired_p("kept", np.zeros(2))
    with pytest.raises(ValueError, match="cannot be drawn with"):
        ClaimScores({}, {}, {"stand-in": ["x"], "stand-in equal": ["x", "z"]}, drawn_with={"stand-in equal": "stand-in"})


def test_groups_drawn_together_and_seeds_are_fixed(tiny_scores):
    first, again = Resampled.draw(tiny_scores, 40, seed=2), Resampled.draw(tiny_scores, 40, seed=2)
    assert tiny_scores.drawn_with == {"stand-in equal": "stand-in"}  # the tiny world stands in for both
    assert np.array_equal(first.weights["stand-in"], first.weights["stand-in equal"])
    assert not np.array_equal(first.weights["core17"][:, :15], first.weights["common"])
    for group in first.weights:
        assert np.array_equal(first.weights[group], again.weights[group])
    longer = Resampled.draw(tiny_scores, 60, seed=2)
    assert np.array_equal(longer.weights["core18"][:40], first.weights["core18"])  # a prefix of the same resamples


def test_the_table_has_one_row_per_claim_and_the_protocols_columns(tiny_scores):
    table = robustness.robustness_table(scores=tiny_scores, n_resamples=50, seeds=(1, 7))
    assert len(table) == len(robustness.CHECKS.ids()) + len(robustness.STAND_IN_CHECKS.ids())
    assert list(table.columns) == [*COLUMNS[:4], "data", *COLUMNS[4:]]
    assert set(table["status"]) <= set(STATUSES) and (table["resamples"] == 100).all() and (table["seeds"] == 2).all()
    assert (table["kept lowest seed"] <= table["verdict kept"] + 1e-12).all()
    assert (table["verdict kept"] <= table["kept highest seed"] + 1e-12).all()
    assert table["share holding"].between(0, 1).all()
    positions = table["section"].map(list(robustness.SECTION_TITLES).index)
    assert positions.is_monotonic_increasing  # the figure's groups in the order of the titles
    published = table["id"].isin(robustness.CHECKS.ids())
    assert table.loc[published, "data"].str.contains("2020 re-implementation").all()
    assert table.loc[~published, "data"].str.contains("stand-in").all()
    numbers = robustness.robustness_numbers(table, tiny_scores)
    for key in ("published", "stand_in"):
        assert numbers[f"{key}_holding"] + numbers[f"{key}_failing"] == numbers[f"{key}_claims"]
        assert numbers[f"{key}_stable"] + numbers[f"{key}_borderline"] + numbers[f"{key}_fragile"] == numbers[f"{key}_claims"]
    assert numbers["published_claims"] == published.sum() and numbers["resamples"] == 50
    assert (numbers["topics_core17"], numbers["topics_core18"], numbers["topics_common"], numbers["topics_stand_in"]) == (50, 25, 15, 3)
    assert numbers["equal_drawn"].startswith("together with the stand-in's")


def test_a_claims_own_finding_is_its_check_on_all_topics(tiny_scores, monkeypatch):
    monkeypatch.setattr(stand_in_claims, "claim_scores", lambda data, equal: tiny_scores)
    monkeypatch.setattr(stand_in_claims, "stand_in", lambda equal_targets=False: None)
    found = {claim.id: claim for claim in robustness.STAND_IN_CLAIMS.evaluate()}
    point = _point(robustness.STAND_IN_CHECKS, tiny_scores)
    assert {claim: found[claim].holds for claim in point} == {claim: holds for claim, (holds, _) in point.items()}
    assert all(c.evidence.endswith("on all topics") for c in found.values())


def test_a_run_on_other_topics_than_the_others_is_refused(chapter, tiny, monkeypatch):
    from irrepro.papers.clef2019 import claim_scores as module

    monkeypatch.setattr(module, "common_stand_in_topics", lambda data: ["oil", "gold"])  # one topic fewer
    with pytest.raises(ValueError, match="scored on 3 topics, not on the 2 topics judged in all four"):
        module.stand_in_scores(tiny)


def test_scores_are_checked_when_gathered():
    topics = ["1", "2"]
    frame = pd.DataFrame({"a": [0.1, 0.2]}, index=topics)
    with pytest.raises(ValueError, match="unknown topic group"):
        ClaimScores({"x": frame}, {"x": "elsewhere"}, {"elsewhere": topics})
    with pytest.raises(ValueError, match="rows are not the topics"):
        ClaimScores({"x": frame}, {"x": "core17"}, {"core17": ["2", "1"]})
    with pytest.raises(ValueError, match="has no score"):
        ClaimScores({"x": frame.assign(a=[0.1, np.nan])}, {"x": "core17"}, {"core17": topics})
    with pytest.raises(ValueError, match="not within"):
        ClaimScores({"x": frame}, {"x": "core17"}, {"core17": topics}, {("core17", "s"): ["3"]})
    with pytest.raises(ValueError, match="given twice"):
        ClaimScores({}, {}, {"core17": topics}).merged(ClaimScores({}, {}, {"core17": topics}))


def test_reproduce_clef2019_writes_the_claims_robustness_on_the_stand_in(tmp_path, monkeypatch):
    """``irrepro reproduce clef2019`` adds ``claims_robustness.csv`` with the stand-in's tables; the slow
    tables are replaced by stubs here, so no run is made."""

    class StandIn:
        label = clef2019.STAND_IN_DATA

        def results(self, requests):
            return []

    stub = pd.DataFrame({"x": [1]})
    for name in ("relevance_transfer", "feature_augmentation", "replication", "per_topic_ap", "own_dataset_measures",
                 "tolerance_check"):  # fmt: skip
        monkeypatch.setattr(files, name, lambda data, stub=stub, **options: stub)
    monkeypatch.setattr(files, "stand_in_tables", dict)
    monkeypatch.setattr(files, "stand_in_summary", lambda: stub)
    monkeypatch.setattr(files, "target_size_check", lambda: stub)
    table = pd.DataFrame({"id": ["clef2019.x"], "share holding": [0.5]})
    monkeypatch.setattr(files, "robustness_table", lambda data: table)
    written = {path.name for path in files.write_tables(tmp_path, data=StandIn())}
    assert "claims_robustness.csv" in written
    assert pd.read_csv(tmp_path / "claims_robustness.csv").equals(table)
    assert "``claims_robustness``" in files.__doc__
