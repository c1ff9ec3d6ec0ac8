"""The benchmarks' inputs: deterministic, of the size asked for, shaped as the docstring says."""

from __future__ import annotations

import collections

import pytest
from perf import synthetic


@pytest.fixture(scope="module")
def run_of_lines(tmp_path_factory):
    return synthetic.write_run_of_lines(2500, tmp_path_factory.mktemp("lines"), seed=5)


def test_a_run_of_n_lines_has_n_lines_in_topic_blocks_of_1000(run_of_lines):
    _, run = run_of_lines
    topics = [line.split()[0] for line in run.read_text().splitlines()]
    assert len(topics) == 2500
    assert list(collections.Counter(topics).values()) == [1000, 1000, 500]
    assert [topic for i, topic in enumerate(topics) if i == 0 or topics[i - 1] != topic] == list(dict.fromkeys(topics))


def test_each_topic_has_at_most_200_judgments_and_its_ranks_count_from_one(run_of_lines):
    qrels, run = run_of_lines
    judged = collections.Counter(line.split()[0] for line in qrels.read_text().splitlines())
    assert len(judged) == 3 and max(judged.values()) <= 200
    first = [line.split() for line in run.read_text().splitlines()[:1000]]
    assert [int(fields[3]) for fields in first] == list(range(1, 1001))
    scores = [float(fields[4]) for fields in first]
    assert scores == sorted(scores, reverse=True)


def test_the_same_seed_writes_the_same_bytes_and_shuffling_keeps_the_lines(run_of_lines, tmp_path):
    qrels, run = run_of_lines
    again_qrels, again_run = synthetic.write_run_of_lines(2500, tmp_path, seed=5)
    assert again_run.read_bytes() == run.read_bytes() and again_qrels.read_bytes() == qrels.read_bytes()
    _, shuffled = synthetic.write_run_of_lines(2500, tmp_path, seed=5, order="shuffled")
    assert shuffled.read_text() != run.read_text()
    assert sorted(shuffled.read_text().splitlines()) == sorted(run.read_text().splitlines())


def test_an_unknown_order_is_refused(tmp_path):
    with pytest.raises(ValueError, match="grouped"):
        synthetic.write_run_of_lines(10, tmp_path, seed=1, order="sorted")


def test_a_constellation_is_four_runs_and_qrels_of_the_size_asked_for(tmp_path):
    paths, topics, roles = synthetic.write_constellation(tmp_path / "new", topics=3, depth=20)
    assert roles == list(synthetic.CONSTELLATION_ROLES) and topics == ["301", "302", "303"]
    for role in roles:
        lines = paths[role].read_text().splitlines()
        assert len(lines) == 60 and {line.split()[5] for line in lines} == {role}
    assert len(paths["qrels"].read_text().splitlines()) == 3 * 10
    again, _, _ = synthetic.write_constellation(tmp_path / "again", topics=3, depth=20)
    assert all(again[name].read_bytes() == paths[name].read_bytes() for name in paths)
