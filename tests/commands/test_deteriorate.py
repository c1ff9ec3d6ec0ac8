"""``irrepro deteriorate``: the written run is deteriorate()'s, bad settings refused before any file is read."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.cli import main
from irrepro.reproducibility.deterioration import deteriorate
from irrepro.runs import read_qrels, read_run


@pytest.fixture()
def files(tmp_path):
    """Two topics of 20 documents, relevant at ranks 1-3; topic 3 of the run is not judged."""
    run, qrels = tmp_path / "r.run", tmp_path / "q.txt"
    lines, judged = [], []
    for topic in ("1", "2"):
        for rank in range(1, 21):
            lines.append(f"{topic} Q0 d{topic}-{rank:02d} {rank} {100 - rank}.0 tag")
            judged.append(f"{topic} 0 d{topic}-{rank:02d} {int(rank <= 3)}")
    run.write_text("\n".join(lines) + "\n")
    qrels.write_text("\n".join(judged) + "\n")
    return tmp_path, run, qrels


ARGS = ["--mode", "worse", "--swaps", "2", "--topics-share", "1", "--source", "1-5", "--destination", "11-20", "--seed", "3"]


def test_the_written_run_is_deteriorates_and_the_summary_is_printed(files, capsys):
    folder, run, qrels = files
    out, report = folder / "out.run", folder / "topics.csv"
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(out), "--report", str(report)]) == 0
    expected = deteriorate(read_run(run), read_qrels(qrels), mode="worse", swaps=2, replacements=0, topics_share=1.0,
                           source=(1, 5), destination=(11, 20), seed=3)  # fmt: skip
    written = read_run(out)
    pd.testing.assert_frame_equal(written[["query_id", "doc_id", "score", "rank"]].reset_index(drop=True),
                                  expected.run[["query_id", "doc_id", "score", "rank"]].reset_index(drop=True),
                                  check_dtype=False, check_categorical=False)  # fmt: skip
    topics = pd.read_csv(report, dtype={"query_id": str})
    assert topics["swaps"].tolist() == [2, 2]
    assert "4 swaps and 0 replacements" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--destination", "4-20", "must not overlap"),
        ("--topics-share", "1.5", "a share in [0, 1]"),
        ("--source", "5", "a rank interval is A-B"),
        ("--source", "3-1", "a rank interval is A-B"),
        ("--swaps", "9", "--swaps"),
    ],
)
def test_bad_settings_are_one_error_naming_the_option_and_nothing_is_written(files, capsys, option, value, message):
    folder, run, qrels = files
    args = list(ARGS)
    args[args.index(option) + 1] = value
    out = folder / "out.run"
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *args, "--out", str(out)]) == 2
    assert message in capsys.readouterr().err and not out.exists()


def test_an_unjudged_topic_is_named_unless_dropped(files, capsys):
    folder, run, qrels = files
    with run.open("a") as handle:
        handle.write("3 Q0 d3-01 1 5.0 tag\n3 Q0 d3-02 2 4.0 tag\n")
    out = folder / "out.run"
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(out)]) == 2
    assert "3" in capsys.readouterr().err and not out.exists()
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(out), "--drop-unjudged"]) == 0
    assert "1 unjudged topic(s) left out" in capsys.readouterr().out and set(read_run(out)["query_id"]) == {"1", "2"}


def test_a_malformed_run_line_names_the_file_and_line(files, capsys):
    folder, run, qrels = files
    run.write_text(run.read_text() + "1 Q0 broken\n")
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(folder / "o.run")]) == 2
    error = capsys.readouterr().err
    assert "r.run" in error and "line 41" in error


def test_the_run_file_is_edited_only_where_documents_changed(files, capsys):
    folder, run, qrels = files
    out = folder / "out.run"
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(out)]) == 0
    before, after = run.read_text().splitlines(), out.read_text().splitlines()
    differing = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert len(differing) == 2 * 4  # 2 swaps in each of 2 topics: both ends of each swap
    for old, new in differing:  # only the docno differs: rank field, score text and tag are the input's
        assert old.split()[:2] + old.split()[3:] == new.split()[:2] + new.split()[3:]


def test_a_run_from_standard_input_is_written_anew_as_the_same_run(files, capsys, monkeypatch):
    import io
    import sys

    folder, run, qrels = files
    edited, piped = folder / "edited.run", folder / "piped.run"
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(edited)]) == 0
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(run.read_bytes())))
    assert main(["deteriorate", "--qrels", str(qrels), "-", *ARGS, "--out", str(piped)]) == 0
    pd.testing.assert_frame_equal(read_run(piped), read_run(edited))


def test_a_run_not_in_topic_blocks_is_read_whole_and_edited_alike(files, capsys):
    folder, run, qrels = files
    lines = run.read_text().splitlines(keepends=True)
    shuffled = folder / "shuffled.run"
    shuffled.write_text("".join(lines[i] for i in (*range(0, 40, 2), *range(1, 40, 2))))  # topics interleaved
    out_blocks, out_shuffled = folder / "blocks.run", folder / "out-shuffled.run"
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(out_blocks)]) == 0
    assert main(["deteriorate", "--qrels", str(qrels), str(shuffled), *ARGS, "--out", str(out_shuffled)]) == 0
    pd.testing.assert_frame_equal(read_run(out_shuffled), read_run(out_blocks))
    assert sum(a != b for a, b in zip(shuffled.read_text().splitlines(), out_shuffled.read_text().splitlines(), strict=True)) == 8


def test_a_document_twice_is_named_with_both_lines(files, capsys):
    folder, run, qrels = files
    run.write_text(run.read_text() + "1 Q0 d1-01 21 1.0 tag\n")
    assert main(["deteriorate", "--qrels", str(qrels), str(run), *ARGS, "--out", str(folder / "o.run")]) == 2
    error = capsys.readouterr().err
    assert "line 41" in error and "line 1" in error and "d1-01" in error
