"""Frames a page draws around a few lines of its text (an algorithm's box, a figure set as framed
text) with four rules, and the lines they hold.

A bold label inside such a frame ("Algorithm: Stacked Autoencoder", "Results:") heads the frame's
content, not a section of the paper.  A frame around the page or a column holds most of its lines
and height; a heading's own bar holds under three lines; an abstract set in a panel opens with its
name: none of these is such a frame.  Sidebars of prose are set apart before (boxes.py).
"""

from __future__ import annotations

from ....union_find import UnionFind
from ..objects.graphics import Box
from ..text.lines import Line

_THIN = 2.0  # points: a rule's thickness
_TOUCH = 2.0  # points two rules' ends may lie apart and still meet
_MOST_RULES = 300  # a chart's strokes: no frame is looked for among so many


def _rules(graphics: list[Box]) -> list[Box]:
    return [g for g in graphics if min(g[2] - g[0], g[3] - g[1]) < _THIN and max(g[2] - g[0], g[3] - g[1]) >= 2]


def _groups(rules: list[Box]) -> list[list[Box]]:
    """Rules that meet, end to end or crossing, in groups (union-find)."""
    sets: UnionFind[int] = UnionFind()
    for i, a in enumerate(rules):
        for j in range(i):
            b = rules[j]
            if a[0] <= b[2] + _TOUCH and b[0] <= a[2] + _TOUCH and a[1] <= b[3] + _TOUCH and b[1] <= a[3] + _TOUCH:
                sets.union(i, j)
    out: dict[int, list[Box]] = {}
    for i, r in enumerate(rules):
        out.setdefault(sets.find(i), []).append(r)
    return list(out.values())


def _covered(spans: list[tuple[float, float]], lo: float, hi: float) -> bool:
    """Do the spans cover at least 90 % of lo..hi?"""
    got, end = 0.0, lo
    for a, b in sorted(spans):
        a, b = max(a, end), min(b, hi)
        if b > a:
            got, end = got + b - a, b
    return got >= 0.9 * (hi - lo)


def _closed(group: list[Box]) -> Box | None:
    """The rectangle four sides of rules close, or None."""
    x0, y0 = min(g[0] for g in group), min(g[1] for g in group)
    x1, y1 = max(g[2] for g in group), max(g[3] for g in group)
    if x1 - x0 < 60 or y1 - y0 < 20:
        return None
    def side(at: float, horizontal: bool) -> bool:
        k, lo, hi = (1, 0, 2) if horizontal else (0, 1, 3)
        spans = [(g[lo], g[hi]) for g in group if abs(g[k] - at) <= _TOUCH and (g[3] - g[1] < _THIN) == horizontal]
        return _covered(spans, x0 if horizontal else y0, x1 if horizontal else y1)
    ok = side(y0, True) and side(y1, True) and side(x0, False) and side(x1, False)
    return (x0, y0, x1, y1) if ok else None


def drawn_frames(graphics: list[Box]) -> list[Box]:
    """The rectangles the page's rules close.  (Not its filled boxes: a scan's image strips, a
    photograph or a shaded heading bar are boxes too, and hold text without framing it.)"""
    rules = _rules(graphics)
    if len(rules) > _MOST_RULES:
        return []
    return [f for f in (_closed(g) for g in _groups(rules)) if f is not None]


def framed_lines(lines: list[Line], graphics: list[Box]) -> set[int]:
    """Ids of the lines a frame holds among a few others of the page's flow (see the module's docstring)."""
    if not lines:
        return set()
    height = max(ln.bottom for ln in lines) - min(ln.top for ln in lines)
    out: set[int] = set()
    for b in drawn_frames(graphics):
        if b[3] - b[1] > 0.6 * height:
            continue
        held = sorted((ln for ln in lines if _inside(ln, b)), key=lambda ln: (ln.top, ln.x0))
        if 3 <= len(held) <= 0.4 * len(lines) and not held[0].text.strip().lower().startswith(("abstract", "summary")):
            out.update(id(ln) for ln in held)
    return out


def _inside(ln: Line, b: Box) -> bool:
    return ln.x0 >= b[0] - _TOUCH and ln.x1 <= b[2] + _TOUCH and ln.top >= b[1] - _TOUCH and ln.bottom <= b[3] + _TOUCH
