"""Numbered titles too long for one line: wrapped over two to four lines of their own style.

A narrow column wraps "2.3 Protein extraction, gel electrophoresis, western blot analysis, tissue
prints and oxidase determinations" onto four lines, and a paper may number a title of eighteen
words ("3.3 Effects of the compound on nitration and phosphorylation of the pathway and on
survival in the control cohort").  The one-line plausibility limits (fourteen words, 110
characters, three lines) would drop them, though the number continues the paper's own scheme and
every line is set in the headings' own style.  Such a title is judged by its first twelve words
(is it a title at all) and by its length per line, as `_Decider._wrapped_title` judges unnumbered
wrapped titles.
"""

from __future__ import annotations

import re

from .heading_lines import one_style
from .heading_style import _plausible_title

_MOST_LINES = 4
_WORDS_PER_LINE = 10
_SENTENCE_BREAK = re.compile(r"[.!?]\s+[A-Z]")  # a sentence ends and the next opens: text, not a title


def long_numbered_title(lines: list, title: str, strong_lines: bool) -> bool:
    """Is `title` (a numbered paragraph's text after its number, on `lines`) a long title wrapped
    in the headings' style: every line set apart from the body, in one style, alone on its row?"""
    words = title.split()
    if not strong_lines or not 2 <= len(lines) <= _MOST_LINES or not one_style(lines):
        return False
    if not all(x.alone for x in lines) or len(words) > _WORDS_PER_LINE * len(lines):
        return False
    if title.endswith((".", ",", ";", ":")) or _SENTENCE_BREAK.search(title):
        return False
    return _plausible_title(" ".join(words[:12]), True)
