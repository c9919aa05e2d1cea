"""Object labels cited in a running sentence that a line break left at the start of a line.

A justified paragraph may wrap just before a label: "…is shown in Supplemental / Figure S2. The
numbers of motifs…".  The second line then opens like a caption ("Figure S2." and a capital), and
read as one it would become a figure of its own, with the paragraph's sentences as its caption (and
a table's region would take the paragraph's lines as its cells).  A caption never opens in the middle
of a sentence: the line above a cited label is the same paragraph's, set in the label line's size, at
the paragraph's line pitch, starting at the same left edge and running at least as far right (a
justified line), and it ends on a word that goes on (a lower-case letter or a comma), not a
sentence's end.  A caption's label set apart by weight (`Line.runin`) is never a citation.
"""

from __future__ import annotations

from ...captions import CAPTION_RE
from ..text.lines import Line

_PITCH = 1.6  # font sizes: a paragraph's baseline pitch, well below a gap that sets a caption apart
_PROSE = 30  # characters: the line above is a sentence's, not a chart's label


def _runs_on_into(prev: Line, ln: Line) -> bool:
    """``prev`` is the line of running text right above ``ln``, and its sentence goes on into ``ln``."""
    end = prev.text.rstrip()
    return (abs(prev.size - ln.size) <= 0.3 and 0 < ln.bottom - prev.bottom <= _PITCH * ln.size
            and abs(prev.x0 - ln.x0) <= 0.6 * ln.size and prev.x1 >= ln.x1 - ln.size
            and len(end) >= _PROSE and (end[-1].islower() or end[-1] == ",") and prev.bold == ln.bold)


def cited_label_lines(lines: list[Line]) -> set[int]:
    """The ids of a page's lines that open with an object label cited mid-sentence (no caption)."""
    out: set[int] = set()
    for ln in lines:
        if ln.runin or ln.turn or not CAPTION_RE.match(ln.text):
            continue
        above = [p for p in lines if p is not ln and p.page == ln.page and p.turn == ln.turn
                 and p.bottom < ln.bottom and min(p.x1, ln.x1) - max(p.x0, ln.x0) > 0.5 * (ln.x1 - ln.x0)]
        prev = max(above, key=lambda p: p.bottom, default=None)
        if prev is not None and _runs_on_into(prev, ln):
            out.add(id(ln))
    return out
