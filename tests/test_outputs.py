"""Atomic writing: a file is complete under its final name or absent; symlinks are replaced."""

from __future__ import annotations

import os

import pytest

from irrepro.outputs import atomic_open, atomic_write_bytes, atomic_write_text


def test_writes_text_and_bytes(tmp_path):
    assert atomic_write_text(tmp_path / "a.txt", "x\n").read_text() == "x\n"
    assert atomic_write_bytes(tmp_path / "b.bin", b"\x00\x01").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]


def test_failure_keeps_the_previous_version_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("old complete\n")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as handle:
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
    with pytest.raises(ValueError, match="mode"):
        with atomic_open(tmp_path / "x", "a"):
            pass
