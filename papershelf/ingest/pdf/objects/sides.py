"""Which side of its caption each figure or table lies on, once every caption's two sides were
walked (`regions.find_candidates`): a caption with evidence on one side only settles first, a
settled caption's object is no other caption's, and the rest follow the paper's own convention.
Kept apart from the walk because it decides between whole candidates, never reading the page."""

from __future__ import annotations

import dataclasses

from ..text.lines import visual_rows
from .graphics import Box
from .regions import Candidate, Region, union


def _usual_side(kind: str, votes: list[bool]) -> bool:
    """Above (True) or below: where this paper's settled captions of the kind have their objects,
    else the common convention (a figure above its caption, a table below its caption)."""
    if votes and votes.count(True) * 2 != len(votes):
        return votes.count(True) * 2 > len(votes)
    return kind == "figure"


def _overlap(a: Box, b: Box) -> float:
    """Intersection area over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1.0, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


def choose_sides(cands: list[Candidate]) -> list[Region]:
    """The side of each caption that holds its object.  A caption with evidence on one side only
    is settled; the object of a settled caption is not another caption's.  What is left follows
    the paper's own convention for that kind (the side its settled captions use), else the usual
    one (a figure above its caption, a table below)."""
    settled = {i: c.above is not None for i, c in enumerate(cands) if (c.above is None) != (c.below is None)}
    for i, c in enumerate(cands):
        if i in settled or c.above is None or c.below is None:
            continue
        for up in (True, False):
            mine = c.side(up)[0]  # type: ignore[index]
            taken = any(j != i and cands[j].region.page == c.region.page  # never its own other side
                        and _overlap(mine, cands[j].side(s)[0]) > 0.5  # type: ignore[index]
                        and not _facing(c, up, cands[j], s) for j, s in settled.items())
            if taken:
                settled[i] = not up
                break
    votes: dict[str, list[bool]] = {}
    for i, up in settled.items():
        votes.setdefault(cands[i].region.kind, []).append(up)
    out = []
    for i, c in enumerate(cands):
        usual = _usual_side(c.region.kind, votes.get(c.region.kind, []))
        if c.above is None and c.below is None:
            blank = c.blanks[0] if c.blanks[0] is not None and (usual or c.blanks[1] is None) else c.blanks[1]
            if blank is not None:
                c.region.box = blank[0]
                out.append(c.region)
            continue
        got = settled.get(i)
        if got is not None:
            up = got
        else:
            ea, eb = c.above[2], c.below[2]  # type: ignore[index]
            ra, rb = c.above[3], c.below[3]  # type: ignore[index]
            if ea >= 3 * eb or eb >= 3 * ea:
                up = ea > eb
            elif c.region.kind == "table" and ra != rb:
                up = ra  # the page's own evidence: a table is where its rules are, whatever the convention
            else:
                up = usual
        side = c.side(up)
        assert side is not None
        c.region.box, c.region.lines, c.region.parts = side[0], side[1], side[4]
        out.append(c.region)
    _part_stacked(out)
    return out


def _facing(c: Candidate, up: bool, o: Candidate, s: bool) -> bool:
    """Do a table's caption and a figure's face each other across the stretch both walked (the upper
    one's object below it, the lower one's above it), and does that stretch part clearly into rows
    of text and a drawing (`_drawing_starts`)?  Then it holds the two objects stacked, one each
    (`_part_stacked` cuts it), and the settled one has not taken the other's."""
    if up == s or c.region.kind == o.region.kind:
        return False
    upper, lower = (o, c) if up else (c, o)
    if upper.region.caption_box[3] > lower.region.caption_box[1]:
        return False
    below, above = upper.side(False), lower.side(True)
    assert below is not None and above is not None
    a = dataclasses.replace(upper.region, box=below[0], lines=below[1], parts=below[4])
    b = dataclasses.replace(lower.region, box=above[0], lines=above[1], parts=above[4])
    return _drawing_starts(a, b, _gaps(a, b)) is not None


def _part_stacked(regions: list[Region]) -> None:
    """Two objects stacked between their captions (the upper caption's object below it, the lower
    one's above it) with no text between them are each walked into the other: the two share the
    stretch, cut where one ends (`_stack_cut`), each keeping the side toward its own caption."""
    for a in regions:
        for b in regions:
            if a is b or a.page != b.page or not a.parts or not b.parts or _overlap(a.box, b.box) < 0.3:
                continue
            if not (a.caption_box[3] <= a.box[1] + 1 and b.box[3] <= b.caption_box[1] + 1
                    and a.caption_box[3] <= b.caption_box[1]):
                continue  # not a's object below a's caption and b's above b's, a's caption first
            cut = _stack_cut(a, b)
            if cut is None:
                continue
            for r, keep in ((a, lambda p, c=cut: p[3] <= c), (b, lambda p, c=cut: p[1] >= c)):
                r.parts = [p for p in r.parts if keep(p)]
                r.lines = [ln for ln in r.lines if keep((ln.x0, ln.top, ln.x1, ln.bottom))]
                if r.parts:
                    box = r.parts[0]
                    for p in r.parts:
                        box = union(box, p)
                    r.box = box


def _stack_cut(a: Region, b: Region) -> float | None:
    """Where the upper object ends in the stretch between a's caption and b's: the empty gap that
    clearly stands out (at least 1.6 times the next widest), else, for two tables, the gap where the
    rows' cell starts change most (two tables rarely share their columns); None when unclear."""
    gaps = _gaps(a, b)
    if not gaps:
        return None
    widest = sorted(gaps, reverse=True)
    if len(widest) == 1 or widest[0][0] >= 1.6 * widest[1][0]:
        return widest[0][1]
    if a.kind != b.kind:
        return _drawing_starts(a, b, gaps)
    if a.kind != "table":
        return None
    held = {id(ln): ln for ln in a.lines + b.lines}.values()
    rows = visual_rows([ln for ln in held if a.caption_box[3] - 1 <= ln.top and ln.bottom <= b.caption_box[1] + 1])
    best, cut = 0.5, None
    for k in range(2, len(rows) - 1):
        above = {round(ln.x0 / 4) for row in rows[max(0, k - 3):k] for ln in row}
        below = {round(ln.x0 / 4) for row in rows[k:k + 3] for ln in row}
        change = 1 - len(above & below) / len(above | below)
        mid = (max(ln.bottom for ln in rows[k - 1]) + min(ln.top for ln in rows[k])) / 2
        if change > best and any(abs(g[1] - mid) < g[0] / 2 + 1 for g in gaps):
            best, cut = change, mid
    return cut


def _gaps(a: Region, b: Region) -> list[tuple[float, float]]:
    """The empty stretches (height, middle) between the parts of the two objects' shared stretch."""
    spans = sorted((p[1], p[3]) for p in a.parts + b.parts if p[1] >= a.caption_box[3] - 1
                   and p[3] <= b.caption_box[1] + 1)
    gaps, reach = [], None
    for top, bottom in spans:
        if reach is not None and top > reach:
            gaps.append((top - reach, (reach + top) / 2))
        reach = bottom if reach is None else max(reach, bottom)
    return gaps


def _drawing_starts(a: Region, b: Region, gaps: list[tuple[float, float]]) -> float | None:
    """A table and a figure stacked: the figure is drawn (graphics other than rules), the table is
    rows of text between rules, so they part at the gap that clearly stands out on the table's side
    of where the drawing starts (the figure below) or ends (the figure above); None when unclear."""
    texts = {(ln.x0, ln.top, ln.x1, ln.bottom) for ln in a.lines + b.lines}
    drawn = [p for p in a.parts + b.parts if p not in texts and min(p[2] - p[0], p[3] - p[1]) >= 3
             and not _band(p, texts)
             and a.caption_box[3] - 1 <= p[1] and p[3] <= b.caption_box[1] + 1]
    if not drawn:
        return None
    if b.kind == "figure":
        start = min(p[1] for p in drawn)
        side = sorted((g for g in gaps if g[1] < start), reverse=True)
    else:
        end = max(p[3] for p in drawn)
        side = sorted((g for g in gaps if g[1] > end), reverse=True)
    if not side or (len(side) > 1 and side[0][0] < 1.6 * side[1][0]):
        return None  # the table's own rows leave no gap that clearly stands out
    cut = side[0][1]
    rows = visual_rows([ln for ln in a.lines + b.lines if (ln.bottom < cut) == (b.kind == "figure")])
    return cut if len(rows) >= 2 else None  # a label over a chart is no table


def _band(p: tuple, texts: set[tuple]) -> bool:
    """Shading behind rows of text (a table's header or body), not a drawing: the text lines
    inside it fill at least half its height."""
    rows = sorted((t[1], t[3]) for t in texts if p[0] - 1 <= t[0] and t[2] <= p[2] + 1 and p[1] - 1 <= t[1]
                  and t[3] <= p[3] + 1)
    filled, reach = 0.0, p[1]
    for top, bottom in rows:
        filled += max(0.0, bottom - max(top, reach))
        reach = max(reach, bottom)
    return filled >= 0.5 * (p[3] - p[1])
