"""A sheet put before the paper (an aggregator's cover page, a repository's sheet): emptied, so the
title, authors and text come from the paper's own first page after it.

Page 1 is only ever dropped on its own evidence: it names itself as such a sheet, or page 2 opens
with a title page 1 printed as a phrase.  Section headings set large on page 2 ("2 Method",
"3 Results") are no title: each is numbered or short, and they stand apart, not as one block.
"""

from __future__ import annotations

import re

from ..front.title import true_size
from ..text.lines import Line
from .sheets import title_lines_at_top

Page = tuple[list[Line], float, float]

# Sheets an aggregator or a repository puts before the paper (the paper's own first page follows), each
# by the sentence it prints on every such sheet: ResearchGate's "See discussions, stats, and author
# profiles" page, JSTOR's terms-of-use page, HAL's archive sheet, a Digital Commons (bepress) sheet, a
# university portal's (Pure) "General rights" sheet, ETH's and eScholarship's download sheets (front17).
_COVER_SHEET = re.compile(r"See discussions, stats,? and author profiles for this publication|"
                          r"Your use of the JSTOR archive indicates your acceptance|"
                          r"HAL is a multi-?\s?disciplinary open access archive|"
                          r"is brought to you for free and open access by|"
                          r"moral rights for the publications made accessible in the public portal|"
                          r"This page was generated automatically upon download from|"
                          r"Powered by the California Digital Library", re.IGNORECASE)
# A section's number opening a line: "2 Method", "3.1 Data", "II. Results", "A. Proofs".
_SECTION_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-Z]\.)\s+\S")


def without_cover_sheet(pages: list[Page]) -> list[Page]:
    """The pages with an aggregator's cover sheet emptied: its names (the authors "including" a
    few, with their employers, or the first author "et al.") and counters are not the paper's,
    whose title page comes next.  A cover sheet names itself, or page 2 sets page 1's largest
    text again as its own largest (the title, on the paper's own first page)."""
    if len(pages) < 2 or not (_COVER_SHEET.search(" ".join(ln.text for ln in pages[0][0][:40]))
                              or _title_again(pages[0][0], pages[1])):
        return pages
    _, width, height = pages[0]
    return [([], width, height), *pages[1:]]


def _title_again(first: list[Line], second: Page) -> bool:
    """Page 2 opens with a title (a block of text at least a third larger than most of its text, of
    four words or more, in its top third, no numbered heading) that page 1 prints as a phrase: page 1
    is a sheet put before the paper.  A label in the title's size above it ("SERVICES & POLICY") is a
    block of its own."""
    lines, _, height = second
    # a drop cap gives its paragraph's first line its size: that line is no title (`true_size`)
    lines = sorted((ln for ln in lines if true_size(ln)), key=lambda ln: ln.top)
    big = title_lines_at_top(lines, first, height)
    if not big:
        return False
    # page 1 in print order (pdfium's may run a title's lines bottom up)
    words = re.findall(r"\w+", " ".join(ln.text for ln in sorted(first, key=lambda ln: (ln.top, ln.x0))).casefold())
    for block in _blocks(big):
        title = re.findall(r"\w+", " ".join(ln.text for ln in block).casefold())
        if len(title) >= 4 and not _SECTION_NUMBER.match(block[0].text) and _printed_as_phrase(title, words):
            return True
    return False


def _blocks(lines: list[Line]) -> list[list[Line]]:
    """`lines` (sorted by top, one size) in blocks: lines set directly one under another."""
    blocks: list[list[Line]] = []
    for ln in lines:
        if blocks and ln.top - blocks[-1][-1].bottom <= 0.8 * ln.size:
            blocks[-1].append(ln)
        else:
            blocks.append([ln])
    return blocks


def _printed_as_phrase(title: list[str], words: list[str]) -> bool:
    """Nine in ten of the title's words together in one stretch of `words` hardly longer than the
    title (a line break may split a word): the title printed, not its words scattered over a page."""
    need, span = 0.9 * len(title), len(title) + 2
    wanted = set(title)
    starts = (i for i, w in enumerate(words) if w in wanted)
    return any(sum(t in window for t in title) >= need for window in (set(words[i:i + span]) for i in starts))
