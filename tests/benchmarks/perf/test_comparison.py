"""One cost of irrepro and of its peer: the ratio peer / irrepro, its reading, and the table's rows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from perf.comparison import Comparison, comparison_frame, from_processes
from perf.processes import ProcessCost

costs = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False)


def _comparison(ours: float, theirs: float, unit: str = "s") -> Comparison:
    return Comparison("a task", "a quantity", "peer 1.0", ours, theirs, unit, "tiny")


@given(costs, costs)
def test_the_ratio_is_the_peers_cost_over_irrepros(ours, theirs):
    ratio = _comparison(ours, theirs).ratio
    assert ratio == pytest.approx(theirs / ours)
    assert ratio >= 1 if theirs >= ours else ratio <= 1


def test_a_ratio_above_one_reads_as_irrepro_needing_less():
    assert _comparison(1.0, 4.0).ratio == 4.0
    assert _comparison(1.0, 4.0).better == "irrepro is faster"
    assert _comparison(200.0, 100.0, "MiB").ratio == 0.5
    assert _comparison(200.0, 100.0, "MiB").better == "irrepro uses less memory"
    assert _comparison(1.0, 4.0).measure == "a task: a quantity"


@pytest.mark.parametrize(("ours", "theirs", "unit"), [(0.0, 1.0, "s"), (1.0, -2.0, "s"), (float("nan"), 1.0, "s"), (1.0, 1.0, "GB")])
def test_a_cost_that_is_not_positive_or_has_no_known_unit_is_refused(ours, theirs, unit):
    with pytest.raises(ValueError, match="positive|unit"):
        _comparison(ours, theirs, unit)


def test_the_costs_of_two_processes_become_one_comparison_per_quantity():
    ours, theirs = ProcessCost(wall_s=2.0, cpu_s=1.0, peak_mib=100.0), ProcessCost(wall_s=8.0, cpu_s=3.0, peak_mib=50.0)
    found = from_processes(ours, theirs, task="irrepro evaluate", peer="ir_measures 0.4", repeats=3, input_size="10 lines")
    assert {c.task for c in found} == {"irrepro evaluate"}
    assert [c.measure for c in found] == [
        "irrepro evaluate: peak memory (median of 3)", "irrepro evaluate: wall-clock time (median of 3)",
        "irrepro evaluate: CPU time (median of 3)",
    ]  # fmt: skip
    assert [c.ratio for c in found] == [0.5, 4.0, 3.0]
    assert [c.unit for c in found] == ["MiB", "s", "s"]


def test_the_table_shows_costs_with_units_and_the_ratio_as_a_number():
    frame = comparison_frame([_comparison(0.0023, 5.0), _comparison(112.4, 1234.5, "MiB")])
    assert list(frame.columns) == ["irrepro", "peer", "ratio peer / irrepro", "a ratio > 1 means", "input size"]
    assert frame.index.tolist() == ["a task vs peer 1.0:a quantity"] * 2  # grouped by task and peer
    assert frame["irrepro"].tolist() == ["2.3\u00a0ms", "112\u00a0MiB"]  # a value and its unit on one line
    assert frame["peer"].tolist() == ["5\u00a0s", "1,234\u00a0MiB"]
    assert frame["ratio peer / irrepro"].tolist() == pytest.approx([5.0 / 0.0023, 1234.5 / 112.4])
