"""``irrepro report``: one self-contained HTML file (and optionally LaTeX tables) on your own run pairs.

The same measures as ``irrepro compare`` (its function, :func:`irrepro.reproducibility.compare.compare_runs`,
computes every number), with bootstrap intervals, a verdict per level, the paper's tables and figures,
per-topic diagnostics, notes and a methods paragraph. ``--pairs PAIRS.csv`` (columns
``name,baseline,advanced``) compares several reproduced pairs with the same original pair.
"""

from __future__ import annotations

import shlex
import sys
import warnings
from pathlib import Path

from irrepro.commands._common import add_no_relevant, measure_list, option
from irrepro.report.formatting import LINE_BREAKING
from irrepro.validation import MAX_CUTOFF, Integer, Real

__all__ = ["NAME", "HELP", "add_arguments", "command_line", "run", "shell_quote"]

NAME = "report"
HELP = "a self-contained HTML reproducibility report (Breuer et al., SIGIR 2020) for your own runs"

_REPORT_PACKAGES = ("irrepro", "pytrec-eval-terrier", "numpy", "pandas", "scipy", "matplotlib", "jinja2")


def add_arguments(parser) -> None:
    """Add the options of ``irrepro report`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``report``.
    """
    parser.add_argument("--qrels", required=True, type=Path, help="qrels of the original collection")
    parser.add_argument("--new-qrels", type=Path, help="qrels of the new collection (reproducibility); omit for replicability")
    parser.add_argument("--orig-baseline", required=True, type=Path, help="original baseline run (b)")
    parser.add_argument("--orig-advanced", required=True, type=Path, help="original advanced run (a)")
    parser.add_argument("--new-baseline", type=Path, help="new baseline run (b'); with --new-advanced, or use --pairs")
    parser.add_argument("--new-advanced", type=Path, help="new advanced run (a')")
    parser.add_argument("--pairs", type=Path, metavar="PAIRS.csv", help="several new pairs: CSV with columns name,baseline,advanced")
    parser.add_argument("--measures", type=measure_list, default="AP,P@10,nDCG", help="comma-separated measures (default AP,P@10,nDCG)")
    parser.add_argument("--cutoff", type=option(Integer(1, MAX_CUTOFF)), default=1000, help="depth of KTU and RBO (default 1000)")
    parser.add_argument("--rbo-p", type=option(Real(0.0, 1.0, closed="neither")), default=0.8, help="RBO persistence p (default 0.8)")
    parser.add_argument("--rbo-variant", default="ext", choices=("ext", "min", "trunc", "sigir2020"), help="RBO form (default ext)")
    parser.add_argument(
        "--missing-topics", default="zero", choices=("zero", "drop"),
        help="a judged topic a run lacks: scored 0 (trec_eval -c, default) or left out (trec_eval default)",
    )  # fmt: skip
    add_no_relevant(parser)
    parser.add_argument("--bootstrap", type=option(Integer(1, 10_000_000)), default=1000, metavar="N", help="bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=option(Integer(0, 2**32 - 1)), default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument("--alpha", type=option(Real(0.0, 1.0, closed="neither")), default=0.05, help="significance level; intervals are 1-alpha (default 0.05)")
    parser.add_argument("--title", default="Reproducibility report", help="the report's title")
    parser.add_argument("--out", required=True, type=Path, help="the HTML file to write")
    parser.add_argument("--latex", type=Path, help="also write the tables as LaTeX (booktabs) to this file")
    parser.add_argument("--ignore-metadata", action="store_true",
                        help="decide replicability/reproducibility by --new-qrels alone, not by the runs' ir_metadata headers")


_C_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\f": "\\f"}


def _c_escaped(character: str) -> str:
    if character in _C_ESCAPES:
        return _C_ESCAPES[character]
    if LINE_BREAKING.match(character):
        return f"\\x{ord(character):02x}" if ord(character) < 0x80 else f"\\u{ord(character):04x}"
    return character


def shell_quote(argument: str) -> str:
    r"""Quote ``argument`` for a POSIX shell, on one line.

    ``shlex.quote``, or bash's ``$'...'`` with escapes when it holds a line end or another control
    character (``$'a\rb'``).

    Parameters
    ----------
    argument : str
        The argument.

    Returns
    -------
    str
        The quoted argument.

    Examples
    --------
    >>> shell_quote("a b"), shell_quote("it's" + chr(13) + "x")
    ("'a b'", "$'it\\'s\\rx'")
    """
    if not LINE_BREAKING.search(argument):
        return shlex.quote(argument)
    return "$'" + "".join(map(_c_escaped, argument)) + "'"


def command_line(args) -> str:
    """Write the command that reproduces the report, every option spelled out (defaults included), on one line.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    str
        The command line, each argument quoted for a POSIX shell.
    """
    parts = ["irrepro", NAME, "--qrels", str(args.qrels)]
    if args.new_qrels:
        parts += ["--new-qrels", str(args.new_qrels)]
    parts += ["--orig-baseline", str(args.orig_baseline), "--orig-advanced", str(args.orig_advanced)]
    if args.pairs:
        parts += ["--pairs", str(args.pairs)]
    else:
        parts += ["--new-baseline", str(args.new_baseline), "--new-advanced", str(args.new_advanced)]
    parts += ["--measures", ",".join(args.measures), "--cutoff", str(args.cutoff), "--rbo-p", f"{args.rbo_p:g}",
              "--rbo-variant", args.rbo_variant, "--missing-topics", args.missing_topics, "--no-relevant", args.no_relevant, "--bootstrap", str(args.bootstrap),
              "--seed", str(args.seed), "--alpha", f"{args.alpha:g}", "--title", args.title, "--out", str(args.out)]  # fmt: skip
    if args.latex:
        parts += ["--latex", str(args.latex)]
    if args.ignore_metadata:
        parts += ["--ignore-metadata"]
    return " ".join(shell_quote(part) for part in parts)


def _check_outputs(args, inputs: list[Path]) -> None:
    outputs = [("--out", args.out)] + ([("--latex", args.latex)] if args.latex else [])
    for flag, path in outputs:
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise ValueError(f"{flag} {path}: the folder {folder} does not exist")
        if path.is_dir():
            raise ValueError(f"{flag} {path}: is a folder; give a file name")
        for source in inputs:
            if source.exists() and path.exists() and path.resolve() == source.resolve():
                raise ValueError(f"{flag} {path}: is an input file; it would be overwritten")
    if args.latex and args.latex.resolve() == args.out.resolve():
        raise ValueError(f"--latex {args.latex}: the same file as --out")


def _pairs(args):
    from irrepro.report.inputs import Pair, read_pairs

    single = (args.new_baseline is not None, args.new_advanced is not None)
    if args.pairs is not None:
        if any(single):
            raise ValueError("give either --pairs or --new-baseline and --new-advanced, not both")
        return read_pairs(args.pairs)
    if not all(single):
        missing = "--new-advanced" if single[0] else "--new-baseline" if single[1] else "--new-baseline and --new-advanced"
        raise ValueError(f"missing {missing} (or give several pairs with --pairs PAIRS.csv)")
    name = "replication" if args.new_qrels is None else "reproduction"
    return [Pair(name, args.new_baseline, args.new_advanced)]


def _read_inputs(args, pairs):
    """Read every file once (a file may serve several pairs); returns frames and the file list."""
    from irrepro.report.inputs import InputFile, sha256
    from irrepro.runs import read_qrels, read_run

    cache, files = {}, []

    def load(path: Path, reader, role: str, pair: str = ""):
        key = path.resolve()
        if key not in cache:
            cache[key] = (reader(path), sha256(path))
        files.append(InputFile(role, pair, str(path), cache[key][1]))
        return cache[key][0]

    qrels = load(args.qrels, read_qrels, "qrels")
    new_qrels = load(args.new_qrels, read_qrels, "new qrels") if args.new_qrels else None
    original = {"orig_baseline": load(args.orig_baseline, read_run, "orig_baseline"),
                "orig_advanced": load(args.orig_advanced, read_run, "orig_advanced")}  # fmt: skip
    new = [(p.name, load(p.baseline, read_run, "new_baseline", p.name), load(p.advanced, read_run, "new_advanced", p.name)) for p in pairs]
    return qrels, new_qrels, original, new, files


def _versions() -> dict[str, str]:
    import platform
    from importlib import metadata

    from irrepro.version import __version__

    versions = {"python": platform.python_version()}
    for name in _REPORT_PACKAGES:
        try:
            versions[name] = __version__ if name == "irrepro" else metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _experiments(args, original, new, new_qrels: bool) -> dict:
    """What each pair's ir_metadata headers say it is; an error where they and --new-qrels disagree."""
    from irrepro.commands._common import run_experiment, settle_setting

    experiments = {}
    for name, baseline, advanced in new:
        experiments[name] = run_experiment(**original, new_baseline=baseline, new_advanced=advanced,
                                           ignore=args.ignore_metadata)
        settle_setting(experiments[name], new_qrels=new_qrels, pair=name if len(new) > 1 else "")
    return experiments


def run(args) -> int:
    """Run ``irrepro report`` with the parsed arguments.

    Errors in the user's input raise; :func:`irrepro.cli.main` prints them as one line (exit
    status 2).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    int
        The exit status: 0 on success.
    """
    from irrepro.evaluation import parse_measure
    from irrepro.outputs import atomic_write_text
    from irrepro.report.analysis import ReportOptions, analyse
    from irrepro.report.build import build_context
    from irrepro.report.render import render_html, render_latex

    measures = tuple(args.measures)
    if not measures:
        raise ValueError("--measures: give at least one measure")
    for measure in measures:
        parse_measure(measure)  # an unknown measure fails before any file is read
    pairs = _pairs(args)
    inputs = [args.qrels, args.orig_baseline, args.orig_advanced, *(p for pair in pairs for p in (pair.baseline, pair.advanced))]
    _check_outputs(args, inputs + ([args.new_qrels] if args.new_qrels else []) + ([args.pairs] if args.pairs else []))
    options = ReportOptions(measures=measures, cutoff=args.cutoff, rbo_p=args.rbo_p, rbo_variant=args.rbo_variant,
                            missing_topics=args.missing_topics, no_relevant=args.no_relevant, n_resamples=args.bootstrap, seed=args.seed, alpha=args.alpha)  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        qrels, new_qrels, original, new, files = _read_inputs(args, pairs)
        experiments = _experiments(args, original, new, new_qrels is not None)
        data = analyse(original, new, qrels, new_qrels=new_qrels, options=options, experiments=experiments)
    extra = [str(w.message) for w in caught if not issubclass(w.category, (DeprecationWarning, FutureWarning))]
    context = build_context(data, files, title=args.title, command=command_line(args), versions=_versions(), extra_notes=extra)
    atomic_write_text(args.out, render_html(context))
    if args.latex:
        atomic_write_text(args.latex, render_latex(context))
    print(f"irrepro report: wrote {args.out}" + (f" and {args.latex}" if args.latex else ""), file=sys.stderr)
    return 0
