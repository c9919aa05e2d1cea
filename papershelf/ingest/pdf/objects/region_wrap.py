"""Text wrapped around a figure or table: a narrower column of running text set beside the object
and its caption, on the caption's own rows.

A caption that crosses the page's middle makes its object's span the page; when the paragraph
beside it goes on, narrowed, level with the caption (a figure set in a corner with the column's
text wrapped around it), that text is no part of the object: the span ends at the wrapped
column's edge.  A caption set alone across a page-wide object has no text on its rows."""

from __future__ import annotations

from ..text.held_lines import Held
from ..text.lines import Line
from .graphics import Box
from .region_page import in_span
from .region_rows import _wordy


def _wordy_line(ln: Line, size: float) -> bool:
    return abs(ln.size - size) <= 0.6 and len(ln.text.split()) >= 2 and _wordy(ln)


def _stack(lines: list[Line], seed: list[Line], cap: Box, size: float, left: bool) -> list[Line]:
    """The wrapped column the lines beside the caption belong to: lines of words starting where they
    start and, left of the caption, ending before it, up from the caption and down from it, as long
    as the rows follow at a line's pitch."""
    x0 = min(ln.x0 for ln in seed)
    held = sorted((ln for ln in lines if abs(ln.x0 - x0) <= 1.5 and (ln.x1 < cap[0] - 2 or not left)
                   and _wordy_line(ln, size)), key=lambda ln: ln.top)
    out = [ln for ln in seed]
    for step in (1, -1):
        edge = min(ln.top for ln in seed) if step == 1 else max(ln.bottom for ln in seed)
        for ln in (reversed(held) if step == 1 else held):
            if ln in out:
                continue
            gap = edge - ln.bottom if step == 1 else ln.top - edge
            if gap < -1:
                continue
            if gap > 1.2 * ln.size:
                break
            out.append(ln)
            edge = ln.top if step == 1 else ln.bottom
    return out


def _ragged(stack: list[Line], size: float) -> bool:
    """A column of running text set ragged-right: four lines or more, nearly all of them reaching past
    three fifths of the column's widest line (six ems or wider) and going on with a sentence (opening
    in lower case) or of three words or more.  A table's first column holds capitalised names of a
    word or two, a chart's labels are short."""
    x0, x1 = min(ln.x0 for ln in stack), max(ln.x1 for ln in stack)
    prose = sum(1 for ln in stack if (len(ln.text.split()) >= 3 or ln.text[:1].islower())
                and ln.x1 - x0 >= 0.6 * (x1 - x0))
    return len(stack) >= 4 and x1 - x0 >= 6 * size and prose >= 0.75 * len(stack)


def wrapped_span(lines: list[Line], cap: list[Line], span: tuple[float, float], size: float) -> tuple[float, float]:
    """The span narrowed past a column of text wrapped beside the caption (on either side), else
    `span`.  The wrapped column is three lines at least, two of them full (ending at its edge):
    a justified paragraph, not a figure's labels or a table's cells; or set ragged (`_ragged`)."""
    box = (min(ln.x0 for ln in cap), min(ln.top for ln in cap), max(ln.x1 for ln in cap), max(ln.bottom for ln in cap))
    lo, hi = span
    held = Held(cap)
    level = [ln for ln in lines if ln not in held and min(ln.bottom, box[3]) - max(ln.top, box[1]) > 0.5 * ln.height
             and in_span((ln.x0, ln.top, ln.x1, ln.bottom), span) and _wordy_line(ln, size)]
    for left in (True, False):
        seed = [ln for ln in level if (ln.x1 < box[0] - 2 if left else ln.x0 > box[2] + 2)]
        if not seed:
            continue
        stack = _stack(lines, seed, box, size, left)
        edge = max(ln.x1 for ln in stack) if left else min(ln.x0 for ln in stack)
        full = sum(1 for ln in stack if abs(ln.x1 - max(s.x1 for s in stack)) <= 1.5)
        if len(stack) < 3 or (full < 2 and not _ragged(stack, size)):
            continue
        if left:
            lo = max(lo, edge + 1)
        else:
            hi = min(hi, edge - 1)
    return lo, hi
