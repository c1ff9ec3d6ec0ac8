"""``irrepro routing``: a run on the user's own corpora (tiny TREC files) and on the stand-in."""

from __future__ import annotations

import pytest

from irrepro.cli import main
from irrepro.runs import read_run

TRAINING_DOCS = {
    "R1": "Oil prices rose as OPEC cut crude output",
    "R2": "Crude oil output and oil prices in the Gulf",
    "R3": "Gold prices rallied on the bullion market",
    "R4": "Wheat harvest and grain exports grew",
    "R5": "Oil tanker attacked, crude prices jump",
}
TARGET_DOCS = {"N1": "Crude oil prices fell", "N2": "Gold bullion rallied", "N3": "Grain exports of wheat", "N4": "oil"}


def _trec(path, docs):
    path.write_text(
        "".join(f"<DOC>\n<DOCNO> {doc_id} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n" for doc_id, text in docs.items()),
        encoding="latin-1",
    )


def _setup(tmp_path):
    _trec(tmp_path / "train.sgml", TRAINING_DOCS)
    _trec(tmp_path / "target.sgml", TARGET_DOCS)
    (tmp_path / "train.qrels").write_text("1 0 R1 1\n1 0 R2 2\n1 0 R3 0\n1 0 R4 0\n1 0 R5 1\n2 0 R3 1\n2 0 R1 0\n")
    (tmp_path / "target.qrels").write_text("1 0 N1 1\n1 0 N2 0\n1 0 N4 1\n")
    config = tmp_path / "corpora.toml"
    config.write_text(
        '[corpora.robust04]\nformat = "trec"\npaths = ["train.sgml"]\nqrels = "train.qrels"\n'
        '[corpora.mytarget]\nformat = "trec"\npaths = ["target.sgml"]\nqrels = "target.qrels"\n'
    )
    return config


def test_run_on_configured_corpora(tmp_path, capsys):
    config = _setup(tmp_path)
    out = tmp_path / "r.run"
    status = main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                   "--quiet", "--out", str(out)])
    assert status == 0
    run = read_run(out)
    assert set(run["query_id"]) == {"1"} and len(run) == 4 and set(run["run"]) == {"wcrobust04_default"}
    assert run["doc_id"].iloc[0] in {"N1", "N4"}
    printed = capsys.readouterr().out
    assert "1 topics" in printed and "AP " in printed


def test_missing_corpus_path_is_one_clear_error(tmp_path, capsys):
    config = _setup(tmp_path)
    (tmp_path / "target.sgml").unlink()
    status = main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                   "--out", str(tmp_path / "r.run")])
    assert status == 2
    error = capsys.readouterr().err
    assert "target.sgml does not exist; change [corpora.mytarget] paths in" in error


def test_missing_training_role_names_the_table(tmp_path, capsys):
    config = _setup(tmp_path)
    status = main(["routing", "run", "--system", "wcrobust0405", "--target", "mytarget", "--config", str(config),
                   "--out", str(tmp_path / "r.run")])
    assert status == 2
    assert "add a [corpora.robust05] table" in capsys.readouterr().err


@pytest.mark.slow
def test_stand_in_run(tmp_path, capsys):
    out = tmp_path / "s.run"
    assert main(["routing", "run", "--system", "wcrobust0405", "--target", "reuters-far", "--preset", "C_3",
                 "--augment", "--depth", "50", "--quiet", "--out", str(out)]) == 0
    run = read_run(out)
    assert run.groupby("query_id").size().max() == 50
    assert set(run["run"]) == {"wcrobust0405_C_3_augmented"}
    assert "Reuters-21578 stand-in" in capsys.readouterr().out


def test_tol_scale_option(tmp_path, capsys):
    out = tmp_path / "t.run"
    assert main(["routing", "run", "--system", "wcrobust04", "--target", "reuters-near", "--preset", "tol_2",
                 "--tol-scale", "sum", "--depth", "20", "--quiet", "--out", str(out)]) == 0
    run = read_run(out)
    assert set(run["run"]) == {"wcrobust04_tol_2_tolsum"}
    assert run["score"].nunique() > 1  # the classifiers moved: scores differ (on the mean loss all are 0.5)
    assert "tol on the summed loss" in capsys.readouterr().out


def test_no_preprocessing_flag(tmp_path, capsys):
    config = _setup(tmp_path)
    scores = {}
    for flags, tag in (([], "wcrobust04_default"), (["--no-preprocessing"], "wcrobust04_default_unprocessed")):
        out = tmp_path / f"{tag}.run"
        assert main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                     "--quiet", *flags, "--out", str(out)]) == 0
        run = read_run(out)
        assert set(run["run"]) == {tag}
        scores[tag] = run.set_index("doc_id")["score"].sort_index()
    assert "no preprocessing" in capsys.readouterr().out
    assert not scores["wcrobust04_default"].equals(scores["wcrobust04_default_unprocessed"])


def test_implementation_option(tmp_path, capsys):
    config = _setup(tmp_path)
    for name in ("clef2019", "sigir2020"):
        out = tmp_path / f"{name}.run"
        assert main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                     "--implementation", name, "--quiet", "--out", str(out)]) == 0
        run = read_run(out)
        assert set(run["run"]) == {f"wcrobust04_default_{name}"} and set(run["query_id"]) == {"1"}
        # "oil" alone (N4) and the rest: the code's tokens keep every document of the target
        assert set(run["doc_id"]) == set(TARGET_DOCS)
        assert f"implementation {name}" in capsys.readouterr().out
