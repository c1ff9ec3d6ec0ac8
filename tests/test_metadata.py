"""irrepro.metadata: ir_metadata headers as values, their YAML, the schema's fields, PRIMAD strings."""

from __future__ import annotations

import copy
import itertools

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro import metadata
from irrepro.metadata import (
    COMPONENTS,
    END_LINE,
    KINDS,
    START_LINE,
    Metadata,
    MetadataError,
    differences,
    experiment_kind,
    header_lines,
    parse_header,
    parse_yaml,
    primad,
    same_test_collection,
    validate,
)

FULL = {
    "schema-version": 0.1,
    "run-version": 1.0,
    "tag": "r1",
    "platform": {"hardware": {"cpu": {"model": "X", "number of cores": 4}, "ram": "8 GB"},
                 "software": {"libraries": {"python": ["numpy==2.0"]}}},
    "research goal": {"evaluation": {"reported measures": ["map"], "baseline": ["WCrobust04"]}},
    "implementation": {"executable": {"cmd": "irrepro routing run"}, "source": {"lang": ["python"], "commit": "abc"}},
    "method": {"automatic": True, "retrieval": [{"name": "lr", "C": 1.5}]},
    "actor": {"name": "A. Person", "role": "reproducer"},
    "data": {"test collection": {"name": "core17"}, "training data": [{"name": "robust04"}]},
}


def _parse(lines: list[str]) -> Metadata:
    assert lines[0] == START_LINE and lines[-1] == END_LINE
    return parse_header(lines[1:-1], source="r.run")


# --------------------------------------------------------------------------- YAML in and out


def test_a_header_round_trips_in_the_schema_order():
    lines = header_lines(FULL)
    assert _parse(lines).to_dict() == FULL
    keys = [line[2:].split(":")[0] for line in lines[1:-1] if line.startswith("# ") and not line.startswith("#  ")]
    assert keys == ["schema-version", "run-version", "tag", *COMPONENTS]


def test_a_header_folded_to_a_page_width_reads_back_the_same_fields():
    fields = copy.deepcopy(FULL)
    fields["data"] = {"test collection": {"name": "core17", "source": " ".join(["a long description"] * 12)}}
    folded = header_lines(fields, width=60)
    assert max(map(len, folded)) <= 2 + 60 + len("description") < max(map(len, header_lines(fields)))
    assert _parse(folded).to_dict() == _parse(header_lines(fields)).to_dict() == fields


_KEYS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=30),
                    st.floats(allow_nan=False, allow_infinity=False))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
                       max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_KEYS.filter(lambda key: key not in metadata.SCHEMA), _VALUES, max_size=4))
def test_any_extension_fields_round_trip(fields):
    """Unknown fields are the schema's extensions: any YAML value, any text (line breaks, '#',
    no-break spaces, line separators) comes back as it was written."""
    assert _parse(header_lines(fields)).to_dict() == fields


def test_every_yaml_line_is_a_comment_line_with_one_hash():
    lines = header_lines({"actor": {"name": "line one\nline two # not a comment"}})
    assert all(line.startswith("#") for line in lines)
    assert _parse(lines)["actor"]["name"] == "line one\nline two # not a comment"


def test_parse_yaml_reads_a_template_as_repro_eval_reads_one():
    parsed = parse_yaml("actor:\n  name: A. Person\n  team: t\n", source="t.yaml")
    assert parsed.to_dict() == {"actor": {"name": "A. Person", "team": "t"}}
    assert parse_yaml("", source="empty.yaml").to_dict() == {}


# --------------------------------------------------------------------------- errors name the line


@pytest.mark.parametrize(
    ("yaml_lines", "expected"),
    [
        (["# tag: r1", "# actor: [unclosed"], r"r\.run, line 3: the ir_metadata fields are not valid YAML"),
        (["# tag: r1", "# platform:", "#   hardware: 8 GB"], r"line 4: ir_metadata field 'platform → hardware' must be a mapping"),
        (["# method:", "#   automatic: yes please"], r"line 3: ir_metadata field 'method → automatic' must be a boolean"),
        (["# research goal:", "#   evaluation:", "#     baseline: WCrobust04"],
         r"line 4: ir_metadata field 'research goal → evaluation → baseline' must be a sequence of scalars"),
        (["# data:", "#   training data:", "#     name: robust04"],
         r"line 3: ir_metadata field 'data → training data' must be a sequence of mappings"),
        (["# actor:", "#   name: A", "#   name: B"], r"line 4: ir_metadata field 'actor → name' is given twice \(first on line 3\)"),
        (["# - a", "# - b"], r"r\.run: an ir_metadata header must be a mapping of fields"),
        (["# 1: x"], r"line 2: ir_metadata field names must be text"),
        (["# tag: r1", "1 Q0 d 1 0.5 r1"], r"line 3: every line of an ir_metadata header starts with '#'"),
    ],
)
def test_a_bad_header_is_refused_naming_file_line_and_field(yaml_lines, expected):
    with pytest.raises(MetadataError, match=expected):
        parse_header(yaml_lines, source="r.run", first_line=2)


def test_empty_fields_are_allowed_the_checklists_say_should():
    validate({"actor": None, "platform": {"hardware": None}, "method": {"automatic": None}})


def test_header_lines_refuses_what_the_schema_refuses():
    with pytest.raises(MetadataError, match="'actor' must be a mapping"):
        header_lines({"actor": "someone"})


# --------------------------------------------------------------------------- the value


def test_metadata_is_read_only_and_its_copy_is_itself():
    header = Metadata(FULL)
    header["actor"]["name"] = "changed"  # a copy: the header is unchanged
    assert header["actor"]["name"] == "A. Person"
    assert copy.deepcopy(header) is header and header.tag == "r1"
    frame = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    frame.attrs["ir_metadata"] = header
    assert frame[["doc_id"]].attrs["ir_metadata"] is header  # pandas' deep copy of attrs costs nothing


def test_with_tag_sets_the_tag_and_refuses_another():
    assert metadata.with_tag({"actor": {}}, "r2").tag == "r2"
    with pytest.raises(MetadataError, match="'r1' is not the run's tag 'r2'"):
        metadata.with_tag(FULL, "r2")


# --------------------------------------------------------------------------- PRIMAD


def test_the_primad_string_upper_cases_each_component_that_differs():
    assert primad(FULL, FULL) == "primad"
    other = copy.deepcopy(FULL)
    other["method"]["retrieval"][0]["C"] = 3.0
    other["data"]["test collection"]["name"] = "core18"
    assert primad(FULL, other) == "priMaD"
    with pytest.raises(MetadataError, match="the other header lacks actor, data"):
        primad(FULL, {c: FULL[c] for c in COMPONENTS[:4]})


@pytest.mark.parametrize("letters", ["".join(p) for p in itertools.product(*("pP", "rR", "iI", "mM", "aA", "dD"))])
def test_every_primad_string_has_one_kind_and_d_decides_the_collection(letters):
    kind = experiment_kind(letters)
    assert kind in KINDS.values()
    assert kind.same_collection == letters[-1].islower()
    someone_else = letters[2].isupper() or letters[4].isupper()
    assert (kind.name in ("replicability", "reproducibility")) == someone_else
    assert experiment_kind(letters, same_collection=True).same_collection


def test_kinds_follow_repro_eval_for_its_three_primad_experiments():
    # repro_eval's PrimadExperiment: priMad parameter sweep, PRIMAd same test collection, PRIMAD generalizability
    assert experiment_kind("priMad").repro_eval == "parameter sweep (priMad)"
    assert experiment_kind("PRIMAd").repro_eval == "reproducibility on the same test collection (PRIMAd)"
    assert experiment_kind("PRIMAD").repro_eval == "generalizability (PRIMAD)"
    with pytest.raises(ValueError, match="p r i m a d"):
        experiment_kind("primax")


def test_same_test_collection_reads_data_test_collection_only():
    other = copy.deepcopy(FULL)
    other["data"]["training data"] = [{"name": "robust05"}]
    assert primad(FULL, other) == "primaD" and same_test_collection(FULL, other)
    other["data"]["test collection"] = {"name": "core18"}
    assert not same_test_collection(FULL, other)
    assert not same_test_collection({}, {})


def test_differences_lists_the_leaves_that_differ():
    other = copy.deepcopy(FULL)
    other["method"]["retrieval"][0]["C"] = 3.0
    other["method"]["indexing"] = {"tokenizer": "unicode-word"}
    assert differences(FULL, other, component="method") == [
        ("method → retrieval → lr → C", 1.5, 3.0),
        ("method → indexing → tokenizer", None, "unicode-word"),
    ]
    assert differences(FULL, FULL) == []


def test_a_pair_experiment_needs_four_complete_headers_and_one_collection():
    from irrepro.metadata import pair_experiment

    swept = copy.deepcopy(FULL)
    swept["method"]["retrieval"][0]["C"] = 3.0
    experiment = pair_experiment(orig_baseline=FULL, orig_advanced=FULL, new_baseline=swept, new_advanced=swept)
    assert experiment.primad == ("priMad", "priMad") and experiment.same_collection
    assert experiment.summary().startswith("PRIMAD priMad (baseline and advanced): parameter sweep")
    assert pair_experiment(orig_baseline=FULL, orig_advanced=None, new_baseline=swept,
                           new_advanced=swept).reason == "no ir_metadata header in the original advanced run"
    partial = {c: FULL[c] for c in COMPONENTS[:5]}
    assert "the new baseline run's lacks data" in pair_experiment(orig_baseline=FULL, orig_advanced=FULL, new_baseline=partial,
                                                                  new_advanced=swept).reason
    moved = copy.deepcopy(swept)
    moved["data"]["test collection"]["name"] = "core18"
    with pytest.raises(MetadataError, match="disagree: the new baseline run is on the original test collection"):
        pair_experiment(orig_baseline=FULL, orig_advanced=FULL, new_baseline=swept, new_advanced=moved)
