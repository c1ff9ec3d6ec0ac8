"""Speed of the two-way GLM fitter against statsmodels' GLM on Robust04 (one run, numbers printed).

Usage: .venv/bin/python benchmarks/bench_glm.py [--links logit,identity] [--repeat 5]

Data: Robust04 AP, 249 topics x 110 runs = 27,390 observations, 358 parameters. statsmodels fits the
same model with the dense treatment-coded design (``irrepro.glm.fit.dense_design``), Gaussian family,
default IRLS. BLAS is pinned to one thread for both (2 shared cores).
"""

from __future__ import annotations

import argparse
import time
import warnings

import statsmodels.api as sm
from threadpoolctl import threadpool_limits

from irrepro.glm.fit import dense_design, fit_two_way, make_family
from irrepro.papers.glm import load_scores


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--links", default="identity,logit")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    scores = load_scores("Robust04", "AP")
    y, design = dense_design(scores)
    print(f"Robust04 AP: {scores.shape[0]} topics x {scores.shape[1]} runs = {y.size} observations, {design.shape[1]} parameters")
    with threadpool_limits(limits=1, user_api="blas"):
        for link in args.links.split(","):
            start = time.perf_counter()
            for _ in range(args.repeat):
                fit = fit_two_way(scores, link=link)
            ours = (time.perf_counter() - start) / args.repeat
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                start = time.perf_counter()
                reference = sm.GLM(y, design, family=make_family("gaussian", link)).fit()
                theirs = time.perf_counter() - start
            relative = abs(fit.deviance - reference.deviance) / reference.deviance
            print(
                f"{link:9s} two-way IRLS {ours * 1000:8.1f} ms ({fit.iterations} it.)  statsmodels {theirs:7.2f} s "
                f"({reference.fit_history['iteration']} it.)  ratio {theirs / ours:7.0f}x  relative deviance difference {relative:.1e}"
            )


if __name__ == "__main__":
    main()
