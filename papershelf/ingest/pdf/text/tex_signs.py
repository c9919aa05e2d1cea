"""Signs of TeX's math symbol font (cmsy) that pdfium gives as the letter or digit of their code.

Without a usable ToUnicode map pdfium names a glyph through Adobe's glyph list; cmsy's own encoding (OMS)
names some of its glyphs with names that list does not hold (``angbracketleft``, ``angbracketright``,
``bardbl``, ``prime`` in some subsets), and pdfium then falls back to the code's ASCII character: the
ket ``⟨z, x⟩`` reads "hz, xi", a norm ``‖x‖`` reads "kxk", a prime ``x′`` reads "x0".  Which font set
the glyph decides it, not a list of words: such a character is read from the OMS encoding only when
its font is cmsy-like (TeX's symbol fonts by name, after a subset's prefix).

Only characters where a sign can stand are asked for their font (an "h" opening a token, an "i"
closing one, a "k" at either end, a "0" after a letter or a script mark): a few font look-ups a page;
every "h", "i", "k" of a line where one was a sign.
"""

from __future__ import annotations

import re
from typing import Protocol

# TeX's OMS encoding (cmsy), codes 0x20-0x7F; A-Z are its calligraphic capitals, read as the letters.
_OMS_HIGH = ("←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝"
             "′∞∈∋△▽\u0338\u200b∀∃¬∅ℜℑ⊤⊥"
             "ℵABCDEFGHIJKLMNO"
             "PQRSTUVWXYZ∪∩⊎∧∨"
             "⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀"
             "√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠")
OMS = {chr(0x20 + k): sign for k, sign in enumerate(_OMS_HIGH)}
_CMSY = re.compile(r"^cmb?sy\d")
# Where a cmsy sign read as its code's character can stand: "h" opening a token (⟨), "i" closing
# one (⟩), "k" at either end (‖), "0" after a letter or a script mark (′).  Letters: [^\W\d_].
CANDIDATE = re.compile(r"(?<![^\W\d_])[hk]|[ik](?![^\W\d_])|(?:(?<=[^\W\d_])|(?<=\^))0(?!\d)")


class FontPage(Protocol):
    def char_index(self, text_index: int) -> int: ...
    def font_name(self, idx: int) -> str: ...


def read_tex_signs(tp: FontPage, text: str, lead16: int) -> str:
    """The text with each candidate character set in a cmsy font read from the font's encoding; once
    one is, every "h", "i", "k" of the text is asked too (a ket's "⟩u" closes inside a token).
    Same length in UTF-16 units (pdfium's positions): every sign is one unit."""
    found = [m.start() for m in CANDIDATE.finditer(text)]
    if not found:
        return text
    chars = list(text)
    read = _read(tp, chars, found, lead16)
    if read:
        _read(tp, chars, [i for i, c in enumerate(chars) if c in "hik" and i not in read], lead16)
    return "".join(chars)


def _read(tp: FontPage, chars: list[str], places: list[int], lead16: int) -> set[int]:
    """Read the characters at `places` that a cmsy font sets; the places read."""
    read, units = set(), _units_before(chars)
    for i in places:
        idx = tp.char_index(lead16 + units[i])
        if idx >= 0 and _CMSY.match(tp.font_name(idx)):
            chars[i] = OMS[chars[i]]
            read.add(i)
    return read


def _units_before(chars: list[str]) -> list[int] | range:
    """UTF-16 units before each character (pdfium counts positions in them; a sign read keeps the count):
    one pass, so a long line with many candidates stays linear; none at all for a line of the BMP only."""
    if max(chars, default="") < "\U00010000":  # every character one unit
        return range(len(chars))
    units, at = [], 0
    for c in chars:
        units.append(at)
        at += 2 if ord(c) > 0xFFFF else 1
    return units
