"""Independent references for the GLM chapter's tables: statsmodels' GLM and plain NumPy ANOVA."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from irrepro.glm.fit import dense_design, make_family


def statsmodels_fit(scores: pd.DataFrame, link: str):
    """statsmodels' own GLM (Gaussian family) on the dense treatment-coded design of ``scores``."""
    y, design = dense_design(scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sm.GLM(y, design, family=make_family("gaussian", link)).fit(tol=1e-12)


def anova_residuals(scores: pd.DataFrame) -> np.ndarray:
    """Residuals of the additive two-way model by double centring (balanced layout), topic-major."""
    values = scores.to_numpy(dtype=float)
    centred = values - values.mean(axis=1, keepdims=True) - values.mean(axis=0, keepdims=True) + values.mean()
    return centred.ravel()


@pytest.fixture(scope="session")
def written(tmp_path_factory):
    """``irrepro reproduce glm --out DIR``, run once for the session in this process: the folder."""
    from irrepro.cli import main

    out = tmp_path_factory.mktemp("glm")
    assert main(["reproduce", "glm", "--out", str(out)]) == 0
    return out


def read(folder, name: str) -> pd.DataFrame:
    return pd.read_csv(folder / f"{name}.csv")
