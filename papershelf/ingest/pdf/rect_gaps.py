"""Wide gaps inside one of pdfium's text rectangles: a table's row "N schools   1   1   2" (issue #38).

A line is cut into pieces where its rectangles lie far apart on one baseline (`script_boxes._pieces`:
two columns, or a table's cells).  But pdfium joins the glyphs of one text object on one baseline
into one rectangle, spaces and all, however far apart they stand: a table typeset as one text
object per row comes out as one rectangle from its first cell to its last, and the row is read as a
single cell.  The words' own boxes show the gaps: each rectangle is cut where the gap between two
words is as wide as the gap `_pieces` cuts at, so the pieces are the same whether the typesetter
drew a row as one object or as one per cell.

Measuring costs two pdfium calls a word, so only a chunk whose rectangles are wider than its
characters could fill is measured and cut (`_ROOMY`): running text fills its line; a short chunk
(a few words: a table's row of two values) is measured but not cut.  The gaps of a measured
line that may part columns but are too narrow to cut at (`inner_gaps`: a table set tight) are kept
on the line for the table's cells to weigh against its other rows (`table_columns`).
"""

from __future__ import annotations

from collections.abc import Callable

Rect = tuple[float, float, float, float]
Word = tuple[float, float, float]  # a word's left and right edge and its middle height
_FEW = 3  # a chunk of this many spaces or fewer is measured whatever its width (a short row: few calls)
OPEN = 0.7  # em: a gap between words this wide may part two columns (a word space is 0.25-0.5 em)
# Glyphs and spaces of running text average under half an em: a chunk wider than its characters at
# this width, plus an em, has room for a gap between columns.
_ROOMY = 0.5


def cut_gap(size: float) -> float:
    """The gap on one baseline that parts two pieces of a line (`script_boxes._pieces`' own)."""
    return max(12.0, 2.5 * size)


def wide_spaced(text: str, rects: list[Rect], size: float,
                box_of: Callable[[int], Rect | None]) -> tuple[list[Rect], list[Word]]:
    """`rects` with each one cut where two of `text`'s words inside it stand over `cut_gap` apart, and
    the words measured (none when the chunk fills its rectangles: running text).  `box_of(k)` is the
    box (x0, top, x1, bottom, y down) of `text`'s character k (None: none)."""
    if size <= 0 or " " not in text or not rects:
        return rects, []
    roomy = max(r[2] for r in rects) - min(r[0] for r in rects) >= _ROOMY * len(text) * size + size
    if not roomy and text.count(" ") > _FEW:
        return rects, []
    words = _word_boxes(text, box_of)
    if not roomy:
        return rects, words
    out: list[Rect] = []
    for r in rects:
        inside = [w for w in words if r[0] - 1 <= (w[0] + w[1]) / 2 <= r[2] + 1 and r[1] - 1 <= w[2] <= r[3] + 1]
        x0 = r[0]
        for a, b in zip(inside, inside[1:]):
            if b[0] - a[1] > cut_gap(size):
                out.append((x0, r[1], a[1], r[3]))
                x0 = b[0]
        out.append((x0, r[1], r[2], r[3]))
    return out, words


def inner_gaps(words: list[Word], box: Rect, size: float) -> tuple[tuple[int, float, float], ...]:
    """The gaps of at least `OPEN` em between the words of one line (its `box`): (words before it,
    its left edge, its right edge).  A table's narrow column gaps are among them; `table_columns`
    tells them from wide word spaces by the table's other rows."""
    mine = [w for w in words if box[0] - 1 <= (w[0] + w[1]) / 2 <= box[2] + 1 and box[1] - 1 <= w[2] <= box[3] + 1]
    return tuple((k + 1, a[1], b[0]) for k, (a, b) in enumerate(zip(mine, mine[1:])) if b[0] - a[1] >= OPEN * size)


def _word_boxes(text: str, box_of: Callable[[int], Rect | None]) -> list[Word]:
    """Each word's left and right edge and its middle height, left to right as the text runs."""
    out = []
    k = 0
    for word in text.split(" "):
        if word.strip():
            first, last = box_of(k), box_of(k + len(word) - 1)
            if first is not None and last is not None and last[2] >= first[0]:
                out.append((first[0], last[2], (first[1] + first[3]) / 2))
        k += len(word) + 1
    return sorted(out)
