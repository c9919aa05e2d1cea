"""pdfium's character index of every position of a page's text, asked of pdfium at a few positions.

`FPDFText_GetCharIndexFromTextIndex` walks the page's runs of text characters on every call, and a
page's lines ask it for most of their characters.  Its answers rise strictly with the position
(the runs are the page's characters in order, split where pdfium leaves a character out of its
text) and are -1 from the end of its text on; so where the answers at two positions lie as far
apart as the positions, every position between answers in step, and a page's map is found with a
few calls per run.
"""

from __future__ import annotations

from . import bare_calls as pdfium


def char_indices(textpage, length: int) -> list[int]:
    """`FPDFText_GetCharIndexFromTextIndex` at every position 0 … `length` - 1."""
    out = [-1] * length
    if length <= 0:
        return out
    ask = pdfium.GetCharIndexFromTextIndex
    spans = [(0, length - 1, ask(textpage, 0), ask(textpage, length - 1))]
    while spans:
        a, b, at_a, at_b = spans.pop()
        if at_a < 0:  # past the end of pdfium's text (`out` holds -1 there)
            continue
        if at_b - at_a == b - a:  # in step: every position between too
            out[a:b + 1] = range(at_a, at_b + 1)
        elif b - a == 1:
            out[a], out[b] = at_a, at_b
        else:
            m = (a + b) // 2
            at_m = ask(textpage, m)
            spans += [(a, m, at_a, at_m), (m, b, at_m, at_b)]
    return out
