"""``irrepro reproduce PAPER --out DIR``: a complete set of tables with its manifest, or none;
never written through a symlink. The paper's tables are replaced by small frames (the real ones
are tested in tests/papers)."""

from __future__ import annotations

import errno

import pandas as pd
import pytest

from irrepro.cli import main
from irrepro.outputs import MANIFEST, read_manifest, verify_table_set
from irrepro.papers import clef2019, sigir2020

SMALL = {
    "table1_rpl_wcrobust04": pd.DataFrame({"ARP:AP": [0.3, 1 / 3]}, index=["WCrobust04", "rpl_wcr04_tf_1"]),
    "rpd_wcrobust04": pd.DataFrame({"ARP:AP": [0.25]}, index=["rpd_tf_1"]),
    "rpl_vs_rpd_pvalues": pd.DataFrame({"p:AP:WCrobust04": [0.04]}, index=["tf_1"]),
}


@pytest.fixture
def small_tables(monkeypatch):
    monkeypatch.setattr(sigir2020.files, "tables", lambda: dict(SMALL))
    return SMALL


def _reproduce(out) -> int | None:
    """The command's exit code, or None if it raised (the CLI's error handling is not tested here)."""
    try:
        return main(["reproduce", "sigir2020", "--out", str(out)])
    except OSError:
        return None


def _files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_writes_every_table_and_a_manifest_that_verifies(small_tables, tmp_path, capsys):
    assert _reproduce(tmp_path) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(tmp_path / f"{name}.csv") for name in small_tables] + [str(tmp_path / MANIFEST)]
    assert [p.name for p in verify_table_set(tmp_path)] == [f"{name}.csv" for name in small_tables]
    assert read_manifest(tmp_path)["producer"] == "irrepro.papers.sigir2020.write_tables"
    table = pd.read_csv(tmp_path / "table1_rpl_wcrobust04.csv", index_col=0)
    assert table.loc["rpl_wcr04_tf_1", "ARP:AP"] == 1 / 3  # full precision, row names kept


def test_does_not_write_through_a_symlink_in_the_folder(small_tables, tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("not a table\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "rpd_wcrobust04.csv").symlink_to(precious)
    assert _reproduce(out) == 0
    assert precious.read_text() == "not a table\n"
    assert not (out / "rpd_wcrobust04.csv").is_symlink()
    assert pd.read_csv(out / "rpd_wcrobust04.csv", index_col=0).index.tolist() == ["rpd_tf_1"]


def test_a_full_disk_leaves_no_truncated_table_and_no_manifest(small_tables, tmp_path, monkeypatch):
    """The second table hits a full disk halfway (pandas would read the half file without error)."""
    original, calls = pd.DataFrame.to_csv, []

    def to_csv(self, path_or_buf=None, *args, **kwargs):
        calls.append(path_or_buf)
        if len(calls) < 2:
            return original(self, path_or_buf, *args, **kwargs)
        text = original(self, None, *args, **kwargs)
        if hasattr(path_or_buf, "write"):
            path_or_buf.write(text[: len(text) // 2])
        else:
            with open(path_or_buf, "w") as handle:
                handle.write(text[: len(text) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
    assert _reproduce(tmp_path) != 0
    assert _files(tmp_path) == []


def test_a_rerun_leaves_no_table_of_the_earlier_set(small_tables, tmp_path, monkeypatch):
    assert _reproduce(tmp_path) == 0
    monkeypatch.setattr(sigir2020.files, "tables", lambda: {"rpd_wcrobust04": SMALL["rpd_wcrobust04"]})
    assert _reproduce(tmp_path) == 0
    assert _files(tmp_path) == [MANIFEST, "rpd_wcrobust04.csv"]
    assert [p.name for p in verify_table_set(tmp_path)] == ["rpd_wcrobust04.csv"]


@pytest.mark.parametrize("name", ["clef2019", "routing"])
def test_the_clef2019_paper_by_its_key_and_by_its_old_name(name, tmp_path, monkeypatch, capsys):
    """``routing`` was the paper's key before it became ``clef2019``: what a user typed still works."""
    written = tmp_path / "replication.csv"
    monkeypatch.setattr(clef2019, "write_tables", lambda out: [out / written.name])
    assert main(["reproduce", name, "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == [str(written), str(tmp_path / MANIFEST)]


def test_help_names_the_papers_and_the_old_name(capsys):
    assert main(["reproduce", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "sigir2020, clef2019, glm" in text and "routing (the old name of clef2019)" in text
