"""The numbers glued into the chapter's prose come from the computations."""

from __future__ import annotations

from irrepro.papers import routing
from irrepro.papers.clef2019 import prose


def test_topic_numbers_are_the_papers_counts():
    numbers = prose.topic_numbers(routing.topic_sets())
    assert numbers == {"core17-r04": 50, "core17-both": 33, "core17-either": 50, "core18-r04": 25,
                       "core18-both": 15, "core18-either": 25, "common": 15}  # fmt: skip


def test_published_and_clef_numbers():
    numbers = prose.published_numbers()
    assert (numbers["rpl-topics"], numbers["rpd-topics"], numbers["common"]) == (50, 25, 15)
    assert numbers["rpl-improved"] == 14 and numbers["rpd-improved"] < numbers["rpl-improved"]
    assert prose.clef_text_numbers() == {"map-plain": 0.2963, "map-augmented": 0.2924}
