"""What a hit shows: a snippet around the query's words, and its pages."""

from __future__ import annotations

import re

from ..index_text import CJK_CHAR, has_cjk
from .query import STOPWORDS

# A word starts after a non-word character or a CJK one ("使用BERT"), and ends before CJK too.
# Checked in Python around a plain search for the term: a regex holding the CJK class costs
# ~7 ms to compile, and every query's terms are new patterns (it was most of a search's time).
_CJK = re.compile(CJK_CHAR)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # (what \w matches)


def _word_start(text: str, i: int) -> bool:
    return i == 0 or not (text[i - 1] == "[" or _is_word(text[i - 1])) or bool(_CJK.match(text[i - 1]))


def _word_end(text: str, j: int) -> int:
    while j < len(text) and _is_word(text[j]) and not _CJK.match(text[j]):
        j += 1
    return j


def _first_word(low: str, t: str) -> int:
    """Where the first word beginning with `t` starts in `low` (-1: none)."""
    i = low.find(t)
    while i >= 0 and not _word_start(low, i):
        i = low.find(t, i + 1)
    return i


def _mark_words(text: str, t: str) -> str:
    """Every word of `text` beginning with `t` (any case), in brackets."""
    out, at = [], 0
    for m in re.finditer(re.escape(t), text, flags=re.I):
        if m.start() < at or not _word_start(text, m.start()):
            continue
        end = _word_end(text, m.end())
        out += [text[at:m.start()], "[", text[m.start():end], "]"]
        at = end
    return "".join(out) + text[at:]


def make_snippet(text: str, terms: list[str], width: int = 220) -> str:
    """A window of `text` around the first query term, terms marked with [ ].

    CJK terms (bigrams, see `index_text`) are found anywhere, not at word starts, and the
    stretch of text they cover together is marked as one ("[深度学习]")."""
    text = " ".join(text.split())
    low = text.lower()
    pos = -1
    for t in terms:
        if t in STOPWORDS or len(t) < 2 and not has_cjk(t):
            continue
        at = low.find(t) if has_cjk(t) else _first_word(low, t)
        if at >= 0 and (pos < 0 or at < pos):
            pos = at
    start = max(0, pos - width // 3) if pos >= 0 else 0
    if start > 0:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    window = text[start:start + width]
    marked = _mark_cjk(window, {t for t in terms if has_cjk(t)})
    for t in sorted({t for t in terms if t not in STOPWORDS and len(t) >= 2 and not has_cjk(t)}, key=len, reverse=True):
        marked = _mark_words(marked, t)
    return ("…" if start > 0 else "") + marked + ("…" if start + width < len(text) else "")


def _mark_cjk(text: str, terms: set[str]) -> str:
    """Every stretch of `text` covered by occurrences of the CJK terms, in brackets."""
    covered = [False] * len(text)
    for t in terms:
        for m in re.finditer(re.escape(t), text):
            covered[m.start():m.end()] = [True] * (m.end() - m.start())
    if not any(covered):
        return text
    out: list[str] = []
    for i, ch in enumerate(text):
        if covered[i] and (i == 0 or not covered[i - 1]):
            out.append("[")
        out.append(ch)
        if covered[i] and (i == len(text) - 1 or not covered[i + 1]):
            out.append("]")
    return "".join(out)


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
    where = attachment_key if "/" in attachment_key else f"library/items/{attachment_key}"  # a group's: groups/…
    return f"zotero://open-pdf/{where}" + (f"?page={page.group()}" if page else "")
