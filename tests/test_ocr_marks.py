"""What a scan's image shows that Tesseract's words do not: raised marks after (or before) a word (ocr_marks.py)
and the drawings where no word stands (ocr_drawings.py).  The pages are reportlab pages rendered at 300 dpi;
the words' boxes are measured on the image, as Tesseract gives them, so nothing needs installing."""

from __future__ import annotations

import io

import numpy as np
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.front.authors import line_names
from papershelf.ingest.pdf.scan.ocr_drawings import drawings
from papershelf.ingest.pdf.scan.ocr_marks import raised_tail

from .pdf_fixtures import first_page

DPI = 300
PX = DPI / 72  # pixels per point
SIZE = 11.0
BASE = 200.0  # the words' baseline, points from the page's top


def _page(draw) -> np.ndarray:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    draw(c)
    c.save()
    return first_page(buf.getvalue(), _grey)


def _grey(page) -> np.ndarray:
    return np.asarray(page.render(scale=PX, grayscale=True).to_pil().convert("L"))


def _words(c, parts: list[tuple[str, str]]) -> list[tuple[float, float]]:
    """Words set side by side on the baseline, each a word's text and its raised mark ("" for none);
    the x span of each word, in points."""
    x, spans = 72.0, []
    for text, mark in parts:
        start = x
        c.setFont("Times-Roman", SIZE)
        c.drawString(x, letter[1] - BASE, text)
        x += c.stringWidth(text, "Times-Roman", SIZE)
        if mark:
            c.setFont("Times-Roman", 0.7 * SIZE)
            c.drawString(x + 1.0, letter[1] - BASE + 0.35 * SIZE, mark)
            x += c.stringWidth(mark, "Times-Roman", 0.7 * SIZE) + 1.0
        spans.append((start, x))
        x += 0.3 * SIZE
    return spans


def _box(pixels: np.ndarray, span: tuple[float, float]) -> tuple[int, int, int, int]:
    """The word's box as Tesseract gives it: its ink's extent between its span's edges."""
    x0, x1 = int(span[0] * PX) - 2, int(span[1] * PX) + 2
    rows = np.nonzero((pixels[:, x0:x1] < 128).any(axis=1))[0]
    cols = np.nonzero((pixels[:, x0:x1] < 128).any(axis=0))[0]
    return x0 + int(cols[0]), int(rows[0]), x0 + int(cols[-1]) + 1, int(rows[-1]) + 1


def _read(parts: list[tuple[str, str]], read_as: list[str]) -> list[str]:
    """Each word as OCR read it (`read_as`: a mark misread, as Tesseract does) after `raised_tail`."""
    spans: list = []
    pixels = _page(lambda c: spans.extend(_words(c, parts)))
    return [raised_tail(text, _box(pixels, span), BASE * PX, SIZE * PX, pixels) for text, span in zip(read_as, spans)]


def test_raised_marks_after_names_are_written_as_a_text_layer_writes_them():
    """"Kordower,¹*" is read "Kordower,'*" and "Bloch,²" "Bloch,2": the image shows both marks raised."""
    read = _read([("Kordower,", "1*"), ("Marina", ""), ("Bloch,", "2")], ["Kordower,'*", "Marina", "Bloch,2"])
    assert read == ["Kordower,^'*", "Marina", "Bloch,^2"]


def test_a_quote_a_hyphen_and_a_digit_on_the_baseline_are_no_marks():
    """A closing quote and a hyphen stand above the baseline too, but a quote is short and a hyphen flat;
    a digit set in the line's size stands on it."""
    words = ["\u201cword\u201d", "methyl-4-", "Smith,"]
    assert _read([(w, "") for w in words], words) == words


def test_a_byline_of_raised_marks_reads_every_name():
    """The marks written after ^, the author reader cuts each name from its mark, as on a text layer's
    byline; before, "Chu,’" read as a name going on into the mark's quote and the line stopped there."""
    parts = [("Shuang Y. Ma,", "1"), ("Yaping Chu,", "1"), ("Liza Leventhal,", "1")]
    read = _read(parts, ["Shuang Y. Ma,'", "Yaping Chu,’", "Liza Leventhal,’"])
    assert line_names(" ".join(read)) == ["Shuang Y. Ma", "Yaping Chu", "Liza Leventhal"]


def test_a_reference_label_raised_before_its_entry_opens_the_word():
    spans: list = []

    def draw(c) -> None:
        c.setFont("Times-Roman", 0.7 * SIZE)
        c.drawString(72, letter[1] - BASE + 0.35 * SIZE, "3")
        c.setFont("Times-Roman", SIZE)
        c.drawString(72 + 4.5, letter[1] - BASE, "M.")
        spans.append((72.0, 72 + 4.5 + c.stringWidth("M.", "Times-Roman", SIZE)))

    pixels = _page(draw)
    assert raised_tail("3M.", _box(pixels, spans[0]), BASE * PX, SIZE * PX, pixels) == "^3M."


def test_a_scan_s_drawing_is_found_where_no_word_stands_and_its_panels_are_one():
    """Two plots one over the other (panels "a" and "b") and a paragraph's line below them: the plots
    are one drawing, the paragraph none."""
    def draw(c) -> None:
        for top in (100, 260):
            c.rect(100, letter[1] - top - 120, 300, 120)
            c.line(100, letter[1] - top - 120, 400, letter[1] - top)
        c.setFont("Times-Roman", SIZE)
        c.drawString(100, letter[1] - 440, "A paragraph of running text goes on under the figure here.")

    pixels = _page(draw)
    text = (int(100 * PX), int(430 * PX), int(420 * PX), int(445 * PX))
    found = drawings(pixels, [text], 72 / DPI, [text])
    assert len(found) == 1
    x0, top, x1, bottom = found[0]
    assert abs(x0 - 100) < 3 and abs(top - 100) < 3 and abs(x1 - 400) < 3 and abs(bottom - 380) < 3
