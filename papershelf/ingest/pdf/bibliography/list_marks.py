"""Raised labels the page's cleaning dropped: a letter journal sets each entry's label small and raised on a
line of its own, left of the entry's first line; at a page's top or foot such a label stands in the margin
where page numbers do, and goes with them.  The list shows it was one of its own: it prints other labels so
(bare numbers raised beside the start of a line), and the dropped number stands just so beside a line of it.
"""

from __future__ import annotations

import bisect
import re

from ..text.lines import Line

RAISED = (0.25, 1.2)  # a raised label's baseline stands so many of its entry's sizes above the entry's
MIN_RAISED = 3  # raised labels the kept lines must show before a dropped number is read as one
_BARE = re.compile(r"^\s*\d{1,3}\s*$")


def page_marks(lines: list[Line], kept: list[Line]) -> list[Line]:
    """The bare numbers of a page's lines that its cleaning dropped (page numbers, raised labels)."""
    held = {id(ln) for ln in kept}
    return [ln for ln in lines if id(ln) not in held and _BARE.match(ln.text)]


def raised_beside(mark: Line, line: Line) -> bool:
    """`mark` is a bare number raised beside the start of `line`: on its page, its baseline a quarter to
    1.2 of the line's size above the line's, ending where the line starts (a letter's width on either side)."""
    size = max(line.size, 1.0)
    return mark.page == line.page and line.bottom - RAISED[1] * size < mark.bottom < line.bottom - RAISED[0] * size \
        and line.x0 - 2 * size <= mark.x1 <= line.x0 + size


class _Starts:
    """A page's lines of more than five characters sorted by where they start, so a mark meets only the lines
    starting within a letter or two of its end (a page of number cells would otherwise pair every cell with
    every line)."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = sorted((ln for ln in lines if len(ln.text) > 5), key=lambda ln: ln.x0)
        self.starts = [ln.x0 for ln in self.lines]
        self.reach = 2 * max((ln.size for ln in self.lines), default=1.0) + 2.0

    def beside(self, mark: Line) -> list[Line]:
        lo = bisect.bisect_left(self.starts, mark.x1 - self.reach)
        hi = bisect.bisect_right(self.starts, mark.x1 + self.reach)
        return [ln for ln in self.lines[lo:hi] if raised_beside(mark, ln)]


def with_raised_marks(columns: list[list[Line]], marks: list[Line]) -> list[list[Line]]:
    """The columns with each dropped number that stands raised beside the start of one of their lines put
    back before that line, when the kept lines show such raised labels MIN_RAISED times at least."""
    if not marks:
        return columns
    by_page: dict[int, list[Line]] = {}
    for column in columns:
        for ln in column:
            by_page.setdefault(ln.page, []).append(ln)
    starts = {page: _Starts(lines) for page, lines in by_page.items()}
    # (the line builder's reading order may put such labels in a column of their own: a page's lines are seen)
    shown = sum(1 for page, lines in by_page.items() for a in lines if _BARE.match(a.text)
                and starts[page].beside(a))
    if shown < MIN_RAISED:
        return columns
    before: dict[int, Line] = {}
    for mark in marks:
        beside = starts[mark.page].beside(mark) if mark.page in starts else []
        if len(beside) == 1:
            before[id(beside[0])] = mark
    if not before:
        return columns
    return [[m for ln in column for m in ((before[id(ln)], ln) if id(ln) in before else (ln,))] for column in columns]
