"""The size page 1's title is set in, from the size tiers of the top half of the page (`title_size`):
the largest text, unless text that large is a label or a journal's name over a longer title.  Used by
`title.take_title`; moved out of `meta.py` (front12)."""

from __future__ import annotations

from ..text.lines import Line
from .authors import names_alone
from .meta import _SECTION_LINE, ARTICLE_TYPE, VENUE_NAME
from .title_masthead import is_masthead
from .title_wrap import set_apart


def title_size(lines: list[tuple[float, str, float]], body: float, top_half: list[Line] | None = None) -> float:
    """The size the title is set in, given the top half of page 1's lines as (size, text, top): the
    largest, unless text that large is a label of a word or three (a journal's name as its logo, an
    article type such as "Research Article" or "Case Report") or a journal's name of any length
    ("International Journal of …", "… Letters") printed above a longer text set larger
    than the body, one line to a row (not an author block's cells), not a section heading and not
    names alone (a byline set large under a title of three words), which is then the title.  `top_half`
    (the lines themselves) lets a larger line of a word or three that no wrap broke be a label, not the
    title's first line set larger."""
    tiers = sorted({round(size * 2) / 2 for size, _, _ in lines}, reverse=True)

    def of(tier: float) -> list[tuple[float, str, float]]:
        return [ln for ln in lines if abs(ln[0] - tier) < 0.5]

    def words(tier: float) -> int:
        return sum(len(text.split()) for _, text, _ in of(tier))

    def first(tier: float) -> float:  # by position: pdfium's order may put a logo after the title
        return min(top for size, _, top in lines if abs(size - tier) < 0.5)

    def title_like(tier: float, least: int = 4, names: bool = False) -> bool:  # names: a byline may be it
        tops = sorted(top for _, _, top in of(tier))
        one_per_row = all(b - a > 2 for a, b in zip(tops, tops[1:], strict=False))
        return tier >= body + 1.5 and words(tier) >= least and one_per_row \
            and not any(_SECTION_LINE.match(text) for _, text, _ in of(tier)) and (names or not byline(tier))

    def byline(tier: float) -> bool:  # every line of the tier reads as names: the authors, under a short title
        return all(names_alone(text) for _, text, _ in of(tier))

    def leads_on(tier: float) -> bool:  # a title's first line set larger, the rest right under it at its pitch
        row = of(tier)
        top = min(t for _, _, t in row)
        under = [(size, t) for size, _, t in lines if t > top + 0.5 * tier]
        if max(t for _, _, t in row) - top > 2 or not under:
            return False
        size, t = min(under, key=lambda st: st[1])
        if len(row) == 1 and top_half and _unwrapped(top_half, top, t):  # a label of a word or three set apart, larger
            return False
        return title_like(round(size * 2) / 2) and t - top <= 1.6 * tier and \
            not all(w in ARTICLE_TYPE for _, text, _ in row for w in text.lower().split())

    def label(tier: float) -> bool:  # a word or three, or a journal's name as its logo or set apart over the title
        return words(tier) <= 3 and not leads_on(tier) or all(VENUE_NAME.search(text) for _, text, _ in of(tier)) \
            or bool(top_half) and is_masthead([ln for ln in top_half or [] if abs(ln.size - tier) < 0.5],
                                              top_half or [], body)

    def typed(tier: float) -> bool:  # an article type's words alone ("Case Report"): a title of any length may follow
        return all(w in ARTICLE_TYPE for _, text, _ in of(tier) for w in text.lower().split())

    # where a skipped article-type label stands: the next title-like text under it is the title
    below_type = float("inf")
    for k, tier in enumerate(tiers):
        least = 1 if typed(tier) else 4
        after_type = first(tier) > below_type and title_like(tier, 1, names=True)  # under "Case Report": any words
        if after_type or not label(tier) or not any(title_like(t, least, names=typed(tier))
                                                    and (first(t) > first(tier) or _beside(top_half, t, tier))
                                                    for t in tiers[k + 1:]):
            return max(size for size, _, _ in of(tier))
        if typed(tier):
            below_type = min(below_type, first(tier))
    return max(size for size, _, _ in lines)


def _unwrapped(top_half: list[Line], top: float, under: float) -> bool:
    """The line at `top` was not wrapped into the line at `under` (`title_wrap.set_apart`: a word or three,
    the next line's first word would have fitted on it, clearly the shorter): a label over a title, not the
    title's first line set larger ("Registered Report" over "Developing primary palliative care")."""
    first = [ln for ln in top_half if ln.top == top]
    nxt = [ln for ln in top_half if ln.top == under]
    return len(first) == 1 and bool(nxt) and set_apart(first[0], nxt[:1])


def _beside(top_half: list[Line] | None, tier: float, label_tier: float) -> bool:
    """The label tier's lines stand in a column of their own beside the tier's (a sidebar's logo, which a scan's
    OCR reads as words, beside the title): no line of one spans across the other's."""
    if not top_half:
        return False
    mine = [ln for ln in top_half if abs(ln.size - tier) < 0.5]
    labels = [ln for ln in top_half if abs(ln.size - label_tier) < 0.5]
    return bool(mine) and bool(labels) and (max(ln.x1 for ln in labels) < min(ln.x0 for ln in mine)
                                            or min(ln.x0 for ln in labels) > max(ln.x1 for ln in mine))
