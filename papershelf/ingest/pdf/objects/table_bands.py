"""A table's rows mended before they become cells (`table_cells`, issue #38).

Pieces of one cell: pdfium breaks a cell's text where a raised or lowered mark sits ("I", "2",
"(%)" for I² (%); "CO", "2" for CO₂), and a mark set higher than its row's tops even starts a row of
its own.  A mark (a smaller piece set after another, raised or lowered: `_place`) joins the row of
the piece it follows, and pieces of a row closer than a word space and a bit (0.3 em: a table's
columns stand further apart; 0.45 em after a mark) are one cell, a mark written as `lines` writes
scripts (``I^2 (%)``).

Logical rows: a row whose cells are set over several lines with its other cells centred on the
tallest (a label on three lines and its values beside the middle one; "Adult patients / with septic
shock" beside a value half-way down) reads as lines in rows of their own, the label's middle line
sharing its baseline with the values.  Such rows come as bands: lines at the table's line pitch (the
step from a line to the next line of its column), bands set apart by a wider step or by a rule.  A
band is one row when it holds a value (a line opening with a number) and at most one per column, at
most one of its rows fills every column (a group of complete rows is rows), and it is a logical row
among others: no more than half of the table's rows, and the table has more than one band (a table
set at one even pitch throughout tells nothing).  A band whose values all sit beside its last line is a
group head ("Pilot trial") over the row under it, not one row: a cell set over lines has its values
beside its first line or its middle, never only beside its last.  A table of text alone is left as it was: nothing
there tells a band of one row from a group of rows.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from ..text.lines import Line

SMALL = 0.8  # a piece in a size at most this share of its row's is a mark (a superscript or subscript)
PIECE_GAP = 0.3  # pieces of a row closer than this many em are one cell
MARK_GAP = 0.45  # ... and after a mark (a word space and the mark's own spacing)
BAND_SLACK = 1.2  # a row set further than this many line pitches below the row above starts a band


def _place(small: Line, big: Line) -> str:
    """``^`` when `small` is a raised mark set after `big`, ``_`` when a lowered one, else "".  A mark is
    a piece in a smaller size, or (pdfium's size is not to be trusted for a lone mark) of up to three
    characters in a lower box; it starts where `big` ends and reaches into its height, its bottom
    above `big`'s (raised) or its top below (lowered)."""
    h = big.height
    if small.x0 < big.x1 - 0.1 * big.size or not (big.top < small.bottom and small.top < big.bottom):
        return ""
    if small.size > SMALL * big.size and (small.height > 0.75 * h or len(small.text) > 3):
        return ""
    if small.bottom < big.bottom - 0.25 * h and small.bottom > big.top + 0.1 * h:
        return "^"
    lowered = big.top + 0.25 * h < small.top < big.bottom - 0.1 * h and small.bottom > big.bottom + 0.1 * h
    return "_" if lowered else ""


def _beside(small: Line, row: list[Line]) -> Line | None:
    """The piece of `row` a mark is set after (a word space and a bit away or less), if any."""
    near = [ln for ln in row if small.x0 - ln.x1 < MARK_GAP * ln.size]
    return next((ln for ln in near if _place(small, ln)), None)


def with_marks(rows: list[list[Line]]) -> list[list[Line]]:
    """Rows of only marks set beside a piece of the row below (or above) are that row's (a mark set
    higher than its row's tops starts a row of its own)."""
    out: list[list[Line]] = []
    for i, row in enumerate(rows):
        homes = (rows[i + 1] if i + 1 < len(rows) else None, out[-1] if out else None)
        home = next((r for r in homes if r and all(_beside(ln, r) is not None for ln in row)), None)
        if home is not None:
            home.extend(row)
            home.sort(key=lambda ln: ln.x0)
            continue
        out.append(row)
    return out


_ENDS_MARKED = re.compile(r"[\^_][^\W_]+$")


def _joined(a: Line, b: Line, size: float) -> Line:
    """Two pieces of one cell as one line; a raised or lowered piece written as a mark."""
    place = "" if b.text.startswith(("^", "_")) else _place(b, a)
    leading = not place and a.height < SMALL * b.height and a.bottom < b.bottom - 0.25 * b.height
    sep = place or ("" if b.x0 - a.x1 < 0.12 * size and not leading else " ")  # a mark before a value: apart
    return dataclasses.replace(a, x1=max(a.x1, b.x1), top=min(a.top, b.top), bottom=max(a.bottom, b.bottom),
                               text=a.text + sep + b.text, size=max(a.size, b.size))


def mend_pieces(rows: list[list[Line]]) -> list[list[Line]]:
    """Each row with its pieces closer than `PIECE_GAP` em joined into one line (after a mark, a word
    space and the mark's own spacing: `MARK_GAP`)."""
    out = []
    for row in with_marks(rows):
        size = max(ln.size for ln in row)
        mended = [row[0]]
        for ln in row[1:]:
            last = mended[-1]
            marked = _ENDS_MARKED.search(last.text) is not None or bool(_place(ln, last))
            if ln.x0 - last.x1 < (MARK_GAP if marked else PIECE_GAP) * size:
                mended[-1] = _joined(last, ln, size)
            else:
                mended.append(ln)
        out.append(mended)
    return out


def _columns(lines: list[Line]) -> list[list[Line]]:
    """Lines grouped by column: each line joins the group it overlaps in x (the first found)."""
    groups: list[list[Line]] = []
    spans: list[list[float]] = []
    for ln in sorted(lines, key=lambda ln: ln.top):
        k = next((k for k, (x0, x1) in enumerate(spans) if min(x1, ln.x1) > max(x0, ln.x0)), None)
        if k is None:
            groups.append([ln])
            spans.append([ln.x0, ln.x1])
        else:
            groups[k].append(ln)
            spans[k] = [min(spans[k][0], ln.x0), max(spans[k][1], ln.x1)]
    return groups


def line_pitch(rows: list[list[Line]], baseline: Callable[[Line], float]) -> float:
    """The smallest step from a line to the next line below it in its column (a cell's wrapped lines)."""
    lines = sorted((ln for r in rows for ln in r), key=baseline)
    steps = []
    for i, a in enumerate(lines):
        below = next((b for b in lines[i + 1:] if min(a.x1, b.x1) > max(a.x0, b.x0) and
                      baseline(b) - baseline(a) > 0.6 * a.height), None)
        if below is not None:
            steps.append(baseline(below) - baseline(a))
    return min(steps) if steps else 0.0


def logical_rows(rows: list[list[Line]], starts: set[int], baseline: Callable[[Line], float],
                 number: re.Pattern, pitch: float) -> dict[int, int]:
    """Rows (by index) that belong to the band starting at an earlier row: {row: band's first row}.
    `starts`: rows a rule sets apart from the row above (a new band whatever the step)."""
    if not pitch:
        return {}
    bands: list[list[int]] = []
    for i, row in enumerate(rows):
        step = min(baseline(ln) for ln in row) - max(baseline(ln) for ln in rows[i - 1]) if i else 0.0
        if not bands or i in starts or step > BAND_SLACK * pitch:
            bands.append([i])
        else:
            bands[-1].append(i)
    if len(bands) < 2:
        return {}
    out: dict[int, int] = {}
    for band in bands:
        if 1 < len(band) <= len(rows) / 2 and _one_row(rows, band, lambda ln: _value(ln, number)):
            out.update({i: band[0] for i in band[1:]})
    return out


def _value(ln: Line, number: re.Pattern) -> bool:
    """A line opening with a number ("26/25", "6 hrs", "0.75 (0.63–0.88)", a row pdfium read as one line),
    not a phrase holding one ("CVP 8–12 mm Hg")."""
    words = ln.text.split()
    return bool(words) and number.match(words[0]) is not None


def _one_row(rows: list[list[Line]], band: list[int], numeric: Callable[[Line], bool]) -> bool:
    lines = [ln for i in band for ln in rows[i]]
    columns = _columns(lines)
    values = [sum(1 for ln in col if numeric(ln)) for col in columns]
    if len(columns) < 2 or max(values) != 1:
        return False
    if not any(numeric(ln) for i in band[:-1] for ln in rows[i]):
        return False  # values only beside its last line: a group head over the row under it ("Pilot trial")
    if not any(len(col) > 1 for col in columns):
        return False
    return sum(1 for i in band if len(rows[i]) >= len(columns)) <= 1
