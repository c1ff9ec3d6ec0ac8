"""The numbers the Performance page writes in its sentences, taken from the comparisons it measured.

One mapping per comparison, keyed as the page glues them (``evaluate-memory-ratio``,
``compare-speed-up``, ...): the page's prose only formats what is here, so a sentence cannot say
something the measurement did not give (the goal's verdict included).
"""

from __future__ import annotations

from perf.deterioration import SETTINGS, DeteriorationComparison
from perf.evaluation import EvaluationComparison
from perf.glm import GlmComparison
from perf.reproducibility import CompareComparison


def evaluation_values(result: EvaluationComparison, *, libraries_peak_mib: float) -> dict[str, object]:
    """``irrepro evaluate`` against ir_measures; ``libraries_peak_mib``: the peak of a process that only imports numpy and pandas."""
    memory, wall, cpu = result.comparisons
    return {
        "lines": f"{result.lines:,}", "topics": result.topics, "repeats": result.repeats,
        "memory-ours": memory.ours, "memory-theirs": memory.theirs, "memory-ratio": memory.ratio,
        "wall-ratio": wall.ratio, "cpu-ratio": cpu.ratio, "difference": result.largest_difference,
        "libraries-peak": libraries_peak_mib,
    }  # fmt: skip


def compare_values(result: CompareComparison) -> dict[str, object]:
    """``irrepro compare`` against repro_eval, with the goal's verdict and the share of imports in irrepro's time."""
    wall, cpu = result.comparisons
    return {
        "ours": wall.ours, "theirs": wall.theirs, "speed-up": result.speed_up, "cpu-ratio": cpu.ratio,
        "goal": result.goal, "repeats": result.repeats,
        "verdict": "met" if result.speed_up >= result.goal else "not met in this build",
        "size": f"one constellation ({wall.input_size})",
        "import": result.import_seconds, "import-share": result.import_seconds / wall.ours,
        "difference": result.largest_difference,
    }  # fmt: skip


def glm_values(result: GlmComparison) -> dict[str, object]:
    """The GLM fitter against statsmodels: times, problem size, and whether the deviances agree."""
    difference = result.relative_deviance_difference
    return {
        "ours-ms": result.comparison.ours * 1000, "theirs": result.comparison.theirs, "ratio": result.comparison.ratio,
        "observations": f"{result.observations:,}", "parameters": result.parameters, "repeats": result.repeats,
        "agreement": "are identical" if difference == 0 else f"differ by {difference:.1e} (relative)",
    }  # fmt: skip


def deterioration_values(result: DeteriorationComparison) -> dict[str, object]:
    """``irrepro deteriorate`` beside one ``irrepro evaluate``: the ratios (evaluation / deterioration), the goal
    read strictly on each time (met when the deterioration took at most the evaluation's), what was done."""
    memory, wall, cpu = result.comparisons
    return {
        "lines": f"{result.lines:,}", "topics": f"{result.topics:,}", "repeats": result.repeats,
        "memory-ours": memory.ours, "memory-theirs": memory.theirs, "memory-ratio": memory.ratio,
        "wall-ours": wall.ours, "wall-theirs": wall.theirs, "wall-ratio": wall.ratio, "cpu-ratio": cpu.ratio,
        "wall-verdict": "met" if wall.ratio >= 1 else "not met in this build",
        "cpu-verdict": "met" if cpu.ratio >= 1 else "not met in this build",
        "swaps": result.swaps, "replacements": result.replacements, "lines-changed": f"{result.lines_changed:,}",
        "settings": f"--mode {SETTINGS['mode']} --swaps {SETTINGS['swaps']} --replacements {SETTINGS['replacements']} "
                    f"--topics-share {SETTINGS['topics-share']} --source {SETTINGS['source']} "
                    f"--destination {SETTINGS['destination']}",
    }  # fmt: skip
