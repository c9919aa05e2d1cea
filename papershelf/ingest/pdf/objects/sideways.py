"""Tables and figures set sideways on an upright page, beside the page's upright text.

A landscape table that does not fill its page (a journal's wide table in one column of a portrait
page, the continuation of a long one beside running text) is drawn turned a quarter while the rest of
the page stays upright, so `rotation.text_turn` (a page's majority) reads the page upright and the
table's lines run vertically: its caption is no caption (the walk reads it as a tall sliver), its rows
read column by column, and the upright caption of a figure beside it takes the table's cells.

Each line knows its characters' quarter turn (`Line.turn`).  The sideways lines of one turn that hold
a caption are read here in their own frame, where they are upright: the caption (its label line and
the lines that go on under it), then the object's lines, each caption taking the lines from it to the
next one.  The object's region (stored in the page's own frame) holds its lines and the graphics
among them (a table's rules); the cells are read row by row in the upright frame.  Sideways lines
without a caption (an axis title, a download stamp up the margin) stay where they were.
"""

from __future__ import annotations

import dataclasses

from ....document import Block
from ...captions import parse_caption
from ..text.lines import Line, join_lines, visual_rows
from ..text.rotation import upright_box
from .graphics import Box
from .regions import Region, union

SIDEWAYS = (90, 270)
MIN_LINES = 4  # a caption and a few cells: fewer sideways lines are labels of a drawing


def upright(ln: Line) -> Line:
    """The line as its own frame shows it (upright, top-down): turn 90 reads up the page (its top
    faces left, so its first row is the leftmost), turn 270 reads down it (its first row the rightmost)."""
    x0, top, x1, bottom = upright_box(_page_box(ln), ln.turn)
    return dataclasses.replace(ln, x0=x0, top=top, x1=x1, bottom=bottom, turn=0)


def _page_box(ln: Line) -> Box:
    return ln.x0, ln.top, ln.x1, ln.bottom


def _caption_lines(rows: list[tuple[Line, Line]], at: int) -> int:
    """How many lines from `at` the caption takes: its label line with the text beside it on its row
    ("Table I." in bold, then its title), and the lines going on close under it, each alone on its row
    (a cell has others beside it)."""
    end = at + 1
    while end < len(rows):
        prev, ln = rows[end - 1][0], rows[end][0]
        if _same_row(prev, ln) and ln.x0 >= prev.x1 - 1 and ln.x0 - prev.x1 < 2 * ln.size:
            end += 1
            continue
        beside = any(o is not ln and _same_row(o, ln) for o, _ in rows)
        if beside or ln.top - prev.bottom > 0.8 * ln.size or parse_caption(ln.text):
            break
        end += 1
    return end - at


def _same_row(a: Line, b: Line) -> bool:
    return a.top < b.bottom - 0.4 * b.height and a.bottom > b.top + 0.4 * b.height


def _objects(group: list[Line], graphics: list[Box], width: float, height: float, turn: int, taken: set[int]
             ) -> list[tuple[str, Region]]:
    """(caption text, region) of each captioned object among one turn's sideways lines; `taken` gets the
    lines they hold."""
    pairs = [(upright(ln), ln) for ln in group]
    original = {id(u): ln for u, ln in pairs}
    rows = [(u, original[id(u)]) for row in visual_rows([u for u, _ in pairs]) for u in row]
    starts = [k for k, (u, _) in enumerate(rows) if parse_caption(u.text)]
    out: list[tuple[str, Region]] = []
    for n, at in enumerate(starts):
        took = _caption_lines(rows, at)
        cap = rows[at:at + took]
        body = rows[at + took:starts[n + 1] if n + 1 < len(starts) else len(rows)]
        if n == 0 and len(starts) == 1:
            body = rows[:at] + body  # one caption: every sideways line is its object's (a caption under it too)
        caption = parse_caption(join_lines([u.text for u, _ in cap]))
        if caption is None or not body:
            continue
        box = _object_box([_page_box(ln) for _, ln in body], graphics)
        cap_box: Box | None = None
        for _, ln in cap:
            cap_box = union(cap_box, _page_box(ln))
        assert cap_box is not None
        region = Region(caption.label, caption.object_kind, group[0].page, box, cap_box, [u for u, _ in body],
                        height, [ln for _, ln in cap], width, turn)
        out.append((join_lines([u.text for u, _ in cap]), region))
        taken.update(id(ln) for _, ln in cap + body)
    return out


def _upright_captioned(group: list[Line], lines: list[Line], graphics: list[Box], width: float, height: float,
                       turn: int, taken: set[int]) -> list[tuple[str, Region]]:
    """A sideways table under or over an upright caption (a table turned in its float, its caption
    not): the caption line nearest the sideways lines' box, across its width, with the lines going on
    close under it."""
    ups = [upright(ln) for ln in group]
    if sum(len(row) >= 2 for row in visual_rows(ups)) < 3:
        return []  # no rows of cells: a drawing's turned labels (an axis title) beside a table's caption
    box = _object_box([_page_box(ln) for ln in group], graphics)
    size = group[0].size
    upright_lines = sorted((ln for ln in lines if ln.turn == 0), key=lambda ln: ln.top)
    best: tuple[float, list[Line]] | None = None
    for ln in upright_lines:
        if min(ln.x1, box[2]) > max(ln.x0, box[0]) and (c := parse_caption(ln.text)) and c.object_kind == "table":
            cap = _caption_block(ln, upright_lines, box)
            gap = max(box[1] - cap[-1].bottom, cap[0].top - box[3])
            if 0 <= gap < 5 * size and (best is None or gap < best[0]):
                best = gap, cap
    if best is None:
        return []
    cap = best[1]
    text = join_lines([ln.text for ln in cap])
    caption = parse_caption(text)
    if caption is None:
        return []
    cap_box: Box | None = None
    for ln in cap:
        cap_box = union(cap_box, _page_box(ln))
    assert cap_box is not None
    taken.update(id(ln) for ln in cap + group)
    return [(text, Region(caption.label, caption.object_kind, group[0].page, box, cap_box, ups, height, cap, width,
                          turn))]


def _caption_block(first: Line, upright_lines: list[Line], box: Box) -> list[Line]:
    """An upright caption's lines: its label line and those going on close under it."""
    cap = [first]
    for ln in upright_lines:
        if ln.top > cap[-1].top and ln.top - cap[-1].bottom < 0.8 * ln.size and ln.x0 < first.x1 \
                and ln.x1 > first.x0 and not parse_caption(ln.text) and not _holds(box, _page_box(ln)):
            cap.append(ln)
    return cap


def _object_box(boxes: list[Box], graphics: list[Box]) -> Box:
    """The lines' box with the graphics among them: a sideways table's rules run along its rows (up
    the page), past its cells' text, so a graphic within the lines' span across the rows that meets
    them counts."""
    box: Box | None = None
    for b in boxes:
        box = union(box, b)
    assert box is not None
    for g in graphics:
        if g[0] >= box[0] - 6 and g[2] <= box[2] + 6 and g[1] < box[3] and g[3] > box[1]:
            box = union(box, g)
    return box


def sideways_objects(lines: list[Line], graphics: list[Box], width: float, height: float, turn: int
                     ) -> tuple[list[Line], list[Box], list[tuple[str, Region]]]:
    """The page's lines and graphics without its sideways captioned objects, and those objects
    (caption text and region, read in their own frame)."""
    found: list[tuple[str, Region]] = []
    taken: set[int] = set()
    for side in SIDEWAYS:
        group = [ln for ln in lines if ln.turn == side]
        if len(group) >= MIN_LINES:
            own = _objects(group, graphics, width, height, turn, taken)
            found += own or _upright_captioned(group, lines, graphics, width, height, turn, taken)
    if not found:
        return lines, graphics, []
    kept = [g for g in graphics if not any(_holds(r.box, g) for _, r in found)]
    return [ln for ln in lines if id(ln) not in taken], kept, found


def _holds(box: Box, b: Box) -> bool:
    return b[0] >= box[0] - 1 and b[2] <= box[2] + 1 and b[1] >= box[1] - 1 and b[3] <= box[3] + 1


def in_sideways_table(ln: Line, lines: list[Line]) -> bool:
    """A vertical line in the margin that belongs to a table set sideways, not a stamp up the margin
    (arXiv's identifier, a publisher's two-line download notice): a caption, or a row with three
    more lines of the same turn beside it (its cells' rows)."""
    if parse_caption(ln.text):
        return True
    rows = [o for o in lines if o is not ln and o.turn == ln.turn and abs(o.x0 - ln.x0) < 10 * ln.size
            and o.top < ln.bottom and o.bottom > ln.top]
    return len(rows) >= 3


def with_sideways(blocks: list[Block], found: list[tuple[str, Region]]) -> list[Block]:
    """The blocks with each sideways object's caption (with its region) and cells after its page's text."""
    for text, region in found:
        at = max((k + 1 for k, b in enumerate(blocks) if b.page is not None and b.page <= region.page), default=0)
        cap = Block("text", text, page=region.page)
        cap.region = region.to_dict()
        cells = region.cells() if region.kind == "table" else None
        blocks[at:at] = [cap] + ([Block("table", cells, page=region.page)] if cells else [])
    return blocks
