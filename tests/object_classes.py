"""A third set of generated object classes (helper regions7, issue #38), each from a failure class
seen on unseen papers, drawn by a generator of its own so the earlier sets' papers stay as they were:

* ``text_cells``: a table whose last column holds sentences wrapped over two or three lines (rows
  that read like running text: a table read as its first row only);
* ``spanner``: a header of two rows, a group head over the numeric columns with a short rule under
  it (a booktabs ``cmidrule``) and the first full rule under the column heads, all above it;
* ``body_under``: a table set in the body size under its caption with a paragraph straight under it
  (the region swallows the paragraph);
* ``stacked``: two objects back to back with their captions on the same, unusual side (tables
  captioned below, figures above): the first caption has an object on both sides;
* ``margin_caption``: the caption set beside the object, in a side column of its own;
* pages turned the other way (``clockwise``: /Rotate 270 or content drawn turned clockwise).
"""

from __future__ import annotations

from .object_labels import printed_label
from .pdf_fixtures import BODY

VARIANTS3 = {"table": (None, None, None, "text_cells", "spanner", "body_under", "stacked", "margin_caption"),
             "figure": (None, None, None, "stacked", "margin_caption")}
WRAPPED = 0.5  # share of plain tables drawn with cells wrapped over lines (`wrapped_cells`, own generator)
CLOCKWISE = 0.5  # share of turned papers (/Rotate or content drawn turned) turned clockwise


def text_cells(table, rng, width: float) -> bool:
    """Give the table's last column sentences of words wrapped to its share of `width`; False (the
    table left as it was) when the other columns leave that column no room for six words."""
    from .object_fixtures import _sentence, _wrap_width

    font, size = table.font[0], table.size
    rest = sum(table.widths[:-1])
    room = width - rest
    if room < 8 * size:
        return False
    for row in table.rows[1:]:
        row[-1] = _wrap_width(_sentence(rng, rng.randint(5, 11)), font, size, room - 1.2 * size)
    table.rows[0][-1] = ["Notes"]
    table.widths[-1] = room
    table.height = sum(max(len(c) for c in r) * table.lead for r in table.rows) + 2 * table.pad
    return True


def spanner(table, rng) -> None:
    """A group head over the table's numeric columns, drawn above the column heads (`draw_spanner`)."""
    table.group = rng.choice(("Survey season", "Mean over sites", "After bleaching"))
    table.style, table.top_rule = "header_above", rng.random() < 0.5  # booktabs' top rule, or none
    table.height += table.lead


def draw_spanner(table, c, x: float, top: float):
    """The group head and its short rule, then the table under them: (box, texts)."""
    from .object_fixtures import _text_box, _union_box

    x1 = x + table.widths[0]
    head = _text_box(c, x1 + 0.4 * table.size, top - table.pad - 0.8 * table.lead, table.group, table.font[1],
                     table.size)
    y = top - table.pad - table.lead
    c.setLineWidth(0.4)
    c.line(x1 + 2, y + 0.1 * table.lead, x + sum(table.widths) - 2, y + 0.1 * table.lead)
    if getattr(table, "top_rule", False):
        c.setLineWidth(0.5)
        c.line(x, top, x + sum(table.widths), top)
    group, table.group = table.group, None
    table.height -= table.lead
    box, texts = table.draw(c, x, y + table.pad)
    table.height += table.lead
    table.group = group
    return _union_box([box, head]), [(table.group, head)] + texts


def place_beside(flow, label: str, thing) -> None:
    """The caption in a side column of its own (a third of the column) beside the object, its first
    line level with the object's top; the object in the rest of the column."""
    from .object_fixtures import _wrap_width

    rng = flow.rng
    colw = flow.colw
    side_w = 0.3 * colw
    x0 = flow.xs[flow.col]
    n = label.split()[1]
    printed = printed_label(flow.labels, label, f"{'Table' if label.startswith('Table') else 'Figure'} {n}.")
    text = f"{printed} {' '.join(rng.sample(('reef', 'depth', 'colonies', 'by', 'site', 'season', 'mean'), 5))}."
    size = flow.size - 1
    cap = _wrap_width(text, flow.font[0], size, side_w)
    cap_h = len(cap) * size * 1.2
    flow._room(max(thing.height, cap_h) + 6)
    y = flow.ys[flow.col]
    ox = x0 + side_w + 0.05 * colw
    box, texts = thing.draw(flow.c, ox, y)
    caption_beside(flow, label, thing, (box, texts), cap, (x0, y), (flow.font[0], size), "margin_caption")


def caption_beside(flow, label: str, thing, drawn: tuple, cap: list[str], at: tuple[float, float],
                   font: tuple[str, float], variant: str) -> None:
    """A side caption's lines drawn from `at` (x, top) down, then a gap (close or wide) under the object
    or the caption, whichever ends lower, and the object's truth (place_beside, place_in_margin)."""
    from .object_fixtures import _Table, _text_box

    (box, texts), (x, top), (name, size) = drawn, at, font
    y = flow.ys[flow.col]
    for ln in cap:
        _text_box(flow.c, x, top - size, ln, name, size)
        top -= size * 1.2
    after = flow.rng.choice((flow.rng.uniform(2, 5), flow.rng.uniform(10, 18)))
    flow.ys[flow.col] = min(y - thing.height, top) - after
    flow.truth.append({"label": label, "kind": "table" if label.startswith("Table") else "figure",
                       "page": flow.page, "bbox": box, "texts": texts,
                       "cells": thing.cells() if isinstance(thing, _Table) else [], "caption": " ".join(cap),
                       "style": thing.style if isinstance(thing, _Table) else thing.kind, "above": False,
                       "wide": False, "close": after < 6, "variant": variant, "span": 1,
                       "collected": flow.at_end})


def margin_width(flow, kind: str) -> float:
    """The object's width beside a side caption (a table is planned to fit it)."""
    return 0.65 * flow.colw


def side_caption_paper(path: str) -> None:
    """One column: a paragraph; a chart with its caption in a side column at its left, level with its
    top; a paragraph; a table (header, four rows) with its caption beside it likewise; a paragraph;
    then a short caption over an ordinary table whose header cells lie right of the caption's end."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .object_fixtures import ROWS, Page

    c = canvas.Canvas(path, pagesize=letter)
    p = Page(c)
    p.text(BODY)
    top = p.y
    c.setFont("Helvetica", 9)
    for i, ln in enumerate(("Figure 1. Bleached", "fraction of colonies", "across months.")):
        c.drawString(72, top - 9 - 11 * i, ln)
    c.rect(220, top - 130, 300, 130)
    for k in range(5):
        c.rect(250 + 50 * k, top - 120, 24, 12 + 16 * k, fill=1)
    c.setFont("Helvetica", 7)
    c.drawString(240, top - 12, "fraction bleached")
    p.y = top - 150
    p.text("Shallow reefs bleached first, while the deepest colonies kept their colour all season. " + BODY)
    top = p.y
    c.setFont("Helvetica", 9)
    for i, ln in enumerate(("Table 1. Bleaching", "by depth and site.")):
        c.drawString(72, top - 9 - 11 * i, ln)
    c.setLineWidth(0.6)
    c.line(220, top, 520, top)
    for r, row in enumerate(ROWS):
        c.setFont("Times-Bold" if r == 0 else "Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(224 + 100 * k, top - 10 - 14 * r, cell)
    c.line(220, top - 14 * len(ROWS), 520, top - 14 * len(ROWS))
    p.y = top - 14 * len(ROWS) - 20
    p.text("Recovery was slowest where the water stayed warmest for longest. " + BODY)
    p.caption("Table 2. Recovery.")
    p.y -= 4
    rows = [["Reef", "Recovered", "Lost"], ["Orpheus Island", "61%", "8%"], ["Osprey Reef", "44%", "19%"]]
    for row in rows:
        c.setFont("Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(72 + 160 * k, p.y, cell)
        p.y -= 14
    p.text(BODY)
    c.save()


def row_as_line_paper(path: str) -> None:
    """A narrow page: a caption over a table set in the body size whose last row pdfium reads as one
    line of names and numbers nearly as wide as the column, a rule under it and a paragraph straight
    under the rule."""
    from reportlab.pdfgen import canvas

    from .object_fixtures import Page

    c = canvas.Canvas(path, pagesize=(300, 600))
    p = Page(c, 300, 600)
    p.text(BODY, chars=30)
    p.caption("Table 1. Bleaching by depth and site.")
    y = p.y - 4
    rows = [["Site", "Depth", "Lost"], ["Lizard", "4 m", "9%"], ["Heron", "9 m", "2%"]]
    c.setLineWidth(0.6)
    for r, row in enumerate(rows):
        c.setFont("Times-Roman", 10)
        for k, cell in enumerate(row):
            c.drawString(72 + 55 * k, y, cell)
        if r == 0:
            c.line(72, y - 4, 228, y - 4)
        y -= 14
    c.setFont("Times-Roman", 10)
    c.drawString(72, y, "Tubbataha Reef 97% 94.2 42.2")
    c.line(72, y - 4, 228, y - 4)
    p.y = y - 16
    p.text("Shallow reefs bleached first, while the deepest colonies kept their colour. " + BODY, chars=30)
    c.save()


def table_over_figure_paper(path: str) -> None:
    """Two columns: a page-wide table (its caption above it) at the top, its last rule just over a
    figure caption in the left column, the chart under that caption, running text in the right
    column level with the caption and the chart: the rule crossing the gutter near the caption is
    the table's, not the figure's."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import _wrap

    c = canvas.Canvas(path, pagesize=letter)
    c.setFont("Helvetica", 9)
    c.drawString(54, 740, "Table 2: Growth and survival by site over the survey.")
    y = 724
    c.setLineWidth(0.6)
    c.line(54, y + 10, 558, y + 10)
    for row in ([["Site", "Growth", "Survival"], ["Moorea North", "1,336", "0.11"],
                 ["Osprey Reef", "12%", "52.7"], ["Kimbe Bay", "424", "2,832"]]):
        c.setFont("Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(80 + 150 * k, y, cell)
        y -= 16
    c.line(54, y + 10, 558, y + 10)
    top = y - 6
    c.setFont("Times-Roman", 9)
    for i, ln in enumerate(_wrap("Figure 2. Bleached fraction of colonies by month, as surveyed at each site "
                                 "over the season.", 50)):
        c.drawString(54, top - 9 - 11 * i, ln)
    chart = top - 40
    c.line(80, chart, 80, chart - 110)
    c.line(80, chart - 110, 290, chart - 110)
    for k in range(5):
        c.rect(95 + 38 * k, chart - 110, 20, 15 + 15 * k, fill=1)
    c.setFont("Times-Roman", 7)
    c.drawString(150, chart - 122, "colour light")
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(_wrap(BODY + " " + BODY, 48)):
        c.drawString(316, top - 9 - 12.5 * i, ln)
    for i, ln in enumerate(_wrap(BODY, 48)):
        c.drawString(54, chart - 140 - 12.5 * i, ln)
    c.save()


def margin_picture_paper(path: str) -> None:
    """A page whose running text fills a column from x=200, with a margin column at its left holding
    a picture (a filled panel with keys drawn on it) and its caption under it."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import _wrap

    c = canvas.Canvas(path, pagesize=letter)
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(_wrap(" ".join([BODY] * 5), 70)):
        c.drawString(200, 720 - 12.5 * i, ln)
    c.setFillGray(0.3)
    c.rect(30, 450, 140, 250, fill=1)
    c.setFillGray(1)
    for k in range(9):
        c.rect(40 + 45 * (k % 3), 470 + 60 * (k // 3), 30, 40, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica", 8)
    for i, ln in enumerate(("Figure 1 Screenshot of the", "display during the test.")):
        c.drawString(30, 435 - 10 * i, ln)
    c.save()


_LABEL_WORDS = ("goals in control group", "colonies kept at depth", "sites with recovery after summer",
                "shallow reef under current", "survey of the deeper sites", "species mix per transect",
                "water temperature over season")
_WRAPPED_HEADS = ("Colonies surveyed", "Share bleached (%)", "Mean depth (m)", "Recovery after one year",
                  "Cover lost per site", "Growth over season", "Survival at depth")


def wrapped_cells(table, rng, width: float) -> bool:
    """Cells set over two or three lines (`wrapped_cells`, helper cells8): the first column's labels
    and some header cells wrap in their column, rows set at the line pitch or a little apart; the
    truth is each cell's whole text (`table.whole`).  False (the table left as it was) when the
    wrapped table does not fit `width`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from .object_fixtures import _wrap_width

    font, size = table.font, table.size
    rows = [list(r) for r in table.rows]
    labels = [rng.choice(_LABEL_WORDS) for _ in rows[1:]]
    labels = [t[0].upper() + t[1:] for t in labels]
    room0 = max(max(stringWidth(w, font[0], size) for t in labels for w in t.split()),
                max(stringWidth(t, font[0], size) for t in labels) / rng.choice((2.0, 2.6, 3.2)))
    for r, t in zip(rows[1:], labels, strict=True):
        r[0] = _wrap_width(t, font[0], size, room0 + 1)
    for k in range(1, len(rows[0])):
        if rng.random() < 0.6:
            head = rng.choice(_WRAPPED_HEADS)
            room = max(max(stringWidth(t, font[0], size) for r in rows[1:] for t in r[k]),
                       max(stringWidth(w, font[1], size) for w in head.split()))
            rows[0][k] = _wrap_width(head, font[1], size, room + 1)
    widths = [max(stringWidth(t, font[1], size) for r in rows for t in r[k]) + 1.2 * size for k in range(len(rows[0]))]
    if sum(widths) > width:
        return False
    table.rows, table.widths, table.whole = rows, widths, True
    table.row_gap = rng.choice((0.0, 0.0, 0.4, 0.8)) * table.lead
    table.height = sum(max(len(c) for c in r) * table.lead + table.row_gap for r in rows) + 2 * table.pad
    return True


def wrapped_table_paper(path: str) -> None:
    """A booktabs table whose header cells wrap (one head set a line lower than its neighbours, as
    vertically centred heads are), whose first column's labels wrap with their values on the first
    line, with a group label under a row of values and a note under the last rule."""
    from reportlab.pdfgen import canvas

    from .object_fixtures import Page

    c = canvas.Canvas(path, pagesize=(420, 600))
    p = Page(c, 420, 600)
    p.text(BODY, chars=60)
    p.caption("Table 1. Goals of the trials by group.")
    y, xs = p.y - 6, (72, 170, 240, 320)
    c.setLineWidth(0.6)
    c.line(72, y, 380, y)
    c.setFont("Times-Bold", 9)
    for x, lines, drop in zip(xs, (["Study"], ["Goals", "in GDT group"], ["Goals", "in control", "group"], ["Timing"]),
                              (1, 0, 0, 1), strict=True):
        for i, t in enumerate(lines):
            c.drawString(x, y - 10 - 10 * (i + drop), t)
    y -= 40
    c.line(72, y, 380, y)
    c.setFont("Times-Roman", 9)
    rows = [(["Goals met in", "the first week"], "26/25", "30/22", "6 hrs"),
            (["Usual care"], "130/133", "50/50", "24 hrs"),
            (["Study type"], None, None, None),
            (["Adult patients", "with septic shock"], "31/32", "124/57", "72 hrs")]
    for label, *values in rows:
        y -= 11
        for k, v in enumerate(values):
            if v is not None:
                c.drawString(xs[k + 1], y, v)
        for i, t in enumerate(label):
            c.drawString(72, y - 10 * i, t)
        y -= 10 * (len(label) - 1)
    y -= 5
    c.line(72, y, 380, y)
    c.setFont("Times-Roman", 7)
    c.drawString(72, y - 9, "GDT, goal-directed therapy; RCT, randomized controlled trial; hrs, hours.")
    p.y = y - 30
    p.text(BODY, chars=60)
    c.save()
