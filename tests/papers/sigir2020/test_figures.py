"""The data of Figures 1-3: the paper's regions, and the Figure 3 diagnosis recomputed from the raw files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irrepro.papers import sigir2020
from irrepro.papers.claims import quote_occurs
from tests.papers.sigir2020.conftest import PRINTED, raw

NONZERO = st.floats(min_value=1e-6, max_value=1e3) | st.floats(min_value=-1e3, max_value=-1e-6)


def test_the_region_definitions_are_the_papers_words(paper_texts):
    for region, definition in sigir2020.REGION_DEFINITIONS.items():
        assert quote_occurs(definition, paper_texts["sigir2020"]), region
    assert quote_occurs("Therefore, the preferred region is Region 4", paper_texts["sigir2020"])
    for panel, statement in sigir2020.FIGURE2_PANEL_STATEMENTS.items():
        assert quote_occurs(statement, paper_texts["sigir2020"]), panel


@given(NONZERO, NONZERO)
def test_regions_are_the_quadrants_of_the_definitions(er, delta):
    region = sigir2020.er_deltari_region(pd.Series([er]), pd.Series([delta])).iloc[0]
    # Region 1: ER > 0 and DeltaRI > 0; 2: ER < 0 and DeltaRI > 0; 3: both < 0; 4: ER > 0 and DeltaRI < 0
    expected = {(True, True): 1, (False, True): 2, (False, False): 3, (True, False): 4}[(er > 0, delta > 0)]
    assert region == expected


def test_points_on_an_axis_have_no_region():
    regions = sigir2020.er_deltari_region(pd.Series([0.0, 1.0, np.nan]), pd.Series([0.5, 0.0, 0.1]))
    assert regions.isna().all()
    with pytest.raises(ValueError, match="differ in length"):
        sigir2020.er_deltari_region(pd.Series([1.0]), pd.Series([1.0, 2.0]))


def _expected_diagnosis() -> pd.DataFrame:
    """ER and DeltaRI (AP, Eqs. 6-7) of the printed reproduced pairs, with plain NumPy on the raw files."""
    a, b = (raw(f"sigir2020/measures_rpd/org_{run}_ap.csv").iloc[:, 0].to_numpy() for run in ("wcrobust0405", "wcrobust04"))
    baseline = raw("sigir2020/measures_rpd/rpd_wcrobust04_ap.csv")
    rows = {}
    for suffix, name in (("", "rpd_wcrobust0405_ap.csv"), ("_old", "rpd_wcrobust0405_ap_old.csv")):
        advanced = raw(f"sigir2020/measures_rpd/{name}")
        for run, k in PRINTED.items():
            a2, b2 = advanced[f"rpd_wcrobust0405_{k}"].to_numpy(), baseline[f"rpd_wcrobust04_{k}"].to_numpy()
            er = np.mean(a2 - b2) / np.mean(a - b)
            delta_ri = (a.mean() - b.mean()) / b.mean() - (a2.mean() - b2.mean()) / b2.mean()
            rows.setdefault(f"rpd_{run}", {}).update({f"ER:AP{suffix}": er, f"DeltaRI:AP{suffix}": delta_ri})
    return pd.DataFrame.from_dict(rows, orient="index")


def test_figure3_diagnosis_agrees_with_numpy_on_the_raw_files():
    diagnosis = sigir2020.figure3_diagnosis()
    assert list(diagnosis.columns) == ["ER:AP", "DeltaRI:AP", "region", "ER:AP_old", "DeltaRI:AP_old", "region_old"]
    assert list(diagnosis.index) == [f"rpd_{run}" for run in PRINTED]
    expected = _expected_diagnosis()
    for column in expected:
        np.testing.assert_allclose(diagnosis[column], expected.loc[diagnosis.index, column], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(
    ("run", "suffix"),
    [("rpd_tf_1", "_old"), ("rpd_df_2", "_old"), ("rpd_tf_4", "_old"), ("rpd_df_2", ""), ("rpd_C_3", "")],
)
def test_regions_of_some_points_by_hand(run, suffix):
    point = _expected_diagnosis().loc[run]
    er, delta = point[f"ER:AP{suffix}"], point[f"DeltaRI:AP{suffix}"]
    if er > 0 and delta > 0:
        expected = 1  # effect reproduced (somewhat), relative improvement not
    elif er < 0 and delta > 0:
        expected = 2  # failure on both
    elif er < 0:
        expected = 3
    else:
        expected = 4  # the preferred region
    assert sigir2020.figure3_diagnosis().at[run, f"region{suffix}"] == expected


def test_region_counts_count_the_diagnosis_and_the_points():
    diagnosis, regions = sigir2020.figure3_diagnosis(), sigir2020.figure3_regions("AP")
    for version, suffix in (("current", ""), ("old", "_old")):
        counts = diagnosis[f"region{suffix}"].value_counts()
        for region in (1, 2, 3, 4):
            assert regions.loc[version][f"region {region}"].sum() == counts.get(region, 0)
    assert regions.to_numpy().sum() == 2 * len(diagnosis)
    with pytest.raises(ValueError, match="only the AP points"):
        sigir2020.figure3_regions("nDCG")
    all_points = sigir2020.er_deltari_regions("rpd")
    assert all_points.to_numpy().sum() == 60 and list(all_points.columns) == list(sigir2020.REGION_LABELS)


def test_figure3_points_show_no_point_of_a_lost_file():
    points = sigir2020.figure3_points()
    assert set(points.loc[points["version"] == "old", "measure"]) == {"AP"}
    assert (points["version"] == "current").sum() == 60 and (points["version"] == "old").sum() == 20
    current = points[points["version"] == "current"].drop(columns=["version", "region"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(current, sigir2020.er_deltari_points("rpd"))


def test_figure2_panels_read_the_majority_region_of_the_replicability_points():
    panels = sigir2020.figure2_panels()
    points = sigir2020.er_deltari_points("rpl")
    for family, row in panels.iterrows():
        ap = points[(points["family"] == family) & (points["measure"] == "AP")]
        in_region1 = int(((ap["ER"] > 0) & (ap["DeltaRI"] > 0)).sum())
        assert row["fits (b)"] == (in_region1 >= 3)  # 5 points: a majority is 3
    families = sigir2020.panel_families()
    assert set(families) == {"a", "b"} and not set(families["a"]) & set(families["b"])


def test_cutoff_curves_cover_every_printed_run_and_cutoff():
    curves = sigir2020.cutoff_curves("WCrobust04")
    assert len(curves) == 20 * 6
    assert curves.groupby("run")["cutoff"].apply(list).map(lambda c: c == sorted(c)).all()
