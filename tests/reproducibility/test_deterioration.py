"""deteriorate(): the swap and replacement rules of Maistro et al. (IP&M 2023), on runs whose outcome is known
by hand, the shrinking rules with worked numbers, the refusals, and invariants on generated runs."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.evaluation import evaluate
from irrepro.reproducibility.deterioration import FAKE_PREFIX, MODES, Deterioration, deteriorate, rows_read
from irrepro.runs import in_trec_eval_order, rank_by_score, read_run, write_run
from irrepro.validation import InvalidParameterError

DOCS = list("abcdef")


def _run(docs_by_topic: dict[str, list[str]], scores: dict[str, list[float]] | None = None) -> pd.DataFrame:
    """A run frame: each topic's docs ranked as listed (scores n..1 unless given)."""
    rows = []
    for topic, docs in docs_by_topic.items():
        given_scores = (scores or {}).get(topic, [float(len(docs) - i) for i in range(len(docs))])
        rows += [(topic, doc, score) for doc, score in zip(docs, given_scores, strict=True)]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    return frame.assign(rank=frame.groupby("query_id").cumcount() + 1, run="r")


def _qrels(grades: dict[str, dict[str, int]]) -> pd.DataFrame:
    rows = [(topic, doc, grade) for topic, docs in grades.items() for doc, grade in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])


def _call(run, qrels, **options) -> Deterioration:
    settings_ = {"mode": "worse", "swaps": 0, "replacements": 0, "topics_share": 1.0, "source": (1, 2),
                 "destination": (5, 6), "seed": 0}
    return deteriorate(run, qrels, **{**settings_, **options})


def _docs(done: Deterioration, topic: str = "1") -> list[str]:
    return done.run.loc[done.run["query_id"] == topic, "doc_id"].tolist()


def _topic(done: Deterioration, topic: str = "1") -> dict:
    return done.topics.set_index("query_id").loc[topic].to_dict()


SIX = _run({"1": DOCS})
RELEVANT_AB = _qrels({"1": {"a": 1, "b": 2, "c": 0}})


# --------------------------------------------------------------------------- outcomes known by hand


@pytest.mark.parametrize("seed", range(5))
def test_two_swaps_put_the_two_relevant_documents_at_the_destination(seed):
    done = _call(SIX, RELEVANT_AB, swaps=2, seed=seed)
    docs = _docs(done)
    assert set(docs[4:]) == {"a", "b"} and set(docs[:2]) == {"e", "f"} and docs[2:4] == ["c", "d"]
    assert done.run["score"].tolist() == SIX["score"].tolist()  # every position keeps its score
    assert done.run["rank"].tolist() == [1, 2, 3, 4, 5, 6]
    row = _topic(done)
    assert (row["selected"], row["swaps"], row["replacements"], row["shrunk"], row["reason"]) == (True, 2, 0, False, "")
    assert (row["relevant_source"], row["nonrelevant_source"], row["relevant_destination"],
            row["nonrelevant_destination"]) == (2, 0, 0, 2)  # fmt: skip
    assert pd.isna(row["unretrieved_relevant"])  # worse mode does not count them


def test_replacements_put_fake_unjudged_documents_in_place_of_the_relevant_ones():
    done = _call(SIX, RELEVANT_AB, replacements=2)
    assert _docs(done) == ["fakea", "fakeb", "c", "d", "e", "f"]
    assert evaluate(done.run, RELEVANT_AB, "AP")["AP"].iloc[0, 0] == 0.0


def test_swaps_come_before_replacements_and_share_the_source_documents():
    qrels = _qrels({"1": {"a": 1, "b": 1}})
    docs = _docs(_call(SIX, qrels, swaps=1, replacements=1))
    [moved] = {"a", "b"} & set(docs[4:])
    [kept] = {"a", "b"} - {moved}
    assert f"fake{kept}" in docs[:2]
    assert set(docs[:2]) | set(docs[4:]) == {moved, f"fake{kept}", "e", "f"}


def test_the_destination_lacking_non_relevant_documents_cuts_the_swaps():
    qrels = _qrels({"1": {"a": 1, "b": 1, "e": 1}})
    row = _topic(_call(SIX, qrels, swaps=2))
    assert (row["swaps"], row["replacements"], row["shrunk"]) == (1, 0, True)
    assert row["reason"] == "1 non-relevant document(s) in the destination interval"


def test_the_coefficient_ratio_rule_keeps_the_swaps_to_replacements_ratio():
    # source 1-4 holds 2 relevant documents; 3 swaps + 1 replacement asked: int(round(3 * 2 / 4)) = round(1.5) = 2
    # swaps (half to even), the other 2 - 2 = 0 documents replaced
    eight = _run({"1": list("abcdefgh")})
    row = _topic(_call(eight, RELEVANT_AB, swaps=3, replacements=1, source=(1, 4), destination=(5, 8)))
    assert (row["swaps"], row["replacements"], row["shrunk"]) == (2, 0, True)
    assert "2 relevant document(s) in the source interval (swaps:replacements kept near 3:1)" in row["reason"]


def test_the_ratio_rounds_half_to_even_as_python_and_the_reference():
    # 1 relevant document, 1 swap + 1 replacement asked: round(1 * 1 / 2) = round(0.5) = 0 swaps, 1 replacement
    qrels = _qrels({"1": {"a": 1}})
    done = _call(SIX, qrels, swaps=1, replacements=1)
    assert (_topic(done)["swaps"], _topic(done)["replacements"]) == (0, 1)
    assert _docs(done)[0] == "fakea"
    # 3 relevant documents, 1 swap + 1 replacement asked: round(1.5) = 2 swaps, 1 replacement
    many = _run({"1": list("abcdefgh")})
    qrels = _qrels({"1": {"a": 1, "b": 1, "c": 1}})
    row = _topic(_call(many, qrels, swaps=2, replacements=2, source=(1, 4), destination=(5, 8)))
    assert (row["swaps"], row["replacements"]) == (2, 1)  # round(2 * 3 / 4) = round(1.5) = 2


def test_destination_cut_then_ratio_rule_with_worked_numbers():
    # source 1-4: a, b relevant; destination 5-6: e relevant, so 1 non-relevant document there.
    # Asked 2 + 2: swaps cut to 1 (quantity 3); 2 relevant < 3, so swaps = min(round(2 * 2 / 4), 1) = 1 and
    # replacements = 2 - 1 = 1.
    qrels = _qrels({"1": {"a": 1, "b": 1, "e": 1}})
    done = _call(SIX, qrels, swaps=2, replacements=2, source=(1, 4), destination=(5, 6))
    row = _topic(done)
    assert (row["swaps"], row["replacements"]) == (1, 1)
    assert row["reason"].split("; ") == ["1 non-relevant document(s) in the destination interval",
                                         "2 relevant document(s) in the source interval (swaps:replacements kept near 2:2)"]
    assert _docs(done)[5] in ("a", "b") and sorted(_docs(done)[:2]) in (["f", "fakeb"], ["f", "fakea"])


def test_a_topic_without_relevant_documents_in_the_source_is_left_as_it_is():
    qrels = _qrels({"1": {"c": 1}})
    done = _call(SIX, qrels, swaps=1, replacements=1)
    assert _docs(done) == DOCS
    row = _topic(done)
    assert (row["swaps"], row["replacements"], row["shrunk"]) == (0, 0, True)
    assert row["reason"] == "no relevant document in the source interval"


def test_no_swap_and_no_replacement_give_the_run_back():
    done = _call(SIX, RELEVANT_AB)
    assert _docs(done) == DOCS and not done.topics["shrunk"].any()


def test_a_ranking_shorter_than_the_destination_holds_only_its_documents():
    short = _run({"1": list("abcde")})
    done = _call(short, RELEVANT_AB, swaps=2, destination=(5, 6))
    row = _topic(done)
    assert (row["swaps"], row["nonrelevant_destination"]) == (1, 1)
    assert _docs(done)[4] in ("a", "b")


def test_better_mode_is_worse_mode_mirrored():
    qrels = _qrels({"1": {"e": 1, "f": 1}})
    done = _call(SIX, qrels, mode="better", swaps=2)
    assert set(_docs(done)[:2]) == {"e", "f"} and set(_docs(done)[4:]) == {"a", "b"}
    assert evaluate(done.run, qrels, "AP")["AP"].iloc[0, 0] == 1.0


def test_better_mode_replaces_with_relevant_documents_the_run_did_not_retrieve():
    qrels = _qrels({"1": {"x": 1, "y": 2, "a": 0}})
    done = _call(SIX, qrels, mode="better", replacements=2)
    assert set(_docs(done)[:2]) == {"x", "y"}
    row = _topic(done)
    assert (row["unretrieved_relevant"], row["replacements"], row["shrunk"]) == (2, 2, False)
    fewer = _topic(_call(SIX, _qrels({"1": {"x": 1}}), mode="better", replacements=2))
    assert (fewer["replacements"], fewer["reason"]) == (1, "1 relevant document(s) not retrieved")


def test_better_mode_ratio_rule_also_caps_the_replacements_at_the_unretrieved_documents():
    # source 1-4: a, b, c non-relevant, d relevant (3 non-relevant); destination 5-6: e relevant (1);
    # unretrieved relevant: x, y. Asked 2 + 2: swaps cut to 1, replacements stay 2 (quantity 3); 3 >= 3: no ratio.
    qrels = _qrels({"1": {"d": 1, "e": 1, "x": 1, "y": 1}})
    row = _topic(_call(SIX, qrels, mode="better", swaps=2, replacements=2, source=(1, 4), destination=(5, 6)))
    assert (row["swaps"], row["replacements"]) == (1, 2)
    # with only 2 non-relevant source documents (c relevant too): swaps = min(round(2 * 2 / 4), 1) = 1,
    # replacements = min(2 - 1, 2) = 1
    qrels = _qrels({"1": {"c": 1, "d": 1, "e": 1, "x": 1, "y": 1}})
    row = _topic(_call(SIX, qrels, mode="better", swaps=2, replacements=2, source=(1, 4), destination=(5, 6)))
    assert (row["swaps"], row["replacements"]) == (1, 1)


def test_betterworse_swaps_non_relevant_up_and_replaces_relevant_by_fakes():
    qrels = _qrels({"1": {"a": 1, "e": 1}})
    done = _call(SIX, qrels, mode="betterworse", swaps=1, replacements=1)
    assert _docs(done) == ["fakea", "e", "c", "d", "b", "f"]


def test_worsebetter_swaps_relevant_down_and_replaces_non_relevant_by_unretrieved_relevant():
    qrels = _qrels({"1": {"a": 1, "x": 1}})
    done = _call(SIX, qrels, mode="worsebetter", swaps=1, replacements=1)
    docs = _docs(done)
    assert docs[1] == "x" and docs[0] in ("e", "f") and "a" in docs[4:]
    capped = _topic(_call(SIX, qrels, mode="worsebetter", swaps=2))
    assert (capped["swaps"], capped["replacements"]) == (1, 0)
    assert capped["reason"] == "1 relevant document(s) in the source interval to swap"


def test_a_moved_document_takes_its_place_among_equal_scores_by_docno():
    run = _run({"1": list("abcd")}, scores={"1": [3.0, 2.0, 1.0, 1.0]})
    qrels = _qrels({"1": {"a": 1}})
    for seed in range(6):
        done = _call(run, qrels, swaps=1, source=(1, 1), destination=(3, 4), seed=seed)
        assert _docs(done)[3] == "a"  # the tie of score 1 is ordered by docno descending: "a" last
        assert in_trec_eval_order(done.run)


# --------------------------------------------------------------------------- topics, seeds, frames


def _topics_run(n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    topics = [str(100 + i) for i in range(n)]
    return _run(dict.fromkeys(topics, DOCS)), _qrels({topic: {"a": 1} for topic in topics})


def test_the_share_of_topics_is_rounded_half_to_even():
    for n, share, expected in ((5, 0.5, 2), (7, 0.5, 4), (4, 0.25, 1), (10, 0.05, 0), (3, 1.0, 3)):
        run, qrels = _topics_run(n)
        done = _call(run, qrels, swaps=1, topics_share=share)
        assert done.topics["selected"].sum() == expected
        assert (done.topics["swaps"] == done.topics["selected"].astype(int)).all()


def test_share_zero_changes_nothing_and_share_one_changes_every_topic():
    run, qrels = _topics_run(6)
    none = _call(run, qrels, swaps=1, replacements=1, topics_share=0.0)
    pd.testing.assert_frame_equal(none.run, run.reset_index(drop=True))
    assert not none.topics["selected"].any() and none.topics["relevant_source"].isna().all()
    every = _call(run, qrels, swaps=1, topics_share=1.0)
    assert every.topics["selected"].all() and (every.topics["swaps"] == 1).all()
    assert "1 of 6" not in every.summary() and every.summary().startswith("worse: 6 of 6 topics changed")


def test_the_same_seed_gives_the_same_run_and_others_differ():
    run = _run({str(t): [f"d{i}" for i in range(40)] for t in range(8)})
    qrels = _qrels({str(t): {f"d{i}": 1 for i in range(0, 40, 3)} for t in range(8)})
    options = {"swaps": 2, "replacements": 1, "topics_share": 0.5, "source": (1, 10), "destination": (21, 40)}
    first, again = _call(run, qrels, seed=7, **options), _call(run, qrels, seed=7, **options)
    pd.testing.assert_frame_equal(first.run, again.run)
    pd.testing.assert_frame_equal(first.topics, again.topics)
    others = [_call(run, qrels, seed=seed, **options).run["doc_id"].tolist() for seed in range(8, 12)]
    assert any(docs != first.run["doc_id"].tolist() for docs in others)


def test_the_callers_frame_is_left_as_it_is_and_the_result_reads_back(tmp_path):
    before = SIX.copy()
    done = _call(SIX, RELEVANT_AB, swaps=1, replacements=1)
    pd.testing.assert_frame_equal(SIX, before)
    write_run(done.run, tmp_path / "d.run")
    pd.testing.assert_frame_equal(read_run(tmp_path / "d.run"), done.run)


def test_a_run_in_another_order_gives_the_same_result():
    run, qrels = _topics_run(4)
    shuffled = run.sample(frac=1.0, random_state=3).drop(columns="rank")
    options = {"swaps": 1, "replacements": 1, "topics_share": 0.5, "seed": 4}
    pd.testing.assert_frame_equal(_call(shuffled, qrels, **options).run, _call(run, qrels, **options).run)


def test_the_header_of_the_original_run_is_not_kept():
    run = SIX.copy()
    run.attrs["ir_metadata"] = {"tag": "r"}
    assert "ir_metadata" not in _call(run, RELEVANT_AB, swaps=1).run.attrs


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("options,named", [
    ({"source": (1, 5), "destination": (5, 6)}, "source and destination must not overlap"),
    ({"source": (5, 6), "destination": (1, 5)}, "source and destination must not overlap"),
    ({"source": (3, 2)}, "source must be an interval (start, end) with start <= end"),
    ({"destination": (6, 5)}, "destination must be an interval (start, end) with start <= end"),
    ({"source": (0, 2)}, "source[0] must be an integer >= 1"),
    ({"topics_share": 1.5}, "topics_share must be a number in [0, 1]"),
    ({"topics_share": -0.1}, "topics_share must be a number in [0, 1]"),
    ({"swaps": -1}, "swaps must be an integer >= 0"),
    ({"replacements": -2}, "replacements must be an integer >= 0"),
    ({"swaps": 2, "replacements": 1}, "swaps + replacements must be at most the 2 position(s) of source (1, 2); got 2 + 1"),
    ({"swaps": 3, "source": (1, 3), "destination": (5, 6)}, "swaps must be at most the 2 position(s) of destination"),
    ({"mode": "worst"}, "mode must be one of 'worse', 'better', 'betterworse', 'worsebetter'"),
    ({"seed": -1}, "seed must be an integer >= 0"),
])  # fmt: skip
def test_bad_parameters_are_refused_naming_the_parameter(options, named):
    with pytest.raises(ValueError) as caught:
        _call(SIX, RELEVANT_AB, **options)
    assert isinstance(caught.value, InvalidParameterError)
    assert str(caught.value).startswith("deteriorate: ") and named in str(caught.value), str(caught.value)


def test_run_topics_the_qrels_do_not_judge_are_named():
    run = _run({"1": DOCS, "7": DOCS, "9": DOCS})
    with pytest.raises(InvalidParameterError, match=r"qrels must judge every topic of run; got none for 2 topic\(s\): 7, 9"):
        _call(run, RELEVANT_AB, topics_share=0.0)


def test_a_fake_docno_the_ranking_holds_already_is_refused():
    run = _run({"1": ["a", "fakea", "c", "d", "e", "f"]})
    with pytest.raises(InvalidParameterError, match="got fakea in topic 1, where a is replaced by fakea"):
        _call(run, _qrels({"1": {"a": 1}}), replacements=1)
    other_topic = _run({"1": DOCS, "2": ["fakea", "b", "c", "d", "e", "f"]})  # in another topic: no clash
    assert "fakea" in _docs(_call(other_topic, _qrels({"1": {"a": 1}, "2": {"b": 0}}), replacements=1))


def test_the_modes_are_the_references():
    assert MODES == ("worse", "better", "betterworse", "worsebetter")


# --------------------------------------------------------------------------- invariants on generated runs


@st.composite
def _cases(draw):
    n_topics = draw(st.integers(1, 3))
    runs, grades = {}, {}
    scores = {}
    for topic in map(str, range(n_topics)):
        n_docs = draw(st.integers(1, 25))
        docs = [f"d{i}" for i in range(n_docs)]
        runs[topic] = docs
        scores[topic] = sorted(draw(st.lists(st.integers(0, 6), min_size=n_docs, max_size=n_docs)), reverse=True)
        judged = {doc: draw(st.sampled_from([-1, 0, 0, 1, 2])) for doc in docs if draw(st.booleans())}
        judged |= {f"u{i}": draw(st.sampled_from([0, 1, 2])) for i in range(draw(st.integers(0, 4)))}
        grades[topic] = judged or {"nothing": 0}
    run = rank_by_score(_run(runs, {topic: list(map(float, values)) for topic, values in scores.items()}))
    first_length = draw(st.integers(1, 8))
    first_start = draw(st.integers(1, 10))
    second_start = first_start + first_length + draw(st.integers(0, 5))
    second_length = draw(st.integers(1, 8))
    first, second = (first_start, first_start + first_length - 1), (second_start, second_start + second_length - 1)
    forward = draw(st.booleans())
    source, destination = (first, second) if forward else (second, first)
    swaps = draw(st.integers(0, min(source[1] - source[0] + 1, destination[1] - destination[0] + 1)))
    replacements = draw(st.integers(0, source[1] - source[0] + 1 - swaps))
    options = {"mode": draw(st.sampled_from(MODES)), "swaps": swaps, "replacements": replacements,
               "topics_share": draw(st.sampled_from([0.0, 0.5, 1.0])), "source": source,
               "destination": destination, "seed": draw(st.integers(0, 2**32))}
    return run, _qrels(grades), options, forward


@settings(max_examples=60, deadline=None)
@given(case=_cases())
def test_invariants_of_every_deterioration(case):
    run, qrels, options, forward = case
    done = deteriorate(run, qrels, **options)
    assert in_trec_eval_order(done.run)
    differs = done.run["doc_id"].to_numpy(dtype=object) != run["doc_id"].to_numpy(dtype=object)
    assert done.changed_rows.tolist() == np.flatnonzero(differs).tolist()
    for topic, original in run.groupby("query_id"):
        new = done.run[done.run["query_id"] == topic]
        assert new["score"].tolist() == original["score"].tolist()  # the scores at each rank position stay
        assert new["doc_id"].is_unique and len(new) == len(original)
    topics = done.topics
    assert (topics["swaps"] <= options["swaps"]).all() and (topics["replacements"] <= options["replacements"]).all()
    assert (topics.loc[~topics["selected"], ["swaps", "replacements"]] == 0).all().all()
    assert (topics["shrunk"] == ((topics["selected"]) & ((topics["swaps"] < options["swaps"])
                                                         | (topics["replacements"] < options["replacements"])))).all()
    before_pairs = set(zip(run["query_id"], run["doc_id"], strict=True))
    after_pairs = set(zip(done.run["query_id"], done.run["doc_id"], strict=True))
    added, removed = after_pairs - before_pairs, before_pairs - after_pairs
    assert len(added) == len(removed) == topics["replacements"].sum()
    relevant = set(zip(qrels["query_id"], qrels["doc_id"], strict=True)) & {
        (t, d) for t, d, g in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"], strict=True) if g > 0}
    if options["mode"] in ("worse", "betterworse"):
        assert all(doc.startswith("fake") for _, doc in added) and removed <= relevant
    else:
        assert added <= relevant and not removed & relevant
    if forward and options["mode"] in ("worse", "better"):
        before = evaluate(run, qrels, "AP", no_relevant="keep")["AP"].iloc[:, 0]
        after = evaluate(done.run, qrels, "AP", no_relevant="keep")["AP"].iloc[:, 0]
        difference = (after - before).to_numpy()
        assert (difference <= 1e-12).all() if options["mode"] == "worse" else (difference >= -1e-12).all()


@settings(max_examples=100, deadline=None)
@given(case=_cases())
def test_the_rows_read_are_all_that_deteriorate_needs(case):
    """On the rows rows_read keeps, deteriorate draws and changes exactly what it does on the whole run."""
    run, qrels, options, _ = case
    # Each ranking goes on below its lowest score (ties included) with documents some of which are
    # relevant or named like fakes: rows no setting reaches, but whose presence the rules notice.
    tail = [(topic, doc, score) for topic, low in run.groupby("query_id")["score"].min().items()
            for doc, score in (("t1", low), ("t2", low - 1), (f"{FAKE_PREFIX}d0", low - 1), ("u0", low - 2), ("t3", low - 3))]
    tail = pd.DataFrame(tail, columns=["query_id", "doc_id", "score"]).assign(run="r")
    tail = tail[~tail.set_index(["query_id", "doc_id"]).index.isin(run.set_index(["query_id", "doc_id"]).index)]
    run = rank_by_score(pd.concat([run.drop(columns="rank"), tail], ignore_index=True))
    qrels = pd.concat([qrels, pd.DataFrame({"query_id": tail["query_id"].unique(), "doc_id": "t3", "relevance": 1})])
    run = run.assign(line=np.arange(1, len(run) + 1))
    where = {"mode": options["mode"], "source": options["source"], "destination": options["destination"]}
    kept = run[rows_read(run, qrels, **where)].reset_index(drop=True)
    # Ties in another order (docno ascending), topics reversed: the same rows.
    other = run.sort_values(["query_id", "score", "doc_id"], ascending=[False, False, True]).reset_index(drop=True)
    other["rank"] = other.groupby("query_id", sort=False).cumcount() + 1
    assert sorted(other.loc[rows_read(other, qrels, **where), "line"]) == sorted(kept["line"])
    try:
        whole = deteriorate(run, qrels, **options)
    except InvalidParameterError as refused:  # a fake named like a document of the ranking: refused on both
        with pytest.raises(InvalidParameterError, match=re.escape(str(refused))):
            deteriorate(kept, qrels, **options)
        return
    part = deteriorate(kept, qrels, **options)
    pd.testing.assert_frame_equal(part.topics, whole.topics)
    assert part.changed_lines(kept) == whole.changed_lines(run)
    depth = max(options["source"][1], options["destination"][1])  # ranks up to there: the same rows in the same order
    pd.testing.assert_frame_equal(part.run[part.run["rank"] <= depth].reset_index(drop=True),
                                  whole.run[whole.run["rank"] <= depth].reset_index(drop=True), check_like=True)  # fmt: skip


def test_the_rows_read_go_on_through_the_tie_at_the_deepest_rank():
    # Ranked a b c f e d; "a" is swapped with "f" down to rank 4, tied with ranks 5 and 6: by docno it goes last.
    run = _run({"1": list("abcdef")}, {"1": [5.0, 4.0, 3.0, 2.0, 2.0, 2.0]})
    run = rank_by_score(run).assign(line=range(1, 7))
    qrels = _qrels({"1": {"a": 1}})
    options = {"mode": "worse", "swaps": 1, "replacements": 0, "topics_share": 1.0, "source": (1, 1),
               "destination": (4, 4), "seed": 0}
    mask = rows_read(run, qrels, mode="worse", source=(1, 1), destination=(4, 4))
    assert mask.tolist() == [True] * 6
    whole, part = deteriorate(run, qrels, **options), deteriorate(run[mask], qrels, **options)
    assert whole.run["doc_id"].tolist()[3:] == part.run["doc_id"].tolist()[3:] == ["e", "d", "a"]
