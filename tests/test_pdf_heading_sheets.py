"""Heading decisions from the document's own structure (issue 38, round heads3), each drawn as a
generated PDF: sheets a publisher binds before and after the paper, the next article's title on a
reprint's last page, a body set larger than a long small-print section, a run-in closed by a dash,
an equation number beside a heading, a table caption at a page's foot, text set outside the page, a
boxed advertisement in two columns, and a one-word numbered heading."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import read_drawn
from .test_pdf_heading_styles import _TEXT, _headings, _para, _title

W, H = letter
_TITLE = "Dose Response of a Signalling Pathway"


def _bold(c: canvas.Canvas, x: float, y: float, text: str, size: float = 10, font: str = "Times-Bold") -> None:
    c.setFont(font, size)
    c.drawString(x, y, text)


def _body_page(c: canvas.Canvas, y: float, heads: list[str]) -> None:
    for head in heads:
        _bold(c, 72, y, head)
        y = _para(c, 72, y - 14, 460) - 2
        y = _para(c, 72, y, 460) - 10
    c.showPage()


def _paper(c: canvas.Canvas) -> None:
    """Three pages: numbered sections, then the references."""
    _body_page(c, _title(c), ["1 Introduction", "2 Methods"])
    _body_page(c, H - 72, ["3 Results", "4 Discussion"])
    _bold(c, 72, H - 72, "References")
    y = H - 90
    for n in range(1, 6):
        c.setFont("Times-Roman", 9)
        c.drawString(72, y, f"{n}. A. Author, B. Author. J. Biol. 12, {n}01 (2001).")
        y -= 12


def test_back_sheet_after_the_paper_has_no_sections(tmp_path):
    """A journal's last sheet sets the paper's title large at its top again, over labels with their
    text beside them ("References  This article cites 35 articles", "Email alerting service"): read
    as text, never as sections of the paper."""
    path = tmp_path / "back_sheet.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _paper(c)
    c.showPage()
    c.setFont("Helvetica-Bold", 15)
    c.drawString(160, H - 80, _TITLE)
    c.setFont("Helvetica", 10)
    c.drawString(160, H - 98, "Ada Okafor and Lena Brandt")
    y = H - 160
    for label, text in (("References", "This article cites 35 articles, 7 of which you can access for free."),
                        ("Open Access", "This is an Open Access article distributed under the licence."),
                        ("Email alerting", "Receive free email alerts when new articles cite this article.")):
        _bold(c, 72, y, label, 11, "Helvetica-Bold")
        c.setFont("Helvetica", 10)
        c.drawString(160, y, text)
        y -= 40
    doc = read_drawn(path, c)
    heads = [(b.text, b.page) for b in doc.blocks if b.kind == "heading"]
    assert heads == [("1 Introduction", 1), ("2 Methods", 1), ("3 Results", 2), ("4 Discussion", 2),
                     ("References", 3)]
    assert any("Email alerting" in b.text and b.page == 4 for b in doc.blocks)  # still read, as text


def test_cover_sheet_before_a_title_page_with_a_drop_cap(tmp_path):
    """A cover sheet prints the title small among links; the paper's first page sets it large, and
    its first paragraph opens with a drop cap larger than the title: the title page is still found
    by its top third, the cover sheet is no part of the paper and the title no section."""
    path = tmp_path / "cover.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _bold(c, 160, H - 90, _TITLE, 11, "Helvetica-Bold")
    c.setFont("Helvetica", 10)
    for k, text in enumerate(("Ada Okafor, et al.", "Science 326, 954 (2009);",
                              "This copy is for your personal, non-commercial use only.",
                              "Updated information and services can be found online.")):
        c.drawString(160, H - 106 - 14 * k, text)
    c.showPage()
    c.setFont("Helvetica-Bold", 22)
    c.drawString(72, H - 90, "Dose Response of a")
    c.drawString(72, H - 116, "Signalling Pathway")
    c.setFont("Times-Roman", 10)
    c.drawString(72, H - 140, "Ada Okafor and Lena Brandt")
    c.setFont("Times-Roman", 40)
    c.drawString(72, H - 330, "U")
    y = _para(c, 104, H - 302, 428)
    y = _para(c, 72, y - 20, 460)
    _bold(c, 72, y - 10, "Results")
    _para(c, 72, y - 24, 460)
    doc = read_drawn(path, c)
    assert doc.title == _TITLE
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["Results"]


def test_next_article_on_the_last_page_is_no_section(tmp_path):
    """A reprint's last page: the paper's references end, then the next article's title, set as
    large as the paper's own, its byline and text with a run-in sub-heading: none of that is a
    section of this paper, and its text stays readable."""
    path = tmp_path / "reprint.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _paper(c)
    _para(c, 320, H - 72, 220)
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 240, "Quantum Superposition of the")
    c.drawCentredString(W / 2, H - 262, "Macroscopic Persistent-Current States")
    c.setFont("Times-Roman", 10)
    c.drawCentredString(W / 2, H - 282, "Caspar van der Wal and Seth Lloyd")
    for x in (72, 320):
        y = _para(c, x, H - 310, 220)
        _para(c, x, y - 4, 220, lead=("Detecting quantum superposition.", "Times-Bold"))
    doc = read_drawn(path, c)
    heads = [b.text for b in doc.blocks if b.kind == "heading"]
    assert heads == ["1 Introduction", "2 Methods", "3 Results", "4 Discussion", "References"]
    assert any("Persistent" in b.text for b in doc.blocks if b.kind == "text")


def test_body_size_is_the_running_text_not_a_long_small_print_section(tmp_path):
    """Methods and references set in 8 pt outweigh the 10 pt running text by characters, but the
    10 pt text runs through every page: it is the body, so a short line of it set on its own is
    no heading, and the 10 pt bold names are."""
    path = tmp_path / "small_methods.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold(c, 72, y, "INTRODUCTION")
    y = _para(c, 72, y - 14, 460)
    y = _para(c, 72, y - 2, 460)
    _bold(c, 72, y - 10, "MATERIALS AND METHODS")
    y = y - 24
    for _ in range(5):
        y = _para(c, 72, y, 460, size=8, text=_TEXT + " " + _TEXT) - 2
    c.showPage()
    y = _para(c, 72, H - 72, 460)
    c.setFont("Times-Roman", 10)
    c.drawString(72, y - 12, "Two species flowered in the second year only")
    y = _para(c, 72, y - 36, 460)
    _bold(c, 72, y - 10, "RESULTS")
    y = y - 24
    for _ in range(5):
        y = _para(c, 72, y, 460) - 2
    c.showPage()
    y = H - 72
    for _ in range(6):
        y = _para(c, 72, y, 460) - 2
    for _ in range(4):
        y = _para(c, 72, y, 460, size=8, text=_TEXT + " " + _TEXT) - 2
    c.save()
    assert [h for h, _ in _headings(path)] == ["INTRODUCTION", "MATERIALS AND METHODS", "RESULTS"]


def test_runin_closed_by_a_dash_in_the_text_font(tmp_path):
    """"Study species—The snakeroot …": a bold italic lead-in closed by an em dash set in the text's
    roman font, with no space after it, is a run-in sub-heading."""
    path = tmp_path / "dash_runin.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold(c, 72, y, "MATERIALS AND METHODS")
    y = y - 16
    for lead in ("Study species", "Study sites"):
        c.setFont("Times-BoldItalic", 10)
        c.drawString(72, y, lead)
        x = 72 + c.stringWidth(lead, "Times-BoldItalic", 10)
        c.setFont("Times-Roman", 10)
        c.drawString(x, y, "—The snakeroot is a perennial herb of the scrub, restricted to large openings.")
        y = _para(c, 72, y - 12, 460)
    c.save()
    assert _headings(path) == [("MATERIALS AND METHODS", 1), ("Study species", 2), ("Study sites", 2)]


def test_equation_number_beside_a_heading_stays_out_of_it(tmp_path):
    """A displayed equation's number at the right margin ("(S19)") reads as a column of its own
    beside the heading below it; a heading alone on its line does not run on into it."""
    path = tmp_path / "eq_number.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold(c, 72, y, "1 Introduction", 12)
    y = _para(c, 72, y - 16, 460)
    _bold(c, 72, y - 6, "2 Proof of the theorem", 12)
    y = _para(c, 72, y - 22, 460)
    _bold(c, 72, y - 6, "2.1 Putting it all together")
    y = _para(c, 72, y - 20, 460)
    c.setFont("Times-Italic", 10)
    c.drawString(220, y - 14, "E |m - m(t)| < C(T) N")
    c.setFont("Times-Roman", 10)
    c.drawString(500, y - 14, "(S19)")
    c.drawString(72, y - 34, "which completes the proof.")
    _bold(c, 72, y - 58, "2.2 Additional proof details")
    _para(c, 72, y - 78, 460)
    c.save()
    assert _headings(path) == [("1 Introduction", 1), ("2 Proof of the theorem", 1), ("2.1 Putting it all together", 2),
                               ("2.2 Additional proof details", 2)]


def test_heading_after_a_table_caption_at_the_foot_of_the_page_before(tmp_path):
    """A table's caption closes a page; the next page opens with a short bold sub-heading: a
    table's cells are on its caption's page, so that heading is no cell."""
    path = tmp_path / "caption_foot.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold(c, 72, y, "RESULTS", 11)
    y = _para(c, 72, y - 16, 460)
    _bold(c, 72, y - 10, "Mentors")
    y = _para(c, 72, y - 24, 460)
    _para(c, 72, y - 4, 460)
    c.setFont("Times-Roman", 9)
    c.drawString(72, 90, "Table 5 Secondary outcomes at baseline and after the intervention")
    c.showPage()
    _bold(c, 72, H - 80, "Teachers")
    _para(c, 72, H - 94, 460)
    c.save()
    assert [h for h, _ in _headings(path)] == ["RESULTS", "Mentors", "Teachers"]


def test_text_set_outside_the_page_is_not_read(tmp_path):
    """A page carrying an earlier layout's copy of its text set above the sheet's top edge (never
    printed): its heading is not read a second time."""
    path = tmp_path / "off_page.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold(c, 72, y, "1. Introduction")
    _para(c, 72, y - 14, 460)
    c.showPage()
    _bold(c, 72, H - 80, "2. Results")
    _para(c, 72, H - 94, 460)
    _bold(c, 72, H + 40, "2. Results", 14)
    c.save()
    assert _headings(path) == [("1. Introduction", 1), ("2. Results", 1)]


def test_boxed_notice_in_two_columns_is_a_sidebar(tmp_path):
    """A shaded box at the foot of the last page, its title over prose set in two columns (a
    journal's "Publish your work in this journal"): a sidebar, its title no section."""
    path = tmp_path / "notice.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold(c, 72, y, "Introduction", 11)
    y = _para(c, 72, y - 16, 460)
    _bold(c, 72, y - 10, "Discussion", 11)
    _para(c, 72, y - 26, 460)
    c.setFillGray(0.9)
    c.rect(66, 80, 480, 150, stroke=0, fill=1)
    c.setFillGray(0)
    _bold(c, 72, 210, "Publish your work in this journal", 13, "Times-Roman")
    for x in (72, 312):
        _para(c, x, 190, 220)
    c.save()
    assert [h for h, _ in _headings(path)] == ["Introduction", "Discussion"]


def test_numbered_heading_of_one_word_name(tmp_path):
    """"2.3 F1": a bold numbered heading whose title is a system's one-word name, taken with the
    very next number."""
    path = tmp_path / "f1.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for head in ("1 Introduction", "2 Evaluation", "2.1 Availability", "2.2 TrueTime", "2.3 F1"):
        _bold(c, 72, y, head, 11)
        y = _para(c, 72, y - 16, 460) - 8
    c.save()
    assert _headings(path)[-2:] == [("2.2 TrueTime", 2), ("2.3 F1", 2)]
