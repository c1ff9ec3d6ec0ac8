"""A tiny world in four roles, for the tests of the routing runs' tables (shared by this package's tests)."""

from __future__ import annotations

import pandas as pd
import pytest

from irrepro.papers.clef2019 import routing_data
from irrepro.routing.corpora import Document
from irrepro.routing.pipeline import Collection

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


@pytest.fixture(scope="package")
def tiny():
    """The four roles, 170 short documents each, three topics judged everywhere (runs take milliseconds)."""
    collections = {role: _collection(role, seed) for seed, role in enumerate(routing_data.ROLES, start=1)}
    return routing_data.RoutingData(label="tiny test data", collections=collections, corpora={r: r for r in routing_data.ROLES})
