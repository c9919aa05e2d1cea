"""A table's columns from its own rows: narrow column gaps split, word spaces between pieces joined.

pdfium keeps a row drawn as one text object as one line, its cells' gaps as spaces ("N schools   1
1   2"), and so a row whose columns stand only an em or two apart, no wider than a loose word space
("N parent opt out 9", "0.75–1.0 0.063 0.0% 0.42"): `lines` keeps such gaps on the line
(`rect_gaps`).  A gap as wide as `lines` cuts two rectangles at is a column's.  A column's gap is the same all down the
table, though: the other rows leave it empty too, and their cells of the next column start where the
text after it starts.  So each narrow gap a line holds (`Line.gaps`, measured by `rect_gaps`) is
weighed against the table's other rows: a row with text across the gap's middle speaks against a
column there, a row with no text across it and a cell starting where the gap ends (within `ALIGN`)
for one.  A gap most rows leave open so (two at least, twice as many as cover it) parts two
cells.  The same weighing joins two pieces of a row that stand only a word space or so apart (a
name and its italic "et al." read as two pieces) when most rows have text across the space between
them: no column runs there.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools

from ..text.lines import Line
from ..text.rect_gaps import cut_gap

JOIN_GAP = 1.0  # em: pieces of a row closer than this are one cell unless a column runs between them
ALIGN = 0.5  # em: cells of one column start this close to each other (a narrow gap is a column's only there)


def _covered(ln: Line) -> list[tuple[float, float]]:
    """The stretches of x the line's words cover: its span less its gaps."""
    out, x0 = [], ln.x0
    for _, a, b in ln.gaps:
        out.append((x0, a))
        x0 = b
    return [*out, (x0, ln.x1)]


class _Cover:
    """One row's covered stretches, sorted by where they start, with the furthest end among the first k:
    whether a stretch lies across x, ends before it or starts after it is a bisection, not a scan (a
    table's gaps are weighed against all its rows, so a scan per row made a tall, wide table cost its
    rows squared times its cells)."""

    def __init__(self, stretches: list[tuple[float, float]]) -> None:
        ordered = sorted(stretches)
        self.starts = [a for a, _ in ordered]
        self.reach = list(itertools.accumulate((b for _, b in ordered), max))
        self.first_end = min((b for _, b in ordered), default=0.0)

    def across(self, x: float) -> bool:
        k = bisect.bisect_left(self.starts, x)
        return k > 0 and self.reach[k - 1] > x

    def open_at(self, x: float, start: float | None, slack: float) -> bool:
        if not self.starts or self.first_end > x:
            return False
        if start is None:
            return self.starts[-1] >= x
        j = bisect.bisect_left(self.starts, max(x, start - slack))
        return j < len(self.starts) and self.starts[j] <= start + slack


def _votes(rows: list[_Cover], skip: int, x: float, start: float | None = None,
           slack: float = 0.0) -> tuple[int, int]:
    """(rows with text on both sides of x and none across it, rows with text across it), row `skip`
    aside.  With `start`, a row is open only where a text of it starts there too (within `slack`): the
    next column's cells line up at their left edge, where a gap inside a wide cell ("12.1 ± 1.2") lies
    over the empty end of its column's narrower cells."""
    open_, across = 0, 0
    for i, row in enumerate(rows):
        if i == skip:
            continue
        if row.across(x):
            across += 1
        elif row.open_at(x, start, slack):
            open_ += 1
    return open_, across


def _split(ln: Line, at: list[tuple[int, float, float]]) -> list[Line]:
    """The line cut at the given gaps of its own (each: words before it, its edges)."""
    words = ln.text.split()
    out, k0, x0 = [], 0, ln.x0
    for k, a, b in at:
        out.append(dataclasses.replace(ln, x0=x0, x1=a, text=" ".join(words[k0:k]), gaps=()))
        k0, x0 = k, b
    out.append(dataclasses.replace(ln, x0=x0, text=" ".join(words[k0:]), gaps=()))
    return out


def by_columns(rows: list[list[Line]]) -> list[list[Line]]:
    """Each row with its lines cut at their wide gaps and at the gaps most other rows leave open, and
    its pieces a word space apart joined where most other rows have text across the space (see the
    module's docstring)."""
    cover = [_Cover([c for ln in row for c in _covered(ln)]) for row in rows]
    out = []
    for i, row in enumerate(rows):
        cut: list[Line] = []
        for ln in row:
            words = len(ln.text.split())
            at = [g for g in ln.gaps if 0 < g[0] < words
                  and (g[2] - g[1] > cut_gap(ln.size)
                       or _opens(_votes(cover, i, (g[1] + g[2]) / 2, g[2], ALIGN * ln.size)))]
            cut += _split(ln, at) if at else [ln]
        joined = [cut[0]]
        for ln in cut[1:]:
            last = joined[-1]
            if ln.x0 - last.x1 < JOIN_GAP * ln.size and _closed(_votes(cover, i, (last.x1 + ln.x0) / 2)):
                joined[-1] = dataclasses.replace(last, x1=max(last.x1, ln.x1), text=f"{last.text} {ln.text}", gaps=())
            else:
                joined.append(ln)
        out.append(joined)
    return out


def _opens(votes: tuple[int, int]) -> bool:
    open_, across = votes
    return open_ >= 2 and open_ >= 2 * across


def _closed(votes: tuple[int, int]) -> bool:
    open_, across = votes
    return across >= 2 and across > 2 * open_
