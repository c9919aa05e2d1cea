"""A page's layout as the region walk reads it (regions.py): the text's extent, the gutters of
narrow columns, a caption's share of a row of captions, and the size the page's running text is set in."""

from __future__ import annotations

import dataclasses

from ..layout.columns import gutters as column_gutters
from ..sections.headings import BodyStyle
from ..text.lines import Line
from .graphics import Box
from .region_rows import _gutters, _wordy, prose_words


def text_extent(lines: list[Line], width: float) -> tuple[float, float]:
    """From the leftmost start to the rightmost end of the page's lines of words (a dozen characters
    or more: not a page number or a chart's tick label in the margin)."""
    held = [ln for ln in lines if len(ln.text) >= 12] or lines
    return min((ln.x0 for ln in held), default=0.0), max((ln.x1 for ln in held), default=width)


def narrow_columns(lines: list[Line], width: float, two: bool) -> list[tuple[float, float]]:
    """The gutters of a page set in narrow columns, whose lines are too short for `_gutters` (three
    columns in a large type: 20 characters a line): the reading order's gutters (`columns.gutters`,
    columns filled with text): two or more, or one away from the middle of a page not in two halves
    (`two`: a gutter a little off the middle of a page in two is the middle's); never a wide empty
    stretch (a column holding little text beside a table: no gutter is a tenth of the page wide)."""
    found = column_gutters(lines)
    if any(b - a > 0.1 * width for a, b in found):
        return []
    return [] if len(found) == 1 and (two or abs(sum(found[0]) / 2 - width / 2) < 8) else found


def between_neighbours(cap: Box, others: list[list[Line]], span: tuple[float, float]) -> tuple[float, float]:
    """The span narrowed to this caption's share of a row of captions set side by side (figures
    side by side carry their captions side by side, each under its own): up to halfway to the
    neighbouring caption on either side."""
    lo, hi = span
    for lines in others:
        x0, top, x1, bottom = (min(ln.x0 for ln in lines), min(ln.top for ln in lines),
                               max(ln.x1 for ln in lines), max(ln.bottom for ln in lines))
        if min(bottom, cap[3]) - max(top, cap[1]) < 0.5 * min(bottom - top, cap[3] - cap[1]):
            continue  # not beside it
        if x0 >= cap[2] - 1:
            hi = min(hi, (cap[2] + x0) / 2)
        elif x1 <= cap[0] + 1:
            lo = max(lo, (x1 + cap[0]) / 2)
    return lo, hi


def page_body(lines: list[Line], body: BodyStyle, width: float) -> BodyStyle:
    """The size this page's running text is set in: the paper's, unless most of the page's lines of
    words are set in a larger one (a journal setting its methods small and its results larger, the
    paper's body size then being the small one), so that a paragraph in that size ends an object.
    Text set outside the page (a stray copy of the text layer) is not what a reader sees."""
    sizes: dict[float, list[int]] = {}
    measures: dict[float, list[int]] = {}
    for ln in lines:
        if prose_words(ln.text)[0] >= 5 and _wordy(ln) and ln.x0 >= 0 and ln.x1 <= width:  # (counted once a text)
            sizes.setdefault(round(ln.size * 2) / 2, []).append(len(ln.text))
            measures.setdefault(round(ln.size * 2) / 2, []).append(round(ln.x1 - ln.x0))
    if not sizes:
        return body
    size = max(sizes, key=lambda k: sum(sizes[k]))
    # a page of running text: ten lines at least (a long caption beside a full-page figure is not),
    # most of the page's words; larger than the paper's body, or smaller and justified to one
    # measure (a journal setting its methods small: a table's small type is no column of equal lines)
    if abs(size - body.size) <= 0.6 or len(sizes[size]) < 10 \
            or sum(sizes[size]) < 0.6 * sum(sum(v) for v in sizes.values()) \
            or size < body.size and not _justified(measures[size], size):
        return body
    return dataclasses.replace(body, size=size)


def _justified(widths: list[int], size: float) -> bool:
    """Lines of running text set to one measure: most of them within a point of the same width, a
    column's width (14 ems at least: a third of a page set in three columns in small type is 15 to 20)."""
    common = max(set(widths), key=lambda w: sum(1 for v in widths if abs(v - w) <= 1))
    return common >= 14 * size and sum(1 for v in widths if abs(v - common) <= 1) >= max(8, 0.5 * len(widths))


def text_columns(lines: list[Line], strips: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The strips that divide columns of running text, not a table's columns: kept only when the
    reading order finds as many gutters beside columns filled with text (`columns.gutters`)."""
    if not strips:
        return []
    found = column_gutters(lines)
    return strips if len(found) >= len(strips) else []


def body_columns(lines: list[Line], body: BodyStyle) -> list[tuple[float, float]]:
    """The gutter of columns of running text that the page's other text hides: on a page of tables set
    across it in a smaller size (long cells crossing the middle), the two columns of body text under
    them are found from the lines in the body's size alone (a strip those lines leave, which the
    reading order finds between columns of them).  Else, lines of the two columns sharing a baseline
    read as a row of cells, and a table's region takes the paragraphs under it."""
    own = [ln for ln in lines if abs(ln.size - body.size) <= 0.6]
    found = _gutters(own, False)
    return text_columns(own, found)


def in_span(box: Box, span: tuple[float, float]) -> bool:
    x0, x1 = box[0], box[2]
    inside = min(x1, span[1]) - max(x0, span[0])
    return inside >= 0.6 * max(x1 - x0, 1.0)


def blank_side(pg, cap: Box, span: tuple[float, float], up: bool) -> tuple | None:
    """The empty stretch between the caption and the nearest text on its usual side: where an
    object sits that pdfium shows no parts of (a drawing whose glyphs are paths in a form)."""
    near = [ln for ln in pg.lines if in_span((ln.x0, ln.top, ln.x1, ln.bottom), span)
            and (ln.bottom <= cap[1] if up else ln.top >= cap[3])]
    edge = max((ln.bottom for ln in near), default=0.06 * pg.height) if up else \
        min((ln.top for ln in near), default=0.94 * pg.height)
    top, bottom = (edge + 2, cap[1] - 2) if up else (cap[3] + 2, edge - 2)
    if bottom - top < 4 * pg.body.size:
        return None
    inside = [ln for ln in pg.lines if span[0] <= ln.x0 and ln.x1 <= span[1]] or pg.lines
    return (max(span[0], min(ln.x0 for ln in inside)), top, min(span[1], max(ln.x1 for ln in inside)), bottom), [], 0.0


def without_margin_marks(lines: list[Line]) -> list[Line]:
    """The page's lines but text turned across the reading direction wholly beside the text's
    extent: a running foot set up the margin of a landscape page read turned ("…2016;6:e012335"),
    which a page's furniture check, reading across, does not see.  A chart's turned axis title
    lies within the text's extent or beside its drawing, not in the margin."""
    upright = [ln for ln in lines if ln.turn == 0 and len(ln.text) >= 12]
    if not upright or all(ln.turn == 0 for ln in lines):
        return lines
    left, right = min(ln.x0 for ln in upright), max(ln.x1 for ln in upright)
    return [ln for ln in lines if ln.turn == 0 or left - 2 < ln.x1 and ln.x0 < right + 2]


def picture_across(pg, cap: list[Line], sides: tuple[float, float], others: list[Line]) -> bool:
    """A drawing (not a rule) crossing the gutter (from before `sides[0]` to past `sides[1]`) that ends
    within a few lines above the caption or starts within a few below it, over its column, with no other
    caption between them: a short caption set in one column under (or over) its page-wide figure.  Another
    caption past the gutter at about its height says the drawing is two figures', side by side."""
    top, bottom = min(ln.top for ln in cap), max(ln.bottom for ln in cap)
    x0, x1 = min(ln.x0 for ln in cap), max(ln.x1 for ln in cap)
    near = 3 * pg.body.size
    if any((o.x1 < sides[0] or o.x0 > sides[1]) and o.top < bottom + near and o.bottom > top - near for o in others):
        return False
    for g in pg.graphics:
        if g[3] - g[1] < 3 or g[2] - g[0] < 3 or not (g[0] < sides[0] and g[2] > sides[1]) \
                or min(g[2], x1) - max(g[0], x0) <= 0:
            continue
        if -near < top - g[3] < near:
            lo, hi = g[3], top  # the drawing ends just above the caption
        elif -near < g[1] - bottom < near:
            lo, hi = bottom, g[1]  # or starts just below it
        else:
            continue
        if not any(lo - 1 < ln.top and ln.bottom < hi + 1 for ln in others):
            return True
    return False
