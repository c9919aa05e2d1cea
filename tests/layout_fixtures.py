"""Generated PDFs of page layouts a reader meets on real papers beyond the usual one or two columns:
a landscape page with a narrow margin column for tables, figures and their captions beside two body
columns (an extended-abstract format).  Truth is by construction."""

from __future__ import annotations

from reportlab.pdfgen import canvas

from .object_fixtures import ROWS, _sentence, _wrap_width

PAGE = (792.0, 612.0)
MARGIN_COLUMN = (36.0, 186.0)  # x0, x1 of the narrow column holding the objects
BODY_COLUMNS = ((198.0, 438.0), (470.0, 710.0))


def margin_column_paper(path: str) -> None:
    """Page 1: a table (rows side by side, a rule under the header) with its caption below it in the
    margin column, then a chart and its caption; both body columns filled with prose from top to
    bottom, their lines level with the table's rows."""
    import random

    rng = random.Random(7)
    c = canvas.Canvas(path, pagesize=PAGE)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(BODY_COLUMNS[0][0], 560, "Feedback on small screens")
    for x0, x1 in BODY_COLUMNS:
        y = 530.0
        while y > 60:
            for line in _wrap_width(" ".join(_sentence(rng, 14) for _ in range(4)), "Helvetica", 8.5, x1 - x0):
                if y <= 60:
                    break
                c.setFont("Helvetica", 8.5)
                c.drawString(x0, y, line)
                y -= 12
            y -= 6
    x0, x1 = MARGIN_COLUMN
    y = 470.0
    c.setLineWidth(0.5)
    c.line(x0, y + 11, x1, y + 11)
    for r, row in enumerate(ROWS):
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 7.5)
        for k, cell in enumerate(row):
            c.drawString(x0 + 2 + (0, 70, 110)[k], y, cell)
        if r == 0:
            c.line(x0, y - 4, x1, y - 4)
        y -= 12
    c.line(x0, y + 8, x1, y + 8)
    y -= 6
    cap = "Table 1 Bleaching by depth at the three sites; the share of colonies bleached after the summer."
    for line in _wrap_width(cap, "Helvetica", 7.5, x1 - x0):
        c.setFont("Helvetica", 7.5)
        c.drawString(x0, y, line)
        y -= 9
    y -= 40
    c.rect(x0 + 10, y - 100, x1 - x0 - 20, 100)
    for k in range(5):
        c.rect(x0 + 20 + 24 * k, y - 95, 12, 10 + 15 * k, fill=1)
    y -= 112
    for line in _wrap_width("Figure 1 Colonies bleached per depth band over the season.", "Helvetica", 7.5, x1 - x0):
        c.setFont("Helvetica", 7.5)
        c.drawString(x0, y, line)
        y -= 9
    c.showPage()
    c.save()


def loose_table_paper(path: str) -> None:
    """Page 1 (letter, one column): a paragraph, a caption, and under it an unruled table set
    double-spaced (rows 26 pt apart, its first row 26 pt under the caption), then a paragraph."""
    import random

    from .object_fixtures import _text_box

    rng = random.Random(11)
    c = canvas.Canvas(path)
    y = 720.0
    for line in _wrap_width(" ".join(_sentence(rng, 14) for _ in range(4)), "Times-Roman", 10, 460):
        _text_box(c, 72, y, line, "Times-Roman", 10)
        y -= 12.5
    y -= 14
    _text_box(c, 72, y, "Table 1. Bleaching by depth at the three sites.", "Times-Roman", 9)
    y -= 35
    for r, row in enumerate(ROWS):
        for k, cell in enumerate(row):
            _text_box(c, 74 + 120 * k, y, cell, "Times-Bold" if r == 0 else "Times-Roman", 9)
        y -= 26
    y -= 10
    for line in _wrap_width(" ".join(_sentence(rng, 14) for _ in range(4)), "Times-Roman", 10, 460):
        _text_box(c, 72, y, line, "Times-Roman", 10)
        y -= 12.5
    c.showPage()
    c.save()


def table_over_figure_paper(path: str) -> None:
    """Page 1 (letter, one column): "Table 1" with its table below it (a shaded band behind the
    rows, a note under them), then with no text between a chart whose caption "Figure 1" is below
    it, then a second chart under it above "Figure 2"."""
    from .object_fixtures import _text_box

    c = canvas.Canvas(path)
    y = 720.0
    _text_box(c, 72, y, "Table 1. Bleaching by depth at the three sites.", "Helvetica-Bold", 9)
    y -= 16
    c.setFillGray(0.85)
    c.rect(72, y - 4 * 12 + 8, 300, 4 * 12 + 2, fill=1, stroke=0)
    c.setFillGray(0)
    for r, row in enumerate(ROWS):
        for k, cell in enumerate(row):
            _text_box(c, 76 + 100 * k, y, cell, "Helvetica-Bold" if r == 0 else "Helvetica", 8)
        y -= 12
    _text_box(c, 72, y, "Depth in metres below the lowest tide.", "Helvetica", 7)
    y -= 24
    for label in ("Figure 1. Colonies bleached per depth band.", "Figure 2. Recovery over the season."):
        _text_box(c, 150, y, "Share of colonies by depth", "Helvetica", 7)
        y -= 8
        c.rect(100, y - 110, 250, 110)
        for k in range(6):
            c.circle(120 + 38 * k, y - 100 + 14 * k, 2, fill=1)
        for k, tick in enumerate(("0", "5", "10", "15")):
            _text_box(c, 100 + 80 * k, y - 120, tick, "Helvetica", 7)
        y -= 140
        _text_box(c, 72, y, label, "Helvetica-Bold", 9)
        y -= 30
    c.showPage()
    c.save()
