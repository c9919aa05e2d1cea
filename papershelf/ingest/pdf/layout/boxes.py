"""Text a page sets inside a drawn box: a journal's sidebar (key points, funding, competing
interests), not a part of the paper's running text.

The evidence is the page's own drawing: a path or shading object framing a few lines of prose.
Read with the page, such a box cuts into the column beside it (its bold "Key points" becomes a
section that swallows the Introduction, its lines interleave with the body's).  Its lines are
set apart, read as paragraphs of their own after the page's text, and never open a section.
A box holding a figure's or a table's region or a caption is that object's frame, not a sidebar;
a box around most of the page's text is a page frame, and so are boxes that between them leave
(almost) no text outside (one frame per column); a box that opens with the Abstract is the
paper's abstract set in a panel, and stays in the flow.
"""

from __future__ import annotations

from ...captions import CAPTION_RE
from ..objects.graphics import Box
from ..text.lines import Line

_PAD = 2.0  # points a line may stick out of its box (glyph boxes are loose)
_FRAMED = 0.15  # boxes leaving less of the page's text outside them frame its columns: a sidebar is beside text


def _inside(ln: Line, b: Box) -> bool:
    return ln.x0 >= b[0] - _PAD and ln.x1 <= b[2] + _PAD and ln.top >= b[1] - _PAD and ln.bottom <= b[3] + _PAD


def _overlaps(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _sidebar(held: list[Line], page_lines: int) -> bool:
    """Lines of prose set flush to one edge (pseudo-code in a frame is indented step by step and
    short), not a frame around the page, a caption's object or the abstract."""
    words = [len(ln.text.split()) for ln in held]
    if len(held) < 2 or sum(words) < 15 or len(held) > 0.6 * page_lines:
        return False
    prose = sum(n >= 5 for n in words)
    edges: dict[int, int] = {}
    for ln in held:
        edges[round(ln.x0 / 3)] = edges.get(round(ln.x0 / 3), 0) + 1
    flush = _flush(edges)
    if prose < 0.6 * len(held) or flush < 0.6 * len(held):
        return False
    first = held[0].text.strip().rstrip(".:").lower()
    if first.startswith(("abstract", "summary", "algorithm")):
        return False
    return not any(CAPTION_RE.match(ln.text) for ln in held)


def _flush(edges: dict[int, int]) -> int:
    """How many lines start at the box's left edge, or at its second column's when it sets its
    prose in two (three lines or more start there): pseudo-code steps in at many indents instead."""
    counts = []
    left = dict(edges)
    for _ in range(2):
        if not left:
            break
        at = max(left, key=lambda e: left[e])
        counts.append(sum(left.pop(at + d, 0) for d in (-1, 0, 1)))
    return counts[0] + (counts[1] if len(counts) > 1 and counts[1] >= 3 else 0)


def _opened_outside(b: Box, lines: list[Line], heading) -> bool:
    """The box is the body of a heading set just above it, outside it (a coloured "ABSTRACT" bar
    over the abstract's panel): that section's text, not a sidebar with a title of its own."""
    above = [ln for ln in lines if b[1] - 3 * ln.size <= ln.bottom <= b[1] + _PAD and ln.x1 > b[0] and ln.x0 < b[2]]
    return bool(above) and heading(max(above, key=lambda ln: ln.bottom))


def set_apart(lines: list[Line], graphics: list[Box], objects: list[Box], keep: list[Line],
              heading) -> tuple[list[Line], list[list[Line]], float | None]:
    """The page's lines outside sidebars, each sidebar's lines (top to bottom), and where the
    columns divide when the boxes are frames around two columns (else None).

    `graphics` are the page's drawn boxes (`pdf_graphics`), `objects` its figure and table regions,
    `keep` lines whose box is no sidebar (the title: a panel around the title block is the paper's
    head), `heading(line)` whether a line could open a section."""
    taken: set[int] = set()
    boxes: list[list[Line]] = []
    for b in sorted(graphics, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1])):  # outermost first
        if b[2] - b[0] < 60 or b[3] - b[1] < 20 or any(_overlaps(b, o) for o in objects) \
                or any(_inside(ln, b) for ln in keep):
            continue
        held = sorted((ln for ln in lines if id(ln) not in taken and _inside(ln, b)), key=lambda ln: (ln.top, ln.x0))
        if _sidebar(held, len(lines)) and not _opened_outside(b, lines, heading):
            taken.update(id(ln) for ln in held)
            boxes.append(held)
    rest = [ln for ln in lines if id(ln) not in taken]
    if not boxes:
        return lines, [], None
    if len(rest) < _FRAMED * len(lines):
        return lines, [], _between(boxes)  # a frame per column (a recreated 1970s journal page): no sidebars
    if any(_mid_sentence(held) for held in boxes):
        boxes = [held for held in boxes if not _mid_sentence(held)]
        taken = {id(ln) for held in boxes for ln in held}
        rest = [ln for ln in lines if id(ln) not in taken]
    return rest, boxes, None


def _mid_sentence(held: list[Line]) -> bool:
    """The box opens mid-sentence (lowercase): the column's running text goes on in it, as where a
    box is drawn round a column's text under a figure; a sidebar starts a text of its own."""
    return held[0].text.strip()[:1].islower()


def _between(boxes: list[list[Line]]) -> float | None:
    """Where two framed columns divide: midway between the left one's right edge and the right
    one's left edge (None for one frame)."""
    if len(boxes) != 2:
        return None
    a, b = sorted(boxes, key=lambda held: min(ln.x0 for ln in held))
    right_of_a, left_of_b = max(ln.x1 for ln in a), min(ln.x0 for ln in b)
    return (right_of_a + left_of_b) / 2 if right_of_a < left_of_b else None
