"""A title's head set in capitals over its subtitle: "DEEP LEARNING" over "A survey of methods for
sequence data".  The head is a few words, set as large as the subtitle or larger, so the size tiers
(`title_tiers.title_size`) read it as a label over a longer title and the title read is the subtitle
alone.  What tells such a head from a label is how it is set with the subtitle: right above it, within
a line's room, over its span and alone on its row, in capitals while the subtitle reads as a phrase in
small letters, set off from it by its size or weight; and its words are no article type's ("RESEARCH
ARTICLE"), no journal's name, heading or caption.  A label set smaller than the title, a single word
(a masthead's "NATURE", a subject's "NEUROSCIENCE") or set apart by more than a line's room stays a
label: where the evidence is thin the subtitle alone is kept (front17)."""

from __future__ import annotations

import re

from ...captions import CAPTION_RE
from ..sections.heading_style import is_standard
from ..text.lines import Line
from .meta import _SECTION_LINE, ARTICLE_TYPE, VENUE_NAME

_WORD = re.compile(r"[^\W\d_]+")


def _capitals(text: str) -> bool:
    """Two to four words, set in capitals, one of three letters at least."""
    words = _WORD.findall(text)
    return 2 <= len(text.split()) <= 4 and bool(words) and all(w.isupper() for w in words) \
        and any(len(w) >= 3 for w in words)


def _in_small_letters(lines: list[Line]) -> bool:
    """The lines read as a phrase set in small letters: two words in small letters at least."""
    return sum(w.islower() and len(w) >= 2 for ln in lines for w in _WORD.findall(ln.text)) >= 2


def capital_head(title: list[Line], top_half: list[Line]) -> list[Line]:
    """The line right above the title when it is the title's head in capitals over its subtitle
    (module docstring), else nothing."""
    if not title or not _in_small_letters(title):
        return []
    first = title[0]
    left, right = min(t.x0 for t in title), max(t.x1 for t in title)
    above = [ln for ln in top_half if ln not in title and ln.bottom <= first.top + 0.2 * first.size
             and ln.x1 > left and ln.x0 < right]
    if not above:
        return []
    ln = max(above, key=lambda o: o.bottom)
    # set off from the subtitle by its size or weight, as a head is (a line in the title's own size and weight
    # over it is `title._without_label`'s to read)
    contrast = ln.size > first.size + 0.5 or ln.size > first.size - 0.5 and ln.bold != first.bold
    # within a line's room: of the subtitle's size, or of the head's where the subtitle is set much smaller
    if first.top - ln.bottom > max(first.size, 0.9 * ln.size) or not contrast or not _capitals(ln.text) \
            or any(o is not ln and o.top < ln.bottom and o.bottom > ln.top and o.x1 > left and o.x0 < right
                   for o in top_half):  # alone on its row over the title's span (a sidebar beside it is not in it)
        return []
    text = ln.text.strip()
    if all(w in ARTICLE_TYPE for w in text.lower().split()) or VENUE_NAME.search(text) or is_standard(text) \
            or CAPTION_RE.match(text) or _SECTION_LINE.match(text):
        return []
    return [ln]
