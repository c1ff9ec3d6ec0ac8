"""Every number of the chapter's prose is computed; checked against independent counts."""

from __future__ import annotations

import re

import numpy as np
import pytest

from irrepro.papers import published, sigir2020
from tests.papers.sigir2020.conftest import PRINTED, raw


def test_chapter_numbers_agree_with_independent_counts():
    numbers = sigir2020.chapter_numbers()["value"]
    columns = raw("sigir2020/measures/rpl_wcrobust04_ap.csv").columns
    assert numbers["constellations"] == sum(c.startswith("rpl_wcrobust04_") for c in columns)
    assert numbers["printed constellations"] == len(PRINTED)
    assert numbers["families"] == len({run.split("_")[0] for run in PRINTED})
    assert numbers["Core17 topics"] == len(raw("sigir2020/measures/rpl_wcrobust04_ap.csv"))
    assert numbers["Core18 topics"] == len(raw("sigir2020/measures_rpd/rpd_wcrobust04_ap.csv"))
    assert numbers["appendix Table 1 cells"] == published.appendix_table1().size
    assert numbers["appendix Table 2 cells"] == published.appendix_table2().size
    assert numbers["KTU example 1, d4 renamed d0"] == pytest.approx(-1 / 3)
    assert numbers["RBO depth at cut-off 5"] == 4 and numbers["nDCG cut-off"] == 1000
    assert numbers["misprinted cell"] == "rpd_C_1 p:nDCG '54E-06'"
    assert sigir2020.chapter_numbers()["source"].str.len().gt(0).all()


def test_the_misprint_facts_are_computed_from_the_print_and_the_scores():
    numbers = sigir2020.chapter_numbers()["value"]
    printed = published.appendix_table2()
    scores = sigir2020.reproducibility_table("WCrobust0405")
    run, cell = numbers["misprint run"], numbers["misprint cell"]
    assert numbers["misprint printed"] == printed.at[run, cell]
    assert numbers["misprint reproduced"] == pytest.approx(scores.at[run, cell], rel=1e-12)
    value = scores.at[run, cell]  # the column's rule: the leading digit, truncated, 'xE-yy'
    exponent = int(np.floor(np.log10(value)))
    assert numbers["misprint reproduced as printed"] == f"{int(value / 10.0**exponent)}E-{-exponent:02d}"
    others = [text for r, text in printed[cell].items() if r != run and "E" in text.upper()]
    assert numbers["misprint column mantissa digits"] == 1 == min(len(t.upper().split("E")[0]) for t in others)
    assert numbers["misprint printed mantissa digits"] == len(numbers["misprint printed"].split("E")[0])
    assert numbers["misprint column cells"] == len(printed) - 1
    assert numbers["cells not matching"] == 1


def test_glue_names_are_unique_slugs():
    named = sigir2020.glue_names(sigir2020.chapter_numbers()["value"])
    assert named["core17-topics"] == 50 and named["misprint-printed"] == "54E-06"
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name) for name in named)
    with pytest.raises(ValueError, match="share the name"):
        sigir2020.glue_names({"a b": 1, "a-b": 2})
