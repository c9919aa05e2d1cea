"""Which paragraphs of a PDF are section headings, and at what level, decided the way a reader does.

A reader trusts numbering first: "3.2 Master Data Structures" is a heading because it continues
the paper's scheme (1, 2, 2.1 … or I, II, A, B) and its level is its number's depth.  A line that
starts with a number which does *not* continue the scheme ("1. The library first …" inside §3.1)
is a list item.  Next come the standard unnumbered names (Abstract, References, …).  Last, a short
line set apart by its style — larger or bold *relative to this paper's body text* — is a
sub-heading below the current section (or, in a paper without numbering, ranked by its style).
A paragraph that opens with a bold lead-in ("Training. We …") offers that lead-in as a
sub-heading and keeps its text.

Style is always judged against the body text: papers whose every glyph claims to be bold get no
headings from boldness, and a line in the body's own style needs numbering, a standard name and
space above it to count.
"""

from __future__ import annotations

import re

from ....document import Block
from ...captions import CAPTION_RE
from ..bibliography.references import REFERENCES_HEADING
from ..layout.sheets import repeated_texts
from ..text.lines import join_lines
from .contents import _demote_contents_repeats
from .heading_cues import wraps_onto
from .heading_figures import mark_figure_text
from .heading_levels import (
    flat_levels,
    next_number,
    no_skipped_levels,
    numbered_lines,
    sibling_style,
    spaced_number,
    style_ranks,
    unlabelled,
)
from .heading_lines import centred_line, centred_title, entry_like, italic_title_sizes, one_style, small_bold, wrapped
from .heading_long import long_numbered_title
from .heading_period import abbreviated_title, heading_key
from .heading_runin import RunIn, join_runin, lead_in, wrapped_lead
from .heading_shape import _DIGIT_NUMBER, _italic_lines, _most_words, _own_style, _standard, _title_words, _wrap_key
from .heading_style import (
    _DIGITS,
    _FLOAT,
    _NAME,
    _NUMBERED,
    _OUTSIDE_RE,
    _STANDARD_RE,
    _WORDS_ONLY,
    BodyStyle,
    Para,
    _family,
    _numbered_start,
    _other_face,
    _plausible_title,
    capitals,
    strong,
)
from .numbering import Numbering
from .small_print import small_heading_styles, small_style, small_title


def _standalone(p: Para, body: BodyStyle) -> bool:
    """A line on its own, at least body size, with space above it, as headings are set (a column's
    first line has no space above to show: there it may as well continue a paragraph or a figure)."""
    ln = p.first
    return len(p.lines) == 1 and ln.alone and ln.size >= body.size - 0.5 and ((p.gap_above or 0) >= 1.45 or p.centred)


def _small_back_matter(p: Para, body: BodyStyle) -> bool:
    """A standard name alone with space above, in bold or a face other than the body's, though set
    smaller than the body: back matter (acknowledgements, references) often is, headings and all."""
    ln = p.first
    return len(p.lines) == 1 and ln.alone and (p.gap_above or 0) >= 1.45 and (ln.bold or _other_face(ln, body))


def _style_key(line) -> tuple[float, bool, bool, bool]:
    """What tells heading levels apart: size, weight, capitals and bold italics (at one size and
    weight, a paper sets its sections in capitals and their sub-sections in mixed case, never the
    reverse, and its bold sections upright over bold-italic sub-sections; a light italic line is
    ranked with the upright ones of its size, as a stray upright line of that size would otherwise
    push italic sub-sections a level down)."""
    return (round(line.size * 2) / 2, bool(line.bold), capitals(line.text), bool(line.bold and line.italic))


class _Decider(RunIn):
    """Walks the paragraphs in reading order, keeping the numbering and the current level."""

    def __init__(self, paras: list[Para], body: BodyStyle) -> None:
        self.body = body
        self.numbering = Numbering()
        self.level = 0
        self.top_size: float | None = None
        self.nested = 0  # levels above the paper's numbered headings: its unnumbered sections, when set larger
        self.after_heading = False  # the paragraph before was a heading
        self.ranks = self._style_ranks(paras)
        self.head_keys = {heading_key(p.first) for p in paras if self._unnumbered_candidate(p)}
        self.in_references = False  # inside the reference list no lead-in (an author's name) is a heading
        self.following: Para | None = None  # the paragraph after the one being decided
        self.preceding: Para | None = None  # and the one before it
        self.running = repeated_texts([(p.text, p.first.page, p.first.top) for p in paras if len(p.lines) == 1])
        self.head_families = _heading_families(paras, body)
        self.title_page = min((p.first.page for p in paras), default=1)
        self.small_styles = small_heading_styles(paras, body)
        self.italics = italic_title_sizes(paras, body)  # italic sub-headings set below the body's size
        self.runin_sizes = {round(2 * p.first.size) / 2 for p in paras if p.first.runin and p.first.runin_bold}
        # small-print styles that set a back matter name ("Funding"): the other names they set are back matter too
        self.small_back = {small_style(p.first) for p in paras
                           if _OUTSIDE_RE.match(self._bare(p)) and small_style(p.first) in self.small_styles}
        self.back_matter = False  # the current section is front or back matter (Acknowledgements …)
        self.numbered_styles: dict[tuple, list[int]] = {}  # a numbered heading's style -> its numbers' depths
        self.title_styles = {_wrap_key(p.first) for p in paras if self._title_line(p)}
        self.numbered_lines = numbered_lines([(m.group("num"), _own_style(p.first)) for p in paras
                                              if len(p.lines) == 1 and (m := _NUMBERED.match(p.text.strip()))])

    def _title_line(self, p: Para) -> bool:
        """A one-line title set apart from the body (bold, larger, italics, a small-print heading style)."""
        ln = p.first
        if len(p.lines) != 1 or not ln.alone or p.in_figure or len(p.text) > 120:
            return False
        apart = strong(ln, self.body) or ln.italic or small_style(ln) in self.small_styles
        return apart and len(p.text.split()) <= 12 and _plausible_title(p.text, False)

    def _style_ranks(self, paras: list[Para]) -> dict[tuple[float, bool, bool, bool], int]:
        """For papers without numbering: heading styles ranked, the standard names' style first."""
        styles = {_style_key(p.first) for p in paras if self._unnumbered_candidate(p)}
        std = [_style_key(p.first) for p in paras if _STANDARD_RE.match(self._bare(p)) and strong(p.first, self.body)]
        return style_ranks(styles, std)

    @staticmethod
    def _bare(p: Para) -> str:
        return p.text.strip().rstrip(".:").strip()

    def _unnumbered_candidate(self, p: Para) -> bool:
        ln = p.first
        if len(p.lines) > 2 or not all(strong(x, self.body) for x in p.lines) or not ln.alone or p.in_figure:
            return False
        if CAPTION_RE.match(p.text) or len(unlabelled(p.text).split()) > _most_words(p) \
                or p.text.endswith((".", ",", ";")):
            return False
        if p.gap_above is not None and p.gap_above < 1.3 and not self.after_heading:
            return False  # no space above, unless right below a heading ("Methods" / "Setting")
        return _plausible_title(unlabelled(p.text), True) and (p.indent < 2.5 * ln.size)

    def decide(self, p: Para) -> tuple[str, int] | None:
        """(title, level) when the paragraph is a heading."""
        text = spaced_number(p.text.strip())
        lead = lead_in(p.first)
        if lead and len(text) > len(lead) + 1:
            return None  # a paragraph run in under its lead-in, which `runin` offers as the heading
        if not _title_words(text) or (self.in_references and not _NUMBERED.match(text) and entry_like(text)):
            return None  # (an entry of a reference list that sets its authors in bold)
        if p.contents or p.framed or len(p.lines) > (4 if _NUMBERED.match(text) else 3) or CAPTION_RE.match(text) \
                or _FLOAT.match(text) \
                or p.first.size < 0.66 * self.body.size or _DIGITS.sub("#", text) in self.running:
            return None  # ... or set far smaller than the body: text inside a figure
        is_strong = all(strong(x, self.body) for x in p.lines) or self._small_title(p)
        m = _NUMBERED.match(text)
        if m and not re.match(r"^\d+(\.\d+)*\s+\d+(?:[.,:]\d+)*(?:\s|$)", text):  # ("2 3 4": no title; "2 2Q …" one)
            # (a centred line is no list item: amsart centres "1. Introduction" in the body's size;
            # nor is a title in capitals: small capitals set "1 INTRODUCTION" in the body's face)
            listed = not is_strong and not (p.centred and len(p.lines) == 1) and not capitals(m.group("title")) \
                and self.numbering.list_item(m)
            first_number = self.numbering.last is None
            key = None if listed else self._numbered(m, p, is_strong)
            if key:
                self.numbered_styles.setdefault(_own_style(p.first), []).append(len(key))
                if first_number and self.level and small_bold(p.first, self.body):
                    self.nested = self.level  # numbers only below larger unnumbered sections ("Methodology" / "I. …")
                return text, self._set_level(len(key), p.first.size) + self.nested
        if len(p.lines) > 3:
            return None  # (four lines: a long numbered title's, or no heading)
        bare = self._bare(p)
        if _standard(bare) and len(p.lines) == 1 and (is_strong or capitals(bare) or _standalone(p, self.body)
                                                               or _small_back_matter(p, self.body)):
            return text, self._standard_level(bare, p.first)
        if self._small_title(p):  # under a back matter name at its level, else inside its section
            return text, 1 if self.back_matter or small_style(p.first) in self.small_back else self._sub_level()
        if self._sentence_goes_on(p):
            return None
        if not self.numbering.last and not _numbered_start(text) and self._unnumbered_candidate(p):
            return text, self._set_level(self.ranks.get(_style_key(p.first), 2), p.first.size)
        if self.numbering.last and not _numbered_start(text) and self._unnumbered_candidate(p):
            return text, self._own_level(p)
        if abbreviated_title(p, self.following, self.head_keys):  # ("… sp. nov.", in the headings' style)
            level = self.ranks.get(_style_key(p.first), 2)
            return text, self._own_level(p) if self.numbering.last else self._set_level(level, p.first.size)
        if self.level and (self._italic_candidate(p) or self._smaller_candidate(p)):
            return text, self._own_level(p)
        return self.filled(p) or (self._wrapped(p, text) if self._wrapped_title(p) else None)

    def _wrapped_title(self, p: Para) -> bool:
        """A long title wrapped onto two or three lines of its own style ("Effects of SIN-1 in nitration
        and" / "hyperphosphorylation of tau and cell viability in" / "rat hippocampus"): each line
        broken at the column's edge, in a style set apart (bold, larger, italics, a small-print
        heading style) that the paper also sets one-line headings in, with space above, over text in
        another style.  Read whole, as long as ten words a line (a narrow column's three-line title may
        hold 21: "Dynamic changes of Na+ and Cl− contents in different / compartments of … / under NaCl stress")."""
        nxt, ln = self.following, p.first
        if not 2 <= len(p.lines) <= 3 or p.in_figure or not all(x.alone for x in p.lines) or not one_style(p.lines):
            return False
        if nxt is None or nxt.first.page != ln.page or one_style([ln, nxt.first]) or not nxt.text[:1].isupper():
            return False
        words, m = p.text.split(), _NUMBERED.match(p.text)
        if len(words) > 10 * len(p.lines) or p.text.endswith((".", ",", ";", ":")) \
                or not _plausible_title(" ".join(words[:12]), True):
            return False
        spaced = p.gap_above is None or p.gap_above >= 1.3 or self.after_heading
        own = (bool(m) and self._title_line(Para([ln], text=ln.text))) or _wrap_key(ln) in self.title_styles
        around = nxt.lines + (self.preceding.lines if self.preceding else [])  # the column's text, for its edge
        right = max((x.x1 for x in around if x.page == ln.page and abs(x.x0 - ln.x0) < 3 * ln.size), default=0.0)
        reach = 1.5 * ln.size if ln.bold else 0.0  # (bold lines may reach past a ragged-right column's text)
        return spaced and own and right > ln.x1 - reach and wrapped(p.lines, right)

    def _wrapped(self, p: Para, text: str) -> tuple[str, int] | None:
        """A wrapped title's level, as its one-line siblings' (a number's depth, its style's rank)."""
        m = _NUMBERED.match(text)
        if m:
            key = self.numbering.accept(m, 1)
            return (text, self._set_level(len(key), p.first.size)) if key else None
        if small_style(p.first) in self.small_styles:
            return text, 1 if self.back_matter else self._sub_level()
        if not self.numbering.last and strong(p.first, self.body):  # (italics: below the current section)
            return text, self._set_level(self.ranks.get(_style_key(p.first), 2), p.first.size)
        return text, self._own_level(p)

    def _small_title(self, p: Para) -> bool:
        """A heading of a small-print part of the paper, in a style that heads two or more of its
        paragraphs (small_print.py)."""
        return not self.in_references and small_style(p.first) in self.small_styles \
            and small_title(p, self.following, self.body, known=True)

    def _sentence_goes_on(self, p: Para) -> bool:
        """The line is a paragraph's first line, not a title: its sentence goes on in the paragraph
        set right below it, in lowercase and in another style ("Dwork and Skeen [48] considered
        the commit prob-" / "lem in a synchronous …"), where a scan's uneven sizes cut the
        paragraph apart; a title's own second line ("… after Treatment" / "with Resveratrol") is
        set in the title's style.  Asked of
        unnumbered lines only (a numbered heading's next paragraph may start with "k-means")."""
        nxt, ln = self.following, p.first
        if p.text.rstrip().endswith(("-", "\x02")):
            return True
        if nxt is None or nxt.first.page != ln.page or nxt.gap_above is None or nxt.gap_above > 1.6:
            return False
        below = nxt.first.top > ln.top and nxt.first.x0 < ln.x0 + ln.size
        return below and nxt.text[:1].islower() and not lead_in(nxt.first) and not wraps_onto(p, nxt, self.body)

    def _italic_candidate(self, p: Para) -> bool:
        """A short title in italics on a line of its own, flush with the column, in the body's size
        and with space above it (or right below a heading): an unnumbered sub-heading ("Cell
        culture"), as journals set them under bold section names.  A slanted line inside a
        paragraph's run (a quotation, a displayed name) has no space above it."""
        ln = p.first
        if not _italic_lines(p) or p.in_figure or CAPTION_RE.match(p.text):
            return False
        sized = abs(ln.size - self.body.size) <= 0.6 or len(p.lines) == 1 and round(2 * ln.size) / 2 in self.italics
        if not sized or p.indent > 1.5 * ln.size or len(p.text.split()) > _most_words(p):
            return False
        spaced = p.gap_above is None or p.gap_above >= 1.45 or self.after_heading
        nxt = self.following
        opens_text = nxt is not None and not nxt.first.italic and nxt.text[:1].isupper()
        return spaced and opens_text and bool(_WORDS_ONLY.match(p.text)) and _plausible_title(p.text, False)

    def _smaller_candidate(self, p: Para) -> bool:
        """A short title in the typeface of the paper's own sure headings, set a little smaller than
        the body (9.5 pt Frutiger sub-headings under 10.5 pt Minion text, whose "Methods" and
        "Results" are Frutiger too), alone with space above, over a paragraph of body text.  The
        face is judged against this document's headings, not a list of fonts; figure labels in
        that face are followed by more labels, not by body text."""
        ln, nxt = p.first, self.following
        if len(p.lines) != 1 or not ln.alone or p.in_figure or _family(ln.face) not in self.head_families:
            return False
        if not 0.8 * self.body.size <= ln.size < self.body.size + 0.8 or p.indent > 1.5 * ln.size:
            return False
        spaced = p.gap_above is None or p.gap_above >= 1.45 or self.after_heading
        opens_text = nxt is not None and abs(nxt.first.size - self.body.size) <= 0.6 and nxt.text[:1].isupper() \
            and len(nxt.text) > 80
        return spaced and opens_text and len(p.text.split()) <= 10 and not CAPTION_RE.match(p.text) \
            and not _numbered_start(p.text) and _plausible_title(p.text, False)

    def _numbered(self, m: re.Match, p: Para, is_strong: bool) -> tuple[int, ...] | None:
        title = m.group("title")
        caps = capitals(title) and p.first.size >= self.body.size - 1.0  # not a running head's small capitals
        if is_strong or caps:  # a one-word name ("5.4 F1") only with the very next number
            plausible = _plausible_title(title, True) or long_numbered_title(p.lines, title, is_strong)
            return self.numbering.accept(m, int(plausible)) if plausible or _NAME.match(title) else None
        # A slanted line of its own is a heading only with the very next number ("A." under "II."), and
        # so are bold lines a little smaller than the body ("I. Website Data Scraping: …" in 9 pt under 10).
        small = all(small_bold(x, self.body) for x in p.lines) and one_style(p.lines) and self._first_of_depth(m, p)
        if (_italic_lines(p) or small) and (_plausible_title(title, False) or _NAME.match(title)):
            return self.numbering.accept(m, 0)
        # In the body's own style: only the very next number, alone on its line with space above
        # (a letter only after the word "Appendix": amsart's "Appendix A. Tools from …").
        # (a centred title may be as long as any: a list item is never centred)
        most = 14 if centred_title(p, self.body) else (12 if centred_line(p) else 8)
        short = len(title.split()) <= most and _plausible_title(title, False)
        apart = _standalone(p, self.body) or centred_title(p, self.body) or self._column_top_sibling(m, p)
        if apart and short and (m.group("num")[0].isdigit() or m.group("app")):
            return self.numbering.accept(m, 0)
        return None

    def _first_of_depth(self, m: re.Match, p: Para) -> bool:
        """No numbered heading of this depth was set in another size: a paper keeps one style per depth
        (an 8 pt bold "4. Discussion" under 10 pt bold "3. Results" is a hidden duplicate's, not a heading)."""
        depth = m.group("num").count(".") + 1
        sizes = [style[0] for style, depths in self.numbered_styles.items() if depth in depths]
        return all(abs(size - p.first.size) < 0.5 for size in sizes)

    def _column_top_sibling(self, m: re.Match, p: Para) -> bool:
        """A numbered line at a column's top (no space above to show) or in a gap of the sequence (its
        next sibling set in its style), in exactly the style of numbered headings of its depth."""
        depth, style, after = m.group("num").count(".") + 1, _own_style(p.first), next_number(m.group("num"))
        gap = p.gap_above is None or style in self.numbered_lines.get(after, ())
        return gap and len(p.lines) == 1 and p.first.alone and depth >= 2 \
            and sibling_style(style, depth, self.numbered_styles)

    def _standard_level(self, bare: str, line) -> int:
        size = line.size
        if _OUTSIDE_RE.match(bare) or REFERENCES_HEADING.match(bare):
            level = self._set_level(1, size)
            self.back_matter = True
            return level
        if not self.numbering.last:
            return self._set_level(self.ranks.get(_style_key(line), 1), size)
        if self.top_size is not None and size < self.top_size - 0.5:
            return self._sub_level()
        return self._set_level(1, size)

    def _own_level(self, p: Para) -> int:
        """An unnumbered heading's level: that of the paper's numbered sub-sections set in its very
        style (an unnumbered "Comparison with earlier studies" in the italics of "2.1 Dose response"
        is a sub-section beside it), else one below the current section.  Not a section's level: a
        paper that numbers its sections numbers them all, so an unnumbered line in their style
        inside one (bold "Cell culture" under bold "2. Methods") is below it."""
        depths = self.numbered_styles.get(_own_style(p.first))
        depth = max(set(depths), key=depths.count) if depths else 0
        if self.nested and not depths and not small_bold(p.first, self.body):
            return self._set_level(self.nested, p.first.size)  # another of the larger unnumbered sections
        return depth if depth >= 2 else self._sub_level()

    def _sub_level(self) -> int:
        base = len(self.numbering.last) if self.numbering.last else self.level
        return min(4, base + 1)

    def _set_level(self, level: int, size: float) -> int:
        self.level = level
        self.back_matter = self.back_matter and level > 1
        if level == 1 and self.top_size is None:
            self.top_size = size
        return level



def _heading_families(paras: list[Para], body: BodyStyle) -> set[str]:
    """Typeface families of the paper's sure headings (a standard name or a section number on a
    line of its own, set apart from the body), other than the body's own family: a paper that sets
    "Methods" in a sans-serif sets its sub-headings in that sans-serif too, whatever their size."""
    out = set()
    for p in paras:
        ln = p.first
        if len(p.lines) == 1 and ln.alone and ln.face and strong(ln, body) \
                and (_STANDARD_RE.match(_Decider._bare(p)) or _numbered_start(p.text)):
            out.add(_family(ln.face))
    return out - {_family(body.face), ""}


def to_blocks(paras: list[Para], body: BodyStyle, review=None) -> list[Block]:
    """Blocks in reading order: headings where a reader sees them, text everywhere else.  `review`
    (heading_model.review) may make a per-document judge that confirms or overturns each verdict."""
    mark_figure_text(paras)
    decider = _Decider(paras, body)
    judge = review(paras, body, decider) if review else None
    blocks: list[Block] = []
    own_lines: list[tuple[int, tuple]] = []  # headings on lines of their own: (block, style)
    skip = False
    for i, p in enumerate(paras):
        page = p.first.page
        decider.following = paras[i + 1] if i + 1 < len(paras) else None
        decider.preceding = paras[i - 1] if i else None
        if skip:
            skip = False
            continue
        head = decider.decide(p)
        head = judge(i, p, head) if judge else head
        if not head and (tail := wrapped_lead(p, decider.following)):
            head = decider.wrapped_runin(p, tail)
        decider.after_heading = bool(head)
        if head:
            decider.in_references = bool(REFERENCES_HEADING.match(p.text.strip()))
            title = head[0]
            around = [x for q in paras[max(0, i - 1):i + 3] for x in q.lines if x.page == page]
            right = max((x.x1 for x in around if abs(x.x0 - p.first.x0) < 3 * p.first.size), default=0.0)
            if decider.following is not None and wraps_onto(p, decider.following, body, right):
                title, skip = join_lines([title, decider.following.text]), True
            own_lines.append((len(blocks), _wrap_key(p.first)))
            blocks.append(Block("heading", title, level=head[1], page=page))
            if not skip and (tail := wrapped_lead(p, decider.following)):  # a bold run-in heading's last line
                skip = join_runin(blocks, tail, decider.following)
            continue
        decider.in_references = decider.in_references or bool(len(p.lines) == 1 and REFERENCES_HEADING.match(p.text))
        lead = decider.runin(p)
        if lead:
            blocks.append(Block("heading", lead[0], level=lead[1], page=page))
        blocks.append(Block("text", p.text, page=page))
    numbered = decider.numbering.last or any(_DIGIT_NUMBER.match(b.text) for b in blocks if b.kind == "heading")
    if not numbered:  # (a numbered paper's levels are its numbers')
        flat_levels(own_lines, blocks, lambda text: _standard(text.strip().rstrip(".:").strip()))
    _demote_contents_repeats(blocks)
    no_skipped_levels(blocks, lambda text: bool(_NUMBERED.match(text)))
    return blocks
