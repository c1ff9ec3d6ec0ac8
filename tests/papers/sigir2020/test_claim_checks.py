"""The SIGIR 2020 claims table: every threshold in the evidence is the paper's (quoted) or marked as ours."""

from __future__ import annotations

import pytest

from irrepro.papers import sigir2020
from irrepro.papers.claims import normalise_text


@pytest.fixture(scope="module")
def claims():
    return sigir2020.claims().set_index("id")


@pytest.mark.parametrize(
    ("claim", "ours"),
    [
        ("all-reproduced-different", "our significance level; the paper states none"),
        ("twins-mostly-different", "our significance level; the paper states none"),
        ("figure1-cutoffs", "our readings"),
        ("rmse-p10-largest", "read as: more than half"),
        ("reproducing-harder", "read as: a larger median"),
    ],
)
def test_a_threshold_of_ours_is_called_ours(claims, claim, ours):
    assert ours in claims.at[f"sigir2020.{claim}", "evidence"]


def test_a_threshold_called_the_papers_is_in_the_quote(claims):
    for claim, threshold in (("arp-ktu-rbo-correlation", "0.29"), ("arp-ktu-rbo-correlation", "0.70"),
                             ("all-reproduced-different", "0.005")):  # fmt: skip
        row = claims.loc[f"sigir2020.{claim}"]
        assert threshold in normalise_text(row["claim"]) and threshold in row["evidence"]


def test_the_table_has_the_columns_the_chapter_shows(claims):
    assert {"section", "claim", "data", "verdict", "evidence"} <= set(claims.columns)
    assert set(claims["verdict"]) <= {"holds", "does not hold", "cannot be tested here"}
    assert claims["data"].str.len().gt(20).all()
