"""The report in a real browser (Debian's Chromium through Playwright), offline, from disk.

Skipped only when Chromium is absent (CI installs it). A control page that does fetch and log an
error shows that the check would catch both.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from irrepro.cli import main
from tests.report.files import report_args

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "check_report.py"
_spec = importlib.util.spec_from_file_location("check_report", _TOOL)
check_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_report)

pytestmark = pytest.mark.skipif(check_report.chromium_path() is None, reason="Chromium is not installed")


def test_report_displays_offline_without_errors(files, tmp_path):
    out, shot = tmp_path / "report.html", tmp_path / "report.png"
    assert main(report_args(files, out, pairs=True)) == 0
    problems, facts = check_report.check_report(out, shot)
    assert problems == []
    assert facts["requests_blocked"] == 0 and facts["console_errors"] == 0
    assert {figure["id"] for figure in facts["figures"]} == {"figure-effects", "figure-cutoffs"}
    assert all(figure["width"] > 100 and figure["height"] > 100 for figure in facts["figures"])
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_check_catches_requests_errors_and_hidden_figures(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body>'
        '<img src="http://example.invalid/x.png" alt="x"><script>console.error("boom")</script>'
        '<svg style="display:none"><title>t</title><desc>d</desc></svg><table><tr><th>h</th></tr></table></body></html>'
    )
    problems, facts = check_report.check_report(page, None)
    assert facts["requests_blocked"] == 1 and facts["console_errors"] >= 1
    assert any("example.invalid" in p for p in problems) and any("boom" in p for p in problems)
    assert any("not displayed" in p for p in problems) and any("without scope" in p for p in problems)
