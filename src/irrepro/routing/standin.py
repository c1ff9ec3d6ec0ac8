"""An open stand-in for the four licensed corpora of the routing runs, cut from Reuters-21578.

Breuer & Schaer train on Robust04 (TREC Disks 4&5) and Robust05 (AQUAINT) and rank the New York
Times (Core17, close in time to the training news) and the Washington Post (Core18, years later; the
paper's explanation for the weaker reproduction is topic drift over time). Reuters-21578 (21,578
newswire stories of 1987) gives the same structure by time. The rule, applied in code every time:

* **documents**: the stories with a date, a non-empty text and at least one TOPICS category (the
  labelled ones; unlabelled stories have unknown relevance and are left out);
* **four disjoint slices by date**:
  ``reuters-04`` (role Robust04) and ``reuters-05`` (role Robust05) are the stories dated before
  1 April 1987, cut at the first day on which half of them have appeared (earlier days -> ``reuters-04``);
  ``reuters-near`` (role Core17/NYT) is April 1987; ``reuters-far`` (role Core18/WaPo) is from
  1 May 1987 on (June and October: the collection has no May stories, so there is a gap);
* **relevance**: a story is relevant to a topic (a TOPICS category) when it carries the category and
  judged non-relevant otherwise; every story of a slice is judged for every kept topic;
* **topics kept**: the categories with at least ``min_relevant`` (default 5) relevant stories in
  *each* of the four slices.

The two targets differ in size (April holds more stories than June-October). A size-controlled
variant (``equal_targets=True``, for checking that the near/far comparison is not an effect of size)
cuts both targets to ``N`` stories, ``N`` the size of the smaller one: the near target keeps its
first ``N`` stories and the far target its last ``N`` in (date, id) order, so the near stories stay
those closest in time to the training slices and the far ones those farthest from them (on the full
collection only the near target is cut). The topics are then kept by the same rule.

:func:`load` returns the slices with their qrels and is cached per process; the Reuters files come
from the data registry (``reuters21578/reut2-000.sgm`` ... ``-021.sgm``). ``text`` is the readers' text
rule (``"anserini"``: title and body; ``"authors"``: the whole ``<TEXT>``, the analogue of the
authors' code, see :mod:`irrepro.routing.corpora.reuters`); the slices and topics are the same under
both. :func:`run` runs an implementation (:mod:`irrepro.routing.implementations`) on the stand-in
read with that implementation's text rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from irrepro.routing import implementations
from irrepro.routing.pipeline import Collection, RoutingResult, run_system
from irrepro.routing.trainer import shared_trainer

__all__ = ["ROLES", "REUTERS_FILES", "MIN_RELEVANT", "StandIn", "build_standin", "load", "run"]

#: stand-in corpus name -> the paper's collection it plays
ROLES: dict[str, str] = {
    "reuters-04": "robust04",
    "reuters-05": "robust05",
    "reuters-near": "core17",
    "reuters-far": "core18",
}
REUTERS_FILES: tuple[str, ...] = tuple(f"reuters21578/reut2-{i:03d}.sgm" for i in range(22))
MIN_RELEVANT = 5
_TRAINING_END = "1987-04-01"  # training slices: before this day
_NEAR_END = "1987-05-01"  # reuters-near: April; reuters-far: from this day on


@dataclass
class StandIn:
    """The four stand-in collections, their kept topics and the rule's parameters.

    Parameters
    ----------
    collections : dict of str -> Collection
        "reuters-04", "reuters-05", "reuters-near", "reuters-far".
    topics : list of str
        The kept topics.
    min_relevant : int
        The fewest relevant stories a kept topic has in each slice.
    training_cut : str
        First day of reuters-05.
    candidate_topics : int
        Categories seen in the labelled stories.
    equal_targets : bool, default False
        Both targets cut to the smaller one's size.
    text : str, default "anserini"
        The readers' text rule the documents were read with.
    """

    collections: dict[str, Collection]  # "reuters-04", "reuters-05", "reuters-near", "reuters-far"
    topics: list[str]
    min_relevant: int
    training_cut: str  # first day of reuters-05
    candidate_topics: int  # categories seen in the labelled stories
    equal_targets: bool = False  # both targets cut to the smaller one's size
    text: str = "anserini"  # the readers' text rule the documents were read with

    @property
    def training(self) -> dict[str, Collection]:
        """The training roles as the systems name them: {"robust04": reuters-04, "robust05": reuters-05}."""
        return {ROLES[name]: self.collections[name] for name in ("reuters-04", "reuters-05")}

    def run(self, system: str, target: str = "reuters-near", **options) -> RoutingResult:
        """Run ``system`` ("wcrobust04" / "wcrobust0405") on a stand-in target.

        The implementation's text rule must be the one the stand-in was read with (see :func:`run`).

        Parameters
        ----------
        system : str
            "wcrobust04" or "wcrobust0405".
        target : str, default "reuters-near"
            The stand-in corpus ranked.
        **options
            As for :func:`~irrepro.routing.pipeline.route`.

        Returns
        -------
        RoutingResult
            The run.

        Raises
        ------
        ValueError
            For an unknown target, or an implementation whose text rule differs from the stand-in's.
        """
        if target not in self.collections:
            raise ValueError(f"unknown stand-in corpus {target!r}; known: {', '.join(self.collections)}")
        implementation = implementations.get(options.get("implementation", "paper"))
        if implementation.text != self.text:
            raise ValueError(
                f"implementation {implementation.name!r} reads text={implementation.text!r}, but this stand-in was "
                f"read with text={self.text!r}; use standin.load(text={implementation.text!r}) or standin.run(...)"
            )
        options.setdefault("train", shared_trainer().train)  # a training made before (a table's) is reused
        return run_system(system, self.training, self.collections[target], **options)

    def summary(self) -> pd.DataFrame:
        """Describe each slice: role, dates, documents, topics and relevant judgments.

        Returns
        -------
        pandas.DataFrame
            One row per slice.
        """
        rows = []
        for name, collection in self.collections.items():
            dates = [d.date for d in collection.documents]
            rows.append(
                {
                    "corpus": name,
                    "role": ROLES[name],
                    "first_date": min(dates),
                    "last_date": max(dates),
                    "documents": len(collection.documents),
                    "topics": collection.qrels["query_id"].nunique(),
                    "relevant": int((collection.qrels["relevance"] > 0).sum()),
                }
            )
        return pd.DataFrame(rows)


def _qrels(documents: Sequence, topics: Sequence[str]) -> pd.DataFrame:
    """Every document judged for every topic, topic by topic: relevant (1) when it carries the topic."""
    doc_ids = [d.doc_id for d in documents]
    grades = [1 if topic in d.topics else 0 for topic in topics for d in documents]
    return pd.DataFrame(
        {
            "query_id": pd.array(np.repeat(np.asarray(topics, dtype=object), len(doc_ids)), dtype="str"),
            "iteration": pd.array(["0"] * len(grades), dtype="str"),
            "doc_id": pd.array(doc_ids * len(topics), dtype="str"),
            "relevance": pd.array(grades, dtype="int64"),
        }
    )


def build_standin(
    documents: Iterable, *, min_relevant: int = MIN_RELEVANT, equal_targets: bool = False, text: str = "anserini"
) -> StandIn:
    """Apply the module's rule to Reuters-21578 documents.

    Parameters
    ----------
    documents : iterable
        Objects with doc_id, text, date, topics.
    min_relevant : int, default MIN_RELEVANT
        The fewest relevant stories a kept topic has in each slice (>= 1).
    equal_targets : bool, default False
        Cut both targets to the smaller one's size (near: first stories, far: last).
    text : str, default "anserini"
        Names the text rule the documents were read with.

    Returns
    -------
    StandIn
        The stand-in.

    Raises
    ------
    ValueError
        For ``min_relevant`` below 1, or documents that do not make a stand-in (no labelled story
        before 1987-04-01, an empty slice, no category relevant enough in every slice).
    """
    if min_relevant < 1:
        raise ValueError(f"min_relevant must be >= 1, not {min_relevant}")
    labelled = sorted(
        (d for d in documents if d.date and d.topics and d.text.strip()), key=lambda d: (d.date[:10], d.doc_id)
    )
    training = [d for d in labelled if d.date[:10] < _TRAINING_END]
    if not training:
        raise ValueError("no labelled Reuters story dated before 1987-04-01: are these Reuters-21578 documents?")
    per_day = Counter(d.date[:10] for d in training)
    seen, cut = 0, None
    for day in sorted(per_day):
        if seen >= len(training) / 2:
            cut = day
            break
        seen += per_day[day]
    if cut is None:
        cut = _TRAINING_END
    slices = {
        "reuters-04": [d for d in training if d.date[:10] < cut],
        "reuters-05": [d for d in training if d.date[:10] >= cut],
        "reuters-near": [d for d in labelled if _TRAINING_END <= d.date[:10] < _NEAR_END],
        "reuters-far": [d for d in labelled if d.date[:10] >= _NEAR_END],
    }
    empty = [name for name, docs in slices.items() if not docs]
    if empty:
        raise ValueError(f"stand-in slice(s) {', '.join(empty)} hold no labelled story: the documents do not span 1987")
    if equal_targets:
        size = min(len(slices["reuters-near"]), len(slices["reuters-far"]))
        slices["reuters-near"] = slices["reuters-near"][:size]
        slices["reuters-far"] = slices["reuters-far"][len(slices["reuters-far"]) - size :]
    counts = {name: Counter(t for d in docs for t in set(d.topics)) for name, docs in slices.items()}
    candidates = set().union(*counts.values())
    topics = sorted(t for t in candidates if all(counts[name][t] >= min_relevant for name in slices))
    if not topics:
        raise ValueError(f"no Reuters category has >= {min_relevant} relevant stories in each of the four slices")
    about = _about(cut, min_relevant, equal_targets)
    collections = {name: Collection(name, docs, _qrels(docs, topics), about=about[name]) for name, docs in slices.items()}
    return StandIn(collections, topics, min_relevant, cut, len(candidates), equal_targets, text)


def _about(cut: str, min_relevant: int, equal_targets: bool) -> dict[str, dict[str, str]]:
    """What each slice is (the ir_metadata ``source`` and ``topics`` of runs made on it)."""
    stories = {
        "reuters-04": f"the labelled stories dated before {cut}",
        "reuters-05": f"the labelled stories dated from {cut} to {_TRAINING_END} (exclusive)",
        "reuters-near": f"the labelled stories dated from {_TRAINING_END} to {_NEAR_END} (exclusive)",
        "reuters-far": f"the labelled stories dated from {_NEAR_END} on",
    }
    cut_to = ", both targets cut to the smaller one's size" if equal_targets else ""
    return {
        name: {
            "source": f"Reuters-21578 ({REUTERS_FILES[0]} ... {REUTERS_FILES[-1]} of the data registry): {text}, "
                      f"the stand-in for {ROLES[name]} (irrepro.routing.standin{cut_to})",
            "topics": f"TOPICS categories with at least {min_relevant} relevant stories in each slice; every story "
                      "judged for every topic",
        }
        for name, text in stories.items()
    }


@lru_cache(maxsize=4)
def _documents(files: tuple[str, ...], text: str = "anserini") -> tuple:
    from irrepro.data import fetch
    from irrepro.routing.corpora import read_reuters21578

    return tuple(read_reuters21578([fetch(name) for name in files], text=text))


def load(
    *,
    min_relevant: int = MIN_RELEVANT,
    files: tuple[str, ...] = REUTERS_FILES,
    equal_targets: bool = False,
    text: str = "anserini",
) -> StandIn:
    """Build the stand-in from the registry's Reuters-21578 files read with the ``text`` rule, once per process.

    Every call with the same values, however they are spelled (a list of files, keywords at their
    defaults), returns the same object, so the collections' term counts are counted once.

    Parameters
    ----------
    min_relevant : int, default MIN_RELEVANT
        The fewest relevant stories a kept topic has in each slice (>= 1).
    files : sequence of str, default REUTERS_FILES
        The registry's Reuters-21578 files read.
    equal_targets : bool, default False
        Cut both targets to the smaller one's size (near: first stories, far: last).
    text : str, default "anserini"
        The text rule the stories are read with.

    Returns
    -------
    StandIn
        The stand-in (:func:`build_standin`).
    """
    return _load(min_relevant, tuple(files), equal_targets, text)


@lru_cache(maxsize=8)
def _load(min_relevant: int, files: tuple[str, ...], equal_targets: bool, text: str) -> StandIn:
    return build_standin(_documents(files, text), min_relevant=min_relevant, equal_targets=equal_targets, text=text)


def run(
    system: str, target: str = "reuters-near", *, implementation="paper", equal_targets: bool = False, **options
) -> RoutingResult:
    """Run ``system`` on a stand-in target with ``implementation``, the stand-in read with its text rule.

    For the effect of one divergence: ``run(system, target, implementation=implementations.switched(name))``
    against ``run(system, target)``.

    Parameters
    ----------
    system : str
        "wcrobust04" or "wcrobust0405".
    target : str, default "reuters-near"
        The stand-in corpus ranked.
    implementation : str or Implementation, default "paper"
        A name or an object.
    equal_targets : bool, default False
        The size-controlled stand-in.
    **options
        As for :func:`irrepro.routing.pipeline.route`.

    Returns
    -------
    RoutingResult
        The run.
    """
    implementation = implementations.get(implementation)
    stand_in = load(equal_targets=equal_targets, text=implementation.text)
    return stand_in.run(system, target, implementation=implementation, **options)
