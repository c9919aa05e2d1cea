"""PDFs the tests make themselves with reportlab: two columns, headings, captions,
a running header, page numbers, a references section; and broken ones."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

W, H = letter
LEFT, RIGHT, COL_W = 54, W / 2 + 12, W / 2 - 66

BODY = ("Macrophages switch from an inflammatory to a repair phenotype as a wound heals, and in diabetic "
        "wounds this switch stalls for reasons that remain unclear despite much work on cytokine signal"
        "ling in chronic inflammation and tissue repair.")


def _wrap(text: str, width_chars: int = 52) -> list[str]:
    lines, cur = [], ""
    for w in text.split():
        if len(cur) + len(w) + 1 > width_chars:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines


class Writer:
    """Flows paragraphs down two columns, page after page."""

    def __init__(self, path: str, header: str = "Journal of Example Studies 12 (2024)", encrypt: str | None = None):
        self.c = canvas.Canvas(path, pagesize=letter, encrypt=encrypt)
        self.header = header
        self.page = 1
        self.col = 0
        self.y = H - 90
        self._start_page()

    def _start_page(self):
        self.c.setFont("Helvetica", 8)
        self.c.drawString(LEFT, H - 40, self.header)
        self.c.drawString(W / 2, 30, str(self.page))

    def _x(self):
        return LEFT if self.col == 0 else RIGHT

    def _need(self, h):
        if self.y - h < 60:
            if self.col == 0:
                self.col, self.y = 1, self.top
            else:
                self.c.showPage()
                self.page += 1
                self._start_page()
                self.col, self.y = 0, H - 90
                self.top = H - 90

    top = H - 90

    def title(self, text: str, authors: str):
        self.c.setFont("Helvetica-Bold", 18)
        self.c.drawCentredString(W / 2, self.y, text)
        self.c.setFont("Helvetica", 11)
        self.c.drawCentredString(W / 2, self.y - 24, authors)
        self.y -= 60
        self.top = self.y

    def heading(self, text: str):
        self._need(30)
        self.y -= 8
        self.c.setFont("Helvetica-Bold", 12)
        self.c.drawString(self._x(), self.y, text)
        self.y -= 18

    def paragraph(self, text: str, font="Times-Roman", size=10, hyphenate_at: str | None = None):
        lines = _wrap(text)
        if hyphenate_at:
            # Break a word across two lines with a hyphen, as typesetters do.
            for n, line in enumerate(lines[:-1]):
                if hyphenate_at in line.split():
                    head, tail = hyphenate_at[:4], hyphenate_at[4:]
                    lines[n] = line.replace(hyphenate_at, head + "-")
                    lines[n + 1] = tail + " " + lines[n + 1]
                    break
        for line in lines:
            self._need(13)
            self.c.setFont(font, size)
            self.c.drawString(self._x(), self.y, line)
            self.y -= 12.5
        self.y -= 8

    def caption(self, text: str):
        self.paragraph(text, font="Helvetica", size=8.5)

    def save(self):
        self.c.save()


def two_column_paper(path: str) -> None:
    w = Writer(path)
    w.title("Trans-Signalling Keeps Wound Macrophages Inflammatory", "Ada Okafor, Lena Brandt")
    w.heading("Abstract")
    w.paragraph("We show that interleukin-6 trans-signalling keeps macrophages inflammatory in chronic wounds.")
    w.heading("1 Introduction")
    for _ in range(3):
        w.paragraph(BODY)
    w.paragraph("Sustained STAT3 phosphorylation is shown in Figure 1, and phenotype markers in Table 1. "
                "The effect needs the soluble receptor and a remarkable persistence of signalling that "
                "outlasts the stimulus by a day.", hyphenate_at="remarkable")
    w.heading("2 Methods")
    w.heading("2.1 Cell culture")
    for _ in range(3):
        w.paragraph(BODY)
    w.caption("Figure 1: Western blot of phosphorylated STAT3 in macrophages stimulated with hyper-IL-6.")
    w.heading("3 Results")
    for _ in range(4):
        w.paragraph(BODY)
    w.caption("Table 1: Macrophage phenotype markers after stimulation.")
    w.paragraph("As Fig. 2 shows, wounds closed two days earlier with the blocker.")
    w.caption("Figure 2. Wound closure over fourteen days in treated and control mice.")
    for _ in range(4):
        w.paragraph(BODY)
    w.heading("References")
    w.paragraph("Rose-John S. Interleukin-6 trans-signalling via the soluble receptor. Example Reviews 2012.")
    w.paragraph("Brandt L. Macrophage plasticity in repair and regeneration. Example Cell 2021.")
    w.save()


def encrypted_pdf(path: str) -> None:
    w = Writer(path, encrypt="secret")
    w.heading("1 Introduction")
    w.paragraph(BODY)
    w.save()


def scanned_pdf(path: str) -> None:
    """Pages with drawings only: what a scan without OCR looks like to a text extractor."""
    c = canvas.Canvas(path, pagesize=letter)
    for _ in range(2):
        for i in range(40):
            c.rect(60, 80 + i * 16, 400 - (i % 7) * 30, 9, fill=1)
        c.showPage()
    c.save()
