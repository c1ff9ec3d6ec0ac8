"""User text in the report (title, file names, pair names, the command line) stays on its line:
no line-ending character reaches the HTML or the LaTeX, and nothing of it runs as TeX."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from irrepro.cli import main

#: Every character Python, TeX, a browser or an editor may end a line with.
LINE_ENDS = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"
EVIL = "\\input{evil}"  # TeX that reads ./evil.tex when it runs
TITLE = "Title\r" + EVIL + "\nstray\vv\ff\x85nel\u2028ls\u2029ps"


@pytest.fixture(scope="module")
def written(files, tmp_path_factory):
    """A report whose title, one input file's name and the pair's name hold line ends and TeX."""
    folder = tmp_path_factory.mktemp("user-text")
    baseline = folder / ("b\r" + EVIL + ".run")
    shutil.copy(files["orig_baseline"], baseline)
    pairs = folder / "pairs.csv"
    pairs.write_text(f'name,baseline,advanced\n"pair\r{EVIL}\nname",{files["new_baseline"]},{files["new_advanced"]}\n')
    out, tex = folder / "r.html", folder / "r.tex"
    argv = ["report", "--qrels", str(files["qrels"]), "--orig-baseline", str(baseline), "--orig-advanced",
            str(files["orig_advanced"]), "--pairs", str(pairs), "--bootstrap", "50", "--title", TITLE,
            "--out", str(out), "--latex", str(tex)]  # fmt: skip
    assert main(argv) == 0
    return folder, out.read_bytes().decode("utf-8"), tex.read_bytes().decode("utf-8")


def test_one_line_replaces_every_line_end_and_control_character():
    from irrepro.report.formatting import one_line

    assert one_line("a" + LINE_ENDS.join("bc") + "\x00\x1b\x7f\x9fd") == "ab" + " " * len(LINE_ENDS) + "c    d"
    assert one_line("plain text, \u00e9 \u2020 \u0394") == "plain text, \u00e9 \u2020 \u0394"


def test_no_line_end_reaches_the_latex(written):
    _, _, tex = written
    assert not set(LINE_ENDS.replace("\n", "")) & set(tex)
    comments = [line for line in tex.split("\n") if line.startswith("%")]
    assert len(comments) == 4  # the header: title, setting, mark, command; each one line
    assert comments[0].startswith("% Title \\textbackslash{}input\\{evil\\} stray v f nel ls ps: tables of")
    assert comments[3].startswith("% Made by: irrepro report ") and "b\\r\\\\input{evil}.run'" in comments[3]
    # outside comments, user text is escaped: the TeX in it is typeset as text, never run
    assert all(EVIL not in line for line in tex.split("\n") if not line.startswith("%"))
    assert "pair \\textbackslash{}input\\{evil\\} name" in tex


def test_no_line_end_reaches_the_html(written):
    _, html, _ = written
    assert not set(LINE_ENDS.replace("\n", "")) & set(html)
    assert "<title>Title \\input{evil} stray v f nel ls ps</title>" in html
    assert "<h1>Title \\input{evil} stray v f nel ls ps</h1>" in html
    command = re.search(r"<pre><code>(.*?)</code></pre>", html, flags=re.DOTALL).group(1)
    assert "\n" not in command and "--title $&#39;Title\\r\\\\input{evil}\\nstray\\vv\\ff\\u0085nel" in command


def _tex_engine() -> str | None:
    return next((shutil.which(name) for name in ("pdflatex", "lualatex") if shutil.which(name)), None)


@pytest.mark.skipif(_tex_engine() is None, reason="no TeX engine installed (pdflatex or lualatex)")
def test_latex_compiles_and_runs_no_user_text(written):
    folder, _, _ = written
    (folder / "evil.tex").write_text("\\typeout{INJECTED}\n")
    has_booktabs = subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True, check=False).returncode == 0
    rules = "\\usepackage{booktabs}" if has_booktabs else (  # texlive-latex-base lacks booktabs: rules as \hline
        "\\newcommand\\toprule{\\hline}\\newcommand\\midrule{\\hline}\\newcommand\\bottomrule{\\hline}"
        "\\def\\cmidrule(#1)#2{\\cline{#2}}"
    )
    (folder / "main.tex").write_text(
        f"\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n{rules}\n\\begin{{document}}\n\\input{{r.tex}}\n\\end{{document}}\n"
    )
    result = subprocess.run([_tex_engine(), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "main.tex"],
                            cwd=folder, capture_output=True, text=True, errors="replace", check=False)  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:]
    log = (folder / "main.log").read_text(errors="replace")
    assert "INJECTED" not in log and "evil.tex" not in log


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_recorded_command_line_gives_back_every_argument():
    from irrepro.commands.report import shell_quote

    for argument in (TITLE, "it's a \\ title \x01 end", "plain", "", "a b"):
        quoted = shell_quote(argument)
        assert "\n" not in quoted
        echoed = subprocess.run(["bash", "-c", f"printf %s {quoted}"], capture_output=True, check=True).stdout
        assert echoed.decode("utf-8") == argument
