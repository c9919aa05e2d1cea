"""Regions on pages of a scanned print (vldb-1994, dev half), and the hand-read region truth's bench.

A scan stored as strips of image across the whole page gave every page-wide caption a region of the
whole page width (the strips were taken as the object's drawing), and a scanned chart's strokes are
pixels: only its text layer's labels are there, far apart over an empty plot, so the walk stopped
at the first wide gap (a region of the x-axis labels alone).  `graphics._without_strips` leaves the
strips out; `regions._label_reach` lets a chart's small labels lie any gap apart on a side with
nothing drawn.  Generated pages (truth by construction) and the dev paper."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.objects.graphics import page_graphics

from .conftest import shared
from .object_fixtures import object_units
from .pdf_fixtures import first_page
from .region_fixtures import justified_prose

_TEXT = ("the buffer pages of the database were replaced by the algorithm when the scan of the relation "
         "touched pages that were not in the pool").split()


def test_a_page_scanned_in_strips_draws_nothing(tmp_path):
    path = tmp_path / "strips.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    strip = ImageReader(Image.new("L", (200, 8), 230))
    for k in range(32):  # the page's picture in 32 bands across its whole width
        c.drawImage(strip, 0, k * 24.75, width=612, height=24.75)
    c.drawImage(ImageReader(Image.new("RGB", (40, 30), (90, 30, 30))), 100, 300, width=200, height=150)
    c.save()
    boxes = first_page(path, page_graphics)
    assert [tuple(round(v) for v in b) for b in boxes] == [(100, 342, 300, 492)], boxes  # the picture alone


def test_a_scanned_chart_holds_its_labels_across_its_empty_plot(tmp_path):
    """Tick labels in 6 pt over a 10-pt body, 60 pt apart, nothing drawn: the region runs from the axis
    title up to the chart's title, not the x-axis labels alone; the paragraph above stays out."""
    path = tmp_path / "scan.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    justified_prose(c, _TEXT, 54, 740, 6, 10, 12, 8)
    c.setFont("Helvetica", 9)
    c.drawString(90, 640, "hit rate vs. number of buffer pages")
    c.setFont("Helvetica", 6)
    for k, y in enumerate((610, 550, 490)):
        c.drawString(60, y, f"0.{7 - 3 * k}")
    c.drawString(70, 470, "0    5    10    15    20    25    30    35    40")
    c.drawString(110, 460, "percent of pages that are buffered")
    c.setFont("Times-Roman", 10)
    c.drawString(54, 440, "Figure 1: Zipf input comparison with parameter 0.5")
    justified_prose(c, _TEXT, 54, 415, 20, 10, 12, 8)
    c.save()
    region = object_units(path)["Figure 1"].region
    assert region is not None
    x0, y0, x1, y1 = region["bbox"]
    assert 455 < y0 < 462 and 645 < y1 < 652 and x0 < 62, region  # title to axis title, the ticks inside


def test_the_scanned_buffer_paper_charts_and_table():
    data = shared("pdfs-wide", "vldb-1994-2q-buffer.pdf").read_bytes()
    objs = object_units(data)
    for label, page, (top, bottom) in (("Figure 1", 5, (745, 573)), ("Figure 2", 5, (533, 365)),
                                       ("Figure 4", 6, (688, 522)), ("Figure 7", 9, (335, 162))):
        region = objs[label].region
        assert region is not None and region["page"] == page, label
        x0, y0, x1, y1 = region["bbox"]
        assert bottom - 20 < y0 < bottom + 15 and top - 22 < y1 < top + 10 and x1 - x0 < 300, (label, region)
    x0, _, x1, _ = objs["Table 4"].region["bbox"]
    assert x0 > 150 and x1 < 490, objs["Table 4"].region  # the table's width, not the page's strips


def test_the_hand_read_regions_bench_grades_by_overlap():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from regions_hand import iou

    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0
    assert abs(iou((0, 0, 10, 10), (5, 0, 15, 10)) - 1 / 3) < 1e-9
