"""What a hit shows: a snippet around the query's words, and its pages."""

from __future__ import annotations

import re

from .query import STOPWORDS


def make_snippet(text: str, terms: list[str], width: int = 220) -> str:
    """A window of `text` around the first query term, terms marked with [ ]."""
    text = " ".join(text.split())
    low = text.lower()
    pos = -1
    for t in terms:
        if t in STOPWORDS or len(t) < 2:
            continue
        m = re.search(r"\b" + re.escape(t), low)
        if m and (pos < 0 or m.start() < pos):
            pos = m.start()
    start = max(0, pos - width // 3) if pos >= 0 else 0
    if start > 0:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    window = text[start:start + width]
    marked = window
    for t in sorted({t for t in terms if t not in STOPWORDS and len(t) >= 2}, key=len, reverse=True):
        marked = re.sub(r"(?<![\[\w])(" + re.escape(t) + r"\w*)", r"[\1]", marked, flags=re.I)
    return ("…" if start > 0 else "") + marked + ("…" if start + width < len(text) else "")


def pages_of(unit) -> str | None:
    """"3" or "3-5", from a unit's first and last page."""
    if unit.page_start is None:
        return None
    if unit.page_end is None or unit.page_end == unit.page_start:
        return str(unit.page_start)
    return f"{unit.page_start}-{unit.page_end}"


def zotero_link(attachment_key: str, pages: str | None) -> str:
    """Opens the PDF in Zotero at the hit's first page."""
    page = re.match(r"\d+", pages or "")
    return f"zotero://open-pdf/library/items/{attachment_key}" + (f"?page={page.group()}" if page else "")
