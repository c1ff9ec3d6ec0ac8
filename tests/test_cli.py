"""irrepro.cli: a light start-up, and never a traceback for a user's mistake.

Every sub-command runs as a real process over a matrix of bad option values and bad files
(missing, a directory, empty, binary garbage, malformed lines, a byte-order mark, huge numbers);
each must end with the documented exit status and no "Traceback" on stdout or stderr. Ctrl-C
(SIGINT to a process blocked on a FIFO) exits 130 without a word.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from irrepro.cli import main

ENVIRONMENT = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
ENVIRONMENT.pop("IRREPRO_DEBUG", None)


def irrepro(*args, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "irrepro", *map(str, args)], capture_output=True, text=True, env=ENVIRONMENT,
        cwd=cwd, timeout=timeout, check=False,
    )


def _loaded_after(code: str) -> set[str]:
    heavy = ("pandas", "numpy", "scipy.stats", "sklearn", "nltk", "statsmodels", "matplotlib", "pytrec_eval")
    probe = f"import sys\n{code}\nprint('loaded:', *(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=ENVIRONMENT, check=True)
    return set(done.stderr.splitlines()[-1].split()[1:])


def test_building_the_parser_imports_no_heavy_library():
    """Building the whole parser (``irrepro --help``) imports no pandas, numpy, scikit-learn, NLTK,
    statsmodels, matplotlib or trec_eval before a command runs (``irrepro --help`` stays under 0.3 s)."""
    assert _loaded_after("from irrepro.cli import build_parser; build_parser()") == set()
    assert _loaded_after("from irrepro.cli import main; main(['--help'])") == set()


def test_a_command_line_naming_its_command_builds_only_that_commands_parser():
    """``irrepro compare ...`` imports no other command's module (each costs start-up time); the
    command's help is the same as from the whole parser."""
    probe = """if True:
        import contextlib, io, sys
        from irrepro.cli import build_parser, main
        alone, whole = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(alone):
            main(["--debug", "compare", "--help"])
        print(*sorted(m for m in sys.modules if m.startswith("irrepro.commands.")))
        with contextlib.redirect_stdout(whole), contextlib.suppress(SystemExit):
            build_parser().parse_args(["compare", "--help"])
        print(alone.getvalue() == whole.getvalue(), "usage: irrepro compare" in alone.getvalue())
    """
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=ENVIRONMENT, check=True)
    assert done.stdout.splitlines() == ["irrepro.commands._common irrepro.commands.compare", "True True"]


def test_the_program_collects_garbage_less_often_and_a_host_process_keeps_its_own_settings():
    """The program (``main()`` without arguments) sets GC_THRESHOLDS (its commands are short and
    keep what they allocate) and freezes what is left when it is done (no collection at exit walks
    it); ``main(argv)`` called by a host process leaves the host's collector as it was."""
    probe = """if True:
        import gc, sys
        from irrepro.cli import GC_THRESHOLDS, main
        before = gc.get_threshold()
        main(["--version"])
        hosted = gc.get_threshold() == before and gc.get_freeze_count() == 0
        sys.argv = ["irrepro", "--version"]
        main()
        print(hosted, gc.get_threshold() == GC_THRESHOLDS != before and gc.get_freeze_count() > 0)
    """
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=ENVIRONMENT, check=True)
    assert done.stdout.splitlines()[-1] == "True True"


def test_compare_does_not_load_scipy_stats(tmp_path):
    """scipy.stats takes about a second to import: compare's t-tests do without it."""
    qrels, run = _good_files(tmp_path)
    code = (
        "from irrepro.cli import main\n"
        f"assert main(['compare', '--qrels', {str(qrels)!r}, '--orig-baseline', {str(run)!r}, '--orig-advanced', "
        f"{str(run)!r}, '--new-baseline', {str(run)!r}, '--new-advanced', {str(run)!r}]) == 0"
    )
    assert "scipy.stats" not in _loaded_after(code)


# --------------------------------------------------------------------------- files for the matrix


def _good_files(folder: Path) -> tuple[Path, Path]:
    qrels, run = folder / "good.qrels", folder / "good.run"
    qrels.write_text("301 0 a 1\n301 0 b 0\n302 0 c 1\n302 0 d 2\n")
    run.write_text("301 Q0 a 1 0.9 tag\n301 Q0 b 2 0.5 tag\n302 Q0 d 1 0.7 tag\n302 Q0 c 2 0.2 tag\n")
    return qrels, run


BAD_FILES = {  # name -> (content or None for a missing file / "DIR" for a directory, exit statuses allowed)
    "missing": (None, {2}),
    "directory": ("DIR", {2}),
    "empty": (b"", {2}),
    "garbage": (np.random.default_rng(11).integers(0, 256, 4000, dtype=np.uint8).tobytes(), {2}),
    "malformed": (b"301 Q0 a\n301 0\n", {2}),
    "nul_bytes": (b"301 Q0 a 1 0.5 t\x00\x00\n", {0, 2}),
    "bom_run": ("\ufeff301 Q0 a 1 0.9 tag\n301 Q0 b 2 0.5 tag\n".encode(), {0, 2}),
    "bom_qrels": ("\ufeff301 0 a 1\n302 0 c 1\n".encode(), {0, 2}),
    "huge_grade": (b"301 0 a 100000000000000000000\n302 0 c 1\n", {0, 2}),
    "huge_score": (b"301 Q0 a 1 1e999999 tag\n301 Q0 b 2 123456789012345678901234567890 tag\n", {0, 2}),
    "huge_rank": (b"301 Q0 a 99999999999999999999999 0.5 tag\n", {0, 2}),
    "latin1": ("301 Q0 caf\xe9 1 0.5 tag\n".encode("latin-1"), {0, 2}),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    paths = dict(zip(("qrels", "run"), _good_files(folder), strict=True))
    for name, (content, _) in BAD_FILES.items():
        path = folder / name
        if content == "DIR":
            path.mkdir()
        elif content is not None:
            path.write_bytes(content)
        paths[name] = path
    return paths


def _assert_clean(done: subprocess.CompletedProcess, allowed: set[int], *, names: str | None = None):
    assert done.returncode in allowed, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    if done.returncode == 2:
        errors = [line for line in done.stderr.splitlines() if ": error: " in line]
        assert len(errors) == 1 and errors[0].startswith("irrepro"), done.stderr
        if names is not None:
            assert names in errors[0], errors[0]


def _file_cases():
    for bad, (_, allowed) in BAD_FILES.items():
        yield pytest.param("evaluate-qrels", bad, allowed, id=f"evaluate-qrels-{bad}")
        yield pytest.param("evaluate-run", bad, allowed, id=f"evaluate-run-{bad}")
        yield pytest.param("compare-run", bad, allowed, id=f"compare-run-{bad}")
    for bad in ("missing", "directory", "empty", "garbage", "malformed"):
        yield pytest.param("routing-config", bad, {2}, id=f"routing-config-{bad}")
        yield pytest.param("routing-corpora", bad, {2}, id=f"routing-corpora-{bad}")
    yield pytest.param("compare-new-qrels", "garbage", {2}, id="compare-new-qrels-garbage")
    yield pytest.param("reproduce-out", "malformed", {2}, id="reproduce-out-is-a-file")


def _argv(where: str, bad: Path, files) -> list:
    good = {"qrels": files["qrels"], "run": files["run"]}
    four = ["--orig-baseline", good["run"], "--orig-advanced", good["run"], "--new-baseline", good["run"], "--new-advanced"]
    return {
        "evaluate-qrels": ["evaluate", "--qrels", bad, good["run"]],
        "evaluate-run": ["evaluate", "--qrels", good["qrels"], good["run"], bad],
        "compare-run": ["compare", "--qrels", good["qrels"], *four, bad],
        "compare-new-qrels": ["compare", "--qrels", good["qrels"], *four, good["run"], "--new-qrels", bad],
        "routing-config": ["routing", "run", "--system", "wcrobust04", "--target", "mine", "--config", bad, "--out", "x.run"],
        "routing-corpora": ["routing", "corpora", "--config", bad],
        "reproduce-out": ["reproduce", "glm", "--out", bad / "tables"],
    }[where]


@pytest.mark.parametrize("where,bad,allowed", list(_file_cases()))
def test_bad_file_never_shows_a_traceback(files, tmp_path, where, bad, allowed):
    done = irrepro(*_argv(where, files[bad], files), cwd=tmp_path)
    _assert_clean(done, allowed, names=files[bad].name if 2 in allowed and where != "reproduce-out" else None)


OPTION_CASES = [
    (["compare", "--rbo-p", "1.5"], "--rbo-p"),
    (["compare", "--rbo-p", "0"], "--rbo-p"),
    (["compare", "--rbo-p", "1"], "--rbo-p"),
    (["compare", "--rbo-p", "nan"], "--rbo-p"),
    (["compare", "--rbo-p", "-0.2"], "--rbo-p"),
    (["compare", "--rbo-p", "abc"], "--rbo-p"),
    (["compare", "--cutoff", "0"], "--cutoff"),
    (["compare", "--cutoff", "2.5"], "--cutoff"),
    (["compare", "--cutoff", "1_0"], "--cutoff"),
    (["compare", "--cutoff", "1" + "0" * 30], "--cutoff"),
    (["compare", "--cutoff", "9" * 5000], "--cutoff"),
    (["compare", "--cutoff", "1", "--rbo-variant", "sigir2020"], "--cutoff"),
    (["compare", "--rbo-variant", "max"], "--rbo-variant"),
    (["compare", "--measures", "AP,AP"], "--measures"),
    (["compare", "--measures", "P@100000000000000000000"], "--measures"),
    (["evaluate", "--measures", "ERR"], "--measures"),
    (["evaluate", "--measures", "P@0"], "--measures"),
    (["evaluate", "--measures", ","], "--measures"),
    (["evaluate", "--format", "xml"], "--format"),
    (["evaluate", "--missing-topics", "ignore"], "--missing-topics"),
    (["routing", "run", "--depth", "0"], "--depth"),
    (["routing", "run", "--depth", "2.5"], "--depth"),
    (["routing", "run", "--min-df", "-1"], "--min-df"),
    (["routing", "run", "--tag", "a b"], "--tag"),
    (["routing", "run", "--system", "bm25"], "--system"),
    (["routing", "run", "--preset", "tf_9"], "--preset"),
    (["routing", "nothing"], "ACTION"),
    (["routing", "grid", "--workers", "0"], "--workers"),
    (["routing", "grid", "--workers", "two"], "--workers"),
    (["routing", "grid", "--memory-limit", "3XB"], "--memory-limit"),
    (["routing", "grid", "--memory-limit", "1MB"], "--memory-limit"),
    (["routing", "grid", "--constellations", "tf_9"], "--constellations"),
    (["routing", "grid", "--constellations", "C_3,C_3"], "--constellations"),
    (["routing", "grid", "--systems", "bm25"], "--systems"),
    (["routing", "grid", "--targets", ",reuters-far"], "--targets"),
    (["routing", "grid", "--targets", "reuters-near,core17"], "--targets"),
    (["routing", "grid", "--scheduler", "tcp://localhost:1", "--workers", "2"], "--workers"),
    (["routing", "grid", "--implementation", "anserini"], "--implementation"),
    (["reproduce", "trec"], "paper"),
    (["data", "shred"], "action"),
    (["data", "list", "no-such-prefix/"], "no-such-prefix/"),
    (["no-such-command"], "COMMAND"),
    ([], "COMMAND"),
]


@pytest.mark.parametrize("argv,named", OPTION_CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_bad_option_is_one_line_naming_it(files, tmp_path, argv, named):
    complete = {
        "compare": ["--qrels", files["qrels"], "--orig-baseline", files["run"], "--orig-advanced", files["run"],
                    "--new-baseline", files["run"], "--new-advanced", files["run"]],
        "evaluate": ["--qrels", files["qrels"], files["run"]],
    }
    extra = complete.get(argv[0], []) if argv else []
    if argv[:2] == ["routing", "run"]:
        extra = [opt for pair in (("--system", "wcrobust04"), ("--target", "reuters-near"), ("--out", "x.run"))
                 if pair[0] not in argv for opt in pair]
    if argv[:2] == ["routing", "grid"]:
        extra = ["--out", "grid"]
    done = irrepro(*argv, *extra, cwd=tmp_path)
    _assert_clean(done, {2}, names=named)
    assert not (tmp_path / "grid").exists()
    assert not (tmp_path / "x.run").exists()


def test_ctrl_c_exits_130_quietly(files, tmp_path):
    """SIGINT while ``irrepro evaluate`` waits on a FIFO that never closes."""
    fifo = tmp_path / "qrels.fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen(
        [sys.executable, "-m", "irrepro", "evaluate", "--qrels", str(fifo), str(files["run"])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENVIRONMENT,
    )
    writer, deadline = None, time.monotonic() + 60
    try:
        while writer is None:  # opening for writing succeeds once the reader has the FIFO open
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, process.communicate()
                time.sleep(0.05)
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if writer is not None:
            os.close(writer)
        process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "Traceback" not in out and err.strip() == ""


# --------------------------------------------------------------------------- the handler, in process


@pytest.mark.parametrize(
    "error,status,words",
    [
        (MemoryError(), 1, "error: out of memory"),
        (ZeroDivisionError("float division by zero"), 1, "internal error: ZeroDivisionError"),
        (NotImplementedError("later"), 1, "internal error: NotImplementedError"),
        (FileNotFoundError(2, "No such file or directory", "runs/x.run"), 2, "error: runs/x.run: No such file"),
        (ValueError("line 3: bad\nsecond line"), 2, "error: line 3: bad second line"),
    ],
)
def test_handler_statuses_and_messages(monkeypatch, capsys, error, status, words):
    import irrepro.commands.data as data_command

    def fail(args):
        raise error

    monkeypatch.delenv("IRREPRO_DEBUG", raising=False)
    monkeypatch.setattr(data_command, "run", fail)
    assert main(["data", "list"]) == status
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    if status == 2:
        assert err.count("\n") == 1


def test_debug_shows_the_traceback(monkeypatch):
    import irrepro.commands.data as data_command

    def fail(args):
        raise ZeroDivisionError("deliberate")

    monkeypatch.setattr(data_command, "run", fail)
    with pytest.raises(ZeroDivisionError):
        main(["--debug", "data", "list"])
    monkeypatch.setenv("IRREPRO_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["data", "list"])


def test_library_choices_match_the_parser():
    """The parser repeats three lists of choices so that it imports no numpy: they must agree."""
    from irrepro.commands import _common, compare, evaluate
    from irrepro.evaluation import MISSING_TOPIC_POLICIES, NO_RELEVANT_POLICIES
    from irrepro.reproducibility.ranking import RBO_VARIANTS

    assert evaluate.MISSING_TOPIC_POLICIES == MISSING_TOPIC_POLICIES and compare.RBO_VARIANTS == RBO_VARIANTS
    assert _common.NO_RELEVANT_POLICIES == NO_RELEVANT_POLICIES


@pytest.mark.parametrize("option", ["run", "qrels"])
def test_an_error_in_standard_input_names_it_once(files, option):
    bad = "301 Q0 d1 1 1_0 x\n" if option == "run" else "301 0 d1 1e3\n"
    argv = ["evaluate", "--qrels", "-", str(files["run"])] if option == "qrels" else ["evaluate", "--qrels", str(files["qrels"]), "-"]
    done = subprocess.run([sys.executable, "-m", "irrepro", *argv], input=bad, capture_output=True, text=True, env=ENVIRONMENT, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = [line for line in done.stderr.splitlines() if ": error: " in line]
    assert line.startswith("irrepro evaluate: error: <stdin>, line 1: ") and line.count("<stdin>") == 1
