"""A font's weight read from its own glyphs, for fonts under hashed names that say nothing of it.

Typesetting systems that subset fonts under hashed names ("AdvOT2cba4af3", "AdvP4AD05B") drop the
words ("Bold", "Semibold") that say a font's weight, and many set no ForceBold flag either, so a
paper's bold headings read as plain text.  The glyphs still show it: a bold face draws its stems
about one and a half times as thick as the same family's text face.  The stem is measured on the
simplest glyph the font has ("l", else "i"): its outline's area over its height, in ems.  Text faces
measured on the wide corpus draw an "l" 0.059-0.095 em thick and an "i" (with its dot) 0.047-0.080
em; bold faces 0.130-0.175 and 0.110-0.160.
"""

from __future__ import annotations

import ctypes
import re

import pypdfium2.raw as raw

# A name that states a weight (bold or not), or a face's name: the name is believed (a face's own
# design, Calibri's or Verdana's, or its small capitals, may draw thick stems at its text weight).  Only
# a hashed name (a run of hexadecimal characters with a digit: "advp4ad05d", "advot212dd343.bi") that
# states no weight is weighed by its glyphs.
_WEIGHED_NAME = re.compile(r"bold|black|heavy|demi|medi|semi|book|regu|roman|light|thin|norm|plain|lt\b|"
                           r"^(?:cm|ec|sf|t1x|lm|rm|mt|ms)|math|symbol|dingbat|mono|courier|italic|oblique")
_HASH = re.compile(r"[0-9a-f]{4,}")
_STEMS = (("l", 0.115), ("i", 0.100))  # (glyph, thickness in ems from which the face is bold)


def says_weight(name: str) -> bool:
    """The font's name (lowercase, no subset prefix) states its weight, its kind (maths, symbols,
    code), or is a face's name rather than a hash."""
    hashed = any(any(c.isdigit() for c in m.group()) for m in _HASH.finditer(name))
    return not hashed or _WEIGHED_NAME.search(name) is not None


def _area_height(font, ch: str) -> tuple[float, float] | None:
    """The glyph's outline area and height in ems (a curve read through its control points)."""
    path = raw.FPDFFont_GetGlyphPath(font, ord(ch), ctypes.c_float(1.0))
    if not path:
        return None
    x, y = ctypes.c_float(), ctypes.c_float()
    total, low, high = 0.0, 1e9, -1e9
    ring: list[tuple[float, float]] = []
    for k in range(raw.FPDFGlyphPath_CountGlyphSegments(path)):
        seg = raw.FPDFGlyphPath_GetGlyphPathSegment(path, k)
        if not seg or not raw.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y)):
            return None
        if raw.FPDFPathSegment_GetType(seg) == raw.FPDF_SEGMENT_MOVETO and ring:
            total += _shoelace(ring)
            ring = []
        ring.append((x.value, y.value))
        low, high = min(low, y.value), max(high, y.value)
    total += _shoelace(ring)
    return (abs(total), high - low) if ring else None


def _shoelace(ring: list[tuple[float, float]]) -> float:
    return 0.5 * sum(ring[i][0] * ring[i - 1][1] - ring[i - 1][0] * ring[i][1] for i in range(len(ring)))


def drawn_bold(textpage, index: int) -> bool:
    """Character `index`'s font draws its stems as a bold face does (False when it cannot tell)."""
    obj = raw.FPDFText_GetTextObject(textpage, index)
    font = raw.FPDFTextObj_GetFont(obj) if obj else None
    if not font:
        return False
    for ch, bold_from in _STEMS:
        measured = _area_height(font, ch)
        if measured is not None and measured[1] > 0.3:  # a glyph the font draws (not an empty box)
            return measured[0] / measured[1] >= bold_from
    return False
