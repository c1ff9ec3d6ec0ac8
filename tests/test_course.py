"""The course page (chapters/course.md) names every exercise of the book, and only exercises that exist."""

from __future__ import annotations

import re
from pathlib import Path

from irrepro import exercises

COURSE = Path(__file__).resolve().parents[1] / "chapters" / "course.md"


def _referenced_ids(text: str) -> set[str]:
    return set(re.findall(r"\{ref\}`((?:sigir2020|routing|glm)-[a-z0-9-]+)`", text))


def test_every_exercise_is_in_a_lesson_and_every_exercise_named_exists():
    text = COURSE.read_text(encoding="utf-8")
    named = _referenced_ids(text)
    registered = set(exercises.ids())
    assert not registered - named, f"exercises no lesson assigns: {sorted(registered - named)}"
    assert not named - registered, f"the course names exercises that do not exist: {sorted(named - registered)}"


def test_four_lessons_of_90_minutes_each_with_their_parts():
    text = COURSE.read_text(encoding="utf-8")
    lessons = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    assert [lesson.split(":")[0] for lesson in lessons] == ["Lesson 1", "Lesson 2", "Lesson 3", "Lesson 4"]
    for lesson in lessons:
        for part in ("**Objectives.**", "**Prerequisites.**", "**Read.**", "**Exercises.**", "**Timing.**", "**Hand in.**"):
            assert part in lesson, f"{lesson.splitlines()[0]}: no {part}"
        ends = [int(end) for end in re.findall(r"^\| \d+–(\d+) \|", lesson, flags=re.MULTILINE)]
        assert ends and ends[-1] == 90 and ends == sorted(ends), f"{lesson.splitlines()[0]}: timings {ends}"
