"""The readers' text rules: ``"anserini"`` (irrepro's fields) against ``"authors"`` (what the authors'
code extracts), on small files in each exact format written by the tests. The expected texts are
worked out by hand from the files below and the code's rules (irrepro.routing.implementations)."""

from __future__ import annotations

import json
import warnings

import pytest

from irrepro.routing.corpora import (
    Document,
    ReadStats,
    html_text,
    read_corpus,
    read_nyt,
    read_reuters21578,
    read_trec_sgml,
    read_wapo,
)
from irrepro.routing.corpora.trec import child_count
from tests.routing.test_corpora import (
    AQUAINT,
    FBIS,
    FR94,
    FT,
    LATIMES,
    REUTERS,
    wapo_record,
    write_tgz,
)

# A Los Angeles Times-like story whose <TEXT> holds a single <P> (one child: the text replaces the
# headline), with GRAPHIC, DATELINE and CORRECTION glued on in the code's order, not the file's.
ONE_CHILD = """<DOC>
<DOCNO> LA-ONE-CHILD </DOCNO>
<HEADLINE><P>Quake</P></HEADLINE>
<DATELINE>TOKYO</DATELINE>
<TEXT><P>Buildings shook.</P></TEXT>
<GRAPHIC><P>Photo</P></GRAPHIC>
<CORRECTION><P>Corrected</P></CORRECTION>
</DOC>
<DOC>
<DOCNO> NO-TEXT-AT-ALL </DOCNO>
<PARENT> X </PARENT>
</DOC>
<DOC>
<DOCNO> BLANK-TEXT </DOCNO>
<TEXT>
</TEXT>
</DOC>
"""


def _read(reader, paths, **options) -> tuple[list[Document], ReadStats]:
    stats = ReadStats()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return list(reader(paths, stats=stats, **options)), stats


def _texts(reader, paths, **options) -> dict[str, str]:
    return {document.doc_id: document.text for document in _read(reader, paths, **options)[0]}


def test_html_text_glues_nodes_and_decodes_as_libxml2():
    assert html_text("<P>a</P><P>b</P>") == "ab"  # no separator between nodes
    assert html_text("x&amp;y &sect; &hyph; &eacute;&Eacute;") == "x&y § &hyph é\xc9"  # HTML 4 names only
    assert html_text("a&#2;b&#233;&#x41;") == "abéA"  # a reference to a character XML forbids vanishes
    assert html_text("<!-- PJG -->kept") == "kept" and html_text("3 < 4") == "3 < 4"


def test_child_count_of_text_elements():
    assert child_count("\nplain text only\n") == 1  # FT
    assert child_count("<P>one</P>") == 1
    assert child_count("\n<P>\nFirst.\n</P>\n<P>\nSecond.\n</P>\n") == 5  # LA Times
    assert child_count("<P>one<P>two") == 2  # an HTML parser closes <p> at the next <p>
    assert child_count("\n \n<!-- PJG -->\nText\n") == 3  # FR94: text, comment, text
    assert child_count("") == 0


def test_trec_authors_text_per_disk(tmp_path):
    for name, content in {"ft": FT, "la": LATIMES, "fr": FR94, "fbis": FBIS, "apw": AQUAINT}.items():
        (tmp_path / name).write_text(content, encoding="latin-1")
    anserini = _texts(read_trec_sgml, tmp_path)
    authors = _texts(read_trec_sgml, tmp_path, text="authors")
    # FT: <TEXT> is one text node, so the code's text *replaces* the headline
    assert anserini["FT911-1"] == "FT 14 MAY 91 / Jubilee of a jet The jet did what it was designed to do & more."
    assert authors["FT911-1"] == "The jet did what it was designed to do & more."
    assert authors["LA010189-0001"] == anserini["LA010189-0001"] == "AN AMBITIOUS NOVEL First paragraph. Second paragraph."
    # FR94: an entity HTML 4 does not know stays as its name (no hyphen), &sect; is decoded
    assert authors["FR940104-0-00001"] == "Federal&hyphRegister notice § 12"
    assert anserini["FR940104-0-00001"] == "Federal-Register notice § 12"
    assert authors["FBIS3-1"] == "Language: English Article Type:BFN"
    assert authors["APW19980601.0003"] == "Brazil beats Andorra SAO PAULO (AP) _ Brazil won."


def test_trec_authors_text_one_child_fields_order_and_empty_documents(tmp_path):
    path = tmp_path / "la"
    path.write_text(ONE_CHILD, encoding="latin-1")
    documents, stats = _read(read_trec_sgml, path, text="authors", drop_empty=True)
    assert [d.doc_id for d in documents] == ["LA-ONE-CHILD", "BLANK-TEXT"]
    # headline replaced by the one-child TEXT; then GRAPHIC, DATELINE, CORRECTION without separators
    assert documents[0].text == "Buildings shook.PhotoTOKYOCorrected"
    assert documents[1].text == ""  # "\n" is not the empty string: the code writes the file
    assert stats.empty == 1 and stats.documents == 2 and stats.skipped == 0
    kept, kept_stats = _read(read_trec_sgml, path, text="authors")
    assert [d.doc_id for d in kept] == ["LA-ONE-CHILD", "NO-TEXT-AT-ALL", "BLANK-TEXT"] and kept_stats.empty == 0
    assert _texts(read_trec_sgml, path)["LA-ONE-CHILD"] == "Quake Buildings shook."


NITF_INDEXED = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nitf SYSTEM "http://www.nitf.org/IPTC/NITF/3.3/specification/dtd/nitf-3-3.dtd">
<nitf change.date="June 10, 2005" change.time="19:30" version="-//IPTC//DTD NITF 3.3//EN">
<head>
<title>Budget Talks Stall</title>
<meta content="5" name="publication_day_of_month"/>
<docdata>
<doc-id id-string="1815718"/>
<doc.copyright holder="The New York Times" year="1996"/>
<identified-content>
<classifier class="indexing_service" type="descriptor">Budgets and Budgeting</classifier>
<classifier class="online_producer" type="taxonomic_classifier">Top/News/Washington</classifier>
<org class="indexing_service">Congress</org>
<person class="indexing_service">Smith, John</person>
</identified-content>
</docdata>
<pubdata date.publication="19960105T000000" item-length="40" name="The New York Times" unit-of-measure="word"/>
</head>
<body>
<body.head>
<hedline>
<hl1>Budget Talks Stall</hl1>
</hedline>
<byline class="print_byline">By A REPORTER</byline>
<abstract>
<p>Talks on the budget stalled.</p>
</abstract>
</body.head>
<body.content>
<block class="lead_paragraph">
<p>Lead &amp; summary.</p>
</block>
<block class="full_text">
<p>Lead &amp; summary.</p>
<p>More <i>text</i>.</p>
</block>
</body.content>
</body>
</nitf>
"""


def test_nyt_authors_text_is_every_text_node_with_index_terms(tmp_path):
    write_tgz(tmp_path / "data" / "1996" / "01.tgz", {"01/05/1815718.xml": NITF_INDEXED.encode()})
    anserini = _read(read_nyt, tmp_path)[0]
    authors = _read(read_nyt, tmp_path, text="authors")[0]
    assert anserini == [Document("1815718", "Budget Talks Stall Lead & summary. More text .", "1996-01-05")]
    assert authors == [
        Document(
            "1815718",
            "Budget Talks Stall Budgets and Budgeting Top/News/Washington Congress Smith, John Budget Talks Stall "
            "By A REPORTER Talks on the budget stalled. Lead & summary. Lead & summary. More text.",
            "1996-01-05",
        )
    ]


def test_wapo_authors_text_is_every_block_with_a_string_content(tmp_path):
    empty = {"id": "no-text", "title": "Ignored", "contents": [{"type": "image", "fullcaption": "c"}, {"type": "date", "content": 1}]}
    path = tmp_path / "wapo.jl"
    path.write_text(json.dumps(wapo_record("w-1")) + "\n" + json.dumps(empty) + "\n")
    authors = _texts(read_wapo, path, text="authors")
    assert authors == {
        "w-1": "Politics A title By A Writer First linked paragraph & more. Second paragraph.",
        "no-text": "",  # kept, as the code writes an empty file for it
    }
    assert _texts(read_wapo, path)["w-1"] == "A title First linked paragraph & more. Second paragraph."


def test_reuters_authors_text_adds_the_dateline(tmp_path):
    path = tmp_path / "reut2-000.sgm"
    path.write_bytes(REUTERS.encode("latin-1"))
    anserini, authors = _texts(read_reuters21578, path), _texts(read_reuters21578, path, text="authors")
    assert anserini["1"] == "BAHIA COCOA REVIEW Showers in <Bahia> Z\xfcrich & more. Reuter"
    assert authors["1"] == "BAHIA COCOA REVIEW SALVADOR, Feb 26 - Showers in <Bahia> Z\xfcrich & more. Reuter"
    assert authors["2"] == "******BRIEF TITLE ONLY"  # the whole TEXT, its asterisks glued to the title
    assert authors["3"] == anserini["3"] == "FEDERAL RESERVE WEEKLY REPORT Net free reserves....644"


def test_read_corpus_passes_the_text_rule_and_refuses_an_unknown_one(tmp_path):
    (tmp_path / "ft").write_text(FT, encoding="latin-1")
    documents = list(read_corpus("trec", tmp_path, text="authors"))
    assert documents[0].text == "The jet did what it was designed to do & more."
    with pytest.raises(ValueError, match="text must be one of"):
        read_corpus("trec", tmp_path, text="bs4")
