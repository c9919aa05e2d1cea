"""A chart whose axis title, set far smaller than the body, lies a little more than a body line's gap
above its caption (gnuplot's figures in acm-spaa-2004, dev half: 24.2 pt): the walk up from the caption
stopped at that gap before it reached the drawing, and the caption had no region (or a blank stretch
under it).  The first thing met may lie a wider gap away when it is a drawing, a row of cells, or a line
set far smaller than the body.  A generated page (truth by construction) and the dev pages."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .conftest import shared
from .object_fixtures import object_units
from .region_fixtures import justified_prose

_L, _COL = 54.0, 240.0
_TEXT = ("the scheduling algorithm performs well on simple cases and its ratio for the minsum criterion is "
         "never more than two and a half on any of the instances we have tried so far").split()


def _prose(c: canvas.Canvas, x: float, y: float, lines: int) -> None:
    justified_prose(c, _TEXT, x, y, lines, 9, 10.5, 9, _COL)


def _chart(c: canvas.Canvas, x: float, top: float, bottom: float) -> float:
    """A framed plot with ticks and a curve; returns the axis title's baseline."""
    c.rect(x + 20, bottom, _COL - 30, top - bottom)
    for k in range(6):
        c.line(x + 20 + k * 40, bottom, x + 20 + k * 40, bottom + 4)
        c.setFont("Helvetica", 5)
        c.drawString(x + 18 + k * 40, bottom - 7, str(50 * k))
    c.lines([(x + 20 + k * 20, bottom + 10 + (k * k) % 90, x + 40 + k * 20, bottom + 10 + ((k + 1) ** 2) % 90)
             for k in range(10)])
    c.drawString(x + 100, bottom - 14, "Number of tasks")
    return bottom - 14


def test_a_chart_whose_small_axis_title_lies_far_above_its_caption(tmp_path):
    path = tmp_path / "chart.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _prose(c, _L, 740, 66)
    _prose(c, _L + _COL + 24, 740, 30)
    title = _chart(c, _L + _COL + 24, 420, 290)
    c.setFont("Times-Bold", 9)
    c.drawString(_L + _COL + 40, title - 24.5 - 7, "Figure 7: Execution time of the algorithm.")
    _prose(c, _L + _COL + 24, title - 60, 20)
    c.save()
    objs = object_units(path)
    region = objs["Figure 7"].region
    assert region is not None, objs["Figure 7"]
    x0, y0, x1, y1 = region["bbox"]
    assert y0 >= title - 3 and y1 >= 415 and x0 < _L + _COL + 50, region  # the chart above the caption


def test_the_scheduling_paper_charts_sit_above_their_captions():
    data = shared("pdfs-wide", "acm-spaa-2004-bicriteria-scheduling.pdf").read_bytes()
    objs = object_units(data)
    for label in ("Figure 3", "Figure 4", "Figure 6", "Figure 7"):
        region, caption = objs[label].region, objs[label].region and objs[label].region["caption_bbox"]
        assert region is not None and caption is not None, label
        assert region["bbox"][1] >= caption[3] - 1 and region["bbox"][3] - region["bbox"][1] > 150, (label, region)
