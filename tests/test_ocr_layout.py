"""A scan's lines as the layout needs them (ocr_lines.py, ocr_style.py): sizes read from the letters' rise
above the baseline, lines cut at a wide gap, bold and italic read from the strokes, run-in lead-ins.
The hOCR tests need nothing installed; the scans are reportlab pages rendered to 300-dpi images and read by
Tesseract (skipped without it)."""

from __future__ import annotations

import shutil

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.scan import ocr
from papershelf.ingest.pdf.scan.ocr_lines import hocr_lines, settle_sizes
from papershelf.ingest.pdf.text.lines import Line

from .test_ocr import scan

_HOCR = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body><div class='ocr_page' title='bbox 0 0 2550 3300'>
<span class='ocr_line' title="bbox 1392 144 1667 173; baseline 0.004 -1; x_size 34.4; x_descenders 5.4; x_ascenders 9">
 <span class='ocrx_word' title='bbox 1392 144 1420 172'>1.</span>
 <span class='ocrx_word' title='bbox 1432 144 1667 172'>Introduction</span></span>
<span class='ocr_line' title="bbox 1465 228 2383 258; baseline 0.001 -1; x_size 38.1; x_descenders 9.1; x_ascenders 9">
 <span class='ocrx_word' title='bbox 1465 228 1600 257'>There</span>
 <span class='ocrx_word' title='bbox 1615 236 1700 266'>grew</span>
 <span class='ocrx_word' title='bbox 1715 228 1900 257'>lichens</span></span>
<span class='ocr_line' title="bbox 150 348 1670 440; baseline 0.003 -22; x_size 96; x_descenders 20; x_ascenders 20">
 <span class='ocrx_word' title='bbox 150 348 590 440'>Science</span>
 <span class='ocrx_word' title='bbox 730 378 800 418'>in</span>
 <span class='ocrx_word' title='bbox 830 378 1100 418'>Primate</span>
 <span class='ocrx_word' title='bbox 1130 378 1400 418'>Models</span></span>
</div></body></html>"""


def test_a_line_without_descenders_reads_the_size_of_its_paragraph():
    """Tesseract's x_size guesses the descenders of "1. Introduction" short (34 px against 38): the rise
    above the baseline is the same for both lines, and so is the size."""
    lines, _ = hocr_lines(_HOCR.encode(), 1, 72 / 300)
    head, body = lines[0], lines[1]
    assert head.text == "1. Introduction" and body.text == "There grew lichens"
    assert abs(head.size - body.size) <= 0.3  # a pixel apart (x_size said 8.3 and 9.1 pt)
    assert 9.5 <= body.size <= 10.5  # 29 px over the ascender's 0.7 of the em, at 300 dpi


def test_a_line_run_from_a_logo_into_the_title_is_cut_at_the_gap():
    lines, _ = hocr_lines(_HOCR.encode(), 1, 72 / 300)
    texts = [ln.text for ln in lines]
    assert "Science" in texts and "in Primate Models" in texts
    logo, title = lines[texts.index("Science")], lines[texts.index("in Primate Models")]
    assert title.size < logo.size and title.x0 > logo.x1


def _line(size: float, text: str = "some words here") -> Line:
    return Line(1, 0, 0, 100, size, text, size, bold=False)


def test_sizes_read_a_pixel_apart_settle_on_one_size_and_distinct_sizes_stay():
    lines = [_line(20.5), _line(21.5), _line(20.0), _line(21.0)] + [_line(9.9, "x" * 80) for _ in range(5)] \
        + [_line(10.2), _line(8.0)]
    settle_sizes(lines)
    assert len({ln.size for ln in lines[:4]}) == 1
    assert {ln.size for ln in lines[4:10]} == {9.9}
    assert lines[10].size == 8.0 and lines[0].size > 20


needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed "
                                     "(.ci/run installs tesseract-ocr)")
PROSE = ("The colonies were kept in running sea water for twelve weeks while their symbionts were counted "
         "every week under the microscope, and the water was cooled by one degree a day after the heat.")


def _styled_paper(path) -> bytes:
    """A page of Times in one size under a title and a numbered first section: a bold unnumbered
    heading, a paragraph opening with an italic lead-in, and prose around them."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = 700.0

    def prose(lead: tuple[str, str] | None = None) -> None:
        nonlocal y
        words, x = PROSE.split(), 72.0
        if lead:
            c.setFont(lead[0], 10)
            c.drawString(x, y, lead[1])
            x += c.stringWidth(lead[1], lead[0], 10) + 3
        line: list[str] = []
        for w in words + words:
            if c.stringWidth(" ".join(line + [w]), "Times-Roman", 10) > 540 - x:
                c.setFont("Times-Roman", 10)
                c.drawString(x, y, " ".join(line))
                y, x, line = y - 12, 72.0, []
            line.append(w)
        c.setFont("Times-Roman", 10)
        c.drawString(x, y, " ".join(line))
        y -= 22

    c.setFont("Times-Bold", 16)
    c.drawString(72, y, "Recovery of Reef Corals")
    y -= 30
    c.setFont("Times-Bold", 10)
    c.drawString(72, y, "1 Introduction")
    y -= 14
    for _ in range(2):
        prose()
    c.setFont("Times-Bold", 10)
    c.drawString(72, y, "Coral sampling")
    y -= 14
    prose()
    prose(("Times-Italic", "Tank design."))
    prose()
    c.save()
    return path.read_bytes()


@needs_tesseract
def test_a_scan_keeps_a_bold_heading_at_body_size_and_an_italic_lead_in(tmp_path):
    """Neither heading is numbered nor a standard name, nor larger than the text: only the strokes
    (bold) and the lean (italic) read on the image set them apart, as a text layer's fonts do."""
    scanned = scan(_styled_paper(tmp_path / "paper.pdf"), dpi=300)
    with ocr.settings(ocr.OcrSettings(languages="eng")):
        doc = read_pdf(scanned)
    headings = [b.text for b in doc.blocks if b.kind == "heading"]
    assert any(h.startswith("Coral sampling") for h in headings), headings
    assert any(h.startswith("Tank design") for h in headings), headings
    assert not any("colonies" in h for h in headings), headings


_LETTERHEAD = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body><div class='ocr_page' title='bbox 0 0 2550 3300'>
<span class='ocr_line' title="bbox 506 231 2298 456; baseline 0 -100; x_size 60; x_descenders 10; x_ascenders 10">
 <span class='ocrx_word' title='bbox 506 275 1119 358; x_wconf 96'>LABORATORY</span>
 <span class='ocrx_word' title='bbox 1151 292 1316 357; x_wconf 96'>FOR</span>
 <span class='ocrx_word' title='bbox 1441 231 1690 456; x_wconf 42'>ace</span>
 <span class='ocrx_word' title='bbox 1728 262 2298 311; x_wconf 96'>MASSACHUSETTS</span></span>
<span class='ocr_line' title="bbox 506 394 2187 490; baseline 0 -30; x_size 60; x_descenders 10; x_ascenders 10">
 <span class='ocrx_word' title='bbox 506 395 994 460; x_wconf 96'>COMPUTER</span>
 <span class='ocrx_word' title='bbox 1029 394 1379 458; x_wconf 95'>SCIENCE</span>
 <span class='ocrx_word' title='bbox 1597 397 1620 451; x_wconf 48'>i</span>
 <span class='ocrx_word' title='bbox 1727 408 2187 490; x_wconf 96'>TECHNOLOGY</span></span>
</div></body></html>"""


def test_a_logo_read_as_letters_is_no_word_of_the_letterhead_beside_it():
    """A drawing Tesseract reads as a word it is unsure of, in a box four times a word's height ("ace"),
    is left out: the letterhead's line is cut at the gap it leaves."""
    texts = [ln.text for ln in hocr_lines(_LETTERHEAD.encode(), 1, 72 / 300)[0]]
    assert texts[:2] == ["LABORATORY FOR", "MASSACHUSETTS"] and "ace" not in " ".join(texts)
