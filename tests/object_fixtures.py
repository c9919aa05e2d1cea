"""Generated PDFs for figure and table regions, their truth known by construction: tables above and
below their captions with the header row above the first ruled line, labels in other languages and
styles, tables collected after the references, and a landscape page turned by /Rotate."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import BODY, _wrap

W, H = letter
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


def collected_paper(path: str) -> None:
    """Text, references, then the tables collected one per page at the end of the manuscript."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    for _ in range(4):
        p.text(BODY)
    p.text("References", font="Helvetica-Bold", size=11)
    p.text("1. Okafor A. Reef bleaching by depth. Example Reef Studies 2021;4:1-9.")
    c.showPage()
    for n, rows in ((1, ROWS), (2, [["Site", "Recovered", "Lost"], ["Orpheus Island", "61%", "8%"]])):
        p = Page(c)
        p.caption(f"Table {n} Bleaching and recovery by site (survey {n}).")
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
