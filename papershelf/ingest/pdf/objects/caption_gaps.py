"""Captions printed in the paper's own no-separator style whose text opens in lower case.

A caption may follow its label with a space alone ("Figure 4 Code coverage for tr.c", Springer's "Fig. 2
Map of the sites"); `parse_caption` then wants a capital after the label, since "Figure 8 shows …" is a
sentence.  A caption whose text opens with a lower-case word ("Figure 8 struct definition for stack
element", "Table 2 mRNA levels …") was lost.  The paper's own structure decides: when at least two of its
captions of that label word are set in that style, a short paragraph (or a line read as a heading) opening
with the same label word and a number the paper captions nowhere else (a thesis's list of figures names it
too: both are marked, units keep the printed one), and ending as those captions end, is a caption too
(`Block.object_label`).  A long paragraph opening with a label is running text.
"""

from __future__ import annotations

import re
from collections import Counter

from ....document import Block
from ...captions import CAPTION_RE, parse_caption
from ..text.lines import Line

_LOOSE = re.compile(r"^\s*(?P<kind>[A-Z][A-Za-z]{1,11}\.?)\s*(?P<num>\d+(?:\.\d+)?)\s+(?P<first>\S)")
_SHORT = 200  # characters: a caption of a phrase or two, not a paragraph of running text
_STYLE = 2  # captions in the no-separator style that make it the paper's


def lower_case_captions(blocks: list[Block]) -> None:
    """Mark each block that is a caption in the paper's no-separator style opening in lower case."""
    styled: Counter[str] = Counter()
    stops: Counter[str] = Counter()
    labels: set[str] = set()
    for b in blocks:
        if b.kind not in ("text", "heading") or (cap := parse_caption(b.text)) is None:
            continue
        labels.add(cap.label)
        m = CAPTION_RE.match(b.text)
        if m and m.group("kind") and not m.group("sep").strip() and m.end() < len(b.text.split("\n", 1)[0]):
            styled[m.group("kind")] += 1
            stops[m.group("kind")] += b.text.rstrip().endswith(".")
    if not styled:
        return
    for b in blocks:
        m = _LOOSE.match(b.text) if b.kind in ("text", "heading") and len(b.text) <= _SHORT else None
        if m is None or styled[m.group("kind")] < _STYLE or not m.group("first").islower() or parse_caption(b.text):
            continue
        if b.text.rstrip().endswith(".") and 2 * stops[m.group("kind")] < styled[m.group("kind")]:
            continue  # the paper's captions in this style end without a period: this is a sentence
        label = parse_caption(f"{m.group('kind')} {m.group('num')}.")  # the label as the paper's others read
        if label is None or label.label in labels:
            continue
        b.kind, b.level, b.object_kind, b.object_label = "caption", 0, label.object_kind, label.label


def caption_wraps(para: list[Line], ln: Line, right: float, cited: set[int]) -> bool:
    """Does a caption's first line wrap into `ln`?  The paragraph so far is one printed line opening with a
    caption's label (not a label cited mid-sentence) that fills its column to `right`, ends in a hyphen, or
    ends where `ln` ends (a side caption's narrower measure, beside the body's column): a line that stops
    short is a whole caption.  `ln` is set right under it at a line's pitch, from the caption's left edge
    (not indented as a paragraph opens), in its size or up to 1.6 points smaller (the label's size set the
    first line's: "Figure 8:" over 8-point text), and opens no caption of its own.  The first line read as a
    heading (a bold label) or a size step would otherwise cut the caption after its first line."""
    if len(para) != 1 or id(first := para[0]) in cited or not CAPTION_RE.match(first.text) or CAPTION_RE.match(ln.text):
        return False
    size = max(first.size, 1.0)
    if first.bottom - first.top > 2 * size or abs(ln.x0 - first.x0) > 0.6 * size:
        return False  # a caption its region read already, joined into one line; or `ln` indented, a paragraph's start
    full = first.x1 >= right - 2.5 * size or first.text.endswith(("-", "\x02")) or abs(ln.x1 - first.x1) < size
    pitch = ln.bottom - first.bottom
    return full and 0 < pitch <= 1.45 * max(size, ln.size) and -0.6 <= first.size - ln.size <= 1.6
