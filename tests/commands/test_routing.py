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


# --------------------------------------------------------------------------- damaged and empty corpora


def _trec_text(docs) -> str:
    return "".join(f"<DOC>\n<DOCNO> {doc_id} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n" for doc_id, text in docs.items())


def _wapo_text(docs) -> str:
    import json

    return "".join(json.dumps({"id": doc_id, "title": text, "contents": []}) + "\n" for doc_id, text in docs.items())


def _damaged_gzip(path, text: str, damage: str):
    import gzip

    data = bytearray(gzip.compress((text * 40).encode(), mtime=0))  # repeated: the cut falls inside the data
    if damage == "truncated":
        data = data[: len(data) // 2]
    else:
        data[-8:-4] = bytes(byte ^ 0xFF for byte in data[-8:-4])  # a wrong CRC-32
    path.write_bytes(bytes(data))


def _configure(tmp_path, training: tuple[str, str], target: tuple[str, str]):
    """A configuration with the training corpus (robust04) and the target (mytarget) as (format, file)."""
    (tmp_path / "train.qrels").write_text("1 0 R1 1\n1 0 R2 2\n1 0 R3 0\n1 0 R4 0\n1 0 R5 1\n")
    (tmp_path / "target.qrels").write_text("1 0 N1 1\n1 0 N2 0\n1 0 N4 1\n")
    config = tmp_path / "corpora.toml"
    config.write_text(
        f'[corpora.robust04]\nformat = "{training[0]}"\npaths = ["{training[1]}"]\nqrels = "train.qrels"\n'
        f'[corpora.mytarget]\nformat = "{target[0]}"\npaths = ["{target[1]}"]\nqrels = "target.qrels"\n'
    )
    return config


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
@pytest.mark.parametrize(("side", "corpus_format"), [("target", "trec"), ("training", "trec"), ("target", "wapo"), ("training", "wapo")])
def test_a_damaged_gzip_corpus_is_named_with_exit_2(tmp_path, capsys, side, corpus_format, damage):
    name = {"trec": "docs.gz", "wapo": "docs.jl.gz"}[corpus_format]
    text = {"trec": _trec_text, "wapo": _wapo_text}[corpus_format]
    (tmp_path / "train.sgml").write_text(_trec_text(TRAINING_DOCS))
    (tmp_path / "target.sgml").write_text(_trec_text(TARGET_DOCS))
    damaged = tmp_path / name
    _damaged_gzip(damaged, text(TRAINING_DOCS if side == "training" else TARGET_DOCS), damage)
    good = ("trec", "train.sgml") if side == "target" else ("trec", "target.sgml")
    config = _configure(tmp_path, (corpus_format, name) if side == "training" else good,
                        (corpus_format, name) if side == "target" else good)  # fmt: skip
    status = main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                   "--quiet", "--out", str(tmp_path / "r.run")])
    error = capsys.readouterr().err
    assert status == 2, error
    what = "truncated: the compressed data ends before its end marker" if damage == "truncated" else "corrupt compressed data"
    assert error.startswith(f"irrepro routing: error: {damaged}: {what}") and len(error.strip().splitlines()) == 1
    assert not (tmp_path / "r.run").exists()


@pytest.mark.parametrize("side", ["target", "training"])
def test_a_corpus_without_documents_is_named_with_exit_2(tmp_path, capsys, side):
    (tmp_path / "train.sgml").write_text(_trec_text(TRAINING_DOCS))
    (tmp_path / "target.sgml").write_text(_trec_text(TARGET_DOCS))
    (tmp_path / "notes.txt").write_text("notes, not a TREC SGML file\n")
    empty = ("trec", "notes.txt")
    config = _configure(tmp_path, empty if side == "training" else ("trec", "train.sgml"),
                        empty if side == "target" else ("trec", "target.sgml"))  # fmt: skip
    status = main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                   "--quiet", "--out", str(tmp_path / "r.run")])
    error = capsys.readouterr().err
    assert status == 2, error
    corpus = "robust04" if side == "training" else "mytarget"
    assert f"error: corpus '{corpus}' yields no documents (1 file(s) read as 'trec': {tmp_path / 'notes.txt'})" in error
    assert f"check format and paths of [corpora.{corpus}] in {config}" in error


def test_a_damaged_corpus_in_a_grid_is_named_with_exit_2(tmp_path, capsys):
    """The error raised on a Dask worker reaches the command as it is."""
    (tmp_path / "train.sgml").write_text(_trec_text(TRAINING_DOCS))
    _damaged_gzip(tmp_path / "docs.gz", _trec_text(TARGET_DOCS), "truncated")
    config = _configure(tmp_path, ("trec", "train.sgml"), ("trec", "docs.gz"))
    status = main(["routing", "grid", "--systems", "wcrobust04", "--targets", "mytarget", "--constellations", "C_4",
                   "--config", str(config), "--workers", "1", "--quiet", "--out", str(tmp_path / "grid")])
    error = capsys.readouterr().err
    assert status == 2, error
    assert f"error: {tmp_path / 'docs.gz'}: truncated" in error


# --------------------------------------------------------------------------- ir_metadata headers


def test_a_run_carries_its_header_which_repro_eval_reads(tmp_path):
    from repro_eval.metadata import MetadataHandler

    from irrepro.runs import run_metadata

    config = _setup(tmp_path)
    config.write_text(config.read_text().replace("[corpora.mytarget]", "[corpora.core17]"))
    (tmp_path / "study.yaml").write_text("research goal:\n  venue:\n    name: CLEF\n    year: 2019\n")
    out = tmp_path / "r.run"
    assert main(["routing", "run", "--system", "wcrobust04", "--target", "core17", "--config", str(config), "--quiet",
                 "--actor", "A. Person", "--team", "irrepro", "--metadata", str(tmp_path / "study.yaml"),
                 "--out", str(out)]) == 0
    header = run_metadata(read_run(out))
    assert MetadataHandler.read_metadata(str(out)) == header.to_dict()
    assert header["actor"] == {"role": "reproducer", "name": "A. Person", "team": "irrepro"}
    assert header["research goal"]["venue"] == {"name": "CLEF", "year": 2019}
    test_collection = header["data"]["test collection"]
    assert test_collection["name"] == "core17" and test_collection["ir_datasets"] == "nyt/trec-core-2017"
    assert str(tmp_path) not in out.read_text()  # no path of this machine: the data, not where it is kept
    assert header["implementation"]["name"] == "paper"


def test_a_run_made_again_is_the_same_file(tmp_path):
    config = _setup(tmp_path)
    files = [tmp_path / "a.run", tmp_path / "b.run"]
    for out in files:
        assert main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                     "--quiet", "--out", str(out)]) == 0
    assert files[0].read_bytes() == files[1].read_bytes()
    assert files[0].read_text().startswith("# ir_metadata.start\n")


def test_no_metadata_writes_the_bare_run_and_refuses_header_options(tmp_path, capsys):
    config = _setup(tmp_path)
    out = tmp_path / "bare.run"
    argv = ["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config), "--quiet",
            "--no-metadata", "--out", str(out)]
    assert main(argv) == 0
    assert not out.read_text().startswith("#")
    assert main([*argv, "--actor", "A. Person"]) == 2
    assert "--no-metadata writes no header; --actor would go into one" in capsys.readouterr().err


def test_a_bad_metadata_file_is_named_with_its_line(tmp_path, capsys):
    config = _setup(tmp_path)
    (tmp_path / "bad.yaml").write_text("actor:\n  name: [A\n")
    out = tmp_path / "r.run"
    assert main(["routing", "run", "--system", "wcrobust04", "--target", "mytarget", "--config", str(config),
                 "--metadata", str(tmp_path / "bad.yaml"), "--out", str(out)]) == 2
    assert f"{tmp_path / 'bad.yaml'}, line 2: the ir_metadata fields are not valid YAML" in capsys.readouterr().err
    assert not out.exists()
