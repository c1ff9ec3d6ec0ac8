"""The page's sentences: the values glued into them come from the comparisons, the verdict included."""

from __future__ import annotations

import pytest
from perf import summary
from perf.comparison import Comparison
from perf.evaluation import EvaluationComparison
from perf.glm import GlmComparison
from perf.reproducibility import CompareComparison


def _compare(ours: float, theirs: float) -> CompareComparison:
    size = "4 runs x 50 topics x 1,000 documents"
    wall = Comparison("irrepro compare", "wall-clock time (median of 3)", "repro_eval", ours, theirs, "s", size)
    cpu = Comparison("irrepro compare", "CPU time (median of 3)", "repro_eval", ours / 2, theirs / 2, "s", size)
    return CompareComparison([wall, cpu], repeats=3, import_seconds=0.5, largest_difference=1e-15)


@pytest.mark.parametrize(("theirs", "verdict"), [(10.0, "met"), (9.9, "not met in this build")])
def test_the_goal_is_met_when_the_wall_clock_speed_up_reaches_it(theirs, verdict):
    values = summary.compare_values(_compare(2.0, theirs))
    assert values["verdict"] == verdict and values["speed-up"] == theirs / 2.0
    assert values["import-share"] == 0.25 and values["size"] == "one constellation (4 runs x 50 topics x 1,000 documents)"


def test_the_evaluation_values_are_the_measured_ones():
    size = "a run of 200,000 lines (200 topics)"
    costs = [Comparison("irrepro evaluate", q, "ir_measures", ours, theirs, unit, size)
             for q, ours, theirs, unit in [("peak memory", 110.0, 66.0, "MiB"), ("wall", 2.0, 1.0, "s"), ("CPU", 1.0, 0.8, "s")]]  # fmt: skip
    values = summary.evaluation_values(EvaluationComparison(costs, 200_000, 200, 3, 1e-16), libraries_peak_mib=67.0)
    assert values["lines"] == "200,000" and values["memory-ratio"] == 0.6
    assert (values["wall-ratio"], values["cpu-ratio"], values["libraries-peak"]) == (0.5, 0.8, 67.0)


@pytest.mark.parametrize(("difference", "agreement"), [(0.0, "are identical"), (2.5e-13, "differ by 2.5e-13 (relative)")])
def test_the_deviances_agreement_is_said_as_measured(difference, agreement):
    fit = Comparison("GLM fit, identity link", "time", "statsmodels", 0.002, 5.0, "s", "Robust04")
    values = summary.glm_values(GlmComparison(fit, 27_390, 358, 3, difference))
    assert values["agreement"] == agreement
    assert values["ours-ms"] == 2.0 and values["ratio"] == 2500.0 and values["observations"] == "27,390"
