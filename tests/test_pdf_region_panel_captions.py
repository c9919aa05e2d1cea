"""A figure of two panels, each with its own caption "(a) …", "(b) …" set centred under it, over the
figure's caption (acm-pomacs-2022 Figure 30, dev half: no region).  The walk up from the caption met the
panel caption "(b)", a line of words in the body size starting within a paragraph's indent of the text's
edge, and stopped there as at running text next to the caption.  A line opening with a panel letter and
set centred on the caption's measure is the figure's own (`regions._sub_caption`).  A generated page
(truth by construction) and the dev page."""

from __future__ import annotations

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .conftest import shared
from .object_fixtures import object_units
from .region_fixtures import justified_prose

_TEXT = ("the channel usage of each cell was measured over one hour and the offered load of the second phone "
         "was raised in steps while the first phone kept its own load").split()


def test_panel_captions_between_the_panels_and_the_caption(tmp_path):
    path = tmp_path / "panels.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    plot = ImageReader(Image.new("RGB", (120, 40), (200, 160, 40)))
    c.drawImage(plot, 120, 600, width=372, height=120)
    c.setFont("Times-Roman", 10)
    c.drawCentredString(306, 585, "(a) Channel usage of the primary, secondary and tertiary cells of the first phone.")
    c.drawImage(plot, 120, 480, width=372, height=90)
    c.drawCentredString(306, 465, "(b) Channel usage of the primary and secondary cells of the other phone.")
    first = "Fig. 3. The channel usage of the primary, secondary, and tertiary cells of two phones. The"
    line = c.beginText(72, 448)  # the caption's first line set justified across the text's width
    line.setFont("Times-Roman", 10)
    line.setWordSpace((468 - c.stringWidth(first, "Times-Roman", 10)) / first.count(" "))
    line.textLine(first)
    c.drawText(line)
    c.drawString(72, 436, "black area represents the overall channel usage of the cell.")
    justified_prose(c, _TEXT, 72, 400, 28, 10, 12, 15, 468)
    c.save()
    objs = object_units(path)
    region = objs["Figure 3"].region
    assert region is not None, objs["Figure 3"]
    x0, y0, x1, y1 = region["bbox"]
    assert y1 > 715 and 455 < y0 < 470 and x0 < 125 and x1 > 485, region  # both panels and their captions


def test_the_phone_paper_figure_over_its_panel_captions():
    data = shared("pdfs-wide", "acm-pomacs-2022-ng-scope.pdf").read_bytes()
    region = object_units(data)["Figure 30"].region
    assert region is not None and region["page"] == 20, region
    x0, y0, x1, y1 = region["bbox"]
    assert y1 > 630 and 410 < y0 < 420, region  # from panel (a)'s chart down to panel (b)'s caption
