"""What single lines say of a heading, asked outside the heading decider: can a line open a heading
(the paragraph cutter starts a new paragraph there), does a line's wording name a section (a region
ends at one), and does a heading's title go on in the next paragraph (a title broken over two lines).
"""

from __future__ import annotations

from ...captions import CAPTION_RE
from .heading_levels import spaced_number
from .heading_lines import small_bold, wrapped
from .heading_style import _NUMBERED, _STANDARD_RE, BodyStyle, Para, _plausible_title, capitals, is_standard, strong


def wraps_onto(head: Para, nxt: Para, body: BodyStyle, right: float = 0.0) -> bool:
    """A strong one-line heading's title goes on in the next paragraph: one line in the same size,
    weight and face set close below it, starting at the heading's left edge or indented to its
    title's (a hanging indent after "3.2"), and no number or standard name of its own.  (Cut apart
    when the heading crosses the page's middle and its short second line does not.)  A centred
    title goes on in a line centred under it, in any weight and even in capitals ("3. Constructing
    language courses in" / "CALL-SLT"): two centred lines in a row are no paragraph's."""
    a, b = head.first, nxt.first
    centred = head.centred and nxt.centred and abs((a.x0 + a.x1) / 2 - (b.x0 + b.x1) / 2) < a.size  # "CALL-SLT"
    if len(head.lines) != 1 or len(nxt.lines) != 1 or not (strong(a, body) or centred) or nxt.gap_above is None:
        return False
    slant = a.italic == b.italic and a.face == b.face or a.bold and b.bold and right > 0 and wrapped([a, b], right)
    same = abs(a.size - b.size) < 0.3 and a.bold == b.bold and slant \
        and (capitals(a.text) == capitals(b.text)  # "METHODS" / "School recruitment" are two headings
             or (centred and not capitals(a.text)))  # a centred title's acronym on its own line
    aligned = (-2 < b.x0 - a.x0 < 4 * a.size or centred) and b.page == a.page and b.top > a.top
    own = _NUMBERED.match(nxt.text) or is_standard(nxt.text) or CAPTION_RE.match(nxt.text) \
        or (is_standard(head.text) and not nxt.text[:1].islower())  # "Introduction" is a whole title
    return same and aligned and nxt.gap_above < 1.5 and not own and nxt.text[:1].isalpha()


def line_starts_heading(line, body: BodyStyle) -> bool:
    """Cheap test while cutting paragraphs: could this line open a heading?"""
    text = spaced_number(line.text)
    if len(text.split()) > 14:
        return False
    if strong(line, body) or _STANDARD_RE.match(text.rstrip(".:")) or small_bold(line, body):
        return True
    if line.italic and line.alone and len(text.split()) <= 12 and not text.endswith((".", ":", ",")) \
            and _plausible_title(text, False):
        return True  # an italic sub-heading: the paragraph below it starts anew
    m = _NUMBERED.match(text)
    return bool(m and m.group("num")[0].isdigit() and _plausible_title(m.group("title"), False)) \
        or lettered_heading(line)


def lettered_heading(line) -> bool:
    """A roman or letter number opens a heading when its title is in capitals ("IV. EXPERIMENTAL
    RESULTS" in IEEE's small capitals, set in the body's size and weight) or the line is in italics
    ("E. AIRS-Parallel"); otherwise it is as often a list item."""
    m = _NUMBERED.match(spaced_number(line.text))
    return bool(m and not m.group("num")[0].isdigit() and (capitals(m.group("title")) or line.italic)
                and _plausible_title(m.group("title"), False))


def lettered_section(line, body: BodyStyle) -> bool:
    """A letter-numbered line set as a paper's sections are, bold and larger than the body ("B
    Parameters", an appendix's): a heading whatever its title's case, where `lettered_heading` asks
    capitals or italics of a line in the body's own size (a list's "B. Second item")."""
    m = _NUMBERED.match(line.text)
    return bool(m and not m.group("num")[0].isdigit() and line.bold and line.size >= body.size + 0.8
                and _plausible_title(m.group("title"), True))


def names_section(text: str) -> bool:
    """Does the text read as a section title by its words alone (a standard name, or a number
    that opens a plausible title)?  Style is left out: figures are full of bold short labels."""
    if len(text.split()) > 14:
        return False
    if _STANDARD_RE.match(text.rstrip(".:")):
        return True
    m = _NUMBERED.match(text)
    return bool(m and m.group("num")[0].isdigit() and _plausible_title(m.group("title"), False))
