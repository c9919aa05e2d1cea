"""A fourth set of generated object layouts (helper regions8, issue #38), each from a failure class
left on real pages, drawn by a generator of its own (``random.Random(f"fourth {seed}")``) so the
earlier sets' papers stay as they were:

* ``margin_column``: the page's running text in one body column, a narrow margin column beside it
  (left or right) holding each object's caption, level with the object's top or with its foot; the
  object in the body column (Tufte-style and some journals' layouts: the caption lies outside every
  column of running text, not in a side column inside the object's own column);
* ``empty_third``: a paper set in three columns whose third column is left empty on some pages (a
  section or the paper ending early: the page's columns are then two narrow ones and a blank).
"""

from __future__ import annotations

from .object_labels import printed_label
from .pdf_fixtures import BODY

FOURTH = {"margin_column": 0.15, "empty_third": 0.15}  # shares of papers, drawn by the fourth generator
_WORDS = ("reef", "depth", "colonies", "by", "site", "season", "mean", "cover", "after", "the", "survey", "warm")
SHORT_PAGES = 0.6  # share of an `empty_third` paper's pages whose third column stays empty


def margin_column(flow, rng) -> None:
    """Set the paper in one body column with a margin column for captions beside it (left or right)."""
    flow.ncols = 1
    text_w = flow.fw - 2 * flow.margin
    flow.side_w = text_w * rng.uniform(0.22, 0.3)
    gap = rng.uniform(12, 22)
    flow.colw = text_w - flow.side_w - gap
    flow.side_left = rng.random() < 0.6
    flow.side_x = flow.margin if flow.side_left else flow.margin + flow.colw + gap
    flow.xs = [flow.margin + flow.side_w + gap if flow.side_left else flow.margin]
    flow.ys = [flow.top]
    flow.side_foot = rng.random() < 0.4  # captions level with the object's foot, not its top
    flow.spans = None


def empty_third(flow, rng) -> None:
    """Three columns, the third left empty on some pages (`SHORT_PAGES`, drawn by `rng`)."""
    if flow.ncols != 3:
        flow.three_columns(rng)
    flow.short = rng


def leaves_third(flow) -> bool:
    """Does the flow leave this page's third column empty (an `empty_third` paper's short page)?"""
    short = getattr(flow, "short", None)
    if short is None:
        return False
    if getattr(flow, "short_page", None) != flow.page:
        flow.short_page, flow.short_now = flow.page, short.random() < SHORT_PAGES
    return flow.short_now


def place_in_margin(flow, label: str, thing) -> None:
    """The object in the body column, its caption in the margin column beside it."""
    from .object_classes import caption_beside
    from .object_fixtures import _Table, _wrap_width

    rng = flow.rng
    n = label.split()[1]
    printed = rng.choice((f"Table {n}.", f"TABLE {n}")) if label.startswith("Table") else \
        rng.choice((f"Figure {n}.", f"Fig. {n}", f"FIGURE {n}."))
    printed = printed_label(flow.labels, label, printed)
    words = " ".join(rng.sample(_WORDS, rng.randint(4, 12)))
    text = f"{printed} {words[0].upper()}{words[1:]}."
    size = flow.size - rng.choice((1.0, 1.5, 2.0))
    font = rng.choice((flow.font[0], "Helvetica"))
    cap = _wrap_width(text, font, size, flow.side_w)
    cap_h = len(cap) * size * 1.2
    flow._room(max(thing.height, cap_h) + 6)
    y = flow.ys[flow.col]
    x0 = flow.xs[flow.col]
    obj_w = sum(thing.widths) if isinstance(thing, _Table) else thing.width
    box, texts = thing.draw(flow.c, x0 + (flow.colw - obj_w) * rng.choice((0.0, 0.5)), y)
    top = y if not flow.side_foot or cap_h >= thing.height else y - thing.height + cap_h
    caption_beside(flow, label, thing, (box, texts), cap, (flow.side_x, top), (font, size), "margin_column")


def margin_column_paper(path: str) -> None:
    """One body column (x 200-540) of running text and a margin column at its left (x 54-180) holding
    the captions: a table whose header row is level with its caption's first line and whose last
    row shares a baseline with the caption's second line (pdfium runs that cell in before the caption),
    then a chart captioned at its foot.  Caption lines are long enough (30 characters and more) for the
margin column to be found as a column of its own."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import _wrap

    c = canvas.Canvas(path, pagesize=letter)

    def paragraph(y: float, text: str) -> float:
        c.setFont("Times-Roman", 10)
        for ln in _wrap(text, 68):
            c.drawString(200, y, ln)
            y -= 12.5
        return y - 8

    y = paragraph(730, BODY + " " + BODY)
    top = y - 4
    c.setFont("Helvetica", 8)
    for i, ln in enumerate(("Table 1. Bleaching of the colonies", "by depth, site and year over the",
                            "survey season, as divers counted.")):
        c.drawString(54, top - 8 - 13 * i, ln)
    c.setLineWidth(0.6)
    c.line(200, top + 4, 540, top + 4)
    rows = [["Site", "Depth", "Bleached"], ["Lizard Island", "4 m", "37%"], ["Heron Reef", "9 m", "12%"]]
    for r, row in enumerate(rows):
        c.setFont("Times-Bold" if r == 0 else "Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(210 + 120 * k, top - 8 - 13 * r, cell)
    c.line(200, top - 39, 540, top - 39)
    y = paragraph(top - 57, "Shallow reefs bleached first, while the deepest colonies kept their colour. " + BODY)
    c.rect(230, y - 140, 280, 140)
    for k in range(5):
        c.rect(260 + 45 * k, y - 130, 22, 14 + 18 * k, fill=1)
    c.setFont("Helvetica", 8)
    for i, ln in enumerate(("Figure 1. Cover of the live corals", "over the survey's months, by site.")):
        c.drawString(54, y - 130 + 11 * (1 - i), ln)
    paragraph(y - 166, "Recovery was slowest where the water stayed warmest for longest. " + BODY)
    c.save()


def empty_third_paper(path: str) -> None:
    """Three columns (x 54-214, 226-386, 398-558) with the third left empty: running text fills the
    first; the second holds a caption over a ruled table, then running text.  The page's middle
    (306) falls inside the second column."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from .pdf_fixtures import _wrap

    c = canvas.Canvas(path, pagesize=letter)
    c.setFont("Times-Roman", 10)
    for i, ln in enumerate(_wrap(" ".join([BODY] * 4), 34)):
        c.drawString(54, 730 - 12.5 * i, ln)
    c.setFont("Helvetica", 9)
    for i, ln in enumerate(_wrap("Table 1: Bleaching by depth and site over the survey season.", 34)):
        c.drawString(226, 730 - 11 * i, ln)
    top = 700
    c.setLineWidth(0.6)
    c.line(226, top, 386, top)
    rows = [["Site", "Depth", "Lost"], ["Lizard", "4 m", "37%"], ["Heron", "9 m", "12%"], ["Ningaloo", "15 m", "3%"]]
    for r, row in enumerate(rows):
        c.setFont("Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(230 + 55 * k, top - 11 - 14 * r, cell)
        if r == 0:
            c.line(226, top - 15, 386, top - 15)
    c.line(226, top - 62, 386, top - 62)
    c.setFont("Times-Roman", 10)
    text = "Shallow reefs bleached first, while deeper ones kept colour. " + " ".join([BODY] * 2)
    for i, ln in enumerate(_wrap(text, 34)):
        c.drawString(226, top - 80 - 12.5 * i, ln)
    c.save()
