"""Where a page draws pictures (`pdf_graphics.page_graphics`), on a PDF drawn here with reportlab:
paths, a small form taken whole (never its own strokes), a page-sized form looked into through
its matrix, and text left out."""

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.objects.graphics import page_graphics

from .pdf_fixtures import first_page


def test_boxes_of_paths_forms_and_wrapped_objects_in_page_space(tmp_path):
    path = tmp_path / "g.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)  # 612 x 792 points
    c.beginForm("plot", 0, 0, 100, 50)  # a picture of two strokes
    c.rect(0, 0, 100, 50, stroke=1, fill=0)
    c.line(10, 10, 90, 40)
    c.endForm()
    c.beginForm("wrapper", 0, 0, 612, 792)  # a page-sized form around one small box
    c.rect(300, 100, 80, 60, stroke=0, fill=1)
    c.endForm()
    c.rect(72, 600, 120, 90, stroke=0, fill=1)
    c.saveState()
    c.translate(300, 500)
    c.scale(2, 2)
    c.doForm("plot")
    c.restoreState()
    c.saveState()
    c.translate(10, 20)
    c.doForm("wrapper")
    c.restoreState()
    c.setFont("Helvetica", 10)
    c.drawString(72, 300, "Some text that is not a picture.")
    c.save()
    boxes = first_page(path, page_graphics)
    want = [(72, 102, 192, 192),  # the path, top-down
            (300, 192, 500, 292),  # the form, scaled by 2, taken whole (its /BBox clips its frame's outer half-stroke)
            (310, 612, 390, 672)]  # the wrapped box, moved by the wrapper's matrix
    assert len(boxes) == len(want)
    for got, expected in zip(boxes, want):
        assert got == pytest.approx(expected, abs=0.5)


def test_a_form_shows_only_what_its_clip_lets_through(tmp_path):
    """A figure placed as a form holding far more than it shows (a plot's whole canvas), cropped by the
    including page's clip to the figure's frame (arxiv-cvpr-2016, dev half: three figures' boxes spread
    over the column beside them, and the captions found no region): the box is the clip's part; a form
    drawn wholly outside its clip shows nothing."""
    path = tmp_path / "clip.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.beginForm("canvas", 0, 0, 450, 260)  # the artwork: much wider and taller than the part shown
    c.rect(0, 0, 450, 260, stroke=1, fill=0)
    c.line(20, 20, 430, 240)
    c.endForm()
    for clip in ((50, 500, 236, 104), (500, 100, 50, 50)):  # the shown frame; a frame missing the form
        c.saveState()
        frame = c.beginPath()
        frame.rect(*clip)
        c.clipPath(frame, stroke=0, fill=0)
        c.translate(0, 480)
        c.doForm("canvas")
        c.restoreState()
    c.save()
    boxes = first_page(path, page_graphics)
    assert boxes == [pytest.approx((50, 188, 286, 292), abs=0.5)]
