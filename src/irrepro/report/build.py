"""The template context of a report: the analysis laid out as tables, verdicts, figures and text.

Pure functions from :class:`~irrepro.report.analysis.ReportData` to plain data; nothing here
computes a measure. Every number cell keeps the exact value it shows (``Cell.value``, rendered as
``data-value`` in the HTML) and says what it is (``Cell.data``: statistic, run, measure, pair,
topic, cut-off), so a reader or a test can trace it back to ``irrepro compare``'s JSON.

Every number comes from one frame per pair, :meth:`PairAnalysis.frame` (``Comparison.to_frame()``
with the intervals), and is written by :mod:`irrepro.formatting` (medium ``REPORT``), as
``irrepro compare`` writes it. Significance is marked the same way in HTML and LaTeX (``Cell.mark``):
a p-value below alpha, and the new run's ARP it concerns, carry a dagger. Each level's verdict
carries the share of the report's topic resamples in which it holds and whether it is stable
(:mod:`irrepro.report.verdicts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from irrepro.formatting import REPORT, defined, format_bounds, format_number, format_pvalue
from irrepro.report import verdicts
from irrepro.report.analysis import KINDS, PairAnalysis, ReportData
from irrepro.report.formatting import full_precision, one_line, topic_ranges
from irrepro.report.inputs import InputFile
from irrepro.report.methods import ROLE_NAMES, input_notes, methods_paragraph
from irrepro.reproducibility.bootstrap import ConfidenceInterval
from irrepro.reproducibility.compare import ROLES
from irrepro.reproducibility.resampling import BORDERLINE_MARGIN, STABILITY, STABLE_SHARE

__all__ = ["STATISTIC_NAMES", "Cell", "Header", "Table", "build_context"]

STATISTIC_NAMES = {
    "KTU": "mean KTU", "RBO": "mean RBO", "RMSE": "RMSE", "nRMSE": "nRMSE", "DeltaARP": "\u0394ARP",
    "ER": "ER", "DeltaRI": "\u0394RI",
}  # fmt: skip
MARK = "\u2020"  # dagger: significant difference between original and new run


@dataclass(frozen=True)
class Cell:
    """One table cell: the text shown, the exact value behind it and what it is.

    Parameters
    ----------
    text : str
        The text shown.
    value : str, default ""
        Full precision, ``""`` when not a number.
    data : tuple of (str, str), default ()
        ``data-*`` attributes naming the number.
    mark : bool, default False
        A significant difference (p < alpha).
    kind : {"num", "text", "code", "status"}
        How the cell renders.
    detail : str, default ""
        Secondary text, e.g. an interval.
    status : str, default ""
        A verdict status (CSS class).
    numeric : bool, default False
        A number cell: ``data-value`` is written even when undefined (empty).
    """

    text: str
    value: str = ""  # full precision, "" when not a number
    data: tuple[tuple[str, str], ...] = ()  # data-* attributes naming the number
    mark: bool = False  # significant difference (p < alpha)
    kind: str = "num"  # num | text | code | status
    detail: str = ""  # secondary text, e.g. an interval
    status: str = ""  # a verdict status (CSS class)
    numeric: bool = False  # a number cell: data-value is written even when undefined (empty)


@dataclass(frozen=True)
class Header:
    """One header cell of a table.

    Parameters
    ----------
    text : str
        The text shown.
    span : int, default 1
        How many columns it spans.
    """
    text: str
    span: int = 1


@dataclass
class Table:
    """A table of the report: header rows, then (row label, cells) rows.

    Parameters
    ----------
    id : str
        The HTML id and the LaTeX label.
    caption : str
        The caption.
    header : list of list of Header
        Header rows; the first cell of each heads the row labels.
    rows : list of (Cell, list of Cell)
        The row label and the cells of each row.
    footnote : str, default ""
        Text under the table.
    latex : bool, default True
        Also written to the LaTeX file.
    """

    id: str
    caption: str
    header: list[list[Header]]
    rows: list[tuple[Cell, list[Cell]]]
    footnote: str = ""
    latex: bool = True  # also written to the LaTeX file

    @property
    def n_columns(self) -> int:
        """The number of columns, counted on the last header row."""
        return sum(h.span for h in self.header[-1])

    @property
    def align(self) -> str:
        """LaTeX column alignment: the row labels left, numbers right, text left."""
        columns = zip(*(cells for _, cells in self.rows), strict=True) if self.rows else []
        return "l" + "".join("r" if any(c.kind == "num" for c in column) else "l" for column in columns)

    @property
    def rules(self) -> list[tuple[int, int]]:
        """1-based column ranges of the grouped headers of the first row (LaTeX ``\\cmidrule``)."""
        ranges, start = [], 1
        for head in self.header[0]:
            if head.span > 1 and len(self.header) > 1:
                ranges.append((start, start + head.span - 1))
            start += head.span
        return ranges


def _number(value, *, data: Mapping[str, str], digits: int = 4, mark: bool = False, p: bool = False) -> Cell:
    text = format_pvalue(value, medium=REPORT) if p else format_number(value, digits, medium=REPORT)
    return Cell(text, full_precision(value), tuple((k, str(v)) for k, v in data.items() if v != ""), mark, numeric=True)


def _three(value) -> str:
    """A number of a figure's text alternative: three decimals."""
    return format_number(value, 3, medium=REPORT)


_DASH = Cell("\u2014", kind="na")


def _values(analysis: PairAnalysis) -> pd.Series:
    """The pair's result (:meth:`PairAnalysis.frame`) by ``(statistic, run, measure)``: what every table shows."""
    return analysis.frame().set_index(["statistic", "run", "measure"])["value"]  # not applicable (e.g. KTU of the original run with itself)


# --------------------------------------------------------------------------- summary tables


def _files_table(files: Sequence[InputFile], data: ReportData) -> Table:
    rows = []
    for file in files:
        summary = data.runs.get((file.pair, file.role))
        if summary is None:  # a qrels file
            shape = [Cell("", kind="text")] * 3
        else:
            depth = str(summary.max_depth) if summary.min_depth == summary.max_depth else f"{summary.min_depth}\u2013{summary.max_depth}"
            shape = [Cell(str(summary.n_topics)), Cell(depth), Cell(str(summary.tied_documents))]
        role = ROLE_NAMES.get(file.role, file.role)
        label = f"{file.pair}: {role}" if file.pair else role
        tag = summary.tag if summary is not None else ""
        file_cell = Cell(file.path, kind="code", detail=f"sha256 {file.sha256}", data=(("sha256", file.sha256),))
        rows.append((Cell(label, kind="text"), [file_cell, Cell(tag, kind="tag"), *shape]))
    header = [[Header("input"), Header("file and its sha256"), Header("run tag"), Header("topics"), Header("documents per topic"),
               Header(f"tied in the top {data.options.cutoff}")]]  # fmt: skip
    return Table("files", "The input files", header, rows, latex=False)


def _topics_table(data: ReportData) -> Table:
    rows = []
    replicability = data.setting == "replicability"
    groups = [("original qrels", "original", [r for r in ROLES[:2]])]
    groups += [(f"{'qrels' if replicability else 'new qrels'}, pair {p.name}", p.name, list(ROLES[2:])) for p in data.pairs]
    for label, key, roles in groups:
        report = data.coverage[key]
        missing = sorted({t for role in roles for t in report.missing.get(role, ())})
        ignored = sorted({t for role in roles for t in report.not_in_qrels.get(role, ())})
        fate = "scored 0" if data.options.missing_topics == "zero" else "left out"
        left_out = []
        if report.topics_without_relevant:
            kept = "scored 0" if data.options.no_relevant == "keep" else "left out"
            left_out.append(f"no relevant document ({kept}): {topic_ranges(report.topics_without_relevant)}")
        if ignored:
            left_out.append(f"not judged (ignored): {topic_ranges(ignored)}")
        if missing:
            left_out.append(f"missing from a run ({fate}): {topic_ranges(missing)}")
        rows.append((Cell(label, kind="text"), [
            Cell(str(len(report.evaluated_topics))), Cell(topic_ranges(report.evaluated_topics), kind="text"),
            Cell("; ".join(left_out) or "none", kind="text"),
        ]))  # fmt: skip
    header = [[Header("topics of"), Header("used"), Header("topic ids"), Header("left out or scored 0")]]
    return Table("topics", "Topics used and left out", header, rows, latex=False)


def _glance(pairs: Sequence[dict]) -> Table:
    header = [[Header("pair"), *(Header(title) for _, title in verdicts.LEVELS)]]
    rows = []
    for pair in pairs:
        cells = [Cell(f"{v['symbol']} {v['word']}", kind="status", status=v["status"], detail=_stability_text(v)) for v in pair["verdicts"]]
        rows.append((Cell(pair["name"], kind="text", data=(("anchor", pair["anchor"]),)), cells))
    return Table("glance", "Verdict per level at a glance", header, rows, latex=False)


# --------------------------------------------------------------------------- verdicts


def _interval_parts(ci) -> tuple[str, str, str]:
    if isinstance(ci, ConfidenceInterval):
        return format_bounds(ci.low, ci.high, 3, medium=REPORT), full_precision(ci.low), full_precision(ci.high)
    return "", "", ""


def _verdict_items(level: verdicts.LevelVerdict, pair: str, alpha: float) -> list[dict]:
    items = []
    for f in level.findings:
        interval, low, high = _interval_parts(f.interval)
        digits = 4
        item = {
            "label": f"{STATISTIC_NAMES[f.statistic]} {f.label}".strip(),
            "text": format_number(f.value, digits, medium=REPORT), "value": full_precision(f.value), "interval": interval, "low": low, "high": high,
            "reason": "" if f.interval is not None else (f.reason or ""),
            "data": tuple((k, v) for k, v in (("pair", pair), ("stat", f.statistic), ("run", f.run), ("measure", f.measure)) if v),
            "status": f.status, "symbol": verdicts.STATUS[f.status][0],
            "p": format_pvalue(f.p_value, medium=REPORT) if f.p_value is not None else "", "p_value": full_precision(f.p_value),
            "mark": f.p_value is not None and defined(f.p_value) and f.p_value < alpha,
            **_share(f),
        }  # fmt: skip
        items.append(item)
    return items


def _percent(share: float | None) -> str:
    return "" if share is None else f"{100 * share:.0f}%"


def _share(f: verdicts.Finding) -> dict:
    """A statistic's claim and the share of resamples in which it holds (empty without a claim)."""
    if f.claim is None or f.share is None:
        return {"claim": "", "share": "", "share_value": "", "uncertain": False, "doubt": ""}
    return {"claim": f.claim.text, "share": _percent(f.share), "share_value": full_precision(f.share), "uncertain": not f.certain,
            "doubt": f.doubt}  # fmt: skip


def _verdicts(analysis: PairAnalysis, data: ReportData) -> list[dict]:
    out = []
    for level in verdicts.pair_verdicts(analysis, data.options):
        out.append({
            "key": level.key, "title": level.title, "status": level.status, "symbol": level.symbol, "word": level.word,
            "reading": level.reading, "items": _verdict_items(level, analysis.name, data.options.alpha),
            "stability": level.stability, "share": _percent(level.share), "share_value": full_precision(level.share),
        })  # fmt: skip
    return out


def _holds_in(item: dict) -> str:
    """``p \u2265 0.05: 84%`` (the claim and the share of resamples in which it holds), and whether its interval crosses."""
    if not item["claim"]:
        return ""
    return f"{item['claim']}: {item['share']}" + (f" ({item['doubt']})" if item["uncertain"] else "")


def _stability_text(level: dict) -> str:
    """``stable, 98%``, ``borderline, 95%`` or ``fragile, 64%`` (the share of resamples in which the verdict holds); empty
    without one."""
    return f"{level['stability']}, {level['share']}" if level["stability"] else ""


def _verdict_table(verdict_list: list[dict], anchor: str, n_resamples: int, title: str) -> Table:
    """The levels' verdicts and how stable they are under topic resampling (for LaTeX; the HTML shows them in the verdicts)."""
    rows = []
    for level in verdict_list:
        share = Cell(level["share"] or "\u2014", level["share_value"], numeric=bool(level["share"]))
        rows.append((Cell(level["title"], kind="text"), [
            Cell(level["word"], kind="text"), share, Cell(level["stability"] or "\u2014", kind="text"),
        ]))  # fmt: skip
    header = [[Header("level"), Header("verdict"), Header("holds in"), Header("under resampling")]]
    footnote = (f"Holds in: the share of {n_resamples} bootstrap resamples of the topics in which every statistic of the level stays "
                f"on its side of the verdict's threshold; stable: at least {STABLE_SHARE:.0%} and no interval crossing its threshold; "
                f"borderline: no interval crossing, but within {BORDERLINE_MARGIN * 100:.0f} points (or two standard errors) "
                f"of {STABLE_SHARE:.0%}.")  # fmt: skip
    return Table(f"{anchor}-verdicts-table", _caption(title, "Verdicts under topic resampling"), header, rows, footnote)


def _interval_table(verdict_list: list[dict], anchor: str, level_pct: str, title: str) -> Table:
    """The verdicts' statistics with their intervals, one row each (for LaTeX; the HTML shows them in the verdicts)."""
    rows = []
    for level in verdict_list:
        for item in level["items"]:
            rows.append((Cell(level["title"], kind="text"), [
                Cell(item["label"], kind="text"), Cell(item["text"], item["value"], item["data"], item["mark"], numeric=True),
                Cell(item["interval"] or "undefined", kind="text"), Cell(verdicts.STATUS[item["status"]][1], kind="text"),
                Cell(_holds_in(item) or "\u2014", kind="text"),
            ]))  # fmt: skip
    header = [[Header("level"), Header("statistic"), Header("estimate"), Header(f"{level_pct} CI"), Header("verdict"), Header("holds in")]]
    footnote = "\u0394ARP: ARP of the new run minus ARP of the original run; b\u2032, a\u2032: the new baseline and advanced runs."
    return Table(f"{anchor}-intervals", _caption(title, "Estimates with bootstrap confidence intervals"), header, rows, footnote)


# --------------------------------------------------------------------------- the paper's tables


def _pair_title(number: int, name: str, n_pairs: int) -> str:
    """The prefix of a pair's captions: none when the report has one pair."""
    return "" if n_pairs == 1 else f"Pair {number} ({name}): "


def _caption(prefix: str, text: str) -> str:
    return prefix + (text[0].lower() + text[1:] if prefix else text)


def _table1(analysis: PairAnalysis, alpha: float, anchor: str, title: str) -> Table:
    """Table 1 (replicability) or Table 3 (reproducibility) of the paper: a row per run."""
    c, values = analysis.comparison, _values(analysis)
    measures, replicability = list(c.measures), c.setting == "replicability"
    groups = [Header("run"), Header("ARP", len(measures))]
    if replicability:
        groups += [Header("KTU"), Header("RBO"), Header("RMSE", len(measures)), Header("nRMSE", len(measures))]
    groups.append(Header("p-value", len(measures)))
    subs = [Header(""), *(Header(m) for m in measures)]
    if replicability:
        subs += [Header("mean"), Header("mean"), *(Header(m) for m in measures), *(Header(m) for m in measures)]
    subs += [Header(m) for m in measures]
    rows = []
    for role in ("orig_baseline", "new_baseline", "orig_advanced", "new_advanced"):
        side, kind = role.split("_")
        key = {"pair": analysis.name, "run": role}
        significant = {m: side == "new" and defined(values["p", kind, m]) and values["p", kind, m] < alpha for m in measures}
        cells = [_number(values["ARP", role, m], data={**key, "stat": "ARP", "measure": m}, mark=significant[m]) for m in measures]
        of_kind = {"pair": analysis.name, "run": kind}
        if replicability:
            if side == "orig":
                cells += [_DASH] * (2 + 2 * len(measures))
            else:
                cells += [_number(values[statistic, kind, ""], data={**of_kind, "stat": statistic}) for statistic in ("KTU", "RBO")]
                cells += [_number(values[statistic, kind, m], data={**of_kind, "stat": statistic, "measure": m})
                          for statistic in ("RMSE", "nRMSE") for m in measures]
        if side == "orig":
            cells += [_DASH] * len(measures)
        else:
            cells += [_number(values["p", kind, m], data={**of_kind, "stat": "p", "measure": m}, p=True, mark=significant[m]) for m in measures]
        rows.append((Cell(ROLE_NAMES[role], kind="text"), cells))
    test = "paired" if replicability else "unpaired"
    name = "Table 1" if replicability else "Table 3"
    caption = _caption(title, f"Original and new runs, as in {name} of Breuer et al. 2020")
    footnote = f"p-values: two-tailed {test} t-test between the original and the new run; {MARK} p < {alpha:g}."
    if replicability:
        footnote += (" KTU, RBO: means over topics; nRMSE: RMSE divided by the largest RMSE any run could have"
                     " (repro_eval; Maistro et al., IP&M 2023; not in the SIGIR 2020 paper); \u2014: the original run"
                     " compared with itself.")
    return Table(f"{anchor}-table1", caption, [groups, subs], rows, footnote)


def _effects_table(data: ReportData, level_pct: str) -> Table:
    """Table 2 of the paper, with intervals and regions: a row per (pair, measure)."""
    rows = []
    for number, analysis in enumerate(data.pairs, start=1):
        values = _values(analysis)
        for m in analysis.comparison.measures:
            key = {"pair": analysis.name, "measure": m}
            cells = [Cell(m, kind="text")]
            for statistic in ("ER", "DeltaRI"):
                ci = analysis.intervals.get((statistic, "", m))
                cells.append(_number(values[statistic, "", m], data={**key, "stat": statistic}))
                interval, low, high = _interval_parts(ci)
                cells.append(Cell(interval or "undefined", kind="text", data=tuple(
                    (k, v) for k, v in ((*key.items(), ("stat", statistic), ("low", low), ("high", high))) if v)))
            region = verdicts.region(values["ER", "", m], values["DeltaRI", "", m])
            cells.append(Cell(str(region) if region else "on an axis", kind="text"))
            rows.append((Cell(f"{number}: {analysis.name}", kind="text"), cells))
    header = [[Header("pair"), Header("measure"), Header("ER", 2), Header("\u0394RI", 2), Header("region")],
              [Header(""), Header(""), Header("value"), Header(f"{level_pct} CI"), Header("value"), Header(f"{level_pct} CI"), Header("")]]  # fmt: skip
    footnote = ("Regions of the ER-\u0394RI plane (Breuer et al. 2020): 1 effect reproduced, absolute scores not; 2 failure on "
                "both; 3 effect failed, absolute scores reproduced; 4 success on both (preferred). Perfect: ER 1, \u0394RI 0.")  # fmt: skip
    return Table("effects", "Effects of every pair: ER and \u0394RI (Table 2 of Breuer et al. 2020)", header, rows, footnote)


def _diagnostics(analysis: PairAnalysis, anchor: str, overlap_depth: int, title: str) -> list[Table]:
    tables = []
    measures = list(analysis.comparison.measures)
    for kind, frame in analysis.largest_differences.items():
        role = f"new_{kind}"
        rows = []
        for topic, row in frame.iterrows():
            key = {"pair": analysis.name, "topic": topic}
            cells = [
                _number(row["original"], data={**key, "stat": "score", "run": f"orig_{kind}", "measure": measures[0]}),
                _number(row["new"], data={**key, "stat": "score", "run": role, "measure": measures[0]}),
                *(_number(row[f"delta:{m}"], data={**key, "stat": "delta", "run": kind, "measure": m}) for m in measures),
                Cell(f"{int(row['overlap'])}/{overlap_depth}", str(int(row["overlap"])), tuple({**key, "stat": "overlap", "run": kind}.items())),
                _number(row["KTU"], data={**key, "stat": "KTU", "run": kind}, digits=3),
                _number(row["RBO"], data={**key, "stat": "RBO", "run": kind}, digits=3),
            ]
            rows.append((Cell(str(topic), kind="text"), cells))
        header = [[Header("topic"), Header(measures[0], 2), Header("new \u2212 original", len(measures)), Header(f"top {overlap_depth}"), Header("KTU"), Header("RBO")],
                  [Header(""), Header("original"), Header("new"), *(Header(m) for m in measures), Header("shared"), Header(""), Header("")]]  # fmt: skip
        caption = _caption(title, f"The {len(frame)} topics with the largest {measures[0]} differences between the {kind} runs")
        tables.append(Table(f"{anchor}-topics-{kind}", caption, header, rows, latex=False))
    return tables


def _curve_table(data: ReportData) -> Table | None:
    rows = []
    cutoffs = list(data.options.curve_cutoffs)
    for number, analysis in enumerate(data.pairs, start=1):
        if analysis.curves is None:
            return None
        for kind in KINDS:
            part = analysis.curves[analysis.curves["run"] == kind].set_index("cutoff")
            for statistic in ("KTU", "RBO", "RMSE"):
                cells = []
                for k in cutoffs:
                    key = {"pair": analysis.name, "run": kind, "stat": statistic, "cutoff": k, "measure": f"nDCG@{k}" if statistic == "RMSE" else ""}
                    cells.append(_number(part.loc[k, statistic], data=key))
                label = f"{number}: {analysis.name}, {kind}, " + ("RMSE nDCG@k" if statistic == "RMSE" else f"mean {statistic}")
                rows.append((Cell(label, kind="text"), cells))
    header = [[Header("pair, run, statistic"), *(Header(str(k)) for k in cutoffs)]]
    return Table("curves", "The numbers of the cut-off figure", header, rows, latex=False)


# --------------------------------------------------------------------------- figures


def _effect_points(data: ReportData) -> pd.DataFrame:
    """A row per (pair, measure): ER and DeltaRI with the bounds of their intervals, from each pair's frame."""
    points = []
    for number, analysis in enumerate(data.pairs, start=1):
        frame = analysis.frame()
        effects = frame[frame["level"] == "effects"].pivot(index="measure", columns="statistic", values=["value", "low", "high"])
        columns = {("value", s): s for s in ("ER", "DeltaRI")} | {(b, s): f"{s}_{b}" for b in ("low", "high") for s in ("ER", "DeltaRI")}
        effects = effects[list(columns)].set_axis(list(columns.values()), axis=1).reindex(list(analysis.comparison.measures))
        points.append(effects.rename_axis("measure").reset_index().assign(number=number, pair=one_line(analysis.name)))
    return pd.concat(points, ignore_index=True)


def _effect_figure(data: ReportData, level_pct: str) -> dict:
    from irrepro.plots.report import effect_figure
    from irrepro.report.svg import figure_svg

    points = _effect_points(data)
    described = []
    for _, p in points.iterrows():
        place = verdicts.region(p["ER"], p["DeltaRI"])
        described.append(f"{p['measure']}, pair {p['number']}: ER {_three(p['ER'])}, \u0394RI {_three(p['DeltaRI'])}"
                         + (f", region {place}" if place else ""))  # fmt: skip
    title = "ER against \u0394RI for every pair (Figure 2 of Breuer et al. 2020)"
    description = (
        f"Scatter plot, one panel per measure: Effect Ratio on the x axis, \u0394RI on the y axis, each pair a numbered "
        f"point with {level_pct} bootstrap intervals as error bars; the star marks the perfect reproduction (1, 0). "
        + "; ".join(described[:60]) + ("; more in the effects table." if len(described) > 60 else ".")
    )
    svg = figure_svg(effect_figure(points), prefix="figure-effects", title=title, description=description)
    caption = (f"ER (x) against \u0394RI (y), one panel per measure; numbers are the pairs of the effects table, bars their "
               f"{level_pct} bootstrap intervals (cut at the panel's edge), the star the perfect reproduction (1, 0).")  # fmt: skip
    return {"id": "figure-effects", "title": title, "caption": caption, "svg": svg}


def _cutoff_figure(data: ReportData) -> dict | None:
    from irrepro.plots.report import cutoff_figure
    from irrepro.report.svg import figure_svg

    if any(analysis.curves is None for analysis in data.pairs):
        return None
    curves = pd.concat(
        [analysis.curves.assign(number=number, pair=one_line(analysis.name)) for number, analysis in enumerate(data.pairs, start=1)],
        ignore_index=True,
    )
    labels = {"KTU": "mean KTU", "RBO": f"mean RBO (p = {data.options.rbo_p:g})", "RMSE": "RMSE of nDCG@k"}
    title = "Mean KTU, mean RBO and RMSE of nDCG@k against the cut-off k (Figure 1 of Breuer et al. 2020)"
    last = max(data.options.curve_cutoffs)
    at_last = curves[curves["cutoff"] == last]
    described = "; ".join(
        f"pair {r['number']} {r['run']}: KTU {_three(r['KTU'])}, RBO {_three(r['RBO'])}, RMSE {_three(r['RMSE'])}"
        for _, r in at_last.head(40).iterrows()
    )
    description = (
        f"Line charts, a row of panels per run (baseline, advanced) and a column per statistic; the x axis holds the "
        f"cut-offs {', '.join(map(str, data.options.curve_cutoffs))}, each pair one line. At cut-off {last}: {described}. "
        "Every value is in the table under the figure."
    )
    svg = figure_svg(cutoff_figure(curves, labels=labels), prefix="figure-cutoffs", title=title, description=description)
    caption = ("Mean KTU and mean RBO over topics on each topic's top k documents, and the RMSE of nDCG@k, for k = "
               f"{', '.join(map(str, data.options.curve_cutoffs))} (evenly spaced, as in the paper); a line per pair.")  # fmt: skip
    return {"id": "figure-cutoffs", "title": title, "caption": caption, "svg": svg}


# --------------------------------------------------------------------------- context


def _notes(data: ReportData, extra: Sequence[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Notes shared by every pair (shown once) and each pair's own notes."""
    per_pair = {a.name: list(dict.fromkeys(a.comparison.notes)) for a in data.pairs}
    common = [n for n in per_pair[data.pairs[0].name] if all(n in notes for notes in per_pair.values())]
    own = {name: [n for n in notes if n not in common] for name, notes in per_pair.items()}
    shared = list(dict.fromkeys([*input_notes(data), *common, *extra]))  # a warning may repeat a note
    return shared, own


def _overview(pairs: Sequence[dict]) -> list[dict]:
    """Per level: how many pairs got each status (the first screen's headline)."""
    out = []
    for index, (key, title) in enumerate(verdicts.LEVELS):
        counts: dict[str, int] = {}
        for pair in pairs:
            status = pair["verdicts"][index]["status"]
            counts[status] = counts.get(status, 0) + 1
        parts = [
            {"status": s, "symbol": verdicts.STATUS[s][0], "word": verdicts.STATUS[s][1], "count": n}
            for s, n in sorted(counts.items(), key=lambda item: list(verdicts.STATUS).index(item[0]))
        ]
        settled = [pair["verdicts"][index] for pair in pairs if pair["verdicts"][index]["stability"]]
        stability = [{"stability": word, "count": sum(v["stability"] == word for v in settled),
                      "share": settled[0]["share"] if len(settled) == 1 else ""} for word in STABILITY]  # fmt: skip
        out.append({"key": key, "title": title, "statistics": verdicts.LEVEL_STATISTICS[key], "parts": parts,
                    "stability": [part for part in stability if part["count"]]})  # fmt: skip
    return out


def build_context(data: ReportData, files: Sequence[InputFile], *, title: str, command: str,
                  versions: Mapping[str, str], extra_notes: Sequence[str] = ()) -> dict:  # fmt: skip
    """Gather everything the templates show, as plain data (see the module docstring).

    Parameters
    ----------
    data : ReportData
        The report's numbers.
    files : sequence of InputFile
        The inputs, as the report lists them.
    title : str
        The report's title.
    command : str
        The command line that made it.
    versions : mapping of str -> str
        Package -> version, for the methods section.
    extra_notes : sequence of str, default ()
        Further notes to show.

    Returns
    -------
    dict
        The templates' context.
    """
    o = data.options
    level_pct = f"{100 * o.level:g}%"
    shared_notes, own_notes = _notes(data, extra_notes)
    pairs = []
    for number, analysis in enumerate(data.pairs, start=1):
        anchor, of_pair = f"pair-{number}", _pair_title(number, analysis.name, len(data.pairs))
        verdict_list = _verdicts(analysis, data)
        pairs.append({
            "number": number, "name": analysis.name, "anchor": anchor, "verdicts": verdict_list,
            "verdict_table": _verdict_table(verdict_list, anchor, o.n_resamples, of_pair),
            "table1": _table1(analysis, o.alpha, anchor, of_pair), "intervals": _interval_table(verdict_list, anchor, level_pct, of_pair),
            "diagnostics": _diagnostics(analysis, anchor, o.overlap_depth, of_pair), "notes": own_notes[analysis.name],
        })  # fmt: skip
    effects = _effects_table(data, level_pct)
    figures = [f for f in (_cutoff_figure(data), _effect_figure(data, level_pct)) if f is not None]
    latex_tables = [t for pair in pairs for t in (pair["verdict_table"], pair["table1"], pair["intervals"])] + [effects]
    return {
        "title": title, "setting": data.setting, "replicability": data.setting == "replicability",
        "options": o, "level_pct": level_pct, "alpha": f"{o.alpha:g}", "mark": MARK, "stable_share": f"{STABLE_SHARE:.0%}",
        "borderline_margin": f"{BORDERLINE_MARGIN * 100:.0f}",
        "files": _files_table(files, data), "topics": _topics_table(data), "glance": _glance(pairs),
        "overview": _overview(pairs), "pairs": pairs, "effects": effects, "curves": _curve_table(data),
        "figures": {f["id"]: f for f in figures}, "notes": shared_notes,
        "n_notes": len(shared_notes) + sum(len(p["notes"]) for p in pairs),
        "methods": methods_paragraph(data, versions), "command": command, "versions": dict(versions),
        "latex_tables": latex_tables,
    }  # fmt: skip
