"""Every number of the chapter's prose is computed; checked against independent counts."""

from __future__ import annotations

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
