"""Captions set side by side, run into one line by pdfium.

Two figures (or tables) side by side carry their captions side by side.  When the captions' lines
share a baseline, pdfium's text runs them into one line ("Figure 7: Responsiveness … Zipf Figure 8:
Responsiveness …") whenever the gutter between them is narrower than the gap at which a line is cut
into pieces (`script_boxes._pieces`, 2.5 em: a table's cells are set closer than that).  The second
caption would then be lost inside the first.  A line is cut where a caption's label opens after a gap
wider than 0.6 em and than twice the line's usual word space (a loose justified line stretches all
its spaces alike), so each caption starts a line of its own; a label cited in a sentence ("as Figure 8
shows") is neither set after such a gap nor followed by a caption's separator.  A label starting left
of the text before it on its row (a table's cell run in before a caption set in a margin column) is
cut off likewise.
"""

from __future__ import annotations

import re

from ...captions import parse_caption
from ..text.glyphs import u16

_LABEL = re.compile(r"\s(?=(?:Fig(?:ure|ura)?|FIG(?:URE)?|Tab(?:le|la|ela|ella|elle|leau)?|TABLE|Abb(?:ildung)?)"
                    r"\.?\s*(?:S?\d|[IVX]+\b))")
_WORD_SPACE = 0.6  # em: wider than a word space set tight, narrower than a gutter between captions


def caption_cuts(tp, chunk: str, start16: int, gutters: list[list[float]]) -> list[tuple[str, int]]:
    """The chunk of pdfium text (starting at UTF-16 index `start16`) as pieces, each with its start:
    cut before every caption label set a gutter after the text before it, and, on the rows right
    below such a cut (the captions' next lines, run together too), where the text crosses the same
    gutter.  `gutters` carries [x, row bottom, size] of the page's cuts from one chunk to the next."""
    near = [g for g in gutters if g[1] > -1]
    if not near and not ("ig" in chunk or "IG" in chunk or "ab" in chunk or "AB" in chunk or "Abb" in chunk):
        return [(chunk, start16)]
    labels = [m.end() for m in _LABEL.finditer(chunk) if chunk[:m.start()].strip() and parse_caption(chunk[m.end():])]
    if not labels and not near:
        return [(chunk, start16)]
    spaces = _spaces(tp, chunk, start16)
    size = tp.font_size(max(tp.char_index(start16), 0))
    cuts = [at for at in labels if _gutter(spaces, at, size)]
    for g in near:
        below = [at for at, (_, x, bottom) in spaces.items() if abs(x - g[0]) < 1.5 and 0 < bottom - g[1] < 2 * g[2]]
        cuts += [at for at in below if _gutter(spaces, at, size, aligned=True)]
        g[1] = max([spaces[at][2] for at in below], default=-2.0)  # the gutter's caption rows go on, or end
    gutters.extend([spaces[at][1], spaces[at][2], size] for at in cuts)
    bounds = [0] + sorted(set(cuts)) + [len(chunk)]
    return [(chunk[a:b], start16 + u16(chunk[:a])) for a, b in zip(bounds, bounds[1:])]


def _spaces(tp, chunk: str, start16: int) -> dict[int, tuple[float, float, float]]:
    """Each run of spaces between two glyphs on one row, by where the next word starts: its width,
    where the next word starts and the row's bottom."""
    out: dict[int, tuple[float, float, float]] = {}
    for m in re.finditer(r"(?<=\S)\s+(?=\S)", chunk):
        a = tp.char_index(start16 + u16(chunk[:m.start()]) - 1)
        b = tp.char_index(start16 + u16(chunk[:m.end()]))
        if a < 0 or b < 0:
            continue
        prev, nxt = tp.char_box(a), tp.char_box(b)
        if min(prev[3], nxt[3]) - max(prev[1], nxt[1]) > -0.5 * (prev[3] - prev[1]):  # on one row
            out[m.end()] = (nxt[0] - prev[2], nxt[0], max(prev[3], nxt[3]))
    return out


def _gutter(spaces: dict[int, tuple[float, float, float]], at: int, size: float, aligned: bool = False) -> bool:
    """Is the space before `at` a gutter: wider than 0.6 em and than twice the line's usual word
    space (a loose justified line stretches all its spaces alike)?  Under a caption cut apart, where
    the next word starts exactly where the caption beside started (`aligned`), wider than a third
    of an em and half again the usual word space is enough: a wrapped caption's line may end short
    of its column's edge."""
    if at not in spaces:
        return False
    gap = spaces[at][0]
    if gap < -size and not aligned:
        return True  # the label starts left of the text before it on its row: text of another column run in
    words = sorted(w for k, (w, _, _) in spaces.items() if k != at)
    em, ratio = (0.3, 1.5) if aligned else (_WORD_SPACE, 2.0)
    return gap > em * size and (not words or gap > ratio * words[len(words) // 2])
