"""A book's lists: one at each chapter's end, each under its own references heading.

A paper prints one list (a supplement may add a second, not the paper's); a book or a collection of chapters
prints one per chapter, each closing its chapter under the same heading.  The pattern is the document's own:
`MIN_CHAPTER_LISTS` lines or more named like the list's heading on as many pages, each the list's own line (no
contents row, no running head: `list_heading`), each list closed by a line set larger than its own type before
the next such line (the next chapter's heading, or its body when the list is set smaller).  Then every list is
read, in order, from its heading to that line (the last to the document's end).  The reader's headings are not asked: a
chapter's heading on a page of its own is not always read as one.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from ..sections.contents import row_ends_in_page
from ..text.lines import Line
from .list_heading import REFERENCES_HEADING
from .list_order import reread

MIN_CHAPTER_LISTS = 3  # two lists may be a paper's and its supplement's; three under one name are chapters'
MIN_CHAPTER_ENTRIES = 2  # entries each chapter's list holds at least
LARGER = 1.15  # a line this much larger than the list's type is no line of the list
LIST_SAMPLE = 6  # the lines after the heading whose size is the list's type


def chapter_lists(columns: list[list[Line]], marks: list[Line],
                  read: Callable[[list[list[Line]]], list[str]]) -> list[str] | None:
    """Every chapter's list's entries in order (`read` cuts a list's runs into entries), or None when the
    document does not print its lists so."""
    lines = [ln for column in columns for ln in column]
    own = [ln for ln in lines if REFERENCES_HEADING.match(ln.text.strip()) and not row_ends_in_page(ln, lines + marks)]
    if len(own) < MIN_CHAPTER_LISTS or len({ln.page for ln in own}) < len(own):
        return None
    out: list[str] = []
    for k, heading in enumerate(own):
        following = own[k + 1] if k + 1 < len(own) else None
        runs, closed = _chapter_runs(reread(columns, heading, None), following)
        if following is not None and not closed:
            return None  # no chapter between two such lines: one list's running head, or its heading twice
        entries = read(runs)
        if len(entries) < MIN_CHAPTER_ENTRIES:
            return None
        out += entries
    return out


def _chapter_runs(runs: list[list[Line]], following: Line | None) -> tuple[list[list[Line]], bool]:
    """The runs up to the first line set larger than the list's type (closed: True), else up to the next
    list's heading or the end (closed: False)."""
    lines = [ln for run in runs for ln in run]
    if not lines:
        return [], False
    size = statistics.median(ln.size for ln in lines[1:LIST_SAMPLE + 1] or lines[:1])
    out: list[list[Line]] = []
    for run in runs:
        kept: list[Line] = []
        for ln in run:
            larger = ln is not lines[0] and ln.size > LARGER * size
            if larger or ln is following:
                return out + ([kept] if kept else []), larger
            kept.append(ln)
        out.append(kept)
    return out, False
