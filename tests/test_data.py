"""The data layer: registry, cache, mirror, hash checks and clear errors."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from irrepro import data
from irrepro.cli import main


def _write_registry(folder: Path, rows: list[tuple[str, str, str]]) -> Path:
    registry = folder / "registry.tsv"
    lines = ["# test registry", "name\tsha256\turl\tarchive_sha256\tmember\tsource"]
    lines += [f"{name}\t{sha}\t{url}\t\t\ttest" for name, sha, url in rows]
    registry.write_text("\n".join(lines) + "\n")
    return registry


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A registry of one file, an empty cache and a mirror holding the file."""
    content = b"301 0 doc1 1\n"
    mirror = tmp_path / "mirror"
    (mirror / "qrels").mkdir(parents=True)
    (mirror / "qrels" / "tiny.txt").write_bytes(content)
    registry = _write_registry(
        tmp_path, [("qrels/tiny.txt", hashlib.sha256(content).hexdigest(), "http://127.0.0.1:9/tiny.txt")]
    )
    monkeypatch.setenv(data.REGISTRY_VARIABLE, str(registry))
    monkeypatch.setenv(data.MIRROR_VARIABLE, str(mirror))
    monkeypatch.setenv(data.CACHE_VARIABLE, str(tmp_path / "cache"))
    return tmp_path, mirror


def test_fetch_copies_from_mirror_and_verifies(sandbox):
    tmp_path, _ = sandbox
    path = data.fetch("qrels/tiny.txt")
    assert path == tmp_path / "cache" / "qrels" / "tiny.txt"
    assert path.read_bytes() == b"301 0 doc1 1\n"
    assert data.verify() == {"qrels/tiny.txt": "ok"}


def test_mirror_with_wrong_hash_is_an_error_naming_the_file(sandbox):
    _, mirror = sandbox
    (mirror / "qrels" / "tiny.txt").write_bytes(b"tampered\n")
    with pytest.raises(data.DataError, match=r"qrels/tiny.txt.*mirror.*sha256"):
        data.fetch("qrels/tiny.txt")


def test_corrupted_cache_copy_is_replaced(sandbox):
    tmp_path, _ = sandbox
    data.fetch("qrels/tiny.txt").write_bytes(b"corrupted")
    assert data.verify() == {"qrels/tiny.txt": "bad hash"}
    assert data.fetch("qrels/tiny.txt").read_bytes() == b"301 0 doc1 1\n"


def test_missing_everywhere_says_where_it_looked_and_how_to_get_it(sandbox):
    _, mirror = sandbox
    (mirror / "qrels" / "tiny.txt").unlink()
    with pytest.raises(data.DataError) as error:
        data.fetch("qrels/tiny.txt")
    message = str(error.value)
    assert "qrels/tiny.txt" in message and str(mirror) in message and data.MIRROR_VARIABLE in message


def test_unknown_name_is_an_error():
    with pytest.raises(data.DataError, match="not in the data registry"):
        data.fetch("qrels/no-such-file.txt")


def test_registry_lists_every_public_file_with_a_source():
    entries = data.registry()
    assert len(entries) > 150
    for entry in entries.values():
        assert len(entry.sha256) == 64
        assert entry.url.startswith("https://") or entry.source, entry.name
        if entry.member:
            assert len(entry.archive_sha256) == 64


def test_real_files_match_their_registered_hashes():
    """Every registered file is fetched (from the mirror on CI) and verified."""
    for name in data.registry():
        assert data.fetch(name).is_file()
    assert set(data.verify().values()) == {"ok"}


def test_cli_data_verify_and_list(capsys):
    assert main(["data", "list", "qrels/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "name\tsha256\tcached\tlocation" and len(lines) == 1 + 4
    assert main(["data", "fetch", "topics/"]) == 0
    assert main(["data", "verify", "topics/"]) == 0
    assert "4 ok, 0 missing" in capsys.readouterr().out


def test_cli_reports_unknown_prefix(capsys):
    assert main(["data", "fetch", "nothing-here/"]) == 2
    assert "not in the registry" in capsys.readouterr().err


def test_registry_urls_on_pypi_exist_with_the_registered_hash():
    """Files fetched from PyPI: the URL is one PyPI lists for the release, with our sha256.

    (A short ``/packages/py3/...`` URL once stood here and answered 404: only a real download
    path catches that, the mirror does not.) Skipped without access to pypi.org.
    """
    requests = pytest.importorskip("requests")
    hosted = [e for e in data.registry().values() if e.url.startswith("https://files.pythonhosted.org/")]
    assert hosted, "the registry holds no PyPI-hosted file any more; drop this test"
    for entry in hosted:
        package, version = entry.source.removeprefix("PyPI ").split("==")
        try:  # the simple index (PEP 503): every file of the project as href="url#sha256=..."
            response = requests.get(f"https://pypi.org/simple/{package}/", timeout=20)
        except requests.RequestException as error:
            pytest.skip(f"pypi.org not reachable: {error}")
        response.raise_for_status()
        listed = dict(re.findall(r'href="([^"#]+)#sha256=([0-9a-f]{64})"', response.text))
        assert entry.url in listed, f"{entry.name}: {entry.url} is not a file of {package} on PyPI"
        assert listed[entry.url] == entry.archive_sha256, f"{entry.name}: PyPI's sha256 differs from the registry's"


def test_registry_agrees_with_the_mirrors_manifest():
    """Each GitHub-hosted entry downloads the file the mirror's MANIFEST names (repository,
    commit, path) and has its sha256; skipped without a mirror."""
    mirror = data.mirror_dir()
    if mirror is None or not (mirror / "MANIFEST.tsv").exists():
        pytest.skip("no mirror with a MANIFEST.tsv")
    manifest = {}
    for line in (mirror / "MANIFEST.tsv").read_text().splitlines()[1:]:
        name, sha256, _size, repository, commit, path = line.split("\t")
        manifest[name] = (sha256, repository, commit, path)
    for entry in data.registry().values():
        sha256, repository, commit, path = manifest[entry.name]
        assert entry.sha256 == sha256, entry.name
        if entry.url.startswith("https://raw.githubusercontent.com/"):
            assert entry.url == f"https://raw.githubusercontent.com/{repository}/{commit}/{path}", entry.name
