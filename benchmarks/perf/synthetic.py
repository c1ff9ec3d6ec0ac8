"""The benchmarks' deterministic inputs: a run of N lines with its qrels, and one constellation of four runs.

**A run of N lines** (:func:`write_run_of_lines`, for ``irrepro evaluate`` against ir_measures):
Robust04's 249 judged topics (``qrels/robust04.txt`` from the data mirror) replicated with a suffix
(``301``, ``301-1``, ``301-2``, ...) until there are N / 1000 topics. Each copy has its own qrels:
all relevant judgments of the original topic (at most 100) plus non-relevant ones up to 200 in all,
so that, as in real collections, the qrels are far smaller than a big run (replicating all of
Robust04's 1,250 judgments per topic would make a 12.5-million-line qrels file for a 10-million-line
run, and the benchmark would measure the qrels). Each topic ranks 1000 documents: up to 150 of its
judged documents and the rest drawn from Robust04's 174,787 judged docnos, scores descending with
four decimals (so some scores tie), one line per document, topics in blocks in copy order (not in
string order), as TREC runs are written; ``order="shuffled"`` writes the same lines in random order.

**One constellation** (:func:`write_constellation`, for ``irrepro compare`` against repro_eval): an
original and a new baseline and advanced run, 50 topics x 1000 documents each, drawn from a shared
per-topic pool of 3000 documents by a shared latent score plus each run's own noise, and qrels of
500 judged documents per topic graded by the latent score.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

DOCS_PER_TOPIC = 1000
CONSTELLATION_ROLES = ("orig_baseline", "orig_advanced", "new_baseline", "new_advanced")


# --------------------------------------------------------------------------- a run of N lines


def _robust04_judgments() -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Robust04's qrels as (topics, topic code, doc code, grade per judgment, docnos by code)."""
    from irrepro.data import fetch
    from irrepro.runs import read_qrels

    qrels = read_qrels(fetch("qrels/robust04.txt"))
    topic_codes, topics = qrels["query_id"].factorize()
    doc_codes, docnos = qrels["doc_id"].factorize()
    return list(topics), topic_codes, doc_codes, qrels["relevance"].to_numpy(), np.asarray(docnos, dtype=object)


def write_run_of_lines(n_lines: int, folder: Path, *, seed: int, order: str = "grouped") -> tuple[Path, Path]:
    """Write (qrels, run) of ``n_lines`` run lines into ``folder`` as the module says; reuse existing files."""
    if order not in ("grouped", "shuffled"):
        raise ValueError(f"order is 'grouped' or 'shuffled'; got {order!r}")
    stem = f"synthetic-{n_lines}-seed{seed}"
    qrels_path, run_path = Path(folder) / f"{stem}.qrels", Path(folder) / f"{stem}-{order}.run"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    qrels_path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    topics, topic_codes, doc_codes, grades, docnos = _robust04_judgments()
    by_topic = [np.flatnonzero(topic_codes == code) for code in range(len(topics))]
    qrels_lines, run_blocks = [], []
    for number in range(-(-n_lines // DOCS_PER_TOPIC)):
        copy, original = divmod(number, len(topics))
        topic = topics[original] if copy == 0 else f"{topics[original]}-{copy}"
        judged = _judgments_of_copy(rng, by_topic[original], grades)
        qrels_lines += [f"{topic} 0 {docnos[doc_codes[j]]} {grades[j]}\n" for j in judged]
        ranked = _ranking(rng, doc_codes[judged], len(docnos))
        scores = np.sort(rng.random(len(ranked)) * 10)[::-1]
        run_blocks.append(
            [f"{topic} Q0 {docnos[d]} {r} {s:.4f} synthetic\n" for r, (d, s) in enumerate(zip(ranked, scores, strict=True), 1)]
        )
    run_lines = [line for block in run_blocks for line in block][:n_lines]
    if order == "shuffled":
        run_lines = [run_lines[i] for i in rng.permutation(len(run_lines))]
    if not qrels_path.exists():  # the same lines for every order: written once
        _write(qrels_path, qrels_lines)
    _write(run_path, run_lines)
    return qrels_path, run_path


def _judgments_of_copy(rng, judgments: np.ndarray, grades: np.ndarray) -> np.ndarray:
    """Row numbers of one topic copy's judgments: its relevant ones (<= 100), then non-relevant, 200 in all."""
    relevant = judgments[grades[judgments] >= 1]
    other = judgments[grades[judgments] < 1]
    relevant = rng.choice(relevant, size=min(len(relevant), 100), replace=False)
    other = rng.choice(other, size=min(len(other), 200 - len(relevant)), replace=False)
    return np.sort(np.r_[relevant, other])


def _ranking(rng, judged_docs: np.ndarray, n_docs: int) -> np.ndarray:
    """1000 distinct doc codes: up to 150 judged ones, the rest unjudged, in random order."""
    from_judged = rng.choice(judged_docs, size=min(150, len(judged_docs)), replace=False)
    unjudged = np.setdiff1d(rng.choice(n_docs, size=2 * DOCS_PER_TOPIC, replace=False), judged_docs)
    ranked = np.r_[from_judged, unjudged[rng.permutation(len(unjudged))][: DOCS_PER_TOPIC - len(from_judged)]]
    return ranked[rng.permutation(len(ranked))]


def _write(path: Path, lines: list[str]) -> None:
    """Write ``lines`` whole or not at all (a half-written input would be reused by the next call)."""
    partial = path.with_suffix(path.suffix + ".partial")
    with open(partial, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
    partial.replace(path)


# --------------------------------------------------------------------------- one constellation


def latent_runs(rng, topics, names, *, depth, pool, noise):
    """Runs that retrieve from a shared per-topic pool by a shared latent score plus own noise.

    Returns ({name: (query ids, doc ids, scores)}, {topic: docnos of the pool}, {topic: latent scores}).
    """
    latent = {t: rng.random(pool) for t in topics}
    doc_names = {t: np.array([f"DOC{t}-{i:06d}" for i in range(pool)], dtype=object) for t in topics}
    runs = {}
    for name in names:
        query_ids, doc_ids, scores = [], [], []
        for t in topics:
            s = latent[t] + rng.normal(0, noise[name], pool)
            top = np.argpartition(-s, depth - 1)[:depth]
            top = top[np.argsort(-s[top], kind="stable")]
            query_ids.append(np.full(depth, t, dtype=object))
            doc_ids.append(doc_names[t][top])
            scores.append(np.round(s[top], 4))
        runs[name] = (np.concatenate(query_ids), np.concatenate(doc_ids), np.concatenate(scores))
    return runs, doc_names, latent


def write_constellation(folder: Path, *, topics: int = 50, depth: int = 1000) -> tuple[dict[str, Path], list[str], list[str]]:
    """One constellation's files in ``folder``: four runs (``topics`` x ``depth`` documents) and qrels.

    Returns ({role or "qrels": path}, topic ids, the four roles).
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(2020)
    topic_ids = [str(t) for t in range(301, 301 + topics)]
    noise = {"orig_baseline": 0.3, "orig_advanced": 0.2, "new_baseline": 0.35, "new_advanced": 0.25}
    runs, doc_names, latent = latent_runs(rng, topic_ids, CONSTELLATION_ROLES, depth=depth, pool=3 * depth, noise=noise)
    paths = {}
    for name, (q, d, s) in runs.items():
        paths[name] = folder / name
        with paths[name].open("w") as out:
            for rank, (qq, dd, ss) in enumerate(zip(q, d, s, strict=True)):
                out.write(f"{qq} Q0 {dd} {rank % depth + 1} {ss} {name}\n")
    paths["qrels"] = folder / "qrels"
    with paths["qrels"].open("w") as out:
        for t in topic_ids:
            for i in np.argsort(-latent[t])[: depth // 2]:
                grade = 2 if latent[t][i] > 0.995 else (1 if latent[t][i] > 0.95 else 0)
                out.write(f"{t} 0 {doc_names[t][i]} {grade}\n")
    return paths, topic_ids, list(CONSTELLATION_ROLES)
