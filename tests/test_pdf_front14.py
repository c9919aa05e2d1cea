"""Front matter (issue #38, front14): a name read surname first with initials after it does not make
the line's next names affiliations; a run of words with one mark is one name; a centred title's last
word set alone on its line in the top margin's right half is the title's, not a corner header.  PDFs
are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.front.authors import line_names

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter


def test_a_surname_in_capitals_before_initials_is_no_line_in_capitals():
    assert line_names("CASIMIR H. B. G. 1,3, ROLIG Lindsay 3 and QUANTIN Xavier 1") == \
        ["H. B. G. Casimir", "Lindsay Rolig", "Xavier Quantin"]
    # names all in capitals (initials first): the words after them are still their affiliation
    assert line_names("A. B. SMITH, Inria Paris, France") == ["A. B. Smith"]
    assert line_names("BEN TROVATO, Inria Paris, France") == ["Ben Trovato"]


def test_a_run_of_words_with_one_mark_is_one_name():
    assert line_names("Josephine Nana Afrakoma Agyeman-Duah^3") == ["Josephine Nana Afrakoma Agyeman-Duah"]
    assert line_names("Josephine Nana Afrakoma Agyeman-Duah 2,3") == ["Josephine Nana Afrakoma Agyeman-Duah"]
    # without marks, names set side by side are still cut apart
    assert line_names("Ruifang Ge Raymond J. Mooney") == ["Ruifang Ge", "Raymond J. Mooney"]


def _centred(c: canvas.Canvas, text: str, font: str, size: float, axis: float, y: float) -> None:
    c.setFont(font, size)
    c.drawString(axis - c.stringWidth(text, font, size) / 2, y, text)


def test_a_centred_titles_last_word_alone_in_the_top_corner_is_the_titles(tmp_path):
    path = tmp_path / "corner.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 7)
    for k, text in enumerate(["Vol. 12, No. 3 (2021)", "pp. 211-224", "", "OPEN ACCESS", "", "Received 2 May 2021"]):
        c.drawString(50, H - 50 - 9 * k, text)
    axis = 390.0
    _centred(c, "GAPDH Mediates Nitrosylation of Nuclear", "Times-Bold", 18, axis, H - 55)
    _centred(c, "Proteins", "Times-Bold", 18, axis, H - 76)
    c.setFont("Times-Roman", 11)  # the byline and affiliation under it set flush left: not centred under the word
    c.drawString(230, H - 105, "Dale Woodford, Stefan Candra and Katja Haberecht")
    c.setFont("Times-Roman", 8)
    c.drawString(230, H - 125, "Department of Physics, University of Bergen, Norway")
    c.setFont("Times-Bold", 10)
    c.drawString(230, H - 150, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 60)[:30]):
        c.drawString(230, H - 165 - 12 * k, text)
    doc = read_drawn(path, c)
    assert doc.title == "GAPDH Mediates Nitrosylation of Nuclear Proteins"
    assert doc.authors == ["Dale Woodford", "Stefan Candra", "Katja Haberecht"]


def _small_caps(c: canvas.Canvas, text: str, x: float, y: float, size: float = 10) -> float:
    """A name in small capitals drawn glyph by glyph (the small letters as capitals 0.78 as large); the x after it."""
    for ch in text:
        c.setFont("Courier", 0.78 * size if ch.islower() else size)
        c.drawString(x, y, ch.upper())
        x += c.stringWidth(ch.upper(), "Courier", 0.78 * size if ch.islower() else size)
    return x


def test_a_mark_drawn_in_one_piece_before_names_in_small_capitals_gives_the_line_no_size(tmp_path):
    """pdfium opens the second name's line with the first name's raised mark ("2,4*"), drawn in one piece
    while the small capitals after it come in pieces of a glyph: the line is the names' size, not the mark's
    (before, the names after the mark were read in another style than the first and dropped)."""
    path = tmp_path / "smallcaps.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 20)
    c.drawString(72, H - 80, "Dynamic analysis of filopodial interactions")
    y = H - 115
    x = 72.0
    for k, (name, mark) in enumerate([("Ida Lind", "2,4*"), ("R. von Mcallister", "1"), ("Uma S. Silva", "4"),
                                      ("Jörg Kowalski", "4")]):
        if k:
            c.setFont("Courier", 10)
            c.drawString(x, y, ", ")
            x += c.stringWidth(", ", "Courier", 10)
        x = _small_caps(c, name, x, y)
        c.setFont("Courier", 6)
        c.drawString(x + 0.5, y + 4, mark)
        x += c.stringWidth(mark, "Courier", 6) + 1
    c.setFont("Times-Roman", 8)
    c.drawString(72, H - 140, "1 Department of Physics, University of Bergen, Norway")
    c.setFont("Times-Bold", 11)
    c.drawString(72, H - 165, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 90)[:25]):
        c.drawString(72, H - 180 - 12 * k, text)
    doc = read_drawn(path, c)
    assert doc.authors == ["Ida Lind", "R. von Mcallister", "Uma S. Silva", "Jörg Kowalski"]


def test_a_badge_drawn_before_the_names_with_its_lower_row_under_their_baseline_is_cut_off(tmp_path):
    """"Check for" over "updates", drawn before the names, its lower row a little under the names'
    baseline: pdfium reads "updates" into the names' line, and the line reader cuts it off (before, only a
    badge row overlapping the names was cut: the first names were read as "updates Carl Gupta…" and dropped)."""
    path = tmp_path / "badge.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _centred(c, "Staffing small Cohort levels", "Courier-Bold", 20, 390, H - 80)
    y = H - 140
    c.setFont("Courier-Bold", 7.2)
    c.drawRightString(540, y + 3.7, "Check for")
    c.drawRightString(540, y + 3.7 - 7.92, "updates")
    for k, line in enumerate(["Carl Gupta, Karl Chen", "Nikos E. Kowalski", "and Eva F. Pihl"]):
        _centred(c, line, "Courier", 12, 390, y - 16 * k)
    _centred(c, "1 Department of Physics, University of Bergen, Norway", "Courier", 9, 390, y - 60)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(230, y - 85, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 60)[:25]):
        c.drawString(230, y - 100 - 12 * k, text)
    doc = read_drawn(path, c)
    assert doc.authors == ["Carl Gupta", "Karl Chen", "Nikos E. Kowalski", "Eva F. Pihl"]
