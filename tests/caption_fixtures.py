"""Generated PDFs for captions the reader must recognise as captions: a PDF whose outline bookmarks
its figures and tables ("Fig 1", "Table 1", and its reference entries), and two figures set side by
side with their captions side by side a narrow gutter apart, on baselines a point apart, one of them
wrapping onto a line of short words without descenders.  Truth is by construction."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .object_fixtures import LEFT, ROWS, TEXT_W, _opened
from .pdf_fixtures import BODY


def outlined_objects_paper(path: str, sections: bool | None) -> None:
    """A figure under which "Fig. 1." opens its caption and a table under "Table 1.", in a paper
    whose outline bookmarks only them ("Fig 1", "Table 1") and its reference entries ("Reference 1" …);
    with `sections` the outline also lists the printed sections, the objects' bookmarks out of page
    order (a journal's outline set a table's bookmark before the section the table sits in); with
    `sections` None the outline bookmarks the objects alone ("Fig 1", "Table 1", "Figure 1")."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    c.bookmarkPage("intro")
    p.text("1 Introduction", font="Helvetica-Bold", size=11)
    p.text(BODY + " " + BODY)
    c.bookmarkPage("fig1")
    p.chart("fraction bleached")
    p.caption("Fig. 1. Fraction of colonies bleached over four months at three depths.")
    c.bookmarkPage("results")
    p.text("2 Results", font="Helvetica-Bold", size=11)
    p.text("Shallow reefs bleached first, while the deepest colonies kept their colour all season. " + BODY)
    c.bookmarkPage("tab1")
    p.caption("Table 1. Bleaching by depth and site, as surveyed in the first month.")
    p.table(ROWS)
    p.text("Recovery was slowest where the water stayed warmest for longest. " + BODY)
    c.bookmarkPage("discussion")
    p.text("3 Discussion", font="Helvetica-Bold", size=11)
    p.text("Depth sheltered the colonies from the heat. " + BODY)
    p.text("References", font="Helvetica-Bold", size=11)
    c.bookmarkPage("refs")
    for n in (1, 2, 3):
        p.text(f"{n}. Okafor A. Reef bleaching by depth, part {n}. Example Reef Studies 2021;4:1-9.")
    if sections:  # the table's bookmark set before the section it sits in
        c.addOutlineEntry("1 Introduction", "intro", level=0)
        c.addOutlineEntry("Table 1", "tab1", level=1)
        c.addOutlineEntry("Fig 1", "fig1", level=1)
        c.addOutlineEntry("2 Results", "results", level=0)
        c.addOutlineEntry("3 Discussion", "discussion", level=0)
    elif sections is None:
        for title, key in (("Fig 1", "fig1"), ("Table 1", "tab1"), ("Figure 1", "fig1")):
            c.addOutlineEntry(title, key, level=0)
    else:
        c.addOutlineEntry("Fig 1", "fig1", level=0)
        c.addOutlineEntry("Table 1", "tab1", level=0)
        for n in (1, 2, 3):
            c.addOutlineEntry(f"Reference {n}", "refs", level=0)
    c.showPage()
    c.save()


def _bars(c: canvas.Canvas, x: float, y: float, width: float, label: str) -> None:
    """A small bar chart with its own axis label, its box `width` wide and 120 high, top at y."""
    c.rect(x, y - 120, width, 120)
    for k in range(4):
        c.rect(x + 15 + (width - 30) / 4 * k, y - 110, 14, 14 + 18 * k, fill=1)
    c.setFont("Helvetica", 7)
    c.drawString(x + 8, y - 10, label)


def side_by_side_paper(path: str, one_baseline: bool = False) -> None:
    """Two charts side by side over their captions, each caption set as a text block of its own (9 pt;
    the left caption's first line ends 7 pt
    before the right one starts, whose baseline is 1.5 pt lower; the left caption's second line has
    no descenders, its first and third have), with running text above and below across the page.
    `one_baseline`: the captions' rows drawn in turn on shared baselines instead."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    p.text(BODY + " " + BODY)
    split = LEFT + 208.1
    top = p.y
    _bars(c, LEFT + 10, top, 180, "bleached share")
    _bars(c, split + 10, top, LEFT + TEXT_W - split - 20, "recovered share")
    y = top - 140
    left = ["Fig. 1. The share of tagged reef colonies that were", "bleached in the warm season at the three sites and",
            "during the survey of 2021."]
    right = ["Fig. 2. The share of colonies that regained their", "colour within eight weeks of the peak temperature",
             "at each site."]
    c.setFont("Helvetica", 9)
    if one_baseline:  # the two captions' rows drawn in turn, on one baseline: pdfium runs each row into one line
        for k, (a, b) in enumerate(zip(left, right)):
            c.drawString(LEFT, y - 11 * k, a)
            c.drawString(split, y - 11 * k, b)
    else:
        for x, drop, lines in ((LEFT, 0.0, left), (split, 1.5, right)):  # each caption set as a block of its own
            for k, line in enumerate(lines):
                c.drawString(x, y - drop - 11 * k, line)
    p.y = y - 3 * 11 - 14
    p.text("Deep colonies kept their colour through the season, and shallow ones recovered within weeks "
           "once the water cooled. " + BODY)
    c.showPage()
    c.save()




def panel_sentence_paper(path: str) -> None:
    """A chart over its caption "Figure 1. …", and paragraphs that open by citing its panels
    ("Figure 1 (b) shows …", "Figure 1.b shows …"), as a sentence may start a paragraph."""
    c = canvas.Canvas(path, pagesize=letter)
    p = _opened(c, "Coral Bleaching Thresholds by Depth")
    p.text(BODY)
    p.chart("fraction bleached")
    p.caption("Figure 1. Fraction of colonies bleached over four months at three depths.")
    p.text("Figure 1 (b) shows the deep sites, where the colonies kept their colour all season. " + BODY)
    p.text("Figure 1.b shows the same sites a month later, once the water had cooled again. " + BODY)
    c.showPage()
    c.save()


def justified_line(c: canvas.Canvas, words: list[str], x: float, y: float, width: float,
                   font: str = "Helvetica", size: float = 8) -> list[str]:
    """One justified caption line taken off the front of `words`, filling `width` from (x, y) (word gaps
    stretched, as a journal sets a caption beside its figure); returns the words left."""
    c.setFont(font, size)
    line = [words.pop(0)]
    while words and c.stringWidth(" ".join([*line, words[0]]), font, size) < width:
        line.append(words.pop(0))
    gap = (width - sum(c.stringWidth(w, font, size) for w in line)) / max(len(line) - 1, 1)
    for w in line:
        c.drawString(x, y, w)
        x += c.stringWidth(w, font, size) + gap
    return words
