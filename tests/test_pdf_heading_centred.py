"""Centred section titles and declarations of short statements (issue 38, round heads6), each drawn
as a generated PDF: a numbered title centred in the body's own roman, on one long line or wrapped
onto a second centred line (an acronym: "CALL-SLT"), is one heading with its whole title; a centred
list item close under its text is none; bold small-print names past the title page over statements
that are all "Not applicable." are headings when their style sets a back matter name too."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .test_pdf_heading_print import _bold
from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter


def _centred(c: canvas.Canvas, y: float, lines: list[str], size: float = 10) -> float:
    c.setFont("Times-Roman", size)
    for line in lines:
        c.drawCentredString(W / 2, y, line)
        y -= 1.2 * size
    return y


def _section(c: canvas.Canvas, y: float, lines: list[str]) -> float:
    y = _centred(c, y - 8, lines) - 4
    y = _para(c, 72, y, 460) - 2
    return _para(c, 72, y, 460) - 10


def test_centred_titles_in_the_body_roman_wrapped_onto_two_lines(tmp_path):
    path = tmp_path / "centred.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _section(c, _title(c), ["1. Introduction"])
    y = _section(c, y, ["2. Effects of the compound on survival of cells from the cohort"])
    y = _section(c, y, ["3. Constructing language courses in", "CALL-SLT"])
    c.showPage()
    _section(c, H - 72, ["4. Results"])
    c.save()
    assert _headings(path) == [
        ("1. Introduction", 1),
        ("2. Effects of the compound on survival of cells from the cohort", 1),
        ("3. Constructing language courses in CALL-SLT", 1),
        ("4. Results", 1),
    ]


def test_centred_list_item_close_under_its_text_is_no_heading(tmp_path):
    """A long numbered line set in from the margin right under a paragraph (a list's item, which
    happens to sit in the column's middle): text, and the numbering goes on with the next section."""
    path = tmp_path / "centred_list.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _section(c, _title(c), ["1. Introduction"])
    y = _centred(c, y + 8, ["1: More specifications of the features which we did not realise we need at first"])
    y = _para(c, 72, y, 460) - 10
    _section(c, y, ["2. Methods"])
    c.save()
    assert _headings(path) == [("1. Introduction", 1), ("2. Methods", 1)]


def test_declarations_of_short_statements_under_a_back_matter_name(tmp_path):
    """Four small bold names past the title page, one of them "Funding", each over an 8 pt statement
    of one line: no long paragraph teaches the style, the back matter name and the names' number do."""
    path = tmp_path / "declarations.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _bold(c, H - 130, "Background", 12)
    y = _para(c, 72, H - 148, 460) - 12
    c.showPage()
    y = H - 72
    names = ("Funding", "Consent for publication", "Availability of data and materials", "Authors' contributions")
    for name in names:
        _bold(c, y, name, 8)
        c.setFont("Times-Roman", 8)
        c.drawString(72, y - 9.6, "Not applicable.")
        y -= 9.6 + 9.6 + 8
    c.save()
    assert [t for t, _ in _headings(path)] == ["Background", *names]
