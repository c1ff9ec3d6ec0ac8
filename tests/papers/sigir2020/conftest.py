"""Independent readers of the authors' raw files: tests recompute from them with plain pandas and NumPy."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.data import fetch

PRINTED = {  # the paper's row suffix -> constellation id (the authors' README table)
    "tf_1": 45, "tf_2": 46, "tf_3": 47, "tf_4": 48, "tf_5": 49, "df_1": 14, "df_2": 15, "df_3": 16, "df_4": 17,
    "df_5": 18, "tol_1": 39, "tol_2": 38, "tol_3": 37, "tol_4": 36, "tol_5": 35, "C_1": 44, "C_2": 43, "C_3": 42,
    "C_4": 41, "C_5": 40,
}  # fmt: skip


def raw(name: str) -> pd.DataFrame:
    """A published file as it is: first column (the topic) as a string index."""
    frame = pd.read_csv(fetch(name))
    return frame.set_index(frame.columns[0]).rename(index=str)


@pytest.fixture(scope="session")
def written(tmp_path_factory):
    """``irrepro reproduce sigir2020``'s files, written once for the session: (folder, paths)."""
    from irrepro.papers import sigir2020

    out = tmp_path_factory.mktemp("sigir2020")
    return out, sigir2020.write_tables(out)
