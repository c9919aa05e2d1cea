"""Two dev layouts the hand-read region truth (bench/regions_hand.py, regions18's objects) showed wrong.

* A side caption to the right of its figure that runs on under it across the page, from the figure's
  left edge to the caption's own right edge (rup-jcb-2000, dev half: Figures 3 and 5).  The caption
  stopped at a line without descenders (its bottoms' step under its usual pitch made the next row look
  a gap away: the pitch is now the caption's usual step, `region_rows._goes_on`), its own lines were
  then taken as the object; and the run-on under the figure ends at the caption's right edge, not at
  its left (`region_beside.side_block` knew Science's run-on only).
* A ruled table set directly over a page-wide picture, whose caption is short and sits in the left
  column under it (turkjbiochem-2010, dev half: Table 1 and Figure 1 on page 4).  The figure's caption
  looked only in its column (`region_page.picture_across` now widens it over the gutter the picture
  crosses), and the table's region ran down over the picture: the two stacked objects part where the
  drawing starts, the table's vertical rules being no drawing (`sides._drawing_starts`).
"""

from __future__ import annotations

from PIL import Image
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .caption_fixtures import justified_line
from .conftest import shared
from .object_fixtures import object_units
from .region_fixtures import justified_prose

_TEXT = ("the ectopic fibrils costain with antibodies to the endogenous proteins while the transfected "
         "myotubes keep their striated pattern through the tenth day of culture").split()
_CAPTION = ("Figure 3. Day 4 transfected culture triple stained with (A) anti-MYC and (A') anti-actinin. "
            "Asterisks mark a cluster of untransfected myotubes. Note the precise costaining and restricted "
            "localization of the two antibodies to morphologically normal Z-bands. They do not stain any "
            "region along the thin filament complexes.").split()
_NO_DESCENDERS = "the Z-bands in this fine SMF."  # a line without descenders: its bottom sits high
_TAIL = ("Arrows in A point to aligned nuclei in the transfected myotube and the inset shows the same "
         "cell at a higher magnification with the bands marked by the white arrows on both sides of the "
         "nucleus while the bar is ten micrometres long as in the other panels of this figure " * 8).split()


def test_a_side_caption_running_on_under_its_figure_to_its_right_edge(tmp_path):
    path = tmp_path / "wrapped.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.drawImage(ImageReader(Image.new("RGB", (60, 70), (40, 40, 40))), 50, 330, width=372, height=420)
    words, y = list(_CAPTION), 742.0
    while words:  # the caption's narrow measure, beside the figure on its right
        words = justified_line(c, words, 439, y, 110, "Times-Roman", 8.5)
        y -= 10
    c.setFont("Times-Roman", 8.5)
    c.drawString(439, y, _NO_DESCENDERS)
    y -= 10
    words = list(_TAIL)
    while y > 336:
        words = justified_line(c, words, 439, y, 110, "Times-Roman", 8.5)
        y -= 10
    for _ in range(3):  # and on under the figure, from its left edge to the caption's right edge
        words = justified_line(c, words, 50, y, 499, "Times-Roman", 8.5)
        y -= 10
    justified_prose(c, _TEXT, 50, y - 20, 14, 10, 12.5, 7, 240)
    justified_prose(c, _TEXT, 309, y - 20, 14, 10, 12.5, 7, 240)
    c.save()
    unit = object_units(path.read_bytes())["Figure 3"]
    assert "nucleus while the bar" in (unit.caption_text or ""), unit.caption_text
    x0, y0, x1, y1 = unit.region["bbox"]
    assert abs(x0 - 50) < 3 and abs(x1 - 422) < 3 and abs(y0 - 330) < 3 and abs(y1 - 750) < 3, unit.region


def test_a_ruled_table_over_a_page_wide_figure_with_a_short_caption(tmp_path):
    path = tmp_path / "stacked.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 8)
    c.drawString(42, 735, "Table 1. Effect of the extract on flow rate and heart rate")
    xs, top, pitch = (42, 220, 316, 413, 511), 728.0, 14.0
    c.setLineWidth(0.6)
    c.setFont("Helvetica", 8)
    for r in range(8):  # a grid: every cell ruled all round
        y = top - r * pitch
        c.line(xs[0], y, xs[-1], y)
        for x in xs:
            c.line(x, y, x, y - pitch)
        cells = ("Drug", "Flow", "Rate", "Amplitude") if r == 0 else (f"Extract {r}mg", f"{r}.0", f"{60 - r}", f"0{r}")
        for x, text in zip(xs, cells):
            c.drawString(x + 10, y - 10, text)
    c.line(xs[0], top - 8 * pitch, xs[-1], top - 8 * pitch)
    for k in range(3):  # a page-wide figure of three recordings, starting 20 pt under the table
        c.drawImage(ImageReader(Image.new("RGB", (90, 20), (20 + 30 * k, 20, 20))), 55, 496 - 120 * k,
                    width=450, height=100)
    c.setFont("Times-Bold", 8)
    c.drawString(43, 238, "Figure 1. Effect of the extract on the heart")
    justified_prose(c, _TEXT, 42, 210, 12, 10, 12.5, 7, 225)
    justified_prose(c, _TEXT, 286, 210, 10, 10, 12.5, 7, 225)
    c.save()
    objs = object_units(path.read_bytes())
    x0, y0, x1, y1 = objs["Table 1"].region["bbox"]
    assert abs(y0 - (top - 8 * pitch)) < 3 and abs(y1 - top) < 3, objs["Table 1"].region
    x0, y0, x1, y1 = objs["Figure 1"].region["bbox"]
    assert x0 < 60 and x1 > 500 and abs(y0 - 256) < 4 and abs(y1 - 596) < 4, objs["Figure 1"].region


def test_the_myofibril_paper_figures_beside_their_wrapped_captions():
    objs = object_units(shared("pdfs-wide", "rup-jcb-2000.pdf").read_bytes())
    for label, page, bottom in (("Figure 3", 5, 324), ("Figure 5", 7, 305)):
        region = objs[label].region
        x0, y0, x1, y1 = region["bbox"]
        assert region["page"] == page and x0 < 55 and 418 < x1 < 428 and abs(y0 - bottom) < 6 and y1 > 745, \
            (label, region)


def test_the_frog_heart_table_and_figure_stacked():
    objs = object_units(shared("pdfs-wide", "turkjbiochem-2010-desmodium.pdf").read_bytes())
    x0, y0, x1, y1 = objs["Table 1"].region["bbox"]
    assert objs["Table 1"].region["page"] == 4 and 590 < y0 < 602 and y1 > 720, objs["Table 1"].region
    x0, y0, x1, y1 = objs["Figure 1"].region["bbox"]
    assert objs["Figure 1"].region["page"] == 4 and x1 > 500 and y1 < 590 and y0 < 225, objs["Figure 1"].region
