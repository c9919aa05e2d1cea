"""A table that runs on with no repeated caption: its rows at the top of the next column.

A table region that reaches its column's foot (no text of the body's size under it in its
stretch) goes on where the reading goes on: on a page of two columns, a table in the first column
at the top of the second, a table in the second at the top of the next page's first; else at the
top of the next page, in the same stretch.  There a walk down from the column's top edge, as from a
caption there, must take rows (most of them cell-like), no caption, and meet no other object.  The
rows are the table's (its cells, kept out of the running text); its region stays the first part's."""

from __future__ import annotations

from ..sections.headings import BodyStyle
from ..text.lines import Line
from .graphics import Box
from .regions import Region, _walk, page_layout


def _at_foot(r: Region, lines: list[Line], body: BodyStyle) -> bool:
    x0, _, x1, bottom = r.box
    return not any(ln.top > bottom + 1 and min(ln.x1, x1) - max(ln.x0, x0) > 0 and ln.size > body.size - 0.6
                   for ln in lines)


def _next_stretch(r: Region, sheets: dict[int, tuple], body: BodyStyle) -> tuple[int, tuple[float, float]] | None:
    """Where the table's rows go on: (page, stretch), or None past the document's last page."""
    lines, graphics, width, height = sheets[r.page]
    pg, _ = page_layout(lines, graphics, width, height, body)
    mid = width / 2
    if pg.two_columns and not pg.gutters and r.box[2] <= mid + 8:
        return r.page, (mid - 4, width)
    if r.page + 1 not in sheets:
        return None
    if pg.two_columns and not pg.gutters and r.box[0] >= mid - 8:
        return r.page + 1, (0.0, sheets[r.page + 1][2] / 2 + 4)
    return r.page + 1, (r.box[0] - 6, r.box[2] + 6)


def _overleaf(r: Region, sheet: tuple, body: BodyStyle, stretch: tuple[float, float],
              claimed: list[Box]) -> tuple[list[Line], list[Box]] | None:
    lines, graphics, width, height = sheet
    if not lines:
        return None
    pg, _ = page_layout(lines, graphics, width, height, body)
    inside = [ln for ln in pg.lines if min(ln.x1, stretch[1]) - max(ln.x0, stretch[0]) > 0.6 * (ln.x1 - ln.x0)]
    if not inside:
        return None
    top = min(ln.top for ln in inside) - 1.5
    edge = Line(lines[0].page, stretch[0], top - 1, stretch[1], top, "", pg.body.size, False)
    found = _walk(pg, [edge], stretch, False, [])
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
    """Give each table that reaches its column's foot the rows it goes on with in the next column
    (`Region.more`).  `sheets`: by page number, the page's kept lines, graphics, width and height as read."""
    for r in regions:
        if r.kind != "table" or r.page not in sheets or not r.lines or not _at_foot(r, sheets[r.page][0], body):
            continue
        where = _next_stretch(r, sheets, body)
        if where is None:
            continue
        page, stretch = where
        claimed = [b for o in regions if o.page == page and o is not r for b in (o.box, o.caption_box)]
        more = _overleaf(r, sheets[page], body, stretch, claimed)
        if more is not None:
            r.more.append(more)
