"""CITATION.cff: valid Citation File Format, the package's version, and the reproduced papers as
their texts (``../shared/papers/``) give them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import irrepro

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ROOT.parent / "shared" / "papers"
CITATION = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def _words(text: str) -> str:
    """Lower-case letters and digits only, doubled letters as one: the papers' texts lost spaces,
    hyphens and ligatures in extraction ("diferences")."""
    return re.sub(r"(.)\1", r"\1", re.sub(r"[^a-z0-9]", "", text.lower()))


def test_the_required_fields_and_the_packages_version():
    assert CITATION["cff-version"] == "1.2.0"
    assert CITATION["message"] and CITATION["title"] and CITATION["authors"]
    assert CITATION["type"] == "software" and CITATION["license"] == "MIT"
    assert str(CITATION["version"]) == irrepro.__version__
    for reference in CITATION["references"]:
        assert {"type", "title", "authors"} <= set(reference), reference["title"]
        assert all("family-names" in author or "name" in author for author in reference["authors"])


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers' texts are in ../shared/papers beside the repository")
@pytest.mark.parametrize(("paper", "text"), [
    ("How to Measure the Reproducibility of System-oriented IR Experiments", "breuer2020_measure_reproducibility.txt"),
    ("Replicability and Reproducibility of Automatic Routing Runs", "breuer2019_routing_runs.txt"),
    ("IR Systems Evaluation via Generalized Linear Models", "faggioli_glm_evaluation.txt"),
])  # fmt: skip
def test_each_reproduced_paper_is_cited_as_its_text_gives_it(paper, text):
    [reference] = [r for r in CITATION["references"] if r["title"] == paper]
    source = " ".join((PAPERS / text).read_text(encoding="utf-8").split())  # no-break spaces as spaces
    assert _words(paper) in _words(source[:300])  # the title is the text's first line
    if "doi" in reference:
        assert f"DOI: {reference['doi']}" in source
        assert f"ISBN: {reference['isbn']}" in source


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers' texts are in ../shared/papers beside the repository")
def test_the_full_version_of_the_glm_paper_is_the_one_its_text_cites():
    [reference] = [r for r in CITATION["references"] if r["title"].startswith("Detecting significant")]
    source = (PAPERS / "faggioli_glm_evaluation.txt").read_text(encoding="utf-8")
    cited = next(line for line in source.splitlines() if line.startswith("[1]"))
    assert _words(reference["title"]) in _words(cited) and reference["doi"] in cited
    assert f"{reference['start']} - {reference['end']}" in cited
