"""Real papers in: generated PDFs, hand-written JATS/TEI/S2ORC, bibliographies, broken files."""

import json
import os

import pytest

from papershelf.ingest import IngestError
from papershelf.ingest.pdf import read_pdf
from papershelf.units import build_units

from .conftest import shared
from .pdf_fixtures import encrypted_pdf, scanned_pdf, two_column_paper


@pytest.fixture
def paper_pdf(tmp_path):
    path = tmp_path / "okafor.pdf"
    two_column_paper(str(path))
    return path


def test_two_column_pdf_becomes_sections_captions_and_pages(paper_pdf):
    doc = read_pdf(paper_pdf.read_bytes())
    assert doc.title == "Trans-Signalling Keeps Wound Macrophages Inflammatory"
    assert doc.authors == ["Ada Okafor", "Lena Brandt"]
    heads = [(b.text, b.level) for b in doc.blocks if b.kind == "heading"]
    assert heads == [("Abstract", 1), ("1 Introduction", 1), ("2 Methods", 1), ("2.1 Cell culture", 2),
                     ("3 Results", 1), ("References", 1)]
    units = build_units(doc, "p")
    objs = {u.object_label: u for u in units if u.kind == "object"}
    assert set(objs) == {"Figure 1", "Figure 2", "Table 1"}
    assert objs["Figure 1"].caption_text.startswith("Western blot of phosphorylated STAT3")
    assert objs["Figure 2"].nearby_body_text == "As Fig. 2 shows, wounds closed two days earlier with the blocker."
    assert "Figure 1" in (objs["Figure 1"].nearby_body_text or "")
    body = [u for u in units if u.kind == "body"]
    paths = [u.section_path for u in body]
    assert "2 Methods > 2.1 Cell culture" in paths and not any("References" in p for p in paths)
    text = " ".join(u.text for u in units)
    assert "Journal of Example Studies" not in text  # running header dropped
    assert "remarkable persistence" in text  # hyphenation repaired
    assert "Rose-John" not in text  # references excluded
    assert all(u.page_start and u.page_start >= 1 for u in units)
    assert max(u.page_end for u in units) >= 2
    # reading order: the left column is read before the right one
    intro = next(u for u in body if u.section_path == "1 Introduction")
    assert intro.text.index("Macrophages switch") < intro.text.index("Sustained STAT3")


def test_pdf_in_the_library_is_searchable_by_caption(lib, paper_pdf):
    report = lib.add([str(paper_pdf)])
    assert report.count("added") == 1
    top = lib.search("Wound closure over fourteen days", mode="lexical").results[0]
    assert top.object_label == "Figure 2" and top.pages
    again = lib.add([str(paper_pdf)])
    assert again.files[0].status == "unchanged"  # hash before parse


@pytest.mark.parametrize("make,reason", [
    (encrypted_pdf, "encrypted PDF"),
    (scanned_pdf, "no text layer"),  # with Tesseract installed: "and OCR found no text either"
])
def test_bad_pdfs_fail_with_one_clear_reason(tmp_path, make, reason):
    path = tmp_path / "bad.pdf"
    make(str(path))
    with pytest.raises(IngestError, match=reason):
        read_pdf(path.read_bytes())


def test_truncated_and_fake_pdfs(lib, tmp_path, paper_pdf):
    data = paper_pdf.read_bytes()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "truncated.pdf").write_bytes(data[: len(data) // 3])
    (tmp_path / "b" / "fake.pdf").write_bytes(b"<html>not a pdf</html>")
    (tmp_path / "b" / "good.pdf").write_bytes(data)
    encrypted_pdf(str(tmp_path / "b" / "locked.pdf"))
    report = lib.add([str(tmp_path / "b")])
    reasons = {os.path.basename(f.path): f.reason for f in report.failed}
    assert set(reasons) == {"truncated.pdf", "fake.pdf", "locked.pdf"}
    assert "not a PDF" in reasons["fake.pdf"] and "encrypted" in reasons["locked.pdf"]
    assert "damaged or truncated" in reasons["truncated.pdf"] or "no text layer" in reasons["truncated.pdf"]
    assert report.count("added") == 1
    # A failure is remembered; it is retried when the file changes or when asked.
    again = lib.add([str(tmp_path / "b")])
    assert all("unchanged since it failed" in f.reason for f in again.failed)
    retried = lib.add([str(tmp_path / "b")], retry_failed=True)
    assert not any("unchanged since it failed" in f.reason for f in retried.failed)
    (tmp_path / "b" / "fake.pdf").write_bytes(data)  # fixed
    assert "fake.pdf" not in {os.path.basename(f.path) for f in lib.add([str(tmp_path / "b")]).failed}


JATS = """<?xml version="1.0"?>
<article><front><journal-meta><journal-title-group><journal-title>Example Biology</journal-title>
</journal-title-group></journal-meta><article-meta>
<article-id pub-id-type="doi">10.1000/jats.1</article-id>
<title-group><article-title>Crows count in groups</article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><surname>Uhl</surname><given-names>Florian</given-names></name>
</contrib></contrib-group><pub-date><year>2019</year></pub-date>
<abstract><p>Urban crows form groups.</p></abstract></article-meta></front>
<body><sec><title>Methods</title><sec><title>Field counts</title>
<p>Groups were counted weekly (<xref ref-type="fig" rid="F1">Fig. 1</xref>).</p>
<fig id="F1"><label>Fig. 1</label><caption><p>Group sizes over the year.</p></caption></fig>
<fig id="F2"><label>Fig. 2.1</label><caption><p>Roosts of chapter two.</p></caption></fig>
<table-wrap id="T1"><label>Table 1</label><caption><p>Counts per district.</p></caption>
<table><tr><th>District</th><th>Crows</th></tr><tr><td>Harbour</td><td>412</td></tr></table></table-wrap>
</sec></sec></body><back><ref-list><ref><mixed-citation>Someone 1999 reference text</mixed-citation></ref>
</ref-list></back></article>"""

TEI = """<?xml version="1.0"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>Graph of papers</title></titleStmt>
<sourceDesc><biblStruct><analytic><author><persName><forename>Waleed</forename><surname>Ammar</surname></persName>
</author></analytic><idno type="DOI">10.1000/tei.2</idno></biblStruct></sourceDesc></fileDesc>
<profileDesc><abstract><p>We build a literature graph.</p></abstract></profileDesc></teiHeader>
<text><body><div><head n="1">Introduction</head><p>As Table 1 shows, the graph is large.</p></div>
<div><head n="2.1">Entity linking</head><p>Linking uses a ranker.</p></div>
<figure type="table"><head>Table 1 :</head><label>1</label><figDesc>Size of the graph.</figDesc>
<table><row><cell>nodes</cell><cell>280M</cell></row></table></figure></body>
<back><div type="references"><listBibl><biblStruct><title>Cited work title</title></biblStruct></listBibl></div></back>
</text></TEI>"""

S2ORC = {"paper_id": "s2-1", "title": "Muscle proteins after death", "authors": [{"first": "Ana", "middle": [],
         "last": "Silva"}], "year": "2016", "abstract": "Proteins degrade.",
         "pdf_parse": {"body_text": [
             {"text": "Degradation was measured (Figure 1).", "section": "Results", "sec_num": "3",
              "ref_spans": [{"ref_id": "FIGREF0", "text": "Figure 1"}]}],
             "ref_entries": {"FIGREF0": {"text": "Degradation of desmin over time.", "type": "figure"},
                             "TABREF0": {"text": "TABLE 2 | Sample sizes.", "type": "table"}},
             "bib_entries": {}}}


def test_structured_formats(lib, write):
    write("crows.nxml", JATS)
    write("graph.tei.xml", TEI)
    write("muscle.json", json.dumps(S2ORC))
    report = lib.add([str(write.root)])
    assert report.count("added") == 3, report.to_dict()
    crows = lib.show("10.1000/jats.1")
    assert crows.paper.title == "Crows count in groups" and crows.paper.year == 2019
    assert crows.paper.authors == ["Florian Uhl"] and crows.paper.venue == "Example Biology"
    assert [s.section_path for s in crows.sections] == ["Abstract", "Methods > Field counts"]
    objs = {o.label: o for o in crows.objects}
    assert objs["Figure 1"].caption == "Group sizes over the year."
    assert objs["Figure 2.1"].caption == "Roosts of chapter two."  # a chapter-numbered label, not "Figure 1"
    assert "Harbour | 412" in objs["Table 1"].table_text
    assert "Fig. 1" in objs["Figure 1"].cited_by
    assert not lib.search("reference text", mode="lexical").results
    graph = [p.paper for p in lib.papers() if p.paper.title == "Graph of papers"][0]
    g = lib.show(graph.id)
    assert g.paper.authors == ["Waleed Ammar"]
    assert [s.section_path for s in g.sections] == ["Abstract", "1 Introduction", "1 Introduction > 2.1 Entity linking"]
    assert {o.label for o in g.objects} == {"Table 1"}
    assert lib.search("280M", mode="lexical").results[0].object_label == "Table 1"
    muscle = [p.paper for p in lib.papers() if p.paper.title == "Muscle proteins after death"][0]
    m = lib.show(muscle.id)
    assert m.paper.year == 2016 and {o.label for o in m.objects} == {"Figure 1", "Table 2"}


def test_zotero_export_with_bibtex_comes_in_with_one_command(lib, tmp_path, paper_pdf):
    export = tmp_path / "export"
    (export / "files" / "12").mkdir(parents=True)
    (export / "files" / "12" / "okafor.pdf").write_bytes(paper_pdf.read_bytes())
    (export / "notes.md").write_text("# Notes\n\nReading list.\n")
    (export / "My Library.bib").write_text(
        "@article{okafor2024il6,\n  title = {Interleukin-6 {Trans-Signalling} in Wounds},\n"
        "  author = {Okafor, Adaeze and Brandt, Lena},\n  year = {2024},\n  journal = {Example Immunology},\n"
        "  doi = {10.1000/il6},\n  file = {Full Text PDF:files/12/okafor.pdf:application/pdf}\n}\n")
    report = lib.add([str(export)])
    assert report.count("metadata") == 1 and report.count("added") == 2 and not report.failed
    p = lib.store.get_paper("okafor2024il6")
    assert p.title == "Interleukin-6 Trans-Signalling in Wounds"
    assert p.authors == ["Adaeze Okafor", "Lena Brandt"] and p.year == 2024
    assert p.venue == "Example Immunology" and p.doi == "10.1000/il6" and p.citekey == "okafor2024il6"
    # An edited entry updates the paper even though the PDF did not change.
    bib = (export / "My Library.bib").read_text().replace("year = {2024}", "year = {2025}")
    (export / "My Library.bib").write_text(bib)
    lib.add([str(export)])
    assert lib.store.get_paper("okafor2024il6").year == 2025


def test_csl_json_and_better_bibtex_exports(lib, tmp_path, paper_pdf):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.pdf").write_bytes(paper_pdf.read_bytes())
    (tmp_path / "x" / "bbt.json").write_text(json.dumps({"items": [{
        "itemType": "journalArticle", "citationKey": "okafor2024", "key": "ABCD1234", "title": "From Zotero",
        "creators": [{"firstName": "Adaeze", "lastName": "Okafor"}], "date": "2024-03-01",
        "publicationTitle": "Example Immunology", "attachments": [{"path": "a.pdf"}]}]}))
    report = lib.add([str(tmp_path / "x")])
    assert report.count("metadata") == 1 and report.count("added") == 1
    p = lib.store.get_paper("okafor2024")
    assert (p.title, p.year, p.authors) == ("From Zotero", 2024, ["Adaeze Okafor"])


def test_shared_pdfs_caption_recall(lib):
    folder = shared("pdfs")
    manifest = json.loads((folder / "manifest.json").read_text())
    report = lib.add([str(folder)])
    assert report.count("added") == len(manifest) and not report.failed
    found = truth = spurious = 0
    by_name = {os.path.basename(f.path): f.paper_id for f in report.files}
    for m in manifest:
        want = {("Figure " if c["kind"] == "figure" else "Table ") + c["number"] for c in m["captions"]}
        got = {u.object_label for u in lib.store.paper_units(by_name[os.path.basename(m["file"])])
               if u.kind == "object"}
        found += len(want & got)
        truth += len(want)
        spurious += len(got - want)
    assert found / truth >= 0.95 and spurious / (found + spurious) <= 0.05
