"""Columns found in the page's own layout: three and four columns read column by column, band by
band between lines set across them (a figure's caption); two columns read as before.  PDFs are made
here with reportlab, their paragraphs' text known, so the order is truth by construction."""

from __future__ import annotations

import random
import re

from reportlab.lib.pagesizes import landscape, letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.layout.columns import gutters, reading_order
from papershelf.ingest.pdf.text.lines import Line

_WORDS = ("cells were incubated with the compound for two days before the assay and the response was measured "
          "against a control group of matched samples drawn from the same cohort while the model predicts").split()


def _paragraphs(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 14))).capitalize() + "."
                     for _ in range(3)) for _ in range(n)]


class _Flow:
    """Paragraphs set in `n` columns, filling each column before the next, page after page."""

    def __init__(self, path: str, n: int, size: tuple[float, float]) -> None:
        self.c = canvas.Canvas(path, pagesize=size)
        self.n, (self.w, self.h) = n, size
        self.col, self.top, self.y = 0, self.h - 72, self.h - 72

    def col_w(self) -> float:
        return (self.w - 108 - 18 * (self.n - 1)) / self.n

    def across(self, text: str, font: str = "Helvetica", size: float = 9.5) -> None:
        line = ""
        for word in text.split():
            if self.c.stringWidth(f"{line} {word}", font, size) > self.w - 108 and line:
                self._draw(54, line, font, size)
                line = word
            else:
                line = f"{line} {word}".strip()
        self._draw(54, line, font, size)
        self.top = self.y - 8
        self.y = self.top

    def _draw(self, x: float, text: str, font: str, size: float) -> None:
        self.c.setFont(font, size)
        self.c.drawString(x, self.y, text)
        self.y -= 1.2 * size

    def heading(self, text: str) -> None:
        self._room(30)
        self.y -= 4
        self._draw(54 + self.col * (self.col_w() + 18), text, "Times-Bold", 10)

    def paragraph(self, text: str) -> None:
        line = ""
        for word in text.split():
            if self.c.stringWidth(f"{line} {word}", "Times-Roman", 9) > self.col_w() and line:
                self._line(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        self._line(line)
        self.y -= 3

    def _line(self, text: str) -> None:
        self._room(11)
        self._draw(54 + self.col * (self.col_w() + 18), text, "Times-Roman", 9)

    def _room(self, h: float) -> None:
        if self.y - h >= 60:
            return
        if self.col < self.n - 1:
            self.col, self.y = self.col + 1, self.top
            return
        self.c.showPage()
        self.col, self.top, self.y = 0, self.h - 72, self.h - 72


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _read_whole(path: str, paras: list[str]) -> list[str]:
    """The paragraphs not read whole, in order, in the reader's text."""
    with open(path, "rb") as f:
        doc = read_pdf(f.read())
    body = " " + _norm(" ".join(b.text for b in doc.blocks if b.kind != "heading")) + " "
    return [p for p in paras if f" {_norm(p)} " not in body]


def test_three_columns_read_column_by_column_around_a_caption_across_them(tmp_path):
    path = str(tmp_path / "three.pdf")
    flow = _Flow(path, 3, letter)
    flow.c.setFont("Helvetica-Bold", 16)
    flow.c.drawCentredString(flow.w / 2, flow.y, "Starvation Shapes the Germline")
    flow.y -= 40
    abstract = "Abstract text set across the page " + _paragraphs(1, 1)[0]
    flow.across(abstract)
    paras = _paragraphs(24, 2)
    flow.heading("Introduction")
    for p in paras[:10]:
        flow.paragraph(p)
    flow.heading("Results")
    for p in paras[10:16]:
        flow.paragraph(p)
    # the rest of the page's columns below a caption set across them
    flow.c.showPage()
    flow.col, flow.y = 0, flow.h - 72
    caption = "Figure 1. Germ cells counted in starved animals " + _paragraphs(1, 3)[0]
    flow.across(caption, "Helvetica", 8)
    flow.heading("Discussion")
    for p in paras[16:]:
        flow.paragraph(p)
    flow.c.save()
    assert _read_whole(path, [abstract, *paras, caption]) == []
    with open(path, "rb") as f:
        heads = [b.text for b in read_pdf(f.read()).blocks if b.kind == "heading"]
    assert heads[-3:] == ["Introduction", "Results", "Discussion"]


def test_four_columns_on_a_landscape_page(tmp_path):
    path = str(tmp_path / "four.pdf")
    flow = _Flow(path, 4, landscape(letter))
    paras = _paragraphs(22, 5)
    for p in paras:
        flow.paragraph(p)
    flow.c.save()
    assert _read_whole(path, paras) == []


def _line(x0: float, x1: float, top: float, text: str = "a line of running text here") -> Line:
    return Line(page=1, x0=x0, top=top, x1=x1, bottom=top + 9, text=text, size=9.0, bold=False)


def test_gutters_between_three_columns_and_none_in_one():
    three = [_line(x, x + 160, 100 + 11 * k) for k in range(20) for x in (36, 214, 392)]
    assert [(round(a), round(b)) for a, b in gutters(three)] == [(196, 214), (374, 392)]
    one = [_line(54, 558, 100 + 11 * k) for k in range(40)]
    assert gutters(one) == []


def test_two_columns_keep_the_middle_rule():
    """Two columns divided at the page's middle: left column, then right, a line across both cutting
    the band; short lines within the slack of the middle stay in their column, as before."""
    left = [_line(54, 300, 100 + 11 * k) for k in range(15)]
    right = [_line(312, 558, 100 + 11 * k) for k in range(15)]
    across = _line(54, 558, 300, "a caption set across both columns of the page")
    below = [_line(54, 300, 320 + 11 * k) for k in range(5)] + [_line(312, 558, 320 + 11 * k) for k in range(5)]
    runs = reading_order(left + right + [across] + below, 612)
    assert [len(r) for r in runs] == [15, 15, 1, 5, 5]
    assert runs[0][0].x0 == 54 and runs[1][0].x0 == 312 and runs[2] == [across]


def test_one_gutter_off_the_middle_divides_the_columns():
    """A page's two filled columns of three (its last page), or two columns beside a margin: the one
    gutter found is away from the middle, which the first column's lines cross."""
    first = [_line(36, 196, 100 + 11 * k) for k in range(20)]
    second = [_line(214, 374, 100 + 11 * k) for k in range(12)]
    runs = reading_order(second + first, 612)
    assert [len(r) for r in runs] == [20, 12]
    assert all(ln.x0 == 36 for ln in runs[0])



def test_a_short_middle_column_keeps_both_gutters():
    """Beside a figure the middle column holds a few lines: the white either side of it is one run
    that those lines cross, and each side where none crosses is a gutter."""
    page = [_line(x, x + 160, 100 + 11 * k) for k in range(30) for x in (36, 392)]
    page += [_line(214, 374, 100 + 11 * k) for k in range(8)]
    assert [(round(a), round(b)) for a, b in gutters(page)] == [(196, 214), (374, 392)]


def test_a_wide_abstract_over_two_of_three_columns_is_read_before_them():
    """A title page set like Science's: an abstract across the first two columns with the third
    running beside it, a caption across the last two with the first beside it.  Read: abstract, the
    first column, the second, the third, the caption; no line of one interleaved with another's."""
    abstract = [_line(36, 374, 100 + 11 * k, f"abstract line {k} of the wide block") for k in range(10)]
    first = [_line(36, 196, 230 + 11 * k, f"first column line {k} here") for k in range(40)]
    second = [_line(214, 374, 230 + 11 * k, f"second column line {k} here") for k in range(8)]
    third = [_line(392, 552, 100 + 11 * k, f"third column line {k} here") for k in range(30)]
    caption = [_line(214, 552, 500 + 11 * k, f"caption line {k} across two columns") for k in range(6)]
    runs = reading_order(third + caption + second + first + abstract, 612)
    assert [r[0].text.split(" line")[0] for r in runs] == ["abstract", "first column", "second column",
                                                          "third column", "caption"]
    assert [len(r) for r in runs] == [10, 40, 8, 30, 6]


def test_a_one_column_page_reads_a_right_aligned_byline_before_the_abstract_heading():
    """A one-column title page: the byline set flush right under the title, then "Abstract" flush
    left above the abstract's full-width lines.  Both stand beside the middle, but on a page whose
    running text crosses it they are blocks, not columns: read top down, byline first."""
    title = _line(200, 440, 90, "Perception of Fairness of Advancement")
    byline = [_line(380, 440, 125, "Kola Odeku"), _line(300, 440, 146, "Faculty of Management and Law"),
              _line(336, 440, 156, "University of Limpopo")]
    heading = _line(44, 73, 203, "Abstract")
    text = [_line(44, 452, 220 + 11 * k, f"abstract line {k} across the page's one column") for k in range(20)]
    runs = reading_order(text + [heading] + byline + [title], 499)
    order = [ln.text for run in runs for ln in run]
    assert order.index("Kola Odeku") < order.index("University of Limpopo") < order.index("Abstract")
    assert order[0] == title.text and order[-1] == text[-1].text


def test_a_two_column_page_keeps_its_columns_when_one_starts_lower():
    """On a two-column page the left column is read first even where it starts below the right one
    (a figure over its top): columns, not blocks."""
    left = [_line(54, 300, 300 + 11 * k) for k in range(15)]
    right = [_line(312, 558, 100 + 11 * k) for k in range(15)]
    runs = reading_order(right + left, 612)
    assert [run[0].x0 for run in runs] == [54, 312]


def test_an_author_grid_beside_an_abstract_keeps_its_gutters():
    """A landscape extended abstract's first page: two short columns of author cells (few lines, so
    the white run reaches across the second) beside the abstract's column.  Both gutters are found,
    the one crossed by a long copyright line too, and the abstract is read whole after the grid."""
    grid = [_line(x, x + 106, 213 + 12 * k, f"Quality and Usability Lab {k}") for k in range(5) for x in (193, 326)]
    copyright_ = _line(193, 430, 520, "Copyright is held by the author or owners of this work")
    abstract = [_line(475, 712, 224 + 12 * k, f"abstract line {k} of running text here") for k in range(30)]
    found = gutters(grid + [copyright_] + abstract)
    assert len(found) == 2 and found[0][0] >= 299 and found[1][1] <= 475
    order = [ln.text for run in reading_order(abstract + grid + [copyright_], 792) for ln in run]
    first = order.index("abstract line 0 of running text here")
    assert order[first:first + 30] == [ln.text for ln in abstract]
