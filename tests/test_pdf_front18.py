"""Front matter (issue #38, front18): a journal's name of four words or more that `VENUE_NAME` does not
know, set larger than the title at the head of page 1 and set apart from it (a gap, an issue line), is
no title: the title is the longer block under it with the byline right under that.  A title set largest
keeps its subtitle at its pitch, and a large line over a block that no byline follows stays the title
(the evidence is thin).  PDFs are made here with reportlab and read as `add` reads a file."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter
TITLE = ["Sleep duration and blood pressure in older adults", "of a rural cohort"]


def _page(path, top: str, top_size: float, gap: float, issue: str | None = None, lines: list[str] = TITLE,
          byline: str | None = "Ana Ruiz, Jane Doe and Lin Zhou", font: str = "Times-Roman") -> str | None:
    """Page 1 with `top` over the title's `lines` (16 pt bold), `gap` points from baseline to baseline,
    an issue line under `top` if given, the byline and an abstract under the title."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = H - 70
    c.setFont(font, top_size)
    c.drawString(72, y, top)
    if issue:
        c.setFont("Helvetica", 8)
        c.drawString(72, y - 14, issue)
    y -= gap
    c.setFont("Helvetica-Bold", 16)
    for text in lines:
        c.drawString(72, y, text)
        y -= 19
    if byline:
        c.setFont("Times-Roman", 11)
        c.drawString(72, y - 8, byline)
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 6), 95)[:30]):
        c.drawString(72, y - 50 - 12 * k, text)
    return read_drawn(path, c).title


def test_a_journal_name_set_apart_over_the_title_is_no_title(tmp_path):
    title = " ".join(TITLE)
    for k, venue in enumerate(["Current Opinion in Plant Biology", "Frontiers in Plant Science",
                               "Plant Physiology and Biochemistry"]):
        assert _page(tmp_path / f"gap{k}.pdf", venue, 20, 50) == title  # two lines' room under it
        assert _page(tmp_path / f"issue{k}.pdf", venue, 18, 40, "Volume 12, Issue 3, 2020, Pages 211-224",
                     font="Helvetica-Bold") == title  # an issue line between


def test_a_title_set_largest_stays_the_title(tmp_path):
    head = "Sleep duration and blood pressure"
    # its subtitle at the title's pitch: one title
    assert _page(tmp_path / "sub.pdf", head, 20, 22, lines=["in older adults of a rural cohort"]) \
        == f"{head} in older adults of a rural cohort"
    # a block under it that no byline follows: no evidence that the large line is a journal's
    assert _page(tmp_path / "nobyline.pdf", head, 20, 50, byline=None) == head
    # the block under it no longer than the large line: a title over a short line, not a masthead
    assert _page(tmp_path / "short.pdf", "Sleep duration and blood pressure in older adults", 20, 50,
                 lines=["A rural cohort study"]) == "Sleep duration and blood pressure in older adults"
