"""A table of contents: lines that name a section and end in its page number, not the sections.

A contents page repeats the paper's headings, numbered and in their style, so read line by line
each entry looks like a section of its own (and the real heading later looks like a repeat).
What marks an entry is its end: a page number, after dot leaders or set flush at a right edge the
other entries share, on three or more rows whose page numbers do not go down (with leaders, they
may start again once).  Each entry's row is read as one line ("2.1 Animals and wounds 2", leaders
dropped) and never opens a section.
"""

from __future__ import annotations

import dataclasses
import re

from ....document import Block
from ..text.lines import Line, join_lines, visual_rows

# Leaders are matched from the start of their run of dots and spaces only, and taken whole
# (possessive): a line of 2000 dots is scanned once, not once per dot (issue #43).
_LEADERS = re.compile(r"(?<![\s.])\s*(?:\.\s*){3,}(?=\S*$)|(?<![\s…])\s*(?:…\s*)+(?=\S*$)")
_PAGE = r"(?:\d{1,4}|[ivxlc]{1,6})"  # a page number as a contents row prints it: arabic, or roman in lower case
_PAGE_NO = re.compile(rf"^(.*?[^\s.])\s*+(?:\.\s*+){{3,}}+({_PAGE})$|^(.*?\S)\s+({_PAGE})$")
_ENDS_IN_NUMBER = re.compile(rf"(?:^|[\s.…]){_PAGE}$")
_MIN_ENTRIES = 3


@dataclasses.dataclass
class _Entry:
    title: str
    page: str
    right: float  # the row's right edge
    strong: bool  # leaders, or the number set apart in a piece of its own
    leaders: bool
    rows: list[list[Line]]  # the entry's rows: a title wrapped onto two rows has both


def _entry(row: list[Line]) -> _Entry | None:
    """The row as a contents entry, when it reads as one.  A row of one piece ending in a number
    ("1 Introduction 1", LaTeX's bold section entries, set without leaders) is a weak entry: it
    counts only beside strong ones and at their right edge (a justified paragraph's lines that
    happen to end in numbers are no contents)."""
    text = " ".join(ln.text for ln in row).strip()
    if not _ENDS_IN_NUMBER.search(text[-8:]):
        return None  # most rows: cheap to rule out before the full pattern
    m = _PAGE_NO.match(text)
    if not m:
        return None
    leaders = bool(m.group(1))
    title, page = (m.group(1), m.group(2)) if leaders else (m.group(3), m.group(4))
    title = _LEADERS.sub("", title).strip(" .")
    if not re.search(r"[A-Za-z]{3,}", title) or len(title.split()) > 16 or (title[-1].isdigit() and not _worded(title)):
        return None  # a table's row ends in numbers; "A Proof of Theorem 1.1  2" is a title ending in one
    if leaders:
        return _Entry(title, page, row[-1].x1, True, True, [row])
    if len(row) == 1:
        return _Entry(title, page, row[-1].x1, False, False, [row])
    # Without leaders the number is set apart at the right, by a wide gap (a table's cells are not).
    if row[-1].text.strip() != page or row[-1].x0 - row[-2].x1 < 2 * row[-1].size \
            or abs(row[-1].size - row[-2].size) > 1.0:
        return None
    return _Entry(title, page, row[-1].x1, True, False, [row])


def _worded(title: str) -> bool:
    """A title of words that happens to end in a number ("Proof of Theorem 1.1"), not a table's
    row of figures: three words or more before its last number."""
    return len(re.findall(r"[A-Za-z]{2,}", title.rsplit(" ", 1)[0])) >= 3


def _number(page: str) -> int:
    return int(page) if page.isdigit() else 0


def _runs(rows: list[list[Line]]) -> list[list[_Entry]]:
    """Entries that follow one another down the page; a contents list is one such run.  One
    other row between two entries is the second one's title, wrapped ("10.6.4 Degree and Grad-" /
    "uation Dates . . . 19")."""
    runs: list[list[_Entry]] = [[]]
    pending: list[Line] | None = None
    for row in rows:
        e = _entry(row)
        if e is None:
            if pending is not None and runs[-1]:
                runs.append([])
            pending = row
            continue
        wrapped = pending is not None and not _ENDS_IN_NUMBER.search(" ".join(ln.text for ln in pending)[-8:])
        if pending is not None and runs[-1] and wrapped:  # (a row ending in a number is an entry of its own)
            e.rows.insert(0, pending)
            e.title = join_lines([" ".join(ln.text for ln in pending), e.title])
        pending = None
        runs[-1].append(e)
    return [r for r in runs if sum(e.strong for e in r) >= _MIN_ENTRIES]


def _flush(run: list[_Entry]) -> list[_Entry]:
    """The run's entries with leaders or at the right edge its strong entries share, when their
    page numbers do not go down; [] when the run is no contents list."""
    edges = [round(e.right) for e in run if e.strong]
    kept = [e for e in run if e.leaders or sum(abs(x - round(e.right)) <= 4 for x in edges) >= _MIN_ENTRIES]
    numbers = [_number(e.page) for e in kept if e.page.isdigit()]
    return kept if sum(e.strong for e in kept) >= _MIN_ENTRIES and _ordered(numbers, kept) else []


def _ordered(numbers: list[int], run: list[_Entry]) -> bool:
    """Page numbers that do not go down; with dot leaders on three or more entries they may start
    again once (a supplement's contents listing the main paper's sections, then its own pages)."""
    drops = sum(b < a for a, b in zip(numbers, numbers[1:]))
    return drops == 0 or (drops == 1 and sum(e.leaders for e in run) >= _MIN_ENTRIES)


def contents_entries(lines: list[Line]) -> tuple[list[Line], set[int]]:
    """The page's lines with each contents entry's row read as one line, and the ids of those lines."""
    kept = [e for run in _runs(visual_rows(lines)) for e in _flush(run)]
    if not kept:
        return lines, set()
    merged: dict[int, Line] = {}
    gone: set[int] = set()
    for e in kept:
        first = e.rows[0][0]
        merged[id(first)] = dataclasses.replace(first, x1=max(ln.x1 for row in e.rows for ln in row),
                                                text=f"{e.title} {e.page}", alone=True)
        gone.update(id(ln) for row in e.rows for ln in row if ln is not first)
    out = [merged.get(id(ln), ln) for ln in lines if id(ln) not in gone]
    return out, {id(ln) for ln in merged.values()}


def _demote_contents_repeats(blocks: list[Block]) -> None:
    """A contents page set without page numbers names the sections in their own style: headings
    after a "Contents" heading, on its page, that come again as headings on a later page are its
    entries, not sections."""
    for i, b in enumerate(blocks):
        if b.kind != "heading" or b.text.strip().rstrip(".:").lower() not in ("contents", "table of contents"):
            continue
        later = {_key(x.text) for x in blocks[i + 1:] if x.kind == "heading" and x.page != b.page}
        for j in range(i + 1, len(blocks)):
            x, nxt = blocks[j], blocks[j + 1] if j + 1 < len(blocks) else None
            if x.page != b.page:
                break
            runin = nxt is not None and nxt.kind == "text" and nxt.text.startswith(x.text)  # its text follows: left be
            if x.kind == "heading" and _key(x.text) in later and not runin:
                x.kind, x.level = "text", 0


def _key(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


def demote_abstract_labels(blocks: list[Block]) -> None:
    """A structured abstract's labels ("Results: A total of …") are run-ins that name the paper's own
    sections: run-in headings on the first page, before any heading set on a line of its own, one of
    which names a heading that comes again later in the paper, label the parts of the abstract (all
    of them: "Purpose", "Conclusion" too), not sections of their own.  Under a heading "Abstract"
    they stay its sub-headings ("Abstract > Results"), as publishers' outlines list them.  Later
    run-ins repeat by design ("Limitations" under each study).  Each label's paragraph starts with
    it, so the heading block goes."""
    run = []
    first = next((b.page for b in blocks if b.page is not None), None)
    for i, b in enumerate(blocks[:-1]):
        nxt = blocks[i + 1]
        if b.kind == "heading" and _name(b.text) in ("abstract", "summary"):
            return  # under an Abstract heading the labels are its parts, as publishers' outlines list them
        if b.kind != "heading":
            continue
        if b.page != first or nxt.kind != "text" or not nxt.text.startswith(b.text):
            break  # the first section heading set on its own line: the abstract is over
        run.append(i)
    later = {_name(x.text) for x in blocks[run[-1] + 2:] if x.kind == "heading"} if run else set()
    if any(_name(blocks[i].text) in later for i in run):
        drop = set(run)
        blocks[:] = [b for i, b in enumerate(blocks) if i not in drop]


def _name(text: str) -> str:
    """A heading's name without its number ("3 Results", "III. RESULTS" and "Results" are one name)."""
    return _key(re.sub(r"^\s*(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+", "", text))


_PAGE_ALONE = re.compile(_PAGE)


def row_ends_in_page(line: Line, lines: list[Line]) -> bool:
    """The line's row ends in a page number set apart at its right ("Bibliography ........ 137", the
    number a piece of its own): an entry of a contents page, or a running head, and no heading of its
    own — even on a contents page too short to be read as one (a last page of two entries)."""
    return any(o.page == line.page and o is not line and o.x0 > line.x1 and _PAGE_ALONE.fullmatch(o.text.strip())
               and abs(o.bottom - line.bottom) < 0.5 * max(line.size, 1.0) for o in lines)


def is_page_number(text: str) -> bool:
    """The text is a page number alone, as a contents row prints it."""
    return bool(_PAGE_ALONE.fullmatch(text.strip()))
