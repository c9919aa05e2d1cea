"""What a heading's text and lines look like, asked of any paragraph: its style keys (for levels and
wrapped titles), whether its words read as a title's, how many it may have."""

from __future__ import annotations

import re

from ..bibliography.references import REFERENCES_HEADING
from .heading_style import _STANDARD_RE, Para, capitals


def _standard(bare: str) -> bool:
    """A standard section name, or the reference list's heading in any of its forms ("References and
    Notes", "Literatur", "参考文献")."""
    return bool(_STANDARD_RE.match(bare) or REFERENCES_HEADING.match(bare))


def _own_style(line) -> tuple:
    """A heading's style, all of it: size, weight, slant, capitals and face."""
    return (round(line.size * 2) / 2, bool(line.bold), bool(line.italic), capitals(line.text), line.face)


_DIGIT_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z]\.\d+)[.)]?\s+\S")  # "2 Methods", "9.4 Open Problems", "A.1 Syntax"


def _wrap_key(line) -> tuple:
    """A title line's style, its case aside: size, weight, slant and face."""
    return (round(line.size * 2) / 2, bool(line.bold), bool(line.italic), line.face)


def _title_words(text: str) -> bool:
    """Does the text read as a title's words at all?  Not a reference entry's label ("[24] Bernd
    Bruegge, …"), not a list of terms ("Key Words and Phrases: time-sharing, operating system, file
    system, …"; a title may list "Purification, nitration, and phosphorylation"), not a line of stray
    glyphs whose "words" are mostly single letters."""
    words = text.split()
    letters = sum(len(w) == 1 and w.isalpha() for w in words)
    terms = ":" in text and text.count(",") >= 2
    return not re.match(r"^\[\d+\]", text) and not terms and not (len(words) >= 4 and letters > len(words) / 2)


def _most_words(p: Para) -> int:
    """How many words an unnumbered heading may have: a title that needed two lines may be as long as
    any title (a column two inches wide wraps "Comparison of the model with earlier studies of the
    same pathway"); on one line, twelve."""
    return 14 if len(p.lines) == 2 else 12


def _italic_lines(p: Para) -> bool:
    """One or two lines, each wholly in italics, alone on their rows: how italic sub-headings are set
    (the second line a long title's rest)."""
    return len(p.lines) <= 2 and all(x.italic and x.alone for x in p.lines)
