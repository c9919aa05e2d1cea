"""Numbered reference lists whose labels a scan's specks misread (issue #38, refs17): a digit read as a letter
("1O.", "I2."), a period doubled ("3... Richards", "19.. Galperin"), the digits lost and the period kept
(". Otoguro, M." one digit's width right of where the labels start), and a list with no heading whose labels
lose one on the way.  The list's own sequence gives each such label its number.  PDFs made with reportlab,
the labels drawn as a scan reads them."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from .pdf_fixtures import headed_page, read_references, title_and_body

W, H = letter
SURNAMES = ["Abebe", "Brandt", "Chen", "Dubois", "Engel", "Fischer", "Garcia", "Haddad", "Ivanova", "Jansen",
            "Kaplan", "Larsen", "Mbeki", "Nguyen"]
SIZE = 8.5


def _entry(k: int) -> list[str]:
    name = SURNAMES[k % len(SURNAMES)]
    return [f"{name}, A. & Rossi, K. ({1990 + k}). Sediment transport in coastal {k} systems and",
            f"their thermal response. J. Mol. Biol. {k + 3}, 10-20."]


def _draw(c: canvas.Canvas, y: float, label: str, k: int, x: float = 72) -> float:
    """One entry, its label as printed (or as the scan read it) at `x`, the text after it, the rest hanging."""
    c.setFont("Times-Roman", SIZE)
    first, rest = _entry(k)
    c.drawString(x, y, f"{label} {first}")
    c.drawString(72 + SIZE, y - 10.5, rest)
    return y - 23


def test_labels_with_a_doubled_period_or_only_their_period_open_entries_by_the_lists_sequence(tmp_path):
    path = tmp_path / "specks.pdf"
    c, y = headed_page(path)
    digit = stringWidth("5", "Times-Roman", SIZE)
    for k in range(12):
        if k in (0, 6):  # "1... Abebe", "7... Garcia"
            y = _draw(c, y, f"{k + 1}...", k)
        elif k in (4, 8):  # the digit lost: the period stands where it stood after it
            y = _draw(c, y, ".", k, 72 + digit)
        elif k in (9, 11):  # a digit read as a letter: "1O.", "I2."
            y = _draw(c, y, {9: "1O.", 11: "I2."}[k], k)
        else:
            y = _draw(c, y, f"{k + 1}.", k)
    refs = read_references(path, c)
    assert len(refs) == 12
    assert all(f"({1990 + k})" in r.text and r.text.endswith(f"{k + 3}, 10-20.") for k, r in enumerate(refs))


def test_a_line_opening_with_a_period_far_in_is_no_label(tmp_path):
    """A hanging line that happens to open with a period (a full size in, where the entries' own lines hang)
    goes on with its entry."""
    path = tmp_path / "hanging.pdf"
    c, y = headed_page(path)
    for k in range(8):
        y = _draw(c, y, f"{k + 1}.", k)
        if k == 3:
            c.drawString(72 + SIZE, y + 2, ". Continued in Proc. Coastal Soc. 4, 1-9.")
            y -= 12
    refs = read_references(path, c)
    assert len(refs) == 8 and "Continued in Proc." in refs[3].text


def test_a_list_with_no_heading_goes_on_past_a_label_the_scan_lost(tmp_path):
    path = tmp_path / "unheaded.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Observations on Coastal Sediment", 3) - 20
    for k in range(12):
        y = _draw(c, y, "Ww" if k == 2 else f"{k + 1}.", k)  # "3." read as letters
    refs = read_references(path, c)
    assert len(refs) >= 11  # the third entry goes on with the second, the list is read from 1 to 12
    assert refs[0].text.startswith("1. Abebe") and refs[-1].text.endswith("14, 10-20.")
