"""irrepro.measures: the names a user writes, ir_measures' among them, and the trec_eval measure each means."""

from __future__ import annotations

import ir_measures
import pytest

from irrepro.measures import parse_measure, split_measure_names


@pytest.mark.parametrize(
    ("name", "trec_eval", "level"),
    [
        ("AP", "map", 1), ("AP@10", "map_cut_10", 1), ("P@10", "P_10", 1), ("nDCG@10", "ndcg_cut_10", 1),
        ("nDCG", "ndcg", 1), ("R@1000", "recall_1000", 1), ("RR", "recip_rank", 1), ("Rprec", "Rprec", 1),
        ("P(rel=2)@10", "P_10", 2), ("AP(rel=3)", "map", 3), ("RR(rel=2)", "recip_rank", 2),
        ("R(rel=2)@100", "recall_100", 2), ("nDCG(dcg='log2')@5", "ndcg_cut_5", 1), ("recip_rank", "recip_rank", 1),
    ],
)
def test_ir_measures_names_mean_trec_evals_measures(name, trec_eval, level):
    measure = parse_measure(name)
    assert (measure.name, measure.trec_eval, measure.relevance_level) == (name, trec_eval, level)


def test_an_ir_measures_object_is_its_name():
    for obj in (ir_measures.AP, ir_measures.P(rel=2) @ 10, ir_measures.nDCG @ 10, ir_measures.RR):
        assert parse_measure(obj) == parse_measure(str(obj))
    assert parse_measure(ir_measures.P(rel=2) @ 10).name == "P(rel=2)@10"


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("RR@10", "RR takes no cut-off in trec_eval"),
        ("P", "P needs a cut-off"),
        ("Judged@10", "unknown measure 'Judged@10': ir_measures' Judged is not one"),
        ("P(judged_only=True)@10", "judged_only are not trec_eval's"),
        ("nDCG(dcg='exp-log2')@10", "only dcg='log2' is trec_eval's nDCG"),
        ("P(rel=0)@10", "rel must be an integer grade >= 1"),
        ("P(rel=2)@0", "the cut-off k must be an integer from 1"),
        ("Nonsense(", "unknown measure"),
    ],
)
def test_what_trec_evals_code_cannot_compute_is_refused_by_name(name, problem):
    with pytest.raises(ValueError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        parse_measure(name)


def test_measure_lists_split_at_commas_outside_parameters():
    assert split_measure_names("AP, P(rel=2)@10,nDCG(dcg='log2', judged_only=False)@10,,") == [
        "AP", "P(rel=2)@10", "nDCG(dcg='log2', judged_only=False)@10"]
