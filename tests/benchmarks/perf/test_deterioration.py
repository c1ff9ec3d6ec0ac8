"""irrepro deteriorate beside one irrepro evaluate: the edit checked before any cost is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from perf import deterioration, processes, summary
from perf.processes import Finished, ProcessCost


def test_both_commands_read_the_same_files_and_deteriorate_writes_elsewhere(tmp_path):
    commands = deterioration.commands(tmp_path / "q", tmp_path / "r", tmp_path / "o")
    assert commands["deteriorate"][2:4] == ["irrepro", "deteriorate"] and commands["evaluate"][2:4] == ["irrepro", "evaluate"]
    for command in commands.values():
        assert str(tmp_path / "q") in command and str(tmp_path / "r") in command
    assert commands["deteriorate"][-2:] == ["--out", str(tmp_path / "o")]


def test_the_counts_are_read_from_what_the_command_printed():
    printed = "irrepro deteriorate: worse: 3 of 4 topics changed (2 drawn), 5 swaps and 1 replacements in all; ..."
    assert deterioration.edits_said(printed) == (5, 1)
    with pytest.raises(RuntimeError, match="no count"):
        deterioration.edits_said("nothing")


def test_lines_changed_counts_docno_edits_and_refuses_any_other_difference(tmp_path):
    before, after = tmp_path / "a.run", tmp_path / "b.run"
    before.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n")
    after.write_text("1 Q0 x 1 0.5 t\n1 Q0 b 2 0.4 t\n")
    assert deterioration.lines_changed(before, after) == 1
    after.write_text("1 Q0 x 1 0.6 t\n1 Q0 b 2 0.4 t\n")
    with pytest.raises(RuntimeError, match="more than its docno"):
        deterioration.lines_changed(before, after)


def test_the_real_commands_make_the_edit_they_report_and_cost_something(tmp_path):
    result = deterioration.compare_deterioration(3000, tmp_path, repeats=1, seed=3)
    assert result.lines_changed == 2 * result.swaps + result.replacements > 0
    assert [c.unit for c in result.comparisons] == ["MiB", "s", "s"]
    assert [c.better for c in result.comparisons] == ["deteriorating uses less memory", "deteriorating is faster",
                                                      "deteriorating is faster"]  # fmt: skip
    assert all(c.ours > 0 and c.theirs > 0 for c in result.comparisons)


def test_a_written_run_that_is_not_the_reported_edit_stops_the_comparison(tmp_path, monkeypatch):
    def in_turn(commands, repeats, *, env=None):
        out = commands["deteriorate"][-1]
        run = commands["deteriorate"][commands["deteriorate"].index("--qrels") + 2]
        with open(run) as source, open(out, "w") as written:
            written.write(source.read())  # nothing changed, yet 1 swap is reported
        said = "1 swaps and 0 replacements in all"
        return {name: [Finished(ProcessCost(1.0, 1.0, 50.0), said)] * repeats for name in commands}

    monkeypatch.setattr(processes, "in_turn", in_turn)
    with pytest.raises(RuntimeError, match="differs from .* on 0 lines"):
        deterioration.compare_deterioration(1500, tmp_path, repeats=1, seed=3)


@pytest.mark.parametrize(("evaluate_wall", "verdict"), [(2.0, "met"), (1.99, "not met in this build")])
def test_the_goal_is_read_strictly_on_the_measured_ratio(tmp_path, monkeypatch, evaluate_wall, verdict):
    def in_turn(commands, repeats, *, env=None):
        run, out = commands["deteriorate"][commands["deteriorate"].index("--qrels") + 2], commands["deteriorate"][-1]
        lines = Path(run).read_text().splitlines(keepends=True)
        first = lines[0].split(" ")
        lines[0] = " ".join([*first[:2], "changed", *first[3:]])
        Path(out).write_text("".join(lines))
        costs = {"deteriorate": ProcessCost(2.0, 1.0, 300.0), "evaluate": ProcessCost(evaluate_wall, 1.0, 150.0)}
        return {name: [Finished(costs[name], "0 swaps and 1 replacements in all")] * repeats for name in commands}

    monkeypatch.setattr(processes, "in_turn", in_turn)
    values = summary.deterioration_values(deterioration.compare_deterioration(1500, tmp_path, repeats=2, seed=3))
    assert values["wall-verdict"] == verdict and values["cpu-verdict"] == "met" and values["memory-ratio"] == 0.5
    assert values["lines-changed"] == "1" and values["settings"].startswith("--mode worse --swaps 3")


def test_the_performance_page_names_the_settings_it_times():
    page = (Path(__file__).parents[3] / "docs" / "using" / "performance.md").read_text()
    named = " ".join(f"--{key} {value}" for key, value in deterioration.SETTINGS.items())
    assert f"`irrepro deteriorate {named}`" in " ".join(page.split())
