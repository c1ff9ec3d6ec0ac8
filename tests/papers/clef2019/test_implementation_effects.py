"""Each divergence measured alone on the stand-in, and the three implementations compared."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irrepro.evaluation import evaluate
from irrepro.papers.clef2019 import files, prose
from irrepro.papers.clef2019 import implementation_effects as ie
from irrepro.routing import implementations, standin


@pytest.fixture(scope="module")
def effects():
    return ie.implementation_effects()


def test_columns_and_one_row_per_divergence(effects):
    assert list(effects.columns[: len(ie.EFFECT_COLUMNS)]) == list(ie.EFFECT_COLUMNS)
    assert list(effects["divergence"]) == [row.name for row in implementations.DIVERGENCES]
    unswitchable = {row.name for row in implementations.DIVERGENCES if row.switch is None}
    assert set(effects.loc[effects["KTU"].isna(), "divergence"]) == unswitchable


def test_sublinear_tf_effect_against_a_run_made_here(effects):
    """MAP and RMSE of the sublinear-tf row, from runs made and evaluated independently of the module."""
    qrels = standin.load().collections[ie.TARGET].qrels
    without = standin.run("wcrobust0405", ie.TARGET).run
    with_ = standin.run("wcrobust0405", ie.TARGET, implementation=implementations.switched("sublinear_tf")).run
    ap = evaluate({"without": without, "with": with_}, qrels, ("AP",))["AP"]
    row = effects.set_index("divergence").loc["sublinear_tf"]
    assert row["MAP_without"] == pytest.approx(ap["without"].mean())
    assert row["MAP_with"] == pytest.approx(ap["with"].mean())
    assert row["RMSE:AP"] == pytest.approx(np.sqrt(((ap["with"] - ap["without"]) ** 2).mean()))
    assert row["RBO"] < 1 and row["MAP_with"] != row["MAP_without"]


def test_choices_the_stand_in_cannot_see_leave_the_run_unchanged(effects):
    rows = effects.set_index("divergence")
    # ties_last_first: the order of equal scores, which no measure sees (all rank as trec_eval does)
    for name in ("empty_documents", "repeated_ids", "topics_all_training", "topics_first_training", "ties_last_first"):
        assert (rows.loc[name, "KTU"], rows.loc[name, "RBO"], rows.loc[name, "RMSE:AP"]) == (1.0, 1.0, 0.0), name
    numbers = prose.implementation_numbers(effects)
    assert numbers["no-effect"] == 5 and numbers["largest"] == rows["RBO"].idxmin()


def test_implementations_compared():
    table = ie.implementation_comparison()
    assert [tuple(p) for p in table[["original", "new"]].to_numpy()] == list(ie.IMPLEMENTATION_PAIRS)
    assert table[["KTU", "RBO"]].le(1).all().all() and (table["RMSE:AP"] > 0).all()
    paper = table.iloc[0]
    effects = ie.implementation_effects().set_index("divergence")
    assert paper["MAP WCrobust0405 (original)"] == pytest.approx(effects["MAP_without"].iat[0])


def test_stand_in_tables_are_the_two_files():
    assert set(files.stand_in_tables()) == {"implementation_effects", "implementation_comparison"}


@pytest.mark.parametrize("choice", ["+ties_last_first", "+document_text", "sigir2020"])
def test_the_runs_are_those_of_standin_run(choice):
    """The module's runs come from the chapter's run cache; each is the run standin.run makes with the
    same implementation, line for line (only the tag differs)."""
    implementation = implementations.switched(choice[1:]) if choice.startswith("+") else choice
    cached = ie.stand_in_runs()[(ie.SYSTEM, choice)]
    alone = standin.run(ie.SYSTEM, ie.TARGET, implementation=implementation).run
    columns = {"query_id": "str", "doc_id": "str"}
    pd.testing.assert_frame_equal(cached.drop(columns="run").astype(columns), alone.drop(columns="run").astype(columns))


# Where each choice of an implementation shows in a run's ir_metadata header (its method component).
HEADER_FIELDS = {
    "text": "indexing → document text", "empty_documents": "indexing → empty documents",
    "repeated_ids": "indexing → repeated ids", "tokenizer": "indexing → tokenizer",
    "min_term_length": "indexing → min term length", "sublinear_tf": "retrieval → tf-idf → sublinear_tf",
    "solver": "retrieval → logistic regression → solver", "tol_scale": "retrieval → logistic regression → tol scale",
    "topics": "retrieval → logistic regression → topic rule", "ties": "score ties",
}


def test_the_headers_say_each_switch_changed_exactly_its_choices(effects):
    """Read from the runs' headers, each switched run differs from the paper run in the method
    fields of its switch's choices and in no other: the headers and the divergence table agree."""
    rows = effects.set_index("divergence")
    for row in implementations.DIVERGENCES:
        fields = rows.loc[row.name, "method fields that differ"]
        if row.switch is None:
            assert fields == "", row.name
        else:
            assert set(fields.split("; ")) == {HEADER_FIELDS[choice] for choice in row.switch}, row.name


def test_the_headers_say_what_two_implementations_do_differently():
    table = ie.implementation_comparison().set_index(["original", "new"])
    for original, new in ie.IMPLEMENTATION_PAIRS:
        a, b = implementations.get(original), implementations.get(new)
        differing = {name for name in HEADER_FIELDS if getattr(a, name) != getattr(b, name)}
        assert set(table.loc[(original, new), "method fields that differ"].split("; ")) == {HEADER_FIELDS[n] for n in differing}


def test_the_table_is_computed_once_and_handed_out_as_copies(effects, monkeypatch):
    """The chapter, reproduce's files and an exercise's answer read one table: no run is scored again."""
    monkeypatch.setattr(ie, "_ap", lambda runs: pytest.fail("the table was computed again"))
    again = ie.implementation_effects()
    pd.testing.assert_frame_equal(again, effects)
    again.loc[0, "KTU"] = -1.0
    assert ie.implementation_effects().loc[0, "KTU"] == effects.loc[0, "KTU"]
