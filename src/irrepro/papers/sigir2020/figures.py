"""The data behind the paper's Figures 1-3, and the Figure 3 diagnosis with the authors' earlier AP file.

- Figure 1 (:func:`cutoff_curves`): KTU, RBO and RMSE of nDCG@k against the cut-off k.
- Figures 2 and 3 (:func:`er_deltari_points`, :func:`er_deltari_regions`): ER against DeltaRI of
  the printed constellation pairs, replicability (Figure 2) and reproducibility (Figure 3), and the
  four regions of the plane (:func:`er_deltari_region`, Section 3.3).
- Which families the panels (a) and (b) of Figure 2 can show (:func:`figure2_panels`): the paper's
  text does not name them, but states where the points approach (1, 0) in each panel.
- Figure 3 in two versions (:func:`figure3_points`, :func:`figure3_regions`, :func:`figure3_diagnosis`):
  from the published files and with the authors' earlier AP file of the reproduced WCrobust0405
  (``rpd_wcrobust0405_ap_old.csv``), the only measure of which both versions survive.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from irrepro.papers.datasets import CUTOFFS
from irrepro.papers.sigir2020.effects import effect_ratio_table
from irrepro.papers.sigir2020.published_scores import (
    MEASURES,
    PRINTED_IDS,
    VERSIONS,
    check_system,
    mean_agreement,
    replicated_runs,
)
from irrepro.reproducibility import scores
from irrepro.routing.constellations import FAMILIES, PRINTED, Constellation

__all__ = [
    "REGION_DEFINITIONS",
    "REGION_LABELS",
    "FIGURE2_PANEL_STATEMENTS",
    "cutoff_curves",
    "er_deltari_region",
    "er_deltari_points",
    "er_deltari_regions",
    "majority_region",
    "figure2_panels",
    "panel_families",
    "figure3_points",
    "figure3_regions",
    "figure3_diagnosis",
]

#: The paper's regions of the ER-DeltaRI plane (Section 3.3), in its words: the quadrants of the plane.
REGION_DEFINITIONS: dict[int, str] = {
    1: "ER >0 and DeltaRI >0, the replication is somehow successful in terms of effect sizes, but not in terms of "
    "absolute scores",
    2: "Region 2: ER <0 and DeltaRI >0, the replication is a failure both in terms of effect sizes and absolute scores",
    3: "Region 3: both ER <0 and DeltaRI <0, the replication is a failure in terms of effect sizes, but not in terms "
    "of absolute scores",
    4: "Region 4: ER >0 and DeltaRI <0, this means that the replication is somehow successful both in terms of effect "
    "sizes and absolute scores",
}
REGION_LABELS: tuple[str, ...] = ("region 1", "region 2", "region 3", "region 4", "on an axis")

#: What the paper says about the two panels of Figure 2 (Section 5.1), by panel.
FIGURE2_PANEL_STATEMENTS: dict[str, str] = {
    "a": "in Figure 2(a), for AP and nDCG the point (1,0) is reached from Region 4",
    "b": "in Figure 2(b), it is clear that for AP the point (1,0) is reached from Region 1",
}


def cutoff_curves(system: str) -> pd.DataFrame:
    """Compute the paper's Figure 1: KTU, RBO and RMSE of nDCG@k against the cut-off k, per printed run.

    Parameters
    ----------
    system : {"WCrobust04", "WCrobust0405"}
        The run.

    Returns
    -------
    pandas.DataFrame
        Long format: one row per (run, cut-off) with columns ``run``, ``family``, ``level``,
        ``cutoff``, ``KTU``, ``RBO``, ``RMSE:nDCG`` (the authors' plot script uses nDCG@k for RMSE).
    """
    system = check_system(system)
    rows = []
    for cutoff in CUTOFFS:
        ktu = mean_agreement(system, "KTU", cutoff, PRINTED_IDS)
        rbo = mean_agreement(system, "RBO", cutoff, PRINTED_IDS)
        original, replicated = replicated_runs(system, f"ndcg{cutoff}", PRINTED_IDS)
        error = scores.rmse(original, replicated)
        for c in PRINTED:
            k = c.constellation_id
            rows.append({"run": c.replicated_name(system), "family": c.family, "level": c.level, "cutoff": cutoff,
                         "KTU": ktu[k], "RBO": rbo[k], "RMSE:nDCG": error[k]})  # fmt: skip
    return pd.DataFrame(rows)


def er_deltari_region(er: pd.Series, delta_ri: pd.Series) -> pd.Series:
    """Give the paper's region (1-4) of each point (ER, DeltaRI).

    Region 1: ER > 0 and DeltaRI > 0; 2: ER < 0 and DeltaRI > 0; 3: both < 0; 4: ER > 0 and DeltaRI < 0
    (:data:`REGION_DEFINITIONS`; the quadrants I-IV of the plane).

    Parameters
    ----------
    er : pandas.Series
        ER of each point.
    delta_ri : pandas.Series
        DeltaRI of each point, as long.

    Returns
    -------
    pandas.Series
        Int64 regions; <NA> for a point on an axis or a NaN input.

    Raises
    ------
    ValueError
        If the two differ in length.

    Examples
    --------
    >>> er_deltari_region(pd.Series([0.5, -0.2, -0.1, 1.2, 0.0]), pd.Series([0.1, 0.3, -0.2, -0.1, 0.4])).tolist()
    [1, 2, 3, 4, <NA>]
    """
    index = er.index if isinstance(er, pd.Series) else None
    x, y = np.asarray(er, dtype=float), np.asarray(delta_ri, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"ER and DeltaRI differ in length: {x.shape} vs {y.shape}")
    conditions = [(x > 0) & (y > 0), (x < 0) & (y > 0), (x < 0) & (y < 0), (x > 0) & (y < 0)]
    numbers = np.select(conditions, [1, 2, 3, 4], default=0)
    return pd.Series(numbers, index=index, dtype="Int64").mask(numbers == 0)


def _points(table: pd.DataFrame, setting: str, measures) -> pd.DataFrame:
    """Long points (run, family, level, measure, ER, DeltaRI) of a wide ER/DeltaRI table."""
    by_name: dict[str, Constellation] = {f"{setting}_{c.name}": c for c in PRINTED}
    rows = [
        {"run": run, "family": by_name[run].family, "level": by_name[run].level, "measure": label,
         "ER": values[f"ER:{label}"], "DeltaRI": values[f"DeltaRI:{label}"]}
        for run, values in table.iterrows() for label in measures
    ]  # fmt: skip
    points = pd.DataFrame(rows)
    points["family"] = pd.Categorical(points["family"], categories=list(FAMILIES), ordered=True)
    return points


def er_deltari_points(setting: str) -> pd.DataFrame:
    """Give the points of Figures 2 (``rpl``) and 3 (``rpd``).

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        Replicability (Figure 2) or reproducibility (Figure 3).

    Returns
    -------
    pandas.DataFrame
        One row per (run, measure): ``run``, ``family``, ``level``, ``measure``, ``ER``, ``DeltaRI``.
    """
    return _points(effect_ratio_table(setting, intervals=False), setting, MEASURES)


def _region_counts(points: pd.DataFrame, rows) -> pd.DataFrame:
    """Points per region: rows as given (one or more columns of ``points``), columns :data:`REGION_LABELS`."""
    numbers = er_deltari_region(points["ER"], points["DeltaRI"])
    labels = np.where(numbers.isna(), REGION_LABELS[-1], "region " + numbers.astype(str))
    counts = pd.crosstab(rows, pd.Categorical(labels, categories=list(REGION_LABELS)), dropna=False)
    counts.columns.name = "region"
    return counts


def er_deltari_regions(setting: str) -> pd.DataFrame:
    """Count how many points of Figure 2 (``rpl``) or 3 (``rpd``) fall in each region of the ER-DeltaRI plane.

    The paper's regions (Section 3.3): 1 = ER > 0 and DeltaRI > 0; 2 = ER < 0 and DeltaRI > 0;
    3 = ER < 0 and DeltaRI < 0; 4 = ER > 0 and DeltaRI < 0 (preferred). Points on an axis count as
    ``on an axis``.

    Parameters
    ----------
    setting : {"rpl", "rpd"}
        Replicability (Figure 2) or reproducibility (Figure 3).

    Returns
    -------
    pandas.DataFrame
        Rows: families; columns: regions.
    """
    points = er_deltari_points(setting)
    return _region_counts(points, points["family"])


def majority_region(regions: pd.Series) -> int | None:
    """Give the region (1-4) holding more of the points than any other.

    Parameters
    ----------
    regions : pandas.Series
        Int64 regions, as :func:`er_deltari_region` gives them.

    Returns
    -------
    int or None
        The region; None on a tie or with no point in a region.

    Examples
    --------
    >>> majority_region(pd.Series([1, 2, 2, 4], dtype="Int64")), majority_region(pd.Series([1, 2], dtype="Int64"))
    (2, None)
    """
    counts = regions.value_counts()  # <NA> (on an axis) is not counted
    if counts.empty or (counts == counts.max()).sum() > 1:
        return None
    return int(counts.idxmax())


def figure2_panels() -> pd.DataFrame:
    """Tell which constellation families fit what the paper says about the panels (a) and (b) of Figure 2.

    The paper's text does not name the two families Figure 2 shows, but says (Section 5.1)
    :data:`FIGURE2_PANEL_STATEMENTS`. We read "for measure m the point (1, 0) is reached from region R"
    as: region R holds the majority of the family's five points of m.

    Returns
    -------
    pandas.DataFrame
        One row per family: the majority region of its AP, nDCG and P@10 points, ``fits (a)`` (AP
        and nDCG from region 4) and ``fits (b)`` (AP from region 1).
    """
    points = er_deltari_points("rpl")
    rows = {}
    for family in FAMILIES:
        part = points[points["family"] == family]
        regions = {m: er_deltari_region(part.loc[part["measure"] == m, "ER"], part.loc[part["measure"] == m, "DeltaRI"])
                   for m in ("AP", "nDCG", "P@10")}  # fmt: skip
        row = {f"{m} majority region": majority_region(region) for m, region in regions.items()}
        row["fits (a)"] = row["AP majority region"] == 4 and row["nDCG majority region"] == 4
        row["fits (b)"] = row["AP majority region"] == 1
        rows[family] = row
    table = pd.DataFrame.from_dict(rows, orient="index").astype({f"{m} majority region": "Int64" for m in MEASURES})
    table.index.name = "family"
    return table


def panel_families() -> dict[str, tuple[str, ...]]:
    """Give the families each panel of Figure 2 can show (:func:`figure2_panels`).

    Figure 3 is assumed to show the same two families as Figure 2 (the paper does not say).

    Returns
    -------
    dict of str -> tuple of str
        Panel ``"a"``/``"b"`` -> families.
    """
    panels = figure2_panels()
    return {panel: tuple(panels.index[panels[f"fits ({panel})"]]) for panel in ("a", "b")}


def figure3_points(*, versions: tuple[str, ...] = VERSIONS) -> pd.DataFrame:
    """Give the points of Figure 3 in each version.

    ``"current"``: the published files, P@10, AP and nDCG; ``"old"``: AP only, with the authors'
    earlier AP file of the reproduced WCrobust0405 (the earlier P@10 and nDCG files, if they existed,
    are not public, so no point of theirs is shown).

    Parameters
    ----------
    versions : tuple of str, default VERSIONS
        The versions, of ``"current"`` and ``"old"``.

    Returns
    -------
    pandas.DataFrame
        Columns ``version``, ``run``, ``family``, ``level``, ``measure``, ``ER``, ``DeltaRI``,
        ``region``.
    """
    parts = []
    for version in versions:
        measures = tuple(MEASURES) if version == "current" else ("AP",)
        points = _points(effect_ratio_table("rpd", intervals=False, version=version), "rpd", measures)
        points.insert(0, "version", version)
        points["region"] = er_deltari_region(points["ER"], points["DeltaRI"])
        parts.append(points)
    return pd.concat(parts, ignore_index=True)


def figure3_regions(measure: str = "AP") -> pd.DataFrame:
    """Count the points of Figure 3 per region for one measure in both versions.

    Parameters
    ----------
    measure : str, default "AP"
        The measure; only AP has points in both versions.

    Returns
    -------
    pandas.DataFrame
        Rows (version, family); columns: regions.

    Raises
    ------
    ValueError
        For an unknown measure, or one without points in both versions.
    """
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; expected one of {', '.join(MEASURES)}")
    points = figure3_points()
    points = points[points["measure"] == measure]
    if set(points["version"]) != set(VERSIONS):
        raise ValueError(f"{measure}: only the AP points exist in both versions of Figure 3")
    return _region_counts(points, [points["version"], points["family"]])


def figure3_diagnosis() -> pd.DataFrame:
    """Compute ER and DeltaRI (AP) of every printed reproduced pair from the published and the earlier file.

    Returns
    -------
    pandas.DataFrame
        One row per run as the paper names it (``rpd_tf_1`` ... ``rpd_C_5``); columns ``ER:AP``,
        ``DeltaRI:AP``, ``region`` (published files) and ``ER:AP_old``, ``DeltaRI:AP_old``,
        ``region_old`` (the advanced run = the earlier ``rpd_wcrobust0405_ap_old.csv``; the
        baseline = the published ``rpd_wcrobust04_ap.csv``; the originals = ``org_*_ap.csv``).
        ``region``: the paper's region 1-4, <NA> on an axis.
    """
    columns = {}
    for version, suffix in (("current", ""), ("old", "_old")):
        table = effect_ratio_table("rpd", intervals=False, version=version)
        columns[f"ER:AP{suffix}"] = table["ER:AP"]
        columns[f"DeltaRI:AP{suffix}"] = table["DeltaRI:AP"]
        columns[f"region{suffix}"] = er_deltari_region(table["ER:AP"], table["DeltaRI:AP"])
    diagnosis = pd.DataFrame(columns)
    diagnosis.index.name = "run"
    return diagnosis
