"""Generated PDFs for figure and table regions, their truth known by construction: tables above and
below their captions with the header row above the first ruled line, labels in other languages and
styles, tables collected after the references, and a landscape page turned by /Rotate."""

from __future__ import annotations

import random
import re

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from . import object_cells
from .object_cells import CELL_CLASSES, cell_class, decimal_points, draw_groups, draw_marked, point_offset
from .object_classes import (
    CLOCKWISE,
    VARIANTS3,
    WRAPPED,
    draw_spanner,
    margin_width,
    place_beside,
    spanner,
    text_cells,
    wrapped_cells,
)
from .object_labels import label_style, printed_label, styled_label
from .object_margins import FOURTH, empty_third, leaves_third, margin_column, place_in_margin
from .object_pages import (
    FIFTH,
    FIFTH_ONE,
    PAPERS5,
    SIXTH,
    SIXTH_TWO,
    draw_caption,
    place_continued,
    place_wrapped,
    small_paragraph,
    turned_foot,
)
from .pdf_fixtures import BODY, _wrap

W, H = letter


def object_units(source) -> dict:
    """The object units the reader makes of a PDF (a path, or its bytes), by label: what every region
    and caption test reads."""
    from papershelf.ingest.pdf import read_pdf
    from papershelf.units import build_units

    data = source if isinstance(source, bytes) else source.read_bytes()
    return {u.object_label: u for u in build_units(read_pdf(data), "p") if u.kind == "object"}
LEFT = 72
TEXT_W = W - 2 * LEFT
ROWS = [["Site", "Depth", "Bleached"], ["Lizard Island", "4 m", "37%"], ["Heron Reef", "9 m", "12%"],
        ["Ningaloo", "15 m", "3%"]]


class Page:
    """One-column text flowing down a page, with tables and captions placed in the flow."""

    def __init__(self, c: canvas.Canvas, width: float = W, height: float = H) -> None:
        self.c, self.width, self.height = c, width, height
        self.y = height - 72

    def text(self, text: str, font: str = "Times-Roman", size: float = 10, chars: int = 95) -> None:
        for line in _wrap(text, chars):
            self.c.setFont(font, size)
            self.c.drawString(LEFT, self.y, line)
            self.y -= size * 1.25
        self.y -= 8

    def caption(self, text: str) -> None:
        self.text(text, font="Helvetica", size=9, chars=105)

    def table(self, rows: list[list[str]], rule_above_header: bool = False, width: float = TEXT_W) -> None:
        """Rows side by side; rules under the header and under the last row.  The header row
        sits above the first rule unless `rule_above_header` draws one above it too."""
        c = self.c
        c.setLineWidth(0.6)
        if rule_above_header:
            c.line(LEFT, self.y + 11, LEFT + width, self.y + 11)
        for r, row in enumerate(rows):
            c.setFont("Times-Bold" if r == 0 else "Times-Roman", 9)
            for k, cell in enumerate(row):
                c.drawString(LEFT + 2 + k * width / len(row), self.y, cell)
            if r == 0:
                c.line(LEFT, self.y - 4, LEFT + width, self.y - 4)
            self.y -= 14
        c.line(LEFT, self.y + 10, LEFT + width, self.y + 10)
        self.y -= 14

    def chart(self, label: str, height: float = 110) -> None:
        c = self.c
        c.rect(LEFT + 40, self.y - height, TEXT_W - 80, height)
        for k in range(5):
            c.rect(LEFT + 70 + 50 * k, self.y - height + 10, 24, 12 + 16 * k, fill=1)
        c.setFont("Helvetica", 7)
        c.drawString(LEFT + 60, self.y - 12, label)
        self.y -= height + 14


def _opened(c: canvas.Canvas, title: str) -> Page:
    """A first page with the paper's title set over the text."""
    p = Page(c)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(LEFT, p.y, title)
    p.y -= 40
    return p


def norm_text(s: str) -> str:
    """Text with its runs of white space one space, lower case: a table's cells found in its text."""
    return re.sub(r"\s+", " ", s).strip().lower()


def inside(box, bbox, slack: float = 2.0) -> bool:
    """The centre of `box` within `bbox` (`slack` points either way): a piece of an object's own text
    in its region (bench/synthetic_objects.py and the region tests check alike)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return bbox[0] - slack <= cx <= bbox[2] + slack and bbox[1] - slack <= cy <= bbox[3] + slack


def meets(box, bbox) -> bool:
    """`box` and `bbox` overlap by more than a point each way: a line of running text in a region."""
    return min(box[2], bbox[2]) - max(box[0], bbox[0]) > 1 and min(box[3], bbox[3]) - max(box[1], bbox[1]) > 1


def ruled_table_page(path: str, caption: str) -> tuple[canvas.Canvas, Page, float]:
    """A 460 x 640 pt page: a paragraph, a table's caption and the table's top rule (72 to 410 pt): the
    canvas, its flow and the rule's height, for the table tests that draw their own head and rows under it."""
    c = canvas.Canvas(path, pagesize=(460, 640))
    p = Page(c, 460, 640)
    p.text(BODY, chars=70)
    p.caption(caption)
    y = p.y - 6
    c.setLineWidth(0.6)
    c.line(72, y, 410, y)
    return c, p, y


def placement_paper(path: str) -> None:
    """Page 1: a table above its caption (header row above the first rule), a paragraph above the
    table and one under the caption.  Page 2: a caption above its table (no rule over the header)
    with a paragraph right under the table."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    p.text("1 Introduction", font="Helvetica-Bold", size=11)
    p.text(BODY)
    p.text("The depth profile of bleaching in three reefs opens the results of this survey season.")
    p.table(ROWS)
    p.caption("Table 1. Bleaching by depth and site, as surveyed in the first month.")
    p.text("Shallow reefs bleached first, while the deepest colonies kept their colour all season. " + BODY)
    c.showPage()
    p = Page(c)
    p.text(BODY)
    p.caption("Table 2: Recovery by site after the season.")
    p.table([["Site", "Recovered", "Lost"], ["Orpheus Island", "61%", "8%"], ["Osprey Reef", "44%", "19%"]])
    p.text("Recovery was slowest where the water stayed warmest for longest. " + BODY)
    c.showPage()
    c.save()


def language_paper(path: str) -> None:
    """A Portuguese paper: "Tabela 1 –" over its table, "Figura 1." under its chart, a "Gráfico 1"."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Branqueamento de corais por profundidade")
    p.text("Os recifes rasos branquearam primeiro, e as colônias mais profundas mantiveram a cor durante "
           "toda a estação, como mostra a Tabela 1 e a Figura 1 deste estudo de campo.")
    p.caption("Tabela 1 – Branqueamento por profundidade e local.")
    p.table([["Local", "Profundidade", "Branqueado"], ["Ilha Lagarto", "4 m", "37%"], ["Recife Garça", "9 m", "12%"]])
    p.text("A recuperação foi mais lenta onde a água ficou quente por mais tempo durante o verão inteiro.")
    p.chart("fração branqueada")
    p.caption("Figura 1. Fração de colônias branqueadas ao longo de quatro meses.")
    p.text("As colônias profundas recuperaram a cor em poucas semanas depois do pico de temperatura.")
    c.showPage()
    c.save()


def collected_paper(path: str, prefix: str = "") -> None:
    """Text, references, then the tables collected one per page at the end of the manuscript
    (labelled "Table A1", "Table A2" with ``prefix="A"``: an appendix's tables)."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    for _ in range(4):
        p.text(BODY)
    p.text("References", font="Helvetica-Bold", size=11)
    p.text("1. Okafor A. Reef bleaching by depth. Example Reef Studies 2021;4:1-9.")
    c.showPage()
    for n, rows in ((1, ROWS), (2, [["Site", "Recovered", "Lost"], ["Orpheus Island", "61%", "8%"]])):
        p = Page(c)
        p.caption(f"Table {prefix}{n} Bleaching and recovery by site (survey {n}).")
        p.table(rows, rule_above_header=True)
        p.text("Values are the share of tagged colonies; n = 40 per site.", size=8)
        c.showPage()
    c.save()


def rotated_paper(path: str) -> None:
    """Page 1 upright text; page 2 a portrait page turned by /Rotate 90 holding a landscape table
    (its caption above) and a chart (its caption below), drawn turned so that they read upright."""
    c = canvas.Canvas(path, pagesize=letter)
    p = Page(c)
    for _ in range(3):
        p.text(BODY)
    c.showPage()
    c.setPageRotation(90)
    c.saveState()
    c.translate(W, 0)
    c.rotate(90)  # user space now runs along the page's long side: landscape, as shown after /Rotate 90
    p = Page(c, width=H, height=W)
    p.text(BODY, chars=130)
    p.caption("Table 3. Bleaching by depth and site, landscape.")
    p.table(ROWS, width=H - 2 * LEFT)
    p.text("Shallow reefs bleached first while the deepest colonies kept their colour all season long.", chars=130)
    p.chart("fraction bleached", height=90)
    p.caption("Figure 2. Bleached fraction of colonies across months, landscape.")
    c.restoreState()
    c.showPage()
    c.save()


def ruled_side_paper(path: str) -> None:
    """A ruled table above its caption, and under the caption a small unruled key of two rows set
    side by side: both sides look like cells, the rules say where the table is."""
    c = canvas.Canvas(path, pagesize=letter)
    p = Page(c)
    p.text(BODY)
    p.table(ROWS)
    p.caption("Table 1. Bleaching by depth and site.")
    for row in (["Season", "2019", "2020"], ["Colonies", "40", "38"]):
        c.setFont("Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(LEFT + 2 + k * 150, p.y, cell)
        p.y -= 14
    p.y -= 10
    p.text("Shallow reefs bleached first. " + BODY)
    c.save()


def turned_content_paper(path: str) -> None:
    """An upright page (no /Rotate) whose landscape content is drawn turned a quarter: its text runs
    up the page, as an older preprint's landscape table page does; a table under its caption, a
    paragraph close under the table, a chart over its caption."""
    c = canvas.Canvas(path, pagesize=letter)
    p = Page(c)
    p.text(BODY)
    c.showPage()
    c.translate(W, 0)
    c.rotate(90)
    p = Page(c, width=H, height=W)
    p.text(BODY, chars=130)
    p.caption("Table 4. Bleaching by depth and site, drawn turned.")
    p.table(ROWS, width=H - 2 * LEFT)
    p.text("Shallow reefs bleached first while the deepest colonies kept their colour all season long.", chars=130)
    p.chart("fraction bleached", height=90)
    p.caption("Figure 3. Bleached fraction of colonies across months, drawn turned.")
    c.showPage()
    c.save()


def sideways_paper(path: str, caption_turned: bool) -> None:
    """Page 2 upright: two paragraphs, then a landscape table set sideways in the space under them
    (turned a quarter, reading up the page), its caption turned with it or set upright above it, and a
    last paragraph beside nothing: a portrait page with a table too wide for it."""
    c = canvas.Canvas(path, pagesize=letter)
    p = Page(c)
    p.text(BODY)
    c.showPage()
    p = Page(c)
    for _ in range(2):
        p.text(BODY)
    if not caption_turned:
        p.caption("Table 2. Bleaching by depth and site, set sideways.")
    top = p.y
    c.saveState()
    c.translate(LEFT + 210, 82 - LEFT)
    c.rotate(90)  # local (u, v) is drawn at (LEFT + 210 - v, 82 - LEFT + u): text reads up the page
    q = Page(c, width=top - 72, height=300)
    q.y = 200
    if caption_turned:
        q.caption("Table 2. Bleaching by depth and site, set sideways.")
    q.table(ROWS + [["Osprey Reef", "20 m", "1%"], ["Scott Reef", "6 m", "22%"]], width=top - 96)
    c.restoreState()
    c.setFont("Times-Roman", 10)
    c.drawString(LEFT + 260, 300, "Deeper colonies kept their colour.")
    c.showPage()
    c.save()


def wide_header_paper(path: str) -> None:
    """A two-column page: paragraphs in both columns, a caption shorter than a column, under it a
    page-wide table whose header row sits above its first rule (nothing ruled near the caption), and
    paragraphs in both columns under the table."""
    c = canvas.Canvas(path, pagesize=letter)
    col_w, gutter = (TEXT_W - 18) / 2, 18

    def columns(y: float) -> float:
        c.setFont("Times-Roman", 10)
        lines = _wrap(BODY, 46)
        for k in range(2):
            for i, ln in enumerate(lines):
                c.drawString(LEFT + k * (col_w + gutter), y - 12.5 * i, ln)
        return y - 12.5 * len(lines) - 14

    y = columns(H - 72)
    c.setFont("Helvetica", 9)
    c.drawString(LEFT, y, "Table 1. Bleaching by site.")
    y -= 22
    rows = [["Site", "Depth", "Colonies", "Bleached", "Recovered", "Lost"], ["Lizard Island", "4 m", "120", "37%",
            "21%", "9%"], ["Heron Reef", "9 m", "96", "12%", "8%", "2%"], ["Ningaloo", "15 m", "143", "3%", "2%", "0%"]]
    for r, row in enumerate(rows):
        c.setFont("Times-Bold" if r == 0 else "Times-Roman", 9)
        for k, cell in enumerate(row):
            c.drawString(LEFT + 2 + k * TEXT_W / len(row), y, cell)
        if r == 0:  # a second header line ("name"), the rule under it: well away from the caption
            c.drawString(LEFT + 2, y - 12, "(name)")
            c.setLineWidth(0.6)
            c.line(LEFT, y - 17, LEFT + TEXT_W, y - 17)
            y -= 12
        y -= 16
    c.line(LEFT, y + 10, LEFT + TEXT_W, y + 10)
    columns(y - 10)
    c.save()


def close_paragraph_paper(path: str) -> None:
    """Objects set tight against short paragraphs: a table over its caption with a two-line
    paragraph right above it, a caption over a table with a two-line paragraph right under it, a
    figure under its caption with a one-line paragraph just above the caption."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    p.text(BODY)
    p.text("The depth profile of bleaching opens the results of this survey season and sets the "
           "scene for what follows.", chars=95)
    p.y += 8  # no gap: the table follows the paragraph's last line at the line pitch
    p.table(ROWS)
    p.caption("Table 1. Bleaching by depth and site, as surveyed in the first month.")
    p.caption("Table 2: Recovery by site after the season.")
    p.table([["Site", "Recovered", "Lost"], ["Orpheus Island", "61%", "8%"], ["Osprey Reef", "44%", "19%"]])
    p.y += 14
    p.text("Recovery was slowest where the water stayed warmest for longest in every one of the "
           "reefs we surveyed.", chars=95)
    p.text("Shallow colonies lost most.")
    p.caption("Figure 1. Bleached fraction of colonies across months.")
    p.chart("fraction bleached")
    p.text(BODY)
    c.showPage()
    c.save()


def stacked_tables_paper(path: str) -> None:
    """Two tables each under its caption, the second caption set right under the first table's
    last rule: the first table lies above the second caption but is not its table."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    p.text(BODY)
    p.caption("Table 1. Bleaching by depth and site.")
    p.table(ROWS, rule_above_header=True)
    p.y += 10
    p.caption("Table 2. Recovery by site after the season.")
    p.table([["Site", "Recovered", "Lost"], ["Orpheus Island", "61%", "8%"], ["Osprey Reef", "44%", "19%"]],
            rule_above_header=True)
    p.text(BODY)
    c.showPage()
    c.save()


def facing_tables_paper(path: str) -> None:
    """Two tables stacked with no text between them, captions on the outer sides (the first caption
    over its table, the second under its own), nothing but their columns telling where one ends."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    p.text(BODY)
    p.caption("Table 1. Bleaching by depth and site.")
    p.table(ROWS)
    p.y += 8
    p.table([["Reef zone", "Recovered", "Lost", "Tagged", "Year"], ["Outer slope", "61%", "8%", "40", "2019"],
             ["Lagoon patch", "44%", "19%", "38", "2020"], ["Reef flat", "12%", "51%", "35", "2021"]])
    p.caption("Table 2. Recovery by reef zone after the season.")
    p.text(BODY)
    c.showPage()
    c.save()

# ---------------------------------------------------------------------------------------------
# Generated papers at scale: one seed, one layout, its truth by construction.
#
# `synthetic_paper(seed)` draws a paper in a layout picked from the seed (one or two columns, page
# turned by /Rotate or content drawn turned on an upright page, fonts and sizes, tables ruled as a
# grid / booktabs / with the header above the first rule / unruled / boxed, multi-line cells and
# headers, figures as vector charts or raster images, captions above or below, a paragraph set
# close under the object) and returns the PDF and, per object, its page, its drawn box (PDF points,
# bottom-left origin, as the page is shown), the centres of its own text, and its cells.

_WORDS = ("the survey measured colonies across reefs while water temperature rose during summer and the "
          "deeper sites kept their colour longer than shallow ones so that recovery depended on depth light "
          "and current as well as on the species mix recorded at each transect over several seasons").split()
_NAMES = ("Lizard Island", "Heron Reef", "Ningaloo Coast", "Osprey Reef", "Orpheus Island", "Palau Lagoon",
          "Moorea North", "Eilat Gulf", "Aldabra Atoll", "Kimbe Bay", "Raja Ampat", "Tubbataha Reef")
_HEADS = ("Depth", "Mean", "SD", "Colonies", "Bleached", "Recovered", "Lost", "Ratio", "Year", "Dose",
          "Cover", "Growth", "Survival", "Index")
_FONTS = (("Times-Roman", "Times-Bold"), ("Helvetica", "Helvetica-Bold"), ("Courier", "Courier-Bold"))
TBox = tuple[float, float, float, float]  # x0, y0, x1, y1 with y up (reportlab's page space)


def _sentence(rng, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _number(rng) -> str:
    style = rng.randrange(5)
    v = rng.uniform(0.1, 99)
    return (f"{v:.1f}", f"{v / 100:.2f}", f"{int(v)}%", f"{int(v * 37):,}", f"{v:.1f} ± {v / 10:.1f}")[style]


def _text_box(c, x: float, y: float, text: str, font: str, size: float) -> TBox:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    c.setFont(font, size)
    c.drawString(x, y, text)
    return x, y - 0.22 * size, x + stringWidth(text, font, size), y + 0.72 * size


def _union_box(boxes: list[TBox]) -> TBox:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _wrap_width(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    out, cur = [], ""
    for w in text.split():
        if cur and stringWidth(f"{cur} {w}", font, size) > width:
            out.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    return out + [cur] if cur else out


class _Table:
    """A table planned to fit `width`: its rows (each cell a list of printed lines) and rule style."""

    variant: str | None = None  # the generated class it was drawn for (`VARIANTS`), None for the first set
    fifth: str | None = None  # the fifth set's class it was drawn for (`object_pages.FIFTH`), else None
    group: str | None = None  # a group head over the numeric columns (`object_classes.spanner`)
    whole = False  # truth holds each cell's whole text, not its printed lines (`object_classes.wrapped_cells`)
    row_gap = 0.0  # extra space between rows, beyond the line pitch
    centred = False  # a row's cells set vertically centred on its tallest (`object_cells.centred_cells`)
    marks = False  # cells carry raised or lowered marks written ``^a`` / ``_2`` (`object_cells.script_marks`)
    groups: list[str] | None = None  # group heads over pairs of columns (`object_cells.group_heads`)
    decimal = False  # values aligned on their decimal points (`object_cells.decimal_columns`)

    STYLES = ("grid", "booktabs", "header_above", "unruled", "boxed")

    def __init__(self, rng, width: float, font: tuple[str, str], size: float, variant: str | None = None) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        self.font, self.size, self.style = font, size, rng.choice(self.STYLES)
        self.lead = size * rng.uniform(1.25, 1.6) * (1.9 if variant == "loose_rows" else 1.0)
        ncols = rng.randint(3, 6)
        multi = rng.random() < 0.35  # the first column's names wrap onto two lines
        heads = [["Site"] if not multi else ["Site", "name"]] + [[h] for h in rng.sample(_HEADS, ncols - 1)]
        if rng.random() < 0.3:
            heads[1] = [heads[1][0], "(mean)"]
        if variant == "word_header":  # headers of words set close: the row reads as a line of text
            heads = [[h] for h in ("Reef site", "Mean depth", "Colonies surveyed", "Share bleached", "Recovery rate",
                                   "Years observed")[:len(heads)]]
            self.style = "header_above"
        rows = [[n.split(" ", 1) if multi else [n] for n in [rng.choice(_NAMES)]] + [[_number(rng)] for _ in heads[1:]]
                for _ in range(rng.randint(2, 8))]
        self.rows = [heads] + rows

        def col_w(k: int) -> float:
            return max(stringWidth(t, font[1], size) for r in self.rows for t in r[k]) + 1.2 * size
        while len(self.rows[0]) > 2 and sum(col_w(k) for k in range(len(self.rows[0]))) > width:
            self.rows = [r[:-1] for r in self.rows]
        ws = [col_w(k) for k in range(len(self.rows[0]))]
        if sum(ws) > width:  # two columns still overrun a narrow column: the table is set smaller
            self.size = size = size * width / sum(ws)
            ws = [col_w(k) for k in range(len(self.rows[0]))]
        spare = (width - sum(ws)) * rng.uniform(0.0, 1.0) * (variant != "word_header")
        self.widths = [w + spare / len(ws) for w in ws]
        self.pad = 0.5 * size
        self.height = sum(max(len(c) for c in r) * self.lead for r in self.rows) + 2 * self.pad

    def cells(self) -> list[str]:
        if self.whole:
            return [" ".join(cell) for r in self.rows for cell in r]
        return ([self.group] if self.group else []) + list(self.groups or []) + \
            [t for r in self.rows for cell in r for t in cell]

    def draw(self, c, x: float, top: float) -> tuple[TBox, list[tuple[str, TBox]]]:
        if self.group:
            return draw_spanner(self, c, x, top)
        if self.groups:
            return draw_groups(self, c, x, top)
        texts: list[tuple[str, TBox]] = []
        y, rules = top - self.pad, [top]
        draw = draw_marked if self.marks else _text_box
        points = decimal_points(self) if self.decimal else None
        for r, row in enumerate(self.rows):
            cx, tall = x, max(len(cell) for cell in row)
            for k, cell in enumerate(row):
                drop = (tall - len(cell)) / 2 if self.centred else 0.0
                for i, t in enumerate(cell):
                    face = self.font[1] if r == 0 else self.font[0]
                    at = y - (i + drop + 0.8) * self.lead
                    shift = points[k] - point_offset(t, face, self.size) if points and r and k else 0.0
                    texts.append((t, draw(c, cx + 0.4 * self.size + shift, at, t, face, self.size)))
                cx += self.widths[k]
            y -= max(len(cell) for cell in row) * self.lead + self.row_gap
            rules.append(y - (self.pad if r == len(self.rows) - 1 else 0))
        right, bottom = x + sum(self.widths), rules[-1]
        c.setLineWidth(0.5)
        drawn = {"grid": rules, "booktabs": [rules[0], rules[1], bottom], "header_above": [rules[1], bottom],
                 "unruled": [], "boxed": [rules[1]]}[self.style]
        for ry in drawn:
            c.line(x, ry, right, ry)
        if self.style == "boxed":
            c.rect(x, bottom, right - x, top - bottom)
        if self.style == "grid":
            cx = x
            for w in [0.0] + self.widths:
                cx += w
                c.line(cx, top, cx, bottom)
            c.line(x, top, x, bottom)
        framed = self.style in ("grid", "boxed", "booktabs")
        boxes = [b for _, b in texts] + ([(x, bottom, right, top)] if framed else [])
        if self.style == "header_above":
            boxes.append((x, bottom, right, rules[1]))
        return _union_box(boxes), texts


class _Figure:
    """A chart drawn with paths (axes, bars or points, tick labels) or a raster picture."""

    variant: str | None = None  # the generated class it was drawn for (tables only)
    fifth: str | None = None  # the fifth set's class it was drawn for (`object_pages.FIFTH`), else None

    def __init__(self, rng, width: float, font: tuple[str, str], size: float) -> None:
        self.rng, self.font, self.size = rng, font, size
        self.kind = rng.choice(("bars", "points", "raster", "raster"))
        self.width = width * rng.uniform(0.6, 1.0)
        self.height = min(rng.uniform(90, 220), 0.9 * self.width)

    def draw(self, c, x: float, top: float) -> tuple[TBox, list[tuple[str, TBox]]]:
        rng, small = self.rng, max(6.0, self.size - 2)
        x += rng.uniform(0, 1) * 0  # figures start at the column's edge or are centred by the caller
        if self.kind == "raster":
            return self._raster(c, x, top)
        texts: list[tuple[str, TBox]] = []
        left, bottom = x + 3 * small, top - self.height + 2.5 * small
        right = x + self.width
        c.setLineWidth(0.7)
        c.line(left, bottom, right, bottom)
        c.line(left, bottom, left, top)
        n = rng.randint(4, 9)
        step = (right - left) / (n + 1)
        for k in range(n):
            h = rng.uniform(0.1, 0.9) * (top - bottom)
            if self.kind == "bars":
                c.rect(left + step * (k + 0.6), bottom, 0.6 * step, h, fill=1)
            else:
                c.circle(left + step * (k + 1), bottom + h, 2, fill=1)
            texts.append((str(2000 + k), _text_box(c, left + step * (k + 0.7), bottom - 1.2 * small, str(2000 + k),
                                                   self.font[0], small)))
        for k in range(3):
            yv = bottom + k * (top - bottom - small) / 2
            texts.append((f"{k * 50}", _text_box(c, x, yv - 0.3 * small, f"{k * 50}", self.font[0], small)))
        label = " ".join(rng.sample(_WORDS, 2))
        texts.append((label, _text_box(c, (left + right) / 2 - 20, top - self.height, label, self.font[0], small)))
        return _union_box([b for _, b in texts] + [(left, bottom, right, top)]), texts

    def _raster(self, c, x: float, top: float) -> tuple[TBox, list[tuple[str, TBox]]]:
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        shade = self.rng.randrange(40, 200)
        img = Image.new("RGB", (64, 48), (shade, 120, 255 - shade))
        for i in range(0, 64, 4):
            for j in range(0, 48, 6):
                img.putpixel((i, j), (255, 255, 255))
        c.drawImage(ImageReader(img), x, top - self.height, self.width, self.height)
        return (x, top - self.height, x + self.width, top), []


class _Flow:
    """Text and objects flowing down the columns of the pages of one generated paper."""

    def __init__(self, rng, path: str, variants=None, third=None) -> None:
        from reportlab.lib.pagesizes import A4

        self.rng = rng
        self.third = third  # draws the third set of classes (`object_classes`), None without it
        self.clockwise = third is not None and third.random() < CLOCKWISE
        self.mode = rng.choice(("upright",) * 6 + ("rotate", "content", "wide"))
        pw, ph = rng.choice((letter, A4))
        self.portrait_w = pw
        landscape = self.mode != "upright"
        self.fw, self.fh = (ph, pw) if landscape else (pw, ph)
        # reportlab writes a page turned by /Rotate 90 with its MediaBox swapped: asking for a
        # landscape page gives the upright (portrait) MediaBox that is then shown turned
        self.c = canvas.Canvas(path, pagesize=(ph, pw) if self.mode in ("wide", "rotate") else (pw, ph))
        margin = rng.uniform(45, 80)
        self.ncols = 2 if rng.random() < 0.5 else 1
        gutter = rng.uniform(12, 24)
        self.colw = (self.fw - 2 * margin - (self.ncols - 1) * gutter) / self.ncols
        self.xs = [margin + k * (self.colw + gutter) for k in range(self.ncols)]
        self.top, self.bottom, self.margin = self.fh - margin, margin, margin
        self.font = rng.choice(_FONTS[:2] * 3 + _FONTS[2:])
        self.size = rng.choice((8.5, 9, 9.5, 10, 10.5, 11))
        self.lead = self.size * rng.uniform(1.15, 1.35)
        self.page = 0
        self.truth: list[dict] = []
        self.prose: dict[int, list[TBox]] = {}
        self.pending: list = []
        self.counts = {"table": 0, "figure": 0}
        self.variants = variants  # draws the later classes (`synthetic_paper`), None for the first set
        self.sideways: random.Random | None = None  # draws the sideways tables (`SIDEWAYS`)
        self.wrapped: random.Random | None = None  # draws the tables of wrapped cells (`wrapped_cells`)
        self.cells: random.Random | None = None  # draws the cell layouts (`object_cells`)
        self.spans: random.Random | None = None  # draws how many of three columns an object spans (`three_columns`)
        self.collect: list | None = None  # tables held back to the end of the paper (`collected`)
        self.at_end = False  # placing the tables held back
        self.side_w = 0.0  # the margin column's width, captions set in it (`object_margins.margin_column`)
        self.layout4: str | None = None  # the fourth set's layout (`object_margins`), None without it
        self.fifth: random.Random | None = None  # draws the fifth set's object classes (`object_pages`)
        self.layout5: str | None = None  # the fifth set's paper class (`object_pages.PAPERS5`)
        self.sixth: random.Random | None = None  # draws the sixth set's object classes (`object_pages.SIXTH`)
        self.labels: str | None = None  # the seventh set's label style (`object_labels`)
        self._new_page()

    def three_columns(self, rng) -> None:
        """Set the paper in three columns (the layout drawn by `rng`, a generator of its own, so the
        paper's other draws are unchanged until an object is placed)."""
        gutter = rng.uniform(10, 18)
        self.ncols, self.spans = 3, rng
        self.colw = (self.fw - 2 * self.margin - 2 * gutter) / 3
        self.xs = [self.margin + k * (self.colw + gutter) for k in range(3)]
        self.ys = [self.top] * 3

    def _new_page(self) -> None:
        c = self.c
        if self.page:
            c.showPage()
        self.page += 1
        if self.mode == "rotate":
            c.setPageRotation(270 if self.clockwise else 90)
        if self.mode in ("rotate", "content") and self.clockwise:
            c.translate(0, self.fw)
            c.rotate(-90)
        elif self.mode in ("rotate", "content"):
            c.translate(self.portrait_w, 0)
            c.rotate(90)
        self.col, self.ys = 0, [self.top] * self.ncols
        c.setFont(self.font[0], self.size - 1)
        c.drawString(self.fw / 2, self.bottom - 2.5 * self.size, str(self.page))
        if getattr(self, "layout5", None) == "turned_foot":
            turned_foot(self)
        pending, self.pending = self.pending, []
        for item in pending:
            if item is not None:
                self._place(*item)

    def _room(self, h: float) -> None:
        if self.ys[self.col] - h < self.bottom:
            self.col += 1
            if self.col == self.ncols or (self.col == 2 and leaves_third(self)):
                self._new_page()

    def line(self, text: str, font: str, size: float, indent: float = 0.0) -> None:
        step = max(self.lead, 1.2 * size)
        self._room(step)
        box = _text_box(self.c, self.xs[self.col] + indent, self.ys[self.col] - 0.85 * size, text, font, size)
        self.prose.setdefault(self.page, []).append(box)
        self.ys[self.col] -= step

    def paragraph(self) -> None:
        if small_paragraph(self):
            return
        text = " ".join(_sentence(self.rng, self.rng.randint(6, 20)) for _ in range(self.rng.randint(2, 6)))
        indent = self.size * 1.5 if self.rng.random() < 0.5 else 0.0
        for i, ln in enumerate(_wrap_width(text, self.font[0], self.size, self.colw - indent)):
            self.line(ln, self.font[0], self.size, indent if i == 0 else 0.0)
        self.ys[self.col] -= self.rng.choice((0.0, 0.0, 0.5 * self.lead))

    def heading(self, n: int) -> None:
        self.ys[self.col] -= 0.6 * self.lead
        name = self.rng.choice(("Results", "Methods", "Study sites", "Discussion"))
        self.line(f"{n} {name}" if n else "References", self.font[1], self.size + 1)

    def obj(self, kind: str) -> None:
        span = self.spans.choice((1, 1, 2, 3)) if self.spans is not None else 0
        wide = span > 1 if self.spans is not None else self.ncols == 2 and self.rng.random() < 0.4
        if self.collect is not None and kind == "table":  # set across the page after the references
            wide, span = True, 0
        width = self._width(wide, span)
        variant = self.variants.choice(VARIANTS) if self.variants is not None and kind == "table" else None
        third = self.third.choice(VARIANTS3[kind]) if self.third is not None else None
        if third is not None and variant is None and self.collect is None:
            variant, wide, span = third, False, 0
            width = margin_width(self, kind) if third == "margin_caption" else self.colw
        if self.side_w and self.collect is None:  # every object captioned in the margin column
            variant, wide, span, width = "margin_column", False, 0, self.colw
        if self.sideways is not None and kind == "table" and self.sideways.random() < 0.12:
            variant, wide = self.sideways.choice(SIDEWAYS), False  # a landscape table in the column
            width = min(0.6 * (self.top - self.bottom), 1.6 * self.colw)
        if kind == "table" and variant is None:
            variant = self._cell_layout()
        fifth = self._fifth(kind) or self._sixth(kind)
        if fifth is not None:  # the fifth set's class replaces the object's other class
            variant, wide, span, width = None, False, 0, self.colw * (0.6 if fifth.startswith("wrap") else 1.0)
        size = self.size - (variant != "body_under")
        thing = _Table(self.rng, width, self.font, size, variant) if kind == "table" else \
            _Figure(self.rng, width, self.font, self.size)
        thing.variant = variant
        if variant == "text_cells" and isinstance(thing, _Table) and not text_cells(thing, self.rng, width):
            variant = thing.variant = None  # no room in the column for a column of sentences
        elif variant in ("wrapped_cells",) + CELL_CLASSES and isinstance(thing, _Table) and \
                not self._fits(thing, variant, width):
            variant = thing.variant = None  # the table does not fit the column in that class
        elif variant == "spanner" and isinstance(thing, _Table):
            spanner(thing, self.rng)
        if isinstance(thing, _Figure):
            thing.height = min(thing.height, 0.5 * (self.top - self.bottom))
        self.counts[kind] += 1
        label = styled_label(self.labels, kind, self.counts[kind])
        above = self.rng.random() < (0.7 if kind == "table" else 0.15)
        above = above and variant not in ("word_header", "numbers_under")  # these sit above their captions
        if variant in ("body_under", "stacked"):  # under the caption; stacked: captions on the unusual side
            above = variant == "body_under" or kind == "figure"
        thing.fifth = fifth
        if fifth in ("wrap_text", "wrap_ragged"):
            place_wrapped(self, label, thing, fifth == "wrap_ragged")
        elif not fifth or not fifth.startswith("continued") \
                or not place_continued(self, label, thing, fifth == "continued_column"):
            thing.fifth = None if fifth and fifth.startswith("continued") else fifth
            self._put(kind, label, thing, variant, above, (wide, span))

    def _fifth(self, kind: str) -> str | None:
        """The fifth set's class for an object (`object_pages.FIFTH`, its own generator), else None."""
        if self.fifth is None:
            return None
        pick, at = self.fifth.random(), 0.0
        if self.side_w or self.collect is not None:
            return None
        for name, share in (FIFTH_ONE if kind == "table" and self.ncols == 1 else FIFTH).items():
            at += share
            if pick < at:
                return None if name == "wrap_text" and self.colw < 200 else name
        return None

    def _sixth(self, kind: str) -> str | None:
        """The sixth set's class for an object the fifth set left alone (`object_pages.SIXTH`), else None."""
        if self.sixth is None or self.side_w or self.collect is not None or self.ncols == 3:
            return None
        pick, at = self.sixth.random(), 0.0
        for name, share in (SIXTH_TWO if kind == "table" and self.ncols == 2 else SIXTH).items():
            at += share
            if pick < at:
                return None if name == "wrap_ragged" and self.colw < 200 else name
        return None

    def _put(self, kind: str, label: str, thing, variant: str | None, above: bool, across: tuple[bool, int]) -> None:
        """Place the object as its class sets it (`across`: page-wide, and over how many columns)."""
        wide, span = across
        if variant == "margin_caption":
            place_beside(self, label, thing)
        elif variant == "margin_column":
            place_in_margin(self, label, thing)
        elif variant == "stacked":
            self._place(label, thing, above, False)
            self._stack(kind, above)
        elif variant in SIDEWAYS:
            self._place_sideways(label, thing)
        elif self.collect is not None and kind == "table":
            self.collect.append((label, thing))
        elif wide and not (self.col == 0 and all(y == self.top for y in self.ys)):
            self.pending.append((label, thing, above, True, span))
        else:
            self._place(label, thing, above, wide, span)

    def _cell_layout(self) -> str | None:
        """A plain table's cell layout: wrapped cells, else one of the fourth set (`object_cells`), each
        drawn by a generator of its own (the other papers stay as they were), else None."""
        if self.wrapped is not None and self.wrapped.random() < WRAPPED:
            return "wrapped_cells"
        if self.cells is not None and self.cells.random() < object_cells.CELLS:
            return self.cells.choice(CELL_CLASSES)
        return None

    def _fits(self, thing, variant: str, width: float) -> bool:
        if variant == "wrapped_cells":
            return wrapped_cells(thing, self.wrapped, width)
        return cell_class(thing, self.cells, width, variant)

    def _stack(self, kind: str, above: bool) -> None:
        """A second object of the kind straight after the first, captioned on the same side."""
        thing = _Table(self.rng, self.colw, self.font, self.size - 1) if kind == "table" else \
            _Figure(self.rng, self.colw, self.font, self.size)
        if isinstance(thing, _Figure):
            thing.height = min(thing.height, 0.4 * (self.top - self.bottom))
        thing.variant = "stacked"
        self.counts[kind] += 1
        self.ys[self.col] += 4  # the first object's block ends a few points above the second
        self._place(styled_label(self.labels, kind, self.counts[kind]), thing, above, False)

    def _width(self, wide: bool, span: int) -> float:
        """An object's width: its column's, the page's, or `span` columns' with the gutters between."""
        if not wide:
            return self.colw
        if span and span < self.ncols:
            return self.xs[span - 1] + self.colw - self.margin
        return self.fw - 2 * self.margin

    def collected(self) -> None:
        """The tables held back, after the references: each caption above its table, in one column."""
        if not self.collect:
            return
        self.heading(0)
        for k in range(self.rng.randint(2, 5)):
            ref = f"{k + 1}. {_sentence(self.rng, 12)}"
            for ln in _wrap_width(ref, self.font[0], self.size - 1, self.colw):
                self.line(ln, self.font[0], self.size - 1)
        held, self.collect, self.at_end = self.collect, None, True
        self.pending.append(None)  # the tables start on a new page
        for label, thing in held:
            while len(thing.rows) > 3 and thing.height > 0.75 * (self.top - self.bottom):  # one page holds it
                thing.height -= max(len(cell) for cell in thing.rows.pop()) * thing.lead
            self.pending.append((label, thing, True, True, 0))

    def _caption(self, label: str, width: float) -> tuple[list[str], str, float, bool]:
        rng = self.rng
        n = label.split()[1]
        printed = rng.choice((f"Table {n}.", f"TABLE {n}", f"Table {n}:")) if label.startswith("Table") else \
            rng.choice((f"Figure {n}.", f"Fig. {n}.", f"FIGURE {n}", f"Fig. {n}:"))
        printed = printed_label(self.labels, label, printed)
        font = rng.choice((self.font, ("Helvetica", "Helvetica-Bold")))
        size = self.size - rng.choice((0.0, 1.0, 1.5))
        text = f"{printed} {_sentence(rng, rng.randint(4, 35))}"
        lines = _wrap_width(text, font[0], size, width)
        centred = len(lines) == 1 and rng.random() < 0.4
        return lines, font[0], size, centred

    def _place(self, label: str, thing, above: bool, wide: bool, span: int = 0) -> None:
        """The caption and its object, in the column (or across the page, `wide`, or its first
        `span` columns), caption above the object or below it; a paragraph follows close under it or
        after a gap."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        rng = self.rng
        x0 = self.margin if wide else self.xs[self.col]
        width = self._width(wide, span)
        cap, font, size, centred = self._caption(label, width)
        gap = rng.uniform(4, 10)
        need = thing.height + gap + len(cap) * size * 1.2
        if wide:  # across the columns: under the lowest of them, or on a new page
            self.col = 0
            self.ys = [min(self.ys[:span or self.ncols])] * (span or self.ncols) + self.ys[span or self.ncols:]
            if self.ys[0] - need < self.bottom:
                self._new_page()
        self._room(need)
        x0 = self.margin if wide else self.xs[self.col]
        y = self.ys[self.col]
        obj_w = sum(thing.widths) if isinstance(thing, _Table) else thing.width
        ox = x0 + (width - obj_w) / 2 if rng.random() < 0.6 else x0

        def caption_at(top: float) -> float:
            if getattr(thing, "fifth", None) == "label_caption":
                return draw_caption(self, (cap, font, size, centred), x0, top, width, True)
            for ln in cap:
                cx = x0 + (width - stringWidth(ln, font, size)) / 2 if centred else x0
                _text_box(self.c, cx, top - size, ln, font, size)
                top -= size * 1.2
            return top

        if above:
            y = caption_at(y) - gap
            box, texts = thing.draw(self.c, ox, y)
            y -= thing.height
        else:
            box, texts = thing.draw(self.c, ox, y)
            y = caption_at(y - thing.height - gap)
        after = rng.choice((rng.uniform(2, 5), rng.uniform(10, 18)))
        y -= after
        for k in range((span or self.ncols) if wide else 1):
            self.ys[k if wide else self.col] = y
        self.truth.append({"label": label, "kind": "table" if label.startswith("Table") else "figure",
                           "page": self.page, "bbox": box, "texts": texts,
                           "cells": thing.cells() if isinstance(thing, _Table) else [], "caption": " ".join(cap),
                           "style": thing.style if isinstance(thing, _Table) else thing.kind, "above": above,
                           "wide": wide, "close": after < 6, "variant": getattr(thing, "variant", None),
                           "span": (span or self.ncols) if wide else 1, "collected": self.at_end,
                           "fifth": getattr(thing, "fifth", None)})
        if getattr(thing, "variant", None) == "body_under":  # a paragraph straight under the table
            self.ys[self.col] += after - 2
            self.paragraph()
        if getattr(thing, "variant", None) == "numbers_under":  # a results paragraph full of figures, close under
            self.ys[self.col] += after - 3
            n = [_number(rng) for _ in range(6)]
            text = f"Cover fell from {n[0]} to {n[1]} at the shallow sites and from {n[2]} to {n[3]} at depth, " \
                   f"while recovery reached {n[4]} and {n[5]} by the end of the season."
            for ln in _wrap_width(text, self.font[0], self.size, width if not wide else self.colw):
                self.line(ln, self.font[0], self.size)

    def _place_sideways(self, label: str, thing) -> None:
        """A table set sideways in the column (turned a quarter, reading up the page, its first row
        leftmost), its caption turned with it (`sideways`) or upright above it (`sideways_table`)."""
        rng, c = self.rng, self.c
        turned = thing.variant == "sideways"
        wt = sum(thing.widths)
        cap, font, size, _ = self._caption(label, wt if turned else self.colw)
        cap_h, gap = len(cap) * size * 1.2, rng.uniform(4, 10)
        while len(thing.rows) > 3 and thing.height + (cap_h + gap) * turned > self.colw:
            dropped = thing.rows.pop()
            thing.height -= max(len(cell) for cell in dropped) * thing.lead
        while self.ys[self.col] - (wt + (0 if turned else cap_h + gap)) < self.bottom:
            self.col += 1  # `_room` moves on one column: the next may be as full
            if self.col == self.ncols:
                self._new_page()
        x0, y = self.xs[self.col], self.ys[self.col]
        if not turned:
            for ln in cap:
                _text_box(c, x0, y - size, ln, font, size)
                y -= size * 1.2
            y -= gap
        tx, ty = x0 + (cap_h + gap if turned else 0.0), y - wt
        c.saveState()
        c.translate(tx, ty)
        c.rotate(90)  # local (u, v) is drawn at (tx - v, ty + u): text reads up the page

        def page(b: TBox) -> TBox:
            return tx - b[3], ty + b[0], tx - b[1], ty + b[2]

        if turned:
            top = cap_h + gap
            for ln in cap:
                _text_box(c, 0, top - size, ln, font, size)
                top -= size * 1.2
        box, texts = thing.draw(c, 0, 0)
        c.restoreState()
        after = rng.choice((rng.uniform(2, 5), rng.uniform(10, 18)))
        self.ys[self.col] = ty - after
        self.truth.append({"label": label, "kind": "table", "page": self.page, "bbox": page(box),
                           "texts": [(t, page(b)) for t, b in texts], "cells": thing.cells(), "caption": " ".join(cap),
                           "style": thing.style, "above": True, "wide": False, "close": after < 6,
                           "variant": thing.variant})

    def shown(self, b: TBox) -> list[float]:
        """A frame box as the page is shown (PDF points, bottom-left origin)."""
        if self.mode == "content" and self.clockwise:  # frame (x, y) drawn at page (y, H - x)
            return [round(v, 1) for v in (b[1], self.fw - b[2], b[3], self.fw - b[0])]
        if self.mode == "content":  # frame (x, y) drawn at page (W - y, x)
            return [round(v, 1) for v in (self.portrait_w - b[3], b[0], self.portrait_w - b[1], b[2])]
        return [round(v, 1) for v in b]


VARIANTS = (None, None, "word_header", "loose_rows", "numbers_under")  # the later classes, drawn per table
SIDEWAYS = ("sideways", "sideways_table")  # a landscape table in a portrait column: caption turned too, or upright
LATER_LAYOUTS = {"three_columns": 0.3, "collected": 0.2}  # shares of papers set in three columns / tables at the end


def synthetic_paper(seed: int, path: str, first_set: bool = True, third_set: bool = False,
                    wrapped: bool | None = None, cells: bool = True, fourth_set: bool = False,
                    fifth_set: bool = False, sixth_set: bool = False, seventh_set: bool = False) -> dict:
    """A generated paper written to `path`; its truth: the layout and, per object, label, kind,
    page, bbox and caption, the centres of its own text (`inside`), its cells (tables), and per
    page the boxes of its running text (`prose`), all as the page is shown.  Unless `first_set`,
    tables also come in the later classes (`VARIANTS`, drawn by a generator of their own so the
    first set's papers stay as they were): a header of words set close above the first rule, rows
    set loosely, a paragraph full of numbers close under a table above its caption; and tables set
    sideways in a portrait column (`SIDEWAYS`, drawn by a third generator).  With `third_set`, also the
    classes of `object_classes` (drawn by a fifth generator); with `wrapped` (the third set's default),
    tables of cells wrapped over lines (`object_classes.wrapped_cells`, a sixth generator) and, unless not
    `cells`, the cell layouts of `object_cells` (a seventh generator).  With `fourth_set`, the layouts of
    `object_margins` (a margin column for captions, a third column left empty), drawn by an eighth
    generator.  With `fifth_set`, the classes of `object_pages` (text wrapped beside an object, a table
    continued overleaf, a caption's label set larger, running text set smaller past the first page, a
    turned running foot), drawn by a ninth generator; with `sixth_set` (and `fifth_set`), the sixth set's
    classes of `object_pages` (a table continued into the next column, wrapped text set ragged), a tenth.
    With `seventh_set`, the label styles of `object_labels` (labels in other languages, roman-numbered
    tables, plates, a first panel's letter), drawn by an eleventh."""

    rng = random.Random(seed)
    third = random.Random(f"third {seed}") if third_set and not first_set else None
    f = _Flow(rng, path, None if first_set else random.Random(f"variants {seed}"), third)
    f.sideways = None if first_set else random.Random(f"sideways {seed}")
    wrapped = third_set if wrapped is None else wrapped
    f.wrapped = random.Random(f"wrapped {seed}") if wrapped and not first_set else None
    f.cells = random.Random(f"cells {seed}") if wrapped and cells and not first_set else None
    layouts = random.Random(f"layouts {seed}")  # a fourth generator: three columns, tables at the end
    if not first_set and layouts.random() < LATER_LAYOUTS["three_columns"]:
        f.three_columns(layouts)
    if not first_set and layouts.random() < LATER_LAYOUTS["collected"]:
        f.collect = []
    fourth = random.Random(f"fourth {seed}") if fourth_set and not first_set else None
    pick = fourth.random() if fourth is not None else 1.0
    if fourth is not None and pick < FOURTH["margin_column"]:
        margin_column(f, fourth)
        f.layout4 = "margin_column"
    elif fourth is not None and pick < FOURTH["margin_column"] + FOURTH["empty_third"]:
        empty_third(f, fourth)
        f.layout4 = "empty_third"
    if fifth_set and not first_set:
        f.fifth = random.Random(f"fifth {seed}")
        paper = f.fifth.random()
        if paper < PAPERS5["small_text"]:
            f.layout5 = "small_text"
        elif f.mode != "upright" and f.fifth.random() < PAPERS5["turned_foot"]:
            f.layout5 = "turned_foot"
            turned_foot(f)
        f.sixth = random.Random(f"sixth {seed}") if sixth_set else None
    f.labels = label_style(seed) if seventh_set and not first_set else None
    _text_box(f.c, f.margin, f.top - 16, "Depth and recovery of reef corals, " + str(seed), f.font[1], 15)
    f.ys = [f.top - 40] * f.ncols
    section = 1
    more = layouts.randint(1, 3) if f.ncols == 3 else 0  # three narrow columns hold more paragraphs a page
    for _ in range(rng.randint(2, 5)):
        for _ in range(rng.randint(1, 3) + more):
            f.paragraph()
        if rng.random() < 0.3:
            section += 1
            f.heading(section)
        f.obj(rng.choice(("table", "table", "figure")))
    for _ in range(rng.randint(1, 3)):
        f.paragraph()
    f.collected()
    while f.pending:
        f._new_page()
        if not f.at_end:
            f.paragraph()
    f.c.showPage()
    f.c.save()
    objects = [{**t, "bbox": f.shown(t["bbox"]), "inside": [f.shown(b) for _, b in t["texts"]], "texts": None}
               for t in f.truth]
    mode = f.mode + ("_clockwise" if f.clockwise and f.mode != "upright" else "")
    return {"layout": {"mode": mode, "columns": f.ncols, "font": f.font[0], "size": f.size, "fourth": f.layout4,
                       "fifth": f.layout5, "labels": f.labels},
            "objects": objects, "prose": {p: [f.shown(b) for b in boxes] for p, boxes in f.prose.items()}}
