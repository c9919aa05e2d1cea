"""Short text that belongs to a figure or a table rather than to the running text: axis labels and
legends just before a figure's caption, cells just after a table's.  Marked before headings are
decided, as such short lines look like sub-headings."""

from __future__ import annotations

import re

from ...captions import CAPTION_RE
from .heading_style import Para, _numbered_start

_TABLE_GAP = 6.0  # a pitch of this many font sizes after a caption: rows were set there (and taken out as a region)


def mark_figure_text(paras: list[Para]) -> None:
    """Short pieces of text just before a figure caption or just after a table caption (where
    table cells sit) belong to the figure or table: axis labels, legends, cells."""
    def short(p: Para, page: int) -> bool:  # (a figure's text is on its caption's page)
        return len(p.text) < 80 and all(len(ln.text) < 40 for ln in p.lines) and not _numbered_start(p.text) \
            and p.first.page == page

    for i, p in enumerate(paras):
        m = CAPTION_RE.match(p.text)
        if not m or (i and _sentence_tail(paras[i - 1], p, m)):
            continue
        table = (m.group("kind") or m.group("ckind")).lower().startswith(("tab", "表", "표"))
        if table and _set_below(paras, i):
            continue  # its cells, taken out as a region, sit right below: the short text around is not the table's
        j = i - 1
        while j >= 0 and short(paras[j], p.first.page) and not CAPTION_RE.match(paras[j].text):
            paras[j].in_figure = True
            j -= 1
        if table:
            j = i + 1
            while j < len(paras) and short(paras[j], p.first.page) and not CAPTION_RE.match(paras[j].text):
                paras[j].in_figure = True
                j += 1


def _set_below(paras: list[Para], i: int) -> bool:
    """The caption's table sits below it, taken out of the text as a region: the next paragraph
    on its page follows only after a gap of many lines (the table's rows)."""
    nxt = paras[i + 1] if i + 1 < len(paras) else None
    return nxt is not None and nxt.first.page == paras[i].first.page and (nxt.gap_above or 0) > _TABLE_GAP


def _sentence_tail(before: Para, p: Para, m: re.Match) -> bool:
    """A bare label ("Table 1.") set tight under a paragraph whose sentence has not ended ("… as shown
    in Figure 2 and" / "Table 1."): the sentence's last words, cut off at a column's or page's top, not
    a caption; the short title below it is no table cell."""
    bare = len(p.lines) == 1 and not p.text[m.end():].strip()
    tight = p.gap_above is not None and p.gap_above < 1.2
    return bare and tight and not before.text.rstrip().endswith((".", ":", "?", "!"))
