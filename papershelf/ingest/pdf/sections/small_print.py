"""Headings of a part of the paper set in small print: methods, declarations and other back matter
that a journal sets a size or two below the running text, headings and all.

Against the paper's body size such a heading is not set apart ("Western blot" in 9 pt bold under
10 pt text is smaller than the text), so it has to be judged against its own part's text: a short
title alone on its line, with space above it, in bold, italics or another face, over a long
paragraph set in its own smaller size and in roman.  One such line may be anything (a bold label of
a figure, a sidebar's "Correspondence to"); the paper's own structure decides: the style must head
two or more paragraphs that way.
"""

from __future__ import annotations

from collections import Counter

from ...captions import CAPTION_RE
from .heading_lines import one_style
from .heading_style import _NUMBERED, _OUTSIDE_RE, BodyStyle, Para, _plausible_title

SmallStyle = tuple[float, bool, bool, str]


def small_style(line) -> SmallStyle:
    return (round(line.size * 2) / 2, bool(line.bold), bool(line.italic), line.face)


def small_title(p: Para, nxt: Para | None, body: BodyStyle, known: bool = False) -> bool:
    """Is `p` set as a heading over `nxt` inside small print (see the module's docstring)?  `known`:
    the style already heads two long paragraphs in this paper, so the text under this one may be a
    short statement of its own ("Not applicable.")."""
    ln = p.first
    if not _title_lines(p) or p.in_figure or body.bold or nxt is None:
        return False
    if not 0.7 * body.size <= ln.size < body.size - 0.7:
        return False  # a size of the body's own is judged by the body's rules
    if p.gap_above is not None and p.gap_above < 1.45:
        return False  # space above it, as headings are set (or a column's top)
    text = nxt.first
    if nxt.first.page != ln.page or abs(text.size - ln.size) > 0.3 or len(nxt.text) < (8 if known else 80):
        return False  # over a paragraph of its own small size, not a figure's short labels
    apart = (
        (ln.bold and not text.bold)
        or (ln.italic and not text.italic and not text.bold)
        or (bool(ln.face and text.face) and ln.face != text.face and not text.bold)
    )
    m = _NUMBERED.match(p.text)  # "7. ACKNOWLEDGMENTS": the title after its number
    title = m["title"] if m else p.text
    opens = nxt.text[:1].isupper() or nxt.text[:1] in "[0123456789"  # a sentence, or a reference list
    return (
        apart
        and opens
        and len(title.split()) <= (12 if len(p.lines) == 1 else 10 * len(p.lines))  # as any unnumbered heading's
        and not title.endswith((".", ",", ";", ":"))  # "PVLDB Reference Format:" labels its text
        and not CAPTION_RE.match(p.text)
        and _plausible_title(" ".join(title.split()[:12]), True)  # (a wrapped one judged by its first words)
    )


def _title_lines(p: Para) -> bool:
    """One line alone, or a long title wrapped onto two or three lines of one style, each alone
    ("Comparison of the model with earlier" / "studies of the same pathway"): small print wraps a
    heading as soon as the body does, and the paper's other small-print headings vouch for its style."""
    return len(p.lines) <= 3 and all(x.alone for x in p.lines) and one_style(p.lines)


def small_heading_styles(paras: list[Para], body: BodyStyle) -> set[SmallStyle]:
    """Styles that head two or more small-print paragraphs in this paper; or, past the title page,
    that set a back matter name ("Funding", "Competing interests") and at least two other names over
    statements of any length: declarations whose statements are mostly "Not applicable."  (A
    front-page sidebar sets "Funding" over a short statement too, but on the title page.)"""
    pairs = list(zip(paras, paras[1:]))
    seen = Counter(small_style(p.first) for p, nxt in pairs if small_title(p, nxt, body))
    styles = {style for style, n in seen.items() if n >= 2}
    first = min((p.first.page for p in paras), default=1)
    short = [p for p, nxt in pairs if p.first.page > first and small_title(p, nxt, body, known=True)]
    named = {small_style(p.first) for p in short if _OUTSIDE_RE.match(p.text.strip().rstrip(".:"))}
    counts = Counter(small_style(p.first) for p in short)
    return styles | {style for style in named if counts[style] >= 3}
