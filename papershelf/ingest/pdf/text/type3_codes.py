"""Text whose font says it is no text: a Type 3 font whose glyphs carry no character map (issue #38).

A Type 3 font draws each glyph with its own procedure (an old TeX bitmap font: a small image per
glyph) and may name them with names no character map resolves ("/a12", "/g65") and no ToUnicode map.
pdfium then gives a glyph's code as its character: the page's "text" is the font's codes, in whatever
order the driver numbered the glyphs ("ZSsRUWT"), searchable garbage.  When those codes fall on
control characters or signs the text alone shows it (`ocr.reading`); when they fall on letters it
does not, but the font's own data does: a font with no font program (a Type 3 font has glyph
procedures, not a file) whose characters pdfium reports as unmapped.

`unmapped_share` asks that of a sample of a page's characters while the page is open (a few dozen
calls, ~0.05 ms on a page of text); `read_as_words` then asks whether those codes happen to read as words anyway (a
font that numbered its glyphs by ASCII, whose text is fine): a page of such a font whose letters
are not shaped as words is read by OCR (`ocr.code_pages`).
"""

from __future__ import annotations

import ctypes
import re

from pypdfium2 import raw

SAMPLE = 48  # characters asked per page, spread evenly over its text
FIRST_ASKED = 8  # ... of which the first this many all mapped (or in a font program): a page of text, done
CODED_SHARE = 0.5  # at least this share of the sample unmapped Type 3 glyphs: the page's text is codes
WORDLIKE_SHARE = 0.8  # a page of such codes reads as text when this share of its letter runs are word-shaped

# A Latin-script letter (Basic Latin to Latin Extended-B): the letters a font's codes come out as.
LATIN_RUN = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]{3,}")
_LOW = "a-z\u00df-\u00f6\u00f8-\u00ff"
_UP = "A-Z\u00c0-\u00d6\u00d8-\u00de"
# A word's part: lowercase, Capitalised or CAPITALS (a run of codes mixes the cases at random).
_PART = re.compile(f"[{_UP}]?[{_LOW}\u0100-\u024f]+|[{_UP}\u0100-\u024f]+(?![{_LOW}])")
_VOWEL = re.compile("[aeiouyAEIOUY\u00c0-\u00c6\u00c8-\u00cf\u00d2-\u00d6\u00d8-\u00dd"
                    "\u00e0-\u00e6\u00e8-\u00ef\u00f2-\u00f6\u00f8-\u00fd\u0100-\u024f]")


def unmapped_share(textpage, count: int) -> float:
    """The share of a sample of the page's `count` characters (pdfium's indexes) drawn in a font with
    no font program (Type 3) that pdfium could map to no character."""
    if count <= 0:
        return 0.0
    step = max(1, count // SAMPLE)
    fonts: dict[int | None, bool] = {}
    size = ctypes.c_size_t(0)
    asked = coded = 0
    for idx in range(step // 2, count, step):
        obj = raw.FPDFText_GetTextObject(textpage, idx)
        if not obj:  # a space or line break pdfium made up
            continue
        asked += 1
        font = raw.FPDFTextObj_GetFont(obj)
        key = ctypes.cast(font, ctypes.c_void_p).value
        if key not in fonts:  # a font program's bytes: none for Type 3 (embedded, as pdfium counts it)
            fonts[key] = bool(font) and bool(raw.FPDFFont_GetIsEmbedded(font)) \
                and bool(raw.FPDFFont_GetFontData(font, None, 0, ctypes.byref(size))) and size.value == 0
        coded += fonts[key] and raw.FPDFText_HasUnicodeMapError(textpage, idx) == 1
        if asked == FIRST_ASKED and not coded:
            break
    return coded / asked if asked else 0.0


def wordlike(run: str) -> bool:
    """A run of Latin letters shaped as words are in any language set in them: lower, Capitalised or
    CAPITALS, or two parts as names and terms join them ("GitHub", "mRNA"); each part of two letters
    or more holds a vowel, but one in capitals of five letters at most (an acronym).  Glyph codes
    numbered in order of use mix the cases at random ("nEjKqs")."""
    if run.isupper() and len(run) <= 5:
        return True
    parts = _PART.findall(run)
    if sum(map(len, parts)) != len(run) or len(parts) > 2 \
            or not all(len(p) < 2 or _VOWEL.search(p) or p.isupper() and len(p) <= 5 for p in parts):
        return False
    return len(parts) == 1 or parts[0].istitle() and parts[1].istitle() \
        or parts[0].islower() and parts[1].isupper() or parts[0].isupper() and parts[1] == "s"


def read_as_words(text: str) -> bool:
    """Whether a text of a coded font's characters reads as words anyway (its codes are its letters):
    most of its runs of three letters or more are word-shaped; too few runs to tell read as words."""
    runs = LATIN_RUN.findall(text)
    return len(runs) < 5 or sum(map(wordlike, runs)) >= WORDLIKE_SHARE * len(runs)
