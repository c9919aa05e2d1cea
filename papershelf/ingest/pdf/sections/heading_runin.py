"""Run-in headings: a paragraph that opens with its own heading in bold, italics or a face of its own
("Training. We …", "2.3. MTS Assay. The cells were …"), its text going on on the same line.

The lead-in (`runin.py` reads it from the fonts) is offered as a sub-heading, and the paragraph keeps
its text.  A numbered lead-in follows the paper's numbering like any numbered heading; an unnumbered
one must be short and read as a title.  Not every lead-in is a section: theorem labels, floats, the
reference list's bold authors, and labelled fields ("Received: …", "Id: 87_1") are not.
"""

from __future__ import annotations

import re

from ....document import Block
from ...captions import CAPTION_RE
from ..text.lines import join_lines
from .heading_lines import short_field
from .heading_style import (
    _FLOAT,
    _NAMED_LEAD,
    _NUMBERED,
    _OUTSIDE_RE,
    _THEOREM,
    BodyStyle,
    Para,
    _numbered_start,
    _plausible_title,
    is_standard,
)
from .numbering import Numbering


class RunIn:
    """The run-in half of the heading decision (headings._Decider): what a paragraph's lead-in is."""

    body: BodyStyle
    numbering: Numbering
    in_references: bool
    title_page: int
    runin_sizes: set[float]
    preceding: Para | None
    following: Para | None

    def _set_level(self, level: int, size: float) -> int:
        raise NotImplementedError

    def _sub_level(self) -> int:
        raise NotImplementedError

    def runin(self, p: Para) -> tuple[str, int] | None:
        """The lead-in a paragraph opens with, as a sub-heading (its text stays in the paragraph).  A
        numbered lead-in set apart by its face alone may continue a numbering but not start one
        ("1. Ovretveit J, Serouri A:" in a reference list), unless it is a standard name; one whose
        number continues the scheme may be as long as any heading, an unnumbered one is short."""
        title = self._lead_title(p)
        if not title or p.framed:  # (a lead-in inside a drawn frame heads the frame's text: frames.py)
            return None
        bold = p.first.runin_bold
        m = _NUMBERED.match(title)
        if m and _plausible_title(_upper_first(m["title"]), True) \
                and (bold or self.numbering.last or is_standard(m["title"])):
            # a title opening in lowercase ("8.2. k-sparse vectors.") only with the very next number
            key = self.numbering.accept(m, 0 if m["title"][:1].islower() else 1)
            if key:
                return title, self._set_level(len(key), p.first.size)
        if len(title.split()) > 8 or not _plausible_title(title, True) \
                or not (bold or p.first.runin_italic or is_standard(title)):
            return None
        return title, self._set_level(1, p.first.size) if _OUTSIDE_RE.match(title) else self._sub_level()

    def _filled_runin(self, p: Para) -> bool:
        """A run-in heading that fills its line, its paragraph starting on the next ("Structure of
        VanA in Complex with ADP and Phosphinate Inhibitor." in bold over roman text): one bold line
        closed by a period, in the size of the paper's own bold run-in lead-ins, set close over
        its paragraph with space above."""
        ln, nxt = p.first, self.following
        if len(p.lines) != 1 or not ln.bold or not ln.alone or self.body.bold \
                or round(2 * ln.size) / 2 not in self.runin_sizes:
            return False
        if not p.text.endswith(".") or len(p.text.split()) > 14 or nxt is None or nxt.first.page != ln.page:
            return False
        below = nxt.gap_above is not None and nxt.gap_above < 1.5 and not nxt.first.bold and nxt.text[:1].isupper()
        spaced = p.gap_above is None or p.gap_above >= 1.3
        m = _NUMBERED.match(p.text)
        title = (m["title"] if m else p.text).rstrip(".")
        return below and spaced and not _THEOREM.match(p.text) and _plausible_title(title, True) \
            and not CAPTION_RE.match(p.text) and not _FLOAT.match(p.text)

    def filled(self, p: Para) -> tuple[str, int] | None:
        """A run-in heading that fills its line, at its number's depth (the very next number only)
        or below the current section."""
        if not self._filled_runin(p):
            return None
        text, m = p.text.rstrip(".:—– "), _NUMBERED.match(p.text)
        if not m:
            return text, self._sub_level()
        key = self.numbering.accept(m, 0)
        return (text, self._set_level(len(key), p.first.size)) if key else None

    def wrapped_runin(self, p: Para, lead: str) -> tuple[str, int] | None:
        """A run-in heading in bold wrapped over lines of its own and ending in the next paragraph's
        bold lead-in (`wrapped_lead`), where the rules found no heading: its bold lines, to which
        `headings.to_blocks` joins the lead-in, below the current section."""
        if self.body.bold or self.in_references or CAPTION_RE.match(p.text) or _FLOAT.match(p.text) \
                or _THEOREM.match(p.text):
            return None
        title = p.text.strip() + " " + lead.rstrip(".:—– ").strip()
        words = title.split()  # a sentence longer than other titles ("… show a reduced uptake of glucose")
        plausible = len(words) <= 30 and _plausible_title(" ".join(words[:14]), True) \
            and not re.search(r"[.!?]\s+[A-Za-z]", title)
        return (p.text.strip(), self._sub_level()) if plausible else None

    def _lead_title(self, p: Para) -> str:
        """The title of the paragraph's lead-in, or "" where none can be a heading: in a paper whose
        body claims to be bold, in the reference list, and for captions, floats and theorem labels."""
        lead = lead_in(p.first) or _named_lead(p.text)
        if not lead or self.body.bold or self.in_references or CAPTION_RE.match(p.text) or _FLOAT.match(lead) \
                or _THEOREM.match(lead) or self._field_label(p, lead) or self._holds_entries(p):
            return ""
        return lead.rstrip(".:—– ").strip()

    def _field_label(self, p: Para, lead: str) -> bool:
        """A label of front matter or of a figure's fields, not a section: on the title page, a
        colon-ended lead-in of small print (a sidebar's or a footnote's "Received:", "Correspondence
        to:", "To cite:"); anywhere, "Label: value" alone on its line with a value of a few words ("Accepted:
        January 6, 2016", "Gold answer: Spain"), and a long value's label beside such a field (an
        example's "Id: 87_1" / "Text: The most successful …": fields come in runs, sections do not
        hold one-line values).  Front and back matter names stay headings, but in a title page's footnotes."""
        if not lead.rstrip().endswith(":"):
            return False  # "Purification and crystallization." opens PNAS's small-print methods on page 1
        if self._footnote(p):
            return True
        if _OUTSIDE_RE.match(lead.rstrip(".:—– ").strip()):
            return False
        small_print = p.first.page == self.title_page and p.first.size < self.body.size - 0.7
        return small_print or short_field(p, lead) or short_field(self.preceding) or short_field(self.following)

    def _footnote(self, p: Para) -> bool:
        """A title page's footnote that opens with a name in its own style ("Abbreviations: D-Ala,
        D-alanine; …" in 6 pt at a column's foot): small print among small print on that page (the
        notes beside it) or ending a column, not a back matter section."""
        def small(q: Para | None) -> bool:
            return q is not None and q.first.page == p.first.page and q.first.size <= 0.8 * self.body.size

        return not p.first.runin and p.first.page == self.title_page and small(p) \
            and (small(self.preceding) or small(self.following) or p.column_end)

    def _holds_entries(self, p: Para) -> bool:
        """The paragraph runs on into a numbered reference entry, or is a short one before one
        ("Kristallogr. zur Veröffentlichung eingereicht." / "[2] Übersicht: M. Regitz, Angew. Chem.
        1996, …"), or after one's first line ("[1] L. Brandt, P. Novak, Z." / "Kristallogr. 2008"): its
        lead-in is an entry's journal, not a heading, in a list with no heading."""
        short = len(p.lines) <= 2
        nxt = self.following.first.text if self.following and short else ""
        prev = self.preceding.lines[-1].text if self.preceding and short else ""
        return any(_ENTRY.match(ln.text) for ln in p.lines[1:]) or bool(_ENTRY.match(nxt) or _OPENS_ENTRY.match(prev))


_ENTRY = re.compile(r"^\[\d{1,3}\]\s+\S.*\b(?:1[89]|20)\d\d\b")
_OPENS_ENTRY = re.compile(r"^\[\d{1,3}\]\s+[A-Z][^.]{0,2}\.")  # "[1] L. Brandt, …": a numbered entry's authors


def wrapped_lead(p: Para, nxt: Para | None) -> str:
    """The bold lead-in that closes a run-in heading wrapped over whole lines ("Inositol-requiring
    kinase–1α (IRE-1α)" / "plays a crucial role in insulin receptor" / "signaling. In the presence
    …"): the paragraph's one to three lines are all bold and run to the column's edge, and the next
    line, set close below in the same size, opens with a bold lead-in closed by a period, a colon or
    a dash ("Programs:", "2a and 2b)—"), the text going on in roman.  The bold run is the heading,
    read from the fonts alone."""
    if nxt is None or not nxt.first.runin or not nxt.first.runin_bold or not nxt.first.runin.endswith((".", ":", "—")):
        return ""
    a, b = p.lines[-1], nxt.first
    if len(p.lines) > 3 or not all(ln.bold and ln.alone for ln in p.lines) or p.text.rstrip().endswith((".", ":", ";")):
        return ""
    close = nxt.gap_above is not None and nxt.gap_above < 1.3 and b.page == a.page and b.top > a.top
    edge = abs(a.x1 - b.x1) < a.size and -a.size < a.x0 - b.x0 < 3 * a.size and abs(a.size - b.size) < 0.3
    return b.runin if close and edge and _lead_end(nxt.text, b.runin) > 0 else ""


def _lead_end(text: str, lead: str) -> int:
    """Where the lead-in ends in the paragraph's text, which writes raised and lowered glyphs after
    "^" and "_" ("XBP-1^+/-- mice." for "XBP-1+/-- mice."); 0 when it is not there."""
    i = 0
    for ch in lead:
        while i < len(text) and text[i] != ch and text[i] in "^_ ":
            i += 1
        if i >= len(text) or text[i] != ch:
            return 0
        i += 1
    return i


def join_runin(blocks: list[Block], lead: str, nxt: Para | None) -> bool:
    """The heading just read ends in the next paragraph's bold lead-in, and that paragraph's text
    starts after it (its block is made here)."""
    if nxt is None:
        return False
    end = _lead_end(nxt.text, lead)
    blocks[-1].text = join_lines([blocks[-1].text, nxt.text[:end].rstrip(".:—– ")])
    if rest := nxt.text[end:].lstrip():
        blocks.append(Block("text", rest, page=nxt.first.page))
    return True


def _upper_first(title: str) -> str:
    """The title as if it opened with a capital: a symbol's name ("k-sparse") opens a title in
    lowercase where a word would not."""
    return title[:1].upper() + title[1:]


def _named_lead(text: str) -> str:
    """A paragraph opening with a front or back matter name and a colon or period, in the text's own
    style ("Acknowledgements: we are grateful …"): the section is run in."""
    m = _NAMED_LEAD.match(text)
    return m.group(1) if m else ""


def lead_in(line) -> str:
    """The run-in lead-in a line offers as a heading: a bold one; one in italics that reads as a
    short title ("Cell culture. The cells …"; not "E. coli" or "in vivo" ending a sentence); or one
    set apart by its face alone (small capitals) when it is numbered or a standard name."""
    lead = line.runin
    if not lead or line.runin_bold:
        return lead
    if line.runin_italic and _italic_title(lead):
        return lead
    return lead if _numbered_start(lead) or is_standard(lead) else ""


def _italic_title(lead: str) -> bool:
    title = _NUMBERED.match(lead)
    words = (title.group("title") if title else lead).rstrip(".:—– ").split()
    return 1 <= len(words) <= 6 and len(words[0]) > 2 and words[0][0].isupper() \
        and _plausible_title(" ".join(words), True)
