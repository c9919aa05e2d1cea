"""Where page 1's author block lies: under the title, above the abstract, as wide as its own cells.

Publishers' classes set several authors side by side, each name over its own affiliation and
e-mail lines (IEEE, ACM, Interspeech, Elsevier's frontmatter), often in two rows of cells and
spread wider than a short title.  The block is found from the page's layout, not from the title's
width alone: it starts with the lines under the title that overlap the title's extent, and grows
by the lines that continue one of its rows in the same size (the cells beside) and by the lines
stacked under one of its lines (a cell's affiliation, the next row's cell under it), down to the
line where the block ends (the abstract, the first heading, prose).  A sidebar beside the title
starts above the title's foot and stays out; the body's columns start below the end and stay out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text.lines import Line


def author_block(lines: list[Line], title_lines: list[Line], ends: Callable[[Line], bool]) -> list[Line]:
    """The lines of the author block under `title_lines`, top to bottom (`ends`: the line that
    closes the block, such as "Abstract")."""
    foot = max(ln.bottom for ln in title_lines)
    left, right = min(ln.x0 for ln in title_lines), max(ln.x1 for ln in title_lines)
    below = sorted((ln for ln in lines if ln.top >= foot - 1 and ln not in title_lines), key=lambda ln: ln.top)
    closing = next((ln for ln in below if ln.x1 > left and ln.x0 < right and ends(ln)), None)
    end = closing.top if closing else float("inf")
    region = [ln for ln in below if ln.top < end]
    beyond = [ln for ln in below if ln.top >= end]
    # a sidebar's labelled fields beside the block ("Editor: …", "Reviewed by:" and the names under it) join no cell
    outside = [ln for ln in region if not (ln.x1 > left and ln.x0 < right) and not _column_goes_on(ln, beyond)
               and not _left_of_edge(ln, title_lines, region)]
    inside = [ln for ln in region if ln.x1 > left and ln.x0 < right]
    fields = _fields(outside) | _earlier_column(outside, inside)
    block = _grown(inside, [ln for ln in outside if id(ln) not in fields], _beside, _under)
    side = _side_column(below, block, closing, ends, (left, right)) if closing else []
    if side:
        return block + side
    return block + ([closing] if closing else [])  # the closing line, so the reader stops


def _earlier_column(outside: list[Line], inside: list[Line]) -> set[int]:
    """The ids of the lines of a column beside the block that starts above the block's first line (a
    sidebar of a journal's details, "Edited by" over a name, begun beside the title): the lines that
    open higher and those stacked under them.  A cell of the block's rows starts on its first row."""
    if not inside:
        return set()
    first = min(inside, key=lambda ln: ln.top)
    early = [ln for ln in outside if ln.top < first.top - 0.5 * first.height]
    if not early:
        return set()
    return {id(ln) for ln in _grown(list(early), [ln for ln in outside if ln not in early], _under)}


def _left_of_edge(ln: Line, title_lines: list[Line], region: list[Line]) -> bool:
    """A line wholly left of the edge the title and the first line under it share (both set flush left
    at one x): a column of its own left of the text's column (a logo's words, a sidebar), never a cell
    of the names.  A block centred under a centred title has no such edge and keeps its cells."""
    edge = min(t.x0 for t in title_lines)
    first = min((o for o in region if o.x1 > edge and o.x0 < max(t.x1 for t in title_lines)),
                key=lambda o: o.top, default=None)
    flush = all(abs(t.x0 - edge) < 2 for t in title_lines) and first is not None and abs(first.x0 - edge) < 2
    # a piece of a row that goes on to the left (a centred byline cut at its marks) is set flush with nothing
    flush = flush and first is not None and not any(
        o is not first and min(o.bottom, first.bottom) - max(o.top, first.top) > 0.5 * min(o.height, first.height)
        and 0 <= first.x0 - o.x1 < first.size for o in region)
    return flush and ln.x1 < edge - 2


def _column_goes_on(ln: Line, beyond: list[Line]) -> bool:
    """A line of a column of text that goes on past the block's end, edge for edge (a title set over
    the left column, the right column's text beside its author line): body text, no cell of names."""
    return sum(abs(o.x0 - ln.x0) < 1.5 and abs(o.x1 - ln.x1) < 1.5 for o in beyond) >= 2


def _grown(block: list[Line], rest: list[Line], *joins: Callable[[Line, Line], bool]) -> list[Line]:
    """`block` with the lines of `rest` joined to it, or to a line joined before, by one of `joins`."""
    queue = list(block)
    while queue and rest:
        b = queue.pop()
        joined = [ln for ln in rest if any(join(ln, b) for join in joins)]
        rest = [ln for ln in rest if ln not in joined]
        block += joined
        queue += joined
    return block


# A labelled field of a journal's front-page sidebar ("Citation:", "Editor:", "Received:"): the names
# after it are the paper's editors and reviewers, never its authors.
_LABELLED = re.compile(r"^[*∗†]?[A-Z][A-Za-z ]{2,30}:")


def _fields(lines: list[Line]) -> set[int]:
    """The ids of a sidebar's labelled fields among `lines`: each line that opens with a label, and
    the lines stacked right under a label that ends its line ("Reviewed by:" over "Maria Ek,", "Uppsala
    University"), down to the first gap of a line's room."""
    out: set[int] = set()
    ordered = sorted(lines, key=lambda ln: ln.top)
    for k, ln in enumerate(ordered):
        if not _LABELLED.match(ln.text):
            continue
        out.add(id(ln))
        last = ln
        for nxt in ordered[k + 1:] if ln.text.rstrip().endswith(":") else []:
            if abs(nxt.x0 - ln.x0) > 3 or _LABELLED.match(nxt.text):
                continue
            if nxt.top - last.bottom > 0.8 * last.height:
                break
            out.add(id(nxt))
            last = nxt
    return out


def _side_column(below: list[Line], block: list[Line], closing: Line, ends: Callable[[Line], bool],
                 span: tuple[float, float]) -> list[Line]:
    """The author block's lines beside the abstract: a column of names (and their affiliations) set
    left or right of the abstract, which starts above the abstract's first line, or on its row
    under the title (CHI's cells of names beside the abstract), and runs on beside it.  It goes on
    from those lines clear of the abstract's span, by the lines stacked under them or set beside
    them in their size (the next cell), clear of that span too, down to a line that ends it in turn
    or a sidebar's labelled field."""
    def clear(ln: Line) -> bool:
        return ln.x1 < closing.x0 - 2 or ln.x0 > closing.x1 + 2

    beside = [ln for ln in below if ln.top >= closing.top and clear(ln)]
    stop = next((ln.top for ln in beside if ends(ln) or _LABELLED.match(ln.text)), float("inf"))
    beside = [ln for ln in beside if ln.top < stop]
    on_row = [ln for ln in beside
              if ln.top < closing.top + 0.5 * closing.height and ln.x1 > span[0] and ln.x0 < span[1]]
    seeds = [ln for ln in block if clear(ln)] + on_row
    rest = [ln for ln in beside if ln not in on_row]
    return _grown(list(seeds), rest, _under, _beside)[len(seeds) - len(on_row):] if seeds else []


def _beside(ln: Line, other: Line) -> bool:
    """On the same row and in the same size: the next cell of a row of names or affiliations."""
    overlap = min(ln.bottom, other.bottom) - max(ln.top, other.top)
    return overlap > 0.5 * min(ln.height, other.height) and abs(ln.size - other.size) <= 0.6


def _under(ln: Line, other: Line) -> bool:
    """Stacked under (or over) the other line, sharing its horizontal span, with at most about
    two lines' room between them: a cell's next line, or the cell of the next row."""
    shares = min(ln.x1, other.x1) - max(ln.x0, other.x0) > 0
    gap = max(ln.top - other.bottom, other.top - ln.bottom)
    return shares and gap < 2.5 * max(ln.height, other.height)
