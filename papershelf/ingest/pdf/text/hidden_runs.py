"""Runs of glyphs set at a line's ends in a size too small to read: no part of the line.

A publisher may hide its name in 2 pt under a title's first word, or glue a typesetter's job slug in
0.5 pt to its last: such a run would give the line its size, or its words.
"""

from __future__ import annotations

from .glyphs import GlyphPage, u16


def hidden_lead(tp: GlyphPage, text: str, lead16: int) -> int:
    """How many of the line's first characters are set under its own text in a far smaller size (a
    publisher's name in 2 pt hidden under a title's first word): they are no part of the line, and
    would give it their size (a line's size is its first glyph's).  0 for any other line."""
    first = tp.char_index(lead16)
    last = tp.char_index(lead16 + u16(text) - 1)
    if first < 0 or last <= first or tp.font_size(first) >= 0.4 * tp.font_size(last):
        return 0
    small = 0.4 * tp.font_size(last)
    run: list[tuple[float, float, float, float]] = []  # the small glyphs' boxes
    for k in range(min(len(text), 120)):
        idx = tp.char_index(lead16 + u16(text[:k]))
        if idx < 0 or text[k].isspace():
            continue
        box = tp.char_box(idx)
        if tp.font_size(idx) < small:
            run.append(box)
            continue
        # under the text: the small run reaches past where the large text starts, on its row, and its
        # glyphs are far shorter than the large one's (a font size alone may be a scaled font's)
        tall = max(b[3] - b[1] for b in run)
        return k if run[-1][2] > box[0] and run[0][1] < box[3] and box[1] < run[0][3] \
            and tall < 0.5 * (box[3] - box[1]) else 0
    return 0


def hidden_tail(tp: GlyphPage, text: str, lead16: int) -> int:
    """Where the line's text ends before a run set in a size far too small to read (under 2 pt) at its end (a
    typesetter's job slug in 0.5 pt glued to a title's last word: "Queenslandaen_759 221..233"): such
    a run is no part of the line.  The whole text's length for any other line."""
    first, last = tp.char_index(lead16), tp.char_index(lead16 + u16(text) - 1)
    if first < 0 or last <= first or tp.font_size(last) >= 0.2 * tp.font_size(first):
        return len(text)
    small = 0.2 * tp.font_size(first)
    # its glyphs are that small on the page too (a scaled font's size alone may say otherwise)
    low = min(2.0, 0.2 * max(_height(tp.char_box(i)) for i in range(first, min(first + 3, last))))  # unreadable
    k = len(text)
    while k > 0:
        idx = tp.char_index(lead16 + u16(text[:k - 1]))
        if not (text[k - 1].isspace() or idx >= 0 and tp.font_size(idx) < small and _height(tp.char_box(idx)) < low):
            break
        k -= 1
    return k if k > 0 and sum(c.isalnum() for c in text[k:]) >= 3 else len(text)


def _height(box: tuple[float, float, float, float]) -> float:
    return box[3] - box[1]
