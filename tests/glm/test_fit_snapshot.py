"""``fit_two_way`` keeps its numbers when its code is reorganised: a snapshot of earlier results.

``snapshots/fit_two_way.json`` holds the deviance, iterations, convergence, dispersion, system
effects and standard errors that the fitter gave for four small score matrices (seeded, built
below) before ``fit_two_way`` was split into named IRLS steps. On the machine that wrote it the
split fitter reproduces them bit for bit; the test allows a relative 1e-12 so that another CPU's
BLAS kernels (a different summation order in one matrix product) do not fail it, and asks for the
same iteration count and convergence exactly.

Regenerate only on purpose, with the fitter whose results are the reference:
``python -m tests.glm.test_fit_snapshot``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from threadpoolctl import threadpool_limits

from irrepro.glm.fit import fit_two_way
from irrepro.glm.links import LINK_NAMES

SNAPSHOT = Path(__file__).with_name("snapshots") / "fit_two_way.json"
SIGMOID_LINKS = ("logit", "probit", "cauchit")


def _precision_like(seed: int, n_topics: int = 24, n_systems: int = 12) -> pd.DataFrame:
    """P@10-like scores: tenths, with single zeros and ones but no all-zero topic or system."""
    rng = np.random.default_rng(seed)
    ability = rng.uniform(0.05, 0.6, size=n_systems)
    difficulty = rng.uniform(0.2, 1.5, size=n_topics)
    chance = np.clip(difficulty[:, None] * ability[None, :], 0, 1)
    return pd.DataFrame(
        rng.binomial(10, chance) / 10,
        index=[f"t{i}" for i in range(n_topics)],
        columns=[f"s{j}" for j in range(n_systems)],
    )


def _ap_like(seed: int, n_topics: int = 30, n_systems: int = 9) -> pd.DataFrame:
    """AP-like continuous scores in (0, 1) with a few exact zeros."""
    rng = np.random.default_rng(seed)
    values = rng.beta(1.2, 3.0, size=(n_topics, n_systems))
    values[rng.uniform(size=values.shape) < 0.03] = 0.0
    return pd.DataFrame(values, index=[f"t{i}" for i in range(n_topics)], columns=[f"s{j}" for j in range(n_systems)])


def cases() -> dict[str, tuple[pd.DataFrame, dict]]:
    """name -> (scores, keyword arguments of fit_two_way)."""
    precision, ap = _precision_like(0), _ap_like(1)
    found = {}
    for link in LINK_NAMES:
        found[f"precision/gaussian/{link}"] = (precision, {"link": link})
        found[f"ap/gaussian/{link}"] = (ap, {"link": link})
    for link in SIGMOID_LINKS:
        found[f"precision/quasibinomial/{link}"] = (precision, {"link": link, "family": "quasibinomial"})
    found["precision/gaussian/cauchit/3-iterations"] = (precision, {"link": "cauchit", "max_iter": 3})  # not converged
    return found


def summary(scores: pd.DataFrame, options: dict) -> dict:
    with threadpool_limits(limits=1, user_api="blas"):
        fit = fit_two_way(scores, **options)
    return {
        "deviance": float(fit.deviance).hex(),
        "iterations": fit.iterations,
        "converged": fit.converged,
        "scale": float(fit.scale).hex(),
        "system_effects": [float(v).hex() for v in fit.system_effects],
        "system_se": [float(v).hex() for v in fit.system_se],
    }


def _floats(values) -> np.ndarray:
    return np.array([float.fromhex(v) for v in (values if isinstance(values, list) else [values])])


@pytest.fixture(scope="module")
def snapshot() -> dict:
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def test_snapshot_covers_every_case(snapshot):
    assert set(snapshot) == set(cases())


@pytest.mark.parametrize("name", sorted(cases()))
def test_fit_two_way_gives_the_snapshots_numbers(name, snapshot):
    scores, options = cases()[name]
    now, before = summary(scores, options), snapshot[name]
    assert (now["iterations"], now["converged"]) == (before["iterations"], before["converged"])
    for key in ("deviance", "scale", "system_effects", "system_se"):
        np.testing.assert_allclose(_floats(now[key]), _floats(before[key]), rtol=1e-12, atol=0, err_msg=f"{name}: {key}")


if __name__ == "__main__":  # regenerate the snapshot (see the module docstring)
    SNAPSHOT.parent.mkdir(exist_ok=True)
    records = {name: summary(scores, options) for name, (scores, options) in cases().items()}
    SNAPSHOT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} cases to {SNAPSHOT}")
