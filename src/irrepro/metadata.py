"""ir_metadata: the PRIMAD description a TREC run carries in a header, and what two headers say.

The ir_metadata schema (Breuer, Keller & Schaer, *ir_metadata: An Extensible Metadata Schema for IR
Experiments*, SIGIR 2022; the checklists at ir-metadata.org, ``irgroup/ir_metadata``, schema-version
0.1) annotates a run with YAML comment lines at its very top::

    # ir_metadata.start
    # schema-version: 0.1
    # run-version: 1.0
    # tag: wcrobust04_default
    # platform:
    #   hardware: ...
    # research goal: ...
    # implementation: ...
    # method: ...
    # actor: ...
    # data: ...
    # ir_metadata.end
    301 Q0 FR940202-2-00150 1 0.98 wcrobust04_default

The six components are those of the PRIMAD model (Freire, Fuhr & Rauber, Dagstuhl 16041, 2016):
**P**\\ latform, **R**\\ esearch goal, **I**\\ mplementation, **M**\\ ethod, **A**\\ ctor, **D**\\ ata.
trec_eval skips the lines (they start with ``#``); repro_eval 0.5 reads and writes them
(``repro_eval.metadata``: ``MetadataHandler``, ``MetadataAnalyzer``), and this module follows its
conventions exactly: the same two delimiter lines, every YAML line behind ``"# "``, the components
under the keys above (``research goal`` with a blank), and a PRIMAD string that upper-cases the
letter of every component that differs, compared as a whole (:func:`primad`).

This module is I/O-free: :func:`parse_header` turns the header's lines into a read-only
:class:`Metadata` (checking them against the schema's fields, :func:`validate`) and
:func:`header_lines` turns a mapping back into lines; :mod:`irrepro.runs` reads and writes them with
the runs. :func:`experiment_kind` names what a PRIMAD string makes of a comparison.

>>> header = header_lines({"tag": "r1", "actor": {"team": "irrepro"}})
>>> header
['# ir_metadata.start', '# tag: r1', '# actor:', '#   team: irrepro', '# ir_metadata.end']
>>> parse_header(header[1:-1], source="r1.run")["actor"]
{'team': 'irrepro'}
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

__all__ = [
    "START_LINE",
    "END_LINE",
    "SCHEMA_VERSION",
    "COMPONENTS",
    "MetadataError",
    "Metadata",
    "ExperimentKind",
    "KINDS",
    "PairExperiment",
    "pair_experiment",
    "as_metadata",
    "validate",
    "parse_header",
    "parse_yaml",
    "header_lines",
    "with_tag",
    "merged",
    "primad",
    "group_by_primad",
    "yaml_text",
    "missing_components",
    "experiment_kind",
    "same_test_collection",
    "differences",
]

#: The delimiter lines (repro_eval's ``META_START`` / ``META_END``): the first and last line of a header.
START_LINE = "# ir_metadata.start"
END_LINE = "# ir_metadata.end"
#: The schema version of the checklists at ir-metadata.org (written as YAML writes 0.1: a number).
SCHEMA_VERSION = 0.1
#: The PRIMAD components in the order of the PRIMAD string (repro_eval's ``MetadataAnalyzer``).
COMPONENTS: tuple[str, ...] = ("platform", "research goal", "implementation", "method", "actor", "data")
_TOP_ORDER = ("schema-version", "run-version", "tag", *COMPONENTS)


class MetadataError(ValueError):
    """An ir_metadata header is malformed; the message names the file, the line and the field."""


# --------------------------------------------------------------------------- the schema's fields

# The kinds of value the checklists name (ir-metadata.org, "Type:" of each field).
SCALAR = "a scalar (text, number, boolean or date)"
TEXTS = "a sequence of scalars"
MAPPINGS = "a sequence of mappings"
BOOLEAN = "a boolean (true or false)"
LANGUAGES = "a mapping of languages to sequences of scalars"


def _scalars(*names: str) -> dict[str, str]:
    return dict.fromkeys(names, SCALAR)


#: Every field of the checklists of schema-version 0.1 and the kind of value it holds; a nested
#: dict is a mapping of those fields. Other fields are allowed (the schema is extensible).
SCHEMA: Mapping[str, object] = {
    **_scalars("schema-version", "run-version", "tag"),
    "platform": {
        "hardware": {
            "cpu": _scalars("model", "architecture", "operation mode", "number of cores"),
            "gpu": _scalars("architecture", "number of cores", "ram"),
            "ram": SCALAR,
        },
        "operating system": _scalars("kernel", "distribution", "platform"),
        "software": {"libraries": LANGUAGES, "retrieval toolkit": TEXTS},
    },
    "research goal": {
        "venue": _scalars("name", "year"),
        "publication": _scalars("dblp", "doi", "arxiv", "url", "abstract"),
        "evaluation": {"reported measures": TEXTS, "reported_measures": TEXTS, "baseline": TEXTS,
                       "significance test": MAPPINGS},
    },
    "implementation": {"executable": _scalars("cmd"), "source": {"lang": TEXTS, **_scalars("repository", "commit")}},
    "method": {
        "automatic": BOOLEAN,
        "score ties": SCALAR,
        "indexing": _scalars("tokenizer", "stemmer", "stopwords"),
        "retrieval": MAPPINGS,
    },
    "actor": {**_scalars("name", "orcid", "team", "mail", "role", "degree", "github", "twitter"), "fields": TEXTS},
    "data": {
        "test collection": _scalars("name", "source", "qrels", "topics", "ir_datasets"),
        "training data": MAPPINGS,
        "other": MAPPINGS,
    },
}

_SCALAR_TYPES = (str, int, float, bool, datetime.date, type(None))


def _where(path: tuple, lines: Mapping[tuple, int], source: str) -> str:
    """``SOURCE, line N`` of the field at ``path`` (the nearest enclosing field that has a line)."""
    for end in range(len(path), 0, -1):
        if path[:end] in lines:
            return f"{source}, line {lines[path[:end]]}"
    return source


def _field(path: tuple) -> str:
    return " \u2192 ".join(str(part) for part in path)


def _kind_of(value) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a sequence"
    return f"the scalar {value!r}"


def _is_kind(value, kind: str) -> bool:
    """Whether ``value`` is of the leaf ``kind`` (one of the kinds above, not a nested mapping)."""
    def scalars(items) -> bool:
        return isinstance(items, (list, tuple)) and all(isinstance(item, _SCALAR_TYPES) for item in items)

    if kind == SCALAR:
        return isinstance(value, _SCALAR_TYPES)
    if kind == BOOLEAN:
        return isinstance(value, bool)
    if kind == TEXTS:
        return scalars(value)
    if kind == MAPPINGS:
        return isinstance(value, (list, tuple)) and all(isinstance(item, Mapping) for item in value)
    return isinstance(value, Mapping) and all(scalars(items) for items in value.values())  # LANGUAGES


def _check_value(value, expected, path: tuple, lines: Mapping[tuple, int], source: str) -> None:
    """Raise :class:`MetadataError` unless ``value`` (at ``path``) is of the ``expected`` kind."""
    if value is None:  # a field left empty ("key:" in YAML): the checklists say "should", not "must"
        return
    if isinstance(expected, Mapping):
        if not isinstance(value, Mapping):
            raise MetadataError(f"{_where(path, lines, source)}: ir_metadata field '{_field(path)}' must be a mapping "
                                f"of its fields; found {_kind_of(value)}")
        _check_mapping(value, expected, path, lines, source)
    elif not _is_kind(value, expected):
        raise MetadataError(f"{_where(path, lines, source)}: ir_metadata field '{_field(path)}' must be {expected}; "
                            f"found {_kind_of(value)}")


def _check_mapping(value: Mapping, schema: Mapping, path: tuple, lines: Mapping[tuple, int], source: str) -> None:
    for key, item in value.items():
        if not isinstance(key, str):
            raise MetadataError(f"{_where((*path, str(key)), lines, source)}: ir_metadata field names must be text; "
                                f"found {key!r} in '{_field(path) or 'the header'}'")
        if key in schema:
            _check_value(item, schema[key], (*path, key), lines, source)


def validate(fields: Mapping, *, source: str = "ir_metadata", lines: Mapping[tuple, int] | None = None) -> None:
    """Check ``fields`` against the fields of the schema (``irrepro.metadata.SCHEMA``).

    A mapping with text keys, each known field of the kind its checklist names (a scalar, a sequence
    of scalars, a mapping ...; an empty field is allowed). Unknown fields are allowed: the schema is
    extensible.

    Parameters
    ----------
    fields : Mapping
        ir_metadata fields, nested as in the YAML.
    source : str, default "ir_metadata"
        What error messages call the fields' origin.
    lines : mapping of tuple -> int, optional
        A field's path (tuple of keys) -> its line, for messages ``SOURCE, line N: ...``.

    Raises
    ------
    MetadataError
        Naming the first field that is not what the schema says.
    """
    if not isinstance(fields, Mapping):
        raise MetadataError(f"{source}: an ir_metadata header must be a mapping of fields (schema-version, tag, "
                            f"platform, ...); found {_kind_of(fields)}")
    _check_mapping(fields, SCHEMA, (), lines or {}, source)


# --------------------------------------------------------------------------- the header as a value


class Metadata(Mapping):
    """A run's ir_metadata header: a read-only mapping of its fields (values handed out as copies).

    Kept in ``frame.attrs`` by :func:`irrepro.runs.read_run`; pandas deep-copies ``attrs`` with every
    operation on a frame, so a copy of this object is the object itself.

    Parameters
    ----------
    fields : Mapping, optional
        The header's fields, nested as in the YAML; default: none.
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping | None = None):
        self._fields = copy.deepcopy(dict(fields or {}))

    def __getitem__(self, key):
        return copy.deepcopy(self._fields[key])

    def __iter__(self) -> Iterator:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __deepcopy__(self, memo) -> Metadata:
        return self

    def __copy__(self) -> Metadata:
        return self

    def __repr__(self) -> str:
        return f"Metadata({self._fields!r})"

    def to_dict(self) -> dict:
        """Give the fields as a plain (mutable) nested dict.

        Returns
        -------
        dict
            A deep copy of the fields.
        """
        return copy.deepcopy(self._fields)

    @property
    def tag(self) -> str | None:
        """The run tag the header names, as text; ``None`` without one."""
        tag = self._fields.get("tag")
        return None if tag is None else str(tag)


def as_metadata(fields: Mapping, *, source: str = "ir_metadata") -> Metadata:
    """Check ``fields`` (:func:`validate`) and give them as a :class:`Metadata`.

    Parameters
    ----------
    fields : Mapping
        ir_metadata fields, nested as in the YAML.
    source : str, default "ir_metadata"
        What error messages call the fields' origin.

    Returns
    -------
    Metadata
        The checked fields.

    Raises
    ------
    MetadataError
        Naming the first field that is not what the schema says.
    """
    if isinstance(fields, Metadata):
        return fields
    validate(fields, source=source)
    return Metadata(fields)


def with_tag(metadata: Mapping, tag: str, *, source: str = "ir_metadata") -> Metadata:
    """Give ``metadata`` with ``tag`` as its run tag.

    Parameters
    ----------
    metadata : Mapping
        ir_metadata fields.
    tag : str
        The run's tag.
    source : str, default "ir_metadata"
        What the error message calls the fields' origin.

    Returns
    -------
    Metadata
        The fields with ``tag``.

    Raises
    ------
    MetadataError
        If ``metadata`` names another tag.
    """
    fields = as_metadata(metadata, source=source).to_dict()
    if fields.get("tag") is not None and str(fields["tag"]) != tag:
        raise MetadataError(f"{source}: the ir_metadata tag {fields['tag']!r} is not the run's tag {tag!r}")
    fields["tag"] = tag
    return Metadata(fields)


def merged(base: Mapping, update: Mapping) -> dict:
    """Lay ``update`` over ``base``: mappings merged key by key, anything else replaced.

    Parameters
    ----------
    base : Mapping
        The fields kept where ``update`` has none.
    update : Mapping
        The fields laid over them.

    Returns
    -------
    dict
        A new nested dict.

    Examples
    --------
    >>> merged({"actor": {"role": "reproducer"}, "tag": "a"}, {"actor": {"team": "t"}})
    {'actor': {'role': 'reproducer', 'team': 't'}, 'tag': 'a'}
    """
    out = copy.deepcopy(dict(base))
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


# --------------------------------------------------------------------------- YAML in and out


def _yaml_lines(node, path: tuple, lines: dict[tuple, int], source: str, first_line: int) -> None:
    """Record the line of every mapping key under ``node``; refuse a key given twice (YAML would keep
    the last one silently)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        seen: dict = {}
        for key_node, value_node in node.value:
            key = key_node.value
            line = first_line + key_node.start_mark.line
            if key in seen:
                raise MetadataError(f"{source}, line {line}: ir_metadata field '{_field((*path, key))}' is given twice "
                                    f"(first on line {seen[key]})")
            seen[key] = line
            lines[(*path, key)] = line
            _yaml_lines(value_node, (*path, key), lines, source, first_line)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, index)] = first_line + item.start_mark.line
            _yaml_lines(item, (*path, index), lines, source, first_line)


def _load_yaml(text: str, source: str, first_line: int) -> tuple[object, dict[tuple, int]]:
    """The YAML document ``text`` (safe types only) and the line of each key, or :class:`MetadataError`."""
    import yaml

    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        lines: dict[tuple, int] = {}
        _yaml_lines(node, (), lines, source, first_line)
        return (loader.construct_document(node) if node is not None else {}), lines
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        if mark is not None and error.context_mark is not None and mark.index >= len(text.rstrip()):  # <stream end>
            mark = error.context_mark  # the line where the unclosed bracket or quote began
        where = f"{source}, line {first_line + mark.line}" if mark is not None else source
        problem = " ".join(part for part in (error.context, error.problem) if part)
        raise MetadataError(f"{where}: the ir_metadata fields are not valid YAML: {problem}") from None
    except yaml.YAMLError as error:  # a reader error (a character YAML does not allow)
        raise MetadataError(f"{source}: the ir_metadata fields are not valid YAML: {error}") from None
    finally:
        loader.dispose()


def parse_header(lines: Iterable[str], *, source: str = "ir_metadata", first_line: int = 2) -> Metadata:
    """Read the header whose YAML lines (between the delimiter lines, each behind ``#``) are ``lines``.

    One ``#`` is taken off each line, as repro_eval takes them off; the rest is YAML (``# tag: r1``
    holds `` tag: r1``).

    Parameters
    ----------
    lines : iterable of str
        The header's lines between its start and end lines.
    source : str, default "ir_metadata"
        What error messages call the file.
    first_line : int, default 2
        The file's line number of the first of ``lines`` (2: right after the start line), so that
        errors name the file's lines: ``SOURCE, line N: ...``.

    Returns
    -------
    Metadata
        The checked fields.

    Raises
    ------
    MetadataError
        If a line does not start with ``#``, the YAML is malformed, or a field is not the schema's.
    """
    texts = []
    for number, line in enumerate(lines, start=first_line):
        if not line.startswith("#"):
            raise MetadataError(f"{source}, line {number}: every line of an ir_metadata header starts with '#' "
                                f"(is the '{END_LINE}' line missing before the run lines?)")
        texts.append(line[1:])
    fields, key_lines = _load_yaml("\n".join(texts), source, first_line)
    if fields is None:
        fields = {}
    validate(fields, source=source, lines=key_lines)
    return Metadata(fields)


def parse_yaml(text: str, *, source: str = "ir_metadata") -> Metadata:
    r"""Read a YAML document of ir_metadata fields, checked.

    A template, as repro_eval's ``MetadataHandler`` reads one: the header's fields without ``#``.

    Parameters
    ----------
    text : str
        The YAML document.
    source : str, default "ir_metadata"
        What error messages call the document; they name it and the line.

    Returns
    -------
    Metadata
        The checked fields.

    Raises
    ------
    MetadataError
        If the YAML is malformed or a field is not the schema's.

    Examples
    --------
    >>> parse_yaml("actor:\n  name: A. Person\n")["actor"]
    {'name': 'A. Person'}
    """
    fields, key_lines = _load_yaml(text, source, 1)
    validate(fields, source=source, lines=key_lines)
    return Metadata(fields)


def _ordered(fields: Mapping) -> dict:
    """The top-level fields in the schema's order (general information, then P, R, I, M, A, D)."""
    known = [key for key in _TOP_ORDER if key in fields]
    return {key: fields[key] for key in [*known, *(key for key in fields if key not in _TOP_ORDER)]}


# Characters YAML reads as line breaks besides "\n": PyYAML writes them raw in plain and single-quoted
# scalars (and then reads "\x85" back as a blank), so a text holding one is written double-quoted,
# where they are escapes (\r, \N, \L, \P); found by tests/test_metadata.py's round trip.
_BREAKS = frozenset("\r\x85\u2028\u2029")


def _dumper():
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value: str):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if _BREAKS & set(value) else None)

    Dumper.add_representer(str, text)
    return Dumper


def header_lines(metadata: Mapping, *, width: int = 4096) -> list[str]:
    """Write the header of ``metadata`` (checked first) as lines without line ends.

    The start line, each YAML line behind ``"# "``, the end line. Deterministic: the same fields
    give the same lines.

    Parameters
    ----------
    metadata : Mapping
        ir_metadata fields.
    width : int, default 4096
        Where YAML folds a long value onto the next line (the same value when read back). The
        files keep each value on one line; a page folds them to fit its column.

    Returns
    -------
    list of str
        The header's lines.

    Raises
    ------
    MetadataError
        If a field is not the schema's.
    """
    import yaml

    fields = as_metadata(metadata).to_dict()
    text = yaml.dump(_ordered(fields), Dumper=_dumper(), sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=width)
    # Every line break inside a value is escaped or folded, so each "\n" ends one line of the document.
    body = text.split("\n")[:-1] if fields else []
    return [START_LINE, *(f"# {line}" if line else "#" for line in body), END_LINE]


def yaml_text(metadata: Mapping, *, width: int = 4096) -> str:
    """Write the fields as the YAML document a header holds (the header's lines without their ``#``).

    Parameters
    ----------
    metadata : Mapping
        ir_metadata fields.
    width : int, default 4096
        Where long values are folded (:func:`header_lines`).

    Returns
    -------
    str
        The YAML text, one line end after each line.
    """
    return "".join(line[2:] + "\n" for line in header_lines(metadata, width=width)[1:-1])


# --------------------------------------------------------------------------- PRIMAD


def missing_components(metadata: Mapping | None) -> list[str]:
    """Give the PRIMAD components ``metadata`` lacks.

    Parameters
    ----------
    metadata : Mapping or None
        A header, or ``None`` for none.

    Returns
    -------
    list of str
        The components lacking (all six when there is no header).
    """
    return list(COMPONENTS) if metadata is None else [c for c in COMPONENTS if c not in metadata]


def primad(reference: Mapping, other: Mapping) -> str:
    """Give the PRIMAD string of ``other`` against ``reference``.

    Per component its initial, upper-case where the two differ (compared as a whole, as
    repro_eval's ``MetadataAnalyzer`` compares them).

    Parameters
    ----------
    reference : Mapping
        The header compared with (the original run's).
    other : Mapping
        The header compared.

    Returns
    -------
    str
        Six letters, ``p r i m a d`` each in either case.

    Raises
    ------
    MetadataError
        If a header lacks a PRIMAD component.

    Examples
    --------
    >>> primad({c: 1 for c in COMPONENTS}, {**{c: 1 for c in COMPONENTS}, "method": 2})
    'priMad'
    """
    for name, metadata in (("reference", reference), ("other", other)):
        lacking = missing_components(metadata)
        if lacking:
            raise MetadataError(f"no PRIMAD string: the {name} header lacks {', '.join(lacking)}")
    return "".join(c[0].upper() if reference[c] != other[c] else c[0] for c in COMPONENTS)


def group_by_primad(reference: Mapping, headers: Mapping[str, Mapping | None]) -> dict[str, list[str]]:
    """Group the names of ``headers`` by their PRIMAD string against ``reference``.

    As repro_eval's ``MetadataAnalyzer.analyze_directory`` groups a folder; names whose header is
    missing or lacks a component are grouped under ``"no header"`` and ``"incomplete header"``.

    Parameters
    ----------
    reference : Mapping
        The header compared with.
    headers : mapping of str -> Mapping or None
        Name (a file, a run) -> its header, ``None`` without one.

    Returns
    -------
    dict of str -> list of str
        PRIMAD string (or ``"no header"``, ``"incomplete header"``) -> the names.

    Examples
    --------
    >>> ref = {c: 1 for c in COMPONENTS}
    >>> group_by_primad(ref, {"a": {**ref, "method": 2}, "b": ref, "c": None})
    {'priMad': ['a'], 'primad': ['b'], 'no header': ['c']}
    """
    groups: dict[str, list[str]] = {}
    for name, header in headers.items():
        if header is None:
            key = "no header"
        elif missing_components(header):
            key = "incomplete header"
        else:
            key = primad(reference, header)
        groups.setdefault(key, []).append(name)
    return groups


def same_test_collection(reference: Mapping, other: Mapping) -> bool:
    """Tell whether both headers name the same ``data → test collection`` (and name one).

    Parameters
    ----------
    reference, other : Mapping
        The two headers.

    Returns
    -------
    bool
        True if both name it and it is the same.
    """
    tested = [(m.get("data") or {}).get("test collection") if isinstance(m.get("data"), Mapping) else None
              for m in (reference, other)]
    return tested[0] is not None and tested[0] == tested[1]


@dataclass(frozen=True)
class ExperimentKind:
    """What a comparison is, by the components it changes, and whether it stays on one collection.

    Parameters
    ----------
    name : str
        The kind (``"replicability"``, ``"parameter sweep"`` ...; :data:`KINDS`).
    same_collection : bool
        The new runs are judged with the original qrels, so the replicability measures apply (ARP,
        KTU, RBO, RMSE, ER, DeltaRI, paired t-test); otherwise those of reproducibility (ARP, ER,
        DeltaRI, unpaired t-test).
    description : str
        One sentence on what the kind is.
    repro_eval : str
        The kind's name in repro_eval's ``PrimadExperiment`` and the ir_metadata paper.
    """

    name: str
    same_collection: bool
    description: str
    repro_eval: str


#: The kinds :func:`experiment_kind` names. The book's names are those of Breuer et al. (SIGIR 2020):
#: replicability on the original collection, reproducibility on another. repro_eval and the
#: ir_metadata paper (after ACM's badges of 2020) call the first "reproducibility" (PRIMAd) and the
#: second "generalizability" (PRIMAD); both are given in ``repro_eval``.
KINDS: Mapping[str, ExperimentKind] = {
    kind.name: kind for kind in (
        ExperimentKind("repeatability", True, "the same implementation, method, actor and data (only the platform "
                       "or the research goal may differ)", "no PRIMAD experiment (primad)"),
        ExperimentKind("parameter sweep", True, "the same implementation and actor on the same test collection, "
                       "with other method parameters or training data", "parameter sweep (priMad)"),
        ExperimentKind("replicability", True, "another implementation or actor on the same test collection",
                       "reproducibility on the same test collection (PRIMAd)"),
        ExperimentKind("reproducibility", False, "another implementation or actor on another test collection",
                       "generalizability (PRIMAD)"),
        ExperimentKind("generalisability", False, "the same implementation and actor on another test collection",
                       "generalizability (PRIMAD)"),
    )
}


def experiment_kind(primad_string: str, *, same_collection: bool | None = None) -> ExperimentKind:
    """Give the kind of experiment a PRIMAD string makes of a comparison (:data:`KINDS`).

    Data (D) that differs puts the new runs on another collection unless ``same_collection`` says the
    test collection is the same (only the training data differs; :func:`same_test_collection`).
    Then an Implementation or Actor that differs makes it a replication (same collection) or a
    reproduction (another one); otherwise, on the same collection, a Method or training data that
    differs makes it a parameter sweep, and nothing that differs a repetition; on another
    collection, the same implementation and actor make it a generalisation.

    Parameters
    ----------
    primad_string : str
        Six letters, ``p r i m a d`` each in either case (upper case: differs).
    same_collection : bool, optional
        Whether the test collection is the same although D differs.

    Returns
    -------
    ExperimentKind
        The kind.

    Raises
    ------
    ValueError
        If ``primad_string`` is not a PRIMAD string.

    Examples
    --------
    >>> experiment_kind("priMad").name, experiment_kind("PRIMAd").name, experiment_kind("PRIMAD").name
    ('parameter sweep', 'replicability', 'reproducibility')
    >>> experiment_kind("primaD").name, experiment_kind("primaD", same_collection=True).name
    ('generalisability', 'parameter sweep')
    """
    if len(primad_string) != len(COMPONENTS) or primad_string.lower() != "primad":
        raise ValueError(f"a PRIMAD string has the letters p r i m a d, each in either case; got {primad_string!r}")
    changed = {c: letter.isupper() for c, letter in zip(COMPONENTS, primad_string, strict=True)}
    on_same = not changed["data"] if same_collection is None else same_collection
    someone_else = changed["implementation"] or changed["actor"]
    if not on_same:
        return KINDS["reproducibility" if someone_else else "generalisability"]
    if someone_else:
        return KINDS["replicability"]
    return KINDS["parameter sweep" if changed["method"] or changed["data"] else "repeatability"]


@dataclass(frozen=True)
class PairExperiment:
    """What the headers of an original run pair and a new one say their comparison is.

    All fields but ``reason`` are ``None`` when a run has no complete header.

    Parameters
    ----------
    primad : tuple of (str, str), optional
        The PRIMAD strings of the new baseline against the original baseline and of the new
        advanced run against the original advanced run.
    kinds : tuple of (ExperimentKind, ExperimentKind), optional
        Their kinds.
    same_collection : bool, optional
        Whether the new runs are on the original test collection.
    reason : str, default ""
        Which run lacks a complete header, when there is no PRIMAD string.
    """

    primad: tuple[str, str] | None = None
    kinds: tuple[ExperimentKind, ExperimentKind] | None = None
    same_collection: bool | None = None
    reason: str = ""

    def summary(self) -> str:
        """Describe the experiment in one sentence: the strings, the kind and repro_eval's name for it.

        Returns
        -------
        str
            The sentence, or why there is none.
        """
        if self.primad is None:
            return f"no PRIMAD string: {self.reason}"
        (b, a), (kb, ka) = self.primad, self.kinds
        strings = f"PRIMAD {b} (baseline) and {a} (advanced)" if b != a else f"PRIMAD {b} (baseline and advanced)"
        if kb == ka:
            return f"{strings}: {kb.name}, {kb.description} (repro_eval: {kb.repro_eval})"
        return f"{strings}: {kb.name} (baseline), {ka.name} (advanced)"


def pair_experiment(*, orig_baseline: Mapping | None, orig_advanced: Mapping | None, new_baseline: Mapping | None,
                    new_advanced: Mapping | None) -> PairExperiment:
    """Give the :class:`PairExperiment` of four runs' headers.

    Each new run is compared with its original (:func:`primad`); the test collection is the same
    when D is lower-case or only the training data differs (:func:`same_test_collection`).

    Parameters
    ----------
    orig_baseline, orig_advanced, new_baseline, new_advanced : Mapping or None
        The runs' headers (``None`` for a run without one).

    Returns
    -------
    PairExperiment
        What the headers say the comparison is.

    Raises
    ------
    MetadataError
        When the two sides disagree on the collection: one pair cannot be judged by both qrels.
    """
    runs = {"original baseline": orig_baseline, "original advanced": orig_advanced,
            "new baseline": new_baseline, "new advanced": new_advanced}  # fmt: skip
    absent = [name for name, header in runs.items() if header is None]
    if absent:
        return PairExperiment(reason=f"no ir_metadata header in the {', '.join(absent)} run{'s' if len(absent) > 1 else ''}")
    lacking = [f"the {name} run's lacks {', '.join(missing_components(h))}" for name, h in runs.items() if missing_components(h)]
    if lacking:
        return PairExperiment(reason=f"incomplete ir_metadata header ({'; '.join(lacking)})")
    strings, kinds, same = [], [], []
    for original, new in ((orig_baseline, new_baseline), (orig_advanced, new_advanced)):
        string = primad(original, new)
        on_same = string[-1].islower() or same_test_collection(original, new)
        strings.append(string)
        kinds.append(experiment_kind(string, same_collection=on_same))
        same.append(on_same)
    if same[0] != same[1]:
        where = {True: "the original test collection", False: "another test collection"}
        raise MetadataError(f"the ir_metadata headers disagree: the new baseline run is on {where[same[0]]}, the new "
                            f"advanced run on {where[same[1]]} (data \u2192 test collection); a pair is judged by one qrels file")
    return PairExperiment((strings[0], strings[1]), (kinds[0], kinds[1]), same[0])


# --------------------------------------------------------------------------- what differs


def _flatten(value, path: tuple) -> dict[tuple, object]:
    """Leaf path -> value; an item of a sequence of mappings is named by its ``name`` field (the
    checklists name each retrieval stage, training collection ...), else by its position."""
    if isinstance(value, Mapping) and value:
        return {key: item for k, v in value.items() for key, item in _flatten(v, (*path, k)).items()}
    if isinstance(value, (list, tuple)) and value and any(isinstance(v, (Mapping, list, tuple)) for v in value):
        names = [v.get("name") if isinstance(v, Mapping) else None for v in value]
        unique = None not in names and len(set(map(str, names))) == len(names)
        return {key: item for i, v in enumerate(value)
                for key, item in _flatten(v, (*path, names[i] if unique else i)).items()}
    return {path: value}


def differences(reference: Mapping, other: Mapping, *, component: str | None = None) -> list[tuple[str, object, object]]:
    """List every leaf field that differs between two headers (or within one ``component``).

    Parameters
    ----------
    reference : Mapping
        The header compared with.
    other : Mapping
        The header compared.
    component : str, optional
        Only the fields of this PRIMAD component.

    Returns
    -------
    list of (str, object, object)
        ``(field path joined by ' → ', value in reference, value in other)``; ``None`` where a side
        lacks it.

    Examples
    --------
    >>> differences({"method": {"retrieval": [{"name": "lr", "C": 1.5}]}}, {"method": {"retrieval": [{"name": "lr", "C": 3.0}]}})
    [('method → retrieval → lr → C', 1.5, 3.0)]
    """
    start = (component,) if component is not None else ()
    a = _flatten(reference.get(component) if component else dict(reference), start)
    b = _flatten(other.get(component) if component else dict(other), start)
    keys = list(dict.fromkeys([*a, *b]))
    return [(_field(key), a.get(key), b.get(key)) for key in keys if a.get(key) != b.get(key)]
