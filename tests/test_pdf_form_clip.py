"""A figure placed as a form is as big as its drawing shows (`pdf/graphics._inked`, issue #38): pdfium's
bounds of a form take in strokes its /BBox clips away, so a chart whose line runs past its frame spread
its region to the page's top.  A generated page (truth by construction) and the dev paper it was seen on
(usenix-nsdi-2011-mesos Figure 9, box read by hand in bench/data/regions_hand.json)."""

from pathlib import Path

from .conftest import shared
from .object_fixtures import object_units


def _chart_paper(path: Path) -> None:
    """A chart drawn as a form with a 200 x 100 /BBox at (330, 520), one stroke running 300 pt past it,
    its caption under it, text in both columns around."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=letter)
    c.beginForm("chart", 0, 0, 200, 100)
    c.rect(10, 10, 180, 80)
    c.line(10, 10, 190, 400)  # clipped away by the /BBox: nothing of it shows over y = 100
    c.setFont("Helvetica", 7)
    c.drawString(20, 50, "Running Time (s)")
    c.endForm()
    c.saveState()
    c.translate(330, 520)
    c.doForm("chart")
    c.restoreState()
    c.setFont("Times-Roman", 9)
    c.drawString(330, 505, "Figure 1: Hadoop and Spark logistic regression running times.")
    c.setFont("Times-Roman", 10)
    for k in range(40):
        c.drawString(72, 740 - 13 * k, "Running text of the left column goes on here")
        if k >= 19:
            c.drawString(330, 490 - 13 * (k - 19), "Right column text goes on here too, line by")
    c.save()


def test_a_form_drawn_past_its_frame_is_its_frame(tmp_path):
    path = tmp_path / "form.pdf"
    _chart_paper(path)
    region = object_units(path)["Figure 1"].region
    assert region is not None and region["page"] == 1
    x0, y0, x1, y1 = region["bbox"]
    assert 515 <= y0 <= 535 and 610 <= y1 <= 625, region  # the frame (530-610) within its /BBox (520-620)


def _iou(a: list[float], b: list[float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union else 0.0


def test_dev_chart_past_the_page_top():
    path = shared("pdfs-wide", "usenix-nsdi-2011-mesos.pdf")
    region = object_units(path)["Figure 9"].region
    assert region["page"] == 12 and _iou(region["bbox"], [318, 640, 555, 715]) >= 0.5, region
