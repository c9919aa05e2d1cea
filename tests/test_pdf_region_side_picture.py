"""A narrow caption in the right half of a two-column page, level with a picture set across the left
column and the middle (rup-jcb-2000, dev half: five micrographs with no region, one cut to a panel):
the caption's own column holds no object, and the picture crosses the gutter, so neither the walk nor the
side search found it.  A narrow caption with nothing over or under it looks across the page beside it,
and one picture holding all it finds there is one object however it lies over the gutter
(`region_beside._seed`).  A generated page (truth by construction) and the dev paper."""

from __future__ import annotations

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .conftest import shared
from .object_fixtures import object_units
from .region_fixtures import justified_prose

_L, _COL = 54.0, 240.0
_TEXT = ("myotubes expressing the tagged peptides were stained with antibodies and the striations of the "
         "fibrils were compared between cultures on each day of differentiation").split()


def _prose(c: canvas.Canvas, x: float, y: float, lines: int) -> None:
    justified_prose(c, _TEXT, x, y, lines, 9.5, 11.5, 8, _COL)


def test_a_side_caption_beside_a_picture_across_the_middle(tmp_path):
    path = tmp_path / "side.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    picture = Image.new("RGB", (120, 140), (40, 40, 40))
    c.drawImage(ImageReader(picture), _L, 420, width=370, height=330)  # 54..424 across the middle (306)
    c.setFont("Times-Roman", 8)
    words = iter(("Figure 6. Day ten myotubes expressing the peptide, stained with antibodies to titin and "
                  "myosin and with phalloidin. " * 8).split())
    for i in range(22):  # a narrow caption column at the right, level with the picture's top, justified
        line = [next(words)]
        while c.stringWidth(" ".join(line), "Times-Roman", 8) < 100:
            line.append(next(words))
        gap = (110 - sum(c.stringWidth(w, "Times-Roman", 8) for w in line)) / (len(line) - 1)
        at = 440.0
        for w in line:
            c.drawString(at, 742 - i * 10, w)
            at += c.stringWidth(w, "Times-Roman", 8) + gap
    _prose(c, _L, 395, 30)
    _prose(c, _L + _COL + 24, 395, 30)
    c.showPage()
    _prose(c, _L, 740, 60)
    _prose(c, _L + _COL + 24, 740, 60)
    c.save()
    objs = object_units(path)
    region = objs["Figure 6"].region
    assert region is not None, objs["Figure 6"]
    x0, y0, x1, y1 = region["bbox"]
    assert x0 < 60 and 418 < y0 < 430 and x1 > 420 and y1 > 745 and x1 < 436, region  # the picture alone


def test_the_myofibril_paper_micrographs_beside_their_captions():
    data = shared("pdfs-wide", "rup-jcb-2000.pdf").read_bytes()
    objs = object_units(data)
    for label in ("Figure 2", "Figure 4", "Figure 6", "Figure 7", "Figure 8", "Figure 10"):
        region = objs[label].region
        assert region is not None, label
        x0, _, x1, _ = region["bbox"]
        # left of the side captions' column (from x 446; a caption running on under its figure holds that row too)
        assert x0 < 70 and x1 < 444 and x1 - x0 > 290, (label, region)
