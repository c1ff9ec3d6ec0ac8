"""``irrepro report`` end to end: its numbers are ``irrepro compare``'s, its notes say what happened,
its errors are one line, and the same inputs give the same bytes."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys

import pytest

from irrepro.cli import main
from irrepro.formatting import REPORT, format_number, format_pvalue
from irrepro.report.methods import ROLE_NAMES
from irrepro.report.render import tex_escape
from tests.report.files import number_cells as _cells
from tests.report.files import report_args

MEASURES = ("AP", "P@10", "nDCG")
CUTOFFS = (5, 10, 20, 50, 100, 1000)


def fmt(value) -> str:
    """A score as the report's LaTeX writes it (irrepro.formatting, then escaped for TeX)."""
    return tex_escape(format_number(value, 4, medium=REPORT))


def fmt_p(value) -> str:
    return tex_escape(format_pvalue(value, medium=REPORT))


def _compare_json(files, capsys, new=("new_baseline", "new_advanced"), extra=()) -> dict:
    args = ["compare", "--qrels", str(files["qrels"]), "--orig-baseline", str(files["orig_baseline"]),
            "--orig-advanced", str(files["orig_advanced"]), "--new-baseline", str(files[new[0]]),
            "--new-advanced", str(files[new[1]]), "--format", "json", *extra]  # fmt: skip
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def _expected(cell: dict, compare: dict, curves: dict) -> float | None:
    """The number of compare's JSON a report cell stands for (None: undefined)."""
    stat, run, measure = cell["stat"], cell.get("run"), cell.get("measure")
    if "cutoff" in cell:
        at = curves[int(cell["cutoff"])]
        return at["RMSE"][run][measure] if stat == "RMSE" else at[stat][run]["mean"]
    if stat == "ARP":
        return compare["ARP"][run][measure]
    if stat in ("KTU", "RBO"):
        return compare[stat][run]["per_topic"][cell["topic"]] if "topic" in cell else compare[stat][run]["mean"]
    if stat in ("RMSE", "nRMSE"):
        return compare[stat][run][measure]
    if stat == "p":
        return compare["p_value"][run][measure]
    if stat in ("ER", "DeltaRI"):
        return compare[stat][measure]
    if stat == "DeltaARP":
        return compare["ARP"][f"new_{run}"][measure] - compare["ARP"][f"orig_{run}"][measure]
    raise AssertionError(f"unexpected cell {cell}")


def _check_numbers(html: str, by_pair: dict[str, tuple[dict, dict]]) -> int:
    checked = 0
    for cell in _cells(html):
        if "value" not in cell or cell["stat"] in ("score", "delta", "overlap"):
            continue  # per-topic scores: not in compare's JSON (checked in tests/report/test_analysis.py)
        compare, curves = by_pair[cell["pair"]]
        expected = _expected(cell, compare, curves)
        assert (float(cell["value"]) if cell["value"] else None) == expected, cell
        checked += 1
    return checked


def test_html_and_latex_numbers_are_compares(files, tmp_path, capsys):
    out, tex = tmp_path / "report.html", tmp_path / "tables.tex"
    assert main(report_args(files, out, extra=["--latex", str(tex)])) == 0
    compare = _compare_json(files, capsys)
    curves = {k: _compare_json(files, capsys, extra=["--cutoff", str(k), "--measures", f"nDCG@{k}"]) for k in CUTOFFS}
    html = out.read_text()
    # 12 ARP + 2x2 KTU/RBO + 6 RMSE + 6 nRMSE + 6 p (Table 1), 2x(4+6+6+6) verdicts (+6 p), 6 effects, 36 curve points,
    # 40 per-topic KTU/RBO
    assert _check_numbers(html, {"replication": (compare, curves)}) >= 12 + 4 + 6 + 6 + 6 + 22 + 6 + 6 + 36
    nrmse_cells = [c for c in _cells(html) if c["stat"] == "nRMSE"]
    assert {(c["run"], c["measure"]) for c in nrmse_cells} == {(k, m) for k in ("baseline", "advanced") for m in MEASURES}
    assert "normalised RMSE" in html and "Maistro et al., IP&amp;M 2023" in html
    latex = tex.read_text().splitlines()
    for role in ("orig_baseline", "new_baseline", "orig_advanced", "new_advanced"):
        kind = role.split("_")[1]
        expected = [fmt(compare["ARP"][role][m]) for m in MEASURES]
        if role.startswith("new"):
            expected += [fmt(compare["KTU"][kind]["mean"]), fmt(compare["RBO"][kind]["mean"])]
            expected += [fmt(compare["RMSE"][kind][m]) for m in MEASURES]
            expected += [fmt(compare["nRMSE"][kind][m]) for m in MEASURES]  # beside RMSE
            expected += [fmt_p(compare["p_value"][kind][m]) for m in MEASURES]
        significant = [role.startswith("new") and compare["p_value"][kind][m] < 0.05 for m in MEASURES]
        rows = [line for line in latex if line.startswith(tex_escape(ROLE_NAMES[role]) + " & ")]
        assert len(rows) == 1, role  # Table 1 of the one pair
        shown = [c.strip() for c in rows[0].removesuffix("\\\\").split(" & ")[1:] if c.strip() != "---"]
        assert [c.replace("$^\\dagger$", "") for c in shown] == expected, role
        # the dagger marks the new run's ARP and its p-value, as in the HTML
        marks = ["dagger" in c for c in shown]
        assert marks[: len(MEASURES)] == significant and (not role.startswith("new") or marks[-len(MEASURES):] == significant)
    for m in MEASURES:
        assert any(line.startswith(f"1: replication & {tex_escape(m)} & {fmt(compare['ER'][m])} & ") for line in latex), m


def test_several_pairs_and_significance_marks(files, tmp_path, capsys):
    out, tex = tmp_path / "pairs.html", tmp_path / "pairs.tex"
    assert main(report_args(files, out, pairs=True, extra=["--latex", str(tex)])) == 0
    good = _compare_json(files, capsys)
    bad = _compare_json(files, capsys, new=("new_baseline", "bad_advanced"))
    curves_good = {k: _compare_json(files, capsys, extra=["--cutoff", str(k), "--measures", f"nDCG@{k}"]) for k in CUTOFFS}
    curves_bad = {k: _compare_json(files, capsys, new=("new_baseline", "bad_advanced"), extra=["--cutoff", str(k), "--measures", f"nDCG@{k}"]) for k in CUTOFFS}
    html = out.read_text()
    assert _check_numbers(html, {"good": (good, curves_good), "bad": (bad, curves_bad)}) > 200
    # the bad pair's advanced run differs significantly: its p-values and ARPs carry the mark, in HTML and LaTeX
    significant = [m for m in MEASURES if bad["p_value"]["advanced"][m] < 0.05]
    assert significant, "the fixture should make the bad pair's advanced run significantly worse"
    marked = {(c["stat"], c["measure"]) for c in _cells(html) if c.get("pair") == "bad" and c.get("run") in ("advanced", "new_advanced") and "\u2020" in c["text"]}
    assert {("p", m) for m in significant} | {("ARP", m) for m in significant} <= marked
    assert all("\u2020" not in c["text"] for c in _cells(html) if c.get("pair") == "good" and c["stat"] == "p" and good["p_value"][c["run"]][c["measure"]] >= 0.05)
    assert tex.read_text().count("$^\\dagger$") >= 2 * len(significant) * 2  # Table 1 (ARP, p) and the interval table


def test_reproducibility_leaves_out_rankings(files, tmp_path, capsys):
    out = tmp_path / "rpd.html"
    assert main(report_args(files, out, reproducibility=True)) == 0
    compare = _compare_json(files, capsys, new=("rpd_baseline", "rpd_advanced"), extra=["--new-qrels", str(files["new_qrels"])])
    html = out.read_text()
    cells = _cells(html)
    assert not any(c["stat"] in ("KTU", "RBO", "RMSE", "nRMSE") for c in cells)
    assert _check_numbers(html, {"reproduction": (compare, {})}) >= 12 + 6 + 6
    assert "unpaired" in html and "not applicable" in html and 'id="figure-cutoffs"' not in html


def test_notes_for_missing_topics_ties_and_unequal_depths(awkward, tmp_path, capsys):
    out = tmp_path / "awkward.html"
    assert main(report_args(awkward, out)) == 0
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text()))
    assert "2 judged topic(s) missing from the run scored 0 (trec_eval -c): 302, 303" in text
    assert "top-1000 lists of different lengths on 15 topic(s)" in text
    assert "Tied scores among the top 1000 documents" in text
    assert "1 qrels topic(s) without a relevant document left out" in text
    assert re.search(r"different numbers of documents per topic \(original baseline \(b\) 100, .*new baseline \(b′\) 50", text)
    assert "missing from a run (scored 0): 302-303" in text  # the topics table
    assert "no relevant document (left out): 399" in text and "without a relevant document were left out" in text


def test_no_relevant_keep_is_compares_and_said(awkward, tmp_path, capsys):
    out = tmp_path / "kept.html"
    assert main(report_args(awkward, out, extra=["--no-relevant", "keep"])) == 0
    compare = _compare_json(awkward, capsys, extra=["--no-relevant", "keep"])
    assert compare["runs"]["orig_baseline"]["topics"][-1] == "399"
    html = out.read_text()
    curves = {k: _compare_json(awkward, capsys, extra=["--cutoff", str(k), "--measures", f"nDCG@{k}", "--no-relevant", "keep"]) for k in CUTOFFS}
    assert _check_numbers(html, {"replication": (compare, curves)}) >= 12 + 4 + 6 + 6
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "no relevant document (scored 0): 399" in text and "without a relevant document were scored 0 (as trec_eval does)" in text
    assert "--no-relevant keep" in text  # the recorded command


def test_same_inputs_same_bytes(files, tmp_path):
    out, tex = tmp_path / "report.html", tmp_path / "tables.tex"
    argv = report_args(files, out, pairs=True, extra=["--latex", str(tex)])
    assert main(argv) == 0
    first = out.read_bytes(), tex.read_bytes()
    assert main(argv) == 0
    assert (out.read_bytes(), tex.read_bytes()) == first  # no timestamp, no random id: byte for byte


def _one_line_error(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


def test_input_errors_are_one_line(files, tmp_path, capsys):
    out = tmp_path / "r.html"
    base = report_args(files, out)
    without_new = [a for a in base if a not in ("--new-advanced", str(files["new_advanced"]))]
    assert "missing --new-advanced" in _one_line_error(without_new, capsys)
    assert "either --pairs or" in _one_line_error([*base, "--pairs", str(files["pairs"])], capsys)
    missing_run = [str(tmp_path / "nope.run") if a == str(files["new_baseline"]) else a for a in base]
    assert "nope.run" in _one_line_error(missing_run, capsys)
    assert "unknown measure 'MAPX'" in _one_line_error([*base, "--measures", "AP,MAPX"], capsys)
    assert "does not exist" in _one_line_error([*report_args(files, tmp_path / "no" / "r.html")], capsys)
    overwrite = report_args(files, files["orig_baseline"])
    assert f"error: --out {files['orig_baseline']}: is an input file" in _one_line_error(overwrite, capsys)
    latex_over_input = [*report_args(files, out), "--latex", str(files["qrels"])]
    assert f"error: --latex {files['qrels']}: is an input file" in _one_line_error(latex_over_input, capsys)
    assert files["orig_baseline"].read_text().startswith("301 Q0")
    bad_csv = tmp_path / "pairs.csv"
    bad_csv.write_text("name,baseline\nx,new_baseline.run\n")
    pairs = [a for a in report_args(files, out, pairs=True)]
    pairs[pairs.index("--pairs") + 1] = str(bad_csv)
    assert "line 1: missing column(s) advanced" in _one_line_error(pairs, capsys)
    malformed = tmp_path / "malformed.run"
    malformed.write_text("301 Q0 DOC-001 1\n")
    broken = [str(malformed) if a == str(files["new_baseline"]) else a for a in base]
    assert "malformed.run" in _one_line_error(broken, capsys) and not out.exists()


@pytest.mark.parametrize("option, value, message", [
    ("--cutoff", "0", "must be an integer in [1, "), ("--bootstrap", "ten", "must be an integer in [1, "),
    ("--rbo-p", "1", "must be a number in (0, 1)"), ("--alpha", "0", "must be a number in (0, 1)"),
    ("--seed", "-1", "must be an integer in [0, "), ("--rbo-variant", "max", "invalid choice"),
    ("--measures", "AP,nope", "nope"),
])  # fmt: skip
def test_option_errors_exit_2_without_traceback(files, tmp_path, option, value, message):
    argv = [sys.executable, "-m", "irrepro", *report_args(files, tmp_path / "r.html"), option, value]
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert message in result.stderr.strip().splitlines()[-1] and option in result.stderr


def test_command_line_is_recorded(files, tmp_path):
    out = tmp_path / "r.html"
    assert main(report_args(files, out, extra=["--title", "A title & more"])) == 0
    html = out.read_text()
    assert "<title>A title &amp; more</title>" in html
    assert f"--out {out}" in html and "--title &#39;A title &amp; more&#39;" in html
    assert "--bootstrap 200 --seed 0 --alpha 0.05" in html


def test_undefined_effects_and_awkward_names(files, tmp_path, capsys):
    """No original effect (advanced = baseline): ER is undefined, said so, and nothing breaks;
    pair names with TeX, HTML and mathtext specials are shown as given."""
    pairs = tmp_path / "pairs.csv"
    name = "a$b & <c>_d%"
    pairs.write_text(f'name,baseline,advanced\n"{name}",{files["new_baseline"]},{files["new_advanced"]}\n')
    out, tex = tmp_path / "r.html", tmp_path / "r.tex"
    argv = ["report", "--qrels", str(files["qrels"]), "--orig-baseline", str(files["orig_baseline"]),
            "--orig-advanced", str(files["orig_baseline"]), "--pairs", str(pairs), "--bootstrap", "50",
            "--out", str(out), "--latex", str(tex)]  # fmt: skip
    assert main(argv) == 0
    html = out.read_text()
    assert "a$b &amp; &lt;c&gt;_d%" in html and "<c>" not in html
    assert "ER AP: ER is undefined: zero mean improvement" in html
    er = [c for c in _cells(html) if c["stat"] == "ER" and "value" in c]
    assert er and all(c["value"] == "" and c["text"].strip() == "undefined" for c in er)
    assert "a\\$b \\& \\textless{}c\\textgreater{}\\_d\\%" in tex.read_text()


def test_the_methods_name_the_primad_kind_of_two_annotated_pairs(files, tmp_path):
    """Pair ``sweep`` changes the method only (a parameter sweep, priMad), pair ``other`` also the
    implementation (a replication, prIMad): the methods text says so, and the replicability measures apply."""
    from irrepro.runs import annotate_run

    components = ("platform", "research goal", "implementation", "method", "actor", "data")
    original = {c: {"name": "original"} for c in components}

    def annotated(role: str, name: str, **changes) -> str:
        annotate_run(files[role], {**original, **changes}, out=tmp_path / name)
        return name

    ob, oa = annotated("orig_baseline", "ob.run"), annotated("orig_advanced", "oa.run")
    rows = [("sweep", annotated("new_baseline", "sb.run", method={"C": 3}), annotated("new_advanced", "sa.run", method={"C": 3})),
            ("other", annotated("new_baseline", "xb.run", implementation={"name": "x"}, method={"C": 3}),
             annotated("new_advanced", "xa.run", implementation={"name": "x"}, method={"C": 3}))]
    (tmp_path / "pairs.csv").write_text("name,baseline,advanced\n" + "".join(f"{n},{b},{a}\n" for n, b, a in rows))
    out = tmp_path / "primad.html"
    argv = ["report", "--qrels", str(files["qrels"]), "--orig-baseline", str(tmp_path / ob), "--orig-advanced",
            str(tmp_path / oa), "--pairs", str(tmp_path / "pairs.csv"), "--bootstrap", "50", "--out", str(out)]
    assert main(argv) == 0
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text())))
    assert "The kind of study was read from the runs' ir_metadata headers" in text
    assert "1 pair (sweep): PRIMAD priMad (baseline and advanced): parameter sweep" in text
    assert "1 pair (other): PRIMAD prIMad (baseline and advanced): replicability" in text
    assert "the setting is replicability" in text
    assert main([*argv, "--new-qrels", str(files["qrels"]), "--out", str(tmp_path / "x.html")]) == 2


def test_the_methods_say_the_new_qrels_decided_without_headers(files, tmp_path):
    out = tmp_path / "plain.html"
    assert main(report_args(files, out)) == 0
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text())))
    assert "The kind of study was not read from ir_metadata headers (no ir_metadata header in the original baseline" in text
def test_a_full_disk_names_the_file_being_written(files, tmp_path, capsys, monkeypatch):
    import errno

    import irrepro.outputs

    def full(descriptor):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(irrepro.outputs.os, "fsync", full)
    out = tmp_path / "r.html"
    error = _one_line_error(report_args(files, out), capsys)
    assert error == f"irrepro report: error: {out}: No space left on device"
    assert list(tmp_path.iterdir()) == []  # nothing half-written is left
