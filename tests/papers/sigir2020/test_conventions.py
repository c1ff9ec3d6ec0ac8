"""The conventions the print fixes (nDCG cut-off, RBO depth) and the measures on small rankings."""

from __future__ import annotations

import numpy as np

from irrepro.papers import sigir2020
from irrepro.papers.sigir2020 import conventions
from irrepro.reproducibility import ranking
from tests.papers.conftest import assert_made_once


def test_small_cases_reproduce_the_papers_ktu_examples_and_show_label_dependence():
    cases = sigir2020.small_cases()
    printed = cases.dropna(subset=["KTU printed"])
    np.testing.assert_allclose(printed["KTU"], printed["KTU printed"])
    assert cases.at["example 1, d4 renamed d0", "KTU"] != cases.at["paper's KTU example 1", "KTU"]
    assert cases.at["example 1, d4 renamed d0", "tau-b union tied"] == cases.at["paper's KTU example 1", "tau-b union tied"]
    assert cases.at["swap at the bottom", "RBO ext"] > cases.at["swap at the top", "RBO ext"]


def test_rbo_convention_attains_every_published_value_only_for_depth_k_minus_1():
    table = sigir2020.rbo_depth_convention(5)
    attained = table["published values attainable"]
    total = table["published distinct values"].iloc[0]
    assert attained.iloc[0] == total  # ext on the top 4
    assert (attained.iloc[1:] < total).all()


def test_only_the_cutoff_1000_reproduces_the_printed_ndcg():
    check = sigir2020.ndcg_cutoff_check()
    assert check.index[check["matches both"]].tolist() == [1000]


def test_the_conventions_are_computed_once_per_process(monkeypatch):
    """The chapter's numbers, its tables and the fidelity table read them."""
    assert_made_once(monkeypatch, sigir2020.small_cases, ranking, "kendall_tau_union")
    assert_made_once(monkeypatch, lambda: sigir2020.rbo_depth_convention(5), conventions, "_attainable_rbo")
