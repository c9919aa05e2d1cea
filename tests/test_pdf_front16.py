"""Front matter (issue #38, front16): a byline set as a grid of columns, one author a column, whose
second row is institutions that parse as names ("Johns Hopkins", "Max Planck", "Xerox PARC") read by
the grid's own structure; a city and its region's code without a comma ("Seattle WA") under a
byline's names; a year earlier than the manuscript's history page 1 prints is no year.  PDFs are made
here with reportlab and read as `add` reads a file."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.front.meta import read_pdf_meta

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter


def _byline(path, rows: list[list[list[str]]]) -> list[str]:
    """A page whose byline is `rows` of columns (each column's lines top down), centred in its column."""
    c = canvas.Canvas(str(path), pagesize=letter)
    title = "Scaling Distributed Queries over Sparse Graphs"
    c.setFont("Times-Bold", 18)
    c.drawString(W / 2 - c.stringWidth(title, "Times-Bold", 18) / 2, H - 80, title)
    c.setFont("Times-Roman", 11)
    top = H - 115
    for row in rows:
        for i, column in enumerate(row):
            for k, text in enumerate(column):
                c.drawString(W * (i + 0.5) / len(row) - c.stringWidth(text, "Times-Roman", 11) / 2, top - 13 * k, text)
        top -= 13 * max(len(col) for col in row) + 12
    c.setFont("Times-Bold", 10)
    c.drawString(72, top - 10, "Abstract")
    c.setFont("Times-Roman", 9)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 90)[:30]):
        c.drawString(72, top - 25 - 11 * k, text)
    return read_drawn(path, c).authors


def test_institutions_under_names_in_a_grid_of_columns_are_no_authors(tmp_path):
    columns = [["Ana Ruiz", "Johns Hopkins", "Baltimore MD", "anar@jhu.edu"],
               ["Jane Doe", "Max Planck", "Seattle WA", "jane@mpi.de"],
               ["Lin Zhou", "Xerox PARC", "Palo Alto, CA", "lzhou@parc.com"]]
    assert _byline(tmp_path / "mail.pdf", [columns]) == ["Ana Ruiz", "Jane Doe", "Lin Zhou"]
    no_mail = [column[:3] for column in columns]  # the row of addresses closes the cells ("Palo Alto, CA")
    assert _byline(tmp_path / "address.pdf", [no_mail]) == ["Ana Ruiz", "Jane Doe", "Lin Zhou"]
    two_rows = [[["Ana Ruiz", "Johns Hopkins", "anar@jhu.edu"], ["Jane Doe", "Max Planck", "jane@mpi.de"]],
                [["Lin Zhou", "Xerox PARC", "lzhou@parc.com"], ["Omar Haddad", "Bell Labs", "omar@bell.com"]]]
    assert _byline(tmp_path / "two.pdf", two_rows) == ["Ana Ruiz", "Jane Doe", "Lin Zhou", "Omar Haddad"]


def test_names_set_in_a_grid_with_nothing_under_them_are_all_read(tmp_path):
    grid = [[["Ana Ruiz", "Jane Doe"], ["Lin Zhou", "Omar Haddad"]]]
    assert _byline(tmp_path / "names.pdf", grid) == ["Ana Ruiz", "Lin Zhou", "Jane Doe", "Omar Haddad"]


def test_a_city_and_its_region_code_without_a_comma_under_names_is_no_name(tmp_path):
    stack = [[["Ana Ruiz", "University of Washington", "Seattle WA", "Jane Doe", "Harvard University", "Cambridge MA"]]]
    assert _byline(tmp_path / "stack.pdf", stack) == ["Ana Ruiz", "Jane Doe"]
    # a byline setting surnames of two capitals keeps them: "Yi MA" is a name there
    assert _byline(tmp_path / "caps.pdf", [[["Jun HE", "Yi MA", "Wei LI"]]]) == ["Jun HE", "Yi MA", "Wei LI"]
    # a name in capitals whose surname has two letters, wrapped to a line of its own, is a name
    wrapped = [[["ANA RUIZ, JANE DOE, and", "KYLE LO"]]]
    assert _byline(tmp_path / "wrapped.pdf", wrapped) == ["Ana Ruiz", "Jane Doe", "Kyle LO"]


def _dated_page(path, lines: list[str]) -> bytes:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 80, "Seasonal currents of a shallow bay")
    c.setFont("Times-Roman", 8)
    for k, text in enumerate(lines):
        c.drawString(72, H - 110 - 10 * k, text)
    c.setFont("Times-Roman", 9)
    for k, text in enumerate(_wrap(" ".join([BODY] * 4), 90)[:20]):
        c.drawString(72, H - 180 - 11 * k, text)
    c.showPage()
    c.save()
    return path.read_bytes()


def test_a_year_before_the_manuscripts_acceptance_is_no_year(tmp_path):
    history = "Received 3 May 2014; accepted 2 Feb 2015"
    early = _dated_page(tmp_path / "early.pdf", ["Copyright © 2014 Lakes Society", history])
    assert read_pdf_meta(early).year is None
    agreed = _dated_page(tmp_path / "agreed.pdf", ["Copyright © 2015 Lakes Society", history])
    assert read_pdf_meta(agreed).year == 2015


def test_a_year_outside_the_arxiv_id_or_the_download_date_is_no_year(tmp_path):
    posted = _dated_page(tmp_path / "posted.pdf", ["Lakes Research 2016; 12:101-118", "Preprint arXiv:1703.01234"])
    assert read_pdf_meta(posted).year is None  # the journal line's year before the month the id names
    fetched = _dated_page(tmp_path / "fetched.pdf", ["Downloaded from lakes.org on April 29, 2012", "© 2015 Lakes"])
    assert read_pdf_meta(fetched).year is None
    plain = _dated_page(tmp_path / "plain.pdf", ["Lakes Research 2016; 12:101-118", "Preprint arXiv:1603.01234"])
    assert read_pdf_meta(plain).year == 2016
