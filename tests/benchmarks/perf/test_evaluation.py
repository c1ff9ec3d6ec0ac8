"""irrepro evaluate against ir_measures: the outputs read, compared, and the costs as comparisons."""

from __future__ import annotations

import json

import pytest
from perf import evaluation, processes
from perf.processes import Finished, ProcessCost

IRREPRO_JSON = json.dumps({"runs": {"synthetic": {"mean": {"AP": 0.25, "P@10": 0.5, "nDCG": 0.75}, "per_topic": {}}}})
IR_MEASURES_TEXT = "AP\t0.25\nP@10\t0.5\nnDCG\t0.7500000001\n"


def test_both_outputs_are_read_as_the_same_three_means():
    assert evaluation.irrepro_means(IRREPRO_JSON) == {"AP": 0.25, "P@10": 0.5, "nDCG": 0.75}
    theirs = evaluation.ir_measures_means(IR_MEASURES_TEXT)
    assert evaluation.largest_difference(evaluation.irrepro_means(IRREPRO_JSON), theirs) == pytest.approx(1e-10)


def test_both_commands_read_the_same_files(tmp_path):
    commands = evaluation.commands(tmp_path / "q", tmp_path / "r")
    for command in commands.values():
        assert str(tmp_path / "q") in command and str(tmp_path / "r") in command
    assert commands["irrepro"][2:4] == ["irrepro", "evaluate"] and commands["ir_measures"][2] == "ir_measures"


def _fake_runs(ir_measures_stdout: str):
    def in_turn(commands, repeats, *, env=None):
        costs = {"irrepro": ProcessCost(2.0, 1.0, 100.0), "ir_measures": ProcessCost(3.0, 1.5, 80.0)}
        stdout = {"irrepro": IRREPRO_JSON, "ir_measures": ir_measures_stdout}
        return {name: [Finished(costs[name], stdout[name])] * repeats for name in commands}

    return in_turn


def test_the_comparison_reports_memory_wall_and_cpu_as_peer_over_irrepro(tmp_path, monkeypatch):
    monkeypatch.setattr(processes, "in_turn", _fake_runs("AP\t0.25\nP@10\t0.5\nnDCG\t0.75\n"))
    result = evaluation.compare_evaluation(1500, tmp_path, repeats=2, seed=3)
    assert [c.ratio for c in result.comparisons] == [0.8, 1.5, 1.5]
    assert (result.lines, result.topics, result.repeats, result.largest_difference) == (1500, 2, 2, 0.0)
    assert result.comparisons[0].input_size == "a run of 1,500 lines (2 topics)"


def test_means_that_disagree_stop_the_comparison(tmp_path, monkeypatch):
    monkeypatch.setattr(processes, "in_turn", _fake_runs(IR_MEASURES_TEXT))
    with pytest.raises(RuntimeError, match="differ by 1e-10"):
        evaluation.compare_evaluation(1500, tmp_path, repeats=1, seed=3)


def test_the_real_commands_agree_and_cost_something(tmp_path):
    result = evaluation.compare_evaluation(2000, tmp_path, repeats=1, seed=3)
    assert result.largest_difference <= evaluation.AGREEMENT
    assert all(c.ours > 0 and c.theirs > 0 for c in result.comparisons)
    assert result.comparisons[0].unit == "MiB" and result.comparisons[0].peer.startswith("ir_measures ")


def test_the_libraries_alone_have_a_peak():
    assert evaluation.libraries_peak_mib() > 10
