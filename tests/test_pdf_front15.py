"""Front matter (issue #38, front15): a badge in capitals set in a name's row ("OPEN ACCESS" right of the
first of a byline's names in mixed case) is no affiliation making the row one; the document info's title
stands for the title read from page 1 where the page prints it whole and the read title is part of it (a
three-word title in capitals read as a label over its subtitle) or a label printed right above it.  PDFs
are made here with reportlab and read as `add` reads a file."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest import load_source, parse_source
from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.front.authors import line_names
from papershelf.ingest.pdf.front.info_title import confirmed_title

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter


def _body(c: canvas.Canvas, x: float, top: float) -> None:
    c.setFont("Times-Bold", 10)
    c.drawString(x, top, "Abstract")
    c.setFont("Times-Roman", 9)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 90)[:30]):
        c.drawString(x, top - 15 - 11 * k, text)


def _centred(c: canvas.Canvas, text: str, font: str, size: float, y: float) -> None:
    c.setFont(font, size)
    c.drawString(W / 2 - c.stringWidth(text, font, size) / 2, y, text)


def test_a_badge_in_capitals_beside_a_name_is_no_affiliation(tmp_path):
    path = tmp_path / "badge.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _centred(c, "Embryonal carcinoma cells in culture", "Courier-Bold", 18, H - 80)
    names = ["Woo Kyung Lee", "Inga Schnuerer", "Jan Pedersen", "and Rajesh Rao"]
    for k, name in enumerate(names):
        _centred(c, name, "Courier-Bold", 12, H - 115 - 15 * k)
    c.setFont("Courier-Bold", 12)
    c.drawString(W - 170, H - 115, "OPEN ACCESS")  # the badge, in the names' size and weight, in the first row
    c.setFont("Courier", 8)
    _centred(c, "Department of Physics, University of Bergen, Norway", "Courier", 8, H - 185)
    _body(c, 72, H - 215)
    doc = read_drawn(path, c)
    assert doc.authors == ["Woo Kyung Lee", "Inga Schnuerer", "Jan Pedersen", "Rajesh Rao"]


def _capitals_over_subtitle(path, info_title: str | None) -> None:
    c = canvas.Canvas(str(path), pagesize=letter)
    if info_title:
        c.setTitle(info_title)
    c.setFont("Courier", 8.5)  # a column of the journal's details left of the title, from its top
    for k, text in enumerate(["Vol. 12, No. 3 (2021)", "pp. 211-224", "", "Received 2 May 2021"]):
        c.drawString(60, H - 62 - 10 * k, text)
    axis = 400.0
    for text, font, size, y in [("GIANT CELL ARTERITIS", "Courier-Bold", 16, H - 62),
                                ("Long-term outcomes in rural cohorts", "Courier", 11, H - 81),
                                ("Margo Schlanger and Russell Power", "Courier", 10, H - 110),
                                ("Department of Physics, University of Bergen, Norway", "Courier", 7, H - 130)]:
        c.setFont(font, size)
        c.drawString(axis - c.stringWidth(text, font, size) / 2, y, text)
    _body(c, 260, H - 160)
    c.showPage()
    c.save()


def test_the_info_title_printed_whole_restores_a_title_in_capitals_read_as_a_label(tmp_path):
    path = tmp_path / "caps.pdf"
    _capitals_over_subtitle(path, "Giant cell arteritis: long-term outcomes in rural cohorts")
    doc = parse_source(load_source(str(path)))
    assert doc.title == "Giant cell arteritis: long-term outcomes in rural cohorts"
    assert doc.authors == ["Margo Schlanger", "Russell Power"]


def test_an_info_title_the_page_does_not_print_whole_changes_nothing(tmp_path):
    path = tmp_path / "other.pdf"
    _capitals_over_subtitle(path, "Giant cell arteritis in older adults: a draft")
    read = read_pdf(path.read_bytes()).title
    assert parse_source(load_source(str(path))).title == read


def test_confirmed_title_reads_the_page():
    page = "Research Article\nDoes stage tailoring matter\nin brief interventions?\nJ. Freyer-Adam\n"
    whole = "Does stage tailoring matter in brief interventions?"
    assert confirmed_title("Does stage tailoring matter", whole, page) == whole  # a last line dropped
    assert confirmed_title("Research Article", whole, page) == whole  # the label right above it taken
    assert confirmed_title(whole, "Research Article: " + whole, page) == whole  # the info adds a label only
    assert confirmed_title("J. Freyer-Adam", whole, page) == "J. Freyer-Adam"  # not right above it
    assert confirmed_title(whole, "acl07.dvi and a draft title", page) == whole


def test_a_city_and_its_region_code_in_a_bylines_column_is_no_name(tmp_path):
    path = tmp_path / "columns.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _centred(c, "Scaling Distributed Queries over Sparse Graphs", "Times-Bold", 18, H - 80)
    columns = [["Ana Ruiz", "Allen Institute for AI", "Seattle, WA", "anar@allenai.org"],
               ["Jane Doe", "Google Inc.", "Mountain View, CA 94043", "jane@google.com"],
               ["Lin Zhou", "Stanford", "Palo Alto, CA", "lzhou@stanford.edu"]]
    c.setFont("Times-Roman", 11)  # name, affiliation, city and e-mail in one size and weight
    for i, column in enumerate(columns):
        for k, text in enumerate(column):
            x = W * (i + 0.5) / len(columns) - c.stringWidth(text, "Times-Roman", 11) / 2
            c.drawString(x, H - 115 - 13 * k, text)
    _body(c, 72, H - 200)
    assert read_drawn(path, c).authors == ["Ana Ruiz", "Jane Doe", "Lin Zhou"]
    assert line_names("Mountain View, CA") is None and line_names("La Jolla, CA 92093, USA") is None
    assert line_names("Jane Doe, MD") == ["Jane Doe"]  # a grade, not a region
