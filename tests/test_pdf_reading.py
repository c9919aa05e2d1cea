"""Reading an unseen paper's layout: the title beside a scaled e-mail line, a title barely larger
than the body, a sidebar box, a contents page, author lines, superscripts on joined lines, and the
year checked against the paper's references and the file's own creation date.  PDFs are made
here with reportlab (and one by hand, for a Type 3 font)."""

from __future__ import annotations

import re

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest import load_source, parse_source
from papershelf.ingest.pdf import read_pdf

from .pdf_fixtures import BODY, _wrap, draw_references, read_drawn

W, H = letter


def _body(c: canvas.Canvas, x: float, y: float, paragraphs: int = 2, chars: int = 90) -> float:
    c.setFont("Times-Roman", 10)
    for _ in range(paragraphs):
        for ln in _wrap(BODY, chars):
            c.drawString(x, y, ln)
            y -= 12.5
        y -= 6
    return y


def _headings(doc) -> list[str]:
    return [b.text for b in doc.blocks if b.kind == "heading"]


def _dated(path, stamp: str) -> None:
    """Set the file's CreationDate to `stamp` (14 digits), keeping every byte offset."""
    data = path.read_bytes()
    path.write_bytes(re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (D:" + stamp.encode(), data))


# --- the title and the authors -------------------------------------------------------------------

def _type3_pdf(path) -> None:
    """A page whose e-mail line is set in a Type 3 font at Tf 60 with a tiny font matrix: pdfium
    states 60 pt for glyphs 8 pt tall (as dvips' bitmap fonts do), the largest "size" on the page."""
    lines = [("F1", 16, 306, 700, "Parsing Questions into Database Queries", True),
             ("F2", 11, 306, 672, "Ruth Gale and Raymond Moore", True),
             ("F2", 10, 306, 658, "Department of Computer Sciences, University of Texas", True),
             ("F3", 60, 306, 644, "gale@cs.utexas.edu", True),
             ("F1", 11, 72, 610, "Abstract", False)]
    ops = []
    for font, size, x, y, text, centred in lines:
        width = 0.5 * size * len(text) * (0.0002 * 500 / 0.5 if font == "F3" else 1)
        x0 = x - width / 2 if centred else x
        ops.append(f"BT /{font} {size} Tf {x0:.1f} {y} Td ({text}) Tj ET")
    y = 590
    for _ in range(3):
        for ln in _wrap(BODY, 90):
            ops.append(f"BT /F4 10 Tf 72 {y} Td ({ln}) Tj ET")
            y -= 12.5
    content = "\n".join(ops).encode()
    glyph = b"500 0 0 0 500 700 d1 0 0 500 700 re f"
    names = sorted(set("gale@cs.utexas.edu"))
    glyph_name = {"@": "at", ".": "period"}
    codes = " ".join(f"{ord(ch)} /{glyph_name.get(ch, ch)}" for ch in names)
    procs = " ".join(f"/{glyph_name.get(ch, ch)} 9 0 R" for ch in names)
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << "
        b"/F1 5 0 R /F2 6 0 R /F3 8 0 R /F4 7 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
        (f"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.0002 0 0 0.0002 0 0] "
         f"/CharProcs << {procs} >> /Encoding << /Type /Encoding /Differences [{codes}] >> "
         f"/FirstChar 46 /LastChar 120 /Widths [{' '.join(['500'] * 75)}] >>").encode(),
        b"<< /Length %d >>\nstream\n" % len(glyph) + glyph + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(bytes(out))


def test_a_scaled_email_line_is_not_the_title_and_the_authors_are_read(tmp_path):
    path = tmp_path / "type3.pdf"
    _type3_pdf(path)
    doc = read_pdf(path.read_bytes())
    assert doc.title == "Parsing Questions into Database Queries"
    assert doc.authors == ["Ruth Gale", "Raymond Moore"]


def test_a_bold_centred_title_a_point_above_the_body_is_the_title(tmp_path):
    path = tmp_path / "caps.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 11)
    c.drawCentredString(W / 2, 720, "IMPROVING DETECTION OF INFLUENTIAL NODES")
    c.drawCentredString(W / 2, 706, "IN COMPLEX NETWORKS")
    c.setFont("Times-Roman", 9)
    c.drawCentredString(W / 2, 680, "AMIR SHEIKH, MOHAMMAD A. NEMAT, AND ARMAN SHOKRI")
    _body(c, 72, 640, paragraphs=4)
    doc = read_drawn(path, c)
    assert doc.title == "IMPROVING DETECTION OF INFLUENTIAL NODES IN COMPLEX NETWORKS"
    assert doc.authors == ["Amir Sheikh", "Mohammad A. Nemat", "Arman Shokri"]


def test_an_aggregators_cover_sheet_is_not_the_papers_first_page(tmp_path):
    """A ResearchGate cover sheet names "3 of 4 authors" with their employers: the title and the
    authors are read from the paper's own first page after it, and the sheet is in no unit."""
    path = tmp_path / "covered.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 8)
    c.drawString(72, 740, "See discussions, stats, and author profiles for this publication at: "
                          "https://www.researchgate.net/publication/1")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 710, "Joint Learning of Sparse Voice Features")
    c.setFont("Helvetica", 9)
    for i, (name, employer) in enumerate([("Mina Park", "Samsung"), ("Joon Lee", "Kakao Brain")]):
        c.drawString(72, 660 - 40 * i, name)
        c.drawString(72, 648 - 40 * i, employer)
        c.drawString(72, 636 - 40 * i, "36 PUBLICATIONS   416 CITATIONS   SEE PROFILE")
    c.showPage()
    c.setFont("Times-Bold", 16)
    c.drawCentredString(W / 2, 720, "Joint Learning of Sparse Voice Features")
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, 694, "Mina Park, Joon Lee, Dr.S.Kwon, Prof. Hana Choi")
    c.drawCentredString(W / 2, 680, "School of Electrical Engineering, KAIST, Daejeon, Korea")
    c.setFont("Times-Bold", 11)
    c.drawString(72, 650, "Abstract")
    _body(c, 72, 634, paragraphs=3)
    doc = read_drawn(path, c)
    assert doc.title == "Joint Learning of Sparse Voice Features"
    assert doc.authors == ["Mina Park", "Joon Lee", "S. Kwon", "Hana Choi"]
    assert not [b for b in doc.blocks if "PUBLICATIONS" in b.text or "researchgate" in b.text.lower()]


def test_a_section_heading_at_the_top_of_a_cut_page_is_not_a_title(tmp_path):
    path = tmp_path / "cut.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 11)
    c.drawString(72, 720, "5 Optimized Table Structure Language")
    _body(c, 72, 700, paragraphs=4)
    doc = read_drawn(path, c)
    assert doc.title is None and doc.authors == []


# --- sidebars, contents pages, author lines --------------------------------------------------------

def _sidebar_paper(path) -> None:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 80, "Sleep Loss and Memory in Older Adults")
    c.setFont("Helvetica", 11)
    c.drawCentredString(W / 2, H - 104, "Anna Berg, Lars Holm and Maria Olsson")
    c.setFillColorRGB(0.9, 0.9, 0.95)
    c.rect(W - 210, 300, 160, 330, fill=1, stroke=1)
    c.setFillColorRGB(0, 0, 0)
    y = 610
    for title, text in (("Key points", "Older adults who sleep less remember fewer words the next day. "
                                       "The effect holds after age and health are taken into account. " * 2),
                        ("Competing interests", "The authors declare that they have no competing interests.")):
        c.setFont("Helvetica-Bold", 11)
        c.drawString(W - 200, y, title)
        y -= 16
        c.setFont("Helvetica", 8)
        for ln in _wrap(text, 36):
            c.drawString(W - 200, y, ln)
            y -= 10
        y -= 8
    y = 630
    for heading in ("Introduction", "Methods"):
        c.setFont("Helvetica-Bold", 11)
        c.drawString(54, y, heading)
        y = _body(c, 54, y - 16, paragraphs=2, chars=62)
    c.save()


def test_a_sidebar_box_is_no_section_and_does_not_swallow_the_introduction(tmp_path):
    path = tmp_path / "sidebar.pdf"
    _sidebar_paper(path)
    doc = read_pdf(path.read_bytes())
    assert _headings(doc) == ["Introduction", "Methods"]
    texts = [b.text for b in doc.blocks]
    intro, methods = texts.index("Introduction"), texts.index("Methods")
    assert all(t.startswith("Macrophages") for t in texts[intro + 1:methods])  # the body, in order
    assert texts[-4:-2] == ["Key points", texts[-3]] and texts[-3].startswith("Older adults who sleep less")
    assert texts[-1].startswith("The authors declare")


def _stretched(c: canvas.Canvas, x: float, y: float, text: str, right: float, font: str, size: float) -> None:
    """`text` as one run of glyphs reaching `right` by wider word spaces (LaTeX's bold section
    entries, whose page number pdfium reads as part of the same line)."""
    c.saveState()  # the word spacing is text state, which would outlive the text object
    t = c.beginText(x, y)
    t.setFont(font, size)
    t.setWordSpace((right - x - c.stringWidth(text, font, size)) / text.count(" "))
    t.textOut(text)
    c.drawText(t)
    c.restoreState()


def _contents_paper(path, one_run: bool = False) -> None:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 80, "Wound Healing in Diabetic Mice")
    y = H - 140
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, y, "Contents")
    y -= 18
    entries = [("1", "Introduction", 2), ("2", "Methods", 2), ("2.1", "Animals and wounds", 2),
               ("2.2", "Staining", 3), ("3", "Results", 3), ("4", "Discussion", 3)]
    for num, title, page in entries:
        if "." in num:  # sub-entries with dot leaders, in one run of text
            c.setFont("Times-Roman", 10)
            text = f"{num} {title} "
            while c.stringWidth(text + ". ", "Times-Roman", 10) < W - 182:
                text += ". "
            c.drawString(90, y, f"{text} {page}")
        elif one_run:
            _stretched(c, 72, y, f"{num} {title} {page}", W - 92 + c.stringWidth(" 2", "Times-Roman", 10),
                       "Helvetica-Bold", 10)
        else:  # section entries: bold, the page number flush right
            c.setFont("Helvetica-Bold", 10)
            c.drawString(72, y, f"{num} {title}")
            c.drawRightString(W - 72, y, str(page))
        y -= 14
        if one_run and num == "2.1":  # an entry whose title wraps onto a second row
            c.setFont("Times-Roman", 10)
            c.drawString(90, y, "2.1a A subsection whose long title wraps onto a sec-")
            y -= 14
            text = "ond row of the contents "
            while c.stringWidth(text + ". ", "Times-Roman", 10) < W - 200:
                text += ". "
            c.drawString(108, y, f"{text} 2")
            y -= 14
    c.showPage()
    for page in ((("1", "Introduction"), ("2", "Methods"), ("2.1", "Animals and wounds")),
                 (("2.2", "Staining"), ("3", "Results"), ("4", "Discussion"))):
        y = H - 80
        for num, title in page:
            c.setFont("Helvetica-Bold", 12 if "." not in num else 10.5)
            c.drawString(72, y, f"{num} {title}")
            y = _body(c, 72, y - 18)
        c.showPage()
    c.save()


def test_a_contents_page_is_not_headings(tmp_path):
    path = tmp_path / "contents.pdf"
    _contents_paper(path)
    doc = read_pdf(path.read_bytes())
    want = ["1 Introduction", "2 Methods", "2.1 Animals and wounds", "2.2 Staining", "3 Results", "4 Discussion"]
    assert [h for h in _headings(doc) if h != "Contents"] == want
    assert [b.page for b in doc.blocks if b.kind == "heading" and b.text in want] == [2, 2, 2, 3, 3, 3]
    page1 = [b.text for b in doc.blocks if b.page == 1 and b.kind == "text"]
    assert "2.1 Animals and wounds 2" in page1 and "1 Introduction 2" in page1  # the entries, leaders gone


def test_contents_entries_in_one_run_and_wrapped_titles_are_not_headings(tmp_path):
    """LaTeX's contents style: bold section entries whose page number pdfium reads into the same
    line, sub-entries with leaders, and a sub-entry whose title wraps onto a second row."""
    path = tmp_path / "contents.pdf"
    _contents_paper(path, one_run=True)
    doc = read_pdf(path.read_bytes())
    want = ["1 Introduction", "2 Methods", "2.1 Animals and wounds", "2.2 Staining", "3 Results", "4 Discussion"]
    assert [h for h in _headings(doc) if h != "Contents"] == want
    page1 = [b.text for b in doc.blocks if b.page == 1 and b.kind == "text"]
    assert "1 Introduction 2" in page1 and "3 Results 3" in page1
    assert "2.1a A subsection whose long title wraps onto a second row of the contents 2" in page1


def test_ieee_headings_in_the_body_size_capitals_and_italic_subsections(tmp_path):
    """IEEE sets "I. INTRODUCTION" in capitals of the body's size and weight, centred, and
    "A. Latency Breakdown" in italics of the body's size; both are headings, set tight above their
    paragraph.  An italic "C." that does not continue the numbering is no heading."""
    path = tmp_path / "ieee.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 80, "Caching Transactions at the Edge")
    y = H - 120
    for kind, text in (("sec", "I. INTRODUCTION"), ("sub", "A. Latency Breakdown"), ("sub", "B. Fault Tolerance"),
                       ("sec", "II. DESIGN"), ("sub", "D. Not a subsection here")):
        if kind == "sec":
            c.setFont("Times-Roman", 10)
            c.drawCentredString(W / 2, y, text)
        else:
            c.setFont("Times-Italic", 10)
            c.drawString(72, y, text)
        y = _body(c, 72, y - 13, paragraphs=1)
    assert _headings(read_drawn(path, c)) == ["I. INTRODUCTION", "A. Latency Breakdown", "B. Fault Tolerance",
                                                      "II. DESIGN"]


def test_centred_numbered_headings_in_the_body_style_are_not_a_list(tmp_path):
    """amsart centres "1. Introduction" in the body's size and weight: a centred line is no list item."""
    path = tmp_path / "amsart.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 14)
    c.drawCentredString(W / 2, H - 80, "WEAK LENSING IN THE OUTSKIRTS")
    y = H - 120
    left = (W - max(c.stringWidth(ln, "Times-Roman", 10) for ln in _wrap(BODY, 90))) / 2  # a centred text block
    for text in ("1. Introduction", "2. Results", "3. Observations"):
        c.setFont("Times-Roman", 10)
        c.drawCentredString(W / 2, y, text)
        y = _body(c, left, y - 13, paragraphs=1)
    assert _headings(read_drawn(path, c)) == ["1. Introduction", "2. Results", "3. Observations"]


def test_an_author_line_and_an_affiliation_are_not_headings(tmp_path):
    path = tmp_path / "authors.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 80, "Signals That Persist in Wound Macrophages")
    c.setFont("Helvetica", 11)
    c.drawCentredString(W / 2, H - 104, "Anna Berg and Lars Holm")
    y = H - 140
    for heading in ("1 Introduction", "2 Results"):
        c.setFont("Helvetica-Bold", 12)
        c.drawString(72, y, heading)
        y = _body(c, 72, y - 18)
    # the author block again at the foot, in bold as some journals set it
    c.setFont("Helvetica-Bold", 11)
    c.drawString(72, y - 10, "Anna Berg, Lars Holm")
    c.drawString(72, y - 40, "Department of Biology, Umea University, Sweden")
    _body(c, 72, y - 70, paragraphs=1)
    doc = read_drawn(path, c)
    assert doc.authors == ["Anna Berg", "Lars Holm"]
    assert _headings(doc) == ["1 Introduction", "2 Results"]


# --- superscripts ----------------------------------------------------------------------------------

def test_a_superscript_reads_the_same_in_a_line_pdfium_joins_to_the_other_column(tmp_path):
    path = tmp_path / "sup.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)

    def line(x, y, before, sup="", after=""):
        c.setFont("Times-Roman", 10)
        c.drawString(x, y, before)
        x += c.stringWidth(before, "Times-Roman", 10)
        if sup:
            c.setFont("Times-Roman", 6.5)
            c.drawString(x, y + 4, sup)
            x += c.stringWidth(sup, "Times-Roman", 6.5)
            c.setFont("Times-Roman", 10)
            c.drawString(x, y, after)

    y = H - 100
    for i in range(24):
        if i == 3:  # alone on its baseline
            line(54, y, "The index holds 10", "10", " vectors on one disk.")
        else:
            line(54, y, f"Left column words run on in plain text, line {i}.")
        if i == 18:  # beside a line of the other column: pdfium reads both as one line
            line(W / 2 + 12, y, "A later section holds 10", "10", " vectors too.")
        elif i != 3:
            line(W / 2 + 12, y, f"Right column words run on in plain text {i}.")
        y -= 12.5
    text = " ".join(b.text for b in read_drawn(path, c).blocks)
    assert "holds 10^10 vectors on one disk" in text
    assert "holds 10^10 vectors too" in text


# --- the year ----------------------------------------------------------------------------------------

def _dated_paper(path, top: tuple[str, ...] = (), references: tuple[str, ...] = (), footer: str = "",
                 stamp: str | None = None, pages: int = 2) -> None:
    """A paper with `top` lines under its title, references, an optional running `footer` from page
    2 on and an optional arXiv `stamp` set vertically in the left margin of page 1."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(W / 2, 720, "Signals That Persist in Wound Macrophages")
    c.setFont("Helvetica", 9)
    for i, text in enumerate(top):
        c.drawCentredString(W / 2, 700 - 12 * i, text)
    if stamp:
        c.saveState()
        c.setFont("Times-Roman", 20)
        c.setFillGray(0.5)
        c.translate(30, 250)
        c.rotate(90)
        c.drawString(0, 0, stamp)
        c.restoreState()
    y = _body(c, 72, 660, paragraphs=3)
    for n in range(2, pages + 1):
        c.showPage()
        if footer:
            c.setFont("Helvetica", 8)
            c.drawString(72, 40, f"{footer}")
            c.drawRightString(W - 72, 40, str(n))
        y = _body(c, 72, 700, paragraphs=3)
    draw_references(c, 72, y - 10, references, 14)
    c.save()


REFS = ("Trond Grenager, Dan Klein, and Christopher Manning. 2005. Unsupervised learning of field "
        "segmentation models.", "Andrew Radford. 1988. Transformational Grammar. Cambridge University Press.")


def _year(path) -> int | None:
    return parse_source(load_source(str(path))).year


def test_the_year_from_an_arxiv_stamp_in_the_margin(tmp_path):
    path = tmp_path / "stamp.pdf"
    _dated_paper(path, stamp="arXiv:1706.03762v5 [cs.CL] 6 Dec 2017", references=REFS)
    _dated(path, "20171206120000")
    assert _year(path) == 2017


def test_a_year_printed_before_the_latest_reference_is_not_the_papers(tmp_path):
    path = tmp_path / "old.pdf"
    _dated_paper(path, top=("Copyright 2003 the authors",), references=REFS)
    _dated(path, "20060418022244")
    assert _year(path) is None  # it cites 2005: 2003 is some other date


def test_the_creation_date_gives_the_year_only_when_the_references_pin_it(tmp_path):
    path = tmp_path / "plain.pdf"
    _dated_paper(path, references=REFS)  # prints no year of its own
    _dated(path, "20060418022244")
    assert _year(path) == 2006
    _dated(path, "20061118022244")  # made in November: may be next year's meeting
    assert _year(path) is None
    _dated(path, "20120418022244")  # made years after its latest reference: a later copy
    assert _year(path) is None


def test_a_running_footer_names_the_venue_and_year_beyond_page_1(tmp_path):
    path = tmp_path / "footer.pdf"
    _dated_paper(path, footer="NIPS 2011", references=REFS, pages=3)
    _dated(path, "20120105000000")  # made in the next January: the date alone would say nothing
    assert _year(path) == 2011

