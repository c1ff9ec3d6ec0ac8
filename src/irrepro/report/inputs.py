"""The report's own input files: the pairs CSV, and the digests that identify every input.

``PAIRS.csv`` lists reproduced pairs, one per line, with a header naming the columns
``name,baseline,advanced`` (other columns are ignored)::

    name,baseline,advanced
    tf_1,runs/rpl_wcr04_tf_1,runs/rpl_wcr0405_tf_1

Relative paths are relative to the CSV file's folder. The file is UTF-8 text (a byte-order mark,
as Excel's "CSV UTF-8" writes, is allowed). Errors name the file and the line.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "pairs.csv").write_text("name,baseline,advanced\\nA,b.run,a.run\\n")
>>> [(p.name, p.baseline.name, p.advanced.name) for p in read_pairs(folder / "pairs.csv")]
[('A', 'b.run', 'a.run')]
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

__all__ = ["InputFile", "Pair", "read_pairs", "sha256"]

PAIR_COLUMNS = ("name", "baseline", "advanced")


@dataclass(frozen=True)
class Pair:
    """A reproduced pair: its name and the new baseline and advanced run files.

    Parameters
    ----------
    name : str
        The pair's name.
    baseline, advanced : pathlib.Path
        The new baseline and advanced run files.
    """

    name: str
    baseline: Path
    advanced: Path


@dataclass(frozen=True)
class InputFile:
    """An input as the report lists it: what it is, where it was read and its sha256.

    Parameters
    ----------
    role : str
        ``"qrels"``, ``"new qrels"``, ``"original baseline"``, ..., ``"new baseline"``.
    pair : str
        The pair's name, ``""`` for the qrels and the original runs.
    path : str
        Where it was read.
    sha256 : str
        The hex digest of its bytes.
    """

    role: str  # "qrels", "new qrels", "original baseline", ..., "new baseline"
    pair: str  # the pair's name, "" for the qrels and the original runs
    path: str
    sha256: str


def sha256(path: str | Path, *, chunk: int = 1 << 20) -> str:
    """Digest a file's bytes.

    Parameters
    ----------
    path : str or pathlib.Path
        The file.
    chunk : int, default 1 << 20
        How many bytes are read at a time.

    Returns
    -------
    str
        The hex sha256 digest.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(chunk), b""):
            digest.update(block)
    return digest.hexdigest()


def read_pairs(path: str | Path) -> list[Pair]:
    """Read the pairs of a CSV file (see the module docstring).

    Parameters
    ----------
    path : str or pathlib.Path
        The CSV file, header ``name,baseline,advanced``.

    Returns
    -------
    list of Pair
        The pairs, in file order.

    Raises
    ------
    ValueError
        Naming the file and line: not UTF-8, empty, a missing column or cell, a name used twice, or
        no pair.
    """
    path = Path(path)
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Excel's "CSV UTF-8") is not part of the header
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ValueError(f"{path}, line {line}: not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8 (CSV UTF-8)") from None
    with io.StringIO(text, newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None:
            raise ValueError(f"{path}: empty file; expected a header line 'name,baseline,advanced'")
        header = [column.strip() for column in header]
        missing = [column for column in PAIR_COLUMNS if column not in header]
        if missing:
            raise ValueError(f"{path}, line 1: missing column(s) {', '.join(missing)}; the header must name {','.join(PAIR_COLUMNS)}")
        index = {column: header.index(column) for column in PAIR_COLUMNS}
        pairs, lines = [], {}
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue  # blank line
            cells = {column: (row[i].strip() if i < len(row) else "") for column, i in index.items()}
            empty = [column for column, value in cells.items() if not value]
            if empty:
                raise ValueError(f"{path}, line {line}: empty {', '.join(empty)}")
            if cells["name"] in lines:
                raise ValueError(f"{path}, line {line}: pair name {cells['name']!r} already used on line {lines[cells['name']]}")
            lines[cells["name"]] = line
            pairs.append(Pair(cells["name"], path.parent / cells["baseline"], path.parent / cells["advanced"]))
    if not pairs:
        raise ValueError(f"{path}: no pair listed under the header")
    return pairs
