"""Signs a paper draws from two glyphs set one above the other.

Some typesetting (Portland Press's tables, older journals) prints "±" as a "+" with a "−" drawn
just under it, and "∓" the other way up.  pdfium gives the two glyphs one after the other
("21.03 +− 0.27"), and the lowered "−" has its own text rectangle, so a table row broke into a
row of values ending in "+" and a row of lone "−", and the mean and its error were never one
cell.  Which sign is meant is read from where the glyphs are: the second glyph's middle inside
the first's width (so "+-" set side by side stays as it is), and one glyph wholly above the other.
"""

from __future__ import annotations

import re
from typing import Protocol

# A plus next to a minus, hyphen or en dash, in either order (pdfium may put a space between them)
PAIR = re.compile(r"\+ ?[−\-–]|[−\-–] ?\+")
# pdfium ends its line after a minus drawn lower than the plus when the text goes on at the plus's
# baseline: the line break (two UTF-16 units, as the two spaces that replace it) is no break there
BROKEN_PAIR = re.compile(r"(?<=\+[−\-–]|[−\-–]\+)\r\n(?= )")
_GONE = "\u200b"  # `glyphs.GONE` (one UTF-16 unit, so pdfium's positions hold)

Box = tuple[float, float, float, float]


class _Page(Protocol):
    def char_index(self, text_index: int) -> int: ...
    def char_box(self, index: int) -> Box: ...


def _u16(text: str) -> int:
    return sum(2 if ch >= "\U00010000" else 1 for ch in text)


def _sign(plus: Box, minus: Box) -> str:
    """"±" when the minus sits under the plus, "∓" when over it (boxes y-down), "" when they are
    side by side or overlap in height (two signs written next to each other)."""
    middle = (minus[0] + minus[2]) / 2
    if not plus[0] - 0.5 <= middle <= plus[2] + 0.5 or plus[3] - plus[1] <= 0:
        return ""
    height = plus[3] - plus[1]
    if plus[3] - 0.3 * height <= minus[1] <= plus[3] + 0.6 * height:
        return "±"
    if plus[1] - 0.6 * height <= minus[3] <= plus[1] + 0.3 * height:
        return "∓"
    return ""


def join_signs(tp: _Page, text: str, lead16: int) -> tuple[str, list[Box]]:
    """The text with each stacked pair written as one sign (the lower glyph becomes `GONE`, so the
    string keeps its length in UTF-16 units), and the boxes of the glyphs taken out: the line's
    rectangles that lie inside them are no line of their own."""
    chars, gone = list(text), []
    for m in PAIR.finditer(text):
        first, second = m.start(), m.end() - 1
        i = tp.char_index(lead16 + _u16(text[:first]))
        j = tp.char_index(lead16 + _u16(text[:second]))
        if i < 0 or j < 0:
            continue
        a, b = tp.char_box(i), tp.char_box(j)
        plus, minus = (a, b) if text[first] == "+" else (b, a)
        sign = _sign(plus, minus)
        if not sign:
            continue
        chars[first] = sign
        for k in range(first + 1, second + 1):
            chars[k] = _GONE
        gone.append(minus)
    return "".join(chars), gone


def outside(boxes: list[Box], gone: list[Box]) -> list[Box]:
    """The rectangles that are not just a glyph `join_signs` took out (within half a point)."""
    def inside(r: Box, g: Box) -> bool:
        return r[0] >= g[0] - 0.5 and r[1] >= g[1] - 0.5 and r[2] <= g[2] + 0.5 and r[3] <= g[3] + 0.5
    kept = [r for r in boxes if not any(inside(r, g) for g in gone)]
    return kept or boxes
