"""``irrepro reproduce sigir2020``: the files, their columns and their values; and the package's public surface."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irrepro.papers.sigir2020 as package
from irrepro.papers import sigir2020
from tests.papers.sigir2020.conftest import PRINTED, raw
from tests.papers.sigir2020.test_figures import _expected_diagnosis

TABLE1 = ["ARP:P@10", "ARP:AP", "ARP:nDCG", "KTU", "RBO", "RMSE:P@10", "RMSE:AP", "RMSE:nDCG", "p:P@10", "p:AP",
          "p:nDCG"]  # fmt: skip
EXPECTED_FILES = {
    "table1_rpl_wcrobust04": TABLE1,
    "table1_rpl_wcrobust0405": TABLE1,
    "nrmse_rpl_wcrobust04": [f"{s}:{m}" for s in ("RMSE", "nRMSE") for m in ("P@10", "AP", "nDCG")],
    "nrmse_rpl_wcrobust0405": None,
    "er_deltari_rpl": [f"{s}:{m}{b}" for s in ("ER", "DeltaRI") for m in ("P@10", "AP", "nDCG") for b in ("", ":low", ":high")],
    "er_deltari_rpd": None,
    "rpd_wcrobust04": ["ARP:P@10", "ARP:AP", "ARP:nDCG", "p:P@10", "p:AP", "p:nDCG"],
    "rpd_wcrobust0405": None,
    "rpl_vs_rpd_pvalues": [f"p:{m}:{run}" for run in ("WCrobust04", "WCrobust0405") for m in ("P@10", "AP", "nDCG")],
    "correlation_rpl_wcrobust04": ["DeltaARP:P@10", "DeltaARP:AP", "DeltaARP:nDCG", "KTU", "RBO", "RMSE:P@10", "RMSE:AP",
                                   "RMSE:nDCG", "p:P@10", "p:AP", "p:nDCG", "ER:P@10", "ER:AP", "ER:nDCG"],
    "correlation_rpl_wcrobust0405": None,
    "correlation_rpd_wcrobust04": ["p:P@10", "p:AP", "p:nDCG", "ER:P@10", "ER:AP", "ER:nDCG"],
    "correlation_rpd_wcrobust0405": None,
    "correlation_rpd_wcrobust04_old_ap": None,
    "correlation_rpd_wcrobust0405_old_ap": None,
    "appendix_table1_comparison": ["cell", "rule", "printed", "reproduced", "reproduced as printed", "difference", "match",
                                   "note"],
    "appendix_table2_comparison": None, "appendix_table3_comparison": None,
    "appendix_table1_as_printed": TABLE1, "appendix_table2_as_printed": None, "appendix_table3_as_printed": None,
    "appendix_table1_worst_cells": None, "appendix_table2_worst_cells": None, "appendix_table3_worst_cells": None,
    "appendix_table3_rounding_evidence": ["cells", "truncated", "rounded", "only truncated", "only rounded", "neither",
                                          "rule"],
    "appendix_match_counts": ["cells", "matching", "missing"],
    "appendix_misprints": None, "appendix_largest_differences": None, "ndcg_cutoff_check": None,
    "printed_text_values": ["value", "printed", "reproduced", "difference", "match", "tolerance", "note", "found at",
                            "where", "quote"],
    "rbo_depth_convention": None, "small_cases": None,
    "figure1_cutoff_curves": ["family", "level", "cutoff", "KTU", "RBO", "RMSE:nDCG"],
    "figure2_points": ["family", "level", "measure", "ER", "DeltaRI"],
    "figure2_regions": ["region 1", "region 2", "region 3", "region 4", "on an axis"],
    "figure2_panels": None,
    "figure3_points": ["family", "level", "measure", "ER", "DeltaRI"],
    "figure3_regions": ["region 1", "region 2", "region 3", "region 4", "on an axis"],
    "figure3_versions_points": None, "figure3_versions_regions": None,
    "figure3_diagnosis": ["ER:AP", "DeltaRI:AP", "region", "ER:AP_old", "DeltaRI:AP_old", "region_old"],
    "figure3_statements": None, "figure3_evidence": ["value"], "earlier_files": None, "earlier_rpd_ap_topics": None, "earlier_rpd_ap_groups": None,
    "claims": ["section", "claim", "data", "verdict", "evidence", "holds"],
    "claims_robustness": ["section", "label", "claim", "reading", "holds on all topics", "share holding", "verdict kept",
                          "status", "statistic", "on all topics", "low", "high", "interval", "resamples", "seeds",
                          "kept lowest seed", "kept highest seed"],
    "correlation_robustness": ["system", "first", "second", "tau", "low", "high", "drawn below", "drawn low", "drawn high"],
    "fidelity": None, "chapter_numbers": ["value", "source"], "data_files": ["sha256", "source", "url"],
}  # fmt: skip
SAME_COLUMNS = {
    "nrmse_rpl_wcrobust0405": "nrmse_rpl_wcrobust04",
    "er_deltari_rpd": "er_deltari_rpl", "rpd_wcrobust0405": "rpd_wcrobust04",
    "correlation_rpl_wcrobust0405": "correlation_rpl_wcrobust04", "correlation_rpd_wcrobust0405": "correlation_rpd_wcrobust04",
    "correlation_rpd_wcrobust04_old_ap": "correlation_rpd_wcrobust04",
    "correlation_rpd_wcrobust0405_old_ap": "correlation_rpd_wcrobust04",
    "appendix_table2_comparison": "appendix_table1_comparison",
    "appendix_table2_as_printed": "rpd_wcrobust04", "appendix_table1_worst_cells": "appendix_table1_comparison",
    "appendix_table2_worst_cells": "appendix_table1_comparison",
    "appendix_table3_comparison": "appendix_table1_comparison", "appendix_table3_worst_cells": "appendix_table1_comparison",
    "appendix_table3_as_printed": "rpl_vs_rpd_pvalues",
}  # fmt: skip


def _read(out: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(out / f"{name}.csv", index_col=0)


def test_write_tables_writes_exactly_the_documented_files(written):
    out, paths = written
    assert sorted(path.name for path in paths) == sorted(f"{name}.csv" for name in EXPECTED_FILES)
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == sorted(
        [*(f"{name}.csv" for name in EXPECTED_FILES), "MANIFEST.json"]
    )
    documented = sigir2020.files.__doc__
    assert all(f"``{name}``" in documented for name in EXPECTED_FILES)


def test_csv_columns_and_row_names(written):
    out, _ = written
    for name, columns in EXPECTED_FILES.items():
        columns = columns or EXPECTED_FILES.get(SAME_COLUMNS.get(name, ""))
        if columns is not None:
            assert list(_read(out, name).columns) == columns, name
    assert list(_read(out, "table1_rpl_wcrobust04").index[:2]) == ["WCrobust04", "rpl_wcr04_tf_1"]
    assert list(_read(out, "rpd_wcrobust04").index[:2]) == ["rpd_tf_1", "rpd_tf_2"]
    assert list(_read(out, "er_deltari_rpd").index[-1:]) == ["rpd_C_5"]
    assert _read(out, "figure3_diagnosis").index.tolist() == sigir2020.figure3_diagnosis().index.tolist()


def test_csv_keeps_full_precision_and_writes_exact_fractions_exactly(written):
    out, _ = written
    table = sigir2020.replicability_table("WCrobust0405")
    from_file = _read(out, "table1_rpl_wcrobust0405")
    rounded = ["ARP:P@10", *sigir2020.RATIO_COLUMNS["table1_rpl_wcrobust0405"]]
    inexact = [c for c in table.columns if c not in rounded]
    np.testing.assert_array_equal(from_file[inexact].to_numpy(), table[inexact].to_numpy())
    np.testing.assert_allclose(from_file[rounded], table[rounded], rtol=0, atol=1e-12)
    text = (out / "table1_rpl_wcrobust04.csv").read_text()
    assert "0.646," in text and "0.6459999" not in text  # WCrobust04's P@10: 323 relevant of 500
    comparison = _read(out, "appendix_table1_comparison")
    p10 = comparison[comparison["cell"] == "ARP:P@10"]
    assert (p10["reproduced"] * 500).round(9).mod(1).eq(0).all()  # multiples of 1/500
    assert (p10["difference"] * 10_000).round(6).mod(1).eq(0).all()


def test_exact_decimals_refuses_to_round_a_value_that_is_not_exact():
    with pytest.raises(ValueError, match="not an exact 3-decimal value"):
        sigir2020.exact_decimals(pd.Series([0.6461]), 3, what="ARP:P@10")


def test_figure3_diagnosis_csv_agrees_with_numpy_on_the_raw_files(written):
    out, _ = written
    from_file, expected = _read(out, "figure3_diagnosis"), _expected_diagnosis()
    for column in expected:
        np.testing.assert_allclose(from_file[column], expected.loc[from_file.index, column], rtol=1e-12)
    assert (
        from_file["region_old"].value_counts().to_dict()
        == sigir2020.figure3_diagnosis()["region_old"].value_counts().to_dict()
    )


def test_table5_files_are_shaped_like_the_table4_files(written):
    out, _ = written
    for system in ("wcrobust04", "wcrobust0405"):
        rpl, rpd, old = (
            _read(out, f"correlation_{name}") for name in (f"rpl_{system}", f"rpd_{system}", f"rpd_{system}_old_ap")
        )
        for table in (rpl, rpd, old):
            assert table.index.name == "measure" and list(table.index) == list(table.columns)
            np.testing.assert_allclose(np.diag(table), 1.0)
        assert not np.allclose(rpd.to_numpy(), old.to_numpy())


def test_the_package_re_exports_every_public_name_of_its_modules():
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        assert module.__doc__ and module.__all__, info.name
        for name in module.__all__:
            assert getattr(module, name) is getattr(sigir2020, name), f"{info.name}.{name}"
            assert name in sigir2020.__all__
    for name in ("per_topic", "replicability_table", "effect_ratio_table", "correlation_table", "cutoff_curves",
                 "er_deltari_points", "appendix_comparison", "claims", "CLAIMS", "fidelity", "write_tables", "tables",
                 "TABLE1_COLUMNS", "REPRODUCIBILITY_COLUMNS", "SYSTEMS", "MEASURES"):  # fmt: skip
        assert callable(getattr(sigir2020, name)) or getattr(sigir2020, name) is not None


def test_no_private_name_is_imported_across_modules_and_functions_are_short():
    for path in Path(package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("irrepro"):
                private = [alias.name for alias in node.names if alias.name.startswith("_")]
                assert not private, f"{path.name} imports {private} from {node.module}"
            if isinstance(node, ast.FunctionDef):
                assert node.end_lineno - node.lineno < 60, f"{path.name}: {node.name}"


def _p10_counts(name: str) -> pd.DataFrame:
    """A published P@10 file as integer counts of relevant documents in the top 10."""
    frame = raw(name)
    counts = (frame * 10).round()
    assert np.allclose(counts, frame * 10, atol=1e-9)
    return counts.astype(int)


def test_p10_effect_ratios_are_exact_fractions_written_without_float_noise(written):
    out, _ = written
    rpl = {s: _p10_counts(f"sigir2020/measures/rpl_{s}_p10.csv") for s in ("wcrobust04", "wcrobust0405")}
    from_file = _read(out, "er_deltari_rpl")
    for run, k in PRINTED.items():
        original = int((rpl["wcrobust0405"]["WCrobust0405"] - rpl["wcrobust04"]["WCrobust04"]).sum())
        new = int((rpl["wcrobust0405"][f"rpl_wcrobust0405_{k}"] - rpl["wcrobust04"][f"rpl_wcrobust04_{k}"]).sum())
        expected = Fraction(new, original)  # same 50 topics: the 1/50 and the 1/10 cancel
        assert from_file.at[f"rpl_{run}", "ER:P@10"] == pytest.approx(float(expected), abs=1e-12)
    lines = (out / "er_deltari_rpl.csv").read_text().splitlines()
    header = lines[0].split(",")
    for line in lines[1:]:
        for column, text in zip(header, line.split(","), strict=True):
            if column in sigir2020.RATIO_COLUMNS["er_deltari_rpl"]:
                assert len(text.split(".")[-1].split("e")[0]) <= sigir2020.RATIO_DECIMALS, (column, text)
    points = (out / "figure3_points.csv").read_text()
    assert not re.search(r"\d\.\d*(0{9,}[1-9]|9{9,})\d*", points)  # no 1.5000000000000002, no 1.9999999999999996


def test_worst_cells_and_as_printed_files_are_the_chapters_tables(written):
    out, _ = written
    worst = pd.read_csv(out / "appendix_table2_worst_cells.csv", index_col=0, dtype={"printed": str})
    assert list(worst.index) == ["rpd_C_1"] and worst["printed"].tolist() == ["54E-06"]
    shown, _ = sigir2020.as_printed(1)
    from_file = pd.read_csv(out / "appendix_table1_as_printed.csv", index_col=0, dtype=str)
    assert from_file.to_numpy().tolist() == shown.to_numpy().tolist()


def test_fidelity_counts_are_integers_and_data_files_have_hashes(written):
    out, _ = written
    text = (out / "fidelity.csv").read_text()
    assert ",231,231," in text and "231.0" not in text
    files = _read(out, "data_files")
    assert "sigir2020/measures_rpd/rpd_wcrobust0405_ap_old.csv" in files.index
    assert files["sha256"].str.fullmatch(r"[0-9a-f]{64}").all()
