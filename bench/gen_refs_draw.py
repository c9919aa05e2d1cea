"""Drawing helpers of `gen_references.py` (moved out to keep it under 500 lines): line wrapping, the pages a
list runs over, running heads, the layout stream's figure, biographies and body columns, the unseen stream's
labels."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

if TYPE_CHECKING:
    from gen_references import Paper

W, H = letter
BODY = ("The measurements reported here were taken over three seasons at two sites, and each sample was "
        "read twice by independent observers before the counts were pooled for the analysis below. ")

BIO = ("{name} received the B.S. degree in physics from the University of Lagos in 2009 and the Ph.D. "
       "degree in environmental engineering from Aix University in 2015. She is now an associate professor "
       "at the Institute of Coastal Studies. Her research interests include sediment transport, thermal "
       "response of soils and the statistics of sparse observations.")


def _garbled(n: int, rng: random.Random) -> str:
    """A label "[n]" as OCR may read it: brackets read as letters or digits, ones as I or l."""
    text = f"[{n}]"
    if rng.random() < 0.5:
        return text
    text = text.replace("[", rng.choice(["P", "I", "[", "["]), 1).replace("]", rng.choice(["I", "l", "1", ""]), 1)
    return text.replace("1", rng.choice(["1", "l", "I"]), 1).replace("0", "O")


def _wrap(text: str, width: float, font: str, size: float) -> list[str]:
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and stringWidth(trial, font, size) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return [*lines, cur] if cur else lines


class Pages:
    """Where the next line goes: down a column, then the next column, then a new page."""

    def __init__(self, c: canvas.Canvas, columns: int, top: float):
        self.c, self.columns, self.col, self.y, self.top = c, columns, 0, top, top
        self.width = (W - 144 - 24 * (columns - 1)) / columns
        self.running = False

    @property
    def x(self) -> float:
        return 72 + self.col * (self.width + 24)

    def need(self, height: float) -> None:
        if self.y - height < 72:
            if self.col + 1 < self.columns:
                self.col += 1
            else:
                self.c.showPage()
                self.col, self.top = 0, H - 72
                if self.running:
                    _running(self.c, self.c.getPageNumber())
            self.y = self.top


def _unseen_label(c: canvas.Canvas, p: Paper, n: int, pages: Pages, last_end: tuple | None,
                  garble: random.Random) -> None:
    """An entry's label in the fourth stream's forms: at the end of the line before (on the same page), small
    and raised on a line of its own, or in a gutter of its own in another size, off the baseline, garbled."""
    size = 8.5
    if p.layout == "label_line_end":
        label = f"[{n}]" if p.style == "bracket" else str(n)
        if last_end is not None and last_end[0] == c.getPageNumber():
            c.setFont("Times-Roman", size)
            c.drawString(last_end[1] + stringWidth(" ", "Times-Roman", size), last_end[2], label)
        else:
            c.setFont("Times-Roman", size)
            c.drawString(pages.x, pages.y, label)
    elif p.layout == "raised_unheaded":
        c.setFont("Times-Roman", 5.5)
        c.drawString(pages.x, pages.y + 5.5, str(n))  # inside the column, the entry's text just right of it
    else:
        c.setFont("Times-Roman", 11)
        c.drawString(pages.x, pages.y + garble.uniform(-1.5, 1.5), _garbled(n, garble))
    c.setFont("Times-Roman", size)


def _doi_form(p: Paper, doi: str, n: int) -> str:
    """The line an entry's DOI is printed on, in the paper's form (the link as drawn by default)."""
    bare = doi.removeprefix("https://doi.org/")
    form = p.doi_form
    if form == "PMID: ":
        return f"PMID: {31000000 + 7919 * n % 999983}"
    if form == "index":
        return "[PubMed] [CrossRef] [Google Scholar]"
    if "{" in form:  # --tails' link forms
        return form.format(doi=doi, bare=bare)
    return f"{form}{bare}" if form else doi


def _two_column_body(c: canvas.Canvas, p: Paper) -> Pages:
    """Body text in two columns, the list's heading where the body ends (in either column)."""
    rng = random.Random(p.seed + 3)
    pages = Pages(c, 2, H - 120)
    c.setFont("Times-Roman", 10)
    for ln in _wrap(BODY * rng.randint(3, 9), pages.width, "Times-Roman", 10):
        pages.need(12)
        c.drawString(pages.x, pages.y, ln)
        pages.y -= 12
    pages.need(60)
    c.setFont("Times-Bold", 11)
    c.drawString(pages.x, pages.y - 14, p.heading)
    pages.y -= 34
    return pages


def _figure(c: canvas.Canvas, pages: Pages) -> None:
    """A figure (a framed box) and its caption at the top of the column the list goes on in."""
    c.rect(pages.x, pages.y - 90, pages.width, 90, stroke=1, fill=0)
    c.setFont("Times-Roman", 8)
    c.drawString(pages.x + 10, pages.y - 40, "0.5")
    pages.y -= 104
    for ln in _wrap("Figure 3. Seasonal counts at the two sites, read twice by independent observers; bars show "
                    "one standard error.", pages.width, "Times-Roman", 9):
        c.setFont("Times-Roman", 9)
        c.drawString(pages.x, pages.y, ln)
        pages.y -= 11
    pages.y -= 14


def _bios(c: canvas.Canvas, pages: Pages, p: Paper) -> None:
    """Author biographies after the list, in the body's size, with no heading (IEEE's back matter)."""
    for name in ("Mariam Okafor", "Kasper Brandt")[: 1 + p.seed % 2]:
        pages.need(60)
        pages.y -= 16
        c.setFont("Times-Roman", 10)
        for ln in _wrap(BIO.format(name=name), pages.width, "Times-Roman", 10):
            pages.need(12)
            c.drawString(pages.x, pages.y, ln)
            pages.y -= 12


def _running(c: canvas.Canvas, page: int) -> None:
    """A running head and foot: the journal's line and the page number (no entry's text)."""
    c.setFont("Times-Italic", 8)
    c.drawString(72, H - 45, "Journal of Synthetic Studies 12 (2020) 101–140")
    c.drawRightString(W - 72, 40, str(100 + page))
