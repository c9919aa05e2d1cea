"""Front matter with real names (issue #38, front12): what `synthetic_front.py --real` found when the
generated pages drew the names other people's records hold — a given name that is a particle elsewhere
("Da Luo", "Bin Li"), a name in capitals with initials among names set surname first in mixed case
("DURAI S." before "SHENKER Scott"), a badge in the names' size beside a line of one name.  PDFs are
made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.front.authors import line_names

from .pdf_fixtures import BODY, _wrap

W, H = letter


def test_a_particle_opening_a_name_of_two_is_its_given_name():
    assert line_names("Da Luo^1, Ali Ghodsi^2 and Bin Li^1") == ["Da Luo", "Ali Ghodsi", "Bin Li"]
    assert line_names("Le Song, Anna Berg") == ["Le Song", "Anna Berg"]
    # a particle before a surname is still no given name of its own
    assert line_names("Maria van der Berg, Jan de Vries") == ["Maria van der Berg", "Jan de Vries"]
    assert line_names("da Luo, de Vries") is None


def test_a_name_in_capitals_with_an_initial_does_not_make_the_next_an_affiliation():
    assert line_names("KINNEY Rodney 2, ODEKU Kola O. 1, DURAI S. 1,2, SHENKER Scott 1") == \
        ["Rodney Kinney", "Kola O. Odeku", "S. Durai", "Scott Shenker"]
    # names all in capitals: the mixed-case words after them are still their affiliation
    assert line_names("BEN TROVATO, Inria Paris, France") == ["Ben Trovato"]


def _page(path, badge_bold: bool) -> canvas.Canvas:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 20)
    c.drawString(72, H - 80, "Dynamic analysis of filopodial interactions")
    c.setFont("Times-Roman", 11)
    names = ["Daniel S. Weld", "Pedro F. Quintana-Ascencio", "and Kyung-Ae Park"]
    for k, name in enumerate(names):
        c.drawString(72, H - 120 - 15 * k, name)
        c.setFont("Times-Roman", 7)
        c.drawString(72 + c.stringWidth(name, "Times-Roman", 11) + 1, H - 116 - 15 * k, str(k + 1))
        c.setFont("Times-Roman", 11)
    c.setFont("Times-Bold" if badge_bold else "Times-Roman", 11)
    c.drawString(300, H - 120, "Check for updates")
    c.setFont("Times-Roman", 8)
    c.drawString(72, H - 175, "1 Department of Physics, University of Bergen, Norway")
    c.setFont("Times-Bold", 11)
    c.drawString(72, H - 200, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 90)[:25]):
        c.drawString(72, H - 215 - 12 * k, text)
    c.showPage()
    c.save()
    return c


def test_a_badge_beside_a_line_of_one_name_is_no_affiliation(tmp_path):
    """"Check for updates" on the row of the first name, bold or in the names' own style: the first
    author is read (before, the row was a row of affiliation cells, one against one)."""
    for bold in (True, False):
        path = tmp_path / f"badge{bold}.pdf"
        _page(path, bold)
        doc = read_pdf(path.read_bytes())
        assert doc.authors == ["Daniel S. Weld", "Pedro F. Quintana-Ascencio", "Kyung-Ae Park"], bold
