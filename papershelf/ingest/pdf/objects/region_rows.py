"""Rows and columns around a figure or table: the lines set beside others, a page's gutters, a caption's
own lines, and whether a row below a caption still belongs to it (regions.py walks from these)."""

from __future__ import annotations

import bisect
import functools
import math
import re

from ...captions import CAPTION_RE
from ..sections.headings import BodyStyle
from ..text.lines import Line, visual_rows

_WORD = re.compile(r"^[(\[\"'“‘]?[A-Za-z][a-z]+[)\]\"'”’.,;:!?]*$")  # a word of prose, not math or a number



def _beside(lines: list[Line], width: float, two_columns: bool, gutters: list[float] | None = None) -> set[int]:
    """Lines that share a baseline with another line of their column: table cells, chart labels.
    Two pieces closer than a word space are one line that pdfium broke (after a superscript, "m s⁻¹"
    then ". The"), not cells: columns of a table stand further apart.  The page's columns divide at
    its `gutters` when it has columns of text (three columns: the middle one crosses the page's
    middle), else at the middle of a page in two."""
    bounds = list(gutters or []) or ([width / 2] if two_columns else [])
    out: set[int] = set()
    ordered = sorted(lines, key=lambda ln: ln.top)
    column = {id(ln): bisect.bisect_left(bounds, ln.x1 - 8) for ln in ordered}
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b.top >= a.bottom:
                break
            overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
            apart = max(b.x0 - a.x1, a.x0 - b.x1) >= 0.3 * min(a.size, b.size)
            if apart and column[id(a)] == column[id(b)] and overlap > 0.5 * min(a.height, b.height):
                out.update((id(a), id(b)))
    return out


@functools.lru_cache(maxsize=1 << 14)
def prose_words(text: str) -> tuple[int, int]:
    """How many words a line's text has, and how many of them are words of prose (`_WORD`): asked
    of the same lines by every walk, gutter and column test of a page."""
    words = text.split()
    return len(words), sum(1 for w in words if _WORD.match(w))


def _wordy(ln: Line) -> bool:
    """Mostly words of prose: a table's row of codes and numbers shows no column of the page."""
    words, wordy = prose_words(ln.text)
    return wordy >= 0.6 * words


def _two_columns(lines: list[Line], width: float) -> bool:
    """Most prose lines end before the middle or start after it (rows of a table set across the
    page are no prose: a page holding a long one is still set in two columns).  A page of a table
    and its caption alone (tables collected after the references) shows no columns: a caption's
    line or two left of the middle are not a column."""
    mid = width / 2
    wide = [ln for ln in lines if len(ln.text) > 30 and _wordy(ln)]
    crossing = sum(1 for ln in wide if ln.x0 < mid - 8 and ln.x1 > mid + 8)
    return len(wide) >= 4 and crossing < 0.5 * len(wide)


def _gutters(lines: list[Line], two_columns: bool) -> list[tuple[float, float]]:
    """Where the page's text columns meet, when they are not two halves: each empty upright strip
    (its left and right edge; at least 3 pt wide) that (almost) no line of prose crosses, with two such lines
    wholly on either side (a narrow margin column for figures and captions beside two body columns,
    three even columns).  A few lines may cross a strip (an abstract or a caption set across two of
    three columns): at most a sixth of the prose lines beside it.  A page in two halves keeps the
    middle (`_two_columns`); [] when none is found."""
    wide = [(ln.x0, ln.x1) for ln in lines if len(ln.text) > 30 and _wordy(ln)]
    if len(wide) < 4:
        return []
    starts, ends = sorted(x0 for x0, _ in wide), sorted(x1 for _, x1 in wide)
    out: list[tuple[float, float]] = []
    run: list[int] = []  # the first and last point of the strip so far
    for x, after in _stretches(starts, ends):
        left, right = bisect.bisect_right(ends, x), len(wide) - bisect.bisect_left(starts, x)
        crossing = len(wide) - left - right
        if left >= 2 and right >= 2 and crossing <= (left + right) / 6:
            run = [run[0] if run else x, after - 1]
            continue
        if run and run[1] - run[0] >= 2:
            out.append((run[0], run[1]))
        run = []
    return out if len(out) >= 2 or (out and not two_columns) else []


def _stretches(starts: list[float], ends: list[float]) -> list[tuple[int, int]]:
    """The whole points from the first line's start to past the last one's end, in stretches over which
    no line starts or ends (x to before `after`): the counts `_gutters` tests are the same at each
    point of a stretch, so one test a stretch answers for every point.  A line ending at e is left of
    the points from ceil(e) on; one starting at s is right of those up to floor(s)."""
    lo, hi = int(starts[0]), int(ends[-1]) + 2
    cuts = {lo, hi} | {math.ceil(e) for e in ends} | {math.floor(s) + 1 for s in starts}
    points = sorted(c for c in cuts if lo <= c <= hi)
    return list(zip(points, points[1:]))


def off_middle(lines: list[Line], strips: list[tuple[float, float]], width: float) -> bool:
    """One gutter (`_gutters` of a page not taken in two halves) off the middle of a page whose prose
    lines cross the middle (a sixth of them or more): the columns divide there, not at the middle (a
    third column left empty)."""
    if len(strips) != 1:
        return False
    mid = width / 2
    wide = [(ln.x0, ln.x1) for ln in lines if len(ln.text) > 30 and _wordy(ln)]
    across = sum(1 for x0, x1 in wide if x0 < mid - 8 and x1 > mid + 8)
    return across > len(wide) / 6 and not strips[0][0] - 8 <= mid <= strips[0][1] + 8


def _caption_lines(lines: list[Line], first: Line, body: BodyStyle,
                   gutters: list[tuple[float, float]] | None = None) -> list[Line]:
    """The caption's own lines: the first one (with what follows it on its row) and the visual
    rows set closely below it, up to where the caption's block ends (see `_goes_on`).  What follows
    on its row is never another caption's start: two figures side by side have their captions side
    by side, a gutter apart, often on baselines a point or two apart; nor a line beyond one of the
    page's `gutters` between columns of text (a caption in a margin column beside the body)."""
    same_row = [ln for ln in lines if ln is not first and _overlap_v(ln, first) > 0.5 * min(ln.height, first.height)]
    out = [first] + sorted((ln for ln in same_row if first.x1 - 1 <= ln.x0 <= first.x1 + first.size
                            and not CAPTION_RE.match(ln.text)
                            and not any(first.x1 <= b + 1 and ln.x0 >= a - 1 for a, b in gutters or [])),
                           key=lambda ln: ln.x0)
    below = [ln for ln in lines if ln.top > first.top - 1 and ln.x1 > first.x0 - 2 and ln.x0 < first.x1 + 2
             and ln is not first and ln not in same_row]
    edges = [(first.top, first.bottom)]
    centred = _centred(lines, first)
    for row in visual_rows(below):
        if not "".join(ln.text for ln in row).strip():
            continue  # a stray mark between the caption's rows (an accent set apart, a rule's dot): no row of text
        if not _goes_on(out, edges, row, first, centred):
            break
        out += row
        edges.append((min(ln.top for ln in row), max(ln.bottom for ln in row)))
    return out


def _overlap_v(a: Line, b: Line) -> float:
    return min(a.bottom, b.bottom) - max(a.top, b.top)


def _centred(lines: list[Line], first: Line) -> tuple[float, bool]:
    """The caption's column's left edge, and whether the caption's first line sits centred in it."""
    beside = [ln for ln in lines if ln.x0 < first.x1 and ln.x1 > first.x0 and len(ln.text) > 20] or [first]
    left = sorted(ln.x0 for ln in beside)[len(beside) // 10]
    right = sorted(ln.x1 for ln in beside)[int(0.9 * (len(beside) - 1))]
    return left, first.x0 - left > 2 * first.size and abs((first.x0 - left) - (right - first.x1)) < 2 * first.size


def _goes_on(out: list[Line], edges: list[tuple[float, float]], row: list[Line], first: Line,
             centred: tuple[float, bool]) -> bool:
    """Does the caption go on into `row`?  Only when the line before filled the caption's width
    (text wraps only when a line is full), the row is in the caption's size at its own line pitch
    (the first gap must be tight), starts where the caption starts (a centred caption goes on
    centred, not from the column's edge), holds words, and opens no other caption.  The pitch is
    the smaller of the rows' tops' and bottoms' steps: a row of short words without descenders
    ("a mobile user.") is not a gap."""
    size, lead = first.size, row[0]
    widest = max(ln.x1 for ln in out)
    last = max((ln.x1 for ln in out if ln.bottom > edges[-1][0] + 0.5 and ln.top < edges[-1][1] - 0.5),
               default=out[-1].x1)  # a row under half a wide caption's width ended its paragraph
    short = max(ln.x1 for ln in out[-3:]) < widest - 2.5 * size \
        or widest - first.x0 > 20 * size and last < first.x0 + 0.5 * (widest - first.x0)
    if short and not out[-1].text.endswith(("-", "\x02")):
        return False
    left, is_centred = centred
    middle = abs(lead.x0 + row[-1].x1 - first.x0 - first.x1)
    if is_centred and len(edges) == 1 and (middle > 4 * size and abs(lead.x0 - first.x0) > 1 or lead.x0 - left < size):
        return False  # a centred caption goes on centred, or from its own first line's edge (a block set centred)
    pitch = _step(edges[-1], (min(ln.top for ln in row), max(ln.bottom for ln in row)))
    em = _em(first)
    # the caption's own pitch: its last step, or its usual one where a row without descenders shrank the last
    steps = sorted(_step(a, b) for a, b in zip(edges, edges[1:]))
    usual = max(_step(edges[-2], edges[-1]), steps[len(steps) // 2]) if steps else 0.0
    limit = 1.45 * em if len(edges) == 1 else min(1.7 * em, usual + 0.25 * em)
    hang = _hanging(out, edges, first)
    aligned = abs(lead.x0 - first.x0) < 2 * size or middle < 4 * size \
        or hang is not None and len(row) == 1 and abs(lead.x0 - hang) < 1.5 * size \
        or len(edges) > 2 and lead.x0 < first.x0 and abs(row[-1].x1 - widest) < size  # run on under its object
    words = re.search(r"[^\W\d_]", " ".join(ln.text for ln in row))
    return pitch <= limit and (abs(_em(lead) - em) <= max(0.6, 0.12 * em * (em != size)) or _smaller_text(row, out)
                                      or abs(lead.size - out[-1].size) <= 0.6 and out[-1].size < size) \
        and not CAPTION_RE.match(lead.text) and aligned and bool(words)


def _hanging(out: list[Line], edges: list[tuple[float, float]], first: Line) -> float | None:
    """Where the lines of a caption set with a hanging label start ("Figure 6   Binding of …" with
    its later lines under "Binding"), else None: under its first line's words after the label (as
    far in as the label's share of the line's letters), and once a row went on there, at that row."""
    if len(edges) > 1:
        lead = min((ln.x0 for ln in out if ln.top > edges[0][1] - 0.5), default=first.x0)
        return lead if lead - first.x0 >= 2 * first.size else None
    m = CAPTION_RE.match(first.text)
    if m is None or m.end() >= len(first.text):
        return None
    start = first.x0 + (first.x1 - first.x0) * m.end() / len(first.text)
    return start if start - first.x0 >= 2 * first.size else None


def _em(ln: Line) -> float:
    """The line's type size: as the PDF states it, unless its glyphs stand far taller than that (a text
    matrix that scales the font, which pdfium's size leaves out: "5.2" for 9-point lines 9 points tall,
    while the same font's next lines say 9.0); then from the line's height (a line of text stands about
    0.9 of its size tall)."""
    tall = ln.bottom - ln.top
    return tall / 0.9 if tall > 1.3 * ln.size else ln.size


def _smaller_text(row: list[Line], out: list[Line]) -> bool:
    """A line of the caption's text a point or so smaller than its first line, whose size the label
    or a name in it set ("Fig. 4. *Philometra saltatrix*" over 9-point text): one piece (a table's
    head row is several), its letters as closely set as the caption's (a head row read as one line
    spreads its words apart)."""
    ln, first = row[0], out[0]
    if len(row) > 1 or not 0 < max(o.size for o in out) - ln.size <= 1.6:
        return False
    return (ln.x1 - ln.x0) / len(ln.text) / ln.size <= 1.25 * (first.x1 - first.x0) / len(first.text) / first.size


def _step(above: tuple[float, float], below: tuple[float, float]) -> float:
    """How far one row is set below another: the smaller of the steps of their tops and of their bottoms."""
    return min(below[0] - above[0], below[1] - above[1])


def row_across(rows: list[Line], rules: list[tuple], cap: list[Line], sides: tuple[float, float], near: float,
               others: list[Line]) -> bool:
    """A page-wide table's header row set above its first rule, under a caption shorter than a
    column: a row of cells close to the caption that starts in its column and goes on past the gutter
    with two pieces or more, with a rule crossing the gutter a little further on (past the reach of
    `_wide_beside`'s rules).  `rows`: the page's lines that are no prose and no caption's; `rules`:
    its thin graphics; `sides`: where the gutter's strip begins and ends.  A caption set beyond the
    gutter at that height says the row is two tables'."""
    top, bottom = min(ln.top for ln in cap), max(ln.bottom for ln in cap)
    x0, x1 = min(ln.x0 for ln in cap), max(ln.x1 for ln in cap)
    a, b = sides
    if not any(r[0] < a and r[2] > b and top - 2 * near < r[1] < bottom + 2 * near for r in rules):
        return False
    close = [ln for ln in rows if -near < top - ln.bottom < near or -near < ln.top - bottom < near]
    for row in visual_rows(close):
        beyond = [ln for ln in row if ln.x0 > b]
        if len(beyond) >= 2 and any(min(ln.x1, x1) > max(ln.x0, x0) for ln in row if ln.x1 < a):
            lo, hi = min(ln.top for ln in row + cap), max(ln.bottom for ln in row + cap)
            if not any(o.x0 > a and o.top < hi + near and o.bottom > lo - near for o in others):
                return True
    return False
