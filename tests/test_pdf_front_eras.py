"""Front matter of other decades and publishers (issue #38, front11): a page set in one size whose
title and names are a centred stack (an OCR'd proceedings page), an old journal's "By …" byline run on
after the title in small capitals, a title's translation in italic under it, a journal line with the
volume before the year, a DOI a sidebar wraps after a hyphen.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.front.authors import line_names
from papershelf.ingest.pdf.front.meta import PdfMeta, _from_lines
from papershelf.ingest.pdf.front.meta_doi import doi_from

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter



def test_a_page_in_one_size_reads_its_centred_title_and_names(tmp_path):
    """Every line in one size and weight: a meeting's header in the top right corner, the title centred
    over the names one to a line (the second underlined: "__"), "Abstract", the body."""
    c = canvas.Canvas(str(tmp_path / "one.pdf"), pagesize=letter)
    c.setFont("Courier", 10)
    c.drawString(430, H - 36, "Session 8 Formalisms for")
    c.drawString(430, H - 47, "Artificial Intelligence")
    for k, text in enumerate(["A Universal Modular Formalism", "for Artificial Intelligence", "Carl Hewitt",
                              "Peter Bishop __", "Richard Steiger", "Abstract"]):
        c.drawCentredString(W / 2, H - 90 - 11 * k, text)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 80)[:30]):
        c.drawString(72, H - 170 - 11 * k, text)
    doc = read_drawn(tmp_path / "one.pdf", c)
    assert doc.title == "A Universal Modular Formalism for Artificial Intelligence"
    assert doc.authors == ["Carl Hewitt", "Peter Bishop", "Richard Steiger"]


def _small_caps(c: canvas.Canvas, text: str, x: float, y: float, size: float) -> float:
    for ch in text:
        s = 0.78 * size if ch.islower() else size
        c.setFont("Times-Roman", s)
        c.drawString(x, y, ch.upper())
        x += c.stringWidth(ch.upper(), "Times-Roman", s)
    return x


def test_a_by_line_run_on_after_the_title_gives_its_names(tmp_path):
    """An old journal's page in one size: "Physics. - On the … conducting" over "plates. By H. B. G.
    CASIMIR and D. POLDER." with the surnames in small capitals; a "by" in the text is no byline."""
    c = canvas.Canvas(str(tmp_path / "by.pdf"), pagesize=letter)
    c.setFont("Times-Roman", 10)
    c.drawString(72, H - 100, "Physics. - On the attraction between two perfectly conducting")
    c.drawString(92, H - 113, "plates. By H. B. G.")
    x = _small_caps(c, "Casimir", 92 + c.stringWidth("plates. By H. B. G. ", "Times-Roman", 10), H - 113, 10)
    c.setFont("Times-Roman", 10)
    c.drawString(x, H - 113, " and D.")
    x = _small_caps(c, "Polder", x + c.stringWidth(" and D. ", "Times-Roman", 10), H - 113, 10)
    c.setFont("Times-Roman", 10)
    c.drawString(x, H - 113, ".")
    c.setFont("Times-Roman", 8)
    c.drawCentredString(W / 2, H - 130, "(Communicated at the meeting of May 29, 1948.)")
    c.setFont("Times-Roman", 10)
    lines = ["In a recent paper by Polder and Casimir it is shown that the interaction between a plate",
             *_wrap(" ".join([BODY] * 6), 90)[:30]]
    for k, text in enumerate(lines):
        c.drawString(72, H - 150 - 12 * k, text)
    doc = read_drawn(tmp_path / "by.pdf", c)
    assert doc.authors == ["H. B. G. Casimir", "D. Polder"]


def test_a_title_translated_under_it_in_italic_is_no_part_of_it_nor_of_the_byline(tmp_path):
    """A Spanish title over its English translation in italic, smaller (8 words of running text: it
    used to close the byline before the names) and in the title's size (it used to join the title)."""
    for size in (11, 15):
        c = canvas.Canvas(str(tmp_path / "tr.pdf"), pagesize=letter)
        c.setFont("Helvetica-Bold", 15)
        c.drawString(72, H - 90, "Resultados de la arteritis de células gigantes")
        c.setFont("Helvetica-Oblique", size)
        c.drawString(72, H - 90 - 1.2 * size - 2, "Nurse staffing levels and outcomes of older adults")
        c.setFont("Times-Roman", 11)
        c.drawString(72, H - 140, "Ida Haddad, Carl Pihl and Anna Fors")
        c.setFont("Helvetica-Bold", 11)
        c.drawString(72, H - 180, "Abstract")
        c.setFont("Times-Roman", 10)
        for k, text in enumerate(_wrap(" ".join([BODY] * 8), 90)[:30]):
            c.drawString(72, H - 196 - 12 * k, text)
        doc = read_drawn(tmp_path / "tr.pdf", c)
        assert doc.title == "Resultados de la arteritis de células gigantes"
        assert doc.authors == ["Ida Haddad", "Carl Pihl", "Anna Fors"]


def test_a_journal_line_with_its_volume_before_the_year_dates_the_paper():
    """"Journal … 18 (1990) 251-270" dates the paper before a reprint's later copyright."""
    meta = PdfMeta()
    _from_lines(["Journal of Rural Health Research 18 (1990) 251-270", "Title of the Paper",
                 "© 2005 Rural Press. Reprinted with permission."], meta)
    assert meta.year == 1990


def test_a_doi_wrapped_after_a_hyphen_is_taken_whole_from_the_page_foot():
    first = ["DOI: 10.1136/bmjopen-2016-", "012335", "Received 3 May 2016",
             "Corder K, et al. BMJ Open 2016;6:e012335. doi:10.1136/bmjopen-2016-012335"]
    assert doi_from(first, [], [])[0] == "10.1136/bmjopen-2016-012335"


def test_an_underline_after_a_name_is_no_word_of_it():
    assert line_names("Peter Bishop __") == ["Peter Bishop"]


def test_a_byline_set_surname_first_with_initials_after_is_read_initials_first():
    """"Berg, A. K., Dahl, C." (cut at its commas), "Berg A.K.", Vancouver's "Berg A" and "Juhl IF" (where a
    name on the line has a single capital): before, no name; a surname of two capitals after a given name
    stays a surname; a name broken off at a line's end ("Oluwaseun H.") is not turned."""
    assert line_names("Berg, A. K.^1, Dahl, C.^2 and Fors, E.^1") == ["A. K. Berg", "C. Dahl", "E. Fors"]
    assert line_names("Berg A.K.^1, Dahl C.^2") == ["A. K. Berg", "C. Dahl"]
    assert line_names("Berg A, Dahl C, Ruiz-López J.-P.") == ["A. Berg", "C. Dahl", "J.-P. Ruiz-López"]
    assert line_names("Wei LI, Jun WU and Xiaofeng WANG") == ["Wei LI", "Jun WU", "Xiaofeng Wang"]
    assert line_names("Juhl IF, Fors YE, Dahl A") == ["I. F. Juhl", "Y. E. Fors", "A. Dahl"]
    assert line_names("M. L. Hartmann, Ngozi Okonkwo, Oluwaseun H.") == ["M. L. Hartmann", "Ngozi Okonkwo"]
    assert line_names("Lund, Sweden") is None
    assert line_names("JJ Furman, Anna Berg") == ["JJ Furman", "Anna Berg"]


def test_names_with_st_and_t_are_names():
    assert line_names("Maria St. John and Eva Fors") == ["Maria St. John", "Eva Fors"]
    assert line_names("Jan 't Hooft and Eva Fors") == ["Jan 't Hooft", "Eva Fors"]
