"""The chapter's routing runs as TREC files that describe themselves, and what their headers say.

Every run file the book writes (the own report's runs, ``irrepro reproduce clef2019 --out``'s
``runs/``) begins with its ir_metadata header (:func:`irrepro.routing.headers.run_header`), as the
runs of ``irrepro routing run`` do. :func:`runs_by_primad` then reads a folder of them back and
groups them by PRIMAD string against one run, as ``irrepro metadata group`` and repro_eval's
``MetadataAnalyzer`` do, with the fields their headers say differ: the chapter's table of its own
dataset is made from the files, not from a list of what the runs were meant to be.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from irrepro.metadata import COMPONENTS, differences, experiment_kind, group_by_primad, same_test_collection
from irrepro.routing.experiment import RunCache, RunRequest
from irrepro.routing.headers import run_header
from irrepro.runs import read_metadata, write_run

__all__ = ["write_run_file", "runs_by_primad", "changed_fields"]


def write_run_file(data: RunCache, request: RunRequest, path: Path, *, tag: str) -> None:
    """Write the run of ``request`` (made by ``data`` if not made yet) to ``path``, with its ir_metadata header.

    Parameters
    ----------
    data : RunCache
        The run cache that makes and keeps the run.
    request : RunRequest
        The run.
    path : pathlib.Path
        The file to write.
    tag : str
        The run tag.
    """
    result = data.result(request)
    write_run(result.run, path, name=tag, metadata=run_header(request.settings, result, tag=tag))


def changed_fields(reference, other) -> list[str]:
    """List the PRIMAD components' fields that differ between two headers (the tag left out).

    The leaf fields of method, implementation, research goal and actor; for data and platform the
    item (a collection, a library list), whose several leaves would say one thing.

    Parameters
    ----------
    reference, other : Mapping
        The two headers.

    Returns
    -------
    list of str
        The fields' paths.
    """
    fields = []
    for component in COMPONENTS:
        for path, _, _ in differences(reference, other, component=component):
            parts = path.split(" \u2192 ")
            fields.append(" \u2192 ".join(parts[:3]) if component in ("data", "platform") else path)
    return list(dict.fromkeys(fields))


def runs_by_primad(folder: str | Path, reference: str | Path) -> pd.DataFrame:
    """Group the ``*.run`` files of ``folder`` (``reference`` left out) by PRIMAD string against ``reference``.

    Parameters
    ----------
    folder : str or pathlib.Path
        The folder of run files.
    reference : str or pathlib.Path
        The run the others are compared with.

    Returns
    -------
    pandas.DataFrame
        One row per group with ``PRIMAD``, ``kind`` (:func:`irrepro.metadata.experiment_kind`),
        ``runs`` (how many), ``fields that differ`` (from the headers; the union over the group) and
        ``example`` (the first file's name); the groups that change fewest components first.
    """
    reference = Path(reference)
    ref_header = read_metadata(reference)
    headers = {path.name: read_metadata(path) for path in sorted(Path(folder).glob("*.run"))
               if path.resolve() != reference.resolve()}  # fmt: skip
    rows = []
    for string, names in group_by_primad(ref_header, headers).items():
        fields = dict.fromkeys(field for name in names for field in changed_fields(ref_header, headers[name]))
        kinds = sorted({experiment_kind(string, same_collection=same_test_collection(ref_header, headers[name]) or None).name
                        for name in names}) if string.lower() == "primad" else []  # fmt: skip
        rows.append({"PRIMAD": string, "kind": ", ".join(kinds), "runs": len(names),
                     "fields that differ": "; ".join(fields), "example": names[0]})  # fmt: skip
    rows.sort(key=lambda row: (sum(letter.isupper() for letter in row["PRIMAD"]), row["PRIMAD"]))  # fewest changes first
    return pd.DataFrame(rows, columns=["PRIMAD", "kind", "runs", "fields that differ", "example"])
