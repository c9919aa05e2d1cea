"""A fourth set of generated table classes (helper cells9, issue #38): cell layouts seen failing on real
tables, drawn by a generator of their own (`random.Random(f"cells {seed}")`) so that the earlier sets'
papers stay as they were.  Each one's truth is known by construction:

* ``centred_cells``: labels wrapped over two or three lines with the row's other cells set vertically
  centred beside them (a value on the label's middle line, or half-way between its two lines), a text
  column of phrases wrapped likewise, rows set apart by a gap or by a rule between every row; the truth
  is each cell's whole text;
* ``script_marks``: heads and values carrying a raised or lowered mark drawn as a small glyph of its
  own ("I²  (%)", "CO₂ flux", "0.42ᵃ"): the truth writes the mark as the reader does (``I^2 (%)``,
  ``CO_2 flux``, ``0.42^a``);
* ``group_heads``: a header of two levels, group heads each over two columns with a short rule under
  each (booktabs' ``cmidrule``), the column heads under them;
* ``decimal_columns``: values of very different widths ("1,284.5", "0.27", "-3.1") aligned on their
  decimal points, the table unruled or ruled only above and below its header (so nothing but the
  alignment tells the columns).
"""

from __future__ import annotations

import re

CELL_CLASSES = ("centred_cells", "script_marks", "group_heads", "decimal_columns")
CELLS = 0.5  # share of the plain tables left by `object_classes.wrapped_cells` drawn in one of these classes

_PHRASES = ("adult patients with septic shock", "colonies kept at depth", "shallow reef under a strong current",
            "sites surveyed after the summer", "patients with severe sepsis or shock", "water warmer than usual")
_SCRIPTED_HEADS = ("I^2 (%)", "R^2", "Area (m^2)", "CO_2 flux", "T_max", "P_a value", "Cover (cm^2)")
_GROUPS = ("Baseline", "Follow-up", "Before bleaching", "After bleaching", "Shallow sites", "Deep sites")
_SUBHEADS = (("Mean", "SD"), ("n", "%"), ("Cover", "Loss"), ("Median", "IQR"))
_MARK = re.compile(r"([\^_])([A-Za-z0-9]+)")


def draw_marked(c, x: float, y: float, text: str, font: str, size: float):
    """`text` drawn at (x, y) with each ``^mark`` raised and ``_mark`` lowered in a smaller size, each a
    piece of its own; its box (x0, y0, x1, y1)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from .object_fixtures import _text_box

    if not _MARK.search(text):
        return _text_box(c, x, y, text, font, size)
    cx, pos = x, 0
    for m in list(_MARK.finditer(text)) + [None]:
        plain = text[pos:m.start() if m else len(text)]
        c.setFont(font, size)
        c.drawString(cx, y, plain)
        cx += stringWidth(plain, font, size)
        if m is None:
            break
        small = 0.65 * size
        c.setFont(font, small)
        c.drawString(cx + 0.3, y + (0.38 if m.group(1) == "^" else -0.18) * size, m.group(2))
        cx += stringWidth(m.group(2), font, small) + 0.6
        pos = m.end()
    return x, y - 0.22 * size, cx, y + 0.8 * size


def cell_class(table, rng, width: float, kind: str) -> bool:
    """Draw `table` in the class `kind`; False (the table left as it was) when it does not fit `width`."""
    return {"centred_cells": centred_cells, "script_marks": script_marks, "group_heads": group_heads,
            "decimal_columns": decimal_columns}[kind](table, rng, width)


def _fit(table, rows: list, width: float, step: int = 1) -> bool:
    """Rows set in the table, its last columns (`step` at a time) dropped until it fits `width`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    font, size = table.font, table.size

    def widths() -> list[float]:
        return [max(stringWidth(re.sub(r"[\^_]", "", t), font[1], size) for r in rows for t in r[k]) + 1.2 * size
                for k in range(len(rows[0]))]
    while sum(widths()) > width and len(rows[0]) > 1 + 2 * step:
        rows = [r[:-step] for r in rows]
    if sum(widths()) > width:
        return False
    table.rows, table.widths = rows, widths()
    table.height = sum(max(len(c) for c in r) * table.lead + table.row_gap for r in rows) + 2 * table.pad
    return True


def centred_cells(table, rng, width: float) -> bool:
    """Labels and a text column wrapped, every other cell of a row centred on its tallest (see the module)."""
    from .object_classes import wrapped_cells
    from .object_fixtures import _wrap_width

    while not wrapped_cells(table, rng, width):
        if len(table.rows[0]) <= 2:
            return False
        table.rows = [r[:-1] for r in table.rows]
    rows = [list(r) for r in table.rows]
    font, size = table.font, table.size
    for r in rows[1:]:  # labels of two or three lines, so that the values sit beside their middle
        if len(r[0]) == 1:
            words = " ".join(r[0]).split()
            r[0] = [" ".join(words[:len(words) // 2 or 1]), " ".join(words[len(words) // 2 or 1:])] \
                if len(words) > 1 else r[0]
    if len(rows[0]) > 3 and rng.random() < 0.6:  # the last column holds phrases wrapped over two lines
        from reportlab.pdfbase.pdfmetrics import stringWidth

        rows[0][-1] = ["Population"]
        phrases = [rng.choice(_PHRASES) for _ in rows[1:]]
        room = max(stringWidth(p, font[0], size) for p in phrases) / 1.8
        for r, p in zip(rows[1:], phrases, strict=True):
            r[-1] = _wrap_width(p[0].upper() + p[1:], font[0], size, room)
    table.centred, table.whole = True, True
    table.style = rng.choice(("grid", "booktabs", "header_above", "unruled", "boxed"))
    table.row_gap = rng.choice((0.3, 0.6, 1.0)) * table.lead * (table.style != "grid" or rng.random() < 0.5)
    return _fit(table, rows, width)


def script_marks(table, rng, width: float) -> bool:
    """Two or three heads with a raised or lowered mark, and some values with a raised footnote mark."""
    rows = [list(r) for r in table.rows]
    cols = list(range(1, len(rows[0])))
    for k, head in zip(rng.sample(cols, min(len(cols), rng.randint(2, 3))), rng.sample(_SCRIPTED_HEADS, 3)):
        rows[0][k] = [head]
    for r in rows[1:]:
        for k in cols:
            if rng.random() < 0.25 and "^" not in r[k][-1]:
                r[k] = r[k][:-1] + [r[k][-1] + "^" + rng.choice("abc")]
    table.marks = True
    return _fit(table, rows, width)


def group_heads(table, rng, width: float) -> bool:
    """Group heads over pairs of columns (a short rule under each), sub-heads under them."""
    rows = [list(r) for r in table.rows]
    pairs = (len(rows[0]) - 1) // 2
    if pairs < 1:
        return False
    sub = rng.choice(_SUBHEADS)
    for p in range(pairs):
        rows[0][1 + 2 * p], rows[0][2 + 2 * p] = [sub[0]], [sub[1]]
    rows = [r[:1 + 2 * pairs] for r in rows]
    table.style = rng.choice(("booktabs", "header_above", "boxed"))
    if not _fit(table, rows, width, 2):
        return False
    table.groups = rng.sample(_GROUPS, (len(table.rows[0]) - 1) // 2)
    table.height += table.lead
    return True


def decimal_columns(table, rng, width: float) -> bool:
    """Values of one to four integer digits, signed or not, aligned on their decimal points."""
    rows = [list(r) for r in table.rows]
    for r in rows[1:]:
        for k in range(1, len(r)):
            v = rng.choice((0.01, 0.1, 1, 10, 100, 1000)) * rng.uniform(1, 9.9)
            sign = "-" if rng.random() < 0.15 else ""
            r[k] = [sign + (f"{v:,.1f}" if v >= 100 else f"{v:.2f}" if v < 1 else f"{v:.1f}")]
    table.decimal, table.style = True, rng.choice(("unruled", "header_above", "booktabs"))
    if not _fit(table, rows, width):
        return False
    table.widths = [w + 0.5 * table.size for w in table.widths]  # room for the shift to the point
    return sum(table.widths) <= width


def point_offset(text: str, font: str, size: float) -> float:
    """How far into `text` its decimal point (or its end, for a whole number) lies."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    head = text.split(".")[0] if "." in text else text.split(" ")[0]
    return stringWidth(head, font, size)


def decimal_points(table) -> list[float]:
    """Per column, where its decimal points line up: the widest integer part among its values."""
    return [max(point_offset(t, table.font[0], table.size) for r in table.rows[1:] for t in r[k])
            for k in range(len(table.rows[0]))]


def draw_groups(table, c, x: float, top: float):
    """The group heads, each centred over its pair of columns with a short rule under it, then the table."""
    from .object_fixtures import _text_box, _union_box

    y = top - table.pad - table.lead
    heads = []
    c.setLineWidth(0.4)
    for p, name in enumerate(table.groups):
        x0 = x + sum(table.widths[:1 + 2 * p])
        x1 = x0 + table.widths[1 + 2 * p] + table.widths[2 + 2 * p]
        from reportlab.pdfbase.pdfmetrics import stringWidth

        w = stringWidth(name, table.font[1], table.size)
        heads.append((name, _text_box(c, (x0 + x1 - w) / 2, y + 0.2 * table.lead, name, table.font[1], table.size)))
        c.line(x0 + 2, y + 0.1 * table.lead - 1, x1 - 2, y + 0.1 * table.lead - 1)
    if table.style == "booktabs":
        c.setLineWidth(0.5)
        c.line(x, top, x + sum(table.widths), top)
    groups, table.groups = table.groups, None
    table.height -= table.lead
    style, table.style = table.style, "header_above" if table.style == "booktabs" else table.style
    box, texts = table.draw(c, x, y + table.pad)
    table.height += table.lead
    table.groups, table.style = groups, style
    return _union_box([box] + [b for _, b in heads]), heads + texts


def centred_table_paper(path: str) -> None:
    """A booktabs table whose rows are bands of lines (a trial's authors on three lines, its values
    on the middle one, a population on two lines centred beside them; rows set apart by a gap), a header with a
    head carrying a raised mark drawn as a piece of its own, set higher than the row ("I" "2" "(%)"),
    then a second table of complete rows grouped in pairs by a gap (rows, not bands)."""
    from .object_fixtures import ruled_table_page
    from .pdf_fixtures import BODY

    c, p, y = ruled_table_page(path, "Table 1. Trials of early goal-directed therapy.")
    xs = (72, 150, 200, 320)
    c.setFont("Times-Bold", 9)
    for x, head in zip(xs, ("Study", "Year", "Population", "No."), strict=True):
        c.drawString(x, y - 11, head)
    c.drawString(372, y - 11, "I")
    c.setFont("Times-Bold", 6)
    c.drawString(375.5, y - 7, "2")
    c.setFont("Times-Bold", 9)
    c.drawString(381, y - 11, "(%)")
    y -= 16
    c.line(72, y, 410, y)
    c.setFont("Times-Roman", 9)
    rows = ((["Tuchschmidt,", "Smith and", "Jones"], "1992", ["Adult patients", "with septic shock"], "26/25", "57.7"),
            (["Micek,", "Parker and", "Rowe"], "2006", ["Adult patients", "with severe sepsis"], "60/60", "48.1"),
            (["Nguyen,", "Lee and", "Ortiz"], "2007", ["Patients seen", "in the emergency room"], "77/253", "23.6"))
    for name, year, population, n, share in rows:  # the values on the name's middle line
        y -= 12
        for i, t in enumerate(name):
            c.drawString(72, y - 10.5 * i, t)
        for i, t in enumerate(population):
            c.drawString(200, y - 10.5 * (i + 0.5), t)
        for x, v in ((150, year), (320, n), (372, share)):
            c.drawString(x, y - 10.5, v)
        y -= 27
    c.line(72, y, 410, y)
    p.y = y - 24
    p.caption("Table 2. Recovery by site.")
    y = p.y - 6
    c.line(72, y, 410, y)
    c.setFont("Times-Bold", 9)
    for x, head in zip(xs, ("Site", "Depth", "Colonies", "Lost"), strict=True):
        c.drawString(x, y - 11, head)
    y -= 16
    c.line(72, y, 410, y)
    c.setFont("Times-Roman", 9)
    for k, row in enumerate((("Lizard Island", "4 m", "120", "9%"), ("Heron Reef", "9 m", "96", "2%"),
                             ("Osprey Reef", "12 m", "143", "0%"), ("Kimbe Bay", "6 m", "88", "4%"))):
        y -= 11 + (8 if k % 2 == 0 and k else 0)
        for x, v in zip(xs, row, strict=True):
            c.drawString(x, y, v)
    y -= 6
    c.line(72, y, 410, y)
    p.y = y - 20
    p.text(BODY, chars=70)
    c.save()
