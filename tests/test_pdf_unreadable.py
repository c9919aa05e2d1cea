"""A first page whose font has no character map (a Type 3 font of glyph procedures, as old TeX output
has): pdfium gives the font's codes, not its letters, so the title and authors were read as garbage
or not at all.  Such a page is told from its text alone and read by OCR (issue #38).  The PDF is
written here by hand: each glyph's procedure draws its letter in Helvetica, so the page shows text."""

from __future__ import annotations

import shutil

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from papershelf.errors import IngestError
from papershelf.ingest.pdf import read_pdf
from papershelf.ingest.pdf.scan import ocr
from papershelf.ingest.pdf.text.lines import Line
from tests.conftest import shared

FIRST = 33  # the font's first code: its codes read as punctuation and digits ("%372*5!'6!$'82")


def _type3_pdf(lines: list[tuple[str, float, float, float]], first: int = FIRST, apart: int = 0,
               codes: str = "") -> bytes:
    """`codes`: the glyphs' codes in order of first use (a driver that numbered them so), a space kept
    at 32; else every character from `first` up in sorted order."""
    letters = sorted({c for text, *_ in lines for c in text})
    code = {c: first + i for i, c in enumerate(letters)}
    if codes:
        used = list(dict.fromkeys(c for text, *_ in lines for c in text if c != " "))
        code = {c: ord(k) for c, k in zip(used, codes, strict=False)} | {" ": 32}
    first, last = min(code.values()), max(code.values())
    objs: list[bytes] = []

    def add(obj: bytes) -> int:
        objs.append(obj)
        return len(objs)

    def stream(data: bytes) -> bytes:
        return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"

    helvetica = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    widths = {c: round(stringWidth(c, "Helvetica", 1000)) for c in letters}
    procs = {c: add(stream(f"{widths[c]} 0 0 -200 {widths[c]} 800 d1 BT /H 1000 Tf 0 0 Td "
                           f"({c.replace('(', '[').replace(')', ']')}) Tj ET".encode("latin-1"))) for c in letters}
    names = " ".join(f"{code[c]} /g{code[c]}" for c in letters)
    charprocs = " ".join(f"/g{code[c]} {procs[c]} 0 R" for c in letters)
    width_of = {code[c]: widths[c] for c in letters}
    font = add((f"<< /Type /Font /Subtype /Type3 /FontBBox [0 -200 1000 800] /FontMatrix [0.001 0 0 0.001 0 0] "
                f"/CharProcs << {charprocs} >> /Encoding << /Type /Encoding /Differences [{names}] >> "
                f"/FirstChar {first} /LastChar {last} "
                f"/Widths [{' '.join(str(width_of.get(k, 0)) for k in range(first, last + 1))}] "
                f"/Resources << /Font << /H {helvetica} 0 R >> >> >>").encode())
    gap = f") {-apart} (" if apart else ""  # each glyph set apart (a bitmap font's placed glyphs)
    shown = "\n".join(f"BT /T3 {size} Tf {x} {y} Td [(" + gap.join(f"\\{code[c]:03o}" for c in text) + ")] TJ ET"
                       for text, x, y, size in lines)
    contents = add(stream(shown.encode()))
    page = add(f"<< /Type /Page /Parent {len(objs) + 2} 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R "
               f"/Resources << /Font << /T3 {font} 0 R >> >> >>".encode())
    pages = add(f"<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>".encode())
    catalog = add(f"<< /Type /Catalog /Pages {pages} 0 R >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objs):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


BODY = "The cells were grown in medium for three days before the assay was run"


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")
def test_a_first_page_in_a_font_without_a_character_map_is_read_by_ocr():
    lines = [("Rounds at Dawn", 150, 700, 24), ("Anna Berg", 150, 660, 12)]
    lines += [(BODY, 72, 600 - 14 * k, 10) for k in range(30)]
    doc = read_pdf(_type3_pdf(lines))
    assert (doc.title, doc.authors) == ("Rounds at Dawn", ["Anna Berg"])
    assert doc.ocr_pages == {1: doc.ocr_pages[1]}


# Codes numbered in order of use that fall on letters of both cases, as a bitmap font's driver may
# number them: the page's text is letters ("VdjMb"), which the text alone does not tell from words.
LETTER_CODES = "QcWZSaUROTbNPXpYrgFmKhsLJivtdjEkM"


def _coded_document() -> list[tuple[str, float, float, float]]:
    lines = [("Rounds at Dawn", 150, 700, 24), ("Anna Berg", 150, 660, 12)]
    return lines + [(BODY, 72, 600 - 14 * k, 10) for k in range(30)]


def test_a_font_whose_codes_are_letters_is_told_by_its_own_data(monkeypatch):
    """A Type 3 font without a character map whose codes fall on letters: its text reads as letters,
    not codes (`ocr.reading` says text), but the font's data (no font program, every character
    unmapped) and the letters' shapes ("cWZ", no word's) say it is codes, so every such page goes to OCR.
    The same font whose codes are its own letters (ASCII) reads as words: its text is kept."""
    coded = _type3_pdf(_coded_document(), codes=LETTER_CODES)
    asked: list[list[int]] = []
    monkeypatch.setattr(ocr, "engine", lambda: None)  # no OCR here: which pages it would read
    real = ocr.pages_to_ocr
    monkeypatch.setattr(ocr, "pages_to_ocr", lambda *a: asked.append(real(*a)) or asked[-1])
    with pytest.raises(IngestError, match="glyph codes"):  # without OCR: not indexed as garbage
        read_pdf(coded)
    assert asked[-1] == [0]
    monkeypatch.setattr(ocr, "pages_to_ocr", lambda *a: [])  # read as text, it shows letters, not codes
    assert not ocr.reading([_line(" ".join(b.text for b in read_pdf(coded).blocks), 100)])
    ascii_codes = "".join(dict.fromkeys(c for text, *_ in _coded_document() for c in text if c != " "))
    monkeypatch.setattr(ocr, "pages_to_ocr", lambda *a: asked.append(real(*a)) or asked[-1])
    read_pdf(_type3_pdf(_coded_document(), codes=ascii_codes))
    assert asked[-1] == []


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")
def test_a_font_whose_codes_are_letters_is_read_by_ocr():
    doc = read_pdf(_type3_pdf(_coded_document(), codes=LETTER_CODES))
    assert (doc.title, doc.authors) == ("Rounds at Dawn", ["Anna Berg"])
    text = " ".join(b.text for b in doc.blocks)
    assert "three days before the assay" in text and "cells were grown" in text


def test_a_real_bitmap_font_paper_is_read_by_ocr_on_every_page():
    """ACM PODS 1995 (pdfs-wide dev): Type 3 bitmap fonts, no character map on any page; one page's codes
    read as signs and digits, which the text rule kept on pages after the first.  The font's data
    sends every page to OCR.  ISCA SLaTE 2010's Type 3 fonts carry no map either but number their
    glyphs by ASCII: its text is kept."""
    import pypdfium2 as pdfium

    from papershelf.ingest.pdf.reader import _read_pages

    for name, want in (("acm-pods-1995-database-metatheory.pdf", 18),
                       ("isca-slate-2010-speech-language-courses.pdf", 0)):
        pdf = pdfium.PdfDocument(shared("pdfs-wide", name).read_bytes())
        coded: list[float] = []
        pages = _read_pages(pdf, None, coded)[0]
        assert len(ocr.pages_to_ocr(pages, "auto", coded)) == want, name
        assert len(ocr.pages_to_ocr(pages, "auto")) == (17 if want else 0)  # the text alone: one page left


def _line(text: str, top: float = 100) -> Line:
    return Line(1, 72, top, 400, top + 10, text, 10.0, False)


def test_unreadable_text_is_told_from_the_text_alone():
    text = [_line(BODY, 100 + 12 * k) for k in range(6)]
    assert not ocr.reading(text)
    assert not ocr.reading(text + [_line("x = a + b, y ≤ 2 and I ⊂ A", 200)])  # a little math is text
    assert ocr.reading([_line("%372*5!'6!$'82 &.+!)+005!8+4+!-4382!/2!1+*/71!,34!6.4++", 100 + 12 * k)
                        for k in range(3)])  # codes read as signs
    assert ocr.reading([_line("! \" # $ % & ' ( ! ) \" * \" + , - ! Q O a T P Q R", 100 + 12 * k)
                        for k in range(4)])  # a code per word
    assert ocr.reading([_line("\x01\x04\x01\x06Ab\x05\x07\x01\t\x08\x0bcd\x0c\r\x0e", 100 + 12 * k)
                        for k in range(4)])  # control codes
    pages = [([_line("\x01\x04 ab\x05\x07\x01 \x08\x0b cd\x0c\x0e", 100 + 12 * k) for k in range(6)], 612.0, 792.0),
             (text, 612.0, 792.0)]
    assert ocr.pages_to_ocr(pages, "auto") == [0]
    assert ocr.pages_to_ocr(pages, "never") == []


def test_every_page_of_glyph_codes_is_read_by_ocr_when_they_are_most_of_the_document():
    """A document whose fonts give codes throughout (a Type 3 bitmap font without glyph names on every
    page) has all such pages read, not the first alone; a page of a table's figures among pages of
    text, which holds few letters too, keeps its own text; a page of control codes of many kinds is
    read wherever it stands."""
    def page(text: str) -> tuple[list[Line], float, float]:
        return [_line(text, 100 + 12 * k) for k in range(6)], 612.0, 792.0

    text, blank = page(BODY), ([], 612.0, 792.0)
    signs = page("! \" # $ % & ' ( ! ) \" * \" + , - ! Q O a T P Q R")
    figures = page("12.4 (3.1) 0.82 <0.001 17.9 (2.2) 0.45 0.031")
    codes = page("\x01\x04 ab\x05\x07\x01 \x08\x10 cd\x0f\x0e")
    assert ocr.pages_to_ocr([signs, signs, blank, signs, text], "auto") == [0, 1, 2, 3]
    assert ocr.pages_to_ocr([text, figures, text, text], "auto") == []
    assert ocr.pages_to_ocr([text, figures, figures, figures], "auto") == []  # a document of tables
    assert ocr.pages_to_ocr([text, text, codes, text], "auto") == [2]
    assert ocr.pages_to_ocr([signs] * (ocr.CODE_PAGES + 5), "auto") == list(range(ocr.CODE_PAGES))
    spaced = page("数 字 金 融 发 展 对 企 业 创 新 的 影 响 研 究 表 明")  # CJK print that pdfium spaced: text
    assert ocr.pages_to_ocr([spaced, spaced, spaced], "auto") == []


def test_without_tesseract_a_document_of_glyph_codes_fails_as_needing_ocr(monkeypatch):
    """Its words would be the font's control codes: the file is not indexed, it fails as a scan does
    without Tesseract, and the next `add` reads it again once OCR can run; a document whose fonts give
    codes on one page among text keeps its text."""
    lines = [(BODY, 72, 700 - 14 * k, 10) for k in range(30)]
    coded = _type3_pdf(lines, apart=400)
    monkeypatch.setattr(ocr, "engine", lambda: None)
    with pytest.raises(IngestError, match="glyph codes") as failed:
        read_pdf(coded)
    assert "needs OCR" in str(failed.value)
    with pytest.raises(IngestError, match="glyph codes"):  # codes read as signs, which by the text alone may be
        read_pdf(_type3_pdf(lines))  # a table's page (kept at 9487e87); the font's own data says codes
    monkeypatch.setattr(ocr, "engine", lambda: (object(), "tesseract 5"))
    assert ocr.may_help(str(failed.value))
    assert not ocr.may_help("damaged or truncated PDF")
