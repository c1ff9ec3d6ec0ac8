"""Why the ``tol`` constellations collapse on this compendium's runs: ``tol`` on the mean loss against the summed loss.

scikit-learn 1.4 divided the logistic-regression objective by the number of training documents but
kept what ``tol`` bounds (:mod:`irrepro.routing.classifier`); :func:`tolerance_check` runs the default
and ``tol_1`` ... ``tol_5`` both ways and sets them beside the SIGIR 2020 authors' runs.
"""

from __future__ import annotations

import pandas as pd

from irrepro.data import fetch
from irrepro.papers.clef2019.published_facts import NEAR
from irrepro.papers.clef2019.routing_data import SYSTEM_NAMES, RoutingData, data_or_stand_in
from irrepro.papers.clef2019.run_requests import TOL_LEVELS, tolerance_requests
from irrepro.papers.datasets import file_part, sigir2020_file
from irrepro.routing.constellations import DEFAULT

__all__ = ["tolerance_check"]


def tolerance_check(data: RoutingData | None = None, *, system: str = "WCrobust0405") -> pd.DataFrame:
    """Show why the ``tol`` constellations collapse here: ``tol`` on the mean loss against ``tol`` on the summed loss.

    scikit-learn 1.4 divided the logistic-regression objective by the number of training documents
    but kept what ``tol`` bounds (L-BFGS-B's largest projected-gradient entry), see
    :mod:`irrepro.routing.classifier`. The default and ``tol_1`` ... ``tol_5`` runs of ``system`` on
    the near target, once as current scikit-learn applies ``tol`` (``tol_scale="mean"``) and once as
    scikit-learn < 1.4 did (``"sum"``).

    Parameters
    ----------
    data : RoutingData, optional
        The routing data and run cache; default: the stand-in.
    system : str, default "WCrobust0405"
        The system.

    Returns
    -------
    pandas.DataFrame
        lbfgs iterations per topic (median, and the topics stopped before the first step: min-max
        and median), MAP and its ratio to the default run of the same scale, next to the ratio of
        the SIGIR 2020 authors' runs (their published per-topic files, licensed NYT).
    """
    data = data_or_stand_in(data)
    key = next(k for k, name in SYSTEM_NAMES.items() if name == system)
    levels = TOL_LEVELS
    data.prefetch(tolerance_requests(key))
    published = pd.read_csv(fetch(sigir2020_file("rpl", key, file_part("AP"))))
    published_default = float(published[DEFAULT.dataset_column(system)].mean())
    rows = []
    for scale, loss in (("mean", "mean (scikit-learn >= 1.4)"), ("sum", "sum (scikit-learn < 1.4)")):
        default_map = None
        for constellation in levels:
            result = data.system_run(key, NEAR, constellation=constellation, tol_scale=scale)
            iterations = pd.Series(result.iterations, dtype="int64")
            ap = float(data.scores(result, NEAR)["AP"].mean())
            default_map = ap if constellation is DEFAULT else default_map
            rows.append(
                {
                    "loss tol bounds": loss,
                    "constellation": constellation.name,
                    "tol": constellation.tol,
                    "lbfgs iterations": f"{iterations.min()}-{iterations.max()} (median {iterations.median():g})",
                    "topics stopped before the first step": f"{int((iterations == 0).sum())} of {len(iterations)}",
                    "AP": ap,
                    "ratio to default": ap / default_map,
                    "ratio to default (SIGIR 2020)": float(published[constellation.dataset_column(system)].mean()) / published_default,
                    "data": f"{data.label} | SIGIR 2020 per-topic files (licensed NYT)",
                }
            )
    return pd.DataFrame(rows)
