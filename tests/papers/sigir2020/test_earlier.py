"""The authors' earlier files against the published ones, checked with hashlib and plain pandas."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

from irrepro.data import fetch
from irrepro.papers import sigir2020
from tests.papers.sigir2020.conftest import raw


def _sha256(name: str) -> str:
    return hashlib.sha256(fetch(name).read_bytes()).hexdigest()


def test_the_p10_files_are_byte_identical_and_the_rpd_ap_file_is_not():
    table = sigir2020.earlier_files()
    for name, row in table.iterrows():
        assert row["identical bytes"] == (_sha256(name) == _sha256(row["current file"]))
        assert (row["cells differing"] == 0) == row["identical bytes"]
    assert table["identical bytes"].tolist() == [True, True, False]
    old = raw("sigir2020/measures_rpd/rpd_wcrobust0405_ap_old.csv")
    new = raw("sigir2020/measures_rpd/rpd_wcrobust0405_ap.csv")
    differing = int((np.abs(old[new.columns].to_numpy() - new.to_numpy()) > 1e-12).sum())
    assert table.loc["sigir2020/measures_rpd/rpd_wcrobust0405_ap_old.csv", "cells differing"] == differing
    assert table.loc["sigir2020/measures_rpd/rpd_wcrobust0405_ap_old.csv", "runs earlier"] == old.shape[1]


def test_the_earlier_ap_differs_on_the_topics_robust05_judges():
    qrels = pd.read_csv(fetch("qrels/robust05.txt"), sep=r"\s+", header=None, dtype=str)
    judged = set(qrels[0])
    topics = sigir2020.earlier_rpd_ap_topics()
    assert topics["judged in Robust05"].tolist() == [topic in judged for topic in topics.index]
    groups = sigir2020.earlier_rpd_ap_groups()
    assert groups.loc[True, "topics"] == len(judged & set(topics.index))
    assert groups["topics"].sum() == 25 and groups["cells"].sum() == 25 * 50
    assert groups.loc[True, "cells equal"] == topics.loc[topics["judged in Robust05"], "runs equal"].sum()
    # what the comparison shows: the earlier WCrobust0405 hardly improves on WCrobust04 where it has more training data
    assert groups.loc[True, "cells equal"] < 0.05 * groups.loc[True, "cells"]
    assert groups.loc[False, "cells equal"] > 0.8 * groups.loc[False, "cells"]
    assert groups.loc[True, "improvement earlier"] < groups.loc[True, "improvement current"] / 4
