"""Heading levels from the paper's own heading styles, and numbered siblings known by their style.

A paper without numbering tells its levels apart by style alone: its standard names ("INTRODUCTION",
"RESULTS") show which style sets its sections, and a style below that one (smaller, lighter, mixed
case) sets its sub-sections.  The standard names' style is ranked even where those names are set
where no other heading is (centred capitals over flush-left sub-headings), so that the sub-headings
rank below it instead of taking level 1 for being the only candidates.

A numbered paper sets all sub-sections of one depth in one style: a line that carries the very
next number in that very style is a heading even where a column's top hides the space above it.
"""

from __future__ import annotations

import re

StyleKey = tuple[float, bool, bool, bool]


def style_ranks(candidates: set[StyleKey], standard: list[StyleKey]) -> dict[StyleKey, int]:
    """Level of each candidate style: styles ordered larger, bolder, capitals first, upright over
    bold italics; the standard names' most common style is level 1, styles above it level 1 too."""
    top_std = max(standard, key=standard.count) if standard else None
    styles = candidates | ({top_std} if top_std else set())
    ordered = sorted(styles, key=lambda s: (-s[0], not s[1], not s[2], s[3]))
    top = ordered.index(top_std) if top_std else 0
    return {s: max(1, i - top + 1) for i, s in enumerate(ordered)}


def sibling_style(style: tuple, depth: int, numbered_styles: dict[tuple, list[int]]) -> bool:
    """Has the paper already set a numbered heading of this depth in exactly this style?"""
    return depth in numbered_styles.get(style, [])


_LABEL = re.compile(r"^\((?:[a-zA-Z]|[ivx]{1,4}|\d{1,2})\)\s+(?=\S)")


def unlabelled(text: str) -> str:
    """A title without the bracketed label that opens it: "(a) The contribution of odorants" reads
    as a title by its words after "(a)", whose lowercase letter would otherwise make it read as text."""
    return _LABEL.sub("", text, count=1)
