"""Throughput of the routing corpus readers (numbers for the closing note of issue 5).

Reads the real Reuters-21578 (22 files, 27 MB) and synthetic corpora written here in each format
(TREC SGML .gz, WaPo JSON lines .gz, NYT NITF in a .tgz), and prints documents per second and the
peak of Python allocations (tracemalloc) while streaming, which stays flat because nothing is kept.

    IRREPRO_DATA_MIRROR=../shared/data .venv/bin/python benchmarks/corpora_read.py [--documents 20000]
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import tarfile
import tempfile
import time
import tracemalloc
from pathlib import Path

from irrepro.data import fetch_many
from irrepro.routing.corpora import ReadStats, read_corpus

WORDS = [f"w{index}" for index in range(5000)]


def _paragraphs(generator: random.Random) -> list[str]:
    return [" ".join(generator.choices(WORDS, k=60)) for _ in range(8)]  # ~480 words, a newswire story


def write_synthetic(folder: Path, documents: int, seed: int = 1) -> dict[str, Path]:
    generator = random.Random(seed)
    trec, wapo, nyt = folder / "trec.gz", folder / "wapo.jl.gz", folder / "nyt.tgz"
    with gzip.open(trec, "wt") as handle:
        for number in range(documents):
            body = "".join(f"<P>\n{paragraph}\n</P>\n" for paragraph in _paragraphs(generator))
            handle.write(f"<DOC>\n<DOCNO> SYN-{number} </DOCNO>\n<DATE_TIME> 1998-06-01 00:10 </DATE_TIME>\n<BODY>\n<HEADLINE>\nHeadline {number}\n</HEADLINE>\n<TEXT>\n{body}</TEXT>\n</BODY>\n</DOC>\n")
    with gzip.open(wapo, "wt") as handle:
        for number in range(documents):
            contents = [{"type": "sanitized_html", "content": f"<p>{paragraph}</p>"} for paragraph in _paragraphs(generator)]
            handle.write(json.dumps({"id": f"syn-{number}", "title": f"Title {number}", "published_date": 1325376000000, "contents": contents}) + "\n")
    with tarfile.open(nyt, "w:gz") as archive:
        for number in range(documents):
            body = "".join(f"<p>{paragraph}</p>" for paragraph in _paragraphs(generator))
            data = (
                f'<?xml version="1.0" encoding="UTF-8"?>\n<nitf><head><docdata><doc-id id-string="{number}"/></docdata>'
                f'<pubdata date.publication="19870101T000000"/></head><body><body.head><hedline><hl1>Headline {number}</hl1>'
                f'</hedline></body.head><body.content><block class="full_text">{body}</block></body.content></body></nitf>'
            ).encode()
            info = tarfile.TarInfo(f"01/01/{number}.xml")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return {"trec": trec, "wapo": wapo, "nyt": nyt}


def measure(name: str, format: str, paths) -> None:
    size = sum(Path(path).stat().st_size for path in paths) / 2**20
    stats = ReadStats()
    start = time.perf_counter()
    characters = sum(len(document.text) for document in read_corpus(format, paths, stats=stats))
    seconds = time.perf_counter() - start
    tracemalloc.start()  # a second, traced pass (tracing slows reading several-fold)
    for _ in read_corpus(format, paths):
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"{name:<22} {stats.documents:>7} docs  {size:7.1f} MB on disk  {seconds:6.2f} s  "
        f"{stats.documents / seconds:9.0f} docs/s  {characters / seconds / 2**20:6.1f} MB text/s  "
        f"peak alloc {peak / 2**20:6.1f} MB  skipped {stats.skipped}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=20000, help="documents per synthetic corpus")
    arguments = parser.parse_args()
    reuters = list(fetch_many("reuters21578/reut2-").values())
    measure("reuters21578 (real)", "reuters21578", reuters)
    with tempfile.TemporaryDirectory() as folder:
        synthetic = write_synthetic(Path(folder), arguments.documents)
        for format, path in synthetic.items():
            measure(f"{format} (synthetic)", format, [path])


if __name__ == "__main__":
    main()
