"""A table's text as rows of whole cells, a cell's wrapped lines joined (issue #38).

Lines sharing a baseline make a row.  A cell set over two or three lines ("Goals in" / "control
group", a header "Colonies" / "surveyed") gives rows that hold only those continuations, so read
line by line the cell is never one piece of text.  The table's own structure tells such a row
from a row of its own: it lies at the table's line pitch (rows set apart by a wider gap are rows),
no ruling line runs between it and the row above, it holds no number (a row of
values is a row; but a value's bracket, "13.1" / "(0.3)", carries on its value), it fills fewer
columns than the row above (unless each of its lines carries on a value or a head broken at its hyphen, "MYC-" /
"positive"), and each of its lines starts under one cell of the row above (overlaps it in x, and
no other).  Under a row of values, only lines that carry on in lower case join: a capitalised
label there heads a group of rows ("Study type").  Each such line joins the cell above it; a cell
above that lies over two of its lines is a spanning head ("Pilot CRCT" over "Control" and
"Intervention") and keeps a row of its own.  Between two rules, a band of lines that holds no
number at all (a header of wrapped heads, read as several lines) is one row: its lines join by
column; so is the band above the first rule when no line of it lies over two of another (a group
head over its columns).  A wrong join keeps every word in the table's text, so cell search loses
little; a missed join splits a cell.
"""

from __future__ import annotations

import re

from ..text.lines import Line
from .graphics import Box
from .table_bands import line_pitch, logical_rows, mend_pieces
from .table_columns import by_columns

SEP = " | "
_NUMERIC = re.compile(r"^[(\[]?[-+−±<>≤≥]?\d[\d.,:/–-]*\s*%?[)\]]?[,;*]*$")
PITCH_SLACK = 1.25  # a row set further than this many line pitches below the row above is its own row
_DESCENDERS = set("gjpqy(),;[]{}|$@")
_BREAKS = ("-", "\u2013", "\x02")  # a head broken at its hyphen ("MYC-" / "positive") carries on below


def _numeric(ln: Line) -> bool:
    return any(_NUMERIC.match(w) for w in ln.text.split())


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines sharing a baseline, top to bottom, each row left to right."""
    rows: list[list[Line]] = []
    for ln in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        if rows and ln.top < max(r.bottom for r in rows[-1]) - 0.4 * ln.height:
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return [sorted(r, key=lambda ln: ln.x0) for r in rows]


def _strokes(parts: list[Box], lines: list[Line]) -> list[tuple[float, float, float]]:
    """The table's thin horizontal strokes (rules and pieces of rules): (height, left, right), top down."""
    texts = {(ln.x0, ln.top, ln.x1, ln.bottom) for ln in lines}
    return sorted(((p[1] + p[3]) / 2, p[0], p[2]) for p in parts if p not in texts and p[3] - p[1] < 3)


def _rules(parts: list[Box], thin: list[tuple[float, float, float]]) -> list[float]:
    """The heights of the table's horizontal rules: thin strokes (`_strokes`) at one height that together
    cover much of its width (a rule is often drawn as one segment per column)."""
    if not parts:
        return []
    left, right = min(p[0] for p in parts), max(p[2] for p in parts)
    out: list[float] = []
    i = 0
    while i < len(thin):
        j = i
        while j + 1 < len(thin) and thin[j + 1][0] - thin[i][0] < 1.0:
            j += 1
        covered = sum(x1 - x0 for _, x0, x1 in thin[i:j + 1])
        if covered >= 0.4 * (right - left):
            out.append(thin[i][0])
        i = j + 1
    return out


def _ruled_between(rules: list[float], a: list[Line], b: list[Line]) -> bool:
    lo, hi = max(ln.bottom for ln in a) - 1, min(ln.top for ln in b) + 1
    return any(lo <= y <= hi for y in rules)


class _Cell:
    """One cell being read: its x-extent and its lines' texts."""

    def __init__(self, ln: Line) -> None:
        self.x0, self.x1, self.bottom, self.texts = ln.x0, ln.x1, ln.bottom, [ln.text]

    def overlap(self, ln: Line) -> float:
        return min(self.x1, ln.x1) - max(self.x0, ln.x0)

    def add(self, ln: Line) -> None:
        self.x0, self.x1, self.bottom = min(self.x0, ln.x0), max(self.x1, ln.x1), max(self.bottom, ln.bottom)
        self.texts.append(ln.text)


def _under(cells: list[_Cell], ln: Line) -> _Cell | None:
    """The cell the line starts under: the one it overlaps most, if any."""
    best = max(cells, key=lambda c: c.overlap(ln))
    return best if best.overlap(ln) > 0 else None


def _baseline(ln: Line) -> float:
    """Where the line sits: its bottom, raised by a descender's depth when it has letters that
    go below the line (glyph boxes, not the font's, bound a line: "over" is shorter than "Site")."""
    return ln.bottom - (0.21 * ln.size if any(ch in _DESCENDERS for ch in ln.text) else 0.0)


def _step(a: list[Line], b: list[Line]) -> float:
    """From one row's baseline to the next's."""
    return max(_baseline(ln) for ln in b) - max(_baseline(ln) for ln in a)


def _pitch(rows: list[list[Line]]) -> float:
    """The table's line pitch: the smallest step from one row to the next."""
    steps = [_step(a, b) for a, b in zip(rows, rows[1:], strict=False) if _step(a, b) > 0.5 * a[0].height]
    return min(steps) if steps else 0.0


def _tail(ln: Line, cells: list[_Cell]) -> bool:
    """A bracketed value alone ("(0.3)", "(43.5)") under a value that has none: the value's wrapped
    second line, as its column's other cells ("13.7 (0.4)") show it on one."""
    cell = _under(cells, ln)
    return (ln.text.startswith(("(", "[")) and ln.text.rstrip(",;*").endswith((")", "]")) and cell is not None
            and not any(ch in " ".join(cell.texts) for ch in "([") and _NUMERIC.match(cell.texts[-1]) is not None)


def _continues(row: list[Line], above: list[Line], cells: list[_Cell], pitch: float, rules: list[float]) -> bool:
    """Whether `row` only carries on cells of the row above (see the module's docstring)."""
    tails = all(_tail(ln, cells) for ln in row)
    broken = all((c := _under(cells, ln)) is not None and c.texts[-1].endswith(_BREAKS) for ln in row)
    if any(_numeric(ln) for ln in row) and not tails or _ruled_between(rules, above, row):
        return False
    if len(row) >= len(cells) and not (tails or broken):
        return False  # a full row is a row, unless each line carries on a value or a word broken at its hyphen
    if _step(above, row) > PITCH_SLACK * pitch:
        return False
    if any(sum(1 for c in cells if c.overlap(ln) > 0) > 1 for ln in row):
        return False  # a line across two cells: a note under the table, a group head
    if any(_numeric(ln) for ln in above) and not tails and not all(ln.text[:1].islower() for ln in row):
        return False  # under a row of values a capitalised label starts a group of rows ("Study type")
    return all(_under(cells, ln) is not None for ln in row)


def _spanning(cells: list[_Cell], row: list[Line], strokes: list[tuple[float, float, float]]) -> list[_Cell]:
    """Cells that lie over two or more lines of the row under them: a spanning head ("Pilot CRCT")
    over its columns' own heads ("Control", "Intervention"), a cell of its own and not theirs.  A head
    reaches as far as a stroke drawn under it (a rule under a spanning head spans its columns; its
    text, centred, may not reach over theirs)."""
    top = min(ln.top for ln in row) + 1
    out = []
    for c in cells:
        x0, x1 = c.x0, c.x1
        for y, a, b in strokes:
            if c.bottom - 1 <= y <= top and min(b, c.x1) > max(a, c.x0):
                x0, x1 = min(x0, a), max(x1, b)
        if sum(1 for ln in row if min(x1, ln.x1) > max(x0, ln.x0)) > 1:
            out.append(c)
    return out


def _spans(band: list[list[Line]]) -> bool:
    """Whether a line of the band lies over two lines of another of its rows (a group head)."""
    def over(ln: Line, row: list[Line]) -> int:
        return sum(1 for o in row if min(ln.x1, o.x1) > max(ln.x0, o.x0))
    return any(over(ln, r2) > 1 for r in band for r2 in band if r2 is not r for ln in r)


def _header_bands(rows: list[list[Line]], rules: list[float]) -> set[int]:
    """Rows (by index) that join the row above because a band between two rules holds no number."""
    joined: set[int] = set()
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or _ruled_between(rules, rows[i - 1], rows[i]):
            band = rows[start:i]
            bounded = start > 0 or any(y < min(ln.top for ln in rows[start]) for y in rules) or not _spans(band)
            if len(band) > 1 and bounded and i < len(rows) and not any(_numeric(ln) for r in band for ln in r):
                joined.update(range(start + 1, i))
            start = i
    return joined


def _grid_rows(rows: list[list[Line]], starts: set[int]) -> set[int]:
    """Rows (by index) that join the row above in a ruled grid: where rules part the table into bands
    of a row or two (three rules or more, and at least a band for every three rows), a band whose later
    rows fill fewer columns than the table's fullest row is one row set over several lines (a cell of
    two items, "window size: 26" / "# candidates: 115", numbers and all: the rules, not the lines,
    bound its rows).  A band of complete rows is rows."""
    if len(starts) < 3 or 3 * (len(starts) + 1) < len(rows):
        return set()
    full = max(len(r) for r in rows)
    bounds = [*sorted(starts), len(rows)]
    joined: set[int] = set()
    for a, b in zip(bounds, bounds[1:], strict=False):
        if b - a > 1 and all(len(rows[i]) < full for i in range(a + 1, b)):
            joined.update(range(a + 1, b))
    return joined


def table_text(lines: list[Line], parts: list[Box]) -> str:
    """The table's text: rows as lines, cells separated by `` | ``, a cell's wrapped lines as one
    (a cell's pieces and marks mended and a band of centred cells read as one row: `table_bands`;
    narrow column gaps split and word spaces between pieces joined by the other rows: `table_columns`)."""
    rows = by_columns(mend_pieces(_rows(lines)))
    strokes = _strokes(parts, lines)
    rules = _rules(parts, strokes)
    pitch, banded = _pitch(rows), _header_bands(rows, rules)
    starts = {i for i in range(1, len(rows)) if _ruled_between(rules, rows[i - 1], rows[i])}
    logical = logical_rows(rows, starts, _baseline, _NUMERIC, line_pitch(rows, _baseline))
    banded |= _grid_rows(rows, starts)
    out: list[list[_Cell]] = []
    for i, row in enumerate(rows):
        cells = out[-1] if out else []
        if cells and (i in banded or i in logical or _continues(row, rows[i - 1], cells, pitch, rules)):
            heads = _spanning(cells, row, strokes)
            if heads:  # a head over its columns' heads: a row of its own above them
                out.insert(len(out) - 1, heads)
                cells[:] = [c for c in cells if c not in heads]
            for ln in row:
                cell = _under(cells, ln) if cells else None
                if cell is None:
                    cells.append(_Cell(ln))
                    cells.sort(key=lambda c: c.x0)
                else:
                    cell.add(ln)
            continue
        out.append([_Cell(ln) for ln in row])
    text = "\n".join(SEP.join(" ".join(c.texts) for c in r) for r in out)
    return text.replace("\x02", "-")
