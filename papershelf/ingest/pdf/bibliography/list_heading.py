"""Where a reference list starts: the line of its heading, told from the lines of the same words that are no
heading — a contents page's entry ("References ........ 16"), a running head over the list's pages.

Such a line's row ends in a page number set apart at its right (`contents.row_ends_in_page`); a list's own
heading never carries one.  Each line named like the heading is read once, as one of three:

- the list's own: its row ends in no page number;
- a contents entry: its row ends in one, and so do two other rows of its page at least (a contents page,
  however short the reader found it: a scan's OCR may set each page number apart) — never the heading;
- doubtful: its row alone on its page ends in one (a stray number of the next column on its baseline) —
  taken only when the paper prints no line of the first kind.
"""

from __future__ import annotations

import re

from ....document import Block
from ..sections.contents import is_page_number, row_ends_in_page
from ..text.lines import Line

# The list's heading, in the languages papers are printed in (Portuguese, Spanish, French, German,
# Italian, Dutch, the Nordic languages, Polish and Czech, Turkish, Indonesian, Chinese and Japanese).
REFERENCES_HEADING = re.compile(
    r"^(?:§\s*)?(?:[\dIVX]+\.?\s*)?(references|bibliography|works cited|literature cited|references and notes|"
    r"references and links|"
    r"cited literature|reference list|literature|refer[eê]ncias(?: bibliogr[aá]ficas)?|"
    r"referencias(?: bibliogr[aá]ficas)?|bibliograf[ií]a(?: citada| consultada)?|obras citadas|bibliographie|"
    r"r[ée]f[ée]rences(?: bibliographiques)?|literatur|literaturverzeichnis|quellenverzeichnis|"
    r"riferimenti(?: bibliografici)?|literatuur|litteratur|kirjallisuus|literatura(?: citada| consultada)?|"
    r"kaynaklar|daftar pustaka|参考文献|參考文獻|引用文献)"
    r"\s*:?\s*$", re.IGNORECASE)

MIN_CONTENTS_ROWS = 3  # rows of a page that end in a page number for it to be a contents page


def heading_start(lines: list[Line], headings: list[Block], marks: list[Line]) -> tuple[list[Line], int | None]:
    """The lines that may be the list's heading (its own, else the doubtful ones), and the index among
    `headings` of the heading block that opens the list: the first named so on a page that holds one of
    the list's own lines or no such line at all, else the first named so (None when none is).  `marks`:
    the bare numbers the pages' cleaning dropped, where a row's page number may stand."""
    page_marks = lines + marks
    own: list[Line] = []
    doubtful: list[Line] = []
    entry_pages: set[int | None] = set()
    for line in lines:
        if not REFERENCES_HEADING.match(line.text.strip()):
            continue
        if not row_ends_in_page(line, page_marks):
            own.append(line)
            continue
        entry_pages.add(line.page)
        if _rows_ending_in_page(line.page, page_marks) < MIN_CONTENTS_ROWS:
            doubtful.append(line)
    entries_only = entry_pages - {ln.page for ln in own}
    named = [i for i, h in enumerate(headings) if REFERENCES_HEADING.match(h.text.strip())]
    start = next((i for i in named if headings[i].page not in entries_only), named[0] if named else None)
    return own or doubtful, start


def _rows_ending_in_page(page: int | None, lines: list[Line]) -> int:
    """How many lines of the page (a page number's own piece aside) have a row that ends in a page number."""
    on_page = [ln for ln in lines if ln.page == page]
    numbers = [ln for ln in on_page if is_page_number(ln.text)]  # all `row_ends_in_page` looks at
    return sum(not is_page_number(ln.text) and row_ends_in_page(ln, numbers) for ln in on_page)
