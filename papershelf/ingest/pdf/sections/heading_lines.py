"""Where a heading's lines end while a column is cut into paragraphs: a title wrapped onto a second
line stays one paragraph, and the text below it starts another.  Judged on the lines' own style
(size, weight, slant, face), not on any publisher's layout: a heading set in italics wraps in
italics, a heading set in small bold print ends where the small roman text under it begins."""

from __future__ import annotations

import re

from .heading_style import _NUMBERED, BodyStyle, Para, _plausible_title, capitals, is_standard, strong

# A line opening with a section number: "3", "3.1", "A.1", or "II." / "A." with their period (a bare
# "A" may be the article starting a title's second line).
_OWN_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*[.):]?|[A-Z](?:\.\d+)+[.):]?|(?:[IVX]+|[A-Z])[.):])\s+[A-Z]")


def _heading_goes_on(prev, ln, body: BodyStyle, pitch: float) -> bool:
    """A heading wrapped onto a second line: the next line is set close below in the same
    heading style ("3.1 Representing and manipulating" / "visually-rich documents with magelib").  A line
    that opens with its own section number ("APPENDIX" / "A. RELATED WORK") is a heading of its own,
    and so is a line in mixed case under one in capitals ("METHODS" / "School recruitment"), and a
    capitalised line under a standard name, which is a whole title ("Introduction" / "HCI and
    smartphones" where a paper sets sections and sub-sections alike).  The style may be italics
    at the body's size (a sub-heading "2.2 Dose response of the pathway in" / "tissues under …"),
    or bold in small print."""
    same_style = (
        abs(ln.size - prev.size) < 0.3
        and ln.bold == prev.bold
        and ln.face == prev.face
        and ln.italic == prev.italic
        and not (capitals(prev.text) and not capitals(ln.text))
    )
    whole = is_standard(prev.text) and not ln.text[:1].islower()
    apart = strong(prev, body) or prev.italic or small_bold(prev, body) or _centred_capitals(prev, ln)
    return same_style and apart and pitch < 1.5 * prev.size and not _OWN_NUMBER.match(ln.text) and not whole


def _centred_capitals(prev, ln) -> bool:
    """A numbered title in capitals of the body's own weight (IEEE's small capitals) wrapped onto a
    shorter line centred under it ("V. COMPARATIVE ANALYSIS OF FEATURE SELECTION" / "TECHNIQUES
    BASED ON QUALITY METRICS"): two centred lines in capitals are no paragraph's."""
    mid_a, mid_b = (prev.x0 + prev.x1) / 2, (ln.x0 + ln.x1) / 2
    return bool(_OWN_NUMBER.match(prev.text)) and capitals(prev.text) and capitals(ln.text) \
        and abs(mid_a - mid_b) < prev.size and ln.x0 > prev.x0 + prev.size and ln.x1 < prev.x1 - prev.size


def _out_of_heading(lines: list, ln) -> bool:
    """A heading wrapped onto a second line ends where the text leaves its style: the body's first
    line under a two-line heading set half a point larger in another face of the family, or upright
    under a heading in italics, or in mixed case under a title in capitals of the body's own face."""
    head = lines[0]
    other_face = bool(head.face and ln.face) and ln.face != head.face
    return 1 < len(lines) <= 3 and (
        other_face or abs(ln.size - head.size) >= 0.3 or ln.bold != head.bold or ln.italic != head.italic
        or (all(capitals(x.text) for x in lines) and not capitals(ln.text))
    )


def small_bold(line, body: BodyStyle) -> bool:
    """A whole line in bold, short and with no sentence's end, set smaller than the body (but not
    a figure's far smaller labels): it may head a part of the paper set in small print ("Funding",
    "Availability of data and materials" over statements in 8.5 pt under 10 pt text), so the roman
    text under it starts a paragraph of its own."""
    text = line.text
    m = _NUMBERED.match(text)  # ("II. Acoustical Feature Preprocessing": the number's stop ends no sentence)
    return (
        line.bold
        and not body.bold
        and 0.7 * body.size <= line.size < body.size - 0.7
        and line.alone
        and len(text.split()) <= 10
        and not text.endswith((".", ",", ";", "-"))
        and _plausible_title(m.group("title") if m else text, True)
    )


def centred_title(p: Para, body: BodyStyle) -> bool:
    """A title wrapped onto two centred lines in the body's own style, the second read into its
    paragraph ("3. Dose response of the pathway in tissues under the conditions" / "below"): the
    first line sits in the column's middle, the second is shorter and centred under it.  A
    justified paragraph's lines share their middle too, but start at one edge."""
    if len(p.lines) != 2 or not p.centred:
        return False
    a, b = p.lines
    mid_a, mid_b = (a.x0 + a.x1) / 2, (b.x0 + b.x1) / 2
    return a.alone and b.alone and min(a.size, b.size) >= body.size - 0.5 and abs(mid_a - mid_b) < a.size \
        and b.x0 > a.x0 + 2 * a.size and (p.gap_above is None or p.gap_above >= 1.45)


def centred_line(p: Para) -> bool:
    """One line visibly centred: well in from the column's edge, with space above, and whole (a list
    item's first line may sit in the middle of a column too, but close under the text before it,
    or breaking off mid-word)."""
    spaced = p.gap_above is None or p.gap_above >= 1.45
    return len(p.lines) == 1 and p.centred and spaced and p.indent >= 3 * p.first.size \
        and not p.text.rstrip().endswith(("-", "\x02", ","))


_FIELD = re.compile(r"^([A-Z][\w -]{0,24}:)\s+\S")


def short_field(p, lead: str = "") -> bool:
    """A "Label: value" on one line whose value is a few words ("Accepted: January 6, 2016", "Id:
    87_1", "Answer: a rondo"): a form's or an example's field, never a section with its text.  `lead`
    is the paragraph's colon-ended lead-in when known, else a capitalised label and colon opening it."""
    if p is None or len(p.lines) != 1:
        return False
    label = lead or (m.group(1) if (m := _FIELD.match(p.text)) else "")
    return bool(label) and len(p.text[len(label):].split()) <= 5


_APPENDIX = re.compile(r"^(?:appendix|appendices|supplement)", re.IGNORECASE)
# A reference entry's opening: a surname and initials ("Loughran NB,", "Pond S.", "Yang Z, Dos Reis M")
# or a year of publication anywhere in it.
_ENTRY = re.compile(r"^(?:[A-Z][\w'’-]*(?:,|\s[A-Z]\.|\s[A-Z]{1,3}\b)|.*\b(?:1[89]|20)\d\d[a-z]?\b)")


def entry_like(text: str) -> bool:
    """Inside a reference list, does the line read as an entry (authors first, or a year)?  Lists that
    set their authors in bold look like headings line by line; a section that follows the list has a
    standard name, a number, or a title of words without a year."""
    return bool(_ENTRY.match(text)) and not is_standard(text) and not _APPENDIX.match(text)


def one_style(lines: list) -> bool:
    """Every line set in the first's size, weight, slant and face: a title's lines, not a heading
    and the text under it."""
    a = lines[0]
    return all(abs(b.size - a.size) < 0.3 and (b.bold, b.italic, b.face) == (a.bold, a.italic, a.face) for b in lines)


def wrapped(lines: list, right: float) -> bool:
    """Lines broken where the column ends: each line but the last stops where the next line's first
    word would have run past the column's right edge `right` (a list of short labels stops early)."""
    for a, b in zip(lines, lines[1:]):
        word = b.text.split()[0] if b.text.strip() else ""
        if a.x1 + 0.55 * a.size * (len(word) + 1) < right - 1.5 * a.size:
            return False
    return True


def italic_title_sizes(paras: list[Para], body: BodyStyle) -> set[float]:
    """Sizes in which the paper sets short italic titles a little below the body's size, each alone
    with space above and over a paragraph of larger upright text ("K-turn" and "Ribose zipper" in
    9 pt italics over 10 pt text): a sub-heading style when it heads three paragraphs or more (a
    lone italic line over text may be a quotation or a formula's name; a style used three times
    with the same spacing is the paper's own; a column's first line has no space above to show)."""
    counts: dict[float, int] = {}
    for p, nxt in zip(paras, paras[1:]):
        ln = p.first
        if len(p.lines) != 1 or not ln.italic or not ln.alone or p.in_figure or (p.gap_above or 9) < 1.45:
            continue
        if not 0.8 * body.size <= ln.size < body.size - 0.6 or len(p.text.split()) > 10:
            continue
        below = nxt.first
        if below.italic or below.size < ln.size + 0.5 or below.page != ln.page or not nxt.text[:1].isupper():
            continue
        if _plausible_title(p.text, False):
            key = round(ln.size * 2) / 2
            counts[key] = counts.get(key, 0) + 1
    return {size for size, n in counts.items() if n >= 3}
