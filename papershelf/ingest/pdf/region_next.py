"""A table that runs on overleaf with no repeated caption: its rows at the top of the next page.

A table region that reaches its page's foot (no text of the body's size under it in its
stretch) goes on when the next page opens, in the same stretch, with rows of cells: a walk down
from the page's top edge, as from a caption there, that takes rows (most of them cell-like) and
no caption, and meets no object of that page.  The rows are the table's (its cells, kept out of
the running text); its region stays the first page's."""

from __future__ import annotations

from .graphics import Box
from .headings import BodyStyle
from .lines import Line
from .regions import Region, _walk, page_layout


def _at_foot(r: Region, lines: list[Line], body: BodyStyle) -> bool:
    x0, _, x1, bottom = r.box
    return not any(ln.top > bottom + 1 and min(ln.x1, x1) - max(ln.x0, x0) > 0 and ln.size > body.size - 0.6
                   for ln in lines)


def _overleaf(r: Region, sheet: tuple, body: BodyStyle, claimed: list[Box]) -> tuple[list[Line], list[Box]] | None:
    lines, graphics, width, height = sheet
    if not lines:
        return None
    pg, _ = page_layout(lines, graphics, width, height, body)
    top = min(ln.top for ln in pg.lines) - 1.5
    edge = Line(r.page + 1, r.box[0], top - 1, r.box[2], top, "", pg.body.size, False)
    found = _walk(pg, [edge], (r.box[0] - 6, r.box[2] + 6), False, [])
    if found is None:
        return None
    box, held, _, _, parts = found
    rows = sum(1 for ln in held if pg.cell_like(ln))
    if len(held) < 3 or rows < 0.5 * len(held) or any(_meets(box, b) for b in claimed):
        return None
    return held, parts


def _meets(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def continue_tables(regions: list[Region], sheets: dict[int, tuple], body: BodyStyle) -> None:
    """Give each table that reaches its page's foot the rows it goes on with overleaf (`Region.more`).
    `sheets`: by page number, the page's kept lines, graphics, width and height as read."""
    for r in regions:
        if r.kind != "table" or r.page not in sheets or r.page + 1 not in sheets or not r.lines \
                or not _at_foot(r, sheets[r.page][0], body):
            continue
        claimed = [o.box for o in regions if o.page == r.page + 1]
        more = _overleaf(r, sheets[r.page + 1], body, claimed)
        if more is not None:
            r.more.append(more)
