"""The three implementations and each divergence between paper and code, pinned on a small input where
the choices give different outputs; expected outputs are computed independently (by hand, by the
authors' own algorithm, or by another scikit-learn path)."""

from __future__ import annotations

import collections
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression

from irrepro.routing import implementations as impl
from irrepro.routing.classifier import train_topic_models
from irrepro.routing.features import fit_tfidf
from irrepro.routing.pipeline import Collection, route
from irrepro.routing.preprocess import TermRule, stem
from irrepro.routing.ranking import TopK
from irrepro.routing.topics import routable_topics

# --------------------------------------------------------------------------- the registry


def test_every_choice_of_every_implementation_has_a_source():
    assert list(impl.IMPLEMENTATIONS) == ["paper", "clef2019", "sigir2020"]
    for implementation in impl.IMPLEMENTATIONS.values():
        assert set(implementation.sources) == set(impl.FIELDS)
        assert all(isinstance(source, str) and source for source in implementation.sources.values())
    assert impl.get("clef2019") is impl.IMPLEMENTATIONS["clef2019"]
    with pytest.raises(ValueError, match="unknown implementation 'clef2018'"):
        impl.get("clef2018")


def test_code_implementations_differ_from_paper_exactly_by_their_divergences():
    paper = impl.get("paper")
    for name in ("clef2019", "sigir2020"):
        code = impl.get(name)
        differing = {field for field in impl.FIELDS if getattr(code, field) != getattr(paper, field)}
        switched = {
            choice for row in impl.DIVERGENCES if name in row.implementations and row.switch for choice in row.switch
        }
        assert differing == switched, name


def test_each_switch_turns_on_one_divergence_on_top_of_paper():
    paper = impl.get("paper")
    for row in impl.DIVERGENCES:
        if row.switch is None:
            assert row.note  # why it cannot be switched
            with pytest.raises(ValueError, match="cannot be switched"):
                impl.switched(row.name)
            continue
        one = impl.switched(row.name)
        assert one.name == f"paper+{row.name}"
        assert {f for f in impl.FIELDS if getattr(one, f) != getattr(paper, f)} == set(row.switch)
        assert all(one.sources[choice].startswith("switched") for choice in row.switch)


def test_divergences_table():
    table = impl.divergences()
    assert list(table.columns) == ["divergence", "paper", "code", "source", "implementations", "switch", "note"]
    assert table["divergence"].is_unique and len(table) == len(impl.DIVERGENCES)
    assert table.loc[table["divergence"] == "sublinear_tf", "switch"].iat[0] == {"sublinear_tf": True}


def test_inconsistent_implementation_is_refused():
    with pytest.raises(ValueError, match="tol_scale is None exactly for liblinear"):
        impl.get("paper").with_choices("bad", solver="liblinear")
    with pytest.raises(ValueError, match="tokenizer must be one of"):
        impl.get("paper").with_choices("bad", tokenizer="whitespace")


# --------------------------------------------------------------------------- tokens

TEXT = "Crude-oil U.S. naïve café_au_lait 3 x-ray"


def test_tokens_hyphens_and_unicode():
    # irrepro: lowercase runs of [a-z0-9-]: the hyphen joins, "ï" and "é" and "_" split
    assert TermRule(preprocess=False)(TEXT) == ["crude-oil", "u", "s", "na", "ve", "caf", "au", "lait", "3", "x-ray"]
    # the code: \w+ runs (hyphen splits; Unicode letters and "_" are word characters), lowercase
    assert TermRule("unicode-word", preprocess=False)(TEXT) == [
        "crude", "oil", "u", "s", "naïve", "café_au_lait", "3", "x", "ray",
    ]


def test_term_rule_of_an_implementation():
    assert impl.get("clef2019").term_rule()("U.S. Rallies of 3 x-rays") == ["ralli", "ray"]
    assert impl.get("paper").term_rule(preprocess=False)("U.S. Rallies") == ["u", "s", "rallies"]


def test_one_character_terms_are_dropped_by_the_vectoriser_pattern():
    assert TermRule("unicode-word", preprocess=False, min_length=2)(TEXT) == ["crude", "oil", "naïve", "café_au_lait", "ray"]
    # with the preprocessing: stop word "s" goes, the stems are read back by (?u)\b\w\w+\b
    assert TermRule("unicode-word", min_length=2)("U.S. Rallies of 3 banks") == [stem("rallies"), stem("banks")] == ["ralli", "bank"]
    assert TermRule(min_length=1)("U.S. Rallies of 3 banks") == ["u", "ralli", "3", "bank"]


def _authors_terms(text: str, preprocess: bool) -> list[str]:
    """The authors' pipeline itself: NLTK's RegexpTokenizer, lower, stop words, Porter, then the
    stems joined by blanks through scikit-learn's default analyser (or the raw text straight into it)."""
    from nltk.tokenize import RegexpTokenizer
    from sklearn.feature_extraction.text import TfidfVectorizer

    from irrepro.routing.preprocess import STOP_WORDS

    analyser = TfidfVectorizer().build_analyzer()
    if not preprocess:
        return analyser(text)
    words = [w.lower() for w in RegexpTokenizer(r"\w+").tokenize(text) if w.lower() not in STOP_WORDS]
    return analyser(" ".join(stem(word) for word in words))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aAbZ9_-' .,éÉüßİıﬁ\u0307\t")), max_size=40), st.booleans())
def test_code_term_rule_is_the_authors_pipeline(text, preprocess):
    assert TermRule("unicode-word", preprocess=preprocess, min_length=2)(text) == _authors_terms(text, preprocess)


# --------------------------------------------------------------------------- tf weighting


def test_raw_and_sublinear_tf_against_a_hand_computation():
    texts = ["oil oil oil gold", "gold wheat"]
    raw = fit_tfidf(texts, preprocess=False, sublinear_tf=False)
    sublinear = fit_tfidf(texts, preprocess=False)
    assert raw.terms == ["gold", "oil", "wheat"]
    idf_oil = math.log(3 / 2) + 1  # n = 2 documents, df(oil) = 1, smoothed
    idf_gold = math.log(3 / 3) + 1
    for model, tf_oil in ((raw, 3.0), (sublinear, 1 + math.log(3))):
        gold, oil = idf_gold * 1.0, idf_oil * tf_oil
        norm = math.hypot(gold, oil)
        np.testing.assert_allclose(model.transform([texts[0]]).toarray(), [[gold / norm, oil / norm, 0.0]], rtol=1e-12)
    assert not np.allclose(raw.transform([texts[0]]).toarray(), sublinear.transform([texts[0]]).toarray())


# --------------------------------------------------------------------------- solver


def _training_set():
    rng = np.random.default_rng(7)
    features = sp.csr_matrix(rng.random((40, 6)) * (rng.random((40, 6)) < 0.5))
    labels = (np.asarray(features[:, 0].todense()).ravel() + 0.3 * rng.random(40) > 0.45).astype(int)
    labels[:8] = 1  # mostly relevant: a large intercept, which a penalty pulls towards 0
    return features, labels


def test_liblinear_penalises_the_intercept_lbfgs_does_not():
    features, labels = _training_set()
    examples = {"t": (np.arange(40), labels)}
    liblinear = train_topic_models(features, examples, C=1.5, tol=1e-10, solver="liblinear", max_iter=1000)
    lbfgs = train_topic_models(features, examples, C=1.5, tol=1e-10, solver="lbfgs", max_iter=1000)
    # independently: liblinear's problem is lbfgs without intercept on [X, 1], every weight penalised
    augmented = sp.hstack([features, np.ones((40, 1))]).tocsr()
    reference = LogisticRegression(C=1.5, fit_intercept=False, tol=1e-12, max_iter=10_000).fit(augmented, labels)
    np.testing.assert_allclose(liblinear.coef[:, 0], reference.coef_[0, :-1], atol=1e-5)
    np.testing.assert_allclose(liblinear.intercept[0], reference.coef_[0, -1], atol=1e-5)
    unpenalised = LogisticRegression(C=1.5, tol=1e-12, max_iter=10_000).fit(features, labels)
    np.testing.assert_allclose(lbfgs.intercept[0], unpenalised.intercept_[0], atol=1e-5)
    assert abs(lbfgs.intercept[0] - liblinear.intercept[0]) > 0.05


def test_tol_on_the_summed_loss_is_not_for_liblinear():
    features, labels = _training_set()
    with pytest.raises(ValueError, match="applies to lbfgs only"):
        train_topic_models(features, {"t": (np.arange(40), labels)}, solver="liblinear", tol_scale="sum")


# --------------------------------------------------------------------------- topic sets


def _qrels(topics):
    return pd.DataFrame({"query_id": list(topics), "doc_id": [f"d{t}" for t in topics], "relevance": 1})


def test_topic_sets_of_the_three_implementations():
    target, robust04, robust05 = _qrels(["1", "2", "3", "4"]), _qrels(["1", "2", "3"]), _qrels(["2", "3", "4", "5"])
    expected = {"paper": ["1", "2", "3", "4"], "clef2019": ["2", "3"], "sigir2020": ["1", "2", "3"]}
    for name, topics in expected.items():
        assert routable_topics([robust04, robust05], target, rule=impl.get(name).topics) == topics


# --------------------------------------------------------------------------- ties


def _authors_ranking(doc_ids, scores, k):
    """The authors' core/ranking.py: a dict in score-file order, stable sort ascending, pop from the end."""
    score_dict = {doc_id: score for doc_id, score in zip(doc_ids, scores, strict=True)}
    ordered = collections.OrderedDict(sorted(score_dict.items(), key=lambda kv: kv[1]))
    return [ordered.popitem()[0] for _ in range(k)]


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.sampled_from([0.1, 0.5, 0.5, 0.9]), min_size=1, max_size=40),
    k=st.integers(1, 40),
    chunk=st.integers(1, 7),
)
def test_ties_last_is_the_authors_ranking(scores, k, chunk):
    k = min(k, len(scores))
    doc_ids = [f"d{i}" for i in range(len(scores))]
    top = TopK(["t"], k=k, ties="last")
    for start in range(0, len(scores), chunk):
        top.update(np.array(scores[start : start + chunk])[:, None], doc_ids[start : start + chunk])
    assert top.frame(run="r")["doc_id"].tolist() == _authors_ranking(doc_ids, scores, k)


def test_ties_first_and_last_disagree_at_the_cut():
    for ties, expected in (("first", ["c", "a"]), ("last", ["c", "d"])):
        top = TopK(["t"], k=2, ties=ties)
        top.update(np.array([[0.5], [0.5], [0.9], [0.5]]), ["a", "b", "c", "d"])
        assert top.frame(run="r")["doc_id"].tolist() == expected


# --------------------------------------------------------------------------- repeated ids


def _doc(doc_id, text):
    return SimpleNamespace(doc_id=doc_id, text=text)


TRAIN_QRELS = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"], "relevance": [1, 0, 1]})
TARGET_QRELS = pd.DataFrame({"query_id": "1", "doc_id": ["x", "y"], "relevance": [1, 0]})


def test_repeated_ids_an_error_for_paper_the_last_one_for_the_code():
    training = Collection("train", [_doc("a", "oil price"), _doc("b", "gold"), _doc("c", "oil"), _doc("b", "wheat")], TRAIN_QRELS)
    target = Collection("target", [_doc("x", "oil"), _doc("y", "gold"), _doc("x", "wheat")], TARGET_QRELS)
    with pytest.raises(ValueError, match="holds document 'b' twice"):
        route([training], target)
    code = impl.switched("repeated_ids")
    result = route([training], target, implementation=code)
    assert result.collapsed == {"train": 1, "target": 1}
    assert sorted(result.run["doc_id"]) == ["x", "y"] and result.n_target_documents == 2
    # the x kept is the last one ("wheat"): the run equals that of a target holding only that copy
    alone = route([training], Collection("target", [_doc("y", "gold"), _doc("x", "wheat")], TARGET_QRELS), implementation=code)
    pd.testing.assert_frame_equal(
        result.run.sort_values("doc_id").reset_index(drop=True)[["doc_id", "score"]],
        alone.run.sort_values("doc_id").reset_index(drop=True)[["doc_id", "score"]],
    )


# --------------------------------------------------------------------------- implementations end to end (pipeline)


def test_route_records_the_implementation_and_keyword_overrides_win():
    training = Collection("train", [_doc("a", "oil price"), _doc("b", "gold"), _doc("c", "oil")], TRAIN_QRELS)
    target = Collection("target", [_doc("x", "oil"), _doc("y", "gold")], TARGET_QRELS)
    sigir = route([training], target, implementation="sigir2020")
    assert sigir.parameters["implementation"] == "sigir2020" and sigir.parameters["tol_scale"] == "sum"
    overridden = route([training], target, implementation="sigir2020", tol_scale="mean")
    assert overridden.parameters["tol_scale"] == "mean"
    clef = route([training], target, implementation="clef2019")
    assert (clef.parameters["solver"], clef.parameters["sublinear_tf"]) == ("liblinear", False)


def test_reader_options_drop_empty_documents_of_trec_sgml_only():
    assert impl.get("paper").reader_options("trec") == {"text": "anserini", "drop_empty": False}
    assert impl.get("clef2019").reader_options("trec") == {"text": "authors", "drop_empty": True}
    assert impl.get("sigir2020").reader_options("wapo") == {"text": "authors", "drop_empty": False}
    assert impl.switched("empty_documents").reader_options("trec") == {"text": "anserini", "drop_empty": True}


def test_configured_corpora_are_read_with_the_implementations_text_rule(tmp_path):
    from irrepro.routing.config import configured_collections

    (tmp_path / "docs.sgml").write_text(
        "<DOC>\n<DOCNO> FT1 </DOCNO>\n<HEADLINE>Jet jubilee</HEADLINE>\n<TEXT>\nThe jet.\n</TEXT>\n</DOC>\n"
        "<DOC>\n<DOCNO> EMPTY </DOCNO>\n</DOC>\n"
    )
    (tmp_path / "q.txt").write_text("1 0 FT1 1\n")
    config = tmp_path / "c.toml"
    config.write_text('[corpora.robust04]\nformat = "trec"\npaths = ["docs.sgml"]\nqrels = "q.txt"\n')
    texts = {}
    for name in ("paper", "clef2019"):
        _, collections = configured_collections(["robust04"], config, implementation=name)
        texts[name] = {d.doc_id: d.text for d in collections["robust04"].documents}
    assert texts == {"paper": {"FT1": "Jet jubilee The jet.", "EMPTY": ""}, "clef2019": {"FT1": "The jet."}}


# --------------------------------------------------------------------------- end to end on each licensed format


def _licensed_formats(tmp_path):
    """Tiny Robust04 (TREC disks), Robust05 (AQUAINT), Core17 (NYT tarball) and Core18 (WaPo) corpora."""
    import json

    from tests.routing.test_corpora import write_tgz
    from tests.routing.test_corpora_text import NITF_INDEXED

    stories = {"oil": "Crude-oil prices rose; OPEC cut output.", "gold": "Gold bullion rallied.", "grain": "Wheat exports grew."}
    disk = "".join(f"<DOC>\n<DOCNO> FT-{k} </DOCNO>\n<HEADLINE>{k}</HEADLINE>\n<TEXT>\n{v}\n</TEXT>\n</DOC>\n" for k, v in stories.items())
    aquaint = "".join(
        f"<DOC>\n<DOCNO> APW-{k} </DOCNO>\n<BODY>\n<HEADLINE>\n{k} news\n</HEADLINE>\n<TEXT>\n<P>\n{v}\n</P>\n</TEXT>\n</BODY>\n</DOC>\n"
        for k, v in stories.items()
    )
    (tmp_path / "disk45").write_text(disk + "<DOC>\n<DOCNO> FT-EMPTY </DOCNO>\n</DOC>\n")
    (tmp_path / "aquaint").write_text(aquaint)
    nitf = NITF_INDEXED.replace("Budget Talks Stall", "Oil prices rose").replace("1815718", "{id}")
    write_tgz(tmp_path / "nyt" / "1996.tgz", {f"{i}.xml": nitf.replace("{id}", str(i)).encode() for i in (1, 2)})
    wapo = [{"id": f"w{i}", "contents": [{"type": "title", "content": text}]} for i, text in enumerate(["Oil rose", "Gold fell"])]
    (tmp_path / "wapo.jl").write_text("".join(json.dumps(record) + "\n" for record in wapo))
    qrels = {
        "r04": "1 0 FT-oil 1\n1 0 FT-gold 0\n1 0 FT-grain 0\n1 0 FT-EMPTY 0\n", "r05": "1 0 APW-oil 2\n1 0 APW-gold 0\n",
        "c17": "1 0 1 1\n1 0 2 0\n", "c18": "1 0 w0 1\n1 0 w1 0\n",
    }
    for name, text in qrels.items():
        (tmp_path / f"{name}.qrels").write_text(text)
    config = tmp_path / "corpora.toml"
    config.write_text(
        '[corpora.robust04]\nformat = "trec"\npaths = ["disk45"]\nqrels = "r04.qrels"\n'
        '[corpora.robust05]\nformat = "trec"\npaths = ["aquaint"]\nqrels = "r05.qrels"\n'
        '[corpora.core17]\nformat = "nyt"\npaths = ["nyt"]\nqrels = "c17.qrels"\n'
        '[corpora.core18]\nformat = "wapo"\npaths = ["wapo.jl"]\nqrels = "c18.qrels"\n'
    )
    return config


@pytest.mark.parametrize("name", ["paper", "clef2019", "sigir2020"])
def test_each_implementation_runs_on_small_files_of_each_licensed_format(tmp_path, name):
    from irrepro.routing.config import configured_collections
    from irrepro.routing.pipeline import run_system
    from irrepro.runs import read_run, write_run

    _, collections = configured_collections(["robust04", "robust05", "core17", "core18"], _licensed_formats(tmp_path), implementation=name)
    for target, ids in (("core17", {"1", "2"}), ("core18", {"w0", "w1"})):
        result = run_system("wcrobust0405", collections, collections[target], implementation=name, progress=False)
        write_run(result.run, tmp_path / f"{target}.run")
        run = read_run(tmp_path / f"{target}.run")
        assert set(run["doc_id"]) == ids and set(run["query_id"]) == {"1"}
        assert result.sources["1"] == ["robust04", "robust05"] and result.missing_judged["robust05"] == 0
        # the empty FT document is judged: found by paper (kept, empty), missing for the code (dropped)
        assert result.missing_judged["robust04"] == (0 if name == "paper" else 1)
