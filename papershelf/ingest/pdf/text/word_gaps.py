"""Word spaces pdfium left out of tightly set lines: "possess moregerm cell" -> "more germ".

pdfium writes a space between two glyphs when the gap between them is wider than a threshold of
its own (half the font's space, or a share of the glyphs' widths in a font without one).  In a
tightly justified line (a caption or a table set small, a narrow column) the gaps between words
shrink to about that threshold, and some fall just under it: the words are glued ("moregerm",
"(n1286)mutants", "instancesfrom"), and a search for either word does not find them.  A cell of a
table glued to its neighbour is unsearchable too.

The line's own geometry tells the two kinds of gap apart.  The glyphs' loose boxes run from
their origin to their advance, so the gap between two letters of a word is the tracking (about
the same all along a row) and the gap between two words is that plus the justified word space,
which pdfium's spaces on the same row show.  A gap between two glyphs well above the row's
tracking and close to its word spaces is a word space.

Only tight lines can have glued words, and a justified line sets all its word gaps alike: each
chunk's last word gap is measured (two pdfium calls), and only a chunk where it is narrow (under
`_TIGHT` of the size) has all its glyphs measured.  So the cost stays two calls a line on most pages.
"""

from __future__ import annotations

import ctypes
import statistics

from pypdfium2 import raw

from . import bare_calls as pdfium
from .glyphs import GONE, u16

# A word gap under this share of the size is tight: pdfium's threshold (half a space of 0.25–0.33
# em) lies close under it.  Wider gaps are seen as spaces by pdfium whatever the font.
_TIGHT = 0.18
# A glued gap stands this far (in em) above the row's own tracking, and reaches this share of the
# row's word spaces: a kerned pair or a glyph's loose advance ("f" before "l") stays within a word.
_ABOVE_TRACKING = 0.08
# Shorter chunks (a label, a number, a short cell) are not measured: few words to glue, and many of them.
_SHORTEST = 12
_OF_WORD_SPACE = 0.6


class LooseBoxes:
    """Loose glyph boxes of an upright text page (origin to advance, in page space): only the
    horizontal extent and the box's foot, which is the same for glyphs of one font on one baseline."""

    def __init__(self, textpage) -> None:
        self.raw = textpage
        self.box = raw.FS_RECTF()
        self.ref = ctypes.byref(self.box)

    def __call__(self, idx: int) -> tuple[float, float, float]:
        pdfium.GetLooseCharBox(self.raw, idx, self.ref)
        return self.box.left, self.box.right, self.box.bottom


def glued(text: str, char_index, loose: LooseBoxes, lead16: int, size: float) -> set[int]:
    """Positions k of `text` (a line's chunk) after which a word space belongs that pdfium left out.
    `char_index(i)` maps a UTF-16 text index to pdfium's character index (-1: none)."""
    if size <= 0 or len(text) < _SHORTEST:
        return set()
    k = _space(text)
    if k < 0:
        return set()
    at = lead16 + (k if text.isascii() else u16(text[:k]))
    before, after = char_index(at - u16(text[k - 1])), char_index(at + 1)
    if before < 0 or after < 0:
        return set()
    g = _gap(loose(before), loose(after), size)
    narrow = g is not None and g < _TIGHT
    return _glued_gaps(text, char_index, loose, lead16, size) if narrow else set()


def _space(text: str) -> int:
    """The last space between two glyphs (-1: none): a chunk pdfium ran over two visual lines ends
    on the lower one, where a paragraph's last full line is set tightest."""
    k = text.rfind(" ", 0, len(text) - 1)
    while k > 0:
        if _glyph(text[k - 1]) and _glyph(text[k + 1]):
            return k
        k = text.rfind(" ", 0, k)
    return -1


def _glued_gaps(text: str, char_index, loose: LooseBoxes, lead16: int, size: float) -> set[int]:
    """Every gap of a tight chunk measured, row by row (pdfium may run two visual lines into one)."""
    spaces = [k for k in range(1, len(text) - 1) if text[k] == " " and _glyph(text[k - 1]) and _glyph(text[k + 1])]
    boxes, at = {}, lead16
    for k, ch in enumerate(text):
        if _glyph(ch) and (idx := char_index(at)) >= 0:
            boxes[k] = loose(idx)
        at += u16(ch)
    rows: dict[float, tuple[list[tuple[float, int]], list[float]]] = {}
    for k in range(len(text) - 1):
        g = _gap(boxes.get(k), boxes.get(k + 1), size)
        if g is not None:
            rows.setdefault(round(boxes[k][2], 1), ([], []))[0].append((g, k))
    for k in spaces:
        g = _gap(boxes.get(k - 1), boxes.get(k + 1), size)
        if g is not None and round(boxes[k - 1][2], 1) in rows:
            rows[round(boxes[k - 1][2], 1)][1].append(g)
    out: set[int] = set()
    for pairs, words in rows.values():
        if len(pairs) < 3 or not words:
            continue
        tracking = statistics.median(g for g, _ in pairs)
        least = max(tracking + _ABOVE_TRACKING, _OF_WORD_SPACE * statistics.median(words))
        out.update(k for g, k in pairs if g >= least)
    return out


def _glyph(ch: str) -> bool:
    return not ch.isspace() and ch != GONE


def _gap(left: tuple[float, float, float] | None, right: tuple[float, float, float] | None,
         size: float) -> float | None:
    """The gap from one glyph's advance to the next glyph's origin, in em; None when they do not
    stand on one baseline in one font (their loose boxes' feet differ) or one has no box."""
    if left is None or right is None or abs(left[2] - right[2]) > 0.02 * size:
        return None
    return (right[0] - left[1]) / size


def spaced(text: str, after: set[int]) -> str:
    """`text` with a space put after each position in `after`."""
    if not after:
        return text
    return "".join(ch + " " if k in after else ch for k, ch in enumerate(text))
