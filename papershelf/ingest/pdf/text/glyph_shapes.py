"""Symbols a font encodes as Latin-1 letters, read from the glyph's own shape.

Typesetting systems' mathematical fonts (3B2's Advent "Mathematical Pi" fonts set papers of Science,
Wiley, Taylor & Francis and Elsevier alike) encode their symbols at Latin-1 codes and ship no
ToUnicode map, so pdfium gives "CI ¼ 0.27" for "CI = 0.27" and "P þ ER" for "P + ER".  The font's
own data does not help: its glyphs are *named* ``onequarter``.  What the paper prints is the
glyph's drawing, so that is what is read: the glyph is rendered (pdfium draws its text object),
and compared with the candidate symbols drawn by pdfium's standard fonts *and* with the letter the
code claims.  The symbol replaces the code only when its drawing matches clearly better than the
letter's own (a real "é" or "¼" stays).

Only codes U+00A1 … U+00FF of a font flagged symbolic are looked at, once per font and code on a
page, so a page pays for a render only where such a font is used.
"""

from __future__ import annotations

import ctypes
import functools
import math
import re
import weakref
from dataclasses import dataclass

import numpy as np
from pypdfium2 import raw

# Candidates and the standard fonts that draw them (WinAnsi text fonts; Symbol for the rest).
_TEXT_FONTS = (b"Helvetica", b"Times-Roman")
_IN_TEXT_FONTS = "=+×±÷<>°·()[]/|"
_IN_SYMBOL = "=+−×±÷<>≤≥∼≈°′″()[]/|→∞∝∂"
_CANDIDATES = "".join(dict.fromkeys(_IN_TEXT_FONTS + _IN_SYMBOL))
SIZE = 24  # the side of the square drawings are compared in
_INK = 64
ASPECT = 2.0  # a distance's weight on the aspects' log ratio
LATIN1 = re.compile("[\u00a1-\u00ff]")  # the codes looked at (of a symbolic font only)
_MATCH = 2.0  # a symbol's drawing must be at most this far …
_MARGIN = 1.0  # … and this much nearer than the letter the code claims
# What a code U+00A1 … U+00FF means in Adobe's StandardEncoding, which an old PostScript font without a
# ToUnicode map uses and pdfium reads as Latin-1 ("speci®c", "MartõÂnez": `glyphs` repairs those).
_STANDARD = dict(zip("¡¢£¤¥¦§¨©ª«¬\xad®¯±²³´¶·¸¹º»¼½¿ÁÂÃÄÅÆÇÈÊËÍÎÏÐáãèéêëñõøùúû",
                     ["¡", "¢", "£", "⁄", "¥", "ƒ", "§", "¤", "'", "“", "«", "‹", "›", "fi", "fl", "–", "†", "‡", "·",
                      "¶", "•", "‚", "„", "”", "»", "…", "‰", "¿", "`", "´", "ˆ", "˜", "¯", "˘", "˙", "¨", "˚", "¸",
                      "˝", "˛", "ˇ", "—", "Æ", "ª", "Ł", "Ø", "Œ", "º", "æ", "ı", "ł", "ø", "œ", "ß"], strict=True))
_ACCENTS = "¨¯´¸"  # spacing accents: `glyphs.place_accents` joins them to their letters


def _ink(bitmap) -> np.ndarray | None:
    """The alpha channel of a rendered BGRA bitmap (destroyed here)."""
    if not bitmap:
        return None
    try:
        w, h = raw.FPDFBitmap_GetWidth(bitmap), raw.FPDFBitmap_GetHeight(bitmap)
        stride = raw.FPDFBitmap_GetStride(bitmap)
        if w <= 0 or h <= 0 or w * h > 4_000_000:
            return None
        buf = ctypes.cast(raw.FPDFBitmap_GetBuffer(bitmap), ctypes.POINTER(ctypes.c_uint8))
        rows = np.ctypeslib.as_array(buf, shape=(h * stride,)).reshape(h, stride)
        return rows[:, :w * 4].reshape(h, w, 4)[:, :, 3].copy()
    finally:
        raw.FPDFBitmap_Destroy(bitmap)


# (a - b)² for every two rows (or columns) of the grid; 4 · SIZE² is farther than any two cells are.
_SQUARES = (np.arange(SIZE)[:, None] - np.arange(SIZE)[None, :]) ** 2
_NONE = 4 * SIZE * SIZE


def _nearest_ink(held: np.ndarray) -> np.ndarray:
    """Per cell of the grid (flat), the distance to the nearest cell of `held` (a SIZE × SIZE mask, not
    empty), in two passes: along each row, then across the rows.  Squared distances are whole numbers,
    so the root of the least is exactly the least of the roots."""
    along = np.where(held[:, None, :], _SQUARES[None, :, :], _NONE).min(-1)  # [row of ink, column]
    return np.sqrt((_SQUARES[:, :, None] + along[None, :, :]).min(1).astype(float)).reshape(-1)


@dataclass(frozen=True)
class Drawing:
    """A glyph's ink stretched into a SIZE square: the grid cells it covers, every cell's distance to
    the nearest ink, and the ink's width ÷ height (kept apart: a minus and a square both fill it)."""

    cells: np.ndarray  # flat indices of the cells holding ink
    near: np.ndarray  # per cell, the distance to the nearest ink
    aspect: float


def drawing(ink: np.ndarray) -> Drawing | None:
    """The drawing of rendered ink: points at least half as dark as the darkest (a thin bar drawn
    faint by anti-aliasing counts like a thick one)."""
    ys, xs = np.nonzero(ink >= max(_INK, int(ink.max()) // 2))
    if not len(ys):
        return None
    h, w = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
    rows = np.minimum(((ys - ys.min() + 0.5) / h * SIZE).astype(int), SIZE - 1)
    cols = np.minimum(((xs - xs.min() + 0.5) / w * SIZE).astype(int), SIZE - 1)
    held = np.zeros(SIZE * SIZE, dtype=bool)
    held[rows * SIZE + cols] = True
    return Drawing(np.flatnonzero(held), _nearest_ink(held.reshape(SIZE, SIZE)), float(w / h))


def distance(a: Drawing, b: Drawing) -> float:
    """How far apart two drawings are: the mean distance from each one's ink to the other's nearest
    (both ways; a wave is far from a straight bar), plus how much their aspects differ."""
    return float(b.near[a.cells].mean() + a.near[b.cells].mean()) / 2 + ASPECT * abs(math.log(a.aspect / b.aspect))


@functools.cache
def _document():  # a blank document the standard fonts draw the candidates in (kept for the process)
    return raw.FPDF_CreateNewDocument()


def standard_glyph(ch: str, font: bytes) -> tuple[Drawing, float, float] | None:
    """`ch` as pdfium's standard font `font` draws it, and where its ink starts and ends above the
    baseline, in ems (None when the font has no such glyph)."""
    obj = raw.FPDFPageObj_NewTextObj(_document(), font, ctypes.c_float(40.0))
    text = ctypes.create_string_buffer((ch + "\0").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(text, ctypes.POINTER(ctypes.c_ushort)))
    bounds = [ctypes.c_float() for _ in range(4)]
    raw.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in bounds))
    ink = _ink(raw.FPDFTextObj_GetRenderedBitmap(_document(), None, obj, ctypes.c_float(2.0)))
    raw.FPDFPageObj_Destroy(obj)
    drawn = None if ink is None else drawing(ink)
    return None if drawn is None else (drawn, bounds[1].value / 40.0, bounds[3].value / 40.0)


@functools.cache
def drawings(ch: str) -> tuple[Drawing, ...]:
    """The character as the standard fonts draw it (those that have it)."""
    fonts = (_TEXT_FONTS if ch in _IN_TEXT_FONTS or ch not in _IN_SYMBOL else ()) \
        + ((b"Symbol",) if ch in _IN_SYMBOL else ())
    return tuple(g[0] for g in (standard_glyph(ch, font) for font in fonts) if g is not None)


def read_drawing(drawn: Drawing, claimed: str) -> str | None:
    """The symbol `drawn` shows when it is clearly not the `claimed` letter, else None."""
    # what the code claims, or what it means in StandardEncoding (then `glyphs` reads it)
    own = min((distance(drawn, d) for c in {claimed, _STANDARD.get(claimed, claimed)} for d in drawings(c)),
              default=None)
    if own is None:
        return None  # nothing to weigh the symbol against: keep what the font says
    far, symbol = min((min((distance(drawn, d) for d in drawings(c)), default=math.inf), c) for c in _CANDIDATES)
    if symbol != claimed and far <= _MATCH and own - far >= _MARGIN:
        return symbol
    return None


def glyph_drawing(page, textpage, index: int, box: tuple[float, float, float, float]) -> Drawing | None:
    """Character `index`'s glyph as its page draws it: its text object rendered, cropped to the
    character's box (page space: left, bottom, right, top) when the object holds more."""
    obj = raw.FPDFText_GetTextObject(textpage, index)
    if not obj:
        return None
    bounds = [ctypes.c_float() for _ in range(4)]
    if not raw.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in bounds)):
        return None
    left, bottom, right, top = (v.value for v in bounds)
    if right - left <= 0 or top - bottom <= 0 or max(right - left, top - bottom) > 400:
        return None  # no glyph, or an object too large to be one symbol's run
    scale = min(32.0, max(4.0, 64.0 / max(box[2] - box[0], box[3] - box[1], 0.5)))  # ≈ 64 px a glyph
    ink = _ink(raw.FPDFTextObj_GetRenderedBitmap(page.pdf.raw, page.raw, obj, ctypes.c_float(scale)))
    if ink is None:
        return None
    h, w = ink.shape
    sx, sy = w / (right - left), h / (top - bottom)
    x0, x1 = int((box[0] - left) * sx), int(np.ceil((box[2] - left) * sx))
    y0, y1 = int((top - box[3]) * sy), int(np.ceil((top - box[1]) * sy))
    crop = ink[max(0, y0 - 1):min(h, y1 + 1), max(0, x0 - 1):min(w, x1 + 1)]
    return drawing(crop) if crop.size else None


# What each (font, code) of a document was read as: a symbol is drawn alike on every page.
_READ: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _text_letter(tp, idx: int, ch: str, font: str) -> bool:
    """A letter code beside an ASCII letter of its own font (`font`, the font's name at `idx`): a text
    font's own accented letter."""
    if not (ch.isalpha() or ch in _STANDARD and _STANDARD[ch].isalpha()):
        return False
    for k in (idx - 1, idx + 1):
        near = raw.FPDFText_GetUnicode(tp.raw, k) if k >= 0 else 0
        if chr(near).isascii() and chr(near).isalpha() and tp.font_name(k) == font:
            return True
    return False


def read_symbols(tp, text: str, lead16: int) -> str:
    """`text` (a line of `tp`, starting at UTF-16 offset `lead16`) with each Latin-1 code of a symbolic
    font replaced by the symbol its glyph draws, where it draws one (same length)."""
    chars = list(text)
    offset = lead16
    box = [ctypes.c_double() for _ in range(4)]
    read = _READ.setdefault(tp.page.pdf, {})
    for i, ch in enumerate(chars):
        at = offset
        offset += 1 if ch < "\U00010000" else 2
        if not "\u00a1" <= ch <= "\u00ff" or ch in _ACCENTS:
            continue
        if i and chars[i - 1].isalpha() and _STANDARD.get(ch, "").isalpha():
            continue  # a letter inside a word ("Garcõ´a": StandardEncoding's dotless i under an accent)
        idx = tp.char_index(at)
        if idx < 0 or not tp.symbolic(idx):
            continue
        font = tp.font_name(idx)
        if _text_letter(tp, idx, ch, font):
            continue
        key = (font, ch)
        if key not in read:
            raw.FPDFText_GetCharBox(tp.raw, idx, *(ctypes.byref(v) for v in box))
            left, right, bottom, top = (v.value for v in box)
            drawn = glyph_drawing(tp.page, tp.raw, idx, (left, bottom, right, top))
            read[key] = None if drawn is None else read_drawing(drawn, ch)
        chars[i] = read[key] or ch
    return "".join(chars)
