"""How closely the book reproduces each table and figure of the three papers: the fidelity protocol.

Every paper module has a function ``fidelity()`` returning one :class:`FidelityRow` per table and
figure of its paper, per result the paper states only in its text (when a chapter computes it) and
per fact from outside the paper that a chapter holds a reproduced number against (NIST's official
scores). A row names the data the book used and counts the **compared values**: printed numbers
(table cells, and the values the text states about a table or figure) set beside reproduced ones,
and how many match within the row's stated tolerance. Its verdict is not written by hand but follows
from those counts (:func:`verdict`):

- **reproduced**: values were compared, all match, and they are every value the item prints;
- **partly**: some compared values match (or all do, but the item prints more than was compared);
- **not reproduced**: no compared value matches, or nothing could be computed on the paper's data;
- **computed on the paper's data, not compared**: the paper prints no value for it that could be
  compared here (its own verdict, so that "reproduced" never means "computed").

So "reproduced" with no compared value cannot be built. Every row not reproduced says what
reproducing it would take and whether that is within reach (:data:`REACH`). :func:`fidelity_table`
collects the rows of all papers; :func:`fidelity_counts` counts them by :data:`KINDS` (the papers'
tables and figures apart from the text's statements and from facts outside the papers);
:func:`fidelity_sentence`, :func:`for_page` and :func:`unreproduced_table` are what the intro shows.
A module's ``fidelity()`` must be cheap: no routing run, no model fit.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass, field

import pandas as pd

from irrepro.papers import PAPERS

__all__ = [
    "REPRODUCED",
    "NOT_COMPARED",
    "KINDS",
    "REACH",
    "FidelityRow",
    "verdict",
    "fidelity_table",
    "fidelity_counts",
    "fidelity_sentence",
    "for_page",
    "unreproduced_table",
]

NOT_COMPARED = "computed on the paper's data, not compared"
#: The verdicts, from the best; derived from the compared values by :func:`verdict`.
REPRODUCED: tuple[str, ...] = ("reproduced", "partly", "not reproduced", NOT_COMPARED)
#: What a row is: a table or figure of the paper, a result its text states, or a fact from outside it.
KINDS: tuple[str, ...] = ("table or figure", "text", "not of the paper")
#: What reproducing an item (better) would take, by how far it is from reach.
REACH: dict[str, str] = {
    "published, not transcribed": "the printed values are in the paper's PDF but not in the project's text copies",
    "licensed": "the data it needs is licensed (the TREC document collections or submitted runs)",
    "not published": "what it needs was never published (runs, counts or numbers)",
    "nothing missing": "every printed value is compared; a miss is the print's own error",
}


def verdict(cells: int | None, matched: int | None, *, complete: bool | None, papers_data: bool) -> str:
    """Give the verdict of a row from its compared values (one of :data:`REPRODUCED`).

    Parameters
    ----------
    cells : int or None
        Printed values compared (None: none).
    matched : int or None
        Of them, how many match.
    complete : bool or None
        They are every value the item prints.
    papers_data : bool
        Computed on the paper's own data.

    Returns
    -------
    str
        The verdict.

    Examples
    --------
    >>> verdict(366, 365, complete=True, papers_data=True), verdict(6, 6, complete=False, papers_data=True)
    ('partly', 'partly')
    >>> verdict(None, None, complete=None, papers_data=True), verdict(2, 0, complete=True, papers_data=False)
    ("computed on the paper's data, not compared", 'not reproduced')
    """
    if cells is None:
        return NOT_COMPARED if papers_data else "not reproduced"
    if matched == 0:
        return "not reproduced"
    return "reproduced" if matched == cells and complete else "partly"


@dataclass(frozen=True)
class FidelityRow:
    """One table, figure or stated result of a paper, the values compared and the verdict they give.

    Parameters
    ----------
    paper : str
        The paper's key.
    item : str
        As the paper names it: "Table 1", "Figure 3", "appendix Table 2", "Section 4.2 (text): ...".
    shows : str
        What the item shows, briefly.
    data : str
        The data the book used for it.
    papers_data : bool
        The paper's own data (its collection's runs, the authors' published per-topic scores).
    kind : str, default KINDS[0]
        One of :data:`KINDS`.
    cells : int, optional
        Printed values compared with reproduced ones (None: none).
    matched : int, optional
        Of those, how many match (computed by the build).
    complete : bool, optional
        The compared values are every value the item prints (with cells).
    tolerance : str, default ""
        How a reproduced value matches its print (with cells).
    why_not : str, default ""
        Why no printed value is compared (without cells).
    needs : str, default ""
        What reproducing it would take (every row not reproduced).
    reach : str, default ""
        How far that is, one of :data:`REACH` (every row not reproduced).
    chapter : str, default ""
        The chapter showing it.
    note : str, default ""
        A note of its own.

    Attributes
    ----------
    reproduced : str
        The verdict, from the compared values (:func:`verdict`).
    """

    paper: str
    item: str  # as the paper names it: "Table 1", "Figure 3", "appendix Table 2", "Section 4.2 (text): ..."
    shows: str  # what the item shows, briefly
    data: str  # the data the book used for it
    papers_data: bool  # the paper's own data (its collection's runs, the authors' published per-topic scores)
    kind: str = KINDS[0]  # one of KINDS
    cells: int | None = None  # printed values compared with reproduced ones (None: none)
    matched: int | None = None  # of those, how many match (computed by the build)
    complete: bool | None = None  # the compared values are every value the item prints (with cells)
    tolerance: str = ""  # how a reproduced value matches its print (with cells)
    why_not: str = ""  # why no printed value is compared (without cells)
    needs: str = ""  # what reproducing it would take (every row not reproduced)
    reach: str = ""  # how far that is, one of REACH (every row not reproduced)
    chapter: str = ""  # the chapter showing it
    note: str = ""
    reproduced: str = field(init=False)  # the verdict, from the compared values

    def __post_init__(self):
        where = f"{self.paper} {self.item}"
        if self.paper not in PAPERS:
            raise ValueError(f"{where}: unknown paper; known: {', '.join(PAPERS)}")
        if self.kind not in KINDS:
            raise ValueError(f"{where}: kind={self.kind!r}, expected one of {', '.join(KINDS)}")
        self._check_counts(where)
        reproduced = verdict(self.cells, self.matched, complete=self.complete, papers_data=self.papers_data)
        object.__setattr__(self, "reproduced", reproduced)
        if reproduced != "reproduced" and not (self.needs.strip() and self.reach):
            raise ValueError(f"{where}: {reproduced}; say what reproducing it would take (needs, reach)")
        if self.reach and self.reach not in REACH:
            raise ValueError(f"{where}: reach={self.reach!r}, expected one of {', '.join(REACH)}")

    def _check_counts(self, where: str) -> None:
        if (self.cells is None) != (self.matched is None):
            raise ValueError(f"{where}: give both cells and matched, or neither")
        if self.cells is None:
            if not self.why_not.strip():
                raise ValueError(f"{where}: no printed value is compared; say why (why_not)")
            return
        if self.cells < 1:
            raise ValueError(f"{where}: cells={self.cells}; with no compared value give cells=None and why_not")
        if not 0 <= self.matched <= self.cells:
            raise ValueError(f"{where}: matched={self.matched} is not between 0 and cells={self.cells}")
        if self.complete is None or not self.tolerance.strip():
            raise ValueError(f"{where}: compared values need complete (True/False) and the tolerance")


def _rows_as_table(rows: list[FidelityRow]) -> pd.DataFrame:
    table = pd.DataFrame([asdict(row) for row in rows], columns=list(FidelityRow.__dataclass_fields__))
    return table.astype({"cells": "Int64", "matched": "Int64", "complete": "boolean", "papers_data": bool})


def fidelity_table(papers: tuple[str, ...] | None = None) -> pd.DataFrame:
    """Gather the fidelity rows of ``papers``.

    Parameters
    ----------
    papers : tuple of str, optional
        Keys of :data:`irrepro.papers.PAPERS`; default: all, in that order.

    Returns
    -------
    pandas.DataFrame
        One row per :class:`FidelityRow`.

    Raises
    ------
    ValueError
        For an unknown paper, or a paper's rows naming another paper.
    """
    papers = tuple(PAPERS) if papers is None else papers
    unknown = [paper for paper in papers if paper not in PAPERS]
    if unknown:
        raise ValueError(f"unknown paper(s) {', '.join(unknown)}; known: {', '.join(PAPERS)}")
    rows: list[FidelityRow] = []
    for paper in papers:
        module = importlib.import_module(f"irrepro.papers.{paper}")  # the paper modules import this one
        for row in module.fidelity():
            if row.paper != paper:
                raise ValueError(f"irrepro.papers.{paper}.fidelity() returned a row of {row.paper!r}")
            rows.append(row)
    return _rows_as_table(rows)


def _keys(texts, alphabet: str) -> dict[str, str]:
    """A footnote key per distinct text, in order of first use."""
    return {text: alphabet[i] if i < len(alphabet) else str(i + 1) for i, text in enumerate(dict.fromkeys(texts))}


def _matching(row: pd.Series, tolerance_key: str, reason_key: str) -> str:
    """``"365 of 366 printed (A)"``, ``"6 of 6 stated in the text (B)"`` or ``"none compared (1)"``."""
    if pd.isna(row["cells"]):
        return f"none compared ({reason_key})"
    what = "printed" if row["complete"] else "stated in the text"
    return f"{row['matched']} of {row['cells']} {what} ({tolerance_key})"


def for_page(table: pd.DataFrame, paper: str, *, item_notes: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """Lay out the rows of ``paper`` in ``table`` as the intro prints them.

    The data, the tolerances and the reasons why no value is compared repeat across items, so the
    frame names them by a letter (data), a capital (tolerance) and a number (reason) that the notes
    spell out, as a journal's table footnotes do. ``values matching`` reads "365 of 366 printed (A)":
    of the printed values compared, how many match within tolerance A; "6 of 6 stated in the text
    (B)" when only the values the paper's text states could be compared; "none compared (1)".

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`fidelity_table`'s rows.
    paper : str
        The paper's key.
    item_notes : bool, default False
        Add each row's own note.

    Returns
    -------
    frame : pandas.DataFrame
        Index ``item``; columns ``what it shows``, ``data used``, ``reproduced``, ``values matching``.
    notes : list of str
        The notes to print under it.

    Raises
    ------
    ValueError
        If ``table`` has no row of ``paper``.
    """
    rows = table[table["paper"] == paper]
    if rows.empty:
        raise ValueError(f"no fidelity rows of paper {paper!r}; papers: {', '.join(table['paper'].unique())}")
    data_keys = _keys(rows["data"], "abcdefghijklmnopqrstuvwxyz")
    compared_rows = rows["cells"].notna()
    tolerance_keys = _keys(rows.loc[compared_rows, "tolerance"], "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    reason_keys = _keys(rows.loc[~compared_rows, "why_not"], "123456789")
    frame = pd.DataFrame({
        "item": rows["item"].to_numpy(),
        "what it shows": rows["shows"].to_numpy(),
        "data used": rows["data"].map(data_keys).to_numpy(),  # not "data": show() would take it for the caption
        "reproduced": rows["reproduced"].to_numpy(),
        "values matching": [_matching(row, tolerance_keys.get(row["tolerance"], ""),
                                      reason_keys.get(row["why_not"], "")) for _, row in rows.iterrows()],
    }).set_index("item")  # fmt: skip
    notes = [f"Data ({key}): {text}." for text, key in data_keys.items()]
    notes += [f"Tolerance ({key}): {text}." for text, key in tolerance_keys.items()]
    notes += [f"Not compared ({key}): {text}." for text, key in reason_keys.items()]
    if item_notes:
        notes += [f"{item}: {note}." for item, note in zip(rows["item"], rows["note"], strict=True) if note]
    return frame, notes


def fidelity_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Count rows per kind (:data:`KINDS`) and verdict, and the compared values and matches of each kind.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`fidelity_table`'s rows.

    Returns
    -------
    pandas.DataFrame
        Index: the kinds; columns ``items``, one per verdict of :data:`REPRODUCED`, ``compared
        items``, ``values`` (compared) and ``matched``, all integers.

    Raises
    ------
    ValueError
        For an unknown kind.
    """
    unknown = set(table["kind"]) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown kind(s) {', '.join(sorted(unknown))}; expected {', '.join(KINDS)}")
    counts = {}
    for kind in KINDS:
        part = table[table["kind"] == kind]
        counts[kind] = {
            "items": len(part),
            **{value: int((part["reproduced"] == value).sum()) for value in REPRODUCED},
            "compared items": int(part["cells"].notna().sum()),
            "values": int(part["cells"].sum()),
            "matched": int(part["matched"].sum()),
        }
    frame = pd.DataFrame.from_dict(counts, orient="index")
    frame.index.name = "kind"
    return frame


_IN_PROSE = {"partly": "partly reproduced", NOT_COMPARED: "computed on the paper's data but not compared"}


def _verdict_counts(row: pd.Series) -> str:
    """``"3 reproduced, 5 partly reproduced and 2 not reproduced"``: the verdicts of one kind, in prose."""
    parts = [f"{row[value]} {_IN_PROSE.get(value, value)}" for value in REPRODUCED if row[value]]
    if not parts:
        return "none"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def fidelity_sentence(counts: pd.DataFrame) -> str:
    """Write the intro's summary of :func:`fidelity_counts`: the papers' tables and figures, then the rest apart.

    Parameters
    ----------
    counts : pandas.DataFrame
        :func:`fidelity_counts`' table.

    Returns
    -------
    str
        The sentence.
    """
    tables, text, outside = (counts.loc[kind] for kind in KINDS)
    sentence = (
        f"Of the {tables['items']} rows for the papers' tables and figures: {_verdict_counts(tables)}. Printed "
        f"values are compared for {tables['compared items']} of them, and {tables['matched']} of their "
        f"{tables['values']} compared values match, each within its stated tolerance."
    )
    apart = []
    if text["items"]:
        apart.append(f"{text['items']} results the papers state only in their text ({_verdict_counts(text)}; "
                     f"{text['matched']} of {text['values']} stated values match)")  # fmt: skip
    if outside["items"]:
        apart.append(f"{outside['items']} comparison with facts from outside the papers ({outside['matched']} of "
                     f"{outside['values']} values match)")  # fmt: skip
    return sentence + (f" Counted apart: {' and '.join(apart)}." if apart else "")


def unreproduced_table(table: pd.DataFrame) -> pd.DataFrame:
    """List what is left unreproduced, and why: every row not reproduced, grouped by what it would take.

    A row's own verdict is in its paper's fidelity table.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`fidelity_table`'s rows.

    Returns
    -------
    pandas.DataFrame
        One row per distinct (``reach``, ``it would take``), in the order of :data:`REACH`, with
        ``items``: the rows that need it, by paper ("Breuer et al., SIGIR 2020: Table 1, Table 2;
        ...") and ``count``.

    Raises
    ------
    ValueError
        For an unknown reach.
    """
    rows = table[table["reproduced"] != "reproduced"]
    unknown = set(rows["reach"]) - set(REACH)
    if unknown:
        raise ValueError(f"unknown reach {', '.join(sorted(unknown))}; expected one of {', '.join(REACH)}")
    groups = []
    for (reach, needs), part in rows.groupby(["reach", "needs"], sort=False):
        by_paper = part.groupby("paper", sort=False)["item"].agg(", ".join)
        items = "; ".join(f"{PAPERS[paper].short}: {names}" for paper, names in by_paper.items())
        groups.append({"reach": reach, "it would take": needs, "items": items, "count": len(part)})
    frame = pd.DataFrame(groups, columns=["reach", "it would take", "items", "count"])
    order = frame["reach"].map(list(REACH).index)
    return frame.iloc[order.argsort(kind="stable")].set_index("reach")
