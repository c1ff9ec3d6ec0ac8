"""Atomic writing: a file is complete under its final name or absent; symlinks are replaced;
a set of tables is complete with its manifest, or absent."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import threading

import pandas as pd
import pytest

from irrepro import __version__
from irrepro.outputs import (
    MANIFEST,
    TableSetError,
    atomic_open,
    atomic_write_bytes,
    atomic_write_text,
    read_manifest,
    table_set,
    verify_table_set,
    write_table_set,
)


def test_writes_text_and_bytes(tmp_path):
    assert atomic_write_text(tmp_path / "a.txt", "x\n").read_text() == "x\n"
    assert atomic_write_bytes(tmp_path / "b.bin", b"\x00\x01").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]


def test_failure_keeps_the_previous_version_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("old complete\n")
    with pytest.raises(RuntimeError), atomic_open(target) as handle:
        handle.write("new, half")
        raise RuntimeError("disk full")
    assert target.read_text() == "old complete\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_symlink_at_target_is_replaced_not_followed(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("precious\n")
    link = tmp_path / "out.csv"
    link.symlink_to(elsewhere)
    atomic_write_text(link, "table\n")
    assert elsewhere.read_text() == "precious\n"
    assert not link.is_symlink() and link.read_text() == "table\n"


def test_permissions_follow_the_umask(tmp_path):
    path = atomic_write_text(tmp_path / "t.txt", "x")
    current = os.umask(0)
    os.umask(current)
    assert path.stat().st_mode & 0o777 == 0o666 & ~current


def test_rejects_other_modes(tmp_path):
    with pytest.raises(ValueError, match="mode"), atomic_open(tmp_path / "x", "a"):
        pass


# --------------------------------------------------------------------------- sets of tables

FIRST = {"a.csv": pd.DataFrame({"x": [1, 2]}), "b.csv": pd.DataFrame({"y": [0.1, 1 / 3]}),
         "c.csv": pd.DataFrame({"z": ["p"]})}


def _visible(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.name.startswith("."))


def test_a_set_is_written_with_its_manifest_last(tmp_path):
    paths = write_table_set(tmp_path, FIRST, producer="tests")
    assert paths == [tmp_path / name for name in FIRST]
    assert _visible(tmp_path) == ["MANIFEST.json", "a.csv", "b.csv", "c.csv"]
    manifest = read_manifest(tmp_path)
    assert [entry["name"] for entry in manifest["files"]] == list(FIRST)
    for entry in manifest["files"]:
        content = (tmp_path / entry["name"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(content).hexdigest() and entry["bytes"] == len(content)
    assert manifest["producer"] == "tests" and manifest["irrepro_version"] == __version__
    assert manifest["created_utc"].endswith("+00:00") and "git_commit" in manifest
    assert verify_table_set(tmp_path) == paths
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".irrepro-staging")]


def test_tables_are_byte_identical_to_pandas_own_csv(tmp_path):
    frame = pd.DataFrame({"run": ["a", "b"], "AP": [0.1 + 0.2, float("nan")]}, index=["r1", "r2"])
    write_table_set(tmp_path / "set", {"t.csv": frame}, producer="tests", index=True)
    frame.to_csv(tmp_path / "pandas.csv")
    assert (tmp_path / "set" / "t.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()


def _disk_full_at_call(monkeypatch, failing_call: int) -> None:
    """pandas' to_csv writes half of the table, then the disk is full, from the ``failing_call``-th on."""
    original, calls = pd.DataFrame.to_csv, []

    def to_csv(self, path_or_buf=None, *args, **kwargs):
        calls.append(path_or_buf)
        if len(calls) < failing_call:
            return original(self, path_or_buf, *args, **kwargs)
        text = original(self, None, *args, **kwargs)
        if hasattr(path_or_buf, "write"):
            path_or_buf.write(text[: len(text) // 2])
        else:
            with open(path_or_buf, "w") as handle:
                handle.write(text[: len(text) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)


def test_a_full_disk_leaves_the_previous_set_as_it_was(tmp_path, monkeypatch):
    write_table_set(tmp_path, FIRST, producer="first")
    before = {name: (tmp_path / name).read_bytes() for name in [*FIRST, MANIFEST]}
    second = {name: frame.assign(new=7) for name, frame in FIRST.items()}
    _disk_full_at_call(monkeypatch, failing_call=2)
    with pytest.raises(OSError, match="No space left"):
        write_table_set(tmp_path, second, producer="second")
    assert {p.name for p in tmp_path.iterdir() if not p.name.startswith(".")} == set(before)
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    assert read_manifest(tmp_path)["producer"] == "first" and len(verify_table_set(tmp_path)) == 3
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".irrepro-staging") or p.suffix == ".part"]


def test_a_failed_first_set_leaves_no_table_and_no_manifest(tmp_path, monkeypatch):
    _disk_full_at_call(monkeypatch, failing_call=3)
    with pytest.raises(OSError):
        write_table_set(tmp_path, FIRST, producer="tests")
    assert _visible(tmp_path) == []
    with pytest.raises(TableSetError, match="no MANIFEST.json"):
        verify_table_set(tmp_path)


def test_a_new_set_removes_the_files_only_the_previous_set_had(tmp_path):
    write_table_set(tmp_path, FIRST, producer="first")
    (tmp_path / "notes.txt").write_text("the user's own\n")
    write_table_set(tmp_path, {"a.csv": FIRST["a.csv"], "d.csv": FIRST["c.csv"]}, producer="second")
    assert _visible(tmp_path) == ["MANIFEST.json", "a.csv", "d.csv", "notes.txt"]
    assert [e["name"] for e in read_manifest(tmp_path)["files"]] == ["a.csv", "d.csv"]


def test_symlinks_in_the_folder_are_replaced_never_followed(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "runs").mkdir(parents=True)
    (elsewhere / "a.csv").write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.csv").symlink_to(elsewhere / "a.csv")
    (out / "runs").symlink_to(elsewhere / "runs", target_is_directory=True)
    with table_set(out, producer="tests") as tables:
        tables.add_table("a.csv", FIRST["a.csv"])
        tables.add_file("runs/x.run", lambda path: atomic_write_text(path, "301 Q0 d 1 1.0 x\n"))
    assert (elsewhere / "a.csv").read_text() == "precious\n" and list((elsewhere / "runs").iterdir()) == []
    assert not (out / "a.csv").is_symlink() and not (out / "runs").is_symlink()
    assert [p.name for p in verify_table_set(out)] == ["a.csv", "x.run"]


def test_removing_stale_files_never_reaches_outside_the_folder(tmp_path):
    out, outside = tmp_path / "out", tmp_path / "outside"
    (outside / "runs").mkdir(parents=True)
    (outside / "runs" / "x.run").write_text("keep\n")
    (outside / "kept.txt").write_text("keep\n")
    with table_set(out, producer="first") as tables:
        tables.add_file("runs/x.run", lambda path: atomic_write_text(path, "run\n"))
    (out / "runs" / "x.run").unlink()
    (out / "runs").rmdir()
    (out / "runs").symlink_to(outside / "runs", target_is_directory=True)
    write_table_set(out, {"a.csv": FIRST["a.csv"]}, producer="second")
    assert (outside / "runs" / "x.run").read_text() == "keep\n"
    manifest = read_manifest(out)
    manifest["files"].append({"name": "../outside/kept.txt", "sha256": "0" * 64, "bytes": 5})
    (out / MANIFEST).write_text(json.dumps(manifest))
    write_table_set(out, {"a.csv": FIRST["a.csv"]}, producer="third")  # the bad manifest is ignored
    assert (outside / "kept.txt").read_text() == "keep\n"


@pytest.mark.parametrize(
    "name", ["../up.csv", "/abs.csv", "a/../../b.csv", "", ".", MANIFEST, "./MANIFEST.json", ".irrepro-staging-x/a.csv"]
)
def test_a_name_must_stay_inside_the_folder(tmp_path, name):
    with pytest.raises(ValueError, match="table set"):
        write_table_set(tmp_path, {name: FIRST["a.csv"]}, producer="tests")
    assert list(tmp_path.iterdir()) == []


def test_the_same_name_twice_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="twice"), table_set(tmp_path, producer="tests") as tables:
        tables.add_table("a.csv", FIRST["a.csv"])
        tables.add_table("./a.csv", FIRST["b.csv"])


def test_verify_names_a_missing_or_changed_file(tmp_path):
    write_table_set(tmp_path, FIRST, producer="tests")
    (tmp_path / "b.csv").write_text("y\n0.1\n0.3333\n")  # a hand edit
    with pytest.raises(TableSetError, match=r"b\.csv: differs from MANIFEST.json"):
        verify_table_set(tmp_path)
    (tmp_path / "b.csv").unlink()
    with pytest.raises(TableSetError, match=r"b\.csv: listed in MANIFEST.json but missing"):
        verify_table_set(tmp_path)
    (tmp_path / MANIFEST).write_text("{not json")
    with pytest.raises(TableSetError, match="unreadable manifest"):
        read_manifest(tmp_path)


def test_concurrent_writers_into_one_folder_leave_a_set_that_verifies(tmp_path):
    """Four threads write different sets into one folder at once, ten times: whichever commits
    last, the manifest describes exactly the files that are there."""
    def write(seed: int) -> None:
        tables = {f"t{i}.csv": pd.DataFrame({"seed": [seed] * (1000 + seed)}) for i in range(4)}
        write_table_set(tmp_path, tables, producer=f"writer {seed}")

    for _ in range(10):
        threads = [threading.Thread(target=write, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(verify_table_set(tmp_path)) == 4


def test_write_run_goes_through_the_atomic_writer(tmp_path):
    """``irrepro.runs.write_run`` (``irrepro routing --out``, the routing runs of a table set)
    replaces a symlink at its path instead of writing into the file it points to."""
    from irrepro.runs import read_run, write_run

    precious = tmp_path / "precious.run"
    precious.write_text("someone else's run\n")
    link = tmp_path / "out.run"
    link.symlink_to(precious)
    write_run(pd.DataFrame({"query_id": ["301"], "doc_id": ["d1"], "score": [1.5]}), link, name="mine")
    assert precious.read_text() == "someone else's run\n"
    assert not link.is_symlink() and read_run(link)["run"].tolist() == ["mine"]


def test_docstring_examples():
    import doctest

    from irrepro import outputs

    result = doctest.testmod(outputs)
    assert result.attempted >= 2 and result.failed == 0
