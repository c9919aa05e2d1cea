"""Which glyphs of a line say its weight: a bold line is bold from its first word to its last, but
the marks around a title (a roman "(a)" label opening it, a raised affiliation mark, a closing
symbol in a math font, a footnote's dagger) are set in fonts of their own and say nothing of it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .glyphs import u16

if TYPE_CHECKING:
    from .lines import _TextPage

_LABEL = re.compile(r"\((?:[a-zA-Z]|[ivx]{1,4}|\d{1,2})\)\s+(?=\S)")  # "(a) ", "(iv) ", "(2) " opening a line
# a closing citation of the paper's figures or plates, "(Figs 1 and 2)", "(Fig. 3)", "(Pl. II, figs 4–6)"
_FIGURE_TAIL = re.compile(r"\((?:Figs?|Figures?|Plates?|Pls?|Tables?)\.?\s[^()]{1,30}\)$")  # no leading \s*: linear
_TRAILING_MARKS = "†‡∗*♦♠♣♥♢♡◦§¶#✉⋆—"  # and the dash closing a heading run in on the next line


def after_label(tp: _TextPage, stripped: str, lead16: int, first: int, last: int) -> int:
    """The line's first glyph after a bracketed label that opens it in a font of its own ("(a)" in
    roman before a bold-italic sub-section title, as the Royal Society sets them): the label's
    font is no part of the title's weight or slant.  A label in the title's own font changes nothing."""
    m = _LABEL.match(stripped)
    if not m:
        return first
    at = tp.char_index(lead16 + u16(stripped[:m.end()]))
    return at if first < at <= last and tp._font(at) != tp._font(first) else first


def after_mark(tp: _TextPage, stripped: str, lead16: int, first: int, last: int) -> int:
    """The line's first glyph after the raised mark that opens it ("1,3*" before "Gus Holm")."""
    k = len(stripped) - len(stripped.lstrip("0123456789,;.*∗†‡§¶# "))
    at = tp.char_index(lead16 + u16(stripped[:k])) if 0 < k < len(stripped) else first
    return at if first <= at <= last else first


def last_word_char(tp: _TextPage, stripped: str, lead16: int, last: int, size: float) -> int:
    """The line's last letter or digit: a closing mark (a footnote's †, ♣ or ∗) is often set in a
    symbol font without weight, and would make a bold author line or title read as roman.  So is a
    closing citation of the paper's figures in roman ("Philometra saltatrix Ramachandran, 1973 (Figs 4
    and 5)", a taxonomic paper's heading for a species): the weight is the words' before it."""
    tail = _FIGURE_TAIL.search(stripped)
    before = stripped[:tail.start()].rstrip() if tail else ""  # the words before the citation
    if tail and before and not tp.bold(last):
        at = tp.char_index(lead16 + u16(before) - 1)
        return at if 0 <= at <= last else last
    end = len(stripped.rstrip(_TRAILING_MARKS + ",; 0123456789"))
    # a closing symbol, or a raised number in a smaller size (an affiliation's mark, "Holm and ^1")
    closing = stripped[-1:] in _TRAILING_MARKS or stripped[-1:].isdigit() and tp.font_size(last) < 0.85 * size
    if not closing or end == 0:
        end = _before_math_word(tp, stripped, lead16, last)
        if end == 0:
            return last
    at = tp.char_index(lead16 + u16(stripped[:end]) - 1)
    return at if 0 <= at <= last else last


def _before_math_word(tp: _TextPage, stripped: str, lead16: int, last: int) -> int:
    """Where a bold line's text ends before a closing symbol ("… of the increment mµ", its "mµ" in a
    math font that has no weight), or 0 when the line ends in a word of text (or is not bold)."""
    name = tp._font(last)
    cut = stripped.rfind(" ")
    if tp.faces[name] or tp.bold_fonts[name] or cut < 1 or len(stripped) - cut > 5:
        return 0
    symbol = stripped[cut + 1:]
    math = tp.italic_fonts[name] or not symbol.isascii()  # a symbol in math italic, or a Greek letter
    return len(stripped[:cut].rstrip()) if math and tp.bold(tp.char_index(lead16 + u16(stripped[:cut]) - 1)) else 0
