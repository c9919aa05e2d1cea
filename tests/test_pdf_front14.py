"""Front matter (issue #38, front14): a name read surname first with initials after it does not make
the line's next names affiliations; a run of words with one mark is one name; a centred title's last
word set alone on its line in the top margin's right half is the title's, not a corner header.  PDFs
are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.authors import line_names

from .pdf_fixtures import BODY, _wrap

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
    c.showPage()
    c.save()
    doc = read_pdf(path.read_bytes())
    assert doc.title == "GAPDH Mediates Nitrosylation of Nuclear Proteins"
    assert doc.authors == ["Dale Woodford", "Stefan Candra", "Katja Haberecht"]
