"""`text_index.char_indices` gives what pdfium's `FPDFText_GetCharIndexFromTextIndex` gives at every
position of a page's text: on a page whose text leaves glyphs out (its runs split), on a generated
paper, and on every page of the shared PDFs.  `glyphs._left_out` finds the characters pdfium leaves out
of its text as a walk over every character with `FPDFText_GetTextIndexFromCharIndex` finds them."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
from pypdfium2 import raw

from papershelf.ingest.pdf.text.glyphs import _left_out, u16
from papershelf.ingest.pdf.text.lines import _TextPage
from papershelf.ingest.pdf.text.text_index import char_indices

from .conftest import shared
from .pdf_fixtures import BODY, _wrap, two_column_paper
from .test_pdf_text_repair import _bare_font_pdf


def _walked(textpage) -> list[tuple[int, int]]:
    """(text position of the next character in the text, index) of each character left out of it."""
    out, pending = [], []
    for c in range(raw.FPDFText_CountChars(textpage)):
        at = raw.FPDFText_GetTextIndexFromCharIndex(textpage, c)
        if at < 0:
            pending.append(c)
        else:
            out += [(at, p) for p in pending]
            pending = []
    return out


def _pages_agree(pdf: pdfium.PdfDocument) -> int:
    for n in range(len(pdf)):
        page = pdf[n]
        tp = _TextPage(page)
        try:
            length = u16(tp.tp.get_text_range())
            tp.positions = char_indices(tp.raw, length)
            asked = [raw.FPDFText_GetCharIndexFromTextIndex(tp.raw, k) for k in range(-2, length + 2)]
            assert [tp.char_index(k) for k in range(-2, length + 2)] == asked, n
            assert _left_out(tp.raw, raw.FPDFText_CountChars(tp.raw), tp.positions) == _walked(tp.raw), n
        finally:
            tp.close()
    return len(pdf)


def test_a_page_whose_text_leaves_glyphs_out_maps_as_pdfium_does():
    lines = ["The \\001gure shows a di\\001erent e\\001ect and a di\\002cult case in the wound.", *_wrap(BODY, 80),
             "A di\\002cult \\002 case \\002\\002 again."]
    pdf = pdfium.PdfDocument(_bare_font_pdf(lines))
    tp = pdf[0].get_textpage()
    assert raw.FPDFText_CountChars(tp.raw) > u16(tp.get_text_range())  # glyphs left out: runs split
    assert _walked(tp.raw)
    assert _pages_agree(pdf) == 1


def test_a_generated_paper_maps_as_pdfium_does(tmp_path):
    path = str(tmp_path / "two.pdf")
    two_column_paper(path)
    assert _pages_agree(pdfium.PdfDocument(path)) >= 1


def test_every_page_of_the_shared_pdfs_maps_as_pdfium_does():
    manifest = shared("pdfs", "manifest.json")
    pages = sum(_pages_agree(pdfium.PdfDocument(str(manifest.parent.parent / m["file"])))
                for m in json.loads(manifest.read_text()))
    assert pages > 300
