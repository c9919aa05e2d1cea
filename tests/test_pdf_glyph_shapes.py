"""Symbols a mathematical font encodes as Latin-1 letters, read from the glyph's own drawing."""

import ctypes

from pypdfium2 import raw

from papershelf.ingest.pdf.reader import read_pdf
from papershelf.ingest.pdf.text import glyph_shapes

from .conftest import shared


def _drawn(ch: str, font: bytes) -> glyph_shapes.Drawing:
    """`ch` as a standard font draws it at a size unlike the references' (a page's glyph)."""
    doc = raw.FPDF_CreateNewDocument()
    obj = raw.FPDFPageObj_NewTextObj(doc, font, ctypes.c_float(9.0))
    text = ctypes.create_string_buffer((ch + "\0").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(text, ctypes.POINTER(ctypes.c_ushort)))
    ink = glyph_shapes._ink(raw.FPDFTextObj_GetRenderedBitmap(doc, None, obj, ctypes.c_float(7.0)))
    raw.FPDFPageObj_Destroy(obj)
    raw.FPDF_CloseDocument(doc)
    assert ink is not None
    drawn = glyph_shapes.drawing(ink)
    assert drawn is not None
    return drawn


def test_a_symbol_drawn_under_a_letters_code_is_read_as_the_symbol():
    # Advent's Mathematical Pi sets "=" at ¼'s code, "+" at þ's, parentheses at ð / Þ
    assert glyph_shapes.read_drawing(_drawn("=", b"Times-Roman"), "¼") == "="
    assert glyph_shapes.read_drawing(_drawn("+", b"Helvetica"), "þ") == "+"
    assert glyph_shapes.read_drawing(_drawn("(", b"Times-Roman"), "ð") == "("
    assert glyph_shapes.read_drawing(_drawn("≈", b"Symbol"), "¼") == "≈"


def test_a_letter_drawn_as_itself_stays():
    for ch in "¼éüþÆ±µ":
        assert glyph_shapes.read_drawing(_drawn(ch, b"Times-Roman"), ch) is None, ch


def test_a_wiley_paper_prints_equals_signs_not_quarters():
    data = shared("pdfs-wide", "wiley-cladistics-2007-ericales-wood.pdf").read_bytes()
    text = " ".join(b.text for b in read_pdf(data).blocks)
    assert "(CI) = 0.27" in text and "(n = 23)" in text and "(CI = 0.28," in text
    assert " ¼ " not in text
