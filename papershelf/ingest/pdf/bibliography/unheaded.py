"""A reference list printed with no heading: letter journals (APL, PNAS) and short communications
set their numbered notes straight after the text or the acknowledgements.

Such a list shows itself by its labels: at the paper's end, lines open with ``1.`` / ``[1]`` (or a small raised
number on a line of its own) and the
labels count up by one, each entry citing a year.  The list starts at the last line labelled 1 that
opens such a run (a numbered procedure or a "1. Introduction" heading opens no run of cited years).
"""

from __future__ import annotations

import re

from ...references import MAX_LABEL_GAP, entry_label
from ..text.lines import Line

MIN_ENTRIES = 5  # fewer labels than this are a numbered paragraph list as often as notes
_YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b")
_BARE = re.compile(r"^\s*\d{1,4}\s*$")
RAISED = 0.25  # a raised label's baseline stands this many of its entry's sizes above the entry's at least


def unheaded_start(columns: list[list[Line]]) -> Line | None:
    """The first line of a numbered reference list printed without a heading, or None."""
    lines = [ln for column in columns for ln in column]
    if not lines:
        return None
    last_page = max(ln.page for ln in lines)
    tail = [ln for ln in lines if ln.page >= last_page - 2]  # notes end a letter: its last three pages
    labels = [_label(ln, nxt) for ln, nxt in zip(tail, [*tail[1:], None], strict=True)]
    for i in range(len(tail) - 1, -1, -1):
        if labels[i] == 1 and _counts_up(tail[i:], labels[i:]):
            return tail[i]
    return None


def _label(line: Line, after: Line | None) -> int | None:
    """The line's label: a printed one, or a bare number alone on its line raised beside the start of the
    line after it (a letter journal's raised label, which the line builder sets apart)."""
    label = entry_label(line.text)
    if label is None and after is not None and _BARE.match(line.text) and line.page == after.page:
        size = max(after.size, 1.0)
        raised = after.bottom - 1.2 * size < line.bottom < after.bottom - RAISED * size
        if raised and line.x1 <= after.x0 + size:
            return int(line.text)
    return label


def _counts_up(lines: list[Line], labels: list[int | None]) -> bool:
    """Labels 1, 2, 3, … open lines from here on, MIN_ENTRIES of them at least, and the text between
    one label and the next cites a year in nine entries of ten.  A label or a few the page lost (a scan's
    specks read "3." as "Ww") do not end the run: the count goes on from the next label, when the one
    after it is printed too (the labels' own sequence, as `split_numbered` reads it)."""
    expect, with_year, text, entries = 1, 0, "", 0
    for ln, label, following in zip(lines, labels, _next_labels(labels), strict=True):
        if label is not None and (label == expect or (entries and _resumes(label, expect, following))):
            with_year += bool(_YEAR.search(text)) if entries else 0
            expect, text, entries = label + 1, "", entries + 1
        text += " " + ln.text
    with_year += bool(_YEAR.search(text))
    return entries >= MIN_ENTRIES and with_year >= 0.9 * entries


def _next_labels(labels: list[int | None]) -> list[int | None]:
    """For each line, the next label printed after it (None when none is): one pass from the end, so a long
    list with many labels out of sequence is not searched again from each."""
    out: list[int | None] = []
    following: int | None = None
    for label in reversed(labels):
        out.append(following)
        following = label if label is not None else following
    return out[::-1]


def _resumes(label: int, expect: int, following: int | None) -> bool:
    """A label a few past the one expected goes on with the list when the next label printed is the one after it."""
    return expect < label <= expect + MAX_LABEL_GAP and following == label + 1
