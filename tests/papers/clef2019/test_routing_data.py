"""The data of the routing runs: the four roles, the runs kept, the stand-in's names and the licensed corpora."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.papers.clef2019 import routing_data, tables
from irrepro.routing.experiment import RunRequest


def test_routing_data_needs_all_four_roles(tiny):
    with pytest.raises(ValueError, match="core18"):
        routing_data.RoutingData(label="x", collections={r: tiny.collections[r] for r in routing_data.ROLES[:3]}, corpora={})


def test_runs_are_made_once_and_reused(tiny):
    first = tiny.run(("robust04",), "core17")
    assert tiny.run(("robust04",), "core17") is first
    assert tiny.system_run("wcrobust04", "core17") is first  # WCrobust04 = trained on Robust04


def test_runs_on_a_dask_cluster_equal_those_made_here(tiny):
    from irrepro.routing.experiment import local_cluster

    requests = [RunRequest(("robust05",), "core18"), RunRequest(("robust04", "robust05"), "core18")]
    here = routing_data.RoutingData(label="s", collections=tiny.collections, corpora=tiny.corpora)
    there = routing_data.RoutingData(label="p", collections=tiny.collections, corpora=tiny.corpora)
    here.prefetch(requests)
    with local_cluster(workers=2, memory_limit="1GiB") as client:
        there.prefetch(requests, client=client)
    for request in requests:
        a = here.run(request.training, request.target).run
        b = there.run(request.training, request.target).run
        pd.testing.assert_frame_equal(a, b)
    assert len(there.runs()) == 2 and there.n_jobs == 2 and here.n_jobs == 1


def test_the_stand_in_is_one_run_cache_per_variant_however_it_is_asked_for(tiny, monkeypatch):
    """``stand_in()`` and ``stand_in(equal_targets=False)`` are the same data, and asking for the equal-size
    variant in between does not drop it: a dropped stand-in loses its runs, which are then made again."""
    from types import SimpleNamespace

    from irrepro.routing import standin

    slices = SimpleNamespace(collections={name: tiny.collections[role] for name, role in standin.ROLES.items()})
    monkeypatch.setattr(routing_data.standin, "load", lambda equal_targets=False: slices)
    routing_data._stand_in.cache_clear()  # the tiny slices in place of the stand-in, for this test only
    try:
        built = routing_data.stand_in()
        assert routing_data.stand_in(equal_targets=False) is built
        equal = routing_data.stand_in(equal_targets=True)
        assert routing_data.stand_in() is built and routing_data.stand_in(equal_targets=True) is equal
        assert equal is not built and equal.label == routing_data.STAND_IN_EQUAL_TARGETS_DATA
    finally:
        routing_data._stand_in.cache_clear()


def test_the_stand_in_names_its_slices_by_role_and_nature():
    # every role has a name that says it is a stand-in slice, and which TREC collection it plays
    for role, name in routing_data.STAND_IN_ROLE_NAMES.items():
        assert f"({routing_data.ROLE_NAMES[role]} role)" in name and name.split(" ")[0] in ("near", "far", "train-04", "train-05")
    # data without names of its own (the licensed corpora) keeps the TREC names
    assert routing_data.RoutingData(label="x", collections={r: None for r in routing_data.ROLES}, corpora={}).role_names == routing_data.ROLE_NAMES


def test_licensed_data_is_none_without_a_configuration(tmp_path, monkeypatch):
    monkeypatch.delenv("IRREPRO_ROUTING_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert routing_data.licensed_data() is None
    with pytest.raises(ValueError, match="no corpora configuration"):
        routing_data.licensed_data(tmp_path / "missing.toml")


def test_licensed_data_names_the_missing_role(tmp_path):
    config = tmp_path / "corpora.toml"
    config.write_text('[corpora.robust04]\nformat = "trec"\npaths = ["x"]\nqrels = "q.txt"\n')
    with pytest.raises(ValueError, match=r"corpora\.robust05"):
        routing_data.licensed_data(config)


def test_licensed_path_runs_the_replication_on_configured_corpora(tmp_path, tiny):
    """Section 7 end to end: four corpora in TREC SGML files and qrels files named in a config."""
    lines = []
    for role, collection in tiny.collections.items():
        docs = "".join(f"<DOC>\n<DOCNO> {d.doc_id} </DOCNO>\n<TEXT>\n{d.text}\n</TEXT>\n</DOC>\n" for d in collection.documents)
        (tmp_path / f"{role}.sgml").write_text(docs)
        collection.qrels.to_csv(tmp_path / f"{role}.qrels", sep=" ", header=False, index=False)
        lines.append(f'[corpora.{role}]\nformat = "trec"\npaths = ["{role}.sgml"]\nqrels = "{role}.qrels"\n')
    config = tmp_path / "corpora.toml"
    config.write_text("\n".join(lines))
    licensed = routing_data.licensed_data(config)
    assert licensed.label.startswith("licensed TREC corpora")
    table = tables.replication(licensed, official=False)
    expected = tables.replication(tiny, official=False)
    assert table["MAP"].to_numpy() == pytest.approx(expected["MAP"].to_numpy())  # same documents, same runs
    assert set(table["data"]) == {licensed.label}
