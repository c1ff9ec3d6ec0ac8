"""Topic sets of the routing runs, from qrels: which topics can be trained and evaluated.

A topic can be routed when it is judged in the target corpus (so the run can be evaluated) and in a
training corpus (so a classifier can be trained). Breuer & Schaer (2019, Sec. 3.2 and 4.3) count, from
the TREC qrels: Core17 ∩ Robust04 = 50, Core17 ∩ Robust05 = 33, Core18 ∩ Robust04 = 25 and
Core18 ∩ Robust05 = 15 topics. For WCrobust0405 the classifier of a topic uses both training
corpora where the topic is judged in both and the one available otherwise (Cormack's answer, Sec. 4.3),
so its topics are target ∩ (Robust04 ∪ Robust05): the ``"any"`` rule of :func:`routable_topics`.

The authors' code chose otherwise (``util.find_inter_top``, the intersection of the topics of the
qrels files it is given):

* ``"all"`` -- target ∩ every training qrels: the CLEF 2019 code, hence the official WCrobust0405
  runs, 33 topics on Core17 and 15 on Core18 (breuert/centre19 @ 54d71a6,
  ``replicability/wcrobust0405/main.py:65-66``; the paper, Sec. 4.3: "Our previous setups derive
  rankings for WCRobust0405 based on 33 topics (replicability) and 15 topics (reproducibility)");
* ``"first"`` -- target ∩ the first training qrels (Robust04): the SIGIR 2020 code, 50 / 25
  topics for both systems (irgroup/sigir2020-measure-reproducibility @ 3b4e760,
  ``replicability/wcrobust0405.py:94``, ``find_inter_top(qrel_files[:2])``).

For WCrobust04 (one training corpus) the three rules agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

__all__ = ["TOPIC_RULES", "judged_topics", "routable_topics", "training_sources"]

#: which training qrels a topic must be judged in besides the target's (see the module docstring)
TOPIC_RULES = ("any", "all", "first")


def judged_topics(qrels: pd.DataFrame) -> set[str]:
    """Give the topics with at least one judgment in ``qrels``.

    Parameters
    ----------
    qrels : pandas.DataFrame
        Columns query_id, doc_id, relevance.

    Returns
    -------
    set of str
        The topics.
    """
    return set(qrels["query_id"].astype(str).unique())


def _sort_key(topic: str):
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)


def routable_topics(training: Sequence[pd.DataFrame], target: pd.DataFrame, *, rule: str = "any") -> list[str]:
    """Find the topics judged in ``target`` and in the ``training`` qrels, as ``rule`` says.

    Parameters
    ----------
    training : sequence of pandas.DataFrame
        The training corpora's qrels, in priority order.
    target : pandas.DataFrame
        The target's qrels.
    rule : {"any", "all", "first"}
        Judged in at least one, every, or the first of the training qrels.

    Returns
    -------
    list of str
        The topics, sorted (numbers numerically).

    Raises
    ------
    ValueError
        For an unknown rule.

    Examples
    --------
    >>> a = pd.DataFrame({"query_id": ["301", "302"], "doc_id": ["x", "y"], "relevance": [1, 0]})
    >>> b = pd.DataFrame({"query_id": ["302", "303"], "doc_id": ["z", "w"], "relevance": [1, 1]})
    >>> routable_topics([a], b)
    ['302']
    >>> routable_topics([b, a], b), routable_topics([b, a], b, rule="all"), routable_topics([a, b], b, rule="first")
    (['302', '303'], ['302'], ['302'])
    """
    if rule not in TOPIC_RULES:
        raise ValueError(f"rule must be one of {TOPIC_RULES}, not {rule!r}")
    judged = [judged_topics(qrels) for qrels in training]
    if not judged:
        return []
    if rule == "any":
        trainable = set().union(*judged)
    elif rule == "all":
        trainable = set.intersection(*judged)
    else:
        trainable = judged[0]
    return sorted(trainable & judged_topics(target), key=_sort_key)


def training_sources(training: Mapping[str, pd.DataFrame], topics: Sequence[str]) -> dict[str, list[str]]:
    """Name, for each topic, the training corpora in which it is judged (in the mapping's order).

    Parameters
    ----------
    training : mapping of str -> pandas.DataFrame
        Corpus name -> qrels.
    topics : sequence of str
        The topics.

    Returns
    -------
    dict of str -> list of str
        Topic -> corpus names.
    """
    judged = {name: judged_topics(qrels) for name, qrels in training.items()}
    return {topic: [name for name in training if topic in judged[name]] for topic in topics}
