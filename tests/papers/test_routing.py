"""Tests of the routing-runs chapter's tables (irrepro.papers.routing) and figures (irrepro.plots.routing)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.figure import Figure

from irrepro.papers import routing as paper
from irrepro.papers.clef2019 import published_facts
from irrepro.plots import routing as plots
from irrepro.routing.corpora import Document
from irrepro.routing.pipeline import Collection

# --------------------------------------------------------------------------- a tiny world in four roles

_WORDS = {
    "oil": "crude oil barrel opec refinery pipeline",
    "gold": "gold bullion ounce mine jewellery vault",
    "corn": "corn harvest bushel farm grain silo",
}
_FILLER = ["market", "report", "monday", "traders", "said", "prices", "week", "analysts", "expect", "figures"]


def _collection(role: str, seed: int) -> Collection:
    documents, judgments = [], []
    # 170 documents with two words of their own each: enough that the smallest printed constellations
    # (max_df = 0.625% of the documents, max_features = 0.625% of the terms) keep some terms
    for index in range(170):
        topic = list(_WORDS)[index % 3]
        words = _WORDS[topic].split()
        # topic words shifted by the seed, so the four roles differ a little
        own = [f"u{seed}x{index}a", f"u{seed}x{index}b"]
        if index % 4 == seed % 4:  # some documents also speak of another topic: imperfect rankings
            own += _WORDS[list(_WORDS)[(index + 1) % 3]].split()[index % 5 : index % 5 + 2]
        text = " ".join(words[(index + seed) % 6 : (index + seed) % 6 + 3] + _FILLER[(index * seed) % 7 :][:4] + own)
        doc_id = f"{role}-{index:03d}"
        documents.append(Document(doc_id, text))
        for query in _WORDS:
            judgments.append((query, "0", doc_id, int(query == topic)))
    qrels = pd.DataFrame(judgments, columns=["query_id", "iteration", "doc_id", "relevance"])
    return Collection(role, documents, qrels)


@pytest.fixture(scope="module")
def tiny():
    collections = {role: _collection(role, seed) for seed, role in enumerate(paper.ROLES, start=1)}
    return paper.RoutingData(label="tiny test data", collections=collections, corpora={r: r for r in paper.ROLES})


# --------------------------------------------------------------------------- section 1: real qrels


def test_topic_sets_match_the_paper():
    table = paper.topic_sets()
    got = {(t, r): n for t, r, n in zip(table["target"], table["training"], table["intersection"], strict=True)}
    assert got[("Core17", "Robust04")] == 50
    assert got[("Core17", "Robust05")] == 33
    assert got[("Core18", "Robust04")] == 25
    assert got[("Core18", "Robust05")] == 15
    assert got[("Core17", "Robust04 ∪ Robust05")] == 50  # complemented WCrobust0405
    assert got[("Core17 ∩ Core18", "Robust04 ∩ Robust05")] == 15
    printed = table.dropna(subset=["printed"])
    assert (printed["difference"] == 0).all()
    assert set(table["data"]) == {published_facts.TREC_DATA}


def test_common_topics_are_the_fifteen_of_the_figures():
    topics = paper.common_topics()
    assert len(topics) == 15
    assert topics[0] == "336" and topics[-1] == "439"


def test_official_scores_agree_with_the_sigir2020_files():
    table = paper.official_core17_scores()
    assert len(table) == 6
    assert (table["difference"].abs() < 1e-9).all()
    row = table[(table["system"] == "WCrobust0405") & (table["measure"] == "AP")].iloc[0]
    assert row["published"] == pytest.approx(0.4278)


# --------------------------------------------------------------------------- figures


def test_relevance_transfer_bars_are_in_decreasing_order_from_the_top():
    table = pd.DataFrame(
        {"target": ["A", "B", "C"], "training": ["B", "C", "A"], "MAP": [0.1, 0.3, 0.2], "topics": [5, 6, 7]}
    )
    figure = plots.relevance_transfer_bars(table)
    axis = figure.axes[0]
    lengths = [bar.get_width() for bar in axis.patches]
    assert lengths == sorted(lengths, reverse=True)
    assert [t.get_text() for t in axis.get_yticklabels()] == ["B / C", "C / A", "A / B"]
    assert axis.yaxis_inverted()  # the first (highest) bar is drawn at the top
    plt.close(figure)


def test_figures_reject_missing_columns():
    with pytest.raises(ValueError, match="MAP"):
        plots.relevance_transfer_bars(pd.DataFrame({"target": [], "training": [], "topics": []}))
    with pytest.raises(ValueError, match="AP"):
        plots.per_topic_ap_bars(pd.DataFrame({"target": [], "system": [], "topic": []}))


def test_per_topic_and_topic_set_figures_draw():
    per_topic = pd.DataFrame(
        {
            "target": ["near"] * 4 + ["far"] * 4,
            "system": ["WCrobust04", "WCrobust04", "WCrobust0405", "WCrobust0405"] * 2,
            "topic": ["2", "10"] * 4,
            "AP": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
        }
    )
    figure = plots.per_topic_ap_bars(per_topic)
    assert isinstance(figure, Figure) and len(figure.axes) == 2
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["2", "10"]  # numeric topic order
    plt.close(figure)
    sets = pd.DataFrame({"target": ["X", "X"], "training": ["a", "b"], "intersection": [3, 4]})
    figure = plots.topic_set_diagram(sets)
    assert sorted(t.get_text() for t in figure.axes[0].texts) == ["3", "4"]
    plt.close(figure)


# --------------------------------------------------------------------------- sections 2-6 on tiny data


def test_routing_data_needs_all_four_roles(tiny):
    with pytest.raises(ValueError, match="core18"):
        paper.RoutingData(label="x", collections={r: tiny.collections[r] for r in paper.ROLES[:3]}, corpora={})


def test_relevance_transfer_covers_every_ordered_pair(tiny):
    table = paper.relevance_transfer(tiny)
    assert len(table) == 12
    assert not (table["target"] == table["training"]).any()
    assert set(table["topics"]) == {3}
    assert table["MAP"].between(0, 1).all()
    assert set(table["data"]) == {"tiny test data"}


def test_runs_are_made_once_and_reused(tiny):
    first = tiny.run(("robust04",), "core17")
    assert tiny.run(("robust04",), "core17") is first
    assert tiny.system_run("wcrobust04", "core17") is first  # WCrobust04 = trained on Robust04


def test_runs_on_a_dask_cluster_equal_those_made_here(tiny):
    from irrepro.routing.experiment import local_cluster

    requests = [paper.RunRequest(("robust05",), "core18"), paper.RunRequest(("robust04", "robust05"), "core18")]
    here = paper.RoutingData(label="s", collections=tiny.collections, corpora=tiny.corpora)
    there = paper.RoutingData(label="p", collections=tiny.collections, corpora=tiny.corpora)
    here.prefetch(requests)
    with local_cluster(workers=2, memory_limit="1GiB") as client:
        there.prefetch(requests, client=client)
    for request in requests:
        a = here.run(request.training, request.target).run
        b = there.run(request.training, request.target).run
        pd.testing.assert_frame_equal(a, b)
    assert len(there.runs()) == 2 and there.n_jobs == 2 and here.n_jobs == 1


def test_feature_augmentation_compares_the_same_topics(tiny):
    table = paper.feature_augmentation(tiny)
    assert len(table) == 12
    difference = table["MAP augmented"] - table["MAP training only"]
    assert difference.to_numpy() == pytest.approx(table["difference"].to_numpy())
    assert table["p (paired t-test)"].dropna().between(0, 1).all()


def test_replication_marks_the_official_targets(tiny):
    table = paper.replication(tiny)
    official = table[table["setting"] == "original"]
    assert len(official) == 2 and official["data"].str.contains("licensed corpora only").all()
    assert official["MAP"].tolist() == [0.3711, 0.4278]
    ours = table[table["setting"] != "original"]
    assert set(ours["data"]) == {"tiny test data"}
    # every topic is judged everywhere: the intersection variant is the complemented run, given once
    # per target and preprocessing choice
    assert ours["run"].str.contains("= complemented").sum() == 4
    assert set(ours["target"]) == {"NYT", "WaPo"}
    assert ours.groupby(["target", "preprocessing"]).size().to_dict() == {
        (t, p): 2 for t in ("NYT", "WaPo") for p in paper.PREPROCESSING.values()
    }
    assert set(official["preprocessing"]) == {"not described"}


def test_runs_without_preprocessing_are_made_and_tabulated(tiny):
    table = paper.replication(tiny, official=False)
    effect = paper.preprocessing_effect(table)
    assert len(effect) == 4  # 2 runs x 2 targets
    assert effect["difference"].to_numpy() == pytest.approx((effect["MAP with"] - effect["MAP without"]).to_numpy())
    plain = tiny.system_run("wcrobust04", "core17", preprocess=False)
    processed = tiny.system_run("wcrobust04", "core17")
    assert plain.parameters["preprocess"] is False and str(plain.run["run"].iat[0]).endswith("_unprocessed")
    assert processed.parameters["preprocess"] is True and plain is not processed
    # (the tiny world's words stem one to one, so here both runs rank alike; that the choice changes
    # a ranking is tested in tests/routing/test_pipeline.py)


@pytest.mark.slow
def test_target_size_check_on_the_stand_in():
    table = paper.target_size_check()
    assert table["targets"].tolist() == ["as built", "as built", "cut to equal size", "cut to equal size"]
    built, equal = table.iloc[:2], table.iloc[2:]
    assert built["documents"].nunique() == 2 and equal["documents"].nunique() == 1
    assert equal["documents"].iat[0] == built["documents"].min()
    assert (table["topics"] >= 1).all() and table["relevant share"].between(0, 1).all()
    far = table[table["target"] == "far (WaPo role)"]
    near = table[table["target"] == "near (NYT role)"]
    expected = far["MAP WCrobust04"].to_numpy() - near["MAP WCrobust04"].to_numpy()
    assert far["far − near WCrobust04"].to_numpy() == pytest.approx(expected)
    assert near["far − near WCrobust04"].isna().all()


def test_per_topic_ap_and_gains(tiny):
    per_topic = paper.per_topic_ap(tiny)
    assert len(per_topic) == 2 * 2 * 3  # targets x systems x topics
    gains = paper.per_topic_gains(per_topic)
    assert gains["topics"].tolist() == [3, 3]
    assert gains["improved"].between(0, 3).all()


def test_own_dataset_measures_hold_every_statistic(tiny):
    measures = paper.own_dataset_measures(tiny)
    replicability = measures[measures["setting"] == "replicability"]
    reproducibility = measures[measures["setting"] == "reproducibility"]
    assert set(replicability["statistic"]) == {"ARP", "RMSE", "p-value", "KTU", "RBO", "ER", "DeltaRI"}
    assert set(reproducibility["statistic"]) == {"ARP", "p-value", "ER", "DeltaRI"}
    arp = replicability[(replicability["statistic"] == "ARP") & (replicability["system"] == "WCrobust04")]
    assert len(arp) == 20 * 3  # constellations x measures
    ktu = replicability[replicability["statistic"] == "KTU"]["value"]
    assert ktu.between(-1, 1).all()
    table = paper.own_dataset_table(measures, setting="replicability", system="WCrobust0405")
    assert table.index[0] == "original (default, near target)" and len(table) == 21
    points = paper.own_dataset_er_deltari_points(measures, setting="reproducibility")
    assert {"family", "level", "measure", "ER", "DeltaRI"} <= set(points.columns)
    assert len(points) == 20 * 3
    assert paper.er_deltari_points is paper.own_dataset_er_deltari_points  # the old name, for the chapter


def test_constellation_arp_comparison_is_relative_to_the_default(tiny):
    table = paper.constellation_arp_comparison(paper.own_dataset_measures(tiny))
    assert len(table) == 2 * 21
    defaults = table[table["constellation"] == "default"]
    assert defaults["ratio to default (ours)"].tolist() == [1.0, 1.0]
    assert defaults["ratio to default (SIGIR 2020)"].tolist() == [1.0, 1.0]
    published = table[(table["system"] == "WCrobust0405") & (table["constellation"] == "default")]
    assert published["AP SIGIR 2020 (Core17)"].iat[0] == pytest.approx(0.4208, abs=1e-4)  # rpl_wcrobust0405_1


def test_an_unchanged_constellation_replicates_perfectly(tiny):
    """A run identical to the original: KTU = RBO = 1, RMSE = 0 (tol only changes when lbfgs stops)."""
    original = tiny.system_run("wcrobust04", "core17")
    from irrepro.reproducibility import ranking

    measures = ranking.ranking_measures(original.run, {"same": original.run}, depth=10)
    assert measures["KTU"]["same"].tolist() == [1.0, 1.0, 1.0]
    assert measures["RBO"]["same"].to_numpy() == pytest.approx(1.0)


def test_tolerance_check_contrasts_the_two_tol_scales(tiny):
    table = paper.tolerance_check(tiny)
    assert len(table) == 12 and set(table["constellation"]) == {"default", "tol_1", "tol_2", "tol_3", "tol_4", "tol_5"}
    mean = table[table["loss tol bounds"].str.startswith("mean")].set_index("constellation")
    summed = table[table["loss tol bounds"].str.startswith("sum")].set_index("constellation")
    # tol >= 1 on the mean loss: lbfgs never moves (every topic stopped before the first step)
    assert (mean.loc["tol_1":, "lbfgs iterations"] == "0-0 (median 0)").all()
    assert mean.loc["tol_3", "topics stopped before the first step"] == "3 of 3"
    assert (summed.loc["tol_1":, "topics stopped before the first step"] == "0 of 3").all()
    assert mean.loc["default", "ratio to default"] == summed.loc["default", "ratio to default"] == 1.0
    assert {r.run["run"].iat[0] for r in tiny.runs()} >= {
        "from_robust04+robust05_to_core17_tol_1_tolsum", "from_robust04+robust05_to_core17_tol_1",
    }


# --------------------------------------------------------------------------- command line


def test_write_tables_writes_csv_files_and_runs(tmp_path, tiny):
    written = paper.write_tables(tmp_path, data=tiny)
    names = {p.name for p in written}
    for name in ("topic_sets", "relevance_transfer", "feature_augmentation", "replication", "per_topic_ap",
                 "own_dataset_measures"):
        assert f"{name}.csv" in names
    assert all(p.is_file() for p in written)
    assert pd.read_csv(tmp_path / "topic_sets.csv")["intersection"].iloc[0] == 50
    runs = list((tmp_path / "runs").glob("*.run"))
    assert len(runs) == len(paper.table_requests())
    # what is written does not depend on what the data made before: a run outside the tables is not written
    tiny.run(("robust05",), "core17", constellation=paper.PRINTED[0], augment=True)
    again_written = paper.write_tables(tmp_path / "again", data=tiny)
    assert sorted(p.name for p in again_written) == sorted(p.name for p in written)
    from irrepro.runs import read_run

    again = read_run(runs[0])
    assert set(again["query_id"]) <= {"oil", "gold", "corn"}


def test_licensed_data_is_none_without_a_configuration(tmp_path, monkeypatch):
    monkeypatch.delenv("IRREPRO_ROUTING_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert paper.licensed_data() is None
    with pytest.raises(ValueError, match="no corpora configuration"):
        paper.licensed_data(tmp_path / "missing.toml")


def test_licensed_data_names_the_missing_role(tmp_path):
    config = tmp_path / "corpora.toml"
    config.write_text('[corpora.robust04]\nformat = "trec"\npaths = ["x"]\nqrels = "q.txt"\n')
    with pytest.raises(ValueError, match=r"corpora\.robust05"):
        paper.licensed_data(config)


def test_licensed_path_runs_the_replication_on_configured_corpora(tmp_path, tiny):
    """Section 7 end to end: four corpora in TREC SGML files and qrels files named in a config."""
    lines = []
    for role, collection in tiny.collections.items():
        docs = "".join(f"<DOC>\n<DOCNO> {d.doc_id} </DOCNO>\n<TEXT>\n{d.text}\n</TEXT>\n</DOC>\n" for d in collection.documents)
        (tmp_path / f"{role}.sgml").write_text(docs)
        collection.qrels.to_csv(tmp_path / f"{role}.qrels", sep=" ", header=False, index=False)
        lines.append(f'[corpora.{role}]\nformat = "trec"\npaths = ["{role}.sgml"]\nqrels = "{role}.qrels"\n')
    config = tmp_path / "corpora.toml"
    config.write_text("\n".join(lines))
    licensed = paper.licensed_data(config)
    assert licensed.label.startswith("licensed TREC corpora")
    table = paper.replication(licensed, official=False)
    expected = paper.replication(tiny, official=False)
    assert table["MAP"].to_numpy() == pytest.approx(expected["MAP"].to_numpy())  # same documents, same runs
    assert set(table["data"]) == {licensed.label}


def test_common_topics_are_the_fifteen_in_numeric_order():
    from irrepro.topic_order import sort_topics

    topics = paper.common_topics()
    assert len(topics) == 15 and topics == sort_topics(topics)


# --------------------------------------------------------------------------- names and sentences


def test_the_stand_in_names_its_slices_by_role_and_nature():
    # every role has a name that says it is a stand-in slice, and which TREC collection it plays
    for role, name in paper.STAND_IN_ROLE_NAMES.items():
        assert f"({paper.ROLE_NAMES[role]} role)" in name and name.split(" ")[0] in ("near", "far", "train-04", "train-05")
    # data without names of its own (the licensed corpora) keeps the TREC names
    assert paper.RoutingData(label="x", collections={r: None for r in paper.ROLES}, corpora={}).role_names == paper.ROLE_NAMES


def test_replication_table_has_the_papers_layout_and_labels_the_official_rows(tiny):
    table = paper.replication_table(paper.replication(tiny))
    assert list(table.index.names) == ["target", "run", "preprocessing"]
    assert list(table.columns) == ["topics", "MAP", "P@10", "nDCG", "data"]
    targets = list(dict.fromkeys(table.index.get_level_values("target")))
    assert targets == ["NYT, replicated", "WaPo, reproduced", "NYT, official TREC 2017 scores"]


def test_sentence_numbers_come_from_the_tables(tiny):
    transfer = paper.relevance_transfer(tiny)
    extremes = paper.transfer_extremes(transfer)
    assert extremes["best_map"] == transfer["MAP"].max() and extremes["worst_map"] == transfer["MAP"].min()
    best = transfer.loc[transfer["MAP"].idxmax()]
    assert (extremes["best_target"], extremes["best_training"]) == (best["target"], best["training"])
    augmentation = paper.feature_augmentation(tiny)
    summary = paper.augmentation_summary(augmentation, alpha=1.0)  # every p < 1 except exact ties
    assert summary["pairs"] == 12 and summary["significant"] == int((augmentation["p (paired t-test)"] < 1).sum())
    effect = paper.preprocessing_effect(paper.replication(tiny))
    prep = paper.preprocessing_summary(effect)
    assert prep["cases"] == len(effect) and prep["smallest"] == effect["difference"].min()
    assert prep["verdict"].endswith(("as in the paper", "on both targets"))


def _size_check(far_minus_near: float) -> pd.DataFrame:
    near, far = paper.STAND_IN_ROLE_NAMES["core17"], paper.STAND_IN_ROLE_NAMES["core18"]
    rows = []
    for targets in ("as built", "cut to equal size"):
        for target, shift in ((near, 0.0), (far, far_minus_near)):
            rows.append({"targets": targets, "target": target, "documents": 10, "topics": 3,
                         "MAP WCrobust04": 0.5 + shift, "MAP WCrobust0405": 0.6 + shift,
                         "far − near WCrobust04": far_minus_near if target == far else float("nan")})  # fmt: skip
    return pd.DataFrame(rows)


def _replicated() -> pd.DataFrame:
    near, far = paper.STAND_IN_ROLE_NAMES["core17"], paper.STAND_IN_ROLE_NAMES["core18"]
    rows = [
        {"run": run, "target": target, "preprocessing": paper.PREPROCESSING[True], "setting": "x", "MAP": value}
        for target, values in ((near, (0.5, 0.6)), (far, (0.7, 0.65)))
        for run, value in zip(("WCrobust04", "WCrobust0405 (= complemented)"), values, strict=True)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("far_minus_near", "verdict"), [(-0.1, "harder for both"), (0.1, "easier for both")])
def test_closing_numbers_say_what_the_numbers_say(far_minus_near, verdict):
    numbers = paper.closing_numbers(_replicated(), _size_check(far_minus_near))
    assert numbers["near_verdict"] == "improves on" and numbers["far_verdict"] == "does not improve on"
    assert verdict in numbers["built_verdict"] and verdict in numbers["equal_verdict"]
    assert numbers["size"] == "Size does not explain it"
    assert ("does not show that drift" in numbers["drift"]) == (far_minus_near > 0)


def test_tolerance_summary_reads_the_two_scales():
    rows = []
    for scale, ratios in (("mean (x)", [1.0, 0.05, 0.05]), ("sum (x)", [1.0, 0.9, 0.8])):
        for name, ratio in zip(("default", "tol_1", "tol_2"), ratios, strict=True):
            rows.append({"loss tol bounds": scale, "constellation": name, "ratio to default": ratio,
                         "ratio to default (SIGIR 2020)": ratio, "topics stopped before the first step":
                         "3 of 3" if scale.startswith("mean") and name != "default" else "0 of 3"})  # fmt: skip
    summary = paper.tolerance_summary(pd.DataFrame(rows))
    assert summary["stopped"] == "3 of 3" and summary["mean_kept"] == "5.0%"
    assert (summary["sum_max"], summary["sum_min"], summary["sum_falling"]) == (0.9, 0.8, "falling")


def test_licensed_status_says_which_corpora_ran(tiny):
    assert "stand-in only" in paper.licensed_status(None)
    assert "tiny test data" in paper.licensed_status(tiny)
