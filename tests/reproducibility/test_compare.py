"""Run-level comparison and the ``irrepro compare`` command, end to end against repro_eval."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irrepro.cli import main
from irrepro.reproducibility.compare import ROLES, compare_runs
from irrepro.runs import read_qrels, read_run

MEASURES = ("AP", "P@10", "nDCG")


def _write_qrels(path: Path, topics, rng, pool=150) -> Path:
    with path.open("w") as out:
        for topic in topics:
            for doc in rng.choice(pool, 60, replace=False):
                out.write(f"{topic} 0 DOC-{doc:03d} {rng.integers(0, 3)}\n")
    return path


def _write_run(path: Path, topics, rng, depth=100, pool=150) -> Path:
    with path.open("w") as out:
        for topic in topics:
            docs = rng.choice(pool, depth, replace=False)
            scores = np.sort(np.round(rng.random(depth), 2))[::-1]  # two decimals: many ties
            for rank, (doc, score) in enumerate(zip(docs, scores, strict=True), start=1):
                out.write(f"{topic} Q0 DOC-{doc:03d} {rank} {score} {path.name}\n")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    rng = np.random.default_rng(17)
    topics = [str(t) for t in range(301, 316)]
    new_topics = [str(t) for t in range(401, 411)]
    paths = {"qrels": _write_qrels(tmp / "qrels", topics, rng), "new_qrels": _write_qrels(tmp / "new_qrels", new_topics, rng)}
    for role in ("orig_baseline", "orig_advanced", "new_baseline", "new_advanced"):
        paths[role] = _write_run(tmp / role, topics, rng)
    for role in ("rpd_baseline", "rpd_advanced"):
        paths[role] = _write_run(tmp / role, new_topics, rng)
    return paths


def _runs(files, new=("new_baseline", "new_advanced")) -> dict:
    """The four runs by role (the keywords of compare_runs); ``new`` names the files of the new pair."""
    return {role: read_run(files[name]) for role, name in zip(ROLES, ("orig_baseline", "orig_advanced", *new), strict=True)}


def test_replicability_matches_repro_eval(files):
    from repro_eval.Evaluator import (
        RpdEvaluator,  # repro_eval's name for the same-collection case
    )

    reference = RpdEvaluator(
        qrels_orig_path=str(files["qrels"]),
        run_b_orig_path=str(files["orig_baseline"]),
        run_a_orig_path=str(files["orig_advanced"]),
        run_b_rep_path=str(files["new_baseline"]),
        run_a_rep_path=str(files["new_advanced"]),
    )
    reference.trim()
    reference.evaluate()
    ours = compare_runs(**_runs(files), qrels=read_qrels(files["qrels"]), rbo_variant="trunc", rbo_p=0.8, cutoff=1000)
    result = ours.to_json()
    er, dri, rmse, p = reference.er(), reference.dri(), reference.rmse(), reference.ttest()
    nrmse = reference.nrmse()
    ktu = reference.ktu(per_topic=True)
    rbo = reference.rbo(p=0.8, depth=1000, per_topic=True)
    assert len(ktu["baseline"]) == len(rbo["advanced"]) == 15 and set(er) >= set(MEASURES)
    for m in MEASURES:
        assert result["ER"][m] == pytest.approx(er[m], abs=1e-9)
        assert result["DeltaRI"][m] == pytest.approx(dri[m], abs=1e-9)
        for kind in ("baseline", "advanced"):
            assert result["RMSE"][kind][m] == pytest.approx(rmse[kind][m], abs=1e-9)
            assert result["nRMSE"][kind][m] == pytest.approx(nrmse[kind][m], abs=1e-9)
            assert result["p_value"][kind][m] == pytest.approx(p[kind][m], abs=1e-9)
    for kind in ("baseline", "advanced"):
        assert result["KTU"][kind]["per_topic"] == pytest.approx(ktu[kind], abs=1e-9)
        assert result["RBO"][kind]["per_topic"] == pytest.approx(rbo[kind], abs=1e-9)


def test_reproducibility_matches_repro_eval(files):
    from repro_eval.Evaluator import (
        RplEvaluator,  # repro_eval's name for the new-collection case
    )

    reference = RplEvaluator(
        qrels_orig_path=str(files["qrels"]),
        qrels_rpl_path=str(files["new_qrels"]),
        run_b_orig_path=str(files["orig_baseline"]),
        run_a_orig_path=str(files["orig_advanced"]),
        run_b_rep_path=str(files["rpd_baseline"]),
        run_a_rep_path=str(files["rpd_advanced"]),
    )
    reference.trim()
    reference.evaluate()
    ours = compare_runs(
        **_runs(files, ("rpd_baseline", "rpd_advanced")), qrels=read_qrels(files["qrels"]), new_qrels=read_qrels(files["new_qrels"])
    )
    result = ours.to_json()
    assert set(result) == {"setting", "ARP", "ER", "DeltaRI", "p_value"}
    er, dri, p = reference.er(), reference.dri(), reference.ttest()
    for m in MEASURES:
        assert result["ER"][m] == pytest.approx(er[m], abs=1e-9)
        assert result["DeltaRI"][m] == pytest.approx(dri[m], abs=1e-9)
        for kind in ("baseline", "advanced"):
            assert result["p_value"][kind][m] == pytest.approx(p[kind][m], abs=1e-9)


def _cli(args, capsys) -> dict:
    assert main(["compare", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_json_shape(files, capsys):
    common = ["--qrels", str(files["qrels"]), "--orig-baseline", str(files["orig_baseline"]), "--orig-advanced", str(files["orig_advanced"])]
    replicability = _cli(common + ["--new-baseline", str(files["new_baseline"]), "--new-advanced", str(files["new_advanced"])], capsys)
    keys = ["runs", "qrels", "new_qrels", "missing_topics", "no_relevant", "experiment", "setting", "ARP", "KTU", "RBO", "RMSE", "nRMSE",
            "ER", "DeltaRI", "p_value", "notes"]
    assert list(replicability) == keys
    topics = [str(t) for t in range(301, 316)]
    assert replicability["runs"]["orig_baseline"] == {"label": "orig_baseline", "file": str(files["orig_baseline"]), "n_topics": 15, "topics": topics}
    assert replicability["setting"] == "replicability"
    assert list(replicability["ARP"]) == ["orig_baseline", "orig_advanced", "new_baseline", "new_advanced"]
    assert list(replicability["ARP"]["orig_baseline"]) == list(MEASURES)
    assert set(replicability["KTU"]["baseline"]) == {"mean", "per_topic"}
    assert set(replicability["KTU"]["baseline"]["per_topic"]) == {str(t) for t in range(301, 316)}
    assert list(replicability["RMSE"]) == ["baseline", "advanced"] and list(replicability["p_value"]) == ["baseline", "advanced"]
    assert list(replicability["nRMSE"]) == ["baseline", "advanced"] and list(replicability["nRMSE"]["baseline"]) == list(MEASURES)
    reproducibility = _cli(
        common
        + ["--new-baseline", str(files["rpd_baseline"]), "--new-advanced", str(files["rpd_advanced"]), "--new-qrels", str(files["new_qrels"])],
        capsys,
    )
    assert list(reproducibility) == ["runs", "qrels", "new_qrels", "missing_topics", "no_relevant", "experiment", "setting", "ARP", "ER",
                                     "DeltaRI", "p_value", "notes"]
    assert reproducibility["new_qrels"] == str(files["new_qrels"])
    assert reproducibility["setting"] == "reproducibility"


def test_cli_undefined_is_null_and_table_says_so(files, capsys):
    same = str(files["orig_baseline"])  # advanced == baseline: zero original improvement
    args = ["--qrels", str(files["qrels"]), "--orig-baseline", same, "--orig-advanced", same,
            "--new-baseline", str(files["new_baseline"]), "--new-advanced", str(files["new_advanced"]), "--measures", "AP,P@5"]
    result = _cli(args, capsys)
    assert result["ER"] == {"AP": None, "P@5": None}
    assert main(["compare", *args]) == 0
    table = capsys.readouterr().out
    assert "undefined" in table and "zero mean improvement" in table


def test_cli_table_shows_nrmse_beside_rmse(files, capsys):
    """The text table has an nRMSE block right after RMSE, with the JSON's numbers; not under reproducibility."""
    from irrepro.formatting import TEXT, format_number

    args = ["--qrels", str(files["qrels"]), "--orig-baseline", str(files["orig_baseline"]), "--orig-advanced",
            str(files["orig_advanced"]), "--new-baseline", str(files["new_baseline"]), "--new-advanced", str(files["new_advanced"])]
    result = _cli(args, capsys)
    assert main(["compare", *args]) == 0
    table = capsys.readouterr().out
    rmse_at, nrmse_at = table.index("\nRMSE\n"), table.index("\nnRMSE (RMSE / maximum RMSE")
    assert rmse_at < nrmse_at < table.index("ER / DeltaRI")
    block = table[nrmse_at:table.index("ER / DeltaRI")]
    for kind in ("baseline", "advanced"):
        line = next(line for line in block.splitlines() if line.startswith(kind))
        assert line.split()[1:] == [format_number(result["nRMSE"][kind][m], 4, medium=TEXT) for m in MEASURES]
        assert all(0 < result["nRMSE"][kind][m] <= 1 for m in MEASURES)
        assert result["nRMSE"][kind]["AP"] > result["RMSE"][kind]["AP"]  # maxRMSE < 1
    rpd = ["--qrels", str(files["qrels"]), "--orig-baseline", str(files["orig_baseline"]), "--orig-advanced",
           str(files["orig_advanced"]), "--new-baseline", str(files["rpd_baseline"]), "--new-advanced",
           str(files["rpd_advanced"]), "--new-qrels", str(files["new_qrels"])]
    assert main(["compare", *rpd]) == 0
    assert "nRMSE" not in capsys.readouterr().out


def test_bad_run_file_is_one_clear_error(files, tmp_path, capsys):
    bad = tmp_path / "bad"
    bad.write_text("301 Q0 DOC-001 1\n")
    code = main(["compare", "--qrels", str(files["qrels"]), "--orig-baseline", str(bad), "--orig-advanced", str(bad),
                 "--new-baseline", str(bad), "--new-advanced", str(bad)])
    assert code == 2 and "error" in capsys.readouterr().err


def test_unequal_lengths_are_noted(files, tmp_path):
    rng = np.random.default_rng(2)
    short = _write_run(tmp_path / "short", [str(t) for t in range(301, 316)], rng, depth=40)
    runs = _runs(files)
    comparison = compare_runs(**{**runs, "new_baseline": read_run(short)}, qrels=read_qrels(files["qrels"]))
    assert any("different lengths on 15 topic(s)" in note for note in comparison.notes)
    assert all(v is not None for v in comparison.to_json()["KTU"]["baseline"]["per_topic"].values())


def test_topics_a_run_lacks_are_scored_zero_and_named_in_the_notes(files):
    orig_baseline, orig_advanced, new_baseline, new_advanced = _runs(files).values()
    short = new_baseline[new_baseline["query_id"] != "301"]
    qrels = read_qrels(files["qrels"])
    comparison = compare_runs(orig_baseline=orig_baseline, orig_advanced=orig_advanced, new_baseline=short, new_advanced=new_advanced, qrels=qrels, measures=["AP"])
    assert comparison.per_topic["AP"].loc["301", "new_baseline"] == 0.0
    assert any("new_baseline" in note and "301" in note and "scored 0" in note for note in comparison.notes)
    dropped = compare_runs(orig_baseline=orig_baseline, orig_advanced=orig_advanced, new_baseline=short, new_advanced=new_advanced, qrels=qrels, measures=["AP"], missing_topics="drop")
    assert np.isnan(dropped.per_topic["AP"].loc["301", "new_baseline"])
    assert any("left out" in note for note in dropped.notes)


def test_table_keeps_the_magnitude_of_small_p_values(files):
    comparison = compare_runs(**_runs(files), qrels=read_qrels(files["qrels"]))
    comparison.p_value["baseline"]["AP"] = 3.2e-9  # as a large replication with a big drop gives
    comparison.p_value["advanced"]["AP"] = None
    block = comparison.to_table().split("p-value (paired t-test)")[1]
    assert "3.2e-09" in block and "undefined" in block and "0.000" not in block  # the one p-value rule (irrepro.formatting)


def test_compare_pairs_is_compare_runs_for_each_pair(files):
    from irrepro.reproducibility.compare import compare_pairs

    runs = {name: read_run(files[name]) for name in files if name not in ("qrels", "new_qrels")}
    qrels = read_qrels(files["qrels"])
    # the second pair lacks two topics in one run: its own topic set differs from the first pair's
    short = runs["new_baseline"][~runs["new_baseline"]["query_id"].isin(["302", "303"])]
    pairs = {"a": (runs["new_baseline"], runs["new_advanced"]), "b": (short, runs["orig_advanced"])}
    together = compare_pairs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], pairs=pairs, qrels=qrels, cutoff=50, rbo_variant="min")
    for name, (new_baseline, new_advanced) in pairs.items():
        alone = compare_runs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], new_baseline=new_baseline, new_advanced=new_advanced, qrels=qrels, cutoff=50, rbo_variant="min")
        assert together[name].to_json() == alone.to_json() and together[name].notes == alone.notes
    new_qrels = read_qrels(files["new_qrels"])
    rpd = {"r": (runs["rpd_baseline"], runs["rpd_advanced"])}
    assert compare_pairs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], pairs=rpd, qrels=qrels, new_qrels=new_qrels)["r"].to_json() == compare_runs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], new_baseline=runs["rpd_baseline"], new_advanced=runs["rpd_advanced"], qrels=qrels, new_qrels=new_qrels).to_json()
    with pytest.raises(ValueError, match="pairs must be a non-empty mapping"):
        compare_pairs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], pairs={}, qrels=qrels)
    # evaluate_also: per-topic scores only, the measures' statistics unchanged
    also = compare_pairs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], pairs=pairs, qrels=qrels, measures=["AP"], evaluate_also=["nDCG@5", "AP"])["a"]
    alone = compare_runs(orig_baseline=runs["orig_baseline"], orig_advanced=runs["orig_advanced"], new_baseline=pairs["a"][0],
                         new_advanced=pairs["a"][1], qrels=qrels, measures=["nDCG@5"])  # fmt: skip
    assert also.measures == ("AP",) and set(also.per_topic) == {"AP", "nDCG@5"} and list(also.to_json()["ER"]) == ["AP"]
    pd.testing.assert_frame_equal(also.per_topic["nDCG@5"], alone.per_topic["nDCG@5"])


def test_bad_arguments_name_the_parameter(files):
    """--cutoff 1 --rbo-variant sigir2020 (an IndexError), rbo_p 0 (ZeroDivisionError) or 1.5 (RBO 1.25),
    a huge cut-off (OverflowError), an empty run (IndexError)."""
    runs, qrels = _runs(files), read_qrels(files["qrels"])
    for kwargs, message in [
        ({"cutoff": 1, "rbo_variant": "sigir2020"}, "compare_runs: cutoff must be an integer >= 2 with the RBO variant 'sigir2020'"),
        ({"rbo_p": 0}, r"compare_runs: rbo_p must be a number in \(0, 1\); got 0"),
        ({"rbo_p": 1.5}, r"compare_runs: rbo_p must be a number in \(0, 1\); got 1.5"),
        ({"cutoff": 10**20}, r"compare_runs: cutoff must be an integer in \[1, 2147483647\]"),
        ({"measures": ["P@10000000000"]}, "cut-off k must be an integer from 1 to 2147483647"),
    ]:
        with pytest.raises(ValueError, match=message):
            compare_runs(**runs, qrels=qrels, **kwargs)
    with pytest.raises(ValueError, match="orig_baseline must be .* got a DataFrame with 0 row"):
        compare_runs(**{**runs, "orig_baseline": runs["orig_baseline"].iloc[:0]}, qrels=qrels)


def test_a_string_is_one_measure(files):
    assert compare_runs(**_runs(files), qrels=read_qrels(files["qrels"]), measures="AP").measures == ("AP",)


# --------------------------------------------------------------------------- PyTerrier and ir_datasets frames


def _pyterrier(frame: pd.DataFrame, rng) -> pd.DataFrame:
    """``frame`` as a PyTerrier pipeline returns results: qid, docid (an int), docno, score and a
    rank from 0 that orders ties its own way; rows shuffled."""
    shuffled = frame.sample(frac=1.0, random_state=int(rng.integers(1000))).reset_index(drop=True)
    out = pd.DataFrame({"qid": shuffled["query_id"], "docid": range(len(shuffled)), "docno": shuffled["doc_id"],
                        "score": shuffled["score"], "query": "a query"})
    out["rank"] = out.groupby("qid")["score"].rank(ascending=False, method="first").astype(int) - 1
    return out


def test_pyterrier_and_ir_datasets_frames_are_compared_as_the_files(files):
    """The same runs as PyTerrier results (qid, docno; its rank from 0 and its tie order replaced by
    trec_eval's) or as ir_datasets frames without a rank give the numbers of the files."""
    rng = np.random.default_rng(0)
    runs = _runs(files)
    qrels = read_qrels(files["qrels"])
    expected = compare_runs(**runs, qrels=qrels).to_json()
    pyterrier_qrels = qrels.rename(columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"})
    assert compare_runs(**{role: _pyterrier(run, rng) for role, run in runs.items()}, qrels=pyterrier_qrels).to_json() == expected
    bare = {role: run[["query_id", "doc_id", "score"]].sample(frac=1.0, random_state=1) for role, run in runs.items()}
    assert compare_runs(**bare, qrels=qrels).to_json() == expected


def test_every_measure_follows_the_scores_not_the_rank_column(files):
    """A user-built frame whose rank column disagrees with its scores: KTU and RBO see trec_eval's
    order (score, then docno), as AP and RMSE do; the result is that of the well-ranked frame."""
    runs = _runs(files)
    reversed_ranks = {role: run.assign(rank=run.groupby("query_id")["rank"].transform("max") - run["rank"] + 1) for role, run in runs.items()}
    qrels = read_qrels(files["qrels"])
    expected = compare_runs(**runs, qrels=qrels).to_json()
    new_reversed = {role: reversed_ranks[role] for role in ROLES[2:]}
    assert compare_runs(**{**runs, **new_reversed}, qrels=qrels).to_json() == expected
    assert compare_runs(**reversed_ranks, qrels=qrels).to_json() == expected


@pytest.mark.parametrize("role", ROLES)
def test_nan_scores_are_refused_by_compare_runs(files, role):
    runs = _runs(files)
    runs[role] = runs[role].assign(score=runs[role]["score"].where(runs[role].index != 3))
    with pytest.raises(ValueError, match=rf"{role} must be .*; got a NaN score \(topic 301"):
        compare_runs(**runs, qrels=read_qrels(files["qrels"]))


def test_to_frame_is_the_one_result_json_and_table_derive_from(files):
    """One row per statistic, run and measure; the JSON holds the frame's numbers (null where NaN) and
    the table writes them by the package's one rule."""
    from irrepro.formatting import TEXT, format_number, format_pvalue
    from irrepro.reproducibility.compare import FRAME_COLUMNS, LEVELS

    runs = _runs(files)
    same = {**runs, "orig_advanced": runs["orig_baseline"]}  # no original effect: ER undefined
    comparison = compare_runs(**same, qrels=read_qrels(files["qrels"]))
    frame = comparison.to_frame()
    assert tuple(frame.columns) == FRAME_COLUMNS and set(frame["setting"]) == {"replicability"}
    assert list(dict.fromkeys(frame["level"])) == list(LEVELS)
    assert frame.groupby("statistic").size().to_dict() == {"ARP": 12, "DeltaARP": 6, "p": 6, "KTU": 2, "RBO": 2, "RMSE": 6, "nRMSE": 6,
                                                    "ER": 3, "DeltaRI": 3}
    assert not frame.duplicated(["statistic", "run", "measure"]).any() and frame[["low", "high"]].isna().all().all()
    values = frame.set_index(["statistic", "run", "measure"])["value"]
    document, table = comparison.to_json(), comparison.to_table()
    assert document["ER"] == {m: None for m in MEASURES} and values.loc["ER"].isna().all()
    for (statistic, run, measure), value in values.items():
        if statistic == "DeltaARP":
            assert value == pytest.approx(values["ARP", f"new_{run}", measure] - values["ARP", f"orig_{run}", measure])
            continue
        key = {"p": "p_value"}.get(statistic, statistic)
        found = document[key][run][measure] if statistic not in ("ER", "DeltaRI", "KTU", "RBO") else (
            document[key][measure] if statistic in ("ER", "DeltaRI") else document[key][run]["mean"])
        assert (found is None and np.isnan(value)) or found == value, (statistic, run, measure)
        written = format_pvalue(value, medium=TEXT) if statistic == "p" else format_number(value, 4, medium=TEXT)
        assert written in table


def test_to_frame_takes_intervals(files):
    from irrepro.reproducibility.bootstrap import ConfidenceInterval

    comparison = compare_runs(**_runs(files), qrels=read_qrels(files["qrels"]))
    interval = ConfidenceInterval(0.9, 0.5, 1.5, 0.95, 100, 0, 0)
    frame = comparison.to_frame({("ER", "", "AP"): interval, ("ER", "", "nDCG"): "undefined: no reason"})
    bounds = frame.set_index(["statistic", "run", "measure"])[["low", "high"]]
    assert tuple(bounds.loc[("ER", "", "AP")]) == (0.5, 1.5) and bounds.drop(("ER", "", "AP")).isna().all().all()
