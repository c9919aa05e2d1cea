"""Front matter drawn out of reading order or set in two styles (issue #38): a badge drawn before the
byline it sits beside ("Check for updates", "OPEN ACCESS"), whose words pdfium reads into the names'
line, and a subtitle in roman under a title set in capitals.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import abstract_body, read_drawn

W, H = letter
TITLE = "Ward Rounds at Dawn and Dusk in Small Hospitals"


def _byline(c: canvas.Canvas, y: float, names: list[str], size: float = 11) -> None:
    """Each name drawn as its own string with a raised mark after it, as typesetters draw them."""
    x = 72.0
    for k, name in enumerate(names):
        text = ("" if k == 0 else " and " if k == len(names) - 1 else ", ") + name
        c.setFont("Times-Roman", size)
        c.drawString(x, y, text)
        x += c.stringWidth(text, "Times-Roman", size)
        c.setFont("Times-Roman", 0.6 * size)
        c.drawString(x, y + 0.35 * size, str(k % 3 + 1))
        x += c.stringWidth(str(k % 3 + 1), "Times-Roman", 0.6 * size)


def _page(path, badge: str, size: float, rise: float, two_rows: bool = False) -> object:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 100, TITLE)
    names = ["Mona McAllister", "Carl Dahl", "Eva Fors", "Olle Lind"]
    # the badge is drawn first, at the right end of the byline's row, as a Crossmark overlay is
    c.setFont("Helvetica", size)
    rows = ["Check for", "updates"] if two_rows else [badge]
    for k, text in enumerate(rows):
        c.drawRightString(W - 72, H - 130 + rise - k * 1.1 * size, text)
    _byline(c, H - 130, names)
    c.setFont("Times-Roman", 8)
    c.drawString(72, H - 150, "1 Department of Physics, University of Bergen, Norway")
    abstract_body(c, H - 180)
    return read_drawn(path, c)


def test_a_badge_drawn_before_the_names_leaves_every_name(tmp_path):
    """The badge's words are read into the names' line by pdfium ("McAllisterCheck for updates");
    its glyphs run right past the names and jump back two ems on their row: it is a piece of its own."""
    for k, (badge, size, rise) in enumerate([("Check for updates", 11, 0), ("OPEN ACCESS", 7, 3),
                                             ("RESEARCH", 9, -2)]):
        doc = _page(tmp_path / f"badge{k}.pdf", badge, size, rise)
        assert doc.authors == ["Mona McAllister", "Carl Dahl", "Eva Fors", "Olle Lind"], badge
        assert doc.title == TITLE


def test_a_badge_in_two_small_rows_drawn_before_the_names(tmp_path):
    """Crossmark's two rows ("Check for" over "updates"), small, the lower one on the names' row."""
    doc = _page(tmp_path / "rows.pdf", "Check for updates", 6.5, 7, two_rows=True)  # "updates" on their row
    assert doc.authors == ["Mona McAllister", "Carl Dahl", "Eva Fors", "Olle Lind"]


def _titled(path, subtitle: list[str], font: str = "Times-Roman", size: float = 14) -> object:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 20)
    c.drawString(72, H - 90, "WARD ROUNDS AT DAWN")
    y = H - 90 - 24
    for text in subtitle:
        c.setFont(font, size)
        c.drawString(72, y, text)
        y -= 1.2 * size
    c.setFont("Times-Roman", 11)
    c.drawString(72, y - 10, "Anna Berg, Carl Dahl and Eva Fors")
    abstract_body(c, y - 50)
    return read_drawn(path, c)


def test_a_roman_subtitle_under_a_title_in_capitals_is_part_of_it(tmp_path):
    doc = _titled(tmp_path / "sub.pdf", ["A trial of the rounds nurses keep in small rural", "hospitals of the north"])
    assert doc.title == "WARD ROUNDS AT DAWN A trial of the rounds nurses keep in small rural hospitals of the north"
    assert doc.authors == ["Anna Berg", "Carl Dahl", "Eva Fors"]


def test_names_in_roman_under_a_title_in_capitals_stay_names(tmp_path):
    """A line of names set large under a title in capitals reads as no phrase: it is the byline."""
    doc = _titled(tmp_path / "names.pdf", ["Jörg van der Berg and Carl Dahl"], size=14)
    assert doc.title == "WARD ROUNDS AT DAWN"
    assert doc.authors[:2] == ["Jörg van der Berg", "Carl Dahl"]
