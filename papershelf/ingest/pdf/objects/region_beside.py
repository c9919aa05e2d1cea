"""An object set beside its caption, not above or below it (regions.py walks up and down).

Some layouts set a caption in a side column of its own, level with its figure or table: a narrow
block of caption lines with the drawing or the table's rows beside it, overlapping it top to bottom.
Walking up or down from such a caption finds only the part of the object that reaches past the
caption's own lines (or nothing), so the object is looked for beside the caption first: drawn
evidence (a picture, a chart's strokes, a table's rules) or rows of cells lying wholly to one side
of the caption and level with most of it.  From that seed the object is walked up and down as any
object is (the walk passed in: `regions._walk`), within the stretch beside the caption.
"""

from __future__ import annotations

import dataclasses

from ..text.lines import Line
from ..text.rotation import span
from .graphics import Box
from .region_rows import _wordy


def _level(b: Box, top: float, bottom: float) -> bool:
    """Level with most of the caption block (its vertical overlap at least half the block's height)."""
    return min(b[3], bottom) - max(b[1], top) >= 0.5 * (bottom - top)


def _cell(pg, ln: Line) -> bool:
    """A table's cell: cell-like (`_Page.cell_like`) and not a run of four words or more (a line of
    the next column's running text shares a baseline with the caption's lines where the page's
    columns were not found)."""
    return pg.cell_like(ln) and not (len(ln.text.split()) >= 4 and _wordy(ln))


def side_block(cap: list[Line], size: float) -> list[Line]:
    """The caption's lines set beside its object: all of them, or, when a side caption runs on under
    the object it stood beside (its last lines go on across the object's width: from the caption's own
    left edge, Science's captions beside a figure on their right; or to its own right edge, JCB's beside
    a figure on their left), the lines of its first, narrow measure (three at least)."""
    left, right = cap[0].x0, cap[0].x1
    narrow = [ln for ln in cap if ln.x1 <= right + size and ln.x0 >= left - size]
    tail = cap[len(narrow):]
    if len(narrow) < 3 or not tail or narrow != cap[:len(narrow)] \
            or any(not (ln.x1 >= right + 4 * size and abs(ln.x0 - left) <= size
                        or ln.x0 <= left - 4 * size and abs(ln.x1 - right) <= size) for ln in tail[:1]) \
            or min(ln.top for ln in tail) < max(ln.bottom for ln in narrow) - 1:
        return cap
    return narrow


def _seed(pg, cap: list[Line], own: tuple[float, float], right: bool, across: bool = False,
          mine: set[int] | None = None) -> Box | None:
    """The union of the drawn parts and cell rows on one side of the caption, level with it and
    within its column span `own`; None when that is no object (a thin mark, one stray label).
    `across`: the caption sits in a margin column, so the object lies past the gutter beside it
    (within one column still).  `mine`: the ids of the whole caption's lines, where `cap` is its
    side block (`side_block`)."""
    x0, top, x1, bottom = (min(ln.x0 for ln in cap), min(ln.top for ln in cap),
                           max(ln.x1 for ln in cap), max(ln.bottom for ln in cap))
    lo, hi = (x1 + 1, own[1]) if right else (own[0], x0 - 1)
    if hi - lo < 4 * pg.body.size:
        return None
    mid = pg.width / 2
    apart = [g for g in pg.gutters] or ([mid] if pg.two_columns else [])
    if any(x0 + 8 < g < x1 - 8 for g in apart):
        return None  # a caption across columns is set over or under its object, not beside it
    size, mine = pg.body.size, mine or {id(ln) for ln in cap}
    drawn = [g for g in pg.graphics if g[3] > top and g[1] < bottom and lo - 1 <= g[0] and g[2] <= hi + 1
             and _level(g, top, bottom) and (g[2] - g[0] >= 2 * size or g[3] - g[1] >= 2 * size)]
    reach = 2.0 * size if across else 0.5 * size  # a margin column's caption set level with its object's foot
    rows = [ln for ln in pg.lines if top - reach <= (ln.top + ln.bottom) / 2 <= bottom + 0.5 * size
            and lo - 1 <= ln.x0 and ln.x1 <= hi + 1 and id(ln) not in mine and _cell(pg, ln)]
    big = any(min(g[2] - g[0], g[3] - g[1]) >= 2 * size and (g[2] - g[0]) * (g[3] - g[1]) >= 12 * size * size
              for g in drawn)  # a picture or a chart's frame, not a long stroke
    if not big and len(rows) < 2 and not (drawn and rows):
        return None
    boxes = drawn + [(ln.x0, ln.top, ln.x1, ln.bottom) for ln in rows]
    low = max(b[3] for b in boxes)
    under = [ln for ln in pg.lines if bottom < ln.top < min(bottom + 1.5 * size, low - 1) and ln.x0 < x1
             and ln.x1 > x0 and id(ln) not in mine]
    if any(ln.x1 > lo or pg.cell_like(ln) for ln in under):
        return None  # a row under the caption, level with the object: the object is under it, not beside it
    around = span(boxes)
    seed = around[0], around[2]
    whole = any(g[0] <= seed[0] + 1 and g[2] >= seed[1] - 1 for g in drawn)  # one picture holds it all
    # a gutter a drawn part lies across: the object is set over the page's columns, not in one of them
    unbridged = [g for g in apart if not any(d[0] < g - 8 and d[2] > g + 8 for d in drawn)]
    if across and any(seed[0] + 8 < g < seed[1] - 8 for g in unbridged) and not whole:
        return None  # things of two columns beside a margin caption: no one object
    if not across and unbridged == apart and any(min(x1, seed[0]) - 1 <= g <= max(x0, seed[1]) + 1
                                                 and not x0 - 1 <= g <= x1 + 1 for g in apart):
        return None  # another column's object, past a gutter
    return around


def _ruled_ends(pg, box: Box, span: tuple[float, float], stops: set[int]) -> Box:
    """The box with what ends the object just above or below it (within a body size): a rule across
    most of it (a table's top or bottom rule) or a line of labels set smaller than the body, mostly
    within its width (a chart's tick labels and axis title), which a walk from the seed alone does not take
    (a thin line, or one or two lines of text, are no object by themselves).  Never a line of a caption
    (`stops`: their ids)."""
    size = pg.body.size
    for _ in range(4):
        grown = box
        for g in pg.graphics:
            if g[3] - g[1] < 3 and span[0] - 1 <= g[0] and g[2] <= span[1] + 1 \
                    and min(g[2], box[2]) - max(g[0], box[0]) >= 0.5 * (box[2] - box[0]) \
                    and (-1 <= box[1] - g[3] < size or -1 <= g[1] - box[3] < size):
                grown = min(grown[0], g[0]), min(grown[1], g[1]), max(grown[2], g[2]), max(grown[3], g[3])
        for ln in pg.lines:
            if ln.size < size - 0.3 and id(ln) not in stops and span[0] - 1 <= ln.x0 and ln.x1 <= span[1] + 1 \
                    and min(ln.x1, box[2]) - max(ln.x0, box[0]) >= 0.5 * (ln.x1 - ln.x0) \
                    and (-1 <= box[1] - ln.bottom < 0.8 * size or -1 <= ln.top - box[3] < 0.8 * size):
                grown = min(grown[0], ln.x0), min(grown[1], ln.top), max(grown[2], ln.x1), max(grown[3], ln.bottom)
        if grown == box:
            break
        box = grown
    return box


def in_margin(pg, cap: list[Line], column: tuple[float, float], stops: list[Line], prose) -> tuple | None:
    """The stretch to look beside a caption set in a margin column (`column`, between gutters, holds
    no running text, only captions; `prose` tells running text): its column and the next on either
    side, where its object lies level with it; None when the caption's column is no such margin."""
    if not pg.gutters:
        return None
    mine = {id(ln) for ln in cap} | {id(ln) for ln in stops}
    if any(prose(ln) for ln in pg.lines if id(ln) not in mine and column[0] - 1 <= ln.x0 and ln.x1 <= column[1] + 1):
        return None
    return (max((g for g in pg.gutters if g < column[0] - 1), default=0.0),
            min((g for g in pg.gutters if g > column[1] + 1), default=pg.width))


def beside_side(pg, cap: list[Line], own: tuple[float, float], stops: list[Line], walk,
                across: bool = False) -> tuple | None:
    """The object beside a narrow caption (at most half its column span `own`), as `_walk` gives a
    side: (box, lines, evidence, ruled, parts); None when nothing is set beside it.  `across`: `own`
    is a margin column's caption's stretch (`in_margin`), past its gutters.  A caption running on
    under its object is looked beside from its narrow first lines (`side_block`)."""
    mine = {id(ln) for ln in cap}
    block = side_block(cap, pg.body.size)
    x0, x1 = min(ln.x0 for ln in block), max(ln.x1 for ln in block)
    if x1 - x0 > 0.5 * (own[1] - own[0]):
        return None
    for right in (True, False):
        seed = _seed(pg, block, own, right, across, mine)
        if seed is None:
            continue
        span = (x1 + 1, own[1]) if right else (own[0], x0 - 1)
        anchor = dataclasses.replace(cap[0], x0=span[0], x1=span[1], top=seed[1], bottom=seed[3], text="")
        sides = [walk(pg, [anchor], span, up, stops + cap) for up in (True, False)]
        box = seed
        parts = [seed]
        for s in sides:
            if s is not None:
                box = (min(box[0], s[0][0]), min(box[1], s[0][1]), max(box[2], s[0][2]), max(box[3], s[0][3]))
                parts += s[4]
        box = _ruled_ends(pg, box, span, {id(ln) for ln in stops + cap})
        lines = [ln for ln in pg.lines if box[1] - 1 <= ln.top and ln.bottom <= box[3] + 1
                 and box[0] - 1 <= ln.x0 and ln.x1 <= box[2] + 1 and id(ln) not in mine]
        wordy = sum(1 for ln in lines if len(ln.text.split()) >= 4 and _wordy(ln))
        if wordy >= 3 and wordy >= 0.5 * len(lines) and not any(s is not None and s[3] for s in sides):
            continue  # a column of running text beside the caption, nothing ruled: no object
        ruled = any(s is not None and s[3] for s in sides)
        evidence = sum(s[2] for s in sides if s is not None) + 1.0
        return box, lines, evidence, ruled, parts
    return None


def over_gutter(pg, cap: list[Line], own: tuple[float, float], up: bool, stops: list[Line], side, walk):
    """A side's object, walked again over the gutter at its span's edge when it reaches that edge and a
    drawn part level with it lies across the gutter (a chart set across the page beside a caption in
    one column: only the part in the caption's column was walked); kept when the new walk (`walk`,
    `regions._walk`) holds it."""
    if side is None:
        return side
    box = side[0]
    for edge, wider in ((own[0], (0.0, own[1])), (own[1], (own[0], pg.width))):
        if 0 < edge < pg.width and min(abs(box[0] - edge), abs(box[2] - edge)) <= 8 and any(
                g[0] < edge - 8 and g[2] > edge + 8 and box[1] - 2 <= g[1] and g[3] <= box[3] + 2 for g in pg.graphics):
            again = walk(pg, cap, wider, up, stops)
            if again is not None and again[0][0] <= box[0] + 1 and again[0][2] >= box[2] - 1 \
                    and again[0][1] <= box[1] + 1 and again[0][3] >= box[3] - 1:
                return again
    return side
