"""A PDF's reference list: found by its heading, cut into entries by the list's own layout.

The PDF reader joins lines into paragraphs, which a reference list does not have; this module
goes back to the lines (in reading order, column by column, page after page) between the
References heading and the next heading, and cuts them where an entry starts:

1. a numbered list (``[1]``, ``1.``) starts an entry at each label that counts up by one;
2. a hanging indent (each entry's first line at the column's left edge, the rest indented)
   starts an entry at each line back at the edge — a column or page that opens indented goes
   on with the entry before it;
3. a flush list starts an entry after a vertical gap larger than the list's line pitch, or
   after a short line that ends a sentence.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterator

from ....document import Block, Reference
from ...references import CAPITAL as C
from ...references import KEY, MAX_LABEL_GAP, SAME_AUTHORS, entry_label, parsed_entries, split_keyed, split_numbered
from ..text.hyphens import keep_hyphen
from ..text.lines import Line
from .list_chapters import chapter_lists
from .list_end import Objects, outside_objects, without_back_matter
from .list_heading import REFERENCES_HEADING as REFERENCES_HEADING
from .list_heading import heading_start
from .list_labels import end_labels_moved, garbled_labels, gutter_labels
from .list_marks import with_raised_marks
from .list_order import reread
from .unheaded import unheaded_start

# What a paper prints after its list: statements, dates, rights, notes.  A line opening so ends the list.
_STATEMENT = re.compile(
    r"^(?:conflicts? of interest|competing (?:financial )?interests?|declarations?\b|disclosures?\b|funding\b|"
    r"acknowledge?ments?\b|authors?['’]? contributions?|author information|data (?:availability|accessibility)|"
    r"ethic(?:s|al)\b|publisher['’]s note|supplementary (?:material|information|data)|abbreviations\b|"
    r"consent (?:for|to) publication|availability of (?:data|supporting)|(?:code|software|materials?) availability|"
    r"additional (?:information|files?)\b|reprints? and permissions|peer review (?:information|file)|"
    r"article history|(?:figure|table) (?:legends?|captions?)\s*:?$|"
    r"(?:supporting (?:online )?(?:material|information)|biosketch(?:es)?|(?:authors? )?biograph(?:y|ies)|"
    r"about the authors?|notes on contributors)\s*:?\s*$|\d{1,2} [a-z]+ \d{4}; (?:accepted|revised)\b|"
    r"(?-i:[A-Z][a-z]+ (?:[A-Z]\. )?[A-Z][a-z]+ is (?:a|an|the) [a-z])|"
    r"(?:(?:manuscript|article|first) )?(?:received|accepted|revised|published(?: online)?)(?: for publication)?"
    r"\s*:?\s*(?:\d|[A-Z][a-z]+ \d)|copyright\b|©|"
    r"(?:this|the) (?:article|work) is (?:licensed|distributed)|open access\b|e-?mail(?: address(?:es)?)?\s*:|"
    # a publisher's back matter in its own words: credits, how to cite, editors, rights, identifiers, statements
    # (words a wrapped title may open a line with end one only as a label: a colon, "statement" or the line's end)
    r"credit authorship|citation\s*:|(?:to )?cite this (?:article|paper|chapter)\b|rights and permissions\b|"
    r"(?:edited|reviewed|handled) by\s*:|(?:handling|associate|academic) editor\s*:|"
    r"address(?:es)? (?:for )?correspondence\b|corresponding author\s*:|contributors\s*:|twitter\s*@|"
    r"(?:suggested|recommended|preferred) citation\b|cite as\s*:|this (?:article|paper) is part of\b|"
    r"orcid (?:ids?|identifiers?)\b|date of (?:submission|receipt|acceptance)\b|key ?words\s*:|"
    r"electronic supplementary material\b|dates?\s*:\s*(?:received|submitted)|"
    r"appendix(?: [a-z0-9]{1,3})?(?:[.:]\s|\s*$)|"
    r"(?:financial (?:disclosures?|support)|sources? of (?:funding|support)|grant support|author disclosure|"
    r"disclaimer(?:/publisher['’]s note)?|institutional review board|informed consent|data sharing|"
    r"supplemental (?:material|information|data|files?)|patient consent(?: for publication)?|sample availability|"
    r"patient and public involvement|provenance and peer review|trial registration)(?: statement)?\s*(?::|$)|"
    r"(?:footnotes|author notes|nomenclature|affiliations|authors and affiliations|author details|orcid|"
    r"article information|permissions|about this (?:article|paper|chapter))\s*:?\s*$|"
    # the same in the languages the headings know: dates, how to cite, conflicts, correspondence
    r"(?:recebido|recibido|aceito|aceptado|submitted|eingegangen|re[çc]u)\b\s*(?:em|el|am|le|on)?\s*:?\s*\d|"
    r"(?:how to cite|como citar|c[oó]mo citar|pour citer)\b|confl[ií]c?tos? de inter[eé]s|"
    r"correspondence\b\s*(?::|and\b|to\b|should\b))",
    re.IGNORECASE)
# A line that goes on with the entry before it whatever its place: a DOI, a link, an index's identifier.
_CONTINUATION = re.compile(r"^(?:doi\s*:|doi\s+10\.|https?://|www\.|10\.\d{4,9}/|pmid\b|pmcid\b|\[?pubmed\b|"
                           r"\[?crossref\b|\[?google scholar\b|\[?cas\b|available (?:at|from|online)\b|"
                           r"retrieved from\b|accessed (?:on )?\d|arxiv:\s*\d|isbn\b)", re.IGNORECASE)

LINK_WORDS = 3  # words before a link on a line that introduces it ("Disponível em: <https://…>")
# A link inside a line, in whatever words it is introduced ("Disponível em: <https://…>", "URL: …", "doi.org/…").
_LINK = re.compile(r"https?://|\bdoi\.org/|\bdoi:\s*10\.|\b10\.\d{4,9}/", re.IGNORECASE)


def _goes_on(text: str) -> bool:
    """The line goes on with the entry before it whatever its place: it opens as a link or an index's line
    does, or a link starts within its first three words and it opens no entry (an entry's link on a line of
    its own, introduced in the journal's words and language: "Disponível em: <https://…>", "URL: …")."""
    if _CONTINUATION.match(text):
        return True
    link = _LINK.search(text)
    return link is not None and len(text[:link.start()].split()) <= LINK_WORDS and not opens_entry(text)


def pdf_references(columns: list[list[Line]], blocks: list[Block], objects: Objects = (),
                   marks: list[Line] | None = None) -> list[Reference]:
    """The entries of the paper's reference list, or [] when it has none.  `objects`: the (page, box) of
    each figure and table and of its caption, whose lines are none of the list's; `marks`: the bare numbers
    the pages' cleaning dropped, a raised label at a page's top or foot among them (`with_raised_marks`)."""
    beside = marks or []
    columns = with_raised_marks(columns, beside)
    entries: list[str] | None = None
    for runs in _list_lines(columns, blocks, beside):
        found = _entries(outside_objects(runs, objects, opens_entry))
        entries = found if entries is None or len(found) > 1 else entries
        if len(found) > 1:  # else an earlier "References" line may open the list (a later one is an item
            break  # of a supplement's contents: "Materials and Methods / Figs. S1 to S8 / References")
    chapters = chapter_lists(columns, beside, lambda runs: _entries(outside_objects(runs, objects, opens_entry)))
    entries = chapters if chapters and len(chapters) > len(entries or []) else entries
    return [] if entries is None else parsed_entries([_join(e.split("\n")) for e in entries])


def _entries(runs: list[list[Line]]) -> list[str]:
    """A list's lines cut into entries, without what the paper prints after the list."""
    runs = without_back_matter(end_labels_moved(garbled_labels(gutter_labels(runs))), _openings)
    texts = [ln.text for run in runs for ln in run]
    numbered = split_numbered(texts)
    if numbered is not None and len(numbered) * 1.0 >= 0.5 * sum(entry_label(t) is not None for t in texts):
        entries = numbered
    else:
        entries = split_keyed(texts) or _split_by_layout(runs)
    # a page's stray marks read as lines of their own ("«", "il", "8") are no entries
    return _without_tail([e for e in _until_statement(entries) if len(_WORD_CHAR.findall(e)) >= 3])


OPEN_ALIKE = 0.9  # of a list's entries that open as entries open, for what follows its last such entry to be none


def _without_tail(entries: list[str]) -> list[str]:
    """The entries without those after the last one that opens as entries open (a label, a key, a surname and
    initials), when nine in ten of the others open so (five at least): what a paper prints straight after its
    list in the list's own size and pitch (a statement, a date, a line of rights), in whatever words."""
    opening = [opens_entry(e) for e in entries]
    last = max((i for i, f in enumerate(opening) if f), default=-1)
    if last < 0 or last == len(entries) - 1 or last + 1 < MIN_LISTED or sum(opening) < OPEN_ALIKE * (last + 1):
        return entries
    return entries[:last + 1]


def _until_statement(entries: list[str]) -> list[str]:
    """The entries without what a paper prints after its list: from a line that opens a statement
    (a conflict of interest statement, a received date, a copyright line) in the last entry, or an
    entry that opens with one, to the end.  Inside an earlier entry such a line is a page's footer
    that the list runs across, and only that line goes."""
    out: list[str] = []
    for i, entry in enumerate(entries):
        lines = entry.split("\n")
        cut = next((k for k, ln in enumerate(lines) if _STATEMENT.match(ln.strip())), None)
        if cut is None:
            out.append(entry)
        elif cut == 0:
            break
        elif i == len(entries) - 1:
            out.append("\n".join(lines[:cut]))
        else:
            out.append("\n".join(ln for ln in lines if not _STATEMENT.match(ln.strip())))
    return out


def _list_lines(columns: list[list[Line]], blocks: list[Block], marks: list[Line]) -> Iterator[list[list[Line]]]:
    """The lines after the References heading up to the next heading, as runs (one per column of
    each page, read by the page's geometry: `list_order`); candidates in turn when the heading is
    not read as one.  With no such heading, a section near the end whose text reads as a list of
    references (a heading in another language: `_headed_by_structure`), else a numbered list of references
    at the paper's end.  `marks`: the bare numbers the pages' cleaning dropped (a contents entry's page)."""
    headings = [b for b in blocks if b.kind == "heading"]
    at, start = heading_start([ln for column in columns for ln in column], headings, marks)
    if not at:
        runs = _headed_by_structure(columns, [b for b in blocks if b.kind == "heading" or _heading_like(b)])
        if runs is not None:
            yield runs
            return
        first = unheaded_start(columns)
        if first is not None:
            yield reread(columns, first, None, include=True)
            return
        runs = _unheaded_authors(columns)
        if runs is not None:
            yield runs
        return
    if start is None:  # the heading not read as one (a language or style the headings do not know):
        # the list runs from the last line that is only such a heading to the first statement after it
        for line in reversed(at):
            yield reread(columns, line, None)
        return
    # the heading's own line, not a contents page's "References" line before it
    page = headings[start].page
    line = next((ln for ln in at if ln.page == page), at[0]) if page is not None else at[0]
    # an entry read as a heading ("[19] Robert Bowdidge and ..." set apart) is no next section
    after = [h.text.strip() for h in headings[start + 1:] if not _BRACKETED.match(h.text.strip())]
    yield reread(columns, line, after[0] if after else None)


BACK_PART = 0.5  # the part of the paper's pages, from its end, whose headings are tried as an unknown list heading
MIN_LISTED = 5  # entries a section must hold to be taken for a list by its text alone
LISTED_TEXT = 0.7  # of a section's text its entries must hold to be taken for a list


# A heading's words: one to four words of letters, numbered or not ("Kaynakça", "7 References Cited").
_HEADING_WORDS = re.compile(r"(?:[\dIVX]{1,3}\.?\s+)?[^\W\d_]+(?:\s[^\W\d_]+){0,3}\s*:?")


def _heading_like(block: Block) -> bool:
    """A paragraph of one short line of words alone: a heading the reader did not take for one."""
    return block.kind == "text" and "\n" not in block.text and bool(_HEADING_WORDS.fullmatch(block.text.strip()))


def _headed_by_structure(columns: list[list[Line]], headings: list[Block]) -> list[list[Line]] | None:
    """The runs of the last section in the paper's back half whose entries read as references: nine in
    ten of them at least open as entries open (a label, a surname and initials) and eight in ten cite a
    year, five entries at least.  None when no section reads so.  Every heading of the back half is tried
    from the end, not a fixed few: a list may be followed by many headed parts (appendices, the authors'
    contributions, funding, dates, how to cite), each a heading of its own."""
    pages = [ln.page for column in columns for ln in column]
    if not pages:
        return None
    first_page = max(pages) - BACK_PART * (max(pages) - min(pages))
    for k in range(len(headings) - 1, -1, -1):
        if (page := headings[k].page) is not None and page < first_page:
            break
        text = headings[k].text.strip()
        line = next((ln for column in columns for ln in column if ln.page == headings[k].page and ln.text.strip()
                     and text.startswith(ln.text.strip()) and 2 * len(ln.text.strip()) >= min(len(text), 40)), None)
        if line is None:
            continue
        after = next((h.text.strip() for h in headings[k + 1:] if not _BRACKETED.match(h.text.strip())), None)
        runs = reread(columns, line, after)
        if _reads_as_list(runs):
            return runs
    return None


MAX_STARTS = 8  # lines opening as an author-year entry tried as an unheaded list's first line
FIRST_OPENING = 3  # an unheaded list's first entries all open as entries (not a running head over the body)


def _unheaded_authors(columns: list[list[Line]]) -> list[list[Line]] | None:
    """An author-year list printed with no heading at the paper's end: from the first line of its last three
    pages that opens as such an entry ("Surname, I."), the lines to the end read as a list of references
    (`_reads_as_list`); the next such line is tried when they do not (a sentence opening with a name)."""
    lines = [ln for column in columns for ln in column]
    if not lines:
        return None
    last_page = max(ln.page for ln in lines)
    starts = [ln for ln in lines if ln.page >= last_page - 2 and _opens(ln.text)]
    for line in starts[:MAX_STARTS]:
        runs = reread(columns, line, None, include=True)
        if _reads_as_list(runs, FIRST_OPENING):
            return runs
    return None


def _reads_as_list(runs: list[list[Line]], first: int = 1) -> bool:
    """The lines cut into five entries at least, nine in ten opening as entries open (the `first` ones all),
    eight in ten citing a year, and the entries hold most of the text (a numbered list's cut drops what
    comes before label 1)."""
    entries = _entries(runs)
    opening = [opens_entry(e) or bool(_AUTHOR_MISREAD.match(e) or _RULE_LOST.match(e)) for e in entries]
    if not all(opening[:first]):
        return False
    held = sum(len(e) for e in entries) >= LISTED_TEXT * sum(len(ln.text) + 1 for run in runs for ln in run)
    return len(entries) >= MIN_LISTED and held and sum(opening) >= 0.9 * len(entries) \
        and sum(bool(_ENTRY_YEAR.search(e)) for e in entries) >= 0.8 * len(entries)


# An entry's first author as a scan's OCR may read it: the surname, a comma (or a semicolon) and an initial, what
# follows garbled ("QUINTANA-ASCENCIO, P. E 1997", "SOKAL, R..R.;", "YounG; C. :C.").  Only counted for whether
# a cut list reads as references, never to cut one.
_AUTHOR_MISREAD = re.compile(rf"^[{C}][\w'’\-]*+[,;]\s?[{C}]\.")


def _openings(texts: list[str]) -> list[bool]:
    """Which lines open an entry: in a numbered list the labels that count up (a "1." of an appendix
    after the list opens none), else the lines that open as entries open (`opens_entry`)."""
    flags, expect = [], 1
    for text in texts:
        label = entry_label(text)
        counts = label is not None and expect <= label <= expect + MAX_LABEL_GAP
        expect = label + 1 if counts and label is not None else expect
        flags.append(counts)
    return flags if expect > MIN_LISTED else [opens_entry(t) for t in texts]


def opens_entry(text: str) -> bool:
    """The line opens an entry the way lists print them: a label, a key in brackets, a rule for the
    authors before, a surname and initials, a body's name and its year."""
    return entry_label(text) is not None or bool(KEY.match(text) or SAME_AUTHORS.match(text)) or _opens(text)


_WORD_CHAR = re.compile(r"\w")
_BRACKETED = re.compile(r"^\[\d{1,3}\]\s")


def _left(run: list[Line]) -> float:
    """A column's left edge: where its lines of real text start furthest left (a page number or a
    stray mark does not count)."""
    texts = [ln.x0 for ln in run if len(ln.text) > 12] or [ln.x0 for ln in run]
    return min(texts)


def _lefts(runs: list[list[Line]], size: float) -> list[float]:
    """Each run's left edge; a run of a line or three (an entry's indented last lines at a column's top,
    where the list ends) takes the edge of the runs in its column, when one stands less than two letters
    left of it, not its own."""
    own = [_left(run) for run in runs]
    return [min(y for y in own if x - 2 * size < y <= x) if len(run) <= 3 else x
            for run, x in zip(runs, own, strict=True)]


def _indent(runs: list[list[Line]], lefts: list[float], size: float) -> float:
    """How far right of its column's edge a line starts to be indented: 0.4 of the size, or half the list's
    usual indent when that is deeper (a scan's labels start a few points apart, its hanging lines 20 on)."""
    steps = sorted(ln.x0 - left for run, left in zip(runs, lefts, strict=True) for ln in run
                   if ln.x0 - left > 0.4 * size)
    return max(0.4 * size, 0.5 * steps[len(steps) // 2]) if steps else 0.4 * size


def _bands_joined(runs: list[list[Line]]) -> list[list[Line]]:
    """Runs that the reading order cut only because a short line (a DOI under a full-width entry)
    does not cross the gutter: a run that starts on the next line below the last one, on the same
    page and the same left edge give or take an indent, goes on with it."""
    out: list[list[Line]] = []
    for run in runs:
        if out:
            last, first = out[-1][-1], run[0]
            close = first.page == last.page and -1 <= first.top - last.bottom < 1.2 * max(last.size, 1.0)
            if close and abs(first.x0 - _left(out[-1])) < 3 * max(last.size, 1.0):
                out[-1] = out[-1] + run
                continue
        out.append(list(run))
    return out


def _split_by_layout(runs: list[list[Line]]) -> list[str]:
    runs = _bands_joined(runs)
    lines = [ln for run in runs for ln in run]
    sizes = [ln.size for ln in lines] or [10.0]
    size = statistics.median(sizes)
    lefts = _lefts(runs, size)
    depth = _indent(runs, lefts, size)
    indented = [ln.x0 - left > depth for run, left in zip(runs, lefts, strict=True) for ln in run]
    pieces = [i > 0 and _same_row(run[i - 1], ln, size) for run in runs for i, ln in enumerate(run)]
    rows = [ind for ind, piece in zip(indented, pieces, strict=True) if not piece]  # a row's pieces count once
    hanging = 0.15 <= sum(rows) / max(1, len(rows)) <= 0.85
    first_in = hanging and _first_lines_indented(lines, indented)
    pitches = [b.bottom - a.bottom for run in runs for a, b in zip(run, run[1:], strict=False) if b.bottom > a.bottom]
    # the pitch inside an entry: a low quantile, as in a list of one- and two-line entries set apart by a gap
    # half the steps are gaps, and their median is no line pitch
    pitch = max(statistics.quantiles(pitches, n=4)[0], size) if len(pitches) > 1 else 1.2 * size
    author_first = _authors_lead(lines)
    entries: list[str] = []
    for run, left in zip(runs, lefts, strict=True):
        right = max(ln.x1 for ln in run)
        for i, ln in enumerate(run):
            if not entries:
                entries.append(ln.text)
                continue
            prev = run[i - 1] if i else None
            if _goes_on(ln.text) or _link_goes_on(entries[-1], ln.text) or _same_row(prev, ln, size):
                new = False
            elif hanging:  # (a rule for the same authors a scan lost leaves the entry's opening indented)
                new = (ln.x0 - left <= depth) != first_in or _ended(entries[-1]) and bool(_RULE_LOST.match(ln.text))
            elif prev is None:
                new = _ended(entries[-1]) and (ln.text[:1].isupper() or _opens(ln.text)) and \
                    (not author_first or _opens(ln.text))
            else:
                gap = ln.bottom - prev.bottom > 1.3 * pitch
                short_end = prev.x1 < right - 3 * size and _ended(prev.text) and ln.text[:1].isupper()
                new = gap or (short_end and (not author_first or _opens(ln.text))) or \
                    _authors_open(entries[-1], ln.text)
            if new:
                entries.append(ln.text)
            else:
                entries[-1] += "\n" + ln.text
    return entries


# A line that opens where a rule for the same authors was printed and the scan lost it: ", AND R. YAHR. 1998."
# or ". 1996. Relative importance" (the rule, then the year).
_RULE_LOST = re.compile(r"^(?:,\s(?:AND|and|&)\b|\.\s(?:1[89]|20)\d\d[a-z]?\.)")


def _same_row(prev: Line | None, ln: Line, size: float) -> bool:
    """The line is a piece of the row the line before it ends: on its baseline, right of it (a justified line
    whose wide word gaps the line builder cut, "1-18.      Retrieved      2019,      from").  No entry opens
    mid-row."""
    return prev is not None and abs(ln.bottom - prev.bottom) < 0.5 * size and ln.x0 >= prev.x1 - 1


_SURNAME_FIRST = re.compile(rf"^[{C}][\w'’\-]*+(?:,|\s[{C}]\.|\s[A-Z]{{1,3}}\b)")


def _first_lines_indented(lines: list[Line], indented: list[bool]) -> bool:
    """The list indents each entry's first line, not the lines after it (old proceedings set
    "    Hewitt, C. and Patterson M. ..." over a run-on line at the edge): the indented lines open
    with a surname more often than those at the edge."""
    def share(flag: bool) -> float:
        group = [ln.text for ln, ind in zip(lines, indented, strict=True) if ind == flag]
        return sum(bool(_SURNAME_FIRST.match(t.strip())) for t in group) / max(1, len(group))
    return share(True) > share(False) + 0.3


# An author-year entry's first author ("Höfle, M. G.", "de Zeeuw, C.H.", "Smith AB,"); a year printed
# after the authors, bare or in parentheses.
_FIRST_AUTHOR = re.compile(rf"^(?:(?:van|von|de|der|den|da|di|du|la|le)\s)*[{C}][\w'’\-]*+(?:\s[{C}][\w'’\-]*+)?"
                           rf"(?:,\s?(?:[{C}]\.\s?-?){{1,4}}(?:,|\s\(|\s&|\sand\b|\set\sal\b|\s(?:1[89]|20)\d\d)|"
                           r"\s[A-Z]{1,3}(?:,|\s\())")
_ENTRY_YEAR = re.compile(r"\b(?:1[89]|20)\d\d[a-z]?\b")


def _authors_open(entry: str, line: str) -> bool:
    """In a flush author-year list (no indent, no gap between entries), the line opens the next entry:
    the entry so far ends (a sentence, a DOI or link, page numbers) and has cited its year, and the line
    opens with a surname and initials (a wrapped author list's next line follows a comma or "&")."""
    return _ended(entry) and _opens(line) and bool(_ENTRY_YEAR.search(entry))


# How an entry's text may end: a full stop or bracket, a DOI or link, page numbers; not a comma, "&",
# "and", "in" or a hyphen, after which the entry's authors or title go on.
_GOES_ON = re.compile(r"(?:[,;:&\-–(]|\b(?:and|in|of|the|et|al))$", re.IGNORECASE)
_ENDS = re.compile(r"(?:[.)\]]|(?:https?://|doi\.org/|doi:\s*|10\.\d{4,9}/)\S*|\d)$", re.IGNORECASE)


def _ended(text: str) -> bool:
    """The text can be an entry's end: it ends a sentence, a DOI or link, or page numbers."""
    text = text.rstrip()
    return bool(_ENDS.search(text)) and not _GOES_ON.search(text)


# A body as author, its year right after it: "World Health Organization (2019).", "NASA. 2004."
_BODY_YEAR = re.compile(rf"^[{C}][\w'’&\-]*+(?:\s[\w'’&\-]++){{0,8}}?\s?"
                        r"(?:\((?:1[89]|20)\d\d[a-z]?\)|\.\s(?:1[89]|20)\d\d[a-z]?\.)")


def _opens(text: str) -> bool:
    """The line opens the way an author-first list's entries open: a surname and initials, or a body's
    name with the year after it."""
    return bool(_FIRST_AUTHOR.match(text.strip()) or _BODY_YEAR.match(text.strip()))


def _authors_lead(lines: list[Line]) -> bool:
    """The list opens its entries with "Surname, I." (an author–year list): a quarter of its lines at
    least open so (an entry runs to two or three lines).  In such a list a short line that ends a sentence
    is the end of a title as often as of an entry, so only a line opening with a surname starts one."""
    return sum(_opens(ln.text) for ln in lines) >= 0.25 * len(lines)


# A link or DOI broken at a line's end ("https://doi.org/10.1016/j.jcis." | "2019.01.002"), and the
# piece of it that opens the next line: lowercase or digits, with a dot, slash or digit in its first word.
_OPEN_LINK = re.compile(r"(?:https?://|doi\.org/|doi:\s*|10\.\d{4,9}/)[^\s]*[./\-_]$", re.IGNORECASE)
_LINK_PIECE = re.compile(r"^[a-z0-9][\w\-]*[./\d]")


def _link_goes_on(entry: str, line: str) -> bool:
    """The line goes on with a link or DOI the entry's last line breaks off (a DOI split over two
    lines would otherwise open an entry of its own at the column's edge)."""
    tail = entry.rstrip("\n")[-300:]  # the last line's link: a search over the whole entry grew with it
    return bool(_LINK_PIECE.match(line)) and bool(_OPEN_LINK.search(tail))


def _join(lines: list[str]) -> str:
    """Lines of one entry as one string.  A word broken at a line end is joined again, keeping the
    hyphen of a compound ("Citation-informed"): the paper's own words decide when they hold either
    form, else the model learned from the corpus (`keep_hyphen`).  A link broken at a line's end is
    joined without a space."""
    out = ""
    for text in (t.strip() for t in lines):
        if not out:
            out = text
        elif _link_goes_on(out, text):
            out += text
        elif out[-1:] in ("\ufffe", "\x02", "\u00ad", "-") and text[:1].islower():
            out = out[:-1] + ("-" if out[-1] != "\u00ad" and keep_hyphen(out[:-1], text) else "") + text
        else:
            out += " " + text
    return out
