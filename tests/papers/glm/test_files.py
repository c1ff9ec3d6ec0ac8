"""``irrepro reproduce glm``: every file, stable names, values equal to independent computations."""

from __future__ import annotations

import numpy as np
import pytest

from irrepro.glm.links import LINK_NAMES
from irrepro.outputs import read_manifest, verify_table_set
from irrepro.papers import glm
from tests.papers.glm.conftest import read, statsmodels_fit

INTEGER_COLUMNS = {
    "data_used": ["topics", "runs"],
    "data_summary": ["topics", "runs", "zero_count"],
    "deviance": ["iterations", "topics", "systems", "dropped_topics"],
    "iterations": ["iterations", "rank"],
    "ssd_pairs": ["ssd_pairs", "pairs", "ssd_pairs_holm"],
    "consistency_splits": ["split", "active_agreements", "active_disagreements", "passive_disagreements",
                           "passive_agreements", "pairs", "dropped_systems"],
    "consistency": ["splits", "max_dropped_systems"],
    "boundary_observations": ["observations", "zeros", "ones", "used_in_fit", "iterations"],
    "outlier_rule_core18": ["rank"],
    "ssd_robustness": ["resamples", "unconverged", "pairs", "ssd pairs", "stable", "kept by most", "kept by few",
                       "reversed somewhere"],
    "ssd_pairs_robustness": ["sign"],
    "claims_robustness": ["resamples"],
}  # fmt: skip


def test_the_set_is_complete_and_named_as_documented(written):
    names = [path.name for path in verify_table_set(written)]
    assert names == [f"{name}.csv" for name in glm.FILES]
    assert read_manifest(written)["producer"] == "irrepro.papers.glm.write_tables"
    for name in glm.FILES:
        assert f"``{name}``" in glm.files.__doc__


@pytest.mark.parametrize("name", sorted(INTEGER_COLUMNS))
def test_counts_are_written_as_integers(written, name):
    table = read(written, name)
    for column in INTEGER_COLUMNS[name]:
        assert table[column].dtype == np.int64, f"{name}.csv: {column}"


def test_deviance_file_matches_a_statsmodels_refit(written):
    deviance = read(written, "deviance")
    row = deviance[(deviance["collection"] == "Core17") & (deviance["measure"] == "nDCG") & deviance["outliers_removed"]
                   & (deviance["link"] == "probit")].iloc[0]  # fmt: skip
    reference = statsmodels_fit(glm.analysis_scores("Core17", "nDCG", outliers_removed=True), "probit")
    assert row["deviance"] == pytest.approx(reference.deviance, rel=1e-8)
    assert len(deviance) == len(glm.settings()) * len(LINK_NAMES)


def test_ssd_and_consistency_files_agree_with_their_parts(written):
    ssd, splits, consistency = read(written, "ssd_pairs"), read(written, "consistency_splits"), read(written, "consistency")
    assert (ssd["ssd_pairs"] <= ssd["pairs"]).all()
    keys = ["collection", "measure", "outliers_removed", "link"]
    means = splits.groupby(keys, sort=False)["active_agreements"].mean().reset_index()
    merged = consistency.merge(means, on=keys, suffixes=("", "_from_splits"))
    assert len(merged) == len(consistency) and (merged["active_agreements"] == merged["active_agreements_from_splits"]).all()


def test_claims_and_verdicts_files_are_the_chapters_tables(written):
    claims, verdicts = read(written, "claims"), read(written, "verdicts")
    assert list(claims["id"]) == glm.CLAIMS.ids()
    assert set(claims["verdict"]) <= {"holds", "does not hold", "cannot be tested here"}
    nist = verdicts.set_index("claim").loc["core18-eight-outliers", glm.NIST_CORE18.name]
    assert nist == claims.set_index("id").loc["glm.core18-eight-outliers.nist-core18", "verdict"]


def test_figure_data_files(written):
    residuals, qq = read(written, "residuals_robust04_ap"), read(written, "qq_robust04_ap")
    assert len(residuals) == len(qq) == len(LINK_NAMES) * 249 * 110
    np.testing.assert_allclose(residuals["observed"] - residuals["fitted"], residuals["residual"], atol=1e-12)
    mean_variance = read(written, "mean_variance")
    assert len(mean_variance) == 2 * 110 + 3 * 102 + 3 * 108
    effects = read(written, "system_effects_robust04_ap")
    assert set(effects["link"]) == {"identity", "logit"} and len(effects) == 2 * 110


def test_no_float_noise_in_count_ratios(written):
    """A share of counts reads back as the correctly rounded fraction (no 0.6459999999999999)."""
    splits, consistency = read(written, "consistency_splits"), read(written, "consistency")
    keys = ["collection", "measure", "outliers_removed", "link"]
    sums = splits.groupby(keys, sort=False)[["active_agreements", "active_disagreements", "passive_disagreements"]].sum()
    share = (sums["active_agreements"] / sums.sum(axis=1)).rename("expected").reset_index()
    merged = consistency.merge(share, on=keys)
    assert ((merged["consistent_share"] == merged["expected"]) | merged["expected"].isna()).all()
    text = (written / "mean_variance.csv").read_text()
    assert "99999999" not in text and "00000001," not in text


def test_data_files_file_lists_every_file_read_with_its_registry_hash(written):
    from irrepro.data import registry

    files = read(written, "data_files")
    assert list(files["file"]) == glm.data_files()
    entries = registry()
    assert all(entries[name].sha256 == sha for name, sha in zip(files["file"], files["sha256"], strict=True))
    assert files["sha256"].str.fullmatch(r"[0-9a-f]{64}").all()


def test_the_command_line_page_lists_every_file():
    from pathlib import Path

    page = Path(__file__).resolve().parents[3] / "docs" / "using" / "command-line.md"
    text = page.read_text(encoding="utf-8")
    listed = text[text.index("**Files of `irrepro reproduce glm`**") :].split("\n\n")[0]
    assert all(f"`{name}`" in listed for name in glm.FILES)
