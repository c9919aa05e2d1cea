"""Heading levels from the paper's own heading styles, and numbered siblings known by their style.

A paper without numbering tells its levels apart by style alone: its standard names ("INTRODUCTION",
"RESULTS") show which style sets its sections, and a style below that one (smaller, lighter, mixed
case) sets its sub-sections.  The standard names' style is ranked even where those names are set
where no other heading is (centred capitals over flush-left sub-headings), so that the sub-headings
rank below it instead of taking level 1 for being the only candidates.

A numbered paper sets all sub-sections of one depth in one style: a line that carries the very
next number in that very style is a heading even where a column's top hides the space above it, and
so is one that fills a gap in the sequence ("3.2" between headings "3.1" and "3.3" of its style)
though set with no more space above it than a paragraph.

A paper that sets sections and sub-sections in one style shows its levels by stacking: a heading set
right over another of its style opens a section, and the headings under it are its sub-sections.
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


def next_number(num: str) -> str:
    """The sibling after a numbered heading's number ("3.2" -> "3.3"), for a digits-only number."""
    head, _, last = num.rpartition(".")
    if not last.isdigit():
        return ""  # (a letter or roman numeral: no gap is read)
    return f"{head}.{int(last) + 1}" if head else str(int(last) + 1)


def numbered_lines(items: list[tuple[str, tuple]]) -> dict[str, set[tuple]]:
    """Each number that opens a line of its own -> the styles it is set in; lets a heading in a gap
    ("3.2" set tight under a paragraph) be known by the sibling after it ("3.3") in its style."""
    seen: dict[str, set[tuple]] = {}
    for num, style in items:
        seen.setdefault(num, set()).add(style)
    return seen


_LABEL = re.compile(r"^\((?:[a-zA-Z]|[ivx]{1,4}|\d{1,2})\)\s+(?=\S)")


def unlabelled(text: str) -> str:
    """A title without the bracketed label that opens it: "(a) The contribution of odorants" reads
    as a title by its words after "(a)", whose lowercase letter would otherwise make it read as text."""
    return _LABEL.sub("", text, count=1)


_TIGHT = re.compile(r"^((?:[IVX]{1,5}|\d{1,2}(?:\.\d{1,2}){0,2})\.)(?=[A-Z]{2})")


def spaced_number(text: str) -> str:
    """A number run into its title in capitals, as a text layer drops the narrow space a heading set in
    small capitals prints ("VII.CONFLICT OF INTEREST"), with that space back.  Only a title without a
    lowercase letter and of few words: "1.SMITH J, Jones K" (a reference entry) stays as printed."""
    m = _TIGHT.match(text)
    if not m or any(c.islower() for c in text) or len(text.split()) > 8:
        return text
    return f"{m.group(1)} {text[m.end():]}"


def flat_levels(heads: list[tuple[int, tuple]], blocks: list, standard) -> None:
    """Levels in an unnumbered paper that sets sections and sub-sections in one style ("Introduction"
    and "HCI and smartphones" alike, ACM's extended abstracts): a heading set directly over another of
    its style, no text between, opens a section whose sub-sections those are.  Where the paper shows
    that, and sets three or more standard names in that style, from its first such section on a
    heading of that style is a section when it is a standard name or stands over another, else a
    sub-section (level 2).  `heads`: (block index, style) of the
    headings of an unnumbered paper decided on their own lines; `standard(text)`: a standard name."""
    by_style: dict[tuple, list[int]] = {}
    for i, style in heads:
        if blocks[i].level == 1:
            by_style.setdefault(style, []).append(i)
    for members in by_style.values():
        own = set(members)
        parents = [i for i in members if i + 1 in own and not standard(blocks[i + 1].text)
                   and blocks[i + 1].page == blocks[i].page]
        if not parents or sum(bool(standard(blocks[i].text)) for i in members) < 3:
            continue  # (a style with fewer than three standard names: an appendix's label over its title)
        for i in members:
            if i > parents[0] and i not in parents and not standard(blocks[i].text):
                blocks[i].level = 2


def no_skipped_levels(blocks: list, numbered) -> None:
    """An unnumbered heading opens at most one level below the heading it sits under: a paper's
    outline never skips a level.  Style ranks count every style a candidate was set in (the authors'
    bold line, a bold abstract, a larger label), so a paper's only sub-heading style may rank fourth
    under its sections ("Results" then "Effect of NaCl on …" at level 4): it is their sub-section,
    and its siblings (the same level before) with it.  `numbered(text)`: the heading carries a
    number, whose depth is its level."""
    open_: list[tuple[int, int]] = []  # (level decided, level given) of the headings above, outermost first
    for b in blocks:
        if b.kind != "heading":
            continue
        decided, sibling = b.level, None
        while open_ and open_[-1][0] >= decided:
            d, given = open_.pop()
            sibling = given if d == decided else sibling
        if not numbered(b.text) and sibling is not None:
            b.level = sibling  # the level its sibling was given
        elif not numbered(b.text) and open_ and decided > open_[-1][1] + 1:
            b.level = open_[-1][1] + 1
        open_.append((decided, b.level))
