"""The paper's title on its first page: the largest text of the page's top half, or a bold centred
line set barely above the body where nothing is larger (see `take_title`)."""

from __future__ import annotations

import re

from ....text import LEADING_SPACE
from ...captions import CAPTION_RE
from ..sections.heading_style import is_standard
from ..text.lines import Line, join_lines
from .authors import line_names, names_alone
from .meta import ARTICLE_TYPE, VENUE_NAME
from .plain_front import centred_stack
from .title_head import capital_head
from .title_tiers import title_size
from .title_wrap import runs_on, set_apart, width

# A note's mark after the title: a raised symbol, number or letter ("… from^a"), or a number in brackets
# ("… Bicarbonate [1]") or a note's symbol set apart on the line, unraised ("… Replacement Algorithm *")
_TITLE_NOTE = re.compile(LEADING_SPACE + r"(?:\^(?:[∗*†‡§¶⋆★☆✩✪,\s]+|(?<=\w{3}\^)(?:[\d,\s]+|[a-h](?:,[a-h])*))|"
                         r"(?<=\w)\s*\[\d{1,2}\]|"
                         r"(?<=\w)\s+[∗*†‡§¶⋆]{1,2})$")
FIRST_HEAD = re.compile(r"^(?:§?(?:\d+|[IVX]+)\.?\s+[A-Z]|abstract\b|introduction\b|keywords\b)", re.IGNORECASE)


def true_size(ln: Line) -> bool:
    """The line's stated size fits its glyph boxes: a font scaled by its text matrix can claim
    107 pt for a line 12 pt tall (an e-mail line in a scaled font), and is not the largest text."""
    if ln.size > 3 * max(ln.height, 1.0):
        return False
    # a drop cap gives a paragraph's first line its size: the line is far narrower than its words would be
    return len(ln.text) < 12 or ln.x1 - ln.x0 >= 0.25 * ln.size * len(ln.text)


def take_title(kept: list[Line], width: float, height: float, body: float) -> tuple[str | None, list[Line]]:
    """The largest text in the top half of page 1 in the weight of its first line (an author line
    set as large under a bold title is no part of it, nor is an "Abstract" set as large), and the
    page without it.  A title set barely
    larger than the body (bold capitals a point up) is still the title when it is the first text
    on the page, centred on it, bold, and not a caption, a numbered or a standard heading."""
    top_half = [ln for ln in kept if ln.top < 0.5 * height and len(ln.text) > 3 and true_size(ln)
                and not _corner(ln, width, height, kept)]
    if not top_half:
        return None, kept
    biggest = title_size([(ln.size, ln.text, ln.top) for ln in top_half], body, top_half)
    if biggest >= body + 1.5:
        big = _without_headings(_without_label([ln for ln in top_half if biggest - 0.5 <= ln.size < biggest + 0.5
                                                and not is_standard(ln.text)]))
        if not big:
            return None, kept
        big = _past_masthead(big, top_half)
        weight = min(big, key=lambda ln: ln.top).bold
        # authors set as large in roman are not it; the lines in the order they are printed
        title_lines = _one_block(sorted((ln for ln in big if ln.bold == weight), key=lambda ln: (round(ln.top), ln.x0)),
                                 top_half)
        title_lines = _goes_up(title_lines, top_half, body) + title_lines
        title_lines = capital_head(title_lines, top_half) + title_lines
        title_lines = title_lines + _short_wrap(title_lines, kept)
        title_lines = title_lines + _goes_on(title_lines, top_half, body)
    else:
        title_lines = _first_centred_bold(top_half, width, body, _title_page(kept, width)) \
            or centred_stack(top_half, width, body)
    if not title_lines:
        return None, kept
    own = _one_language(title_lines)  # the title's translation under it is set aside with it
    title_lines = own + _translation(own, top_half)
    # a note's mark ends a line of the title as well as its last ("… inferred from^a" over "the structure …")
    title = _TITLE_NOTE.sub("", join_lines([_TITLE_NOTE.sub("", ln.text) for ln in own])) or None  # hyphens join
    return title, [ln for ln in kept if ln not in title_lines]


_SUPPLEMENT = re.compile(r"^(?:[A-Z][\w&.-]*\s+){0,3}?(?:electronic\s+)?(?:supporting|supplementary|supplemental)\s+"
                         r"(?:online\s+)?(?:information|materials?|data|text|appendix|methods)$", re.IGNORECASE)


def supplement_title(title: str | None, title_lines: list[Line], page: list[Line]) -> str | None:
    """The title of a supplement ("Supporting information: <the paper's title>") when the line set
    right above the title, over its span, names the document a supplement: a supplement prints its
    paper's title, and without the label the two would read as one paper twice.  Running lines count
    here (a supplement's label is often repeated at the head of every page)."""
    if not title or not title_lines:
        return title
    first = min(title_lines, key=lambda ln: ln.top)
    left, right = min(ln.x0 for ln in title_lines), max(ln.x1 for ln in title_lines)
    above = [ln for ln in page if ln.bottom <= first.top + 1 and first.top - ln.bottom < 3 * first.size
             and ln.x1 > left and ln.x0 < right and ln not in title_lines]
    if not above:
        return title
    label = max(above, key=lambda ln: ln.bottom).text.strip()
    return f"{label}: {title}" if _SUPPLEMENT.match(label) else title


# Words that tell a line's language (each of these languages' own, few shared): a title printed again
# in a second language under the first is no part of it.
_FUNCTION_WORDS = {
    "en": frozenset("the of and in for with on to from by an its their is are using via between among".split()),
    "pt": frozenset("do da dos das em e para com no na nos nas um uma ao à sobre entre pelo pela".split()),
    "es": frozenset("del la el los las en y con para por un una al sobre entre".split()),
    "fr": frozenset("du des la le les et en pour avec dans sur un une au aux par entre".split()),
    "de": frozenset("der die das und von zur zum mit für im in auf bei über ein eine des den dem".split()),
}


def _languages(text: str, least: int = 2) -> set[str]:
    """The languages a line's function words point to most (`least` such words at least), or none."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    scores = {lang: sum(w in vocab for w in words) for lang, vocab in _FUNCTION_WORDS.items()}
    best = max(scores.values())
    return {lang for lang, n in scores.items() if n == best} if best >= least else set()


def _other_language(first: Line, ln: Line) -> bool:
    """`ln` is in another language than `first`: told by two function words each, or by one where it is
    set in another slant (a translation in italic under a roman title)."""
    least = 1 if ln.italic != first.italic else 2
    one, other = _languages(first.text, least), _languages(ln.text, least)
    return bool(one and other and not one & other)


def _one_language(lines: list[Line]) -> list[Line]:
    """The title's lines up to one set in another language than its first (a bilingual journal prints
    the title's translation under it, in the same or a near size)."""
    for k, ln in enumerate(lines[1:], start=1):
        if _other_language(lines[0], ln):
            return lines[:k]
    return lines


def _translation(title: list[Line], top_half: list[Line]) -> list[Line]:
    """The title's translation set right under it in another language (`_other_language`), smaller or
    not: the lines under the title, each within a line and a half of the one above, at least 0.6 of the
    title's size, and no names.  No part of the title, nor of the byline under it."""
    out: list[Line] = []
    last = title[-1]
    for ln in sorted((ln for ln in top_half if ln.top > last.top and ln not in title), key=lambda ln: ln.top):
        if ln.top - last.bottom > 1.5 * ln.size or ln.size < 0.6 * title[0].size or names_alone(ln.text) \
                or not _other_language(title[0], ln):
            break
        out.append(ln)
        last = ln
    return out


_WEB = re.compile(r"\bwww\.|https?://|\bhomepage\b", re.IGNORECASE)


def _past_masthead(big: list[Line], page: list[Line]) -> list[Line]:
    """The title's tier without a journal's masthead set in the title's size above it: a first block
    of the tier (its lines with nothing between them) that names a journal ("European Journal of …",
    "… Letters") or has the journal's web address under it, when another block of the tier follows."""
    rows = sorted(big, key=lambda ln: ln.top)
    block = rows[:1]
    for ln in rows[1:]:
        if ln.top - block[-1].bottom > 2 * ln.size or _between(block[-1], ln, page, big):
            break
        block.append(ln)
    rest = rows[len(block):]
    if not rest:
        return big
    under = [o for o in page if o not in big and block[-1].bottom <= o.top and o.bottom <= rest[0].top]
    if all(VENUE_NAME.search(ln.text) for ln in block) or any(_WEB.search(o.text) for o in under):
        return rest
    return big


def _between(a: Line, b: Line, page: list[Line], tier: list[Line]) -> bool:
    """Is other text than the tier's set between lines `a` and `b`?"""
    return any(a.bottom <= o.top and o.bottom <= b.top for o in page if o not in tier)


def _without_headings(big: list[Line]) -> list[Line]:
    """The title's tier without the numbered section headings set in its size ("1 Introduction",
    "2 Method", "3 Results" in a short paper whose title is set as its headings are): two or more of
    them in the tier are headings, not a title (a lone numbered line may be one: "10 Simple Rules …")."""
    numbered = [ln for ln in big if FIRST_HEAD.match(ln.text)]
    return [ln for ln in big if ln not in numbered] if len(numbered) >= 2 else big


def _one_block(lines: list[Line], page: list[Line]) -> list[Line]:
    """The title's lines (in print order) down to other text set between two of them (an author line,
    an abstract; over their span: a logo's words in a column beside are not between), a gap of two
    lines' room, or a numbered heading: a title is set as one block, and a heading in its size further
    down the page is no part of it."""
    out = lines[:1]
    for ln in lines[1:]:
        left, right = min(ln.x0, out[-1].x0), max(ln.x1, out[-1].x1)  # text beside, in another column, is not between
        between = any(out[-1].bottom <= o.top and o.bottom <= ln.top and o.x1 > left and o.x0 < right
                      for o in page if o not in lines)
        if between or ln.top - out[-1].bottom > 2 * ln.size or FIRST_HEAD.match(ln.text):
            break
        out.append(ln)
    return out


def _corner(ln: Line, width: float, height: float, page: list[Line]) -> bool:
    """A line in the page's top margin that starts right of its middle: a meeting's or journal's
    header set in the top right corner, never a title (a title starts at the text's left edge or is
    centred on the page), however large it is set; unless it is centred over the block of smaller text
    set right under it and about as wide at least: a title centred over a column right of a sidebar."""
    if not (ln.top < 0.09 * height and ln.x0 > 0.5 * width) or _wraps_from(ln, width, page):
        return False
    under = [o for o in page if ln.bottom <= o.top < ln.bottom + 4 * ln.size and o.x1 > ln.x0 and o.x0 < ln.x1
             and o.size < ln.size - 0.5]  # smaller text: a header's own next lines (its size) head nothing
    if not under:
        return True
    left, right = min(o.x0 for o in under), max(o.x1 for o in under)
    centred = abs((left + right) / 2 - (ln.x0 + ln.x1) / 2) < 0.02 * width
    return not (centred and right - left > 0.8 * (ln.x1 - ln.x0))


def _wraps_from(ln: Line, width: float, page: list[Line]) -> bool:
    """The line is the wrapped end of a line right above it in its size and weight that starts left of the
    page's middle and spans it (a centred title's last word alone on its line, "… of Nuclear" / "Proteins"),
    not a header of its own in the corner."""
    return any(o.bottom <= ln.top + 0.2 * ln.size and ln.top - o.top <= 1.5 * ln.size and abs(o.size - ln.size) < 0.5
               and o.bold == ln.bold and o.x0 < 0.5 * width < o.x1 and o.x1 > ln.x0 for o in page if o is not ln)


def _title_page(kept: list[Line], width: float) -> bool:
    """A page of a few lines all centred on one axis: a thesis's or a report's title page."""
    if not 3 <= len(kept) <= 30:
        return False
    centres = sorted((ln.x0 + ln.x1) / 2 for ln in kept)
    axis = centres[len(centres) // 2]
    return all(abs(c - axis) < 0.04 * width for c in centres)


def _first_centred_bold(top_half: list[Line], width: float, body: float, title_page: bool) -> list[Line]:
    """The page's first lines when they are set as a title: bold, centred, above body size (a
    draft stamp or a running line set smaller may come before them).  A title set no larger than
    the body (amsart, AASTeX) is one only when the line under it reads as author names, or on a
    title page (a thesis's: every line centred, the title the first bold one).  Roman lines
    above it (a "To appear in" note, a running head of a manuscript) are no part of it."""
    tops = sorted(top_half, key=lambda ln: ln.top)
    first = next((ln for ln in tops if ln.size >= body - 0.3 and ln.bold), None)
    if first is None or not first.bold or CAPTION_RE.match(first.text) or FIRST_HEAD.match(first.text) \
            or is_standard(first.text):
        return []
    lines: list[Line] = []
    for ln in tops[tops.index(first):]:
        centred = abs((ln.x0 + ln.x1) / 2 - width / 2) < 0.04 * width
        centred = centred or bool(lines) and abs(ln.x0 - lines[0].x0) < 2  # or set flush left under it
        if abs(ln.size - first.size) > 0.3 or ln.bold != first.bold or not centred \
                or (lines and ln.top - lines[-1].bottom > 1.5 * ln.size):
            break
        lines.append(ln)
    if not lines:  # the first line itself is not centred: no title set this way
        return []
    if first.size < body + 0.5 and not title_page:
        under = next((ln for ln in tops if ln.top > lines[-1].bottom), None)
        if under is None or line_names(under.text) is None:
            return []
    return lines


def _goes_on(title: list[Line], top_half: list[Line], body: float) -> list[Line]:
    """The title's lines set on below it in another size or weight (a long title whose first line is
    set larger, a subtitle in roman): each the only line of its row, at the title's line pitch, larger
    than the body, and no author line, section heading or caption.  Under a title in capitals a line
    in small letters goes on only as a subtitle: one that reads as a phrase (`_phrase`), which may be
    set smaller than the title's lines go on in (down to a point over the body)."""
    out: list[Line] = []
    last = title[-1]
    capital = all(not c.islower() for c in " ".join(ln.text for ln in title))
    left, right = min(t.x0 for t in title), max(t.x1 for t in title)
    # the lines under the title's own span: a column of text beside a title set over one column is no row of it
    rows = sorted((ln for ln in top_half if ln.top > last.top + 0.5 * last.size and ln not in title
                   and ln.x1 > left and ln.x0 < right), key=lambda ln: ln.top)
    while rows:
        ln = rows[0]
        same_row = [o for o in rows if o.top - ln.top < 0.5 * ln.size]
        rows = rows[len(same_row):]
        beside = min(ln.x1, max(t.x1 for t in title)) - max(ln.x0, min(t.x0 for t in title))
        subtitle = capital and any(c.islower() for c in ln.text)
        if subtitle and not _phrase(ln.text):
            break
        smallest = body + 1 if subtitle else max(body + 1, 0.7 * last.size)
        # a smaller subtitle's top is further below the title's than the title's own pitch: the room between
        far = ln.top - last.bottom > 0.8 * last.size if subtitle else ln.top - last.top > 1.5 * last.size
        # over the title's span: half the narrower of the two (a title's head ending with a colon is short)
        if len(same_row) > 1 or far or ln.size < smallest or beside < 0.5 * min(ln.x1 - ln.x0, right - left) \
                or line_names(ln.text) is not None and not _wrapped_on(last, ln, title) or is_standard(ln.text) \
                or CAPTION_RE.match(ln.text) or FIRST_HEAD.match(ln.text):
            break
        out.append(ln)
        last = ln
        capital = capital and not subtitle
    return out


def _short_wrap(title: list[Line], kept: list[Line]) -> list[Line]:
    """The title's last line when it holds a word of three letters or fewer ("OF", "DNA"), which the top
    half's lines leave out (a page number, a mark): the line right under the title's last, alone on its row
    over the title's span, in its size and weight, at its pitch, and of letters."""
    last = title[-1]
    left, right = min(t.x0 for t in title), max(t.x1 for t in title)
    under = [ln for ln in kept if ln.top > last.top + 0.5 * last.size and ln.top - last.top <= 1.5 * last.size
             and ln.x1 > left and ln.x0 < right]
    if len(under) != 1:
        return []
    ln = under[0]
    short = len(ln.text.strip()) <= 3 and ln.text.strip().isalpha()
    return [ln] if short and abs(ln.size - last.size) < 0.5 and ln.bold == last.bold else []


def _wrapped_on(last: Line, ln: Line, title: list[Line]) -> bool:
    """A line that reads as names goes on from the title's last line when it is that line's wrap: in its
    weight, nearly its size (an OCR'd line measured a little smaller), at its line pitch, and the line
    above was filled or runs on (`title_wrap.runs_on`: "… Among" over "Older Adults")."""
    measure = max(width(t) for t in [*title, ln])
    return ln.bold == last.bold and ln.size >= 0.88 * last.size and ln.top - last.top <= 1.35 * last.size \
        and runs_on(last, ln, measure)


def _goes_up(title: list[Line], top_half: list[Line], body: float) -> list[Line]:
    """The title's first line when it was set (or measured) a little smaller than the rest: the line
    right above the title, alone on its row over the title's span, in its weight, at 0.85 of its size
    or more, at its pitch, which runs on into it (filled, or ending with a colon: "Database
    Metatheory:" over "Asking the Big Queries"), and which is no label, journal's name, heading or caption."""
    first = title[0]
    left, right = min(t.x0 for t in title), max(t.x1 for t in title)
    above = [ln for ln in top_half if ln.bottom <= first.top + 0.2 * first.size and ln not in title
             and first.top - ln.top <= 1.5 * first.size and ln.x1 > left and ln.x0 < right]
    if len(above) != 1:
        return []
    ln = above[0]
    if ln.bold != first.bold or not 0.85 * first.size <= ln.size < first.size or ln.size < body + 1.5 \
            or any(o.top < ln.bottom and o.bottom > ln.top and o is not ln for o in top_half):
        return []
    if all(w in ARTICLE_TYPE for w in ln.text.lower().split()) or VENUE_NAME.search(ln.text) \
            or is_standard(ln.text) or CAPTION_RE.match(ln.text) or FIRST_HEAD.match(ln.text):
        return []
    return [ln] if runs_on(ln, first, max(width(t) for t in [*title, ln])) else []


_PARTICLES = {"and", "de", "da", "di", "du", "do", "dos", "das", "del", "der", "den", "des", "la", "le", "van", "von",
              "y", "e", "et", "al", "bin", "ibn"}


def _phrase(text: str) -> bool:
    """A line that reads as words of a phrase, not names: two words in small letters at least that no
    byline has ("of", "in", "rural", but not "van", "and", "de")."""
    words = re.findall(r"[^\W\d_]+", text)
    return sum(w.islower() and w not in _PARTICLES for w in words) >= 2


def _without_label(big: list[Line]) -> list[Line]:
    """The title's tier without an article-type label set as large above it (a word or three on a row
    of their own, "Case Report"), when what follows in that size is a longer text set apart from it by
    its weight, a gap, more room than the title's own lines have between them, the label's words
    (all of an article type's), or a break no wrap makes (`title_wrap.set_apart`), and reads as no
    author line:
    else the label would be the title (in its weight) and the real title, in another, would be read
    as authors."""
    rows = sorted(big, key=lambda ln: ln.top)
    if len(rows) < 2:
        return big
    label, rest = rows[0], rows[1:]
    pitch = rest[1].top - rest[0].top if len(rest) > 1 and rest[1].top - rest[0].top < 2 * rest[0].size else None
    apart = rest[0].bold != label.bold or rest[0].top - label.bottom > 0.8 * label.size \
        or all(w in ARTICLE_TYPE for w in label.text.lower().split()) \
        or pitch is not None and rest[0].top - label.top > pitch + 0.15 * label.size  # more room than the title's lines
    alone = all(ln.top - label.top > 0.5 * label.size for ln in rest)
    unfilled = set_apart(label, rest)  # the next line's first word would have fitted on it: no wrap
    typed = all(w in ARTICLE_TYPE for w in label.text.lower().split())  # a label by its words: any title follows
    longer = sum(len(ln.text.split()) for ln in rest) >= (2 if unfilled else 4)
    if len(label.text.split()) <= 3 and alone and (apart or unfilled) and (
            typed or longer and not names_alone(" ".join(ln.text for ln in rest))):
        return rest
    return big
