"""The user's corpora configuration: errors name the file and the setting to change."""

from __future__ import annotations

from pathlib import Path

import pytest

from irrepro.routing.config import CONFIG_VARIABLE, ConfigError, configured_collections, find_config, read_config

REPOSITORY = Path(__file__).resolve().parents[2]


def _write(tmp_path, text):
    path = tmp_path / "corpora.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_example_config_parses():
    settings = read_config(REPOSITORY / "routing-corpora.example.toml")
    assert list(settings) == ["robust04", "robust05", "core17", "core18"]
    assert settings["core17"].format == "nyt" and settings["core18"].qrels == "qrels/core18.txt"


def test_missing_path_names_the_setting(tmp_path):
    path = _write(tmp_path, '[corpora.robust04]\nformat = "trec"\npaths = ["nowhere"]\nqrels = "qrels/robust04.txt"\n')
    setting = read_config(path)["robust04"]
    assert setting.paths == (tmp_path / "nowhere",)  # relative to the configuration file
    with pytest.raises(ConfigError, match=r"nowhere does not exist; change \[corpora.robust04\] paths in .*corpora.toml"):
        setting.check_paths()


def test_qrels_from_file_or_registry_or_error(tmp_path):
    (tmp_path / "my.qrels").write_text("1 0 d1 1\n")
    path = _write(
        tmp_path,
        '[corpora.a]\nformat = "trec"\npaths = ["."]\nqrels = "my.qrels"\n'
        '[corpora.b]\nformat = "trec"\npaths = ["."]\nqrels = "qrels/core18.txt"\n'
        '[corpora.c]\nformat = "trec"\npaths = ["."]\nqrels = "missing.qrels"\n',
    )
    settings = read_config(path)
    assert settings["a"].qrels_path() == tmp_path / "my.qrels"
    assert settings["b"].qrels_path().name == "core18.txt"
    with pytest.raises(ConfigError, match=r"change \[corpora.c\] qrels"):
        settings["c"].qrels_path()


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no \\[corpora.NAME\\] table"),
        ("[corpora.x]\nformat = 'trec'\npaths = ['a']\n", "lacks the setting 'qrels'"),
        ("[corpora.x]\nformat = 'pdf'\npaths = ['a']\nqrels = 'q'\n", "format 'pdf' is not one of"),
        ("[corpora.x]\nformat = 'trec'\npaths = []\nqrels = 'q'\n", "non-empty list"),
        ("[corpora.x]\nformat = 'trec'\npaths = ['a']\nqrels = 'q'\ncolour = 1\n", "unknown setting"),
        ("[corpora.x\n", "not valid TOML"),
    ],
)
def test_malformed_config_raises(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        read_config(_write(tmp_path, text))


def test_find_config_order_and_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(CONFIG_VARIABLE, raising=False)
    with pytest.raises(ConfigError, match=f"--config or set {CONFIG_VARIABLE}"):
        find_config()
    explicit = _write(tmp_path, "")
    monkeypatch.setenv(CONFIG_VARIABLE, str(explicit))
    assert find_config() == explicit
    assert find_config(explicit) == explicit


def test_find_config_not_required_gives_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(CONFIG_VARIABLE, raising=False)
    assert find_config(required=False) is None
    monkeypatch.setenv(CONFIG_VARIABLE, str(tmp_path / "absent.toml"))
    assert find_config(required=False) is None
    (tmp_path / "routing-corpora.toml").write_text("")
    monkeypatch.delenv(CONFIG_VARIABLE)
    assert find_config(required=False) == Path("routing-corpora.toml")


def test_configured_collections_reads_corpora_and_qrels(tmp_path, monkeypatch):
    (tmp_path / "a.sgml").write_text("<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\noil prices\n</TEXT>\n</DOC>\n")
    (tmp_path / "a.qrels").write_text("1 0 D1 1\n")
    config = _write(tmp_path, '[corpora.a]\nformat = "trec"\npaths = ["a.sgml"]\nqrels = "a.qrels"\n')
    monkeypatch.setenv(CONFIG_VARIABLE, str(config))
    path, collections = configured_collections(["a"])
    assert path == config and list(collections) == ["a"]
    for _ in range(2):  # re-iterable: read again on every pass
        assert [(d.doc_id, d.text.strip()) for d in collections["a"].documents] == [("D1", "oil prices")]
    assert collections["a"].qrels["doc_id"].tolist() == ["D1"]
    with pytest.raises(ConfigError, match=r"corpus 'b' is not in .*corpora.toml; add a \[corpora.b\] table"):
        configured_collections(["a", "b"], config)


def test_a_configured_corpus_says_what_it_is_without_a_path(tmp_path):
    (tmp_path / "a.sgml").write_text("<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\noil prices\n</TEXT>\n</DOC>\n")
    (tmp_path / "a.qrels").write_text("1 0 D1 1\n")
    config = _write(tmp_path, '[corpora.core17]\nformat = "trec"\npaths = ["a.sgml"]\nqrels = "a.qrels"\n'
                              '[corpora.mine]\nformat = "trec"\npaths = ["a.sgml"]\nqrels = "a.qrels"\n')
    _, collections = configured_collections(["core17", "mine"], config)
    assert collections["core17"].about == {"source": "configured corpus [corpora.core17], format trec",
                                           "ir_datasets": "nyt/trec-core-2017"}
    assert "ir_datasets" not in collections["mine"].about
