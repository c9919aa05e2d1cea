"""A journal's name set larger than the title above it, in words `meta.VENUE_NAME` does not know
("Current Opinion in Plant Biology", "Frontiers in Plant Science"): the size tiers
(`title_tiers.title_size`) would take it for the title, being the largest text of four words or more.
What tells it from a title is where the page sets it, not its words: a single line heading the page
(nothing of the body's size above it), set apart from the
text under it (other text between, an issue line, or more than a line and a half of room), and the
block of title-sized text under it is longer, reads as no names, and has the byline right under it,
as a title has.  A title set largest is followed by its byline or its own subtitle at its line pitch,
so it is none of this.  Where the byline under the lower block is not read as names, the evidence is
thin and the largest line stays the title (front18)."""

from __future__ import annotations

from ..text.lines import Line
from .authors import line_names, names_alone


def _block_under(mast: Line, top_half: list[Line], body: float) -> list[Line]:
    """The first block of larger-than-body text under the masthead line, smaller than it: its lines
    in one size, one to a row, each within a line and a half of the one above."""
    under = sorted((ln for ln in top_half if ln.top > mast.bottom - 0.2 * mast.size), key=lambda ln: ln.top)
    start = next((ln for ln in under if body + 1.5 <= ln.size <= mast.size - 0.5), None)
    if start is None:
        return []
    block = [start]
    for ln in under[under.index(start) + 1:]:
        if ln.top - block[-1].top < 0.5 * ln.size:  # a second line on the row: no title's block
            return []
        if abs(ln.size - start.size) >= 0.5 or ln.top - block[-1].bottom > 1.5 * ln.size:
            break
        block.append(ln)
    return block


def is_masthead(tier: list[Line], top_half: list[Line], body: float) -> bool:
    """The tier's text is a journal's name set over the title (module docstring)."""
    if len(tier) != 1:
        return False
    mast = tier[0]
    words = len(mast.text.split())
    if not 4 <= words <= 8:  # its words may read as names ("Plant Physiology and Biochemistry"): where it is set tells
        return False
    if any(ln.bottom <= mast.top and ln.size >= body - 0.5 for ln in top_half):
        return False  # a masthead heads the page: text of the body's size or larger above it is no header
    block = _block_under(mast, top_half, body)
    if not block or sum(len(ln.text.split()) for ln in block) <= words \
            or names_alone(" ".join(ln.text for ln in block)):
        return False
    first, last = block[0], block[-1]
    between = [ln for ln in top_half if mast.bottom <= ln.top and ln.bottom <= first.top]
    if not between and first.top - mast.bottom <= 1.5 * first.size:
        return False  # at a line's room: the title's own subtitle or second line
    byline = min((ln for ln in top_half if ln.top > last.bottom - 0.2 * last.size and ln not in block),
                 key=lambda ln: ln.top, default=None)
    return byline is not None and byline.top - last.bottom <= 3 * last.size and line_names(byline.text) is not None
