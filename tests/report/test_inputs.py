"""The pairs CSV: paths relative to the file, and errors naming file and line."""

from __future__ import annotations

import hashlib

import pytest

from irrepro.report.inputs import read_pairs, sha256


def test_pairs_resolve_paths_against_the_csv_folder(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    csv = folder / "pairs.csv"
    csv.write_text(f"advanced,name,baseline,comment\nrpl_a.run,tf 1,sub/rpl_b.run,x\n\n{tmp_path}/a2.run, tf 2 ,/abs/b2.run,\n")
    pairs = read_pairs(csv)
    assert [p.name for p in pairs] == ["tf 1", "tf 2"]
    assert pairs[0].baseline == folder / "sub" / "rpl_b.run" and pairs[0].advanced == folder / "rpl_a.run"
    assert str(pairs[1].baseline) == "/abs/b2.run" and pairs[1].advanced == tmp_path / "a2.run"


@pytest.mark.parametrize("text, message", [
    ("", "empty file"),
    ("name,baseline\nx,b\n", "line 1: missing column(s) advanced"),
    ("name,baseline,advanced\n", "no pair listed"),
    ("name,baseline,advanced\nx,b,a\ny,,a\n", "line 3: empty baseline"),
    ("name,baseline,advanced\nx,b,a\n\nx,b2,a2\n", "line 4: pair name 'x' already used on line 2"),
])  # fmt: skip
def test_pairs_errors_name_file_and_line(tmp_path, text, message):
    csv = tmp_path / "pairs.csv"
    csv.write_text(text)
    with pytest.raises(ValueError, match=str(csv)) as error:
        read_pairs(csv)
    assert message in str(error.value)


def test_sha256(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"abc" * 1000)
    assert sha256(path, chunk=7) == hashlib.sha256(b"abc" * 1000).hexdigest()


def test_pairs_csv_with_a_byte_order_mark_is_read(tmp_path):
    """Excel's "CSV UTF-8" starts the file with a byte-order mark."""
    (tmp_path / "pairs.csv").write_bytes(b"\xef\xbb\xbfname,baseline,advanced\r\nA,b.run,a.run\r\n")
    assert [(p.name, p.baseline.name) for p in read_pairs(tmp_path / "pairs.csv")] == [("A", "b.run")]


def test_pairs_csv_not_in_utf8_names_file_line_and_encoding(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_bytes("name,baseline,advanced\nA,b.run,a.run\nCaf\u00e9,b.run,a.run\n".encode("latin-1"))
    with pytest.raises(ValueError) as error:
        read_pairs(path)
    assert str(error.value) == f"{path}, line 3: not UTF-8 text (byte 0xe9); save the file as UTF-8 (CSV UTF-8)"
