"""A thesis whose contents page ends on a page of its own with two entries ("Bibliography 5", "Index 7"): too
short to be read as a contents page, its "Bibliography" is set like a heading, and the list used to be read from
there through the whole thesis.  A references line whose row ends in a page number set apart is a contents entry
(or a running head), never the list's heading (refs16, issue #38; a 1996 thesis of the wide corpus's dev half).
PDF made with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap, read_references

W, H = letter
SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen"]


def _contents_row(c: canvas.Canvas, y: float, title: str, page: int) -> None:
    c.setFont("Times-Bold", 11)
    c.drawString(90, y, title)
    c.drawRightString(W - 72, y, str(page))


def _body_page(c: canvas.Canvas, heading: str) -> None:
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 100, heading)
    c.setFont("Times-Roman", 10)
    for k, ln in enumerate(_wrap(" ".join([BODY] * 4), 95)[:30]):
        c.drawString(72, H - 130 - 12 * k, ln)
    c.showPage()


def test_a_contents_entry_of_the_bibliography_does_not_open_the_list(tmp_path):
    path = tmp_path / "thesis.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 20)
    c.drawString(72, H - 100, "Contents")
    for k, (title, page) in enumerate([("1 Introduction", 1), ("2 Methods", 17), ("3 Results", 45),
                                       ("4 Discussion", 89)]):
        _contents_row(c, H - 140 - 22 * k, title, page)
    c.showPage()
    c.setFont("Times-Bold", 10)
    c.drawString(72, H - 72, "ii")
    c.drawRightString(W - 72, H - 72, "CONTENTS")
    _contents_row(c, H - 110, "Bibliography", 137)  # the contents' last page: two entries only
    _contents_row(c, H - 132, "Index", 147)
    c.showPage()
    _body_page(c, "1 Introduction")
    _body_page(c, "2 Methods")
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 100, "Bibliography")
    c.setFont("Times-Roman", 10)
    for k, name in enumerate(SURNAMES):
        c.drawString(72, H - 130 - 14 * k, f"[{k + 1}] A. {name}. Sediment transport in coastal systems {k}. "
                                           f"J. Mol. Biol. 3, 10-20, {1990 + k}.")
    c.showPage()
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 100, "Index")
    c.setFont("Times-Roman", 10)
    for k, word in enumerate(["coastal systems, 3", "sediment, 4", "transport, 3"]):
        c.drawString(72, H - 130 - 12 * k, word)
    refs = read_references(path, c)
    assert len(refs) == 10
    assert [r.year for r in refs] == [1990 + k for k in range(10)]


def test_a_contents_page_whose_references_row_is_the_papers_only_one_opens_no_list(tmp_path):
    """An excerpt of a paper (its first pages: the contents, the body; its last: the list's end, whose heading
    was on a page cut) whose contents page names the list on a row ending in its page number set apart (as
    OCR sets it, and one number misread, "71" for "11", so the page is not read as contents): among a page of
    such rows it is a contents entry, never the list's heading, however the rest is read (refs17: a scan's
    excerpt read 56 entries, the contents page's notes and the body among them)."""
    path = tmp_path / "excerpt.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 80, "Improving Detection of Influential Nodes")
    c.setFont("Times-Roman", 10)
    c.drawCentredString(W / 2, H - 120, "Contents")
    rows = [("1. Introduction", 2), ("2. Structural measures", 3), ("3. Our measure", 4), ("4. Evaluation", 71),
            ("5. Conclusions", 16), ("Acknowledgement", 16), ("References", 16)]
    for k, (title, page) in enumerate(rows):
        c.drawString(72, H - 140 - 13 * k, title)
        c.drawRightString(W - 72, H - 140 - 13 * k, str(page))
    c.setFont("Times-Roman", 9)
    for k, note in enumerate(["Date: March 28, 2015.", "Key words and phrases. Centrality measure; IC model.",
                              "1 Department of Computer Engineering, University of Isfahan, Isfahan, Iran.",
                              "2 Department of Mathematics, West Virginia University, Morgantown, WV, USA."]):
        c.drawString(72, H - 260 - 11 * k, note)
    c.showPage()
    _body_page(c, "1. Introduction")
    c.setFont("Times-Roman", 9)  # the excerpt's last page: the list goes on from an earlier page, unheaded
    for k in range(15, 43):
        c.drawString(72, H - 80 - 12 * (k - 15), f"[{k + 1}] A. {SURNAMES[k % 10]}, Sediment transport in "
                                                 f"coastal systems {k}, Physica A 389 (4) ({1980 + k}) 859-870.")
    refs = read_references(path, c)
    assert not any("Department" in r.text or "Introduction" in r.text for r in refs)
