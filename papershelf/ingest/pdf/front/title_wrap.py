"""Where a title's lines were broken, read from the lines themselves: a title set as a block is wrapped
line by line, each line filled until the next word would not fit.  So a line under which the next
line's first word would still have fitted was not filled: the next line starts something of its own (a
label's words end there: "Data Note" over "Cohort Cell Levels"), unless the line ends where a title is
broken by hand (a colon, a dash, a word that cannot end a phrase).  And a line that was filled goes on
in the next one, whatever that next line reads like ("… Among" over "Older Adults", a line of words
that read as names) or whatever size it was measured at (an OCR'd title's lines, one of them a little
larger).  Widths of words are taken in proportion to the letters of their line."""

from __future__ import annotations

import re

from ..text.lines import Line

# Words a title's line may end with only where the title runs on ("… in", "… of the", "… and").
_OPEN_END = frozenset("a an the of in on for to with from by and or at as via into under over between among "
                      "de da do del la le et und der die das von zu en y e di".split())


def width(ln: Line) -> float:
    return ln.x1 - ln.x0


def _first_word(ln: Line) -> float:
    """The width the line's first word takes, in proportion to its letters, and a space before it."""
    words = ln.text.split()
    if not words:
        return 0.0
    return width(ln) * (len(words[0]) + 1) / max(1, len(ln.text))


def open_end(ln: Line) -> bool:
    """The line ends where a title runs on: a colon, a dash or a hyphen, a function word."""
    text = ln.text.rstrip()
    last = text.split()[-1].lower() if text.split() else ""
    return text.endswith((":", "-", "–", "—", ",")) or last in _OPEN_END


def filled(upper: Line, lower: Line, measure: float) -> bool:
    """`upper` was filled before the break: `lower`'s first word would not have fitted on it within
    `measure` (the widest line of the block: the column is at least that wide).  A small allowance
    (a twentieth of the measure) keeps a line that nearly held the word filled."""
    return width(upper) + _first_word(lower) > 0.95 * measure


def runs_on(upper: Line, lower: Line, measure: float) -> bool:
    """`lower` goes on from `upper` as the next line of one wrapped text: `upper` was filled, or it
    ends where a title runs on."""
    return filled(upper, lower, measure) or open_end(upper)


def set_apart(label: Line, rest: list[Line]) -> bool:
    """A line of a word or three over `rest` that was not filled and does not run on: the next line's
    first word would have fitted on it, it ends as a phrase ends, and it is clearly the shorter (a
    title broken by hand into two balanced lines is not set apart)."""
    if not rest or len(label.text.split()) > 3 or open_end(label) or re.search(r"\d", label.text):
        return False
    measure = max(width(ln) for ln in [label, *rest])
    return not filled(label, rest[0], measure) and width(label) <= 0.7 * max(width(ln) for ln in rest)
