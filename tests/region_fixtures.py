"""Generated PDFs of page furniture that misleads a region's walk on real papers: text blocks set on
filled panels (older journals' typesetting), a stamp in the margin running up the page, a stroke drawn
through two stacked figures, and a page whose running text is larger than the paper's body size.
Truth is by construction: each test names text that must lie inside or outside a region."""

from __future__ import annotations

import random

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .object_fixtures import _sentence, _text_box, _wrap_width

LETTER = (612.0, 792.0)


def _picture():
    """A small grey raster picture (a photograph or a tree drawn as an image: no text inside)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (120, 80), "white")
    draw = ImageDraw.Draw(img)
    for k in range(6):
        draw.line((10, 10 + 12 * k, 110, 70 - 10 * k), fill=(40, 40, 40), width=2)
    return ImageReader(img)


def _column(c, rng, x0: float, x1: float, top: float, bottom: float, font: str, size: float,
            panel: bool = False) -> None:
    """Paragraphs filling a column from `top` down to `bottom`, optionally on a filled panel."""
    if panel:
        c.setFillGray(0.97)
        c.rect(x0, bottom - 4, x1 - x0, top - bottom + 4 + size, fill=1, stroke=0)
        c.setFillGray(0)
    y = top
    while y > bottom:
        for line in _wrap_width(" ".join(_sentence(rng, 12) for _ in range(4)), font, size, x1 - x0):
            if y <= bottom:
                break
            _text_box(c, x0, y, line, font, size)
            y -= 1.25 * size
        y -= 0.5 * size


def panel_paper(path: str) -> None:
    """Page 1 (letter, two columns of 9 pt Times): a picture across the page, its caption "Fig. 1."
    under it, and both columns of running text under the caption, each set on a light filled panel
    as some typesetting pipelines draw them."""
    rng = random.Random(3)
    c = canvas.Canvas(path, pagesize=LETTER)
    c.drawImage(_picture(), 110, 470, 390, 260)
    _text_box(c, 54, 452, "Fig. 1. Strict consensus tree of the most parsimonious trees; support values above.",
              "Times-Roman", 8)
    _column(c, rng, 54, 296, 420, 60, "Times-Roman", 9, panel=True)
    _column(c, rng, 316, 558, 420, 60, "Times-Roman", 9, panel=True)
    c.showPage()
    c.save()


def margin_stamp_paper(path: str) -> None:
    """Page 1 (one column, 10 pt): running text, a chart with its labels, its caption "Figure 1."
    under it; a thin bar runs up the left margin beside the text (a download stamp drawn as a path)."""
    rng = random.Random(5)
    c = canvas.Canvas(path, pagesize=LETTER)
    _column(c, rng, 72, 540, 720, 430, "Times-Roman", 10)
    c.rect(8, 300, 9, 250, fill=1, stroke=0)
    c.rect(150, 240, 300, 160)
    for k in range(6):
        c.rect(170 + 45 * k, 240, 20, 20 + 20 * k, fill=1)
    for k, tick in enumerate(("1998", "2000", "2002", "2004")):
        _text_box(c, 160 + 90 * k, 228, tick, "Helvetica", 7)
    _text_box(c, 72, 205, "Figure 1. Wind speed over the sea by year.", "Times-Roman", 9)
    _column(c, rng, 72, 540, 180, 60, "Times-Roman", 10)
    c.showPage()
    c.save()


def stroke_through_paper(path: str) -> None:
    """Page 1 (two columns): in the right column two charts stacked, each above its own caption, and a
    long vertical stroke drawn from the top of the upper chart down into the lower one, through the
    upper caption; running text fills the left column."""
    rng = random.Random(9)
    c = canvas.Canvas(path, pagesize=LETTER)
    _column(c, rng, 54, 296, 720, 60, "Times-Roman", 9)
    for top, label, name in ((720, "Figure 5. A tree with two traces.", "Upper chart"),
                             (470, "Figure 6. A trace tree with three branches.", "Lower chart")):
        _text_box(c, 330, top, name, "Helvetica", 7)
        c.rect(330, top - 180, 220, 170)
        for k in range(5):
            c.circle(350 + 40 * k, top - 170 + 30 * k, 3, fill=1)
        _text_box(c, 316, top - 200, label, "Times-Roman", 9)
    c.setLineWidth(1.5)
    c.line(440, 736, 440, 330)
    c.showPage()
    c.save()


def larger_text_page_paper(path: str) -> None:
    """Three pages: pages 1 and 3 hold 8 pt running text (the paper's body size), page 2 a picture
    above its caption "Fig. 2." and, under the caption, running text set in 10 pt."""
    rng = random.Random(13)
    c = canvas.Canvas(path, pagesize=LETTER)
    for page in range(3):
        if page == 1:
            c.drawImage(_picture(), 100, 520, 220, 200)
            _text_box(c, 54, 500, "Fig. 2. Survival of transplants by microsite.", "Times-Roman", 8)
            _column(c, rng, 54, 296, 470, 60, "Times-Roman", 10)
            _column(c, rng, 316, 558, 720, 60, "Times-Roman", 10)
        else:
            _column(c, rng, 54, 296, 720, 60, "Times-Roman", 8)
            _column(c, rng, 316, 558, 720, 60, "Times-Roman", 8)
        c.showPage()
    c.save()


def three_column_paper(path: str) -> None:
    """Page 1 (letter, three columns of 9 pt text, 164 pt wide): an abstract set across the first two
    columns at the top, running text under it in all three, and in the first column's foot a picture
    above its caption "Fig. 3." (several lines), the column's text right above the picture."""
    rng = random.Random(17)
    c = canvas.Canvas(path, pagesize=LETTER)
    columns = ((48, 212), (226, 390), (404, 568))
    y = 720.0
    for line in _wrap_width(" ".join(_sentence(rng, 14) for _ in range(5)), "Helvetica", 9, 342):
        _text_box(c, 48, y, line, "Helvetica", 9)
        y -= 11
    _column(c, rng, *columns[0], y - 14, 340, "Times-Roman", 9)
    _column(c, rng, *columns[1], y - 14, 60, "Times-Roman", 9)
    _column(c, rng, *columns[2], 720, 60, "Times-Roman", 9)
    c.drawImage(_picture(), 48, 160, 164, 168)
    y = 148.0
    cap = "Fig. 3. Section stained for the enzyme in the anterior region, showing the increase on the treated side."
    for line in _wrap_width(cap, "Times-Roman", 8, 164):
        _text_box(c, 48, y, line, "Times-Roman", 8)
        y -= 9.5
    c.showPage()
    c.save()



def small_text_table_paper(path: str) -> None:
    """Three pages: pages 1 and 3 hold 10 pt running text; page 2 is one table in 8 pt under its
    caption "Table 3.", ruled above and below, each row one long cell of words (a list of demands)."""
    rng = random.Random(23)
    c = canvas.Canvas(path, pagesize=LETTER)
    for page in range(3):
        if page == 1:
            _text_box(c, 54, 730, "Table 3. List of the demands named by the villagers, by kind.", "Times-Roman", 9)
            c.line(54, 720, 558, 720)
            y = 706.0
            for k in range(40):
                _text_box(c, 58, y, f"{k + 1}. demand for " + _sentence(rng, 8).lower(), "Times-Roman", 8)
                y -= 15
            c.line(54, y + 8, 558, y + 8)
        else:
            _column(c, rng, 54, 296, 720, 60, "Times-Roman", 10)
            _column(c, rng, 316, 558, 720, 60, "Times-Roman", 10)
        c.showPage()
    c.save()


def justified_prose(c: canvas.Canvas, words: list[str], x: float, y: float, lines: int, size: float,
                    pitch: float, per_line: int, width: float = 240.0) -> None:
    """`lines` lines of running text in Times-Roman `size`, `per_line` of `words` a line (cycling), set
    justified to `width` (word gaps stretched, as a journal's column sets them) from (x, y) down."""
    c.setFont("Times-Roman", size)
    for i in range(lines):
        row = [words[(i * 5 + k) % len(words)] for k in range(per_line)]
        gap = (width - sum(c.stringWidth(w, "Times-Roman", size) for w in row)) / (len(row) - 1)
        at = x
        for w in row:
            c.drawString(at, y - i * pitch, w)
            at += c.stringWidth(w, "Times-Roman", size) + gap
