"""The drawings of an OCR'd page: its ink that no word read by Tesseract covers, as the boxes a text layer's
page gives for its pictures, plot strokes and ruling lines.

On a born-digital page a figure is an image or path object and a table's rules are path strokes; the region
finder (regions.py) walks from a caption to them.  A scan is one image: its only graphic is the whole page,
so a figure's region was read from its text alone (axis labels) and a table's from its rows.  The scan still
shows the drawing: ink where no word stands.  The page's ink is counted in cells of `CELL` pixels (a cell
with a few inked pixels, not the scan's specks), the cells under the words' boxes are cleared, and the rest
joined into blobs across gaps of `JOIN` cells (a plot's strokes, a photo's shades); a blob large enough to be
a drawing, or long and thin enough to be a rule, is one box.
"""

from __future__ import annotations

from ..objects.graphics import Box

INK = 128  # grey level under which a pixel is ink (as ocr_style.INK)
CELL = 8  # pixels a side: about 2 pt at 300 dpi
MIN_INKED = 3  # inked pixels a cell needs (the scan's specks are single pixels, a stroke crosses a cell)
JOIN = 2  # cells of blank a blob reaches across
MIN_SIDE = 36.0  # points: a drawing at least this wide and tall (a figure's smallest panel, a logo)
MIN_RULE = 72.0  # points: a rule at least this long (a table's rule spans its columns)
PANEL_GAP = 60.0  # points between a figure's panels stacked one over the other (a panel's label and margins)


def drawings(pixels, words: list[tuple[int, int, int, int]], scale: float,
             prose: list[tuple[int, int, int, int]] | None = None) -> list[Box]:
    """The page's drawings as boxes in points (top-down, as `Line`s), from its image `pixels` (a numpy
    array) and the boxes of the words read on it (pixels), `scale` points per pixel; drawings stacked
    with no line of running text (`prose`, pixels) between them are one figure's panels, one box."""
    found = [(x0 * CELL, y0 * CELL, x1 * CELL, y1 * CELL) for x0, y0, x1, y1 in _cells(pixels, words, scale)]
    return [(x0 * scale, y0 * scale, x1 * scale, y1 * scale)
            for x0, y0, x1, y1 in _stacked(found, prose or [], scale)]


Cells = tuple[int, int, int, int]


def _stacked(boxes: list[Cells], prose: list[Cells], scale: float) -> list[Cells]:
    """Drawings one over the other (their spans overlap) within `PANEL_GAP` points, with no line of running
    text between them, joined: the panels "a" over "b" and "c" of one figure, their labels read as words."""
    out = sorted(boxes, key=lambda b: b[1])
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(out):
            for j in range(i + 1, len(out)):
                b = out[j]
                top, bottom = (a, b) if a[1] <= b[1] else (b, a)
                gap = (top[3], bottom[1])
                if a[0] < b[2] and b[0] < a[2] and (gap[1] - gap[0]) * scale <= PANEL_GAP and not any(
                        p[1] < gap[1] and p[3] > gap[0] and p[0] < max(a[2], b[2]) and p[2] > min(a[0], b[0])
                        for p in prose):
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _cells(pixels, words: list[Cells], scale: float) -> list[Cells]:
    """The drawings as boxes in cells: the inked cells no word covers, joined into blobs."""
    height, width = pixels.shape[:2]
    rows, cols = height // CELL, width // CELL
    if not rows or not cols:
        return []
    dark = (pixels[:rows * CELL, :cols * CELL] < INK).reshape(rows, CELL, cols, CELL).sum(axis=(1, 3))
    inked = dark >= MIN_INKED
    for x0, y0, x1, y1 in words:  # a word's cells, and the one around them its ink reaches into
        inked[max(0, y0 // CELL - 1):y1 // CELL + 2, max(0, x0 // CELL - 1):x1 // CELL + 2] = False
    return [b for b in _blobs(inked) if _drawn(b[2] - b[0], b[3] - b[1], CELL * scale)]


def _drawn(w: int, h: int, pt: float) -> bool:
    """A blob `w` x `h` cells of `pt` points is a drawing (large both ways) or a rule (long, a cell or two thin)."""
    return w * pt >= MIN_SIDE and h * pt >= MIN_SIDE or max(w, h) * pt >= MIN_RULE and min(w, h) <= 2


def _blobs(inked) -> list[tuple[int, int, int, int]]:
    """The inked cells joined across `JOIN` blank ones, as boxes in cells (x0, y0, x1, y1), ends exclusive."""
    import numpy as np

    seen = np.zeros_like(inked)
    rows, cols = inked.shape
    out = []
    for y, x in zip(*np.nonzero(inked), strict=True):
        if seen[y, x]:
            continue
        seen[y, x] = True
        stack, box = [(y, x)], [x, y, x + 1, y + 1]
        while stack:
            cy, cx = stack.pop()
            box = [min(box[0], cx), min(box[1], cy), max(box[2], cx + 1), max(box[3], cy + 1)]
            y0, y1, x0, x1 = max(0, cy - JOIN), min(rows, cy + JOIN + 1), max(0, cx - JOIN), min(cols, cx + JOIN + 1)
            near = inked[y0:y1, x0:x1] & ~seen[y0:y1, x0:x1]
            for ny, nx in zip(*np.nonzero(near), strict=True):
                seen[y0 + ny, x0 + nx] = True
                stack.append((y0 + ny, x0 + nx))
        out.append((int(box[0]), int(box[1]), int(box[2]), int(box[3])))
    return out
