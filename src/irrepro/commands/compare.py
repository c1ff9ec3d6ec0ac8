"""``irrepro compare``: the SIGIR 2020 reproducibility measures for four run files.

Without ``--new-qrels`` the new runs replicate the originals on the same collection
(replicability: ARP, KTU, RBO, RMSE, ER, DeltaRI, paired t-test); with it they reproduce them on
another collection (reproducibility: ARP, ER, DeltaRI, unpaired t-test).
"""

from __future__ import annotations

import json
from pathlib import Path

NAME = "compare"
HELP = "replicability/reproducibility measures (Breuer et al., SIGIR 2020) of an original and a new run pair"


def add_arguments(parser) -> None:
    parser.add_argument("--qrels", required=True, type=Path, help="qrels of the original collection")
    parser.add_argument("--orig-baseline", required=True, type=Path, help="original baseline run (b)")
    parser.add_argument("--orig-advanced", required=True, type=Path, help="original advanced run (a)")
    parser.add_argument("--new-baseline", required=True, type=Path, help="replicated/reproduced baseline run (b')")
    parser.add_argument("--new-advanced", required=True, type=Path, help="replicated/reproduced advanced run (a')")
    parser.add_argument("--new-qrels", type=Path, help="qrels of the new collection (reproducibility); omit for replicability")
    parser.add_argument("--measures", default="AP,P@10,nDCG", help="comma-separated measures (default AP,P@10,nDCG)")
    parser.add_argument("--cutoff", type=int, default=1000, help="depth of KTU and RBO (default 1000)")
    parser.add_argument("--rbo-p", type=float, default=0.8, help="RBO persistence p (default 0.8)")
    parser.add_argument(
        "--rbo-variant", default="ext", choices=("ext", "min", "trunc", "sigir2020"), help="RBO form (default ext)"
    )
    parser.add_argument(
        "--missing-topics", default="zero", choices=("zero", "drop"),
        help="a judged topic a run lacks: scored 0 (trec_eval -c, default) or left out (trec_eval default)",
    )
    parser.add_argument("--format", default="table", choices=("table", "json"), help="output format (default table)")


def run(args) -> int:
    from irrepro.reproducibility.compare import compare_runs
    from irrepro.runs import read_qrels, read_run

    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    if not measures:
        raise ValueError("--measures: give at least one measure")
    comparison = compare_runs(
        read_run(args.orig_baseline),
        read_run(args.orig_advanced),
        read_run(args.new_baseline),
        read_run(args.new_advanced),
        read_qrels(args.qrels),
        new_qrels=read_qrels(args.new_qrels) if args.new_qrels else None,
        measures=measures,
        cutoff=args.cutoff,
        rbo_p=args.rbo_p,
        rbo_variant=args.rbo_variant,
        missing_topics=args.missing_topics,
    )
    if args.format == "json":
        print(json.dumps(comparison.to_json(), indent=2, allow_nan=False))
    else:
        print(comparison.to_table())
    return 0
