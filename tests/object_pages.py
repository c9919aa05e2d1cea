"""A fifth set of generated object classes (helper regions11, issue #38), each from a failure class
seen on real pages, drawn by a generator of its own (``random.Random(f"fifth {seed}")``) so the
earlier sets' papers stay as they were:

* ``wrap_text`` (object): the object and its caption set in the right part of a one-column page's
  column, a narrower column of justified running text wrapped beside them on the left;
* ``continued`` (table): a long table under its caption at a page's foot, its rows going on at the
  top of the next page with no repeated caption or header (truth: every row's cells; the region is
  the first page's part);
* ``label_caption`` (object): a caption whose label is set a size larger and bold, the rest of its
  first line and its other lines in the caption's size;
* ``small_text`` (paper, ``layout5=``): from the second page on, the running text is set 1.5 pt
  smaller than the first page's and justified (a journal's methods in small type);
* ``turned_foot`` (paper, turned pages only): a running foot set up the page's margin, turned a
  quarter across the reading direction.

A sixth set (helper regions12, ``random.Random(f"sixth {seed}")``), for objects the fifth set left alone:

* ``continued_column`` (table, two-column papers): a column-wide table at its column's foot whose rows
  go on at the top of the next column: the right column of the same page, or the next page's first
  column (no caption or header repeated; truth: every row's cells, the region is the first part's);
* ``wrap_ragged`` (object): as ``wrap_text``, the wrapped text set ragged-right (not justified).
"""

from __future__ import annotations

FIFTH = {"wrap_text": 0.25, "label_caption": 0.2}  # shares of objects, drawn by the fifth generator
FIFTH_ONE = {"continued": 0.4, "wrap_text": 0.2, "label_caption": 0.15}  # of the tables of one-column papers
SIXTH_TWO = {"continued_column": 0.35, "wrap_ragged": 0.1}  # of the tables of two-column papers
SIXTH = {"wrap_ragged": 0.15}  # of other objects (in columns 200 pt wide or more)
PAPERS5 = {"small_text": 0.2, "turned_foot": 0.5}  # shares of papers (turned_foot: of turned papers)


def draw_justified(flow, x: float, y: float, text: str, font: str, size: float, width: float, last: bool):
    """One line of running text spread over `width` word by word (not the paragraph's last line)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from .object_fixtures import _text_box

    words = text.split()
    if last or len(words) < 2:
        return _text_box(flow.c, x, y, text, font, size)
    gap = (width - sum(stringWidth(w, font, size) for w in words)) / (len(words) - 1)
    cx = x
    for w in words:
        _text_box(flow.c, cx, y, w, font, size)
        cx += stringWidth(w, font, size) + gap
    return x, y - 0.22 * size, x + width, y + 0.72 * size


def small_paragraph(flow) -> bool:
    """A `small_text` paper's paragraph past its first page: set smaller and justified.  False when the
    paragraph is the usual one."""
    from .object_fixtures import _sentence, _wrap_width

    if getattr(flow, "layout5", None) != "small_text" or flow.page < 2:
        return False
    size = flow.size - 1.5
    lead = size * 1.22
    text = " ".join(_sentence(flow.rng, flow.rng.randint(6, 20)) for _ in range(flow.rng.randint(2, 6)))
    lines = _wrap_width(text, flow.font[0], size, flow.colw)
    for i, ln in enumerate(lines):
        flow._room(lead)
        y = flow.ys[flow.col] - 0.85 * size
        box = draw_justified(flow, flow.xs[flow.col], y, ln, flow.font[0], size, flow.colw, i == len(lines) - 1)
        flow.prose.setdefault(flow.page, []).append(box)
        flow.ys[flow.col] -= lead
    flow.ys[flow.col] -= 0.5 * lead
    return True


def turned_foot(flow) -> None:
    """A running foot up the page's left margin, turned across the page's text (`turned_foot`)."""
    c = flow.c
    c.saveState()
    c.setFont("Helvetica", flow.size - 1.5)
    c.translate(flow.margin * 0.45, flow.bottom + 20)
    c.rotate(90)
    c.drawString(0, 0, f"Reef survey et al. Coral Reports 2016;6:e01{flow.page:04d}. doi:10.1136/cr-2016-{flow.page}")
    c.restoreState()


def draw_caption(flow, cap, x0: float, top: float, width: float, big: bool) -> float:
    """Draw the caption's lines from `top` down at x0; returns the top under the last line."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from .object_fixtures import _text_box

    lines, font, size, centred = cap
    for i, ln in enumerate(lines):
        cx = x0 + (width - stringWidth(ln, font, size)) / 2 if centred else x0
        if big and i == 0:
            label = " ".join(ln.split()[:2])
            rest = ln[len(label):]
            bold = "Helvetica-Bold" if font.startswith("Helvetica") else "Times-Bold"
            _text_box(flow.c, cx, top - size, label, bold, size + 1.5)
            _text_box(flow.c, cx + stringWidth(label, bold, size + 1.5), top - size, rest, font, size)
        else:
            _text_box(flow.c, cx, top - size, ln, font, size)
        top -= size * 1.2
    return top


def _truth(flow, label: str, thing, box, texts, cap, above: bool, variant: str, after: float) -> dict:
    from .object_fixtures import _Table

    return {"label": label, "kind": "table" if label.startswith("Table") else "figure", "page": flow.page,
            "bbox": box, "texts": texts, "cells": thing.cells() if isinstance(thing, _Table) else [],
            "caption": " ".join(cap[0]), "style": thing.style if isinstance(thing, _Table) else thing.kind,
            "above": above, "wide": False, "close": after < 6, "variant": thing.variant, "span": 1,
            "collected": flow.at_end, "fifth": variant}


def place_wrapped(flow, label: str, thing, ragged: bool = False) -> None:
    """`wrap_text`: the object (drawn `thing.width` or its columns' width wide) and its caption at the
    column's right, justified running text wrapped beside them at the left (`ragged`: set ragged-right,
    `wrap_ragged`)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from .object_fixtures import _sentence, _Table, _wrap_width

    rng = flow.rng
    obj_w = sum(thing.widths) if isinstance(thing, _Table) else thing.width
    gap = rng.uniform(10, 16)
    text_w = flow.colw - obj_w - gap
    cap = flow._caption(label, obj_w)
    above = isinstance(thing, _Table) and rng.random() < 0.7
    cap_h = len(cap[0]) * cap[2] * 1.2
    span_h = thing.height + cap_h + 6
    flow._room(span_h + 2 * flow.lead)
    x0, y = flow.xs[flow.col], flow.ys[flow.col]
    ox = x0 + flow.colw - obj_w
    if above:
        top = draw_caption(flow, cap, ox, y, obj_w, False) - 6
        box, texts = thing.draw(flow.c, ox, top)
    else:
        box, texts = thing.draw(flow.c, ox, y)
        draw_caption(flow, cap, ox, y - thing.height - 6, obj_w, False)
    size = flow.size
    rows = int(span_h // flow.lead) + 1
    words: list[str] = []
    while len(_wrap_width(" ".join(words), flow.font[0], size, text_w)) < rows + 1:
        words += _sentence(rng, 12).split()
    lines = _wrap_width(" ".join(words), flow.font[0], size, text_w)[:rows]
    ty = y
    for ln in lines:
        full = stringWidth(ln, flow.font[0], size) > 0.8 * text_w and not ragged
        b = draw_justified(flow, x0, ty - 0.85 * size, ln, flow.font[0], size, text_w, not full)
        flow.prose.setdefault(flow.page, []).append(b)
        ty -= flow.lead
    flow.ys[flow.col] = min(ty, y - span_h) - rng.uniform(4, 10)
    flow.truth.append(_truth(flow, label, thing, box, texts, cap, above, "wrap_ragged" if ragged else "wrap_text", 8.0))


def _fit(rows: list, lead: float, room: float) -> int:
    """How many of the rows fit in `room` (each as tall as its tallest cell)."""
    n, used = 0, 0.0
    for r in rows:
        used += max(len(c) for c in r) * lead
        if used > room:
            break
        n += 1
    return n


def _next_column(flow) -> None:
    """Go on at the top of the next column: the page's next, or the next page's first; the objects
    waiting for the next page are placed after the caller's."""
    if flow.col + 1 < flow.ncols:
        flow.col += 1
        return
    pending, flow.pending = flow.pending, []
    flow._new_page()
    flow.pending = pending


def place_continued(flow, label: str, thing, columns: bool = False) -> bool:
    """`continued`: the caption above a table whose rows run past the page's foot and go on at the top
    of the next page (no caption, no header repeated), in a one-column paper; with `columns`
    (`continued_column`), at the top of the next column of a two-column paper.  False when the layout does
    not allow it (other columns, the table a kind drawn otherwise, or no room for three rows here)."""
    from .object_fixtures import _number, _Table

    if flow.at_end or not isinstance(thing, _Table) or thing.group or thing.groups or thing.centred \
            or thing.decimal or flow.ncols != (2 if columns else 1):
        return False
    rng = flow.rng
    heads, rows = thing.rows[0], thing.rows[1:]
    cap = flow._caption(label, flow.colw)
    cap_h = len(cap[0]) * cap[2] * 1.2 + 6

    def room() -> float:
        return flow.ys[flow.col] - flow.bottom - cap_h - 2 * thing.pad - max(len(c) for c in heads) * thing.lead
    if room() < 4 * max(len(c) for c in rows[0]) * thing.lead:
        if columns:
            _next_column(flow)
        else:
            flow._new_page()
    while _fit(rows, thing.lead, room()) > len(rows) - 5:  # rows enough to run five or more past the foot
        rows.append([[rng.choice(("Lizard", "Heron", "Ningaloo", "Osprey", "Moore", "Davies"))]]
                    + [[_number(rng)] for _ in heads[1:]])
    first = _fit(rows, thing.lead + thing.row_gap, room())
    x0, page = flow.xs[flow.col], flow.page
    top = draw_caption(flow, cap, x0, flow.ys[flow.col], flow.colw, False) - 6
    thing.rows = [heads] + rows[:first]
    box, texts = thing.draw(flow.c, x0, top)
    cells = [" ".join(cell) if thing.whole else t for r in [heads] + rows for cell in r
             for t in (cell[:1] if thing.whole else cell)]
    pending, flow.pending = flow.pending, []
    if columns:
        flow.ys[flow.col] = flow.bottom  # the column is full
        _next_column(flow)
        if flow.page == page:  # the page's next column: what waits for the next page waits on
            pending, flow.pending = [], pending
    else:
        flow._new_page()
    x0 = flow.xs[flow.col]
    rest = _Table.__new__(_Table)
    rest.__dict__.update(thing.__dict__)
    rest.rows = [[[""] for _ in heads]] + rows[first:]  # an empty first row: no header drawn bold
    rest.height = sum(max(len(c) for c in r) * thing.lead + thing.row_gap for r in rest.rows[1:]) + 2 * thing.pad
    rest.draw(flow.c, x0, flow.ys[flow.col] + thing.lead + thing.row_gap)
    flow.ys[flow.col] -= rest.height + rng.uniform(10, 18)
    truth = _truth(flow, label, thing, box, texts, cap, True, "continued_column" if columns else "continued", 12.0)
    truth["page"] = page
    truth["cells"] = cells
    flow.truth.append(truth)
    for item in pending:
        if item is not None:
            flow._place(*item)
    return True
