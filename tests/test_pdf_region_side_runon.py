"""A side caption that runs on under its object (aaas-science-2009, dev half: Figures 4 and 5 had no region):
the caption stands in a narrow measure at the left, level with panels set across the page's other columns,
and its last lines go on across the page's width under them.  Its block is as wide as the page, so the
side search (for a caption at most half its column's width) never looked beside it, and the walks up and
down met running text.  The side search now looks from the caption's narrow first lines
(`region_beside.side_block`), and an object whose drawn parts lie across a gutter is set over the page's
columns, not another column's own.  A generated page (truth by construction) and the dev paper."""

from __future__ import annotations

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .caption_fixtures import justified_line
from .conftest import shared
from .object_fixtures import object_units
from .region_fixtures import justified_prose

_L, _COL = 54.0, 240.0
_TEXT = ("germ cells of the starved animals were counted in each gonad arm and compared between the two "
         "strains after fifteen days without food").split()
_CAPTION = ("Fig. 4. (A and B) Whole-animal staining revealed that the mutants possess more germ cell nuclei "
            "than wild-type worms after fifteen days of starvation. (C) The bar graph represents the mean "
            "number of nuclei in arrested animals after increasing days of starvation. " * 3).split()


def test_a_side_caption_running_on_under_its_panels(tmp_path):
    path = tmp_path / "runon.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    justified_prose(c, _TEXT, _L, 740, 16, 9, 11, 8, _COL)
    justified_prose(c, _TEXT, _L + _COL + 24, 740, 16, 9, 11, 8, _COL)
    for k, x in enumerate((170, 290, 430)):  # three panels beside the caption, the middle one over the gutter
        c.drawImage(ImageReader(Image.new("RGB", (60, 90), (30 + 40 * k, 30, 30))), x, 382, width=116, height=168)
    words, y = list(_CAPTION), 542.0
    while y > 376:  # the caption's narrow measure, level with the panels
        words = justified_line(c, words, _L, y, 105)
        y -= 10
    for _ in range(2):  # and on under them, across the page
        words = justified_line(c, words, _L, y, 2 * _COL + 24)
        y -= 10
    justified_prose(c, _TEXT, _L, 330, 24, 9, 11, 8, _COL)
    justified_prose(c, _TEXT, _L + _COL + 24, 330, 24, 9, 11, 8, _COL)
    c.save()
    objs = object_units(path)
    region = objs["Figure 4"].region
    assert region is not None, objs["Figure 4"]
    x0, y0, x1, y1 = region["bbox"]
    assert 165 < x0 < 172 and x1 > 544 and 378 < y0 < 385 and 548 < y1 < 556, region  # the three panels


def test_the_starvation_paper_panels_beside_their_captions():
    data = shared("pdfs-wide", "aaas-science-2009-starvation-germline.pdf").read_bytes()
    objs = object_units(data)
    for label, (top, bottom) in (("Figure 4", (533, 325)), ("Figure 5", (287, 60))):
        region = objs[label].region
        assert region is not None and region["page"] == 4, label
        x0, y0, x1, y1 = region["bbox"]
        assert x0 > 150 and x1 > 550 and bottom < y0 < bottom + 12 and top - 4 < y1 < top + 4, (label, region)


def test_a_narrow_caption_beside_a_picture_across_two_of_three_columns(tmp_path):
    """aaas-science-2004 Figure 4 (dev half): a caption in the first of three columns, level with one
    picture set across the other two; the side search across the page ran on pages in two halves only."""
    path = tmp_path / "three.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.drawImage(ImageReader(Image.new("RGB", (90, 60), (60, 60, 60))), 160, 500, width=400, height=250)
    words, y = list(_CAPTION), 742.0
    while y > 560:
        words = justified_line(c, words, 40, y, 100)
        y -= 10
    for x in (40, 226, 412):  # three columns of running text under the figure
        justified_prose(c, _TEXT, x, 470, 36, 9, 11, 5, 160)
    c.save()
    objs = object_units(path)
    region = objs["Figure 4"].region
    assert region is not None, objs["Figure 4"]
    x0, y0, x1, y1 = region["bbox"]
    assert 155 < x0 < 162 and 558 < x1 < 565 and 495 < y0 < 502 and 748 < y1 < 755, region  # the picture


def test_the_obesity_paper_charts_beside_their_caption():
    data = shared("pdfs-wide", "aaas-science-2004-er-stress-obesity.pdf").read_bytes()
    region = object_units(data)["Figure 4"].region
    assert region is not None and region["page"] == 5, region
    x0, y0, x1, y1 = region["bbox"]
    assert 145 < x0 < 155 and x1 > 550 and 475 < y0 < 485 and y1 > 720, region


def test_the_gene_therapy_paper_pet_scans_beside_their_l_shaped_caption():
    """aaas-science-2000 Figure 2 (dev half): the caption runs on under two panels, beside the column of
    Figure 1's caption; that column read as running text wrapped around the object, so the side search
    never ran.  Another caption's lines are no wrapped text."""
    data = shared("pdfs-wide", "aaas-science-2000-parkinson-gene-therapy.pdf").read_bytes()
    region = object_units(data)["Figure 2"].region
    assert region is not None and region["page"] == 3, region
    x0, y0, x1, y1 = region["bbox"]
    assert 310 < x0 < 320 and x1 > 560 and 85 < y0 < 100 and 275 < y1 < 290, region  # the PET scans
