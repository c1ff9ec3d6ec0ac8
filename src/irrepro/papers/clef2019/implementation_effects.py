"""What the authors' code did that the CLEF paper does not say, each choice measured on the stand-in.

:mod:`irrepro.routing.implementations` lists every divergence between the CLEF 2019 paper's text and
the authors' code (2019 and 2020) with the paper's words and the code's file and line. Here each
divergence that can be switched is measured alone: WCrobust0405 on the stand-in's near target (NYT
role), run with the ``paper`` implementation (the run *without*) and with that one choice switched to
the code's (:func:`~irrepro.routing.implementations.switched`, the run *with*); the two are compared by
MAP and by the SIGIR 2020 measures of a replication: KTU and RBO (p = 0.8) of the top-1,000 lists and
RMSE of per-topic AP (:func:`implementation_effects`). The three complete implementations are then
compared with each other on both systems (:func:`implementation_comparison`): KTU, RBO and RMSE of
WCrobust0405 and the Effect Ratio of WCrobust0405's improvement over WCrobust04.

What each run did differently is read from its ir_metadata header (:mod:`irrepro.routing.headers`,
built from the settings the run used, as for every run file irrepro writes): the ``method`` fields
that differ between the run with a choice and the run without it (``method fields that differ``),
and between two implementations' runs. So the tables say what the runs did, not what a second list
says they should do; the tests check that each switch changes exactly the fields of its choices.

The runs (one per switchable divergence, two per implementation) are made in this process and kept
with the chapter's other stand-in runs (:func:`~irrepro.papers.clef2019.routing_data.stand_in`), so
the ``paper`` runs are those of the chapter's tables and a choice that changes only the classifier or
the ranking reuses the ``paper`` run's features; the stand-in is read with each implementation's text
rule. Each run is the one :func:`irrepro.routing.standin.run` makes with the same implementation, under
another tag (tested).
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from irrepro.evaluation import evaluate
from irrepro.metadata import Metadata, differences
from irrepro.papers.clef2019.published_facts import NEAR
from irrepro.papers.clef2019.routing_data import stand_in
from irrepro.reproducibility import ranking, scores
from irrepro.reproducibility.compare import compare_pairs
from irrepro.routing import implementations, standin
from irrepro.routing.constellations import TRAINING_COLLECTIONS
from irrepro.routing.experiment import RunRequest
from irrepro.routing.headers import run_header

__all__ = [
    "BASELINE_SYSTEM",
    "DEPTH",
    "EFFECT_COLUMNS",
    "IMPLEMENTATION_PAIRS",
    "RBO_P",
    "SYSTEM",
    "TARGET",
    "implementation_comparison",
    "implementation_effects",
    "stand_in_runs",
    "stand_in_headers",
    "method_differences",
]

SYSTEM, BASELINE_SYSTEM = "wcrobust0405", "wcrobust04"
TARGET = "reuters-near"  # the near target (role NEAR, "core17"), in the NYT role: a replication
DEPTH, RBO_P = 1000, 0.8  # as the SIGIR 2020 measures of the chapter's own dataset
#: the pairs of implementations compared: (original, new)
IMPLEMENTATION_PAIRS: tuple[tuple[str, str], ...] = (("paper", "clef2019"), ("paper", "sigir2020"), ("clef2019", "sigir2020"))
EFFECT_COLUMNS = ("divergence", "paper", "code", "source", "MAP_without", "MAP_with", "KTU", "RBO", "RMSE:AP")


def _switchable() -> list[str]:
    return [row.name for row in implementations.DIVERGENCES if row.switch is not None]


def _requests() -> dict[tuple[str, str], RunRequest]:
    """``(system, choice) -> request``, where ``choice`` is an implementation name or ``+<divergence>``
    (``paper`` with that divergence switched); every run ranks the near target."""
    choices = [(SYSTEM, f"+{name}") for name in _switchable()]
    choices += [(system, name) for system in (BASELINE_SYSTEM, SYSTEM) for name in implementations.IMPLEMENTATIONS]
    return {
        (system, choice): RunRequest(TRAINING_COLLECTIONS[system], NEAR, implementation=(
            implementations.switched(choice[1:]) if choice.startswith("+") else choice))
        for system, choice in choices
    }  # fmt: skip


def stand_in_runs() -> dict[tuple[str, str], pd.DataFrame]:
    """Give every run of this module, made once per process in the chapter's run cache.

    Returns
    -------
    dict of (str, str) -> pandas.DataFrame
        ``(system, choice) -> run frame``, where ``choice`` is an implementation name or
        ``+<divergence>`` (``paper`` with that divergence switched).
    """
    data = stand_in()
    requests = _requests()
    data.prefetch(list(requests.values()))
    return {key: data.result(request).run for key, request in requests.items()}


def stand_in_headers() -> dict[tuple[str, str], Metadata]:
    """Give the ir_metadata header of each run of :func:`stand_in_runs`, by the same keys.

    Returns
    -------
    dict of (str, str) -> Metadata
        The headers, from the same runs (made once).
    """
    data = stand_in()
    requests = _requests()
    data.prefetch(list(requests.values()))
    return {key: run_header(request.settings, data.result(request)) for key, request in requests.items()}


def method_differences(reference: Metadata, other: Metadata) -> str:
    """List the ``method`` fields in which two runs' headers differ.

    Parameters
    ----------
    reference, other : Metadata
        The two headers.

    Returns
    -------
    str
        The fields, ``; ``-separated (``method →`` left off).
    """
    return "; ".join(path.removeprefix("method \u2192 ") for path, _, _ in differences(reference, other, component="method"))


def _qrels() -> pd.DataFrame:
    return standin.load().collections[TARGET].qrels


def _ap(runs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per-topic AP, topics x runs (topics without a relevant story dropped, missing ones 0)."""
    return evaluate(runs, _qrels(), ("AP",))["AP"]


def implementation_effects() -> pd.DataFrame:
    """Measure the effect of each divergence on WCrobust0405, one row per divergence.

    ``MAP_without``: WCrobust0405 with the ``paper`` implementation; ``MAP_with``: the same with the one
    choice switched; ``KTU``, ``RBO``: their means over topics (top 1,000); ``RMSE:AP``: of per-topic AP;
    ``method fields that differ``: between the two runs' ir_metadata headers (:func:`method_differences`).
    Rows that cannot be switched (no measure sees them, or irrepro cannot emulate them) keep NaN.
    Computed once per process (a copy each call): the chapter's table, the files of ``irrepro
    reproduce`` and an exercise's reference answer read it.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`EFFECT_COLUMNS`, then ``method fields that differ``, ``implementations`` and
        ``note``.
    """
    return _effects().copy()


@lru_cache(maxsize=1)
def _effects() -> pd.DataFrame:
    """:func:`implementation_effects`' table, made once (its runs are the run cache's, deterministic)."""
    runs, headers = stand_in_runs(), stand_in_headers()
    without = runs[(SYSTEM, "paper")]
    switched = {name: runs[(SYSTEM, f"+{name}")] for name in _switchable()}
    ap = _ap({"paper": without, **switched})
    ktu = ranking.kendall_tau_union(without, switched, depth=DEPTH)
    rbo = ranking.rbo(without, switched, p=RBO_P, depth=DEPTH)
    table = implementations.divergences()
    rows = []
    for row in table.itertuples(index=False):
        measured = row.divergence in switched
        rows.append({
            "divergence": row.divergence, "paper": row.paper, "code": row.code, "source": row.source,
            "MAP_without": float(ap["paper"].mean()),
            "MAP_with": float(ap[row.divergence].mean()) if measured else float("nan"),
            "KTU": float(ktu[row.divergence].mean()) if measured else float("nan"),
            "RBO": float(rbo[row.divergence].mean()) if measured else float("nan"),
            "RMSE:AP": float(scores.rmse(ap["paper"], ap[row.divergence])) if measured else float("nan"),
            "method fields that differ": method_differences(headers[(SYSTEM, "paper")], headers[(SYSTEM, f"+{row.divergence}")])
            if measured else "", "implementations": row.implementations, "note": row.note,
        })  # fmt: skip
    return pd.DataFrame(rows)


def implementation_comparison() -> pd.DataFrame:
    """Compare the three implementations' runs pairwise (:data:`IMPLEMENTATION_PAIRS`) as a replication.

    Returns
    -------
    pandas.DataFrame
        MAP of both systems under each, KTU, RBO and RMSE:AP of WCrobust0405, ER:AP of the
        improvement of WCrobust0405 over WCrobust04 (1: the new implementation reproduces the
        original's effect), and the method fields in which the two WCrobust0405 runs' ir_metadata
        headers differ.
    """
    runs, headers = stand_in_runs(), stand_in_headers()
    ap = _ap({f"{system} {name}": runs[(system, name)] for system in (BASELINE_SYSTEM, SYSTEM)
              for name in implementations.IMPLEMENTATIONS})  # fmt: skip
    rows = []

    def pair(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        return runs[(BASELINE_SYSTEM, name)], runs[(SYSTEM, name)]

    for original, new in IMPLEMENTATION_PAIRS:
        orig_baseline, orig_advanced = pair(original)
        comparison = compare_pairs(orig_baseline=orig_baseline, orig_advanced=orig_advanced, pairs={new: pair(new)}, qrels=_qrels(),
                                   measures=("AP",), cutoff=DEPTH, rbo_p=RBO_P)[new]  # fmt: skip
        rows.append({
            "original": original, "new": new,
            "MAP WCrobust04 (original)": float(ap[f"{BASELINE_SYSTEM} {original}"].mean()),
            "MAP WCrobust04 (new)": float(ap[f"{BASELINE_SYSTEM} {new}"].mean()),
            "MAP WCrobust0405 (original)": float(ap[f"{SYSTEM} {original}"].mean()),
            "MAP WCrobust0405 (new)": float(ap[f"{SYSTEM} {new}"].mean()),
            "KTU": float(comparison.ktu["advanced"].mean()), "RBO": float(comparison.rbo["advanced"].mean()),
            "RMSE:AP": comparison.rmse["advanced"]["AP"], "ER:AP": comparison.er["AP"],
            "method fields that differ": method_differences(headers[(SYSTEM, original)], headers[(SYSTEM, new)]),
        })  # fmt: skip
    return pd.DataFrame(rows)
