"""Captions and regions of three dev layouts the hand-read region truth (bench/regions_hand.py) showed wrong.

* A caption with a hanging label (clinsci-2014, pdfs/ dev: "Figure 6  Binding of …", its later lines set
  under "Binding", not under the label): the caption stopped after its first line, and its own text was
  taken as the object under it (`region_rows._hanging`).
* A rule along a page-wide caption (the same paper rules every caption off from the page): the walk took
  it as the object's drawing, and with a chart in the other column the drawing's box held the first
  column's paragraph as the object's own text.
* A chart set across the page beside a caption in the right column, most of it above the caption
  (wiley-aje-2010, pdfs-wide dev): only the part in the caption's column was walked
  (`region_beside.over_gutter`).
"""

from __future__ import annotations

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .conftest import shared
from .object_fixtures import object_units
from .region_fixtures import justified_prose

_TEXT = ("residues of the domain interacting with the compound are shown as sticks and the water mediated "
         "interactions as dashed lines between them").split()
_DETAIL = ["(A) Residues of the domain (cyan) interacting with the compound (purple) are shown as sticks and",
           "water-mediated interactions are shown as black and red dashed lines respectively while the electron",
           "density map for the compound is contoured at one sigma around the ligand in the active site pocket."]


def test_a_caption_with_a_hanging_label_goes_on_under_its_words(tmp_path):
    path = tmp_path / "hanging.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    justified_prose(c, _TEXT, 58, 740, 8, 9, 11.5, 8, 230)
    justified_prose(c, _TEXT, 306, 740, 8, 9, 11.5, 8, 230)
    c.drawImage(ImageReader(Image.new("RGB", (60, 30), (20, 120, 120))), 95, 480, width=380, height=160)
    c.setFont("Helvetica-Bold", 7.5)
    c.drawString(58, 460, "Figure 6")
    at = 58 + c.stringWidth("Figure 6 ", "Helvetica-Bold", 7.5) + 8
    c.drawString(at, 460, "Binding of compound 33RE to the domain")
    c.setFont("Helvetica", 7.5)
    for k, line in enumerate(_DETAIL):
        c.drawString(at, 451.5 - 8.5 * k, line)
    c.setFont("Helvetica", 6)
    c.drawString(58, 400, "The author(s) has paid for this article to be freely available under the licence.")
    c.save()
    unit = object_units(path)["Figure 6"]
    assert "contoured at one sigma" in (unit.caption_text or ""), unit.caption_text
    x0, y0, x1, y1 = unit.region["bbox"]
    assert abs(x0 - 95) < 3 and abs(y0 - 480) < 3 and abs(x1 - 475) < 3 and abs(y1 - 640) < 3, unit.region


def test_the_ace_inhibitor_paper_captions_and_regions():
    data = shared("pdfs", "clinsci-2014-126-305.pdf").read_bytes()
    objs = object_units(data)
    fig6 = objs["Figure 6"]
    assert "LIGPLOT" in (fig6.caption_text or "")
    x0, y0, x1, y1 = fig6.region["bbox"]
    assert fig6.region["page"] == 6 and y0 > 120 and y1 < 320 and x0 > 80, fig6.region  # the picture above
    x0, y0, x1, y1 = objs["Figure 3"].region["bbox"]
    assert objs["Figure 3"].region["page"] == 5 and y0 > 495 and y1 < 650, objs["Figure 3"].region  # above it


def test_a_chart_across_the_page_beside_its_caption():
    data = shared("pdfs-wide", "wiley-aje-2010-bactrocera-phenology.pdf").read_bytes()
    objs = object_units(data)
    region = objs["Figure 1"].region
    x0, y0, x1, y1 = region["bbox"]
    assert region["page"] == 4 and x0 < 80 and x1 > 360 and y1 > 700 and y0 > 440, region
