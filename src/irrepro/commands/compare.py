"""``irrepro compare``: the SIGIR 2020 reproducibility measures for four run files.

Without ``--new-qrels`` the new runs replicate the originals on the same collection
(replicability: ARP, KTU, RBO, RMSE and beside it nRMSE, ER, DeltaRI, paired t-test); with it
they reproduce them on another collection (reproducibility: ARP, ER, DeltaRI, unpaired t-test).

When all four runs carry ir_metadata headers (:mod:`irrepro.metadata`), their PRIMAD strings
decide instead (new against original run, component by component, as repro_eval compares them):
new runs on the original test collection are measured for replicability, on another for
reproducibility, and the kind of experiment is named (parameter sweep, replicability,
reproducibility, ...). Headers and ``--new-qrels`` that disagree are an error (exit 2);
``--ignore-metadata`` decides by ``--new-qrels`` alone.

Both formats name each run by role, label (its run tag, told apart by file name or path where
tags collide: :func:`irrepro.labels.run_labels`) and file, with the number of topics its ARP
averages, and say how the setting was decided (``experiment``). ``--format json`` is strict JSON:
an undefined value (ER with zero original improvement, ...) is ``null``; its keys are ``runs`` (per
role: ``label``, ``file``, ``n_topics``, ``topics``), ``qrels``, ``new_qrels``, ``missing_topics``,
``no_relevant``, ``experiment`` (``primad`` per run kind or ``null``, ``kinds``, ``same_collection``,
``decided_by`` and the sentence ``text``), then those of
:meth:`irrepro.reproducibility.compare.Comparison.to_json`, then ``notes``.
"""

from __future__ import annotations

from irrepro.commands._common import (
    InputError,
    add_no_relevant,
    dump_json,
    input_path,
    measure_list,
    option,
    read_input,
    run_experiment,
    settle_setting,
)
from irrepro.validation import MAX_CUTOFF, Integer, Real

__all__ = ["NAME", "HELP", "ROLES", "RBO_VARIANTS", "add_arguments", "run"]

NAME = "compare"
HELP = "replicability/reproducibility measures (Breuer et al., SIGIR 2020) of an original and a new run pair"
ROLES = ("orig_baseline", "orig_advanced", "new_baseline", "new_advanced")
#: irrepro.reproducibility.ranking.RBO_VARIANTS, repeated so that building the parser imports no
#: numpy (a test checks that the two agree).
RBO_VARIANTS = ("ext", "min", "trunc", "sigir2020")


def add_arguments(parser) -> None:
    """Add the options of ``irrepro compare`` to its sub-parser.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-parser of ``compare``.
    """
    parser.add_argument("--qrels", required=True, type=input_path, help="qrels of the original collection")
    parser.add_argument("--orig-baseline", required=True, type=input_path, help="original baseline run (b)")
    parser.add_argument("--orig-advanced", required=True, type=input_path, help="original advanced run (a)")
    parser.add_argument("--new-baseline", required=True, type=input_path, help="replicated/reproduced baseline run (b')")
    parser.add_argument("--new-advanced", required=True, type=input_path, help="replicated/reproduced advanced run (a')")
    parser.add_argument("--new-qrels", type=input_path, help="qrels of the new collection (reproducibility); omit for replicability")
    parser.add_argument("--measures", type=measure_list, default="AP,P@10,nDCG", help="comma-separated measures (default AP,P@10,nDCG)")
    parser.add_argument(
        "--cutoff", type=option(Integer(1, MAX_CUTOFF)), default=1000,
        help="depth of KTU and RBO, an integer from 1 (2 with --rbo-variant sigir2020) to 2147483647 (default 1000)",
    )
    parser.add_argument(
        "--rbo-p", type=option(Real(0.0, 1.0, closed="neither")), default=0.8,
        help="RBO persistence p, a number in (0, 1) (default 0.8)",
    )
    parser.add_argument("--rbo-variant", default="ext", choices=RBO_VARIANTS, help="RBO form (default ext)")
    parser.add_argument(
        "--missing-topics", default="zero", choices=("zero", "drop"),
        help="a judged topic a run lacks: scored 0 ('zero', the default, as trec_eval -c) or left out of its mean "
        "('drop', trec_eval's own default)",
    )
    add_no_relevant(parser)
    parser.add_argument("--format", default="table", choices=("table", "json"), help="output format (default table)")
    parser.add_argument("--ignore-metadata", action="store_true",
                        help="decide replicability/reproducibility by --new-qrels alone, not by the runs' ir_metadata headers")


def run(args) -> int:
    """Run ``irrepro compare`` with the parsed arguments.

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
    if args.rbo_variant == "sigir2020" and args.cutoff < 2:  # RBO on the top cutoff - 1 documents
        raise InputError(f"--cutoff must be at least 2 with --rbo-variant sigir2020; got {args.cutoff}")
    from irrepro.labels import run_labels
    from irrepro.reproducibility.compare import compare_runs
    from irrepro.runs import read_qrels, read_run

    paths = {role: getattr(args, role) for role in ROLES}
    frames = {role: read_input(read_run, path, "--" + role.replace("_", "-")) for role, path in paths.items()}
    qrels = read_input(read_qrels, args.qrels, "--qrels")
    new_qrels = read_input(read_qrels, args.new_qrels, "--new-qrels") if args.new_qrels is not None else None
    experiment = run_experiment(**frames, ignore=args.ignore_metadata)
    decided = settle_setting(experiment, new_qrels=new_qrels is not None)
    comparison = compare_runs(
        **frames, qrels=qrels, new_qrels=new_qrels, measures=args.measures, cutoff=args.cutoff,
        rbo_p=args.rbo_p, rbo_variant=args.rbo_variant, missing_topics=args.missing_topics, no_relevant=args.no_relevant,
    )
    labels = run_labels([frame["run"].iat[0] for frame in frames.values()], list(paths.values()))
    runs = {
        role: {"label": label, "file": str(paths[role]), "n_topics": len(comparison.topics[role]), "topics": list(comparison.topics[role])}
        for role, label in zip(ROLES, labels, strict=True)
    }  # fmt: skip
    if args.format == "json":
        files = {"qrels": str(args.qrels), "new_qrels": None if args.new_qrels is None else str(args.new_qrels),
                 "missing_topics": args.missing_topics, "no_relevant": args.no_relevant}  # fmt: skip
        print(dump_json({"runs": runs, **files, "experiment": _experiment_json(experiment, decided),
                         **comparison.to_json(), "notes": comparison.notes}))
    else:
        width = max(len(role) for role in ROLES)
        lines = ["runs (the topics each one's ARP averages)"]
        lines += [f"  {role:<{width}}  {run['label']}  ({run['file']}), {run['n_topics']} topics" for role, run in runs.items()]
        print("\n".join(lines) + f"\n\nexperiment: {decided}\n\n" + comparison.to_table())
    return 0


def _experiment_json(experiment, decided: str) -> dict:
    derived = experiment.primad is not None
    return {
        "primad": dict(zip(("baseline", "advanced"), experiment.primad, strict=True)) if derived else None,
        "kinds": dict(zip(("baseline", "advanced"), (k.name for k in experiment.kinds), strict=True)) if derived else None,
        "same_collection": experiment.same_collection,
        "decided_by": "ir_metadata" if derived else "--new-qrels",
        "text": decided,
    }
