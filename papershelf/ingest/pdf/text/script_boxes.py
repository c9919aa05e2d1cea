"""The geometry of a line's glyph boxes, apart from pdfium: pieces set at different heights (a raised
or lowered script, stacked indices), the nearest piece to a point, a line's main box."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable

import numpy as np

from .rotation import sideways_box, upright_box


def _pieces(boxes: list[tuple], size: float) -> list[list[tuple]]:
    """Boxes grouped into visual lines: cut at a wide gap on one baseline (two columns) or where
    the next box sits below the last (pdfium joined two lines).  Raised or lowered boxes that
    overlap the line (super- and subscripts) stay in it."""
    pieces = [[boxes[0]]]
    top, bottom = boxes[0][1], boxes[0][3]
    for b in boxes[1:]:
        cur = pieces[-1]
        overlap = min(bottom, b[3]) - max(top, b[1])
        new_line = overlap < 0.3 * min(bottom - top, b[3] - b[1])
        if new_line or b[0] - cur[-1][2] > max(12.0, 2.5 * size):
            pieces.append([b])
            top, bottom = b[1], b[3]
        else:
            cur.append(b)
            top, bottom = min(top, b[1]), max(bottom, b[3])
    return pieces


def sideways_split(pieces: list[list[tuple]], turns: list[int], size: float) -> tuple[list[list[tuple]], list[int]]:
    """The pieces with those of text set sideways (a turn of 90 or 270) cut into its own visual lines:
    `_pieces` cuts upright text, so a sideways piece is cut in the frame that sets it upright."""
    if 90 not in turns and 270 not in turns:
        return pieces, turns
    out: list[list[tuple]] = []
    out_turns: list[int] = []
    for piece, turn in zip(pieces, turns):
        parts = [piece]
        if turn in (90, 270) and len(piece) > 1:
            parts = [[sideways_box(b, turn) for b in p] for p in _pieces([upright_box(b, turn) for b in piece], size)]
        out += parts
        out_turns += [turn] * len(parts)
    return out, out_turns


def _nearest(bounds: list[tuple], x: float, y: float) -> int:
    """Index of the first box nearest to (x, y), vertical distance counting twice.  A box holding
    the point is at 0, so no later one is nearer.  Runs for every character of a cut line."""
    best, best_d = 0, math.inf
    for k, (x0, y0, x1, y1) in enumerate(bounds):
        # max(x0 - x, 0.0, x - x1) + 2 * max(y0 - y, 0.0, y - y1), without the calls
        dx, beyond = x0 - x, x - x1
        if beyond > dx:
            dx = beyond
        if dx < 0.0:
            dx = 0.0
        dy, beyond = y0 - y, y - y1
        if beyond > dy:
            dy = beyond
        if dy < 0.0:
            dy = 0.0
        d = dx + 2 * dy
        if d < best_d:
            if d == 0:
                return k
            best, best_d = k, d
    return best


def nearest_all(bounds: list[tuple], xs: list[float], ys: list[float]) -> list[int]:
    """`_nearest` of every point (xs[i], ys[i]) at once: the same numbers (the same sums of the same
    doubles), and the first box of the least distance (`argmin`), as `_nearest` returns."""
    if not xs:
        return []
    b = np.asarray(bounds, dtype=float)
    x, y = np.asarray(xs, dtype=float)[:, None], np.asarray(ys, dtype=float)[:, None]
    dx = np.maximum(np.maximum(b[:, 0] - x, x - b[:, 2]), 0.0)
    dy = np.maximum(np.maximum(b[:, 1] - y, y - b[:, 3]), 0.0)
    return (dx + 2 * dy).argmin(axis=1).tolist()


def _stacked(pieces: list[list[tuple]]) -> bool:
    """Pieces one above the other (a line pdfium joined to the next) rather than side by side."""
    tops = [min(b[1] for b in p) for p in pieces]
    return all(b > a + 2 for a, b in itertools.pairwise(tops))


def _main_box(boxes: list[tuple]) -> tuple:
    return max(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))


def _has_script(boxes: list[tuple], size: float) -> bool:
    """A small box on a raised or lowered baseline: a superscript or subscript."""
    main = _main_box(boxes)
    small = [b for b in boxes if b[3] - b[1] < 0.8 * (main[3] - main[1])]
    return any(main[3] - b[3] > 0.25 * size or (b[3] - main[3] > 0.1 * size and b[1] - main[1] > 0.25 * size)
               for b in small)


def text_size(boxes: list[tuple], size: float, size_at: Callable[[int], float], first: int, text: str) -> float:
    """The size of a line's text, given its first glyph's (`size`): that one, unless the line opens
    with a raised mark set smaller than the text after it (a byline's line that opens with the
    affiliation mark of a name the line above broke off, "^1,3, Gus Holm^4", or marks set before
    the names, "^1Anna Berg, ^2Carl Dahl"): then the size of the first glyph after the mark.  Else
    the whole line would take the mark's size, and its marks would read as text.  A mark is a few
    digits, symbols or lower-case letters (`text`: the line's text), never a word, and a capitalised
    word follows it (an exponent opening a line of math is no mark)."""
    if len(boxes) < 2:
        return size
    main, lead = _main_box(boxes), boxes[0]
    if lead is main:  # a mark of several glyphs drawn in one piece, the names after it in pieces of a glyph or
        main = max(boxes[1:], key=lambda b: b[3] - b[1])  # a few (small capitals): the tallest of those is the text
    tall = main[3] - main[1]
    if lead[3] - lead[1] >= 0.8 * tall or main[3] - lead[3] < 0.15 * tall:
        return size
    for k in range(1, 9):
        if (later := size_at(first + k)) > 1.2 * size:
            return later if _MARK.fullmatch(text[:k]) and _NAME_AFTER.match(text[k:]) else size
    return size


_MARK = re.compile(r"[\d\s,.;*∗†‡§¶#⋆a-h]+")
# a capitalised word (or one in capitals, accented too): a name, an institution, a note
_NAME_AFTER = re.compile(r"(?<![\s,])[\s,]*[A-ZÀ-ÖØ-Þ][A-Za-zß-öø-ÿÀ-ÖØ-Þ.'’-]")
