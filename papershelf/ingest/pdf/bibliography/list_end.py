"""Where a reference list ends, and which lines inside it are not its own, told by the list's own layout.

What a paper prints after its list (a received date, an accession line, an editor's line, the authors'
biographies) is no entry, whatever words it opens with.  The list shows where it ends: its entries open
alike (a label counting up, a surname and initials), and what follows the last one that opens so starts
after a gap wider than the list leaves between its entries, or is set in another size.  A figure and
its caption that a list runs around (at the top of the column it goes on in) hold none of its lines.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from ..text.lines import Line

Objects = list[tuple[int, tuple[float, float, float, float]]] | tuple[()]  # (page, box) of figures, tables, captions

MIN_OPENINGS = 5  # entries the list must open alike before its end is judged by them
WIDER_GAP = 1.3  # a step down this much wider than the list's steps before an entry starts ends the list
OTHER_SIZE = 0.1  # a size this much off the list's own sets the text apart


def without_back_matter(runs: list[list[Line]], openings: Callable[[list[str]], list[bool]]) -> list[list[Line]]:
    """The runs cut before what follows the list: after the last line that opens an entry, the first
    line that starts a block of its own (a wider gap above it than any entry has, or a size other than the
    list's from there on) and opens no entry ends the list.  A block so set apart at the foot of a column
    the list goes on after (a date or accession line under the column) is dropped alone.  `openings`:
    which of the lines open an entry."""
    lines = [ln for run in runs for ln in run]
    flags = openings([ln.text for ln in lines])
    if sum(flags) < MIN_OPENINGS:
        return runs
    last = max(i for i, f in enumerate(flags) if f)
    starts = {id(run[0]) for run in runs}
    size = statistics.median(ln.size for ln in lines[:last + 1])
    steps = {i: s for i in range(1, last + 1) if id(lines[i]) not in starts and (s := _step(lines, i)) is not None}
    if len(steps) < 2:
        return runs
    pitch = max(statistics.quantiles(steps.values(), n=4)[0], size)
    gaps = [i for i, s in steps.items() if s > 1.15 * pitch]  # the gaps the list leaves, between its entries
    usual = statistics.median(steps[i] for i in gaps) if len(gaps) >= 3 else pitch
    # a list whose entries mostly open otherwise than the openings read here (names written out) is not judged
    judged = len(gaps) < 3 or sum(flags[i] for i in gaps) >= 0.5 * len(gaps)

    def apart(i: int) -> bool:
        step = _step(lines, i) if id(lines[i]) not in starts else None
        return judged and step is not None and step > WIDER_GAP * max(usual, pitch)

    # the list's sizes: its lines', and its lines' inside an entry (a scan's label, read larger, sets its line's)
    sizes = {size, statistics.median([ln.size for ln, f in zip(lines[:last + 1], flags, strict=False) if not f]
                                     or [size])}

    def off(ln: Line) -> bool:
        return all(abs(ln.size - s) > OTHER_SIZE * s for s in sizes)

    def other(i: int) -> bool:
        return all(off(ln) for ln in lines[i:i + 2]) and not off(lines[i - 1])

    at_edge = _edge_after(runs, flags, last)
    cut = next((i for i in range(last + 1, len(lines)) if apart(i) or other(i) or i == at_edge), len(lines))
    out: list[list[Line]] = []
    at = 0
    for run in runs:
        end = min(len(run), cut - at)
        if at + len(run) <= last:  # a column the list goes on after: its foot set apart goes
            foot = next((k for k in range(1, len(run)) if apart(at + k) and not any(flags[at + k:at + len(run)])),
                        None)
            end = foot if foot is not None else end
        if end > 0:
            out.append(run[:end])
        at += len(run)
        if at >= cut:
            break
    return out


INDENTED = 0.95  # of a list's lines inside an entry that stand right of its openings' edge, for `_edge_after`


def _edge_after(runs: list[list[Line]], flags: list[bool], last: int) -> int | None:
    """The first line after the list's last opening (`last`) that starts at the edge its entries open at with
    no opening, in a list whose lines inside an entry all stand right of that edge (a label's gutter, a
    hanging indent): a statement set straight after the list, in its size and pitch.  None otherwise."""
    at, inside, indented, first = 0, 0, 0, None
    for run in runs:
        edges = sorted(ln.x0 for ln, f in zip(run, flags[at:at + len(run)], strict=False) if f)
        if edges:
            edge = edges[len(edges) // 2]
            for k, ln in enumerate(run):
                i, depth = at + k, ln.x0 - edge
                if flags[i] or (i < last and not ln.text.strip()):
                    continue
                if i < last:
                    inside += 1
                    indented += depth > 0.4 * max(ln.size, 1.0)
                elif first is None and abs(depth) <= 0.4 * max(ln.size, 1.0):
                    first = i
        at += len(run)
    return first if inside >= MIN_OPENINGS and indented >= INDENTED * inside else None


def _step(lines: list[Line], i: int) -> float | None:
    """How far line `i` stands below the line before it (None at another page or above it)."""
    a, b = lines[i - 1], lines[i]
    return b.bottom - a.bottom if a.page == b.page and b.bottom > a.bottom else None


def outside_objects(runs: list[list[Line]], objects: Objects, opens: Callable[[str], bool]) -> list[list[Line]]:
    """The runs without the lines that stand inside a figure's or table's region or its caption, when
    none of those opens an entry."""
    if not objects:
        return runs

    lines = [ln for run in runs for ln in run]
    held = [[ln for ln in lines if _inside(ln, page, box)] for page, box in objects]
    # a region grown over the list (its entries' labels or names inside it) holds none of the list's lines
    out = {id(ln) for group in held if group and not any(opens(ln.text) for ln in group) for ln in group}
    kept = [[ln for ln in run if id(ln) not in out] for run in runs]
    return [run for run in kept if run]


def _inside(ln: Line, page: int, box: tuple[float, float, float, float]) -> bool:
    x0, top, x1, bottom = box
    return page == ln.page and x0 <= (ln.x0 + ln.x1) / 2 <= x1 and top <= (ln.top + ln.bottom) / 2 <= bottom
