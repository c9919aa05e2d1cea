"""The wide gaps between a line's words, kept on the line for a table's cells (issue #38).

A line is cut into pieces where its rectangles lie far apart on one baseline (`script_boxes._pieces`:
two columns, or a table's cells drawn one text object each).  But pdfium joins the glyphs of one
text object on one baseline into one rectangle, spaces and all, however far apart they stand: a
table typeset as one text object per row ("N schools   1   1   2") comes out as one line, and so does
a row whose columns stand only an em or two apart.  Cutting every such line would cut running
heads, contents rows and code listings too, so the line is left whole and its gaps are measured and
kept (`Line.gaps`): a table's cells (`table_columns`) cut its rows at the gaps its other rows show
to be a column's.

Measuring costs two pdfium calls a word, so only a chunk whose rectangles are wider than its
characters could fill (`_ROOMY`: running text fills its line) or that holds only a few words (a
short row of two values) is measured.
"""

from __future__ import annotations

from collections.abc import Callable

Rect = tuple[float, float, float, float]
Word = tuple[float, float, float]  # a word's left and right edge and its middle height
# Glyphs and spaces of running text average under half an em: a chunk wider than its characters at
# this width, plus an em, has room for a gap between columns.
_ROOMY = 0.5
_FEW = 3  # a chunk of this many spaces or fewer is measured whatever its width (few calls)
OPEN = 1.0  # em: a gap between words this wide may part two columns (a word space is 0.25-0.5 em, a spaced sign 0.8)


def cut_gap(size: float) -> float:
    """The gap on one baseline that parts two pieces of a line (`script_boxes._pieces`' own)."""
    return max(12.0, 2.5 * size)


def measured(text: str, rects: list[Rect], size: float, box_of: Callable[[int], Rect | None]) -> list[Word]:
    """The words of a chunk that may hold a column gap (none for running text; see the module's
    docstring).  `box_of(k)` is the box (x0, top, x1, bottom, y down) of `text`'s character k."""
    if size <= 0 or " " not in text or not rects:
        return []
    roomy = max(r[2] for r in rects) - min(r[0] for r in rects) >= _ROOMY * len(text) * size + size
    if not roomy and text.count(" ") > _FEW:
        return []
    return _word_boxes(text, box_of)


def inner_gaps(words: list[Word], box: Rect, size: float) -> tuple[tuple[int, float, float], ...]:
    """The gaps of at least `OPEN` em between the words of one line (its `box`): (words before it,
    its left edge, its right edge)."""
    mine = [w for w in words if box[0] - 1 <= (w[0] + w[1]) / 2 <= box[2] + 1 and box[1] - 1 <= w[2] <= box[3] + 1]
    return tuple((k + 1, a[1], b[0]) for k, (a, b) in enumerate(zip(mine, mine[1:])) if b[0] - a[1] >= OPEN * size)


def _word_boxes(text: str, box_of: Callable[[int], Rect | None]) -> list[Word]:
    """Each word's left and right edge and its middle height, left to right."""
    out = []
    k = 0
    for word in text.split(" "):
        if word.strip():
            first, last = box_of(k), box_of(k + len(word) - 1)
            if first is not None and last is not None and last[2] >= first[0]:
                out.append((first[0], last[2], (first[1] + first[3]) / 2))
        k += len(word) + 1
    return sorted(out)
