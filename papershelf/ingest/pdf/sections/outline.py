"""Section headings from a PDF's outline (its bookmarks), when it has one.

An outline is the author's own table of contents, written by the typesetting system: where it
exists it is the authority for which lines are section titles, their levels and their pages.
Layout still places each title in the text: an entry is matched, in reading order, to the
paragraph on its page (or the next) that reads the same, numbering and punctuation aside; a
paragraph that starts with the title and runs on (a run-in heading) is cut after it.  Headings the
layout rules found that the outline does not list become text again (a sidebar's "Competing
interests", a table of contents line, an author's name), except the back-matter names an outline
often leaves out (References, Acknowledgements), which still end the body.

An outline of fewer than three entries (often just the title) says nothing about sections.  Nor do
entries that label the paper's figures and tables ("Fig 1", "Table 2": a journal bookmarks its objects
beside its sections, or only them, and not always in page order): they name captions, which the
regions find, so they are passed over.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import unicodedata
from dataclasses import dataclass

from ....document import Block
from ...captions import parse_caption

# pypdfium2 logs a warning for an outline deeper than `max_depth`; levels past 6 are sub-sub-
# paragraphs the reader does not use, so that warning would be a stray line on the user's terminal.
logging.getLogger("pypdfium2._helpers.document").addHandler(logging.NullHandler())

MIN_ENTRIES = 3
_MAX_ENTRIES = 1000
# ("II-A": hyperref's name for IEEE's "A." under "II.", which the page prints as "A.")
_NUMBER = re.compile(r"^\s*(?:appendix\s+)?(?:\d+(?:\.\d+)*|[IVX]+(?:-[A-Z\d]+)*|[A-Z](?:\.\d+)*)[.):]?\s+",
                     re.IGNORECASE)
_KEEP = re.compile(r"^(?:[\dIVX]+\.?\s*)?(?:abstract|references|bibliography|acknowledge?ments?|literature cited|"
                   r"works cited)$", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    title: str
    level: int  # 1 for top-level sections
    page: int | None  # 1-based, None when the bookmark points nowhere


def read_outline(pdf) -> list[Entry]:
    """The outline of an open pdfium document, or [] when it has none worth using."""
    entries = []
    try:
        for bm in pdf.get_toc(max_depth=6):
            title = re.sub(r"\s+", " ", bm.get_title() or "").strip()
            dest = bm.get_dest()
            index = dest.get_index() if dest is not None else None
            if title:
                entries.append(Entry(title, bm.level + 1, index + 1 if index is not None else None))
            if len(entries) >= _MAX_ENTRIES:
                break
    except Exception:  # noqa: BLE001 - a damaged outline is no outline: layout rules decide
        return []
    entries = unwrapped(entries)
    return entries if len(entries) >= MIN_ENTRIES else []


def unwrapped(entries: list[Entry]) -> list[Entry]:
    """The outline without the entries that wrap all of it: a paper's title (one entry, or a title cut
    in two) and then its author line, each an unnumbered top entry pointing no later than the first
    section, with every other entry below it.  Their children are the sections: levels move up so the
    shallowest entry left is level 1 (a title entry kept as level 1 would put each section a level or
    two too deep, and match a section that repeats the title's words)."""
    most = 2  # a title cut in two; below it one author line
    while entries:
        top = entries[0].level
        k = next((i for i, e in enumerate(entries) if e.level != top), len(entries))
        rest = entries[k:]
        first = rest[0].page if rest else None
        if not (0 < k <= most and rest and all(e.level > top for e in rest)
                and all(not _NUMBER.match(e.title) and (e.page is None or first is None or e.page <= first)
                        for e in entries[:k])):
            break
        entries, most = rest, 1
    shift = min((e.level for e in entries), default=1) - 1
    return [dataclasses.replace(e, level=e.level - shift) for e in entries] if shift else entries


def _norm(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", unicodedata.normalize("NFKC", text).casefold())


def _keys(text: str) -> tuple[str, str]:
    """The title as compared: all of it, and without its number."""
    return _norm(text), _norm(_NUMBER.sub("", text, count=1))


def _matches(block: Block, entry: Entry) -> int:
    """0: no; 1: the block is the title; 2: the block starts with the title and runs on."""
    full, bare = _keys(entry.title)
    if not bare:
        return 0
    b_full, b_bare = _keys(block.text)
    if b_full in (full, bare) or b_bare in (full, bare):
        return 1
    if len(b_full) >= 0.6 * len(full) and len(block.text) < 1.5 * len(entry.title) and full.startswith(b_full):
        return 1  # a title set on two lines, the second one a paragraph of its own
    head = _norm(block.text[:len(entry.title) + 12])
    return 2 if len(block.text) > len(entry.title) + 3 and (head.startswith((full, bare))) else 0


def apply_outline(blocks: list[Block], outline: list[Entry]) -> list[Block]:
    """The blocks with exactly the outline's headings (see the module docstring); the blocks as they
    are when fewer than `MIN_ENTRIES` and fewer than half (or none) of its section entries read as a
    paragraph of the text: such an outline names anchors or objects, not sections (a Word export's
    "_ENREF_12", a journal's "Fig 1")."""
    out = [dataclasses.replace(b) for b in blocks]
    matched = 0
    for b in out:
        if b.kind == "heading" and not _KEEP.match(b.text.strip()):
            b.kind, b.level = "text", 0
    start = 0
    # an object's bookmark: its caption is no section, and matching it would skip the sections before it
    outline = [e for e in outline if parse_caption(e.title) is None]
    for entry in outline:
        for i in range(start, len(out)):
            b = out[i]
            if entry.page is not None and b.page is not None and not entry.page <= b.page <= entry.page + 1:
                if b.page > entry.page + 1:
                    break
                continue
            how = _matches(b, entry) if b.kind in ("text", "heading") else 0
            if not how:
                continue
            if how == 2:
                rest = _rest_after(b.text, entry.title)
                out.insert(i + 1, Block("text", rest, page=b.page))
                b.text = b.text[:len(b.text) - len(rest)].strip()
            if not entry.title.rstrip().endswith((".", ":")):
                b.text = b.text.rstrip(" .:")  # a run-in lead-in's own stop ("2.1. PageRank.")
            b.kind, b.level = "heading", entry.level
            start = i + 1
            matched += 1
            break
    return out if matched >= MIN_ENTRIES or (matched and 2 * matched >= len(outline)) else blocks


def _rest_after(text: str, title: str) -> str:
    """The text after the title it starts with (compared letter by letter, spacing aside)."""
    full, bare = _keys(title)
    got = ""
    for i, ch in enumerate(text):
        got += _norm(ch)
        if got in (full, bare):
            return text[i + 1:].lstrip(" .:—-")
    return ""
