"""The claims protocol, and every registered claim quoting its paper exactly."""

from __future__ import annotations

import pytest

from irrepro.papers import PAPERS, glm, sigir2020
from irrepro.papers.claims import Claim, ClaimList, Finding, claims_table, normalise_text, quote_occurs

REGISTERED = [entry for claims in (sigir2020.CLAIMS, glm.CLAIMS, *sigir2020.STATEMENTS.values()) for entry in claims]


def test_a_claim_list_evaluates_its_functions_in_order():
    claims = ClaimList("toy")

    @claims.claim("yes", section="1", quote="q1", data="d")
    def _yes():
        return Finding(True, "1 = 1")

    @claims.claim("unknown", section="2", quote="q2", data="d")
    def _unknown():
        return Finding(None, "no data here")

    @claims.claim("no", section="3", quote="q3", data="d")
    def _no():
        return Finding(False, "1 != 2")

    table = claims.table()
    assert list(table["id"]) == ["toy.yes", "toy.unknown", "toy.no"]
    assert list(table["verdict"]) == ["holds", "cannot be tested here", "does not hold"]
    assert list(table["holds"]) == [True, False, False] and table["holds"].dtype == bool
    assert list(claims.table(ids=["toy.no"])["id"]) == ["toy.no"]
    with pytest.raises(ValueError, match="registered twice"):
        claims.claim("yes", section="1", quote="q", data="d")
    with pytest.raises(ValueError, match="unknown claim"):
        claims.evaluate(ids=["toy.maybe"])


def test_a_claim_needs_a_known_verdict_and_evidence():
    with pytest.raises(ValueError, match="verdict 'perhaps'"):
        Claim("p.c", "p", "1", "quote", "data", "perhaps", "evidence")
    with pytest.raises(ValueError, match="empty evidence"):
        Claim("p.c", "p", "1", "quote", "data", "holds", " ")


def test_claims_table_knows_the_papers():
    with pytest.raises(ValueError, match="unknown paper"):
        claims_table("nature2021")


def test_quote_matching_normalises_whitespace_and_math_but_not_words():
    text = "The correlation between ARP and $\\tau$ is low,\n below $0.29$, and higher for RBO $0.70$."
    assert quote_occurs("The correlation between ARP and τ is low, below 0.29, and higher for RBO 0.70.", text)
    assert not quote_occurs("The correlation between ARP and τ is high", text)
    assert not quote_occurs("", text)
    assert normalise_text("a \\text{ER}  $\\gg 1$") == "a ER ≫ 1"


@pytest.mark.parametrize("entry", REGISTERED, ids=lambda entry: entry.id)
def test_every_quote_is_the_papers_own_words(entry, paper_texts):
    paper = entry.id.split(".")[0]
    assert paper in PAPERS
    assert quote_occurs(entry.quote, paper_texts[paper]), entry.quote
    assert entry.section and entry.data


def test_sigir2020_claims_keep_their_verdicts():
    claims = sigir2020.claims()
    assert {"claim", "holds", "evidence", "id", "section", "data", "verdict"} <= set(claims.columns)
    verdicts = dict(zip(claims["id"], claims["verdict"], strict=True))
    # on the published files, four statements on Table 2 (right), Figure 3 and Table 5 do not hold
    # (irrepro.papers.sigir2020.hypothesis checks them with the authors' earlier AP file too), nor do two
    # thresholds of Table 4 (WCrobust04's tau(RMSE:AP, RMSE:nDCG) is 0.899, WCrobust0405's tau(p:AP, p:nDCG) 0.907)
    failing = ["table2-right-extremes", "figure3b-one-in-region4", "figure3b-many-in-region2", "table5-er-self-low",
               "table4-rmse-ap-ndcg-above-09", "table4-p-ap-ndcg-above-091"]
    for name in failing:
        assert verdicts.pop(f"sigir2020.{name}") == "does not hold", name
    assert set(verdicts.values()) == {"holds"} and len(verdicts) == 23
    assert claims["evidence"].str.contains(r"\d").all()  # every sentence carries computed numbers

