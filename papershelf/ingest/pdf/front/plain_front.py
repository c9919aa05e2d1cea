"""Front matter of a page 1 set in one size and weight, where neither size nor weight tells the title:
an OCR'd or typewritten proceedings page, an old journal's page whose byline runs on after the title.

Two structures are read.  A stack of lines centred on one axis at the top of the page, above the
abstract, each narrower than the text: its first lines, up to the first line of names alone, are the
title (`centred_stack`); the names are then read under it as any byline is.  And the byline old
journals print, "By A. B. SMITH and C. D. JONES.", alone on its line or closing the title's last line
("… conducting plates. By H. B. G. CASIMIR."), above the first line of prose (`by_line`).
"""

from __future__ import annotations

import re

from ...captions import CAPTION_RE
from ..text.lines import Line
from .authors import _STOP, line_names, names_alone
from .title_wrap import open_end

# "By" opening a line or a sentence of it, the rest of the line the names ("plates. By H . B. G. CASIMIR.")
_BY = re.compile(r"(?:^|[.;:]\s+|[-–—]\s+)B[yY]\s+(?=[A-ZÀ-ÖØ-Þ])(.+?)\.?\s*$")
_LOOSE_INITIAL = re.compile(r"\b([A-ZÀ-ÖØ-Þ])\s+\.")  # an OCR'd initial with its point set apart ("H . B.")


def by_line(lines: list[Line]) -> list[str]:
    """The names of a "By …" byline among page 1's first five lines (a header, a title of up to three
    lines, the byline: a "By" further down opens a sentence of the text), above its abstract, when every
    word after "By" to the line's end is a name (its marks and ", F.R.S." aside)."""
    for ln in sorted(lines, key=lambda ln: (ln.top, ln.x0))[:5]:
        if _STOP.match(ln.text):
            return []
        m = _BY.search(ln.text)
        if m:
            names = _LOOSE_INITIAL.sub(r"\1.", m.group(1))
            if names_alone(names):
                return line_names(names) or []
    return []


def centred_stack(top_half: list[Line], width: float, body: float) -> list[Line]:
    """The title of a page whose top is set in the body's size and weight: the first line of a stack of
    lines centred on one axis (each narrower than 0.8 of the text, the next at most two lines down, up to
    the abstract or a heading: the body's lines are wider) and the lines under it that are no names,
    one to three lines, when a line of names alone follows them in the stack; else none."""
    tops = sorted(top_half, key=lambda ln: ln.top)
    if not tops or any(abs(ln.size - body) > 0.6 or ln.bold for ln in tops[:6]):
        return []
    text = max(ln.x1 for ln in top_half) - min(ln.x0 for ln in top_half)
    axis = (tops[0].x0 + tops[0].x1) / 2
    stack: list[Line] = []
    for ln in tops:
        off = abs((ln.x0 + ln.x1) / 2 - axis) > 0.04 * width or ln.x1 - ln.x0 > 0.8 * text
        if off or (stack and ln.top - stack[-1].bottom > 2 * ln.size) or _STOP.match(ln.text):
            break
        stack.append(ln)
    title = stack[:1]  # the stack opens with the title, whatever its words read like ("Deep Structured Models")
    for ln in stack[1:]:
        if names_alone(ln.text) and not open_end(title[-1]):  # a line ending "… at a" runs on, whatever follows
            break
        title.append(ln)
    named = len(stack) > len(title)
    if not named or not 1 <= len(title) <= 3 or any(CAPTION_RE.match(ln.text) for ln in title):
        return []
    return title
