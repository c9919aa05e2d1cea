"""A journal's front-page sidebar that is not drawn as a box: a narrow strip of small text at the
page's edge ("Citation", "Editor", "Received", … "Competing interests", each with a line or two
under it) beside the paper's text.

Without a frame (`pdf_boxes`) the evidence is the layout itself: the strip's lines are set smaller
than the paper's body, all of them within a band at one edge of the page, and the page's body-size
text runs beside the strip, starting well clear of it, over the strip's whole height.  Read with the
page, its bold labels become sections ("Abstract > Editor") and the Introduction is filed under its
last one; set apart, its lines are read after the page as text that opens no section.
"""

from __future__ import annotations

from ..text.lines import Line

_MIN_LINES = 6  # a strip holds several labelled entries, not a caption's two lines
_MAX_SHARE = 0.4  # of the page's width: a sidebar is narrow, a column of a two-column page is not


def _small(ln: Line, body: float) -> bool:
    return ln.size < body - 0.6


def _body_size(ln: Line, body: float) -> bool:
    return abs(ln.size - body) <= 0.6


def _beside(strip: list[Line], rest: list[Line], edge: float, left: bool, body: float) -> list[Line]:
    """Body-size lines of the rest of the page at the strip's height, all clear of it."""
    top, bottom = min(ln.top for ln in strip), max(ln.bottom for ln in strip)
    level = [ln for ln in rest if ln.bottom > top and ln.top < bottom and _body_size(ln, body)]
    clear = all(ln.x0 > edge + 6 for ln in level) if left else all(ln.x1 < edge - 6 for ln in level)
    return level if clear else []


def side_strip(lines: list[Line], width: float, body: float, column: float = 0.0) -> tuple[list[Line], list[Line]]:
    """The first page's lines outside an unboxed sidebar strip, and the strip's lines (top to
    bottom; [] when the page has none).  Asked of the title page only: on later pages the same
    shape is a chart's labels or a journal's small-print notes, and they are read in place.  The
    strip may be set in any size when the text beside it runs much wider than it (a single column
    beside a sidebar, not a column of three), or when the paper's columns elsewhere do (`column`,
    `usual_width` of its other pages: two columns squeezed beside a sidebar on page 1 are as wide
    as the strip there, but a column of three is as narrow on every page)."""
    for left in (True, False):
        band = [ln for ln in lines if (ln.x1 < _MAX_SHARE * width if left else ln.x0 > (1 - _MAX_SHARE) * width)]
        strip = _clear_of_text(_strip(band, body, left), lines, body, left)
        if len(strip) < _MIN_LINES:
            continue
        edge = max(ln.x1 for ln in strip) if left else min(ln.x0 for ln in strip)
        # other lines within the strip's own band (not the short lines of the text beside it): a chart
        if sum(ln.x0 < edge if left else ln.x1 > edge for ln in band) > 1.25 * len(strip):
            continue
        rest = [ln for ln in lines if all(ln is not s for s in strip)]
        if _runs_beside(strip, _beside(strip, rest, edge, left, body), width, left, column):
            return rest, sorted(strip, key=lambda ln: (ln.top, ln.x0))
    return lines, []


def _strip(band: list[Line], body: float, left: bool) -> list[Line]:
    """The band's lines that may form a strip: those set smaller than the body, or else all those
    flush with the page's edge (the text beside the strip starts further in)."""
    small = [ln for ln in band if _small(ln, body)]
    if len(small) >= _MIN_LINES or not band:
        return small
    edge = min(ln.x0 for ln in band) if left else max(ln.x1 for ln in band)
    flush = [ln for ln in band if (ln.x0 < edge + 2 * body if left else ln.x1 > edge - 2 * body)]
    return flush if len(flush) >= 2 * _MIN_LINES else []


def _clear_of_text(strip: list[Line], lines: list[Line], body: float, left: bool) -> list[Line]:
    """The strip's lines that end before the body-size text beside it begins: small print inside
    that text (a figure's labels in the column beside a sidebar) is no part of the strip."""
    if not strip:
        return strip
    top, bottom = min(ln.top for ln in strip), max(ln.bottom for ln in strip)
    level = [ln for ln in lines if ln.bottom > top and ln.top < bottom and _body_size(ln, body)]
    if left:
        lead = min(ln.x0 for ln in strip)
        start = min((ln.x0 for ln in level if ln.x0 > lead + 4 * body), default=None)
        return strip if start is None else [ln for ln in strip if ln.x0 < start - 6]
    lead = max(ln.x1 for ln in strip)
    start = max((ln.x1 for ln in level if ln.x1 < lead - 4 * body), default=None)
    return strip if start is None else [ln for ln in strip if ln.x1 > start + 6]


def _runs_beside(strip: list[Line], beside: list[Line], width: float, left: bool, column: float = 0.0) -> bool:
    """The text beside the strip is the paper's running text: many lines over most of the strip's
    height, in the half of the page next to it, and (for a strip in the body's size) much wider
    than the strip's widest line."""
    height = max(ln.bottom for ln in strip) - min(ln.top for ln in strip)
    if len(beside) < 2 * _MIN_LINES or max(ln.bottom for ln in beside) - min(ln.top for ln in beside) < 0.6 * height:
        return False
    if left and min(ln.x0 for ln in beside) > 0.5 * width:
        return False  # the strip sits beside a page's right column only: a figure's labels in the left one
    widths = sorted(ln.x1 - ln.x0 for ln in beside)
    wide = max(widths[len(widths) // 2], column)
    return wide >= 1.5 * max(ln.x1 - ln.x0 for ln in strip) or all(ln.size < _size(beside) - 0.6 for ln in strip)


def usual_width(lines: list[Line]) -> float:
    """The width of the paper's running lines (the median of those of 30 characters or more): its
    columns' width, read on pages other than the title page."""
    widths = sorted(ln.x1 - ln.x0 for ln in lines if len(ln.text) >= 30)
    return widths[len(widths) // 2] if widths else 0.0


def _size(lines: list[Line]) -> float:
    sizes = sorted(ln.size for ln in lines)
    return sizes[len(sizes) // 2]
