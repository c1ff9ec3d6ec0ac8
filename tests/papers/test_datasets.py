"""The registry of published data sets agrees with data/registry.tsv and with the files themselves."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.data import fetch, registry
from irrepro.papers import datasets
from irrepro.papers.datasets import DATASETS, SIGIR2020_RPD, SIGIR2020_RPL, SYSTEMS
from irrepro.runs import read_qrels, read_run

# Registry files no chapter reads (other TREC score matrices, the trec_eval test suite, the topic files).
UNUSED_PREFIXES = ("trec_eval_tests/", "topics/", "trec_scores/adhoc", "trec_scores/web", "trec_scores/terabyte",
                   "trec_scores/robust2004_601-700")  # fmt: skip


def test_every_file_is_registered_once_and_every_used_registry_file_has_a_data_set():
    names = [name for d in DATASETS.values() for name in d.files()]
    assert len(names) == len(set(names)), "a file belongs to two data sets"
    registered = set(registry())
    assert set(names) <= registered, sorted(set(names) - registered)[:5]
    used = {name for name in registered if not name.startswith(UNUSED_PREFIXES)}
    assert used == set(names), sorted(used ^ set(names))[:5]


def test_file_names_and_errors():
    assert datasets.sigir2020_file("org", "WCrobust0405", "ap") == "sigir2020/measures_rpd/org_wcrobust0405_ap.csv"
    assert datasets.TREC_SCORES_ROBUST04.file(part="p10") == "trec_scores/robust2004_p10.csv"
    with pytest.raises(ValueError, match="sigir2020-rpd: no file with part='p5'"):
        SIGIR2020_RPD.file(system="wcrobust04", part="p5")
    with pytest.raises(ValueError, match="named by system, part"):
        SIGIR2020_RPL.file(part="ap")
    with pytest.raises(ValueError, match="unknown measure"):
        datasets.file_part("MRR")
    with pytest.raises(ValueError, match="unknown setting"):
        datasets.sigir2020_file("xyz", "WCrobust04", "ap")
    with pytest.raises(ValueError, match="unknown data set"):
        datasets.dataset("trec-runs")


@pytest.mark.parametrize("key", [k for k, d in DATASETS.items() if d.topic_columns])
def test_csv_files_have_the_documented_topic_column_and_topic_count(key):
    d = DATASETS[key]
    (count,) = d.topics.values()
    for name in d.files():
        frame = pd.read_csv(fetch(name))
        assert frame.columns[0] in d.topic_columns, name
        assert frame.iloc[:, 0].nunique() == len(frame) == count, name
    if key == "sigir2020-rpl":
        assert pd.read_csv(fetch(d.file(system="wcrobust04", part="rbo_5_p08"))).columns[0] == "topic_id"


@pytest.mark.parametrize(("key", "prefix", "extra"), [("sigir2020-rpl", "rpl", ()), ("sigir2020-rpd", "rpd", range(51, 59))])
def test_sigir2020_run_columns(key, prefix, extra):
    d = DATASETS[key]
    for system in SYSTEMS:
        columns = set(pd.read_csv(fetch(d.file(system=system.lower(), part="ap"))).columns[1:])
        expected = {datasets.run_column(prefix, system, k) for k in range(1, 51)}
        expected |= {system} if prefix == "rpl" else set()
        expected |= {datasets.run_column(prefix, system, k) for k in extra} if system == "WCrobust04" else set()
        assert columns == expected, (key, system)


def test_qrels_and_run_topic_counts():
    for collection, count in datasets.TREC_QRELS.topics.items():
        qrels = read_qrels(fetch(datasets.TREC_QRELS.file(collection=collection.lower())))
        assert qrels["query_id"].nunique() == count, collection
    run = read_run(fetch(datasets.ROBUST04_RUN.file()), name="bm25")
    assert run["query_id"].nunique() == datasets.ROBUST04_RUN.topics["Robust04"]


def test_nist_summaries_have_the_documented_columns():
    for collection in datasets.NIST_SUMMARIES.fields["collection"]:
        columns = set(pd.read_csv(fetch(datasets.NIST_SUMMARIES.file(collection=collection))).columns)
        assert {"run", "map", "P_10"} <= columns
        assert ({"bpref", "ndcg", "ndcg_cut_10"} <= columns) == (collection != "robust04")


def test_datasets_table_lists_every_data_set():
    table = datasets.datasets_table()
    assert list(table.index) == list(DATASETS)
    assert table.loc["trec-qrels", "files"] == 4
    assert table["description"].str.len().gt(40).all()
