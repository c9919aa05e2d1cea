"""Headings whose title ends in an abbreviation's full stop.

Taxonomy and nomenclature set section titles such as "Description of Sulfurimonas gotlandica sp.
nov." or "Emended description of the genus X Smith et al.": the final period belongs to the
abbreviation, not to a sentence, and the line is set in the very style of the paper's other
headings.  The rules that reject a line ending in a period (a sentence, a run-in heading's
paragraph) would drop it; this module accepts it on the paper's own evidence: a line alone with
space above, in a style the paper already sets unnumbered headings in, that ends in two abbreviations
("sp. nov.", "gen. nov.", "et al.": one short word with a period could be a sentence's last) and opens
no new sentence inside.
"""

from __future__ import annotations

import re

_ABBREVIATED_END = re.compile(r"\s(?:[a-z]{1,6}\.|et)\s[a-z]{1,4}\.$")  # two in a row: "sp. nov.", "et al."
_SENTENCE_BREAK = re.compile(r"[.!?:;]\s+[A-Z0-9]")  # a new sentence (or a run-in label's text) opens


def heading_key(line) -> tuple[float, bool, bool]:
    """What two heading lines of one style share: size, weight and slant (a title mixing faces,
    an italic species name in a bold line, reports either face)."""
    return round(line.size * 2) / 2, bool(line.bold), bool(line.italic)


def abbreviated_title(p, following, heading_styles: set[tuple[float, bool, bool]]) -> bool:
    """Is the one-line paragraph a heading whose final period is an abbreviation's?"""
    ln, text = p.first, p.text.strip()
    if len(p.lines) != 1 or not ln.alone or p.in_figure or (p.gap_above or 0) < 1.45:
        return False
    if not _ABBREVIATED_END.search(text) or _SENTENCE_BREAK.search(text) or not text[:1].isupper():
        return False
    if len(text.split()) > 12 or heading_key(ln) not in heading_styles:
        return False
    return following is not None and following.text[:1].isupper() and heading_key(following.first) != heading_key(ln)
