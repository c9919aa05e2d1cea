"""A page's columns, found in its own layout, and its lines read band by band, column by column.

Two columns divide at the page's middle, and that rule reads most papers.  A page set in three or
four columns (Science, a landscape extended abstract, a magazine) has a column across the middle:
its lines cross the middle, and read as "full width" they come interleaved line by line with
their neighbours'.  The columns show in the page itself: between two columns runs an upright
white strip that the running text's lines do not cross, over most of the page, with many lines
wholly on either side.  A few lines may cross it (the title, an abstract or a figure's caption
set across the columns); those cut the page into bands, and each band is read column by column.

No gutter, or one that holds the page's middle, leaves the page to the middle rule
(`reading_order`'s `mid`): two columns read as before.  One gutter away from the middle (a
three-column paper's last page, two columns filled) divides the page where it runs.
"""

from __future__ import annotations

import bisect
import itertools
import math

from ..objects.region_rows import _wordy
from ..text.lines import Line

_MIN_CHARS = 12  # a line of running text, not a chart's label or a table's cell
_MIN_LINES = 5  # lines wholly on each side of a gutter, and in each column
_CROSSING = 1 / 5  # at most this share of the lines beside a gutter may cross it
_MIN_GAP = 4.0  # points: a gutter is at least this wide
_MIN_SHARE = 0.12  # of the text's width: a column narrower than this is a table's column, not the page's
_FILL = 0.5  # a column's lines run across it: their median width, of the extent of its lines
_SLACK = 8.0  # points a line may reach into a gutter and still stand in its column
_MAX_BLOCKS = 40  # blocks a page is read in by `_blocks_in_order`, at most


def gutters(lines: list[Line]) -> list[tuple[float, float]]:
    """The white strips between the page's columns (left and right edge of each), left to right:
    strips at least `_MIN_GAP` wide that at most a `_CROSSING` share of the running text's lines
    (mostly words, `_wordy`) beside them cross, with `_MIN_LINES` lines wholly on either side;
    then only those beside columns of text (`_columns_of_text`)."""
    prose = [(ln.x0, ln.x1) for ln in lines if len(ln.text.strip()) >= _MIN_CHARS and _wordy(ln)]
    if len(prose) < 3 * _MIN_LINES:
        return []
    starts, ends = sorted(a for a, _ in prose), sorted(b for _, b in prose)
    first, last = int(starts[0]) + 1, int(ends[-1])
    # the counts change only where x passes a line's end or start: test each stretch between once
    cuts = sorted({first, last + 1, *(math.ceil(b) for b in ends), *(math.floor(a) + 1 for a in starts)})
    strips: list[tuple[float, float]] = []
    run: list[tuple[int, int, int]] = []  # the stretches of the current run of white: first x, last x, lines crossing
    for x, nxt in itertools.pairwise(c for c in cuts if first <= c <= last + 1):
        left, right = bisect.bisect_right(ends, x), len(prose) - bisect.bisect_left(starts, x)
        crossing = len(prose) - left - right
        if left >= _MIN_LINES and right >= _MIN_LINES and crossing <= _CROSSING * (left + right):
            run.append((x, nxt - 1, crossing))
            continue
        if run and run[-1][1] - run[0][0] + 1 >= _MIN_GAP:
            found = _narrowest(run)
            strips += sorted(found + _beside(run, found, prose))
        run = []
    k = len(prose) // 20  # the text's edges: a twentieth of its lines may stand outside (a margin's caption)
    return _columns_of_text(strips, prose, starts[k], ends[-1 - k])


def _narrowest(run: list[tuple[int, int, int]]) -> list[tuple[float, float]]:
    """The parts of a run of white that the fewest lines cross: beside a column of few lines (a
    page's second column below a wide abstract, or beside a figure) the run reaches into or across
    that column, whose lines cross it.  Each stretch at the fewest at least `_MIN_GAP` wide is a
    strip of its own (`_columns_of_text` then keeps those beside columns of text); if none is that
    wide, the longest."""
    fewest = min(c for *_, c in run)
    stretches = [(g[0][0], g[-1][1]) for k, g in
                 ((k, list(g)) for k, g in itertools.groupby(run, key=lambda s: s[2] == fewest)) if k]
    wide = [(float(a), float(b)) for a, b in stretches if b - a + 1 >= _MIN_GAP]
    a, b = max(stretches, key=lambda ab: ab[1] - ab[0])
    return wide or [(float(a), float(b))]


def _beside(run: list[tuple[int, int, int]], found: list[tuple[float, float]],
            prose: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Strips in the rest of a run, either side of those `_narrowest` found: a column of few lines
    (an author grid's second column beside an abstract) lets the run reach across it and a gutter
    beyond it, crossed by a line or two, is not at the run's fewest.  The part's own narrowest
    stretch is a strip when `_MIN_LINES` lines stand wholly between it and the found strip."""
    out: list[tuple[float, float]] = []
    for part, near in (([s for s in run if s[1] < found[0][0]], found[0][0]),
                       ([s for s in run if s[0] > found[-1][1]], found[-1][1])):
        if not part or part[-1][1] - part[0][0] + 1 < _MIN_GAP:
            continue
        a, b = _narrowest(part)[0]
        if b - a + 1 < _MIN_GAP:
            continue
        lo, hi = (b, near) if b < near else (near, a)
        if sum(lo - _SLACK <= x0 and x1 <= hi + _SLACK for x0, x1 in prose) >= _MIN_LINES:
            out.append((a, b))
    return out


def _columns_of_text(strips: list[tuple[float, float]], prose: list[tuple[float, float]], left: float,
                     right: float) -> list[tuple[float, float]]:
    """The strips that divide columns of text: each column between two strips (or a strip and the
    text's edge) no narrower than `_MIN_SHARE` of the text's width (else none divides the page),
    and holding `_MIN_LINES` lines that mostly run across it (their median width at least `_FILL`
    of their extent).  A column of few or ragged lines (a table's column of names set as text, a
    margin's notes) loses the strips beside it, and its lines join the neighbouring column."""
    while strips:
        edges = [left, *(x for g in strips for x in g), right]
        spans = list(zip(edges[::2], edges[1::2], strict=True))
        if any(b - a < _MIN_SHARE * (right - left) for a, b in spans):
            return []
        bad = next((k for k, (a, b) in enumerate(spans) if not _filled(prose, a, b)), None)
        if bad is None:
            return strips
        strips = [g for k, g in enumerate(strips) if k not in (bad - 1, bad)]
    return []


def _filled(prose: list[tuple[float, float]], a: float, b: float) -> bool:
    held = [(x0, x1) for x0, x1 in prose if a - _SLACK <= x0 and x1 <= b + _SLACK]
    if len(held) < _MIN_LINES:
        return False
    widths = sorted(x1 - x0 for x0, x1 in held)
    return widths[len(widths) // 2] >= _FILL * (max(x1 for _, x1 in held) - min(x0 for x0, _ in held))


def _crosses(ln: Line, gutters: list[tuple[float, float]]) -> bool:
    return any(ln.x0 < a - _SLACK and ln.x1 > b + _SLACK for a, b in gutters)


def _column(ln: Line, gutters: list[tuple[float, float]]) -> int:
    """Which column a line crossing no gutter stands in: the gutters it ends clearly right of, or
    starts right of (a column's short last line, "a.", ends within the slack)."""
    return sum(ln.x1 > b + _SLACK or (b > a and ln.x0 >= (a + b) / 2) for a, b in gutters)


def reading_order(lines: list[Line], width: float, mid: float | None = None) -> list[list[Line]]:
    """Columns in reading order: a list of line runs, each one column of one band.  A page whose
    lines show two gutters or more (`gutters`), or one away from the page's middle (the last page
    of a three-column paper, two of its columns filled; a landscape page's two columns beside a
    margin), is read by them; otherwise the columns divide at `mid`: the page's middle, or the
    text's when a sidebar strip took one side (or frames two)."""
    found = gutters(lines) if mid is None else []
    if len(found) == 1 and found[0][0] - _SLACK <= width / 2 <= found[0][1] + _SLACK:
        found = []  # two columns divided at the middle: the middle rule, as ever
    if not found:
        at = width / 2 if mid is None else mid
        found = [(at, at)]
    columns = []
    if len(found) > 1 and any(0 < b - a < len(found) for a, b in (_span(ln, found) for ln in lines)):
        columns = _blocks_in_order(lines, found)
    if columns:
        for col in columns:
            _mark_side_by_side(col)
        return columns
    band: dict[int, list[Line]] = {}
    by_top = _one_column(lines, found)
    for ln in sorted(lines, key=lambda ln: (round(ln.top), ln.x0)):
        if _crosses(ln, found):
            _flush_band(columns, band, by_top)
            if columns and _crosses(columns[-1][-1], found):
                columns[-1].append(ln)  # consecutive full-width lines read as one run
            else:
                columns.append([ln])
        else:
            band.setdefault(_column(ln, found), []).append(ln)
    _flush_band(columns, band, by_top)
    for col in columns:
        _mark_side_by_side(col)
    return columns


def _span(ln: Line, gutters: list[tuple[float, float]]) -> tuple[int, int]:
    """The first and last column a line stands in: (0, 0) in the first column, (0, 1) across the
    first gutter."""
    first = sum(ln.x0 >= a - _SLACK for a, _ in gutters)
    return first, max(first, sum(ln.x1 > b + _SLACK for _, b in gutters))


def _blocks_in_order(lines: list[Line], gutters: list[tuple[float, float]]) -> list[list[Line]]:
    """Lines read block by block where some cross a gutter but not all (a wide abstract over two of
    three columns, the third running beside it; a caption across the last two, the first beside).
    A block is a run of lines in the same columns that no line across part of those columns cuts;
    the blocks are read in the order of Breuel's reading-order rules (2003): of two blocks sharing
    a column the upper first; of two side by side the left first, unless a block across both
    stands between them."""
    blocks: list[tuple[tuple[int, int], list[Line]]] = []
    open_: dict[tuple[int, int], int] = {}  # span -> index of its open block
    for ln in sorted(lines, key=lambda ln: (round(ln.top), ln.x0)):
        span = _span(ln, gutters)
        for other in [o for o in open_ if o != span and o[0] <= span[1] and span[0] <= o[1]]:
            del open_[other]  # cut by a line across part of its columns
        if span in open_:
            blocks[open_[span]][1].append(ln)
        else:
            open_[span] = len(blocks)
            blocks.append((span, [ln]))
    if len(blocks) > _MAX_BLOCKS:  # a page of tables and charts: the ordering's cost grows as the cube
        return []
    return [blocks[k][1] for k in _breuel_order(blocks)]


def _breuel_order(blocks: list[tuple[tuple[int, int], list[Line]]]) -> list[int]:
    """The blocks' indices in reading order: a topological order of "a before b" (`_blocks_in_order`),
    the highest block first among those free; a cycle (never seen) is broken the same way."""
    top = [min(ln.top for ln in b) for _, b in blocks]
    bottom = [max(ln.bottom for ln in b) for _, b in blocks]
    spans = [s for s, _ in blocks]

    def meet(i: int, j: int) -> bool:
        return spans[i][0] <= spans[j][1] and spans[j][0] <= spans[i][1]

    def between(c: int, a: int, b: int) -> bool:
        return top[c] >= min(top[a], top[b]) and bottom[c] <= max(bottom[a], bottom[b])

    n = len(blocks)
    before = [[(meet(a, b) and top[a] < top[b]) or (spans[a][1] < spans[b][0] and not any(
        meet(c, a) and meet(c, b) and between(c, a, b) for c in range(n) if c not in (a, b)))
        for b in range(n)] for a in range(n)]
    order: list[int] = []
    left = set(range(n))
    while left:
        free = [b for b in left if not any(before[a][b] for a in left if a != b)] or list(left)
        pick = min(free, key=lambda k: (top[k], spans[k][0]))
        order.append(pick)
        left.remove(pick)
    return order


def _one_column(lines: list[Line], found: list[tuple[float, float]]) -> bool:
    """A page set in one column: most of its running text's lines cross the middle.  Its lines
    beside the middle are no columns but short blocks (a right-aligned byline over a left-aligned
    "Abstract", a two-column author grid), read top down by `_flush_band`."""
    prose = [ln for ln in lines if len(ln.text.strip()) >= _MIN_CHARS and _wordy(ln)]
    return len(found) == 1 and sum(_crosses(ln, found) for ln in prose) > len(prose) / 2


def _flush_band(columns: list[list[Line]], band: dict[int, list[Line]], by_top: bool = False) -> None:
    """A band's columns, left to right; on a one-column page (`by_top`) the runs beside the middle
    in the order of their first lines (a side-by-side grid's left run first, as both start level)."""
    runs = [sorted(band[k], key=lambda ln: (ln.top, ln.x0)) for k in sorted(band) if band[k]]
    if by_top:
        runs.sort(key=lambda run: round(run[0].top))
    columns.extend(runs)
    band.clear()


def _mark_side_by_side(column: list[Line]) -> None:
    """Lines sharing a baseline with another line of the column (table cells, chart labels)."""
    for a, b in itertools.pairwise(column):
        overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
        if overlap > 0.5 * min(a.height, b.height):
            a.alone = b.alone = False
