"""Topic sets of the routing runs, from qrels: which topics can be trained and evaluated.

A topic can be routed when it is judged in the target corpus (so the run can be evaluated) and in a
training corpus (so a classifier can be trained). Breuer & Schaer (2019, Sec. 3.2 and 4.3) count, from
the TREC qrels: Core17 ∩ Robust04 = 50, Core17 ∩ Robust05 = 33, Core18 ∩ Robust04 = 25 and
Core18 ∩ Robust05 = 15 topics. For WCrobust0405 the classifier of a topic uses both training
corpora where the topic is judged in both and the one available otherwise (Cormack's answer, Sec. 4.3),
so its topics are target ∩ (Robust04 ∪ Robust05).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

__all__ = ["judged_topics", "routable_topics", "training_sources"]


def judged_topics(qrels: pd.DataFrame) -> set[str]:
    """The topics with at least one judgment in ``qrels`` (columns query_id, doc_id, relevance)."""
    return set(qrels["query_id"].astype(str).unique())


def _sort_key(topic: str):
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)


def routable_topics(training: Sequence[pd.DataFrame], target: pd.DataFrame) -> list[str]:
    """Topics judged in ``target`` and in at least one of the ``training`` qrels, sorted (numbers numerically).

    >>> a = pd.DataFrame({"query_id": ["301", "302"], "doc_id": ["x", "y"], "relevance": [1, 0]})
    >>> b = pd.DataFrame({"query_id": ["302", "303"], "doc_id": ["z", "w"], "relevance": [1, 1]})
    >>> routable_topics([a], b)
    ['302']
    """
    trainable: set[str] = set()
    for qrels in training:
        trainable |= judged_topics(qrels)
    return sorted(trainable & judged_topics(target), key=_sort_key)


def training_sources(training: Mapping[str, pd.DataFrame], topics: Sequence[str]) -> dict[str, list[str]]:
    """For each topic, the names of the training corpora in which it is judged (in the mapping's order)."""
    judged = {name: judged_topics(qrels) for name, qrels in training.items()}
    return {topic: [name for name in training if topic in judged[name]] for topic in topics}
