"""Text drawn out of reading order on one row: a badge, stamp or logo's words ("Check for updates",
"OPEN ACCESS") drawn in the content stream before the line they sit beside.  pdfium orders a row's
glyphs by the content stream, so such an overlay's words land inside the line ("W. O'Neil RESEARCH
2,3, Rui Kowalski"): the glyph boxes jump right past the line's text, then back to where it stopped.
That jump back, on one row, by two ems or more, cuts the line there, and each side is read on its
own, by position.  Glyphs that jump back anywhere else (a chart's labels, an equation's parts) are
left as they were: the line must go on where it stopped before the jump right (within an em or two),
or, when the overlay opens the line, be set in another font or size than it or be twice its length.
"""

from __future__ import annotations

from collections.abc import Callable

Box = tuple[float, float, float, float]


def _same_row(a: Box, b: Box, size: float) -> bool:
    """Overlapping, or middles apart by less than an em or the taller box: a raised badge and the comma
    after it, or a small badge's lower row and the names beside it, are on one row; the next line of
    text (a leading of more than an em below) is not."""
    return _overlap(a, b) > 0 or abs(a[1] + a[3] - b[1] - b[3]) / 2 < max(size, a[3] - a[1], b[3] - b[1])


def jumps_back(boxes: list[Box], size: float) -> bool:
    """Whether a later text rectangle of a line ends two ems left of where the one before it starts, on
    its row (pdfium's rectangles follow the text's order, so this is rare and cheap to ask first)."""
    back = 2.0 * size
    return any(b[2] < a[0] - back and _same_row(a, b, size) for a, b in zip(boxes, boxes[1:]))


def overlay_cut(chunk: str, start16: int, size: float, char_index: Callable[[int], int],
                char_box: Callable[[int], Box], style: Callable[[int], tuple]) -> int:
    """Where in `chunk` (text from pdfium's text index `start16`) an overlay drawn into the line ends:
    the glyphs jump back left by two ems on their row to where the line stopped before they jumped
    right, or, from an overlay that opens the chunk, to text in another style (`style`: a glyph's
    font and size).  0 when no glyph does."""
    far = 2.0 * size
    prev: Box | None = None
    before_run: Box | None = None  # the line's last glyph before it jumped right
    band: Box | None = None  # the line's glyphs up to there, as one box: its row
    row: Box | None = None
    opening = -1  # the chunk's first glyph
    offset16 = start16
    for k, ch in enumerate(chunk):
        idx = -1 if ch.isspace() else char_index(offset16)
        offset16 += 1 if ch < "\U00010000" else 2
        if idx < 0:
            continue
        box = char_box(idx)
        if prev is None:
            opening = idx
        elif box[0] > prev[2] + far and _same_row(prev, box, size):
            before_run, band = prev, row
        elif box[2] < prev[0] - far and _same_row(prev, box, size):
            if before_run is not None and band is not None:  # back where the line stopped, on its row
                if -size <= box[0] - before_run[2] <= far and _overlap(band, box) >= 0.3 * (box[3] - box[1]):
                    return k
            # an overlay opening the line: in its own style, or a few words before a line of text; overlapping the
            # text's row or a little under it (a badge's lower row "updates" just under the names' baseline)
            elif _overlap(prev, box) > -0.25 * size and (_other_style(style(opening), style(idx))
                                                         or len(chunk) - k >= 2 * k):
                return k
            return 0
        prev = box
        row = box if row is None else (min(row[0], box[0]), min(row[1], box[1]),
                                       max(row[2], box[2]), max(row[3], box[3]))
    return 0


def _overlap(a: Box, b: Box) -> float:
    return min(a[3], b[3]) - max(a[1], b[1])


def _other_style(a: tuple, b: tuple) -> bool:
    """(font, size) pairs of another font or a size a sixth apart or more."""
    return a[0] != b[0] or abs(a[1] - b[1]) > max(a[1], b[1]) / 6
