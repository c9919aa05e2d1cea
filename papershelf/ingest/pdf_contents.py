"""A table of contents: lines that name a section and end in its page number, not the sections.

A contents page repeats the paper's headings, numbered and in their style, so read line by line
each entry looks like a section of its own (and the real heading later looks like a repeat).
What marks an entry is its end: a page number, after dot leaders or set flush at a right edge the
other entries share, on three or more rows whose page numbers do not go down.  Each entry's row
is read as one line ("2.1 Animals and wounds 2", leaders dropped) and never opens a section.
"""

from __future__ import annotations

import dataclasses
import re

from .pdf_lines import Line, visual_rows

_LEADERS = re.compile(r"\s*(?:\.\s*){3,}(?=\S*$)|\s*(?:…\s*)+(?=\S*$)")
_PAGE_NO = re.compile(r"^(.*?\S)\s*(?:\.\s*){3,}\s*(\d{1,4}|[ivxlc]{1,6})$|^(.*?\S)\s+(\d{1,4}|[ivxlc]{1,6})$")
_ENDS_IN_NUMBER = re.compile(r"(?:^|[\s.…])(?:\d{1,4}|[ivxlc]{1,6})$")
_MIN_ENTRIES = 3


def _entry(row: list[Line]) -> tuple[str, str, float, bool] | None:
    """(title, page number, right edge, had leaders) when the row reads as a contents entry."""
    text = " ".join(ln.text for ln in row).strip()
    if not _ENDS_IN_NUMBER.search(text[-8:]):
        return None  # most rows: cheap to rule out before the full pattern
    m = _PAGE_NO.match(text)
    if not m:
        return None
    leaders = bool(m.group(1))
    title, page = (m.group(1), m.group(2)) if leaders else (m.group(3), m.group(4))
    title = _LEADERS.sub("", title).strip(" .")
    if not re.search(r"[A-Za-z]{3,}", title) or len(title.split()) > 16 or title[-1].isdigit():
        return None
    # Without leaders the number is set apart at the right, by a wide gap (a table's cells are not).
    if not leaders and (len(row) < 2 or row[-1].text.strip() != page or row[-1].x0 - row[-2].x1 < 2 * row[-1].size
                        or abs(row[-1].size - row[-2].size) > 1.0):
        return None
    return title, page, row[-1].x1, leaders


def _number(page: str) -> int:
    return int(page) if page.isdigit() else 0


def _runs(found: list[tuple[list[Line], tuple | None]]) -> list[list[tuple[list[Line], tuple]]]:
    """Entries that follow one another down the page (one other row between two of them is an
    entry's title wrapped onto a second line); a contents list is one such run."""
    runs: list[list[tuple[list[Line], tuple]]] = [[]]
    gap = 0
    for row, e in found:
        if e is None:
            gap += 1
            if gap > 1 and runs[-1]:
                runs.append([])
            continue
        gap = 0
        runs[-1].append((row, e))
    return [r for r in runs if len(r) >= _MIN_ENTRIES]


def contents_entries(lines: list[Line]) -> tuple[list[Line], set[int]]:
    """The page's lines with each contents entry's row read as one line, and the ids of those lines."""
    kept = []
    for run in _runs([(row, _entry(row)) for row in visual_rows(lines)]):
        edges = [round(e[2]) for _, e in run]
        flush = [(row, e) for row, e in run if e[3] or sum(abs(x - round(e[2])) <= 4 for x in edges) >= _MIN_ENTRIES]
        numbers = [_number(e[1]) for _, e in flush if e[1].isdigit()]
        if len(flush) >= _MIN_ENTRIES and numbers == sorted(numbers):
            kept += flush
    if not kept:
        return lines, set()
    merged: dict[int, Line] = {}
    gone: set[int] = set()
    for row, (title, page, _, _) in kept:
        first = row[0]
        merged[id(first)] = dataclasses.replace(first, x1=max(ln.x1 for ln in row), text=f"{title} {page}", alone=True)
        gone.update(id(ln) for ln in row[1:])
    out = [merged.get(id(ln), ln) for ln in lines if id(ln) not in gone]
    return out, {id(ln) for ln in merged.values()}
