"""A book's reference lists, one at each chapter's end under its own heading (refs18, issue #38): every list is
read, in order (`list_chapters`); a heading recurring over one list's pages makes no chapters.  PDFs made with
reportlab."""

from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.bibliography.list_chapters import chapter_lists
from papershelf.ingest.pdf.text.lines import Line

from .pdf_fixtures import BODY, _wrap, read_references

W, H = letter
SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen"]
CHAPTERS = [("Coastal Sediment", 8), ("Thermal Response", 6), ("Soil Dynamics", 9), ("Wave Energy", 7)]


def _entry(k: int, year: int, numbered: bool) -> str:
    label = f"{k + 1}. " if numbered else ""
    return f"{label}{SURNAMES[k]}, A. ({year}). Sediment transport in coastal systems {k}. J. Mol. Biol. 3, 10-20."


def _book(path, numbered: bool) -> canvas.Canvas:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 24)
    c.drawCentredString(W / 2, H - 200, "Essays on Coastal Sediment")
    c.setFont("Times-Roman", 14)
    c.drawCentredString(W / 2, H - 240, "Maria Okafor and Kofi Brandt")
    c.showPage()
    for ch, (title, n) in enumerate(CHAPTERS):
        c.setFont("Times-Bold", 16)
        c.drawString(72, H - 100, f"Chapter {ch + 1}")
        c.drawString(72, H - 124, title)
        c.setFont("Times-Roman", 10)
        y = H - 160
        for ln in _wrap(BODY, 95):
            c.drawString(72, y, ln)
            y -= 12
        c.setFont("Times-Bold", 12)
        c.drawString(72, y - 14, "References")
        y -= 34
        c.setFont("Times-Roman", 8.5)
        for k in range(n):
            c.drawString(72, y, _entry(k, 1990 + 10 * ch + k, numbered))
            y -= 10.5
        c.setFont("Times-Roman", 9)
        c.drawCentredString(W / 2, 40, str(c.getPageNumber()))
        c.showPage()
    return c


@pytest.mark.parametrize("numbered", [True, False], ids=["numbered", "author-year"])
def test_every_chapters_list_is_read_in_order(tmp_path, numbered):
    path = tmp_path / "book.pdf"
    refs = read_references(path, _book(path, numbered))
    want = [_entry(k, 1990 + 10 * ch + k, numbered) for ch, (_, n) in enumerate(CHAPTERS) for k in range(n)]
    assert [r.text for r in refs] == want  # on 9487e87: the last chapter's 7 only


def _line(page: int, top: float, text: str, size: float) -> Line:
    return Line(page=page, x0=72, top=top, x1=72 + 4 * len(text), bottom=top + size, text=text, size=size, bold=False)


def test_a_list_whose_heading_recurs_on_its_pages_is_no_chapters_lists():
    """"References" over each page of one list (a running head the page's cleaning kept): no line set larger
    than the list closes a list before the next such line, so no chapters (the reader keeps its one list)."""
    columns = [[_line(p, 60, "References", 8.5)] + [_line(p, 80 + 12 * i, f"{10 * p + i + 1}. {SURNAMES[i]}, A. "
                                                          f"({1950 + i}). Sediment. J. Mol. Biol. 3.", 8.5)
                                                    for i in range(10)] for p in (1, 2, 3)]
    def lines(runs: list[list[Line]]) -> list[str]:
        return [ln.text for run in runs for ln in run]

    assert chapter_lists(columns, [], lines) is None
    chapters = [[*column[:5], _line(column[0].page, 122, "Chapter 2", 16), *column[5:]] for column in columns]
    assert chapter_lists(chapters, [], lines) == [ln.text for column in columns for ln in column[1:5]]
