"""Reference lists read from every format: real PDFs made with reportlab (author-year with hanging
indents, numbered lists, entries running on across columns and pages), JATS, TEI, S2ORC and Markdown,
and the printed text of an entry read into its fields."""

from __future__ import annotations

import json

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.markdown import parse_markdown
from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.references import parse_reference
from papershelf.ingest.structured import read_jats, read_s2orc, read_tei
from papershelf.units import build_units

from .conftest import shared
from .pdf_fixtures import _wrap

W, H = letter
SURNAMES = ["Abbott", "Baxter", "Carver", "Dalton", "Ellison", "Fairbanks", "Garrison", "Holloway", "Ingram", "Jarvis",
            "Kendall", "Lancaster", "Merriweather", "Northcott", "Oakley", "Pemberton", "Quimby", "Radcliffe",
            "Stanhope", "Thornton", "Underwood", "Vance", "Whitaker", "Yardley", "Zimmerman", "Ashford"]
WORDS = ("robust estimation of sparse signals under adversarial noise with learned priors for large "
         "scale retrieval and ranking in scholarly corpora").split()


def entry(i: int) -> tuple[str, int, str, str]:
    """(surname, year, title, venue) of the i-th made-up reference; titles long enough to wrap."""
    title = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(9 + i % 5)).capitalize()
    return SURNAMES[i % len(SURNAMES)], 1990 + i, title, f"Journal of Examples {i + 1}"


def make_pdf(path, n: int, numbered: bool) -> None:
    """A two-column paper whose reference list fills the rest of page 1 and runs onto page 2."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawCentredString(W / 2, H - 80, "A Paper About Made-Up References")
    cols = [54, W / 2 + 12]
    col, y = 0, H - 130
    c.setFont("Helvetica-Bold", 12)
    c.drawString(cols[col], y, "1 Introduction")
    y -= 16
    c.setFont("Times-Roman", 10)
    for line in _wrap("We cite many papers here, as papers do, and say little else about them. " * 6, 52):
        c.drawString(cols[col], y, line)
        y -= 12
    y -= 10
    c.setFont("Helvetica-Bold", 12)
    c.drawString(cols[col], y, "References")
    y -= 16
    page = 1
    for i in range(n):
        surname, year, title, venue = entry(i)
        if numbered:
            text = f"[{i + 1}] J. {surname} and K. Other. {title}. {venue}, {year}."
        else:
            text = f"{surname}, J. and Other, K. ({year}). {title}. {venue}, 12:1-9."
        for k, line in enumerate(_wrap(text, 50)):
            if y < 70:  # next column, then next page: the entry runs on
                if col == 0:
                    col, y = 1, H - 130 if page == 1 else H - 70
                else:
                    c.showPage()
                    page += 1
                    col, y = 0, H - 70
            c.setFont("Times-Roman", 9)
            indent = 10 if (k and not numbered) else 0
            c.drawString(cols[col] + indent, y, line)
            y -= 11
        y -= 0 if not numbered else 2
    c.save()


@pytest.mark.parametrize("numbered", [False, True], ids=["author-year", "numbered"])
def test_pdf_reference_list_across_columns_and_pages(tmp_path, numbered):
    path = tmp_path / "paper.pdf"
    make_pdf(path, 40, numbered)
    doc = read_pdf(path.read_bytes())
    assert len(doc.references) == 40
    for ref in doc.references:
        surname, year, title, venue = entry(ref.n - 1)
        assert ref.year == year, ref
        assert ref.authors[0].split(",")[0].split()[-1] == surname, ref
        assert ref.title == title, ref
        assert ref.venue.startswith(venue), ref
    units = build_units(doc, "p")
    assert units and not any("Journal of Examples" in u.text for u in units)  # the list is no body text


def test_an_entry_read_as_a_heading_does_not_end_the_list():
    """A thesis' list where the reader took one entry for a heading ("[19] Robert Bowdidge and
    William Griswold, ..." set apart at a page's top): the list goes on past it to its last entry,
    as it still stops at a real heading after it ("Appendix B")."""
    from papershelf.document import Block
    from papershelf.ingest.pdf.bibliography.references import pdf_references
    from papershelf.ingest.pdf.text.lines import Line

    texts = ["References", *(f"[{i}] {SURNAMES[i]}, J. A title of entry {i}. Journal {i}, {1990 + i}."
                             for i in range(1, 6)), "Appendix B", "We add a proof here, at some length."]
    column = [Line(1, 72, 100 + 14 * k, 500, 110 + 14 * k, t, 10.0, False) for k, t in enumerate(texts)]
    blocks = [Block("heading", "References"), Block("heading", texts[3]), Block("heading", "Appendix B")]
    refs = pdf_references([column], blocks)
    assert [r.text[:3] for r in refs] == ["[1]", "[2]", "[3]", "[4]", "[5]"]


def test_list_read_by_its_columns_when_the_reading_order_interleaves_them():
    """A list in three narrow columns whose lines came interleaved (the reading order took the
    columns row by row), with its heading in the first column and entries of later columns above
    the heading's height: the page's gutters put each column back in one piece, in order."""
    from papershelf.document import Block
    from papershelf.ingest.pdf.bibliography.references import pdf_references
    from papershelf.ingest.pdf.text.lines import Line

    lefts = [50.0, 230.0, 410.0]
    body = [Line(1, 50, 40 + 12 * k, 200, 48 + 12 * k, "We discuss the results at length here.", 9.0, False)
            for k in range(8)]
    heading = Line(1, 50, 150, 120, 158, "References", 9.0, True)
    cols: list[list[Line]] = [[], [], []]
    n = 0
    for c, left in enumerate(lefts):
        y = 170.0 if c == 0 else 40.0
        while y < 700 - 40:
            n += 1
            for k, text in enumerate([f"{n}. {SURNAMES[n % 26]} J. {1990 + n} A made-up title",
                                      f"of entry {n}. J. Ex. {n}, 1-9."]):
                cols[c].append(Line(1, left + (10 if k else 0), y, left + 160, y + 7, text, 7.0, False))
                y += 10
    rows = sorted((ln for col in cols for ln in col), key=lambda ln: (ln.top, ln.x0))
    refs = pdf_references([body + [heading] + rows], [Block("heading", "References")])
    assert len(refs) == n and [r.n for r in refs] == list(range(1, n + 1))
    assert all(r.text.startswith(f"{r.n}. ") and r.text.endswith(f"of entry {r.n}. J. Ex. {r.n}, 1-9.") for r in refs)


@pytest.mark.parametrize("text, authors, year, title, venue", [
    ("Stuart Andrews, Ioannis Tsochantaridis, and Thomas Hofmann. 2003. Support vector machines for "
     "multiple-instance learning. In NIPS 15, pages 561–568.", ["Stuart Andrews", "Ioannis Tsochantaridis",
     "Thomas Hofmann"], 2003, "Support vector machines for multiple-instance learning", "NIPS 15"),
    ("[3] A. B. Smith and C. Jones, \"Learning to rank for fun,\" in Proc. SIGIR, 2010, pp. 1-8.",
     ["A. B. Smith", "C. Jones"], 2010, "Learning to rank for fun", "Proc. SIGIR"),
    ("1. Mori H, Takio K, Selkoe DJ. Mass spectrometry of purified amyloid beta protein. J Biol Chem "
     "1992;267:17082-6.", ["Mori, H", "Takio, K", "Selkoe, DJ"], 1992, "Mass spectrometry of purified amyloid beta "
     "protein", None),
    ("Smith, J. A., & Doe, B. (2019). A great title about things. Journal of Stuff, 3(2), 1-5.",
     ["Smith, J. A", "Doe, B"], 2019, "A great title about things", "Journal of Stuff"),
    ("[1] H. Cao, S. K. Thakar, J. C. Chiao, Development of a capacitive strain sensor, IEEE Sensors Journal "
     "15 (11) (2015) 6542–6548.", ["H. Cao", "S. K. Thakar", "J. C. Chiao"], 2015,
     "Development of a capacitive strain sensor", "IEEE Sensors Journal 15"),
    ("9. Nassar, A., Lysak, M., Staar, P.: Tableformer: Table structure understanding with transformers. "
     "In: Proceedings of CVPR. pp. 4614-4623 (2022)", ["Nassar, A", "Lysak, M", "Staar, P"], 2022,
     "Tableformer: Table structure understanding with transformers", "Proceedings of CVPR"),
    ("[2] Michael J. Bommarito II, Daniel Martin Katz. LexNLP: Natural language processing for legal texts. "
     "arXiv:1806.03688 [cs, stat], June 2018.", ["Michael J. Bommarito", "Daniel Martin Katz"], 2018,
     "LexNLP: Natural language processing for legal texts", None),
])
def test_printed_entries_read_into_fields(text, authors, year, title, venue):
    ref = parse_reference(text, 1)
    assert (ref.authors, ref.year, ref.title) == (authors, year, title)
    if venue:
        assert ref.venue == venue


def test_identifiers_in_entries():
    ref = parse_reference("Kingma, D. and Ba, J. (2014). Adam: A method for stochastic optimization. "
                          "arXiv:1412.6980v9. https://doi.org/10.48550/ARXIV.1412.6980.", 1)
    assert ref.arxiv_id == "1412.6980" and ref.doi == "10.48550/arxiv.1412.6980"


JATS = b"""<article><front><article-meta><title-group><article-title>T</article-title></title-group>
</article-meta></front><body><sec><title>Intro</title><p>Text.</p></sec></body><back><ref-list>
<ref id="R1"><label>1</label><element-citation publication-type="journal"><person-group>
<name><surname>Mori</surname><given-names>H</given-names></name><name><surname>Selkoe</surname>
<given-names>DJ</given-names></name></person-group><article-title>Mass spectrometry of amyloid</article-title>
<source>J Biol Chem</source><year>1992</year><pub-id pub-id-type="doi">10.1000/JBC.1</pub-id></element-citation></ref>
<ref id="R2"><mixed-citation>Querfurth HW, LaFerla FM. Alzheimer's disease. N Engl J Med 2010;362:329-44.
</mixed-citation></ref></ref-list></back></article>"""

TEI = b"""<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>T</title></titleStmt>
<sourceDesc><biblStruct><analytic></analytic><monogr><imprint></imprint></monogr></biblStruct></sourceDesc>
</fileDesc></teiHeader><text><body><div><head>Intro</head><p>Text.</p></div></body><back><div><listBibl>
<biblStruct xml:id="b0"><analytic><title level="a" type="main">Construction of the literature graph</title>
<author><persName><forename type="first">Waleed</forename><surname>Ammar</surname></persName></author></analytic>
<monogr><title level="m">NAACL-HLT</title><imprint><date type="published" when="2018" /></imprint></monogr>
<idno type="arXiv">arXiv:1805.02262</idno></biblStruct></listBibl></div></back></text></TEI>"""


def test_jats_tei_s2orc_reference_lists():
    jats = read_jats(JATS).references
    assert [(r.n, r.authors[0], r.year, r.title, r.venue, r.doi) for r in jats[:1]] == [
        (1, "Mori, H", 1992, "Mass spectrometry of amyloid", "J Biol Chem", "10.1000/jbc.1")]
    assert jats[1].year == 2010 and jats[1].authors[0] == "Querfurth, HW" and jats[1].title == "Alzheimer's disease"
    tei = read_tei(TEI).references
    assert [(r.authors, r.year, r.title, r.venue, r.arxiv_id) for r in tei] == [
        (["Ammar, Waleed"], 2018, "Construction of the literature graph", "NAACL-HLT", "1805.02262")]
    s2orc = {"paper_id": "x", "title": "T", "abstract": [], "body_text": [{"text": "Body.", "section": "Intro"}],
             "bib_entries": {"BIBREF1": {"title": "Second", "authors": [{"first": "A", "middle": [], "last": "Two"}],
                                         "year": 2001, "venue": "V2", "raw_text": "Two, A. 2001. Second. V2."},
                             "BIBREF0": {"title": "First", "authors": [{"first": "B", "middle": ["C"], "last": "One"}],
                                         "year": 2000, "venue": "", "other_ids": {"DOI": ["10.1/one"]}}}}
    refs = read_s2orc(json.dumps(s2orc).encode()).references
    assert [(r.n, r.authors, r.year, r.title, r.doi) for r in refs] == [
        (1, ["One, B C"], 2000, "First", "10.1/one"), (2, ["Two, A"], 2001, "Second", None)]
    assert refs[1].text == "Two, A. 2001. Second. V2."


def test_markdown_reference_section_items_and_paragraphs():
    listed = parse_markdown("# A Paper\n\n## Intro\n\nText.\n\n## References\n\n"
                            "- [1] Ann Lee. 2001. First title. In X.\n"
                            "\n- [2] Bo Kim. 2002. End-to-\n\nend titles broken by a converter's blank line. In Y.\n"
                            "- more of entry two, which a converter made a list item.\n\n## Appendix\n\nNot a ref.\n")
    assert [(r.n, r.authors, r.year, r.title) for r in listed.references] == [
        (1, ["Ann Lee"], 2001, "First title"),
        (2, ["Bo Kim"], 2002, "End-to-end titles broken by a converter's blank line")]
    assert listed.references[1].text.endswith("which a converter made a list item.")
    plain = parse_markdown("# A Paper\n\n## Intro\n\nText.\n\n# Bibliography\n\nLee, A. (2001). First. J.\n\n"
                           "Kim, B. (2002). Second. K.\n")
    assert [(r.authors, r.year, r.title) for r in plain.references] == [
        (["Lee, A"], 2001, "First"), (["Kim, B"], 2002, "Second")]


def test_shared_pdf_reference_list_matches_its_grobid_tei():
    """Independent check on a real paper: the PDF's list and GROBID's TEI of the same PDF."""
    pdf = read_pdf(shared("pdfs", "acl-N18-3011_literature-graph.pdf").read_bytes()).references
    tei = read_tei(shared("fulltext", "grobid-tei", "acl-N18-3011_literature-graph.tei.xml").read_bytes()).references
    assert len(pdf) == 27 and len(tei) == 27
    assert [r.year for r in pdf] == [r.year for r in tei]


@pytest.mark.parametrize("text, authors, title, year", [
    # the last name after "and" closes a "Surname, I." list; pages "pp 1905-1930" are no year
    ("44. Ritchie, D.M. and Thompson, K. The Unix time-sharing system. Bell System Tech. J. 57, 6, July 1978, "
     "pp 1905-1930.", ["Ritchie, D.M", "Thompson, K"], "The Unix time-sharing system", 1978),
    ("[5] CORBETT, J. C., DEAN, J., AND WOODFORD, D. Spanner: Google's globally-distributed database. In "
     "Proceedings of the 10th USENIX conference (Berkeley, CA, USA, 2012), OSDI'12, pp. 251-264.",
     ["CORBETT, J. C", "DEAN, J", "WOODFORD, D"], "Spanner: Google's globally-distributed database", 2012),
    # "vol. 30." ends no sentence: the title is not "30"
    ("[53] PHILIPPSEN, M. Automatic alignment of array data and processes to reduce communication time on "
     "DMPPs, vol. 30. ACM, 1995.", ["PHILIPPSEN, M"],
     "Automatic alignment of array data and processes to reduce communication time on DMPPs, vol. 30", 1995),
    ("LINNAEUS, C. 1767. Mantissa Plantarum. Stockholm: Salvius.", ["LINNAEUS, C"], "Mantissa Plantarum", None),
    # an alphabetic label is no author
    ("[Arn94] Vladimir I. Arnold, Topological invariants of plane curves and caustics, University lecture series, "
     "vol. 5, American Mathematical Society, Providence, R.I., 1994.", ["Vladimir I. Arnold"],
     "Topological invariants of plane curves and caustics", 1994),
    ("[4] Smith, J. and Doe, K. L. A study of things. J. Stuff 3, 2001.", ["Smith, J", "Doe, K. L"],
     "A study of things", 2001),
    # a venue's acronym after the title is the venue; a plural acronym or a roman numeral is the title's
    ("[14] James C Corbett, Jeffrey Dean, et al. 2012. Spanner: Google's globally-distributed database (OSDI).",
     ["James C Corbett", "Jeffrey Dean"], "Spanner: Google's globally-distributed database", 2012),
    ("[3] Goodfellow, I. and Bengio, Y. Generative adversarial networks (GANs). In NIPS, 2014.",
     ["Goodfellow, I", "Bengio, Y"], "Generative adversarial networks (GANs)", 2014),
    ("Jones, A. (2001). Lattice models (II). Phys. Rev. 3, 1-9.", ["Jones, A"], "Lattice models (II)", 2001),
    ("[9] Baugher, M. and Naslund, M. The Secure Real-time Transport Protocol (SRTP). RFC 3711, 2004.",
     ["Baugher, M", "Naslund, M"], "The Secure Real-time Transport Protocol (SRTP)", 2004),
    # "(in press)" after the last initial is no title: the list does not end there
    ("Falcone, R., and Castelfranchi, C. (in press). Adjustable Social Autonomy. 2003.",
     ["Falcone, R"], "Adjustable Social Autonomy", 2003),
])
def test_entries_of_surname_initial_lists_and_venue_tags(text, authors, title, year):
    ref = parse_reference(text, 1)
    assert (ref.authors[:len(authors)], ref.title, ref.year) == (authors, title, year)
