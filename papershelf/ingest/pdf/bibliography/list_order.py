"""A reference list's lines read again by the page's geometry.

The reading order the paragraphs come in is made for body text; a reference list set in a small
size, in two or three narrow columns, or beside a column of body text (a letter journal's notes
start mid-page next to the discussion) often defeats it: the lines of neighbouring columns then
come interleaved, and no entry can be cut right.  A list has a simple geometry of its own: on
each page its lines stand in columns divided by gutters that (almost) no line crosses, each
column read top to bottom.  This module finds those gutters among the page's lines and reads the
page column by column, in bands between the few lines that span a gutter (a full-width caption or
entry).  The list runs from its heading, in that order, to the next heading.
"""

from __future__ import annotations

import statistics

from ..text.lines import Line


def page_order(lines: list[Line], gutters: list[tuple[float, float]]) -> list[Line]:
    """A page's lines column by column (top to bottom in each), band by band between the lines that
    cross a gutter."""
    if not gutters:
        return _rows_left_to_right(sorted(lines, key=lambda ln: (ln.top, ln.x0)))
    spanning = sorted((ln for ln in lines if _crosses(ln, gutters)), key=lambda ln: ln.top)
    out: list[Line] = []
    rest = [ln for ln in lines if not _crosses(ln, gutters)]
    for cut in [*spanning, None]:
        above = [ln for ln in rest if cut is None or ln.top < cut.top]
        rest = [ln for ln in rest if cut is not None and ln.top >= cut.top]
        for col in sorted({_column(ln, gutters) for ln in above}):
            out += _rows_left_to_right(sorted((ln for ln in above if _column(ln, gutters) == col),
                                              key=lambda ln: (ln.top, ln.x0)))
        if cut is not None:
            out.append(cut)
    return out


def _rows_left_to_right(lines: list[Line]) -> list[Line]:
    """Lines sorted by top, those sharing a row put left to right: an entry's label set a hair lower
    than its text (AMS's "30." before a rule that stands for the repeated author, ", Tropical …")
    opens its entry, not the line under it."""
    out: list[Line] = []
    row: list[Line] = []
    for ln in lines:
        if row and ln.top - row[0].top > 0.5 * min(ln.height, row[0].height):
            out += sorted(row, key=lambda r: r.x0)
            row = []
        row.append(ln)
    return out + sorted(row, key=lambda r: r.x0)


def _crosses(ln: Line, gutters: list[tuple[float, float]]) -> bool:
    return any(ln.x0 < a and ln.x1 > b for a, b in gutters)


def _column(ln: Line, gutters: list[tuple[float, float]]) -> int:
    middle = (ln.x0 + ln.x1) / 2
    return sum(middle > b for _, b in gutters)


def _gutters(lines: list[Line]) -> list[tuple[float, float]]:
    """The vertical strips, at least a letter wide, that hardly any line crosses (a full-width line
    in 30 may), with text on both sides: the gaps between a page's columns."""
    size = statistics.median(ln.size for ln in lines) or 10.0
    edges = sorted({x for ln in lines for x in (ln.x0, ln.x1)})
    allowed = len(lines) // 30
    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    strips: list[tuple[float, float]] = []
    for a, b in zip(edges, edges[1:], strict=False):
        mid = (a + b) / 2
        if a <= left or b >= right:
            continue
        if sum(ln.x0 < mid < ln.x1 for ln in lines) <= allowed:
            if strips and strips[-1][1] == a:
                strips[-1] = (strips[-1][0], b)
            else:
                strips.append((a, b))
    return [(a, b) for a, b in strips if b - a >= 0.8 * size
            and sum(ln.x1 <= a for ln in lines) >= 2 and sum(ln.x0 >= b for ln in lines) >= 2]


def reread(columns: list[list[Line]], heading: Line, stop: str | None, include: bool = False) -> list[list[Line]]:
    """The list's lines from `heading` to the line that opens `stop` (the next heading's text), each
    page read by its geometry; one run per column of each page.  `include`: `heading` is the list's
    first line (a list printed with no heading starts at its first entry)."""
    pages: dict[int, list[Line]] = {}
    for column in columns:
        for ln in column:
            pages.setdefault(ln.page, []).append(ln)
    runs: list[list[Line]] = []
    inside = False
    for page in sorted(p for p in pages if p >= heading.page):
        # a column left of the heading's on its page is read before it, whatever the gutters show
        edge = _column_edge(pages[page], heading) if page == heading.page else None
        lines = [ln for ln in pages[page] if edge is None or ln.x1 > edge - 1]
        own = [ln for ln in lines if page != heading.page or ln.top >= heading.top - 1]
        gutters = _gutters(own) if len(own) >= 4 else []
        if not gutters and page == heading.page:  # too few lines below the heading to show the columns
            wider = _columns_beside(lines, heading, own)
            gutters = _gutters(wider) if len(wider) >= 4 and len(wider) > len(own) else []
        if page == heading.page and gutters:
            lines = _without_band_above(lines, own, heading, gutters)
        end = _section_below(own, stop, gutters) if not gutters else None
        if end is not None:
            gutters = _gutters([ln for ln in own if ln.top < end])
            end = end if gutters else None
        ordered = page_order([ln for ln in lines if end is None or ln.top < end], gutters)
        ordered += page_order([ln for ln in lines if end is not None and ln.top >= end], [])
        run: list[Line] = []
        at_column: int | None = None
        for ln in ordered:
            if not inside:
                inside = ln is heading
                if not (inside and include):
                    continue
            if _opens(ln, stop):
                if run:
                    runs.append(run)
                return runs
            at = -1 if _crosses(ln, gutters) else _column(ln, gutters)
            if run and at != at_column:
                runs.append(run)
                run = []
            at_column = at
            run.append(ln)
        if run:
            runs.append(run)
    return runs


APART_SIZE = 0.1  # lines whose size is this much off the list's are set apart from it
APART_GAP = 2.0  # a blank this many of the list's sizes high sets a band of the page apart


def _without_band_above(lines: list[Line], own: list[Line], heading: Line,
                        gutters: list[tuple[float, float]]) -> list[Line]:
    """The heading page's lines without those standing above the list's band in the columns right of the
    heading's: a list set in a band across the page's foot (a journal's notes under the body's two columns)
    starts each of its columns level with its first line, and what stands above that in a column is the
    body's (another size, or a blank line or more above the band).  A list that starts low in one column and
    goes on at the top of the next runs on there in its own size and pitch, and keeps those lines."""
    size = statistics.median(ln.size for ln in own) or 10.0
    home = _column(heading, gutters)
    tol = max(heading.height, 0.5 * size)
    # the list's first line: the heading, or the line under it in its column (a band's columns start level with it)
    under = [ln.top for ln in own if _column(ln, gutters) == home and ln.top > heading.top + tol]
    first = min(under, default=heading.top)
    dropped: set[int] = set()
    for col in {_column(ln, gutters) for ln in own} - {home}:
        if col < home:
            continue
        below = sorted((ln for ln in own if _column(ln, gutters) == col and not _crosses(ln, gutters)),
                       key=lambda ln: ln.top)
        above = sorted((ln for ln in lines if ln.top < heading.top - 1 and _column(ln, gutters) == col
                        and not _crosses(ln, gutters)), key=lambda ln: ln.top)
        if not below or not above or not heading.top - tol <= below[0].top <= first + tol:
            continue
        other = abs(statistics.median(ln.size for ln in above) - size) > APART_SIZE * size
        if other or below[0].top - above[-1].bottom > APART_GAP * size:
            dropped |= {id(ln) for ln in above}
    return [ln for ln in lines if id(ln) not in dropped]


def _column_edge(lines: list[Line], heading: Line) -> float:
    """The left edge of the heading's column: where a quarter of the lines below it that run under its
    start start (a centred heading's column starts left of it, and a hanging list's entries open at the
    column's edge; a stray line run across the gutter is one of many)."""
    under = sorted(ln.x0 for ln in lines if ln.top >= heading.top - 1 and ln.x0 <= heading.x0 + 1 < ln.x1)
    return min(heading.x0, under[len(under) // 4]) if under else heading.x0


def _columns_beside(lines: list[Line], heading: Line, below: list[Line]) -> list[Line]:
    """The heading page's lines the list may hold: those at and below the heading, and those in the
    columns right of the heading's column at any height (a two-column paper whose list starts low in a
    column goes on at the top of the next column, above the heading's height)."""
    edge = max((ln.x1 for ln in below if ln.x0 < heading.x0 + 2 * max(heading.size, 1.0)), default=None)
    return below + [ln for ln in lines if ln.top < heading.top - 1 and edge is not None and ln.x0 > edge]


def _opens(ln: Line, stop: str | None) -> bool:
    """The line is the one that opens `stop` (the next heading's text)."""
    text = ln.text.strip()
    return bool(stop and text and stop.startswith(text[:40]) and len(text) <= len(stop) + 2)


def _section_below(lines: list[Line], stop: str | None, gutters: list[tuple[float, float]]) -> float | None:
    """Where the next section starts on a page whose columns no gutter divides, when it is full
    width below the list (an appendix's paragraph and table under a two-column list's end): the top
    of its heading line, else None."""
    end = next((ln.top for ln in lines if _opens(ln, stop) and 2 * len(ln.text.strip()) >= min(len(stop or ""), 40)),
               None)
    if end is None:
        return None
    above = [ln for ln in lines if ln.top < end]
    cut = _gutters(above) if len(above) >= 4 else []
    below = [ln for ln in lines if ln.top > end]
    return end if cut and below and sum(_crosses(ln, cut) for ln in below) >= 0.3 * len(below) else None

