"""Where a figure or table sits on its PDF page, found from the page's own layout.

A reader finds an object from its caption: the graphic or the table body lies on one side of it
(above or below), in the caption's column (or across both when the caption spans the page), and
ends where ordinary body text resumes.  So from each caption line we walk away from it on both
sides, in its column, taking the page's image and path objects (pictures, plot strokes, ruling
lines) and the text lines that are not running prose (axis labels, table cells: short, set beside
other text, or inside a graphic), and stop at a paragraph of body text, another caption, a
heading, or a wide empty gap.  The side with the object evidence wins; when both have some, the
usual convention decides (a figure above its caption, a table below).

The region holds the object's own text and never the neighbouring paragraph.  A table's lines
become its cells: rows kept as lines (by shared baseline), cells separated by `` | ``.
Boxes here are top-down page coordinates (as `pdf_lines` uses); `Region.pdf_bbox` turns them into
PDF points with the origin at the bottom-left, pdfium's convention, which is what units store.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass, field

from ....document import Block
from ...captions import CAPTION_RE, parse_caption
from ..sections.headings import BodyStyle
from ..text.held_lines import Held
from ..text.lines import Line
from ..text.rotation import unturned_box
from .graphics import Box
from .region_beside import beside_side, in_margin, over_gutter
from .region_ends import _NUMBER, _ends_object, _prose, _text_edge, _trim_paragraph, letter_pitch, sparse
from .region_page import (
    between_neighbours,
    blank_side,
    body_columns,
    in_span,
    narrow_columns,
    page_body,
    picture_across,
    text_columns,
    text_extent,
    without_margin_marks,
)
from .region_rows import _beside, _caption_lines, _gutters, _two_columns, _wordy, off_middle, row_across
from .region_wrap import wrapped_span
from .table_cells import table_text

SEP = " | "
SMALL = 0.75  # lines set under this share of the body size are labels or listings: no running text is that small
_PANEL = re.compile(r"^\(?[a-z]\) \S")  # "(b) Channel usage …", "b) …": a panel's own caption


@dataclass
class Region:
    """One figure's or table's place on a page, with the lines it holds."""

    label: str
    kind: str
    page: int
    box: Box
    caption_box: Box
    lines: list[Line] = field(default_factory=list)
    height: float = 0.0  # page height, to turn boxes into PDF coordinates
    caption_lines: list[Line] = field(default_factory=list)  # the caption's own lines, in order
    width: float = 0.0  # page width as read
    turn: int = 0  # the page is read turned by this much from how it is shown (`rotation.text_turn`)
    parts: list[Box] = field(default_factory=list)  # the boxes of the graphics and lines it holds
    more: list[tuple[list[Line], list[Box]]] = field(default_factory=list)  # its rows continued overleaf

    def _pdf(self, b: Box) -> list[float]:
        return [round(v, 1) for v in unturned_box(self.turn, self.width, self.height, b)]

    def to_dict(self) -> dict:
        """The stored form: page, object bbox and caption bbox in PDF points (bottom-left origin)."""
        return {"page": self.page, "bbox": self._pdf(self.box), "caption_bbox": self._pdf(self.caption_box)}

    def cells(self) -> str | None:
        """The table's text, rows as lines and cells separated (`table_cells`); None when no text is there."""
        return "\n".join(t for lines, parts in [(self.lines, self.parts), *self.more]
                         if (t := table_text(lines, parts))) or None


def join_captions(lines: list[Line], regions: list[Region], join) -> list[Line]:
    """Each caption as one line holding its whole text (`join` mends hyphens): a caption is read
    to the end of its block even where it sits beside a figure's labels or its continuation lies
    in another column band than its first line."""
    first_of: dict[int, Region] = {id(r.caption_lines[0]): r for r in regions if len(r.caption_lines) > 1}
    rest = {id(ln) for r in first_of.values() for ln in r.caption_lines[1:]}
    out = []
    for ln in lines:
        if id(ln) in rest:
            continue
        r = first_of.get(id(ln))
        if r is not None:
            cap = r.caption_lines
            ln = dataclasses.replace(ln, x0=min(c.x0 for c in cap), x1=max(c.x1 for c in cap),
                                     bottom=max(c.bottom for c in cap), text=join([c.text for c in cap]))
        out.append(ln)
    return out


def outside_tables(lines: list[Line], regions: list[Region]) -> list[Line]:
    """The page's lines without those a table's region holds: its cells are the table's text."""
    held = {id(ln) for r in regions if r.kind == "table" for ln in [*r.lines, *(m for more, _ in r.more for m in more)]}
    return [ln for ln in lines if id(ln) not in held]


def attach(blocks: list[Block], regions: list[Region]) -> list[Block]:
    """Each caption block gets its object's region; a table's cells follow its caption as a
    ``table`` block (units give them to that table).  A table without text gets none."""
    by_place: dict[tuple[int, str], Region] = {}
    for r in regions:
        by_place.setdefault((r.page, r.label), r)
    out: list[Block] = []
    for b in blocks:
        out.append(b)
        cap = parse_caption(b.text) if b.kind == "text" and b.page is not None else None
        found = by_place.pop((b.page, cap.label), None) if cap is not None and b.page is not None else None
        if found is None:
            continue
        b.region = found.to_dict()
        cells = found.cells() if found.kind == "table" else None
        if cells:
            out.append(Block("table", cells, page=b.page))
    return out


def union(a: Box | None, b: Box) -> Box:
    if a is None:
        return b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


@dataclass
class _Page:
    lines: list[Line]
    graphics: list[Box]
    width: float
    height: float
    body: BodyStyle
    two_columns: bool
    text_width: float = 0.0  # from the leftmost line start to the rightmost line end
    text_left: float = 0.0  # the leftmost start of a line of words (`_text_extent`)
    text_right: float = 0.0  # the rightmost end of one
    beside: set[int] = field(default_factory=set)  # ids of lines sharing a baseline with another in their column
    gutters: list[float] = field(default_factory=list)  # column bounds when not two halves (`_gutters`)
    prose: dict[int, bool] = field(default_factory=dict)  # `_prose` of each line asked about, by id
    widths: dict[tuple[float, float], float] = field(default_factory=dict)  # `_text_between`, by column
    strips: dict[float, tuple[float, float]] = field(default_factory=dict)  # each gutter's strip, by its middle
    pitch: float = 0.0  # the usual advance per character along lines of words, in ems (`letter_pitch`)
    paper_size: float = 0.0  # the paper's body size, where the page's running text is set in another

    def body_sized(self, ln: Line) -> bool:
        """Set in the page's body size, or in the paper's where the page sets its running text smaller (a
        Methods column in small type beside Results in the body size: both are running text)."""
        return abs(ln.size - self.body.size) <= 0.6 or (self.paper_size > 0 and abs(ln.size - self.paper_size) <= 0.6)

    def alone(self, ln: Line) -> bool:
        """No other line of its column on its baseline.  Not `Line.alone`, which also says no when
        pdfium ran the line into the next one (the pieces are then lines of their own)."""
        return id(ln) not in self.beside

    def cell_like(self, ln: Line) -> bool:
        """Set beside other text on its baseline, mostly numbers, or words spread a row of cells apart
        (`sparse`): what table rows look like."""
        words = ln.text.split()
        numbers = sum(1 for w in words if _NUMBER.match(w))
        return not self.alone(ln) or (numbers >= 2 and numbers >= 0.4 * len(words)) or sparse(ln, self.pitch)

    def column_width(self, ln: Line) -> float:
        """The width of the line's column: between its gutters, or the text's edge and a gutter."""
        if self.gutters:
            lo, hi = self._column(ln.x0, ln.x1)
            if (lo, hi) == (0.0, self.width):
                return self.text_width
            return self._text_between(lo, hi)
        mid = self.width / 2
        if self.two_columns and not (ln.x0 < mid - 8 and ln.x1 > mid + 8):
            return self.text_width / 2
        return self.text_width

    def span(self, cap: list[Line], others: list[Line]) -> tuple[float, float]:
        """The horizontal stretch the caption's object may take: its column, or the page (when the
        caption spans it, or a ruling line or a row of cells beside the caption crosses the gutter:
        a short caption over a page-wide table, or a page of tables taken for two columns).
        `others`: the lines of the page's other captions, which belong to no object."""
        mid = self.width / 2
        x0, x1 = min(ln.x0 for ln in cap), max(ln.x1 for ln in cap)
        if self.gutters:
            return self._columns_taken(cap, others, *self._column(x0, x1))
        sides = (mid - 8, mid + 8)
        if not self.two_columns or (x0 < sides[0] and x1 > sides[1]) or self._wide_beside(cap, sides, others):
            return 0.0, self.width
        return (0.0, mid + 4) if x1 <= mid + 8 else (mid - 4, self.width)

    def column_of(self, cap: list[Line]) -> tuple[float, float]:
        """The caption's own column, as `span` finds it before widening it over any gutter."""
        x0, x1, mid = min(ln.x0 for ln in cap), max(ln.x1 for ln in cap), self.width / 2
        if self.gutters:
            return self._column(x0, x1)
        if not self.two_columns or (x0 < mid - 8 and x1 > mid + 8):
            return 0.0, self.width
        return (0.0, mid + 4) if x1 <= mid + 8 else (mid - 4, self.width)

    def _text_between(self, lo: float, hi: float) -> float:
        """The width of the column between two gutters as its lines of words fill it (once a page)."""
        known = self.widths.get((lo, hi))
        if known is None:
            held = [ln for ln in self.lines if len(ln.text) >= 12 and lo - 8 <= ln.x0 and ln.x1 <= hi + 8]
            known = self.widths[(lo, hi)] = max(ln.x1 for ln in held) - min(ln.x0 for ln in held) if held \
                else min(hi, self.text_right) - max(lo, self.text_left)
        return known

    def _columns_taken(self, cap: list[Line], others: list[Line], lo: float, hi: float) -> tuple[float, float]:
        """The caption's columns, widened over each gutter beside them that a rule or a row near the
        caption crosses (`_wide_beside`): a table across two columns of three takes those two."""
        while 0 < hi < self.width and self._wide_beside(cap, self._sides(hi), others):
            hi = min((g for g in self.gutters if g > hi), default=self.width)
        while 0 < lo < self.width and self._wide_beside(cap, self._sides(lo), others):
            lo = max((g for g in self.gutters if g < lo), default=0.0)
        return lo, hi

    def _sides(self, gutter: float) -> tuple[float, float]:
        """What a rule or a row must reach past on either side to cross a gutter: its strip's left
        edge, and a few points into the next column's text (a table filling its column to the edge
        reaches into a strip that ragged lines leave wide)."""
        a, b = self.strips.get(gutter, (gutter - 8, gutter + 4))
        return min(a, gutter - 8), max(b + 4, gutter + 8)

    def _column(self, x0: float, x1: float) -> tuple[float, float]:
        """Between the gutters on either side of x0..x1 (the page when a gutter lies within it)."""
        if any(x0 + 8 < g < x1 - 8 for g in self.gutters):
            return 0.0, self.width
        lo = max((g for g in self.gutters if g <= x0 + 8), default=0.0)
        return lo, min((g for g in self.gutters if g >= x1 - 8), default=self.width)

    def _wide_beside(self, cap: list[Line], sides: tuple[float, float], others: list[Line]) -> bool:
        """A ruling line, or a line of text, crossing the gutter (from before `sides[0]` to past
        `sides[1]`) within a few lines above or below the caption, starting in its column."""
        top, bottom = min(ln.top for ln in cap), max(ln.bottom for ln in cap)
        x0, x1 = min(ln.x0 for ln in cap), max(ln.x1 for ln in cap)
        near = 3 * self.body.size
        boxes = [g for g in self.graphics if g[3] - g[1] < 3 and 0.07 * self.height < g[1] < 0.93 * self.height]
        held, other = Held(cap), Held(others)
        rows = [ln for ln in self.lines if ln not in held and ln not in other and not _prose(ln, self)]
        if row_across(rows, boxes, cap, sides, near, others) or picture_across(self, cap, sides, others):
            return True
        boxes += [(ln.x0, ln.top, ln.x1, ln.bottom) for ln in rows]
        for b in boxes:
            close = -near < top - b[3] < near or -near < b[1] - bottom < near
            if close and b[0] < sides[0] and b[2] > sides[1] and min(b[2], x1) - max(b[0], x0) > 0:
                return True
        return False






def _walk(pg: _Page, cap: list[Line], span: tuple[float, float], up: bool, stops: list[Line]):
    """The object on one side of a caption: (box, text lines, evidence, ruled) or None."""
    edge = min(ln.top for ln in cap) if up else max(ln.bottom for ln in cap)
    items: list[tuple[float, int, Box, Line | None]] = []
    for g in _short_of(pg.graphics, edge, cap, up, stops):
        near = edge - g[3] if up else g[1] - edge
        if near > -2 and in_span(g, span) and not (g[1] > 0.93 * pg.height or g[3] < 0.07 * pg.height):
            items.append((near, 0, g, None))
    held = Held(cap)
    for line in pg.lines:
        b = (line.x0, line.top, line.x1, line.bottom)
        near = edge - line.bottom if up else line.top - edge
        if near > -1 and line not in held and in_span(b, span):
            items.append((near, 1, b, line))
    items.sort(key=lambda it: (it[0], it[1]))
    art: Box | None = None  # the graphics taken so far: text inside them is the object's
    taken: list[tuple[Box, Line | None]] = []
    reach = edge
    limit = max(24.0, 2.5 * pg.body.size)
    left = _text_edge(pg, span)
    undrawn = all(kind for _, kind, _, _ in items)  # no drawn part on this side: a scan, or text alone
    for i, (_, _, b, ln) in enumerate(items):
        gap = (reach - b[3]) if up else (b[1] - reach)
        # a table set loosely (double-spaced rows) starts further from its caption: its first row or
        # graphic may lie a wider gap away than running text ever would; so may a chart's axis title,
        # set far smaller than the body (no running text is)
        first = not taken and (ln is None or pg.cell_like(ln) or ln.size < SMALL * pg.body.size)
        if gap > max(1.6 * limit if first else limit, _label_reach(pg, ln, taken, limit, undrawn)):
            break
        inside = art is not None and b[1] >= art[1] - 1 and b[3] <= art[3] + 1 and b[0] >= art[0] - 1 \
            and b[2] <= art[2] + 1
        if ln is not None and not inside and not _sub_caption(ln, cap) \
                and _ends_object(pg, ln, items[i + 1:], taken, (stops, left, art, up)):
            break
        if ln is None and not (not taken and b[3] - b[1] < 3 and gap < pg.body.size):
            art = union(art, b)  # but a rule along the caption, its own border: no drawing holds text by it
        taken.append((b, ln))
        reach = min(reach, b[1]) if up else max(reach, b[3])
    _trim_paragraph(taken, pg, left, art)
    lines = [ln for _, ln in taken if ln is not None]
    if not taken:
        return None
    box = taken[0][0]
    for b, _ in taken:
        box = union(box, b)
    if box[3] - box[1] < 4 and not lines:
        return None
    evidence = sum(1.0 if ln is None or pg.cell_like(ln) else 0.5 for _, ln in taken)
    if len(taken) < 3 and all(ln is not None and not pg.cell_like(ln) for _, ln in taken):
        return None  # a table is cells side by side or ruled, a figure is drawn: lone lines of text are neither
    ruled = any(ln is None and b[3] - b[1] < 3 and b[2] - b[0] >= 0.5 * (box[2] - box[0]) for b, ln in taken)
    return box, lines, evidence, ruled, [b for b, _ in taken]


def _label_reach(pg: _Page, ln: Line | None, taken: list[tuple[Box, Line | None]], limit: float,
                 undrawn: bool) -> float:
    """How wide a gap a chart's label may lie past those already taken (0 when `ln` is none): a line
    in no size of running text, met after one set under 0.75 x the body size (no running text is that
    small), is the object's too 1.6 x the usual gap away.  A small one on a side with nothing drawn
    (`undrawn`) lies any gap within the page away: a scanned chart's strokes are pixels of the page's
    picture, which leave its labels apart with nothing between them."""
    small = SMALL * pg.body.size
    if ln is None or pg.body_sized(ln) or not any(t is not None and t.size < small for _, t in taken):
        return 0.0
    return 0.4 * pg.height if undrawn and ln.size < small else 1.6 * limit


def _sub_caption(ln: Line, cap: list[Line]) -> bool:
    """A panel's own caption ("(b) Channel usage of the primary cell"), set centred on the caption's
    measure: the walk goes on past it to the panel (a paragraph of items "(a) …" met there is running text
    the next line stops at, and `_trim_paragraph` gives its first line back)."""
    x0, x1 = min(c.x0 for c in cap), max(c.x1 for c in cap)
    return bool(_PANEL.match(ln.text)) and abs(ln.x0 + ln.x1 - x0 - x1) < 2 * ln.size


def _short_of(graphics: list[Box], edge: float, cap: list[Line], up: bool, stops: list[Line]) -> list[Box]:
    """The graphics cut where the next caption stacked on this side begins (one under or over the
    caption's own text, not one beside it): an object never reaches past another caption of its
    column (a long stroke drawn through two stacked figures would carry one's region over the other's)."""
    x0, x1 = min(ln.x0 for ln in cap), max(ln.x1 for ln in cap)
    across = [ln for ln in stops if min(ln.x1, x1) - max(ln.x0, x0) > 0]
    if up:
        bound = max((ln.bottom for ln in across if ln.bottom <= edge + 1), default=None)
        cut = [(g[0], max(g[1], bound), g[2], g[3]) if bound is not None and g[3] > bound else g for g in graphics]
    else:
        bound = min((ln.top for ln in across if ln.top >= edge - 1), default=None)
        cut = [(g[0], g[1], g[2], min(g[3], bound)) if bound is not None and g[1] < bound else g for g in graphics]
    return [g for g in cut if g[3] >= g[1]]














@dataclass
class Candidate:
    """A caption and what lies on each side of it, before the side is chosen."""

    region: Region
    above: tuple | None  # (box, lines, evidence, ruled) or None
    below: tuple | None
    blanks: tuple = (None, None)  # the empty stretches above and below, when they are wide

    def side(self, up: bool) -> tuple | None:
        return self.above if up else self.below


def page_layout(lines: list[Line], graphics: list[Box], width: float, height: float,
                body: BodyStyle) -> tuple[_Page, list[tuple[float, float]]]:
    """The page as the walks read it, and the strips between its columns of running text."""
    lines = without_margin_marks(lines)
    paper, body = body, page_body(lines, body, width)
    wide = [ln for ln in lines if len(ln.text) > 30] or lines
    extent = max(ln.x1 for ln in wide) - min(ln.x0 for ln in wide) if wide else width
    two = _two_columns(lines, width)
    found = _gutters(lines, False)  # every strip; a page in two halves keeps only two or more
    strips = (found if len(found) >= 2 or not two else []) or narrow_columns(lines, width, two) \
        or (found if two and off_middle(lines, found, width) else [])
    text = text_columns(lines, strips)
    if not strips and not two:
        strips = text = body_columns(lines, body)
    gutters = [(a + b) / 2 for a, b in strips]
    divide = [(a + b) / 2 for a, b in text] or (gutters if two and len(gutters) >= 2 and not any(
        a - 8 <= width / 2 <= b + 8 for a, b in strips) else [])  # a middle column of text crosses the middle
    pg = _Page(lines, graphics, width, height, body, two, extent, *text_extent(lines, width),
               _beside(lines, width, two, divide), gutters)
    pg.strips = dict(zip(gutters, strips, strict=True))
    pg.pitch = letter_pitch(lines)
    pg.paper_size = paper.size if body.size < paper.size else 0.0
    pg.graphics = _drawings(pg)
    return pg, text


def find_candidates(lines: list[Line], graphics: list[Box], width: float, height: float,
                    body: BodyStyle, turn: int = 0) -> list[Candidate]:
    """Each caption of one page (lines are the page's kept lines, `width` and `height` its size as
    read, `turn` how it is read turned from how it is shown) with the object evidence on either
    side of it."""
    if not any(CAPTION_RE.match(ln.text) and parse_caption(ln.text) for ln in lines):
        return []  # no caption: the page's layout (a tenth of a parse) is not needed
    pg, text = page_layout(lines, graphics, width, height, body)
    lines, body = pg.lines, pg.body
    starts = [ln for ln in lines if CAPTION_RE.match(ln.text) and parse_caption(ln.text)]
    out: list[Candidate] = []
    blocks = [_caption_lines(lines, first, body, text) for first in starts]
    for first, cap_lines in zip(starts, blocks):
        cap = parse_caption(first.text)
        assert cap is not None
        stops = [ln for other in blocks if other is not cap_lines for ln in other]
        wide = pg.span(cap_lines, stops)
        others = {id(ln) for ln in stops}  # another caption's lines beside it are no text wrapped around it
        span = wrapped_span([ln for ln in lines if id(ln) not in others], cap_lines, wide, body.size)
        cap_box = (min(ln.x0 for ln in cap_lines), min(ln.top for ln in cap_lines),
                   max(ln.x1 for ln in cap_lines), max(ln.bottom for ln in cap_lines))
        region = Region(cap.label, cap.object_kind, first.page, cap_box, cap_box, [], height, cap_lines, width, turn)
        own = between_neighbours(cap_box, [other for other in blocks if other is not cap_lines], span)
        sides = (_walk(pg, cap_lines, own, True, stops), _walk(pg, cap_lines, own, False, stops))
        if own != span and sides == (None, None):
            own = span  # one drawing over captions side by side: it is theirs together
            sides = (_walk(pg, cap_lines, own, True, stops), _walk(pg, cap_lines, own, False, stops))
        column = between_neighbours(cap_box, [o for o in blocks if o is not cap_lines], pg.column_of(cap_lines))
        if column != own and None in sides:  # widened by a rule or row near it: maybe another object's
            sides = tuple(s or _walk(pg, cap_lines, column, up, stops) for s, up in zip(sides, (True, False)))
        sides = tuple(over_gutter(pg, cap_lines, own, up, stops, s, _walk) for s, up in zip(sides, (True, False)))
        if span != wide:  # the text beside the caption is wrapped around its object, no object of its own
            pass
        elif (beside := beside_side(pg, cap_lines, own, stops, _walk)) is not None:
            sides = (None, beside)  # set level with its caption, in a side column (`region_beside`)
        elif sides == (None, None) and (wider := in_margin(pg, cap_lines, column, stops, lambda ln: _prose(ln, pg))) \
                and (beside := beside_side(pg, cap_lines, wider, stops, _walk, True)) is not None:
            sides = (None, beside)  # a caption in a margin column of captions, its object in the next column
        elif sides == (None, None) and (pg.two_columns or pg.gutters) \
                and (beside := beside_side(pg, cap_lines, (0.0, pg.width), stops, _walk, True)) is not None \
                and any(beside[0][0] < g - 8 < g + 8 < beside[0][2] for g in pg.gutters or [width / 2]):
            sides = (None, beside)  # a narrow caption in one column, level with a picture across a gutter
        out.append(Candidate(region, *sides, (blank_side(pg, cap_box, own, True), blank_side(pg, cap_box, own, False))))
    return out


def _drawings(pg: _Page) -> list[Box]:
    """The page's graphics that may be an object's: not a panel drawn behind running text (some
    journals set each text block on a filled box, which would make a paragraph look drawn), nor a
    mark in the margin beside all the text (a download stamp running up the page's edge; a picture
    there, wide and tall, is a margin column's figure)."""
    if not pg.graphics:
        return []
    # the text's extent: the leftmost start and rightmost end of its prose (asked only until found)
    left = next((ln.x0 for ln in sorted(pg.lines, key=lambda ln: ln.x0) if _prose(ln, pg)), 0.0)
    right = next((ln.x1 for ln in sorted(pg.lines, key=lambda ln: -ln.x1) if _prose(ln, pg)), pg.width)
    by_top = sorted(pg.lines, key=lambda ln: ln.top)
    tops = [ln.top for ln in by_top]
    big = 4 * pg.body.size  # a picture in a margin column (set beside the text: CHI's extended abstracts)
    return [g for g in pg.graphics if (left - 2 < g[2] and g[0] < right + 2 or min(g[2] - g[0], g[3] - g[1]) >= big)
            and not _behind_text(g, pg, by_top, tops)]


def _behind_text(g: Box, pg: _Page, by_top: list[Line], tops: list[float]) -> bool:
    """Lines of words filling the graphic's width, alone on their baselines, are most of the text
    inside it (three at least): a paragraph's panel, in whatever size the text is set.  (`by_top`:
    the page's lines by their tops, `tops` those tops, so a page of many strokes stays cheap.)"""
    if g[3] - g[1] < 3 * pg.body.size or g[2] - g[0] < 10 * pg.body.size:
        return False
    start, end = bisect.bisect_left(tops, g[1] - 1), bisect.bisect_right(tops, g[3] + 1)
    inside = [ln for ln in by_top[start:end] if g[0] - 1 <= ln.x0 and ln.x1 <= g[2] + 1 and ln.bottom <= g[3] + 1]
    filled = sum(1 for ln in inside if pg.alone(ln) and len(ln.text.split()) >= 5 and _wordy(ln)
                 and ln.x1 - ln.x0 >= 0.7 * (g[2] - g[0]))
    return filled >= 3 and filled >= 0.5 * len(inside)
