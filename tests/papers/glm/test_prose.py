"""The chapter's computed sentences: the data used and the outlier rule."""

from __future__ import annotations

import pandas as pd

from irrepro.glm.outliers import NEAR_ZERO_MAP
from irrepro.papers import glm


def test_outlier_rule_table_flags_exactly_the_eight_feup_runs():
    table = glm.outlier_rule_table()
    assert sorted(table.loc[table["outlier"], "run"]) == [f"feup-run{i}" for i in range(1, 9)]
    assert table["map"].is_monotonic_increasing and list(table["rank"]) == list(range(1, len(table) + 1))
    assert not table.loc[~table["outlier"], "map"].lt(NEAR_ZERO_MAP).any()


def test_outlier_rule_sentence_says_whose_rule_it_is_and_what_it_removes():
    sentence = glm.outlier_rule_sentence()
    assert sentence.startswith("The threshold is ours, not the paper's")
    assert "exactly 8 of the 72 runs" in sentence and "webis-baseline" in sentence
    assert "Core18: rpd_wcrobust04_35, rpd_wcrobust0405_35" in sentence and "Robust04: none" in sentence


def test_data_sentence_names_every_collection_with_its_shape_files_and_removals():
    sentence = glm.data_sentence()
    for _, row in glm.data_used().set_index("collection").iterrows():
        assert f"{row['topics']} topics x {row['runs']} runs; {row['measures']}" in sentence
        files = row["files"].split()
        assert all(name in sentence for name in files) or f"the {len(files)} files under" in sentence
    assert "TREC 2004 Robust" in sentence and "substitutes" in sentence
    assert "Robust04: none; Core18: 2 (rpd_wcrobust04_35, rpd_wcrobust0405_35); Core17: 1 (rpl_wcrobust04_35)" in sentence
    dropped = {(c, m): t for c, m, r in glm.settings() if not r for t in [glm.boundary_dropped(c, m)[0]] if t}
    assert dropped == {("Core17", "P@10"): ("356",), ("Core18", "P@10"): ("414",)}
    assert (glm.load_scores("Core17", "P@10").loc["356"] == 0).all()
    assert (glm.load_scores("Core18", "P@10").loc["414"] == 0).all()
    assert "Core17 P@10: topic 356; Core18 P@10: topic 414" in sentence
    assert "72 Core 2018 submissions" in sentence and sentence.endswith(".") and "\n" not in sentence


def test_chapter_numbers_are_computed_from_the_data():
    numbers = glm.chapter_numbers().set_index("name")["value"]
    assert numbers["Core 2018 runs below the threshold (NIST)"] == 8
    assert numbers["Core18 runs"] == glm.load_scores("Core18", "AP").shape[1]
    means = glm.load_scores("Core18", "AP").mean()
    assert numbers["Core18 substitute runs with 0.01 <= MAP < 0.05 (kept)"] == ((means >= 0.01) & (means < 0.05)).sum()


def test_the_papers_words_on_outliers_are_quoted_exactly_and_give_no_threshold(paper_texts):
    from irrepro.papers.claims import quote_occurs

    for section, quote in glm.OUTLIER_QUOTES.items():
        assert quote_occurs(quote, paper_texts["glm"]), section
    assert "0.01" not in paper_texts["glm"]  # the threshold is this book's, not the paper's


def test_verdict_summary_counts_each_groups_verdicts():
    verdicts = pd.DataFrame(
        {
            "claim": ["a", "b", "c", "d"],
            glm.ROBUST04.name: ["holds", "does not hold", "holds", "holds"],
            glm.SUBSTITUTES.name: ["holds", "holds", "cannot be tested here", "not tested"],
            glm.NIST_CORE18.name: ["not tested", "not tested", "not tested", "holds"],
        }
    )
    summary = glm.verdict_summary(verdicts)
    assert (summary["robust04_tested"], summary["robust04_holds"], summary["robust04_fails"]) == (4, 3, 1)
    assert summary["robust04_failing"] == "b" and summary["substitutes_failing"] == "none"
    assert (summary["substitutes_tested"], summary["substitutes_untestable"]) == (3, 1)
    assert summary["nist_core18_tested"] == summary["nist_core18_holds"] == 1
    assert summary["differ"] == "b, c"  # d is not tested on the substitutes
