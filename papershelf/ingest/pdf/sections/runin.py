"""The run-in lead-in of a PDF line: "Training. We …" or "2.2. Closeness centrality. The farness …",
a heading set in the line's first words in bold, a face of its own, or italics, with the paragraph's
text going on in the text's roman on the same line.  Read from pdfium's fonts character by
character (lines.py's `_TextPage`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..text.glyphs import u16

if TYPE_CHECKING:
    from ..text.lines import _TextPage

_LEAD_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-Z]\.)\s+")


def _runin(tp: _TextPage, text: str, lead16: int, last: int) -> str:
    """The lead-in of a line that starts in a heading font (after its number, which may be roman)
    and goes on in the text's: "Training. We ..." or "2.2. Closeness centrality. The farness ...".
    The heading font is bold, an upright face other than the text's (small capitals), or italic
    in a line that goes on upright."""
    m = _LEAD_NUMBER.match(text)
    last = _upright_end(tp, text, lead16, last)
    rest = tp._font(last)
    start = _past_math(tp, text, lead16, m.end(), rest) if m else 0
    upright = not tp.slanted(last)

    def marks(i: int) -> bool:
        return tp.marks(i, rest) or (upright and tp.slanted(i))

    if tp.bold(last) or not marks(tp.char_index(lead16 + u16(text[:start]))):
        return ""
    for m in re.finditer(r"(?:[.:]\s+|—\s*)(?=\S)", text[start:start + 90]):  # "Study sites—We …"
        end = start + m.start()
        # the closing dash, or a bold lead-in's period, is often set in the text's font
        # ("Western blot." with a roman period): the lead-in's style is judged on the character
        # before it (not an italic lead-in's: an italic book title's roman period in a reference)
        last_letter = tp.char_index(lead16 + u16(text[:max(start, end - 1)]))
        own = text[end] == "—" or (text[end] == "." and tp.bold(last_letter))
        before = last_letter if own else tp.char_index(lead16 + u16(text[:end]))
        after = tp.char_index(lead16 + u16(text[:start + m.end()]))
        if marks(before) and not marks(after):
            return text[:end + 1]
        if not marks(before):
            break
    return ""


def _upright_end(tp: _TextPage, text: str, lead16: int, last: int) -> int:
    """The line's last letter set in roman, where its last character is slanted: a paragraph's text
    goes on in roman after an italic lead-in though the line ends in an italic name ("Bacterial
    strains. Cells of Escherichia coli")."""
    if not tp.slanted(last):
        return last
    for k in range(len(text) - 1, max(-1, len(text) - 60), -1):
        i = tp.char_index(lead16 + u16(text[:k])) if text[k].isalpha() else -1
        if i >= 0 and not tp.slanted(i) and not tp.bold(i):
            return i
    return last


def _bold_lead(tp: _TextPage, lead: str, lead16: int) -> bool:
    """Does the lead-in's title (after its number) start in bold?"""
    return tp.bold(_lead_title_char(lead, lead16, tp))


def _italic_lead(tp: _TextPage, lead: str, lead16: int) -> bool:
    """Is the lead-in's title (after its number) slanted, and in no bold or other face?"""
    return tp.slanted(i := _lead_title_char(lead, lead16, tp)) and not tp.bold(i)


def _lead_title_char(lead: str, lead16: int, tp: _TextPage) -> int:
    m = _LEAD_NUMBER.match(lead)
    return tp.char_index(lead16 + u16(lead[:_past_math(tp, lead, lead16, m.end(), b"") if m else 0]))


_MATH_TOKEN = re.compile(r"[^\s-]{1,6}[-\s]")


def _past_math(tp: _TextPage, text: str, lead16: int, start: int, rest: bytes) -> int:
    """Where a numbered lead-in's words start: "8.2. k-sparse vectors." and "6.2. ℓ2,1-constrained
    case." open with a symbol in a math font, which marks nothing (neither bold nor a text face);
    the heading's weight shows on the words after it."""
    name = tp._font(tp.char_index(lead16 + u16(text[:start])))
    if tp.faces[name] or tp.bold_fonts[name] or tp.italic_fonts[name] or name == rest:
        return start
    m = _MATH_TOKEN.match(text, start)
    return m.end() if m and m.end() < len(text) else start


def _first_runin(tp: _TextPage, stripped: str, lead16: int, last: int, parts: list[str], stacked: bool) -> str:
    """The lead-in of the chunk's first visual line (pdfium sometimes joins a line to the next one)."""
    if len(parts) == 1:
        return _runin(tp, stripped, lead16, last)
    head = parts[0].strip()
    if not stacked or not head or not stripped.startswith(head):
        return ""
    return _runin(tp, head, lead16, tp.char_index(lead16 + u16(head) - 1))
