"""irrepro.routing.headers: a routing run's ir_metadata header, read from what made the run."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro import metadata
from irrepro.routing import implementations
from irrepro.routing.constellations import by_name
from irrepro.routing.headers import implementation_divergences, run_header
from irrepro.routing.pipeline import Collection, RoutingResult, RunSettings, describe_collection

QRELS = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "relevance": [1, 0, 1]})


def _result(tag: str = "wcrobust04_default", *, topics=("1", "2"), target: str = "core17") -> RoutingResult:
    """A made run as the pipeline returns it (no corpus needed: the header reads the result)."""
    run = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "c"], "score": [0.9, 0.8], "rank": [1, 1], "run": tag})
    inputs = {"training": [describe_collection(Collection("robust04", [], QRELS))],
              "target": describe_collection(Collection(target, [], QRELS, about={"ir_datasets": "nyt/trec-core-2017"}))}
    return RoutingResult(run, list(topics), {}, {}, [], {}, {}, 10, 3, inputs=inputs)


def _header(implementation="paper", constellation="default", **options) -> metadata.Metadata:
    settings = RunSettings.resolve(implementation, constellation=by_name(constellation), **options)
    return run_header(settings, _result())


def test_a_header_has_the_six_components_and_the_runs_tag():
    header = _header()
    assert metadata.missing_components(header) == []
    assert header.tag == "wcrobust04_default" and header["schema-version"] == metadata.SCHEMA_VERSION
    assert header["data"]["test collection"]["ir_datasets"] == "nyt/trec-core-2017"
    assert header["data"]["training data"][0]["qrels sha256"] == describe_collection(Collection("x", [], QRELS))["qrels sha256"]
    assert header["research goal"] == {"evaluation": {"reported measures": ["map", "P_10", "ndcg"]}}


def test_a_header_is_the_same_when_built_again():
    """No time and no path: the grid compares run files by sha256."""
    assert metadata.header_lines(_header()) == metadata.header_lines(_header())


@pytest.mark.parametrize("name", ["paper", "clef2019", "sigir2020"])
def test_the_method_is_what_the_implementation_object_holds(name):
    implementation = implementations.get(name)
    method = _header(name)["method"]
    assert method["indexing"]["tokenizer"] == implementation.tokenizer
    assert method["indexing"]["min term length"] == implementation.min_term_length
    stages = {stage["name"]: stage for stage in method["retrieval"]}
    assert stages["tf-idf"]["sublinear_tf"] == implementation.sublinear_tf
    assert stages["logistic regression"]["solver"] == implementation.solver
    assert stages["logistic regression"]["topic rule"] == implementation.topics
    assert stages["logistic regression"]["topics"] == ["1", "2"]
    assert stages["ranking"]["k"] == implementation.depth


@pytest.mark.parametrize("name", ["paper", "clef2019", "sigir2020"])
def test_an_implementations_divergences_are_those_the_table_gives_it(name):
    """The header's divergences, found from the implementation's choices, are the rows of
    implementations.DIVERGENCES that name the implementation: the two descriptions agree."""
    settings = RunSettings.resolve(name)
    found = [row["name"] for row in implementation_divergences(settings)]
    listed = [row.name for row in implementations.DIVERGENCES if name in row.implementations]
    assert found == listed
    assert _header(name)["implementation"]["name"] == name


def test_a_switched_choice_is_one_divergence_and_a_tol_scale_option_counts():
    switched = RunSettings.resolve(implementations.switched("sublinear_tf"))
    assert [row["name"] for row in implementation_divergences(switched)] == ["sublinear_tf"]
    on_sum = RunSettings.resolve("paper", tol_scale="sum")
    assert [row["name"] for row in implementation_divergences(on_sum)] == ["tol_on_summed_loss"]


def test_constellations_differ_in_the_method_only_a_parameter_sweep():
    default, tf_1 = _header(constellation="default"), _header(constellation="tf_1")
    string = metadata.primad(default, tf_1)
    assert string == "priMad" and metadata.experiment_kind(string).name == "parameter sweep"
    assert ("method → retrieval → tf-idf → max_features", None, 0.1) in metadata.differences(default, tf_1, component="method")


def test_another_implementation_is_a_replication_and_another_target_a_generalisation():
    paper, clef = _header("paper"), _header("clef2019")
    assert metadata.primad(paper, clef) == "prIMad"
    assert metadata.experiment_kind("prIMad").name == "replicability"
    far = run_header(RunSettings.resolve("paper"), _result(target="core18"))
    assert metadata.primad(paper, far) == "primaD"
    assert metadata.experiment_kind("primaD").name == "generalisability"


def test_given_fields_are_laid_over_the_header():
    settings = RunSettings.resolve("paper")
    given = {"actor": {"name": "A. Person"}, "research goal": {"venue": {"name": "CLEF", "year": 2019}}}
    header = run_header(settings, _result(), given=given)
    assert header["actor"] == {"role": "reproducer", "name": "A. Person"}
    assert header["research goal"]["venue"] == {"name": "CLEF", "year": 2019}
    assert header["research goal"]["evaluation"]["reported measures"] == ["map", "P_10", "ndcg"]
    with pytest.raises(metadata.MetadataError, match="'actor' must be a mapping"):
        run_header(settings, _result(), given={"actor": "someone"})


def test_a_collection_digests_its_judgments_once(monkeypatch):
    """Every run's header describes its collections: the qrels' sha256 is computed once per frame."""
    import irrepro.runs

    digests = []
    real = irrepro.runs.qrels_sha256
    monkeypatch.setattr(irrepro.runs, "qrels_sha256", lambda qrels: digests.append(1) or real(qrels))
    collection = Collection("robust04", [], QRELS)
    first = describe_collection(collection)
    assert describe_collection(collection) == first and len(digests) == 1
    assert first["qrels sha256"] == real(QRELS) and first["qrels"] == f"{len(QRELS)} judgments of {QRELS['query_id'].nunique()} topics"
    other = Collection("robust04", [], QRELS.iloc[:-1])
    assert describe_collection(other)["qrels sha256"] != first["qrels sha256"] and len(digests) == 2
