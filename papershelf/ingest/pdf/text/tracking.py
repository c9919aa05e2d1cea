"""Letter-spaced (tracked) text read as words: "A B S T R A C T" -> "ABSTRACT".

Headings set in spaced capitals (classicthesis, many journals' "a b s t r a c t" and
"a r t i c l e  i n f o"), spaced CJK titles ("华 中 科 技 大 学") and cover pages put extra
space between every two letters.  pdfium then writes a space between every two letters, so the
heading reads as a row of one-letter words, a search for "abstract" does not find it, and a
heading rule cannot recognise it.

The page's own geometry tells the two kinds of gap apart: in tracked text the gap between two
letters of one word is the tracking, the same all along the run, and a gap between words is
the tracking plus a word space, clearly wider.  So in a run of (mostly) one-letter tokens the
spaces whose gap is close to the run's smallest gaps are dropped and the wider ones kept.  A run
is only taken for tracked text when its gaps are small next to the letters (table cells and
labels of one letter each stand further apart) and it has at least five tokens, so ordinary
text ("a b" in an equation, "I am") is left alone.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable

from ....index_text import has_cjk

# Five or more tokens of one or two letters (a kerned pair, "FA", stays one token) set apart by
# single spaces, at least four of them one letter long (checked below).
_RUN = re.compile(r"(?<!\S)(?:[^\W\d_]{1,2} ){4,}[^\W\d_]{1,2}(?!\S)")

Box = tuple[float, float, float, float]


def untracked(text: str, box_at: Callable[[int], Box | None], gone: str) -> str:
    """`text` with the spaces inside tracked words replaced by `gone` (same length, so the
    positions the caller keeps stay right).  `box_at(i)` is the box of the character at index i
    of `text` (left, top, right, bottom), or None when pdfium has none."""
    if " " not in text or not _RUN.search(text):
        return text
    chars = list(text)
    for m in _RUN.finditer(text):
        tokens = m.group().split(" ")
        if sum(len(t) == 1 for t in tokens) < 4:
            continue
        for i in _joins(m.start(), tokens, box_at, has_cjk(m.group())):
            chars[i] = gone
    return "".join(chars)


def _joins(start: int, tokens: list[str], box_at: Callable[[int], Box | None], cjk: bool) -> list[int]:
    """Indices of the run's spaces that lie inside a word: their gap is near the tracking."""
    spaces, gaps, heights = [], [], []
    i = start
    for token in tokens[:-1]:
        i += len(token)
        before, after = box_at(i - 1), box_at(i + 1)
        if before is None or after is None:
            return []
        spaces.append(i)
        gaps.append(after[0] - before[2])
        heights.append(before[3] - before[1])
        i += 1
    height = statistics.median(heights)  # a drop capital or a symbol in the run does not set the scale
    if height <= 0:
        return []
    tracking = statistics.median(sorted(gaps)[:max(1, len(gaps) // 2)])
    # Tracking is a fraction of the letters' height; wider "gaps" are cells or labels apart.
    if tracking < 0 or tracking > (1.2 if cjk else 0.6) * height:
        return []
    word_space = tracking + max(0.25 * height, 0.6 * tracking)
    return [s for s, g in zip(spaces, gaps) if g < word_space]
