"""Speed of the two-way GLM fitter against statsmodels' GLM on Robust04 (one run, numbers printed).

Usage: .venv/bin/python benchmarks/bench_glm.py [--links identity,logit] [--repeat 5] [--peer-repeat 1]

Data: Robust04 AP, 249 topics x 110 runs = 27,390 observations, 358 parameters. statsmodels fits the
same model with the dense treatment-coded design (``irrepro.glm.fit.dense_design``), Gaussian family,
default IRLS. BLAS is pinned to one thread for both (2 shared cores). The measuring is
:func:`perf.glm.compare_glm`, which the book's Performance page runs too.
"""

from __future__ import annotations

import argparse

from perf.glm import compare_glm


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--links", default="identity,logit")
    parser.add_argument("--repeat", type=int, default=5, help="irrepro's fits per link (median of)")
    parser.add_argument("--peer-repeat", type=int, default=1, help="statsmodels' fits per link (median of)")
    args = parser.parse_args()
    for link in args.links.split(","):
        result = compare_glm("Robust04", "AP", link=link, repeats=args.repeat, peer_repeats=args.peer_repeat)
        c = result.comparison
        print(
            f"{link:9s} two-way IRLS {c.ours * 1000:8.1f} ms  statsmodels {c.theirs:7.2f} s  ratio {c.ratio:7.0f}x  "
            f"relative deviance difference {result.relative_deviance_difference:.1e}  ({c.input_size}, {result.observations:,} observations)"
        )


if __name__ == "__main__":
    main()
