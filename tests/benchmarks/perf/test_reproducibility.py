"""irrepro compare against repro_eval: both outputs compared over every shared measure; the costs."""

from __future__ import annotations

import copy
import json

import pytest
from perf import reproducibility

TOPICS = ("301", "302")


def _irrepro_output() -> dict:
    per_measure = {"AP": 0.1, "P@10": 0.2, "nDCG": 0.3}
    per_kind = {"baseline": dict(per_measure), "advanced": dict(per_measure)}
    ranking = {kind: {"mean": 0.5, "per_topic": dict.fromkeys(TOPICS, 0.5)} for kind in ("baseline", "advanced")}
    return {"ER": dict(per_measure), "DeltaRI": dict(per_measure), "RMSE": copy.deepcopy(per_kind),
            "p_value": copy.deepcopy(per_kind), "KTU": ranking, "RBO": copy.deepcopy(ranking)}  # fmt: skip


def _repro_eval_output(ours: dict) -> dict:
    theirs = {name: copy.deepcopy(ours[name]) for name in ("ER", "DeltaRI", "RMSE", "p_value")}
    for name in ("KTU", "RBO"):
        theirs[name] = {kind: dict(ours[name][kind]["per_topic"]) for kind in ("baseline", "advanced")}
    return theirs


@pytest.mark.parametrize(
    "change",
    [
        lambda out: out["ER"].update(nDCG=0.3 + 1e-3),
        lambda out: out["RMSE"]["advanced"].update(AP=0.1 + 1e-3),
        lambda out: out["p_value"]["baseline"].update({"P@10": 0.2 + 1e-3}),
        lambda out: out["KTU"]["advanced"].update({"302": 0.5 + 1e-3}),
        lambda out: out["RBO"]["baseline"].update({"301": 0.5 - 1e-3}),
    ],
)
def test_a_difference_in_any_shared_measure_is_found(change):
    ours = _irrepro_output()
    theirs = _repro_eval_output(ours)
    assert reproducibility.largest_difference(ours, theirs) == 0.0
    change(theirs)
    assert reproducibility.largest_difference(ours, theirs) == pytest.approx(1e-3)


def test_the_commands_name_every_file_and_the_peer_script_is_written(tmp_path):
    paths = {name: tmp_path / name for name in ("qrels", "orig_baseline", "orig_advanced", "new_baseline", "new_advanced")}
    commands = reproducibility.commands(paths, tmp_path)
    assert (tmp_path / "repro_eval_script.py").read_text() == reproducibility.REPRO_EVAL_SCRIPT
    for command in commands.values():
        assert all(str(path) in command for path in paths.values())
    assert commands["irrepro"][commands["irrepro"].index("--orig-advanced") + 1] == str(paths["orig_advanced"])


def test_the_real_commands_agree_and_the_speed_up_is_the_wall_clock_ratio(tmp_path):
    result = reproducibility.compare_constellation(tmp_path, repeats=1, topics=3, depth=20)
    assert result.largest_difference <= reproducibility.AGREEMENT
    wall, cpu = result.comparisons
    assert "wall-clock" in wall.measure and "CPU" in cpu.measure
    assert result.speed_up == wall.ratio == wall.theirs / wall.ours
    # measured in a process of its own under -X importtime (which adds its own cost), so it may exceed
    # the median run on an input this small, but not by double: that would be imports counted twice
    assert 0 < result.import_seconds < 2 * wall.ours
    assert wall.input_size == "4 runs x 3 topics x 20 documents"
    json.dumps(result.goal)  # a plain number the page can glue
