"""The CLEF 2019 claims: quoted exactly, verdicts on the published 2020 re-implementation."""

from __future__ import annotations

import pytest

from irrepro.papers.claims import quote_occurs
from irrepro.papers.clef2019 import claim_checks
from irrepro.papers.clef2019.published_runs import CLEF_TEXT_NUMBERS


@pytest.mark.parametrize("entry", list(claim_checks.CLAIMS), ids=lambda entry: entry.id)
def test_every_quote_is_the_papers_own_words(entry, paper_texts):
    assert quote_occurs(entry.quote, paper_texts["clef2019"], lost_blanks=True), entry.quote
    assert "2020 re-implementation" in entry.data  # never presented as the 2019 runs


@pytest.mark.parametrize("number", CLEF_TEXT_NUMBERS, ids=lambda n: str(n.printed))
def test_surviving_numbers_are_quoted(number, paper_texts):
    assert quote_occurs(number.quote, paper_texts["clef2019"], lost_blanks=True)
    assert f"{number.printed:.4f}" in number.quote


def test_verdicts():
    table = claim_checks.claims().set_index("id")
    verdicts = table["verdict"].to_dict()
    assert verdicts == {
        "clef2019.enrichment-replicated": "holds",
        "clef2019.enrichment-reproduced-fewer": "holds",
        "clef2019.enrichment-improves": "holds",
        "clef2019.map-below-baseline": "holds",
        "clef2019.p10-slightly-below": "does not hold",  # the 2020 re-implementation's P@10 is above NIST's
        "clef2019.augmentation-not-significant": "does not hold",  # on Core17 the 2020 constellation 7 differs
        "clef2019.preprocessing-wcrobust04": "holds",
    }
    assert "14 of 15" in table.loc["clef2019.enrichment-replicated", "evidence"]
    assert table["evidence"].str.contains(r"\d").all()


def test_the_paper_implementation_uses_raw_tf_as_section_3_2_reads(paper_texts):
    """The decision and the words it rests on: the vectoriser named with one default, no parameter changed."""
    from irrepro.routing import implementations

    paper, clef, sigir = (implementations.get(name) for name in ("paper", "clef2019", "sigir2020"))
    assert (paper.sublinear_tf, clef.sublinear_tf, sigir.sublinear_tf) == (False, False, True)
    for words in ("we make use of the TfidfVectorizer and the LogisticRegression classifier",
                  "The TfidfVectorizer uses the L2-norm as a default setting"):  # fmt: skip
        assert quote_occurs(words, paper_texts["clef2019"], lost_blanks=True)
    assert "Sec. 3.2" in paper.sources["sublinear_tf"]
    row = {r.name: r for r in implementations.DIVERGENCES}["sublinear_tf"]
    assert row.implementations == ("sigir2020",) and dict(row.switch) == {"sublinear_tf": True}
