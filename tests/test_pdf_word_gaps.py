"""Word spaces pdfium leaves out of tightly justified lines (`word_gaps`): real PDFs whose words are
placed one by one, with no space character between them, as justified typesetting does."""

import pypdfium2 as pdfium
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.text.lines import page_lines

from .pdf_fixtures import first_page

WORDS = "the cells possess more germ cell nuclei than wild type worms after starvation".split()


def _place(t, words: list[str], x: float, y: float, gaps: list[float], size: float, font: str) -> None:
    for i, w in enumerate(words):
        t.setTextOrigin(x, y)
        t.textOut(w)
        x += stringWidth(w, font, size) + t._charSpace * len(w) + gaps[i % len(gaps)] * size


def _lines(path, rows: list[tuple[float, list[float]]], size=9.0, font="Helvetica", tracking=0.0,
           words=WORDS) -> list[str]:
    """Each row: (x, gaps in em between its words, cycled); all rows on one baseline when their x differ."""
    c = canvas.Canvas(str(path), pagesize=(700, 200))
    for k, (x, gaps) in enumerate(rows):
        t = c.beginText(x, 150)
        t.setFont(font, size)
        t.setCharSpace(tracking * size)
        _place(t, words, x, 150 - (0 if x > 20 else 14 * k), gaps, size, font)
        c.drawText(t)
    c.showPage()
    c.save()
    return [ln.text for ln in first_page(path, lambda page: page_lines(page, 0)[0])]


def test_a_word_gap_just_under_pdfiums_threshold_is_a_space(tmp_path):
    """Helvetica's space is 0.278 em: pdfium writes a space for a gap over half of it.  A tightly
    justified line whose word gaps are 0.15 em, one in four 0.13, loses the space there."""
    text = _lines(tmp_path / "a.pdf", [(20, [0.15, 0.15, 0.15, 0.13])])
    assert "moregerm" in pdfium.PdfDocument(str(tmp_path / "a.pdf"))[0].get_textpage().get_text_range()
    assert text == [" ".join(WORDS)]


def test_glued_words_in_a_line_pdfium_ran_across_two_columns_are_parted(tmp_path):
    """Two columns' lines on one baseline are one pdfium line, dealt to two pieces: the word spaces
    are put back in each piece."""
    words = WORDS[:7]
    text = _lines(tmp_path / "b.pdf", [(20, [0.15, 0.13]), (360, [0.13, 0.15])], words=words)
    assert text == [" ".join(words)] * 2


def test_lines_with_ordinary_or_tracked_spacing_are_left_as_pdfium_reads_them(tmp_path):
    """Word gaps of a quarter em (ragged text) are not measured; letter-spaced words (tracking of
    0.1 em, word gaps 0.35 em) keep each word whole: the tracking is the row's own."""
    assert _lines(tmp_path / "c.pdf", [(20, [0.25])]) == [" ".join(WORDS)]
    assert _lines(tmp_path / "d.pdf", [(20, [0.35])], tracking=0.1) == [" ".join(WORDS)]
    # words set with no gap at all are one word on the page too: nothing to part
    assert _lines(tmp_path / "e.pdf", [(20, [0.15, 0.0])])[0].split()[1] == "cellspossess"
