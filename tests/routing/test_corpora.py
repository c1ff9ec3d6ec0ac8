"""Corpus readers: each format written in its exact layout by the test, read back; malformed documents."""

from __future__ import annotations

import gzip
import io
import json
import re
import tarfile
import tempfile
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irrepro.routing.corpora import (
    CorpusFormatError,
    CorpusWarning,
    Document,
    ReadStats,
    modapte_split,
    read_corpus,
    read_nyt,
    read_reuters21578,
    read_trec_sgml,
    read_wapo,
)
from irrepro.routing.corpora._common import clean_text

# --------------------------------------------------------------------------- TREC SGML

FT = """<DOC>
<DOCNO> FT911-1 </DOCNO>
<PROFILE>_AN-BEOA7AAIFT</PROFILE>
<DATE>910514
</DATE>
<HEADLINE>
FT  14 MAY 91 / Jubilee of a jet
</HEADLINE>
<BYLINE>By MICHAEL DONNE</BYLINE>
<TEXT>
The jet did what it was
designed to do &amp; more.
</TEXT>
<PUB>The Financial Times</PUB>
</DOC>
<DOC>
<DOCNO> FT911-2 </DOCNO>
<DATE>910515
</DATE>
<TEXT>
Second story.
</TEXT>
</DOC>
"""

LATIMES = """<DOC>
<DOCNO> LA010189-0001 </DOCNO>
<DOCID> 1 </DOCID>
<DATE>
<P>
January 1, 1989, Sunday, Home Edition
</P>
</DATE>
<SECTION>
<P>
Book Review; Page 1; Book Review Desk
</P>
</SECTION>
<HEADLINE>
<P>
AN AMBITIOUS NOVEL
</P>
</HEADLINE>
<TEXT>
<P>
First paragraph.
</P>
<P>
Second paragraph.
</P>
</TEXT>
</DOC>
"""

FR94 = """<DOC>
<DOCNO> FR940104-0-00001 </DOCNO>
<PARENT> FR940104-0-00001 </PARENT>
<TEXT>
 
<!-- PJG FTAG 4700 -->

<!-- PJG STAG 4700 -->
Federal&hyph;Register notice &sect; 12
</TEXT>
</DOC>
"""

FBIS = """<DOC>
<DOCNO> FBIS3-1 </DOCNO>
<HT>  "cr00000011094001" </HT>
<HEADER>
<H2>   March Highlights in Indian Subcontinent Report </H2>
<DATE1>  1 March 1994 </DATE1>
</HEADER>
<TEXT>
Language: <F P=105> English </F>
Article Type:BFN
</TEXT>
</DOC>
"""

AQUAINT = """<DOC>
<DOCNO> APW19980601.0003 </DOCNO>
<DOCTYPE> NEWS STORY </DOCTYPE>
<DATE_TIME> 1998-06-01 00:10 </DATE_TIME>
<BODY>
<SLUG> BC-Brazil-Soccer </SLUG>
<HEADLINE>
Brazil beats Andorra
</HEADLINE>
<TEXT>
<P>
SAO PAULO (AP) _ Brazil won.
</P>
</TEXT>
</BODY>
<TRAILER> AP-NY-06-01-98 0010EDT </TRAILER>
</DOC>
"""


def _read(reader, paths, **kwargs) -> tuple[list[Document], ReadStats]:
    stats = ReadStats()
    return list(reader(paths, stats=stats, **kwargs)), stats


def test_trec_disks_4_5_fields_dates_and_markup(tmp_path):
    (tmp_path / "ft911_1").write_text(FT)
    with gzip.open(tmp_path / "la010189.gz", "wt") as handle:
        handle.write(LATIMES)
    (tmp_path / "fr940104.0").write_text(FR94)
    (tmp_path / "fb396001").write_text(FBIS)
    (tmp_path / "readme.txt").write_text("<DOC>not a document")  # skipped by name, as in Anserini
    (tmp_path / "cr").mkdir()
    (tmp_path / "cr" / "cr93e1").write_text(FT.replace("FT911", "CR93"))  # Congressional Record: skipped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        documents, stats = _read(read_trec_sgml, [tmp_path])
    by_id = {document.doc_id: document for document in documents}
    assert list(by_id) == ["FBIS3-1", "FR940104-0-00001", "FT911-1", "FT911-2", "LA010189-0001"]
    assert by_id["FT911-1"].text == "FT 14 MAY 91 / Jubilee of a jet The jet did what it was designed to do & more."
    assert by_id["FT911-1"].date == "1991-05-14"
    assert by_id["LA010189-0001"].text == "AN AMBITIOUS NOVEL First paragraph. Second paragraph."
    assert by_id["LA010189-0001"].date == "1989-01-01"
    assert by_id["FR940104-0-00001"].text == "Federal-Register notice § 12"
    assert by_id["FBIS3-1"].text == "Language: English Article Type:BFN"  # header (H2) not indexed, as in Anserini
    assert by_id["FBIS3-1"].date == "1994-03-01"
    assert stats.files == 4 and stats.documents == 5 and stats.skipped == 0


def test_trec_aquaint_body_headline_text(tmp_path):
    path = tmp_path / "19980601_APW_ENG"
    path.write_text(AQUAINT)
    [document] = read_trec_sgml([path])
    assert document == Document("APW19980601.0003", "Brazil beats Andorra SAO PAULO (AP) _ Brazil won.", "1998-06-01")


def test_trec_plain_and_gzip_give_the_same_documents(tmp_path):
    (tmp_path / "plain").write_text(FT + AQUAINT)
    with gzip.open(tmp_path / "packed.gz", "wt") as handle:
        handle.write(FT + AQUAINT)
    assert list(read_trec_sgml(tmp_path / "plain")) == list(read_trec_sgml(tmp_path / "packed.gz"))


def test_trec_malformed_documents_are_warned_with_line_and_skipped(tmp_path):
    broken = (
        "<DOC>\n<DOCNO> A-1 </DOCNO>\n<TEXT>one</TEXT>\n</DOC>\n"  # lines 1-4: fine
        "<DOC>\n<TEXT>no docno</TEXT>\n</DOC>\n"  # lines 5-7: no DOCNO
        "<DOC>\n<DOCNO> A-3 </DOCNO>\n<TEXT>never closed</TEXT>\n"  # lines 8-10: not closed
        "<DOC>\n<DOCNO> A-4 </DOCNO>\n<TEXT>four</TEXT>\n</DOC>\n"  # lines 11-14: fine
        "<DOC>\n<DOCNO> A-5 </DOCNO>\n"  # lines 15-16: file ends
    )
    path = tmp_path / "broken"
    path.write_text(broken)
    (tmp_path / "next").write_text(AQUAINT)
    with pytest.warns(CorpusWarning) as caught:
        documents, stats = _read(read_trec_sgml, [path, tmp_path / "next"])
    assert [document.doc_id for document in documents] == ["A-1", "A-4", "APW19980601.0003"]
    messages = [str(warning.message) for warning in caught]
    assert messages[0].startswith(f"{path}:line 5: ") and "DOCNO" in messages[0]
    assert messages[1].startswith(f"{path}:line 8: ") and "not closed" in messages[1]
    assert messages[2].startswith(f"{path}:line 15: ")
    assert stats.skipped == 3 and stats.documents == 3
    assert [problem.position for problem in stats.problems] == ["line 5", "line 8", "line 15"]


def test_trec_unix_compressed_file_is_a_clear_error(tmp_path):
    path = tmp_path / "fr940104.0z"
    path.write_bytes(b"\x1f\x9d\x90")
    with pytest.raises(CorpusFormatError, match="decompress"):
        list(read_trec_sgml([path]))


def test_readers_are_lazy_streams(tmp_path):
    (tmp_path / "first").write_text(FT)
    stream = read_trec_sgml([tmp_path / "first", tmp_path / "missing"])
    assert isinstance(stream, Iterator)
    assert next(stream).doc_id == "FT911-1"  # the second path is not touched yet
    next(stream)
    with pytest.raises(FileNotFoundError, match="missing"):
        next(stream)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[A-Z]{2,4}[0-9]{1,6}-[0-9]{1,4}", fullmatch=True),
            st.lists(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9.,'-]{0,10}", fullmatch=True), max_size=30),
        ),
        max_size=8,
    )
)
def test_trec_round_trip(records):
    """Whatever words are written into <TEXT>, the same ids and words come back, in order."""
    sgml = "".join(f"<DOC>\n<DOCNO> {docno} </DOCNO>\n<TEXT>\n{' '.join(words)}\n</TEXT>\n</DOC>\n" for docno, words in records)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "file.gz"
        with gzip.open(path, "wt") as handle:
            handle.write(sgml)
        documents = list(read_trec_sgml([path]))
    assert [(document.doc_id, document.text) for document in documents] == [(docno, " ".join(words)) for docno, words in records]


# --------------------------------------------------------------------------- NYT (NITF in tarballs)


def nitf(guid: str, headline: str, paragraphs: list[str], *, date: str = "19870101T000000", lead: bool = False) -> bytes:
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nitf SYSTEM "http://www.nitf.org/IPTC/NITF/3.3/specification/dtd/nitf-3-3.dtd">
<nitf change.date="June 10, 2005" change.time="19:30" version="-//IPTC//DTD NITF 3.3//EN">
<head>
<title>{headline}</title>
<meta content="1" name="publication_day_of_month"/>
<docdata>
<doc-id id-string="{guid}"/>
<doc.copyright holder="The New York Times" year="1987"/>
</docdata>
<pubdata date.publication="{date}" ex-ref="http://query.nytimes.com/gst/fullpage.html?res=X" item-length="12" name="The New York Times" unit-of-measure="word"/>
</head>
<body>
<body.head>
<hedline>
<hl1>{headline}</hl1>
</hedline>
<byline class="print_byline">By A REPORTER</byline>
</body.head>
<body.content>
<block class="lead_paragraph">{'' if lead else '<p>LEAD ONLY</p>'}{body if lead else ''}</block>
{'' if lead else f'<block class="full_text">{body}</block>'}
</body.content>
</body>
</nitf>
""".encode()


def write_tgz(path: Path, members: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_nyt_tarballs_by_year_and_month(tmp_path):
    write_tgz(
        tmp_path / "data" / "1987" / "01.tgz",
        {
            "01/01/0000001.xml": nitf("1", "Headline One", ["First &amp; paragraph.", "Second <i>paragraph</i>."]),
            "01/02/0000002.xml": nitf("2", "Headline Two", ["Only lead."], date="19870102T000000", lead=True),
        },
    )
    write_tgz(tmp_path / "data" / "2007" / "06.tgz", {"06/19/1855670.xml": nitf("1855670", "Last", ["Text."], date="20070619T000000")})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        documents, stats = _read(read_nyt, [tmp_path / "data"])
    assert documents == [
        Document("1", "Headline One First & paragraph. Second paragraph .", "1987-01-01"),
        Document("2", "Headline Two Only lead.", "1987-01-02"),
        Document("1855670", "Last Text.", "2007-06-19"),
    ]
    assert stats.files == 2 and stats.documents == 3


def test_nyt_folder_of_xml_files(tmp_path):
    (tmp_path / "1855670.xml").write_bytes(nitf("1855670", "Last", ["Text."]))
    assert [document.doc_id for document in read_corpus("nyt", tmp_path)] == ["1855670"]


def test_nyt_malformed_members_are_warned_with_member_and_skipped(tmp_path):
    archive = write_tgz(
        tmp_path / "01.tgz",
        {
            "01/01/1.xml": nitf("1", "Good", ["Text."]),
            "01/01/2.xml": nitf("2", "Broken", ["Text."])[:-40],  # truncated XML
            "01/01/3.xml": nitf("", "No id", ["Text."]),
            "01/01/4.xml": nitf("4", "Good again", ["Text."]),
        },
    )
    with pytest.warns(CorpusWarning) as caught:
        documents, stats = _read(read_nyt, [archive])
    assert [document.doc_id for document in documents] == ["1", "4"]
    messages = [str(warning.message) for warning in caught]
    assert messages[0].startswith(f"{archive}[01/01/2.xml]: ") and "well-formed" in messages[0]
    assert messages[1].startswith(f"{archive}[01/01/3.xml]: ") and "doc-id" in messages[1]
    assert stats.skipped == 2


def test_nyt_truncated_tarball_is_an_error_naming_it(tmp_path):
    """A run on the part of a corpus read before the break would not be the run asked for."""
    members = {f"01/01/{number}.xml": nitf(str(number), f"Story {number}", ["Text " * 500]) for number in range(1, 30)}
    archive = write_tgz(tmp_path / "a" / "01.tgz", members)
    data = archive.read_bytes()
    archive.write_bytes(data[: len(data) // 2])
    following = write_tgz(tmp_path / "b" / "02.tgz", {"02/01/99.xml": nitf("99", "After", ["Text."])})
    with pytest.raises(CorpusFormatError, match=rf"^{re.escape(str(archive))}: archive unreadable after member .*truncated or corrupt"):
        _read(read_nyt, [archive, following])


# --------------------------------------------------------------------------- Washington Post v2


def wapo_record(doc_id: str, *, title: str = "A title", date: int | None = 1325376000000) -> dict:
    return {
        "id": doc_id,
        "article_url": f"https://www.washingtonpost.com/{doc_id}.html",
        "title": title,
        "author": "A Writer",
        "published_date": date,
        "type": "article",
        "source": "The Washington Post",
        "contents": [
            {"content": "Politics", "mime": "text/plain", "type": "kicker"},
            {"content": title, "mime": "text/plain", "type": "title"},
            {"content": "By A Writer", "mime": "text/plain", "type": "byline"},
            {"content": 1325376000000, "mime": "text/plain", "type": "date"},
            {"type": "image", "fullcaption": "A caption", "imageURL": "x.jpg", "mime": "image/jpeg"},
            {"content": "First <a href=\"https://x\">linked</a> paragraph &amp; more.", "mime": "text/html", "subtype": "paragraph", "type": "sanitized_html"},
            {"content": "<b>Second</b> paragraph.", "mime": "text/html", "subtype": "paragraph", "type": "sanitized_html"},
            None,
        ],
    }


def test_wapo_jsonl_plain_and_gzip(tmp_path):
    lines = [json.dumps(wapo_record("b2e89334-33f9-11e1-825f-dabc29fd7071")), "", json.dumps(wapo_record("id-2", date=None))]
    (tmp_path / "TREC_Washington_Post_collection.v2.jl").write_text("\n".join(lines) + "\n")
    with gzip.open(tmp_path / "part.jl.gz", "wt") as handle:
        handle.write(json.dumps(wapo_record("id-3", date=1514764799000)) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        documents, stats = _read(read_wapo, [tmp_path])
    text = "A title First linked paragraph & more. Second paragraph."
    assert documents == [  # files in sorted name order: "TREC_..." before "part..."
        Document("b2e89334-33f9-11e1-825f-dabc29fd7071", text, "2012-01-01"),
        Document("id-2", text, None),
        Document("id-3", text, "2017-12-31"),
    ]
    assert stats.files == 2


def test_wapo_malformed_lines_are_warned_with_line_and_skipped(tmp_path):
    path = tmp_path / "wapo.jl"
    lines = [json.dumps(wapo_record("ok-1")), '{"id": "cut-off", "contents": [', json.dumps({"title": "no id"}), json.dumps(wapo_record("ok-2"))]
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(CorpusWarning) as caught:
        documents, stats = _read(read_wapo, path)
    assert [document.doc_id for document in documents] == ["ok-1", "ok-2"]
    messages = [str(warning.message) for warning in caught]
    assert messages[0].startswith(f"{path}:line 2: ") and "invalid JSON" in messages[0]
    assert messages[1].startswith(f"{path}:line 3: ") and "id" in messages[1]
    assert stats.skipped == 2 and stats.documents == 2


def test_gzip_name_on_a_plain_file_is_a_clear_error(tmp_path):
    path = tmp_path / "wapo.jl.gz"
    path.write_text("{}")
    with pytest.raises(CorpusFormatError, match="not a gzip file"):
        list(read_wapo(path))


# --------------------------------------------------------------------------- damaged .gz files


def _damaged_gzip(path: Path, text: str, damage: str) -> Path:
    """``text`` gzipped into ``path``, then cut in half or with its CRC overwritten."""
    data = bytearray(gzip.compress(text.encode("utf-8"), mtime=0))
    if damage == "truncated":
        data = data[: len(data) // 2]
    else:
        data[-8:-4] = bytes(byte ^ 0xFF for byte in data[-8:-4])  # the CRC-32 of the data, flipped
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
@pytest.mark.parametrize("reader", ["trec", "wapo"])
def test_a_damaged_gzip_file_is_an_error_naming_it(tmp_path, reader, damage):
    if reader == "trec":
        text = "".join(f"<DOC>\n<DOCNO> D{n} </DOCNO>\n<TEXT>\nstory {n} {'words ' * 50}\n</TEXT>\n</DOC>\n" for n in range(200))
        path = _damaged_gzip(tmp_path / "fbis.gz", text, damage)
    else:
        text = "".join(json.dumps(wapo_record(f"id-{n}")) + "\n" for n in range(200))
        path = _damaged_gzip(tmp_path / "wapo.jl.gz", text, damage)
    what = "truncated: the compressed data ends before its end marker" if damage == "truncated" else "corrupt compressed data"
    with pytest.raises(CorpusFormatError, match=rf"^{re.escape(str(path))}: {what}"):
        list(read_corpus(reader, [path]))


# --------------------------------------------------------------------------- Reuters-21578

REUTERS = (
    '<!DOCTYPE lewis SYSTEM "lewis.dtd">\n'
    '<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="5544" NEWID="1">\n'
    "<DATE>26-FEB-1987 15:01:01.79</DATE>\n"
    "<TOPICS><D>cocoa</D><D>grain</D></TOPICS>\n"
    "<PLACES><D>el-salvador</D></PLACES>\n<PEOPLE></PEOPLE>\n<ORGS></ORGS>\n<EXCHANGES></EXCHANGES>\n<COMPANIES></COMPANIES>\n"
    "<UNKNOWN> \n&#5;&#5;&#5;C T\n&#22;&#22;&#1;f0704&#31;reute\n</UNKNOWN>\n"
    "<TEXT>&#2;\n<TITLE>BAHIA COCOA REVIEW</TITLE>\n<DATELINE>    SALVADOR, Feb 26 - </DATELINE><BODY>Showers in &lt;Bahia>\n"
    "Z\xfcrich &amp; more.\n Reuter\n&#3;</BODY></TEXT>\n</REUTERS>\n"
    '<REUTERS TOPICS="NO" LEWISSPLIT="TEST" CGISPLIT="TRAINING-SET" OLDID="1" NEWID="2">\n'
    "<DATE>  8-APR-1987 01:30:29.50&#5;&#5;&#5;RM</DATE>\n<TOPICS></TOPICS>\n"
    '<TEXT TYPE="BRIEF">&#2;\n******<TITLE>BRIEF TITLE ONLY</TITLE>\n&#3;\n</TEXT>\n</REUTERS>\n'
    '<REUTERS TOPICS="BYPASS" LEWISSPLIT="NOT-USED" CGISPLIT="TRAINING-SET" OLDID="2" NEWID="3">\n'
    "<DATE>19-OCT-1987 12:00:00.00</DATE>\n<TOPICS><D>earn</D></TOPICS>\n"
    '<TEXT TYPE="UNPROC">&#2;\nFEDERAL RESERVE WEEKLY REPORT\n Net free reserves....644\n&#3;\n</TEXT>\n</REUTERS>\n'
)


def test_reuters_fields_entities_latin1(tmp_path):
    path = tmp_path / "reut2-000.sgm"
    path.write_bytes(REUTERS.encode("latin-1"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        documents = list(read_reuters21578(path))
    assert documents == [
        Document("1", "BAHIA COCOA REVIEW Showers in <Bahia> Zürich & more. Reuter", "1987-02-26", ("cocoa", "grain"), "TRAIN", "YES"),
        Document("2", "BRIEF TITLE ONLY", "1987-04-08", (), "TEST", "NO"),
        Document("3", "FEDERAL RESERVE WEEKLY REPORT Net free reserves....644", "1987-10-19", ("earn",), "NOT-USED", "BYPASS"),
    ]
    assert [modapte_split(document) for document in documents] == ["TRAIN", None, None]


def test_reuters_malformed_stories_are_warned_with_line_and_skipped(tmp_path):
    lines = REUTERS.split("\n")
    no_newid = [line.replace(' NEWID="2"', "") for line in lines]
    unclosed = "\n".join(no_newid).replace("</TEXT>\n</REUTERS>\n<REUTERS TOPICS=\"BYPASS\"", "</TEXT>\n<REUTERS TOPICS=\"BYPASS\"")
    path = tmp_path / "reut2-001.sgm"
    path.write_bytes(unclosed.encode("latin-1"))
    second_story_line = next(number for number, line in enumerate(lines, start=1) if 'NEWID="2"' in line)
    with pytest.warns(CorpusWarning) as caught:
        documents, stats = _read(read_reuters21578, path)
    assert [document.doc_id for document in documents] == ["1", "3"]
    [message] = [str(warning.message) for warning in caught]
    assert message.startswith(f"{path}:line {second_story_line}: ") and "not closed" in message
    assert stats.skipped == 1 and stats.documents == 2


def test_reuters_real_collection_counts_and_modapte_split():
    """The 22 files of Reuters-21578: 21,578 stories, the ModApte split of README section VIII.B, 1987 dates."""
    from irrepro.data import fetch_many

    paths = list(fetch_many("reuters21578/reut2-").values())
    assert len(paths) == 22
    stats = ReadStats()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        documents = list(read_reuters21578(paths, stats=stats))
    assert len(documents) == stats.documents == 21578 and stats.skipped == 0
    assert sorted(int(document.doc_id) for document in documents) == list(range(1, 21579))
    assert Counter(modapte_split(document) for document in documents) == {"TRAIN": 9603, "TEST": 3299, None: 8676}
    assert all(document.date is not None and document.date.startswith("1987-") for document in documents)
    # ModApte: training stories up to April 7, 1987, test stories from April 8 on (README VIII.B).
    train_dates = [d.date for d in documents if modapte_split(d) == "TRAIN"]
    test_dates = [d.date for d in documents if modapte_split(d) == "TEST"]
    assert max(train_dates) <= "1987-04-07" < "1987-04-08" <= min(test_dates)
    assert sum(1 for document in documents if document.topics) > 10000
    assert sum(1 for document in documents if not document.text) == 1  # NEWID 12793 is empty in the source
    assert not any(any(ord(character) < 32 for character in document.text) for document in documents)


# --------------------------------------------------------------------------- dispatch and text cleaning


def test_read_corpus_dispatch_and_errors(tmp_path):
    (tmp_path / "reut2-000.sgm").write_bytes(REUTERS.encode("latin-1"))
    assert [document.doc_id for document in read_corpus("reuters21578", [tmp_path])] == ["1", "2", "3"]
    with pytest.raises(CorpusFormatError, match="unknown corpus format 'sgml'"):
        read_corpus("sgml", [tmp_path])
    with pytest.raises(FileNotFoundError, match="nowhere"):
        read_corpus("trec", [tmp_path / "nowhere"])  # at once, not on first iteration


@given(st.text())
def test_clean_text_is_normalised_and_idempotent(raw):
    cleaned = clean_text(raw)
    assert cleaned == cleaned.strip() and "  " not in cleaned
    assert not any(ord(character) < 32 or 127 <= ord(character) < 160 for character in cleaned)
    if "&" not in cleaned and "<" not in cleaned:  # nothing left to decode or strip
        assert clean_text(cleaned) == cleaned
