"""``irrepro routing run|corpora``: the routing runs WCrobust04 / WCrobust0405 from the command line.

Corpus names are the Reuters-21578 stand-in's (``reuters-04``, ``reuters-05``, ``reuters-near``,
``reuters-far``; no licence needed) or those of the user's corpora configuration (see
``routing-corpora.example.toml`` and :mod:`irrepro.routing.config`)::

    irrepro routing run --system wcrobust04 --target reuters-near --out wcr04.run
    irrepro routing run --system wcrobust0405 --target core18 --preset tf_1 --config my.toml --out r.run
    irrepro routing run --system wcrobust04 --target reuters-far --no-preprocessing --out wcr04_plain.run
    irrepro routing run --system wcrobust0405 --target reuters-near --implementation clef2019 --out r.run

``irrepro routing grid`` makes a whole constellation grid (systems x targets x constellations) on a
Dask cluster -- a local one of ``--workers`` processes, or a running scheduler (``--scheduler``) --
sharing the features between runs, resumable (``grid.json`` in ``--out``) and with each run file
identical to the one ``irrepro routing run`` writes (:mod:`irrepro.routing.grid`)::

    irrepro routing grid --out grid/ --workers 2 --memory-limit 1GiB
    irrepro routing grid --targets core17,core18 --constellations tf_1,C_3 --scheduler tcp://head:8786 --out g/

``--implementation`` chooses every choice of the pipeline at once (:mod:`irrepro.routing.implementations`):
``paper`` (default), ``clef2019`` or ``sigir2020``, the authors' code of the CENTRE@CLEF 2019 runs and
of the SIGIR 2020 dataset; the corpora are then read with that implementation's text rule.

Every run file begins with an ir_metadata header (:mod:`irrepro.routing.headers`): platform,
research goal, implementation, method, actor and data. ``--metadata FILE`` (YAML of ir_metadata
fields), ``--actor NAME`` and ``--team NAME`` add what only the user knows (who ran it, for which
study); ``--no-metadata`` writes the bare run::

    irrepro routing run --system wcrobust04 --target reuters-near --actor "A. Person" --metadata study.yaml --out r.run
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass

# Only light modules here: every ``irrepro`` command builds this parser, so the routing pipeline
# (scikit-learn, NLTK) is imported when a routing action runs, not at start-up.
from irrepro.commands._common import InputError, option, read_input
from irrepro.routing.constellations import (
    DEFAULT,
    IMPLEMENTATION_NAMES,
    PRINTED,
    TOL_SCALES,
    TRAINING_COLLECTIONS,
    by_name,
)
from irrepro.validation import MAX_CUTOFF, Constraint, Integer, InvalidParameterError, NameList, Text

__all__ = ["NAME", "HELP", "STAND_IN_TARGETS", "MemorySize", "add_arguments", "run"]

NAME = "routing"
HELP = "routing runs WCrobust04 / WCrobust0405 on the Reuters stand-in or on your own corpora"


_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}  # fmt: skip
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([a-z]*)")
#: the stand-in's targets: the grid's default
STAND_IN_TARGETS = ("reuters-near", "reuters-far")


@dataclass(frozen=True)
class MemorySize(Constraint):
    """A memory size per worker: ``4GiB``, ``1500MB``, ``2e9`` bytes written as digits, or ``auto``."""

    def describe(self) -> str:
        return "a size such as 2GiB, 1500MB or 2000000000 (at least 64MiB), or auto"

    def check(self, name, value):
        if value == "auto":
            return value
        match = _SIZE.fullmatch(value.strip().lower()) if isinstance(value, str) else None
        if match is None or match.group(2) not in _UNITS:
            self.fail(name, value)
        size = int(float(match.group(1)) * _UNITS[match.group(2)])
        if size < 64 * 2**20:
            self.fail(name, value)
        return size


def _names(constraint: NameList):
    """An argparse ``type=`` for a comma-separated list checked by ``constraint``."""

    def parse(text: str) -> tuple[str, ...]:
        names = [name.strip() for name in text.split(",")]
        try:
            return constraint.check("the value", [name for name in names if name] if all(names) else names)
        except InvalidParameterError:
            raise argparse.ArgumentTypeError(f"must be {constraint.describe()}, comma-separated; got {text!r}") from None

    return parse


def _constellations(text: str) -> tuple[str, ...]:
    known = tuple(c.name for c in (DEFAULT, *PRINTED))
    return known if text == "all" else _names(NameList("constellation", options=known))(text)


def _add_metadata_options(parser) -> None:
    parser.add_argument("--metadata", type=option(Text(what="a file name")), metavar="FILE",
                        help="YAML file of ir_metadata fields laid over each run's header (actor, research goal, ...)")
    parser.add_argument("--actor", type=option(Text(what="a name")), metavar="NAME", help="who runs it (actor → name)")
    parser.add_argument("--team", type=option(Text(what="a name")), metavar="NAME", help="the actor's team (actor → team)")
    parser.add_argument("--no-metadata", action="store_true", help="write runs without their ir_metadata header")


def _given_metadata(args) -> dict | None:
    """The fields the user lays over the headers (``None``: none), or the header left out (``False``)."""
    asked = [flag for flag, value in (("--metadata", args.metadata), ("--actor", args.actor), ("--team", args.team)) if value]
    if args.no_metadata:
        if asked:
            raise InputError(f"--no-metadata writes no header; {', '.join(asked)} would go into one")
        return False
    from irrepro.runs import read_metadata_file

    given = read_input(read_metadata_file, args.metadata, "--metadata").to_dict() if args.metadata else {}
    actor = {key: value for key, value in (("name", args.actor), ("team", args.team)) if value}
    if actor:
        given.setdefault("actor", {})
        if not isinstance(given["actor"], dict):
            raise InputError(f"--metadata {args.metadata}: actor must be a mapping to add --actor or --team to it")
        given["actor"].update(actor)
    return given or None


def _add_grid(actions) -> None:
    grid = actions.add_parser("grid", help="a whole constellation grid on a Dask cluster: shared features, resumable")
    grid.add_argument("--systems", type=_names(NameList("system", options=tuple(TRAINING_COLLECTIONS))), default=tuple(TRAINING_COLLECTIONS),
                      help="comma-separated (default: wcrobust04,wcrobust0405)")
    grid.add_argument("--targets", type=_names(NameList("corpus name")), default=STAND_IN_TARGETS,
                      help="corpora to rank, comma-separated: the stand-in's (default: reuters-near,reuters-far) or your configured ones")
    grid.add_argument("--constellations", type=_constellations, default="all",
                      help="all (default: the default and tf_1..C_5) or a comma-separated list such as tf_1,C_3")
    grid.add_argument("--no-preprocessing", dest="preprocess", action="store_false",
                      help="plain lowercase tokens as terms (the paper's comparison runs)")
    grid.add_argument("--implementation", choices=IMPLEMENTATION_NAMES, default="paper",
                      help="paper (default), clef2019 or sigir2020, as in 'irrepro routing run'")
    grid.add_argument("--out", required=True, type=option(Text(what="a folder name")),
                      help="folder for the runs (<target>/<tag>.run) and grid.json; rerun to resume")
    grid.add_argument("--scheduler", type=option(Text(no_blanks=True, what="a scheduler address")),
                      help="address of a running Dask scheduler (tcp://host:8786); default: a local cluster")
    grid.add_argument("--workers", type=option(Integer(1, 1024)),
                      help="worker processes of the local cluster (default: the cores)")
    grid.add_argument("--memory-limit", type=option(MemorySize()),
                      help="memory per local worker, e.g. 2GiB (default: auto, the machine's memory shared)")
    grid.add_argument("--config", help="corpora configuration (default: $IRREPRO_ROUTING_CONFIG or ./routing-corpora.toml)")
    grid.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_metadata_options(grid)


def add_arguments(parser) -> None:
    """Add the options of ``irrepro routing`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``routing``.
    """
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    run = actions.add_parser("run", help="train per-topic classifiers and rank a target corpus into a TREC run")
    run.add_argument("--system", required=True, choices=sorted(TRAINING_COLLECTIONS), type=str.lower)
    run.add_argument("--target", required=True, help="corpus to rank: a stand-in name (reuters-near, reuters-far) or one of your config")
    run.add_argument(
        "--preset", default=DEFAULT.name, choices=[c.name for c in (DEFAULT, *PRINTED)], metavar="PRESET",
        help="parameter constellation (default, tf_1..tf_5, df_1..df_5, tol_1..tol_5, C_1..C_5)",
    )
    run.add_argument("--augment", action="store_true", help="fit tf-idf on training and target corpus (feature augmentation)")
    run.add_argument(
        "--no-preprocessing", dest="preprocess", action="store_false",
        help="plain lowercase tokens as terms: keep stop words, no Porter stemming (the paper's comparison runs)",
    )
    run.add_argument(
        "--implementation", choices=IMPLEMENTATION_NAMES, default="paper",
        help="paper (default: what the CLEF paper says), clef2019 or sigir2020 (what the authors' code did: "
        "text fields, tokens, tf weighting, solver, topic set, ties)",
    )
    run.add_argument(
        "--tol-scale", choices=TOL_SCALES, default=None,
        help="the loss whose gradient the preset's tol bounds (lbfgs): mean (scikit-learn >= 1.4) or sum "
        "(scikit-learn < 1.4, as the authors ran); default: the implementation's (paper: mean, sigir2020: sum)",
    )
    run.add_argument("--config", help="corpora configuration (default: $IRREPRO_ROUTING_CONFIG or ./routing-corpora.toml)")
    run.add_argument("--depth", type=option(Integer(1, MAX_CUTOFF)), default=10_000, help="documents per topic (default 10000)")
    run.add_argument("--min-df", type=option(Integer(1, MAX_CUTOFF)), default=1, help="drop terms in fewer documents (default 1)")
    run.add_argument("--tag", type=option(Text(no_blanks=True, what="a run tag")),
                     help="run tag (default: SYSTEM_PRESET[_augmented][_unprocessed][_IMPLEMENTATION][_tolsum])")
    run.add_argument("--quiet", action="store_true", help="no progress bars")
    run.add_argument("--out", required=True, help="the TREC run file to write")
    _add_metadata_options(run)
    _add_grid(actions)
    actions.add_parser("corpora", help="list the stand-in corpora and those of your configuration").add_argument(
        "--config", help="corpora configuration"
    )


def _run(args) -> int:
    from irrepro.routing import standin
    from irrepro.routing.headers import run_header
    from irrepro.routing.implementations import get
    from irrepro.routing.pipeline import RunSettings, run_system
    from irrepro.runs import write_run

    given = _given_metadata(args)  # a wrong file fails before any run is made
    constellation = by_name(args.preset)
    implementation = get(args.implementation)
    roles = TRAINING_COLLECTIONS[args.system]
    if args.target in standin.ROLES:
        stand_in = standin.load(text=implementation.text)
        training = stand_in.training
        target = stand_in.collections[args.target]
        where = "the Reuters-21578 stand-in"
    else:
        from irrepro.routing.config import configured_collections, find_config

        try:
            _, collections = configured_collections([*roles, args.target], args.config, implementation=implementation)
        except UnicodeDecodeError as error:  # the TOML reader does not say which file
            raise InputError(f"{find_config(args.config)}: not UTF-8 text (byte {error.start})") from error
        training = {role: collections[role] for role in roles}
        target = collections[args.target]
        where = "your configured corpora"
    options = {"constellation": constellation, "augment": args.augment, "preprocess": args.preprocess,
               "tol_scale": args.tol_scale, "k": args.depth, "min_df": args.min_df, "progress": not args.quiet,
               "implementation": implementation}
    if args.tag:
        options["run_tag"] = args.tag
    result = run_system(args.system, training, target, **options)
    tag = result.run["run"].iat[0] if len(result.run) else (args.tag or args.system)
    settings = RunSettings.resolve(implementation, **{name: options[name] for name in
                                   ("constellation", "augment", "preprocess", "tol_scale", "k", "min_df")})  # fmt: skip
    header = None if given is False else run_header(settings, result, given=given)
    write_run(result.run, args.out, name=tag, metadata=header)
    implemented = "" if implementation.name == "paper" else f", implementation {implementation.name}"
    print(f"{args.system} on {args.target} ({where}), preset {constellation.name}{implemented}"
          f"{', augmented' if args.augment else ''}{'' if args.preprocess else ', no preprocessing'}"
          f"{', tol on the summed loss' if result.parameters['tol_scale'] == 'sum' else ''}: {len(result.topics)} topics, {result.n_features} features, "
          f"{result.n_target_documents} documents ranked, {len(result.run)} lines -> {args.out}")
    for topic, reason in result.skipped.items():
        print(f"skipped topic {topic}: {reason}")
    if result.not_converged:
        print(f"the solver reached max_iter for {len(result.not_converged)} topic(s): {', '.join(result.not_converged)}")
    for name, count in result.collapsed.items():
        if count:
            print(f"{count} document(s) of {name} dropped for a repeated id (the last one kept)")
    for name, count in result.missing_judged.items():
        if count:
            print(f"{count} judged document(s) of {name} not found in the corpus")
    if target.qrels is not None and len(result.run):
        from irrepro.evaluation import evaluate

        scores = evaluate({tag: result.run}, target.qrels)
        print("  ".join(f"{measure} {frame[tag].mean():.4f}" for measure, frame in scores.items()))
    return 0


def _corpora(args) -> int:
    from irrepro.routing import standin

    for name, role in standin.ROLES.items():
        print(f"{name}\tReuters-21578 stand-in for {role}")
    from irrepro.routing.config import ConfigError, find_config, read_config

    try:
        path = find_config(args.config)
    except ConfigError as error:
        if args.config:  # a file the user named must be there; the default one may be absent
            raise
        print(f"(no configured corpora: {error})", file=sys.stderr)
        return 0
    try:
        settings = read_config(path)
    except UnicodeDecodeError as error:  # the TOML reader does not say which file
        raise InputError(f"{path}: not UTF-8 text (byte {error.start})") from error
    for name, setting in settings.items():
        print(f"{name}\t{setting.format}\t{', '.join(map(str, setting.paths))}\tqrels {setting.qrels}")
    return 0


def _grid_corpora(args):
    """The grid's corpora (the stand-in, or the configured ones) and how the manifest names them."""
    from irrepro.routing import standin
    from irrepro.routing.experiment import ConfiguredCorpora, StandInCorpora

    stand_in = [target in standin.ROLES for target in args.targets]
    if all(stand_in):
        return StandInCorpora(), "Reuters-21578 stand-in"
    if any(stand_in):
        raise InputError("--targets: the stand-in's corpora and your configured ones cannot be mixed in one grid")
    from irrepro.routing.config import configured_collections
    from irrepro.routing.implementations import get

    names = tuple(dict.fromkeys([role for s in args.systems for role in TRAINING_COLLECTIONS[s]] + list(args.targets)))
    try:  # check the configuration here, before any worker starts
        path, _ = configured_collections(names, args.config, implementation=get(args.implementation))
    except UnicodeDecodeError as error:
        raise InputError(f"configuration: not UTF-8 text (byte {error.start})") from error
    return ConfiguredCorpora(str(path.resolve()), names), f"configured corpora ({path.resolve()})"


def _memory_settings(args) -> str:
    """The settings that decide the workers' memory (for a lost-workers error)."""
    if args.scheduler:
        return f"the workers of {args.scheduler}: start them with a larger 'dask worker --memory-limit'"
    from irrepro.routing.experiment import default_workers

    limit = args.memory_limit
    shown = "auto (the machine's memory shared)" if limit in (None, "auto") else f"{limit / 2**20:g}MiB"
    return f"now --memory-limit {shown} with --workers {args.workers or default_workers()}; e.g. --memory-limit 2GiB"


def _grid(args) -> int:
    from pathlib import Path

    from irrepro.routing.experiment import WorkersLostError, dashboard_available, local_cluster, worker_count
    from irrepro.routing.grid import plan, run_grid

    if args.scheduler and (args.workers or args.memory_limit):
        raise InputError("--workers and --memory-limit set up a local cluster; with --scheduler the cluster's workers run the grid")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out: {out} is not a folder")
    given = _given_metadata(args)
    corpora, label = _grid_corpora(args)
    runs = plan(args.systems, args.targets, [by_name(name) for name in args.constellations],
                preprocess=args.preprocess, implementation=args.implementation)  # fmt: skip
    with local_cluster(workers=args.workers, memory_limit=args.memory_limit, scheduler=args.scheduler) as client:
        where = args.scheduler or "a local cluster"
        print(f"{len(runs)} runs on {label}; {worker_count(client)} workers on {where}")
        if dashboard_available():
            print(f"dashboard: {client.dashboard_link}")
        elif not args.scheduler:
            print("no dashboard: it needs bokeh, which is not installed (pip install bokeh)")
        try:
            report = run_grid(corpora, runs, out, client=client, corpora_label=label, progress=not args.quiet,
                              headers=given is not False, given=given or None)
        except WorkersLostError as error:
            raise InputError(f"{error} ({_memory_settings(args)})") from error
    print(f"{report.made} runs made, {report.skipped} finished before and skipped; {report.feature_sets} feature sets "
          f"built for them ({report.saved_share:.0%} of the tasks' CPU time saved by sharing); {report.wall_seconds:.1f} s "
          f"-> {out}")
    return 0


def run(args) -> int:
    """Run ``irrepro routing`` with the parsed arguments.

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
    return {"run": _run, "grid": _grid, "corpora": _corpora}[args.action](args)
