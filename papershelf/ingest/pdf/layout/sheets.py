"""Sheets a publisher binds around the paper, found from the paper's own pages (a cover sheet before
it: cover.py).

A back sheet after the paper (a journal's "Updated information and services" page) sets the title
large again at its top, over labels ("References", "Email alerting service") that are no sections
of the paper.
"""

from __future__ import annotations

import re

from ..text.lines import Line

_DIGITS = re.compile(r"\d+")
_LINK = re.compile(r"(?:https?://|doi\.org/|doi:\s*|\b10\.\d{4,9}/)\S*")


def running_key(text: str) -> str:
    """A line's text as running heads and feet repeat it: its numbers (a page's, a volume's) stand for any, but
    not those in a link (each entry's DOI line at a page's foot differs; a journal's foot repeats its own)."""
    text = text.lower()
    if "10." not in text and "//" not in text:
        return _DIGITS.sub("#", text)
    out, at = [], 0
    for m in _LINK.finditer(text):
        out += [_DIGITS.sub("#", text[at:m.start()]), m.group()]
        at = m.end()
    return "".join(out) + _DIGITS.sub("#", text[at:])

Page = tuple[list[Line], float, float]

_WORD = re.compile(r"\w+")


def in_margin(ln: Line, height: float) -> bool:
    """In the page's top 9 % or bottom 8 %, where running heads, feet and page numbers stand."""
    return ln.top < 0.09 * height or ln.bottom > 0.92 * height


def back_sheet(pages: list[Page]) -> int | None:
    """The number of the last page when it is a sheet bound after the paper: it opens with the
    paper's title (the largest text of the title page) set again as its own largest text at its top.
    Its labels and links are read as text, never as sections."""
    filled = [p for p in pages if p[0]]
    if len(filled) < 3:
        return None
    first, last = filled[0][0], filled[-1]
    biggest = max(ln.size for ln in first)
    title = set(_WORD.findall(" ".join(ln.text for ln in first if ln.size == biggest).casefold()))
    return last[0][0].page if _title_again(first, last, title) else None


def _title_again(first: list[Line], second: Page, words: set[str] | None = None) -> bool:
    """`second` opens with a title (text at least a third larger than most of its text, of four
    words or more, the largest in its top third) whose words page `first` prints too (or `words`,
    when given): `first` is a sheet put before the paper (or `second` one put after it).  The top
    third alone is asked: a drop cap further down makes its paragraph's first line the largest."""
    lines, _, height = second
    title = _WORD.findall(" ".join(ln.text for ln in title_lines_at_top(lines, first, height)).casefold())
    seen = words if words is not None else set(_WORD.findall(" ".join(ln.text for ln in first).casefold()))
    return len(title) >= 4 and sum(w in seen for w in title) >= 0.9 * len(title)


def title_lines_at_top(lines: list[Line], first: list[Line], height: float) -> list[Line]:
    """The lines in the page's largest size of its top third, when that size is at least a third
    larger than most of its text ([] otherwise): a title.  Only the top third is asked (a drop cap
    further down makes its paragraph's first line the largest); running heads page `first` prints in
    the same place are left out."""
    lines = [ln for ln in lines if not running_again(ln, first, height)]
    upper = [ln for ln in lines if ln.top <= height / 3]
    if not first or not upper:
        return []
    biggest = max(ln.size for ln in upper)
    sizes = sorted(ln.size for ln in lines)
    return [ln for ln in upper if ln.size == biggest] if biggest >= 1.3 * sizes[len(sizes) // 2] else []


def running_again(ln: Line, first: list[Line], height: float) -> bool:
    """A line in the margin that page 1 prints in the same place and size: a running head (a
    journal's name set large on every page), no title set again."""
    return in_margin(ln, height) and any(
        o.text == ln.text and abs(o.top - ln.top) < 2 and abs(o.size - ln.size) < 0.5 for o in first)


def next_article(lines: list[Line], title_size: float, body_size: float) -> tuple[list[Line], list[Line]]:
    """The paper's last page cut where the next article of a reprint begins: its title, set as large
    as the paper's own (four words or more, no larger than a drop cap's line of text), and what
    stands from its top down are that article's, read as text and never as this paper's sections.
    (lines of the paper, lines of the next article)."""
    if title_size < 1.3 * body_size:
        return lines, []
    big = [ln for ln in lines if abs(ln.size - title_size) <= 0.5 and ln.alone and len(ln.text) < 80]
    words = _WORD.findall(" ".join(ln.text for ln in big))
    if len(words) < 4 or sum(c.isalpha() for c in "".join(words)) < 0.8 * len("".join(words)):
        return lines, []
    top = min(ln.top for ln in big) - 1
    return [ln for ln in lines if ln.top < top], [ln for ln in lines if ln.top >= top]


def repeated_texts(lines: list[tuple[str, int, float]]) -> set[str]:
    """Short one-line texts (page numbers masked) printed at one height on three or more pages, of
    (text, page, top) triples: a running head ("2 JEAN BOURGAIN, SJOERD DIRKSEN, AND JELANI NELSON")
    set inside the text area, where the margin test of the reader does not reach.  A running head
    stands where it stood on the last page; a sub-heading that each section repeats ("8.2.2. Call
    stages", "8.3.3. Call stages", its number masked like a page's) stands wherever its section
    reaches, so it is no running head."""
    tops: dict[str, dict[int, float]] = {}
    for text, page, top in lines:
        if len(text) < 120:
            tops.setdefault(_DIGITS.sub("#", text), {}).setdefault(page, top)
    return {t for t, seen in tops.items() if len(seen) >= 3 and _one_place(list(seen.values())) >= 3}


def _one_place(tops: list[float]) -> int:
    """The most pages that set a text at one height."""
    return max(sum(abs(y - x) <= _SAME_HEIGHT for y in tops) for x in tops)


_SAME_HEIGHT = 6.0  # pt: a running head's place from page to page (a two-line title above it moves it a little)


_TRAILING_NUMBER = re.compile(r"^(?=.*[^\W\d_]{2}).*\S\s+(\d{1,4})$")


def paged_heads(edge_lines: list[Line], need: int) -> set[str]:
    """Keys (`running_key`) of running heads that carry the page's own number after the current
    section's title ("1.6 Overview 5", "Lazy Rebuilding 51"): a thesis or book sets a new title every
    few pages, so no text repeats, but their numbers are the pages' own — each page's index less its
    number is one constant — on `need` pages or more.  `edge_lines`: lines where a running head can stand."""
    by_offset: dict[int, list[Line]] = {}
    for ln in edge_lines:
        m = _TRAILING_NUMBER.match(ln.text.strip())
        if m:
            by_offset.setdefault(ln.page - int(m.group(1)), []).append(ln)
    best = max(by_offset.values(), key=lambda lns: len({ln.page for ln in lns}), default=[])
    return {running_key(ln.text) for ln in best} if len({ln.page for ln in best}) >= need else set()
