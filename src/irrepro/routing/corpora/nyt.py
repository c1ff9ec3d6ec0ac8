"""Reader for the New York Times Annotated Corpus (LDC2008T19; Core17): one NITF XML file per article.

The corpus ships as ``data/<year>/<month>.tgz`` tarballs of ``<month>/<day>/<guid>.xml`` files;
a folder of unpacked ``.xml`` files is read as well. Following Anserini's ``NewYorkTimesCollection``
(castorini/anserini, ``src/main/java/io/anserini/collection/NewYorkTimesCollection.java``, itself
the corpus's own ``NYTCorpusDocumentParser``), the document id is the ``id-string`` of
``head/docdata/doc-id`` (the guid the Core17 qrels use) and the body is the text of the ``<p>``
paragraphs of ``body/body.content/block[@class="full_text"]``. Here the print headline
``body/body.head/hedline/hl1`` is put in front of it (Anserini indexes only the body); where an
article has no ``full_text`` block, the ``lead_paragraph`` block is used instead of an empty body.
The date is ``head/pubdata/@date.publication`` (``19870101T000000``) as an ISO date.

With ``text="authors"`` the text is what the authors' code reads: ``BeautifulSoup(file, "lxml").text``
of the whole NITF file (``_parse_times`` in ``core/data_preparation.py`` of irgroup/sigir2020-measure-
reproducibility @ 3b4e760, lines 208-226; breuert/centre19, lines 209-217), i.e. every text node in
document order: the ``<title>``, the index terms and ``<classifier>`` descriptors of the head, the
headlines, bylines, abstract, lead paragraph and full text, glued as they stand in the file. Here the
file is parsed as XML and its text nodes joined (:meth:`xml.etree.ElementTree.Element.itertext`), which
gives the same text for well-formed NITF. The code names the document by its file name (the last
seven digits without leading zeros, line 223), which in the LDC release is the doc-id used here.

Tarballs are read as streams (``tarfile`` mode ``r|*``), member by member; a member that is not
well-formed XML or has no doc-id is skipped with a :class:`CorpusWarning` naming
``archive.tgz[member]`` and the XML error's line; a tarball that cannot be read to its end
(truncated, corrupt) raises :class:`CorpusFormatError` naming it.
"""

from __future__ import annotations

import tarfile
import xml.etree.ElementTree as ElementTree
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from ._common import CorpusFormatError, Document, ReadStats, as_paths, check_text_rule, clean_text, discover, iso_date

__all__ = ["read_nyt", "parse_nitf"]

_ARCHIVE_SUFFIXES = (".tgz", ".tar.gz", ".tar")


def _is_archive(path: Path) -> bool:
    return path.name.lower().endswith(_ARCHIVE_SUFFIXES)


def _is_corpus_file(path: Path) -> bool:
    return _is_archive(path) or path.name.lower().endswith(".xml")


def _text_of(element: ElementTree.Element | None) -> str:
    return "" if element is None else " ".join(element.itertext())


def _block(content: ElementTree.Element | None, kind: str) -> list[str]:
    if content is None:
        return []
    for block in content.findall("block"):
        if block.get("class") == kind:
            return [_text_of(paragraph) for paragraph in block.iter("p")]
    return []


def parse_nitf(data: bytes, text: str = "anserini") -> tuple[Document | None, str]:
    """Parse one NITF document from its bytes, with the ``text`` rule.

    Parameters
    ----------
    data : bytes
        The document.
    text : {"anserini", "authors"}
        The text rule.

    Returns
    -------
    document : Document or None
        The document; None when it is malformed.
    reason : str
        Why it is malformed (empty otherwise).
    """
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        return None, f"not well-formed XML ({error})"
    doc_id_element = root.find("head/docdata/doc-id")
    doc_id = (doc_id_element.get("id-string") or "").strip() if doc_id_element is not None else ""
    if not doc_id:
        return None, "no head/docdata/doc-id/@id-string"
    if text == "authors":
        body = " ".join("".join(root.itertext()).split())
    else:
        headline = _text_of(root.find("body/body.head/hedline/hl1"))
        content = root.find("body/body.content")
        body = clean_text(headline, *(_block(content, "full_text") or _block(content, "lead_paragraph")))
    date = None
    pubdata = root.find("head/pubdata")
    stamp = (pubdata.get("date.publication") or "") if pubdata is not None else ""
    if len(stamp) >= 8 and stamp[:8].isdigit():
        date = iso_date(int(stamp[:4]), int(stamp[4:6]), int(stamp[6:8]))
    return Document(doc_id=doc_id, text=body, date=date), ""


def _members(path: Path) -> Iterator[tuple[str, bytes]]:
    try:
        archive = tarfile.open(path, mode="r|*")  # noqa: SIM115 (closed by the with below, after the error check)
    except tarfile.TarError as error:
        raise CorpusFormatError(f"{path}: not a (gzipped) tar archive: {error}") from error
    with archive:
        for member in archive:
            if not member.isfile() or not member.name.lower().endswith(".xml"):
                continue
            handle = archive.extractfile(member)
            if handle is not None:
                yield member.name, handle.read()


def read_nyt(
    paths: str | Path | Iterable[str | Path],
    *,
    stats: ReadStats | None = None,
    text: str = "anserini",
    drop_empty: bool = False,
) -> Iterator[Document]:
    """Stream the articles of NYT Annotated Corpus tarballs (``.tgz``) or ``.xml`` files; folders are walked.

    A malformed member or file is skipped with a :class:`CorpusWarning`.

    Parameters
    ----------
    paths : str, path-like or iterable of them
        Files or folders (walked).
    stats : ReadStats, optional
        Updated as the stream is consumed.
    text : {"anserini", "authors"}
        The text rule (see the module docstring).
    drop_empty : bool, default False
        Pass over documents of empty text (counted in ``stats.empty``; the authors' code keeps them).

    Yields
    ------
    Document
        Each article.

    Raises
    ------
    CorpusFormatError
        For a tarball that breaks off (truncated download) or is corrupt, naming it: a run on the
        part of the corpus read so far would not be the run asked for.
    """
    check_text_rule(text)
    stats = stats if stats is not None else ReadStats()
    for path in discover(as_paths(paths), keep=_is_corpus_file):
        stats.files += 1
        members = _members(path) if _is_archive(path) else iter([("", path.read_bytes())])
        member_name = ""
        try:
            for member_name, data in members:
                document, reason = parse_nitf(data, text)
                if document is None:
                    stats.report(f"{path}[{member_name}]" if member_name else path, "", reason)
                elif drop_empty and not document.text:
                    stats.empty += 1
                else:
                    stats.documents += 1
                    yield document
        except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
            after = f" after member {member_name}" if member_name else ""
            raise CorpusFormatError(f"{path}: archive unreadable{after} ({error}): the file is truncated or corrupt; "
                                    "fetch or copy it again") from error
