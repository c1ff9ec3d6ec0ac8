"""``irrepro data list``: a header, and per file whether it is cached and where."""

from __future__ import annotations

from irrepro import data
from irrepro.cli import main


def test_list_says_what_is_cached_and_where(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(data.CACHE_VARIABLE, str(tmp_path / "cache"))
    names = sorted(name for name in data.registry() if name.startswith("topics/"))
    fetched = data.fetch(names[0])
    assert main(["data", "list", "topics/"]) == 0
    captured = capsys.readouterr()
    lines = [line.split("\t") for line in captured.out.splitlines()]
    assert lines[0] == ["name", "sha256", "cached", "location"]
    rows = {row[0]: row for row in lines[1:]}
    assert list(rows) == names
    assert rows[names[0]][2:] == ["yes", str(fetched)]
    for name in names[1:]:
        entry = data.registry()[name]
        assert rows[name][2:] == ["no", entry.url or f"(mirror only) {entry.source}"]
    assert f"1 of {len(names)} file(s) cached in {tmp_path / 'cache'}" in captured.err
