"""``irrepro routing run|corpora``: the routing runs WCrobust04 / WCrobust0405 from the command line.

Corpus names are the Reuters-21578 stand-in's (``reuters-04``, ``reuters-05``, ``reuters-near``,
``reuters-far``; no licence needed) or those of the user's corpora configuration (see
``routing-corpora.example.toml`` and :mod:`irrepro.routing.config`)::

    irrepro routing run --system wcrobust04 --target reuters-near --out wcr04.run
    irrepro routing run --system wcrobust0405 --target core18 --preset tf_1 --config my.toml --out r.run
    irrepro routing run --system wcrobust04 --target reuters-far --no-preprocessing --out wcr04_plain.run
    irrepro routing run --system wcrobust0405 --target reuters-near --implementation clef2019 --out r.run

``--implementation`` chooses every choice of the pipeline at once (:mod:`irrepro.routing.implementations`):
``paper`` (default), ``clef2019`` or ``sigir2020``, the authors' code of the CENTRE@CLEF 2019 runs and
of the SIGIR 2020 dataset; the corpora are then read with that implementation's text rule.
"""

from __future__ import annotations

import sys

# Only light modules here: every ``irrepro`` command builds this parser, so the routing pipeline
# (scikit-learn, NLTK) is imported when a routing action runs, not at start-up.
from irrepro.commands._common import InputError, option
from irrepro.routing.constellations import DEFAULT, IMPLEMENTATION_NAMES, PRINTED, SYSTEMS, TOL_SCALES, by_name
from irrepro.validation import MAX_CUTOFF, Integer, Text

NAME = "routing"
HELP = "routing runs WCrobust04 / WCrobust0405 on the Reuters stand-in or on your own corpora"


def add_arguments(parser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    run = actions.add_parser("run", help="train per-topic classifiers and rank a target corpus into a TREC run")
    run.add_argument("--system", required=True, choices=sorted(SYSTEMS), type=str.lower)
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
    actions.add_parser("corpora", help="list the stand-in corpora and those of your configuration").add_argument(
        "--config", help="corpora configuration"
    )


def _run(args) -> int:
    from irrepro.routing import standin
    from irrepro.routing.implementations import get
    from irrepro.routing.pipeline import run_system
    from irrepro.runs import write_run

    constellation = by_name(args.preset)
    implementation = get(args.implementation)
    roles = SYSTEMS[args.system]
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
    write_run(result.run, args.out, name=tag)
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


def run(args) -> int:
    return _run(args) if args.action == "run" else _corpora(args)
