"""Bibliographic metadata a PDF states about itself, read offline.

A PDF added from a folder has no bibliography beside it, yet most papers say
what they are: the arXiv stamp in the margin, the proceedings line or journal
citation at the top or foot of page 1, the DOI, the copyright line, and the
document info / XMP fields the typesetter filled in.

The rule throughout: **no year is better than a wrong one.**  A year is taken
only from a line whose form says it is the paper's own date (an arXiv stamp,
a proceedings / "to appear in" line, a journal citation line, a copyright line),
in a plausible range, and never from the text after a References heading.
Years inside XMP of embedded images are ignored: they are when a picture was
made, not when the paper was published.  The PDF's creation date is kept as
`created`, for `pdf_year` to check the year against (and the paper's references).
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field

from ....document import Bibliographic
from .authors import confirmed_info_authors
from .meta_doi import doi_from, strip_doi
from .year import creation_date

MIN_YEAR = 1900
_YEAR = r"(?:19|20)\d\d"
_MONTHS = r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"

# arXiv's margin stamp: "arXiv:2201.13352v1 [physics.app-ph] 27 Jan 2022" (also old "hep-th/9901001v2").
ARXIV_STAMP = re.compile(
    rf"arXiv:((?:\d{{4}}\.\d{{4,5}})|(?:[a-z-]+(?:\.[A-Z]{{2}})?/\d{{7}}))(v\d+)?\s*\[([\w.-]+)\]\s+"
    rf"\d{{1,2}}\s+(?:{_MONTHS})[a-z]*\s+({_YEAR})")
# An arXiv id named as such anywhere (no date), or a new-style id as a downloaded file's name.
ARXIV_ID = re.compile(r"\barXiv:\s?(\d{4}\.\d{4,5})(v\d+)?", re.IGNORECASE)
ARXIV_FILE = re.compile(r"^(?:arxiv[-_.:]?)?(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?(?:$|[-_ .])", re.IGNORECASE)


_PROCEEDINGS = re.compile(r"^(?:\(?(?:In|Appearing in|Appeared in|Published in)\s+)?(Proceedings of .+)", re.IGNORECASE)
_TO_APPEAR = re.compile(r"^(?:To appear in|Appearing in|Accepted (?:at|to|for|in)|Published (?:in|at)|Presented at)"
                        r"\s+(?:the\s+)?(.+)", re.IGNORECASE)
# "Clinical Science (2014) 126, 305–313", "International Psychogeriatrics (2014), 26:1, 147–154"
_JOURNAL_PAREN = re.compile(rf"^([A-Z][A-Za-z.&' -]{{2,80}}?)\s*\(({_YEAR})\)\s*,?\s*\d+\s*[,:(]")
# "Nuclear Physics B 246 (1984) 1-30": a volume, the year in parentheses, the pages as a range
_JOURNAL_VOLUME = re.compile(rf"^([A-Z][A-Za-z.&' -]{{2,80}}?)\s+\d{{1,4}}\s*\(({_YEAR})\)\s*,?\s*\d+\s*[-–]\s*\d+")
# A journal's running line with volume and issue: "IEEE TRANSACTIONS ON …, VOL. 12, NO. 3, MARCH 1990",
# "Journal …—Volume 19, Number 4—Fall 2005—Pages 25–42" (in a header or footer, no label, digit or "et al."
# before it: a reference's)
_JOURNAL_ISSUE = re.compile(rf"^(?!.*\bet al\b)([^\d\[\]()]{{0,120}}?)[\s,—–-]*\bvol(?:ume)?\.?\s*\d+\s*[,—–-]\s*"
                            rf"(?:no|number|issue)\.?\s*\d+[^\d]{{0,30}}?\b({_YEAR})\b", re.IGNORECASE)
# "BMC Health Services Research 2014, 14:1", "Nature 2019; 566:195"
_JOURNAL_PLAIN = re.compile(rf"([A-Z][A-Za-z.&' -]{{2,80}}?)\s+({_YEAR})\s*[,;]\s*\d+\s*[:(]\s*[\w-]+")
_HOW_TO_CITE = re.compile(rf"^(?:How to cite this article|Cite this article as)\b.*?\(({_YEAR})\)")
# (a scan's speck after the sign read as a stop: "Copyright ©. 1974")
_COPYRIGHT = re.compile(rf"^(?:©[.,]?|\(c\)|c|C|Copyright(?:\s*©[.,]?)?)\s*({_YEAR})\b(?!\s*[-–]\s*\d)")
# "Published: 29 April 2016", alone or closing a history line ("Received: 12 March 2016; Accepted: …;
# Published: …"): the paper's own publication date, whatever its place on the page.
_PUBLISHED = re.compile(
    rf"(?:^|[;,.]\s*)Published(?: online)?:?\s+(?:on\s+)?(?:\d{{1,2}}\s+)?(?:[A-Z][a-z]+\.?\s+)?(?:\d{{1,2}},?\s+)?"
    rf"({_YEAR})\b")
# A short line that is only a venue acronym and a year: "ACL 2014", "NeurIPS 2022", "OSDI '06" is not taken.
# Two capitals first (a lookahead, scanned once), then the shortest run to the year: linear in the line.
_ACRONYM_YEAR = re.compile(rf"^(?=[A-Z][A-Za-z]*[A-Z])([A-Z][A-Za-z-]*?)[ -]({_YEAR})$")
# A meeting's own line: its acronym and year, then its dates in the same year ("CHI 2013 Extended
# Abstracts, April 27–May 2, 2013, Paris, France."), wherever page 1 prints it (a footer's copyright block).
_MEETING = re.compile(rf"^(?=[A-Z][A-Za-z]*[A-Z])[A-Z][A-Za-z-]*\s+({_YEAR})\b[^.]{{0,80}}?\b(?:{_MONTHS})[a-z]*\.?\s+"
                      rf"\d{{1,2}}\b[^.]{{0,40}}?\b\1\b")
_REFERENCES = re.compile(r"^\s*(?:\d+\.?\s*)?(References|Bibliography|Literature Cited|REFERENCES)\s*$")
_VENUE_CUT = re.compile(r"(?:,|(?<![\s,]))\s*(?:pages?|pp\.)\s*\d.*$|,\s*(?:vol\.|volume)\s.*$", re.IGNORECASE)


@dataclass(kw_only=True)
class PdfMeta(Bibliographic):
    """What a PDF states about itself (citekey stays empty: a PDF has none)."""

    arxiv_id: str | None = None
    created: tuple[int, int] | None = None  # (year, month) the document info says the file was made
    # page 1 prints two years of its own and the file's making cannot tell which one is the paper's
    # (`_unless_two_own_years`): no year is taken from any other source either
    year_unsure: bool = False
    first_page: str = ""  # page 1's text, to check the document info's title against what the page prints
    # field -> the rule that supplied it, so a wrong value can be traced to its rule
    evidence: dict[str, str] = field(default_factory=dict)


# A journal's or a series' name, as its logo prints it at the head of page 1.
VENUE_NAME = re.compile(r"^(?:the\s+)?(?:(?:international|american|european|british|chinese|indian|japanese)\s+)?"
                         r"(?:journal|proceedings|annals|transactions|bulletin|archives)\s+(?:of|in|on|for)\s+\S|"
                         r"\b(?:journal|letters|reports|communications|transactions|magazine)$", re.IGNORECASE)
# The words of an article-type label ("Research Article", "Case Report", "Brief Communication"): such a
# label set in the title's size and weight right above it is told apart by its words alone.
ARTICLE_TYPE = frozenset(
    "research original article articles review reviews case report reports brief short communication communications "
    "letter letters editorial perspective perspectives commentary mini systematic rapid technical note notes clinical "
    "study protocol opinion hypothesis paper full regular invited feature correspondence viewpoint update".split()
)
_SECTION_LINE = re.compile(r"^(?:(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+[A-Z]|(?:abstract|introduction|keywords)\b)",
                           re.IGNORECASE)


def clean_line(text: str) -> str:
    """pdfium's text: U+FFFE marks a hyphen it joined; "28 th" ordinal gaps; runs of spaces."""
    text = re.sub(r"(?<=[a-z])[\ufffe\x02]\s*(?=[a-z])", "", text)
    text = text.replace("\ufffe", "-").replace("\x02", "-")
    return re.sub(r"\s+", " ", text).strip()


def plausible_year(year: int | str | None) -> int | None:
    if year is None:
        return None
    y = int(year)
    return y if MIN_YEAR <= y <= datetime.date.today().year + 1 else None


def page_lines(text: str) -> list[str]:
    """A page's lines up to a References heading (a reference list dates other papers)."""
    out = []
    for raw in text.splitlines():
        line = clean_line(raw)
        if not line:
            continue
        if _REFERENCES.match(line):
            break
        out.append(line)
    return out


def _venue_from(text: str) -> str:
    text = re.sub(rf"(\b{_YEAR})\s+\d{{1,4}}$", r"\1", text)  # "OSDI 2006 1": a page number ran on
    return _VENUE_CUT.sub("", text).strip(" ,.;")


def _year_near(lines: list[str], i: int, span: int = 2) -> int | None:
    """A year on the line or the next `span` lines (a proceedings line wraps: "Prague, June 2007.")."""
    for line in lines[i:i + span + 1]:
        m = re.search(rf"\b({_YEAR})\b", line)
        if m and plausible_year(m.group(1)):
            return int(m.group(1))
    return None


def _from_arxiv(lines: list[str], meta: PdfMeta) -> None:
    for line in lines:
        m = ARXIV_STAMP.search(line)
        if m:
            meta.arxiv_id = m.group(1) + (m.group(2) or "")
            meta.evidence["arxiv_id"] = "arxiv stamp"
            if plausible_year(m.group(4)):
                meta.year, meta.evidence["year"] = int(m.group(4)), "arxiv stamp"
            meta.venue = meta.venue or f"arXiv:{meta.arxiv_id} [{m.group(3)}]"
            return
    for line in lines:
        m = ARXIV_ID.search(line)
        if m:
            meta.arxiv_id = m.group(1) + (m.group(2) or "")
            meta.evidence["arxiv_id"] = "arxiv id"
            return


def _from_lines(lines: list[str], meta: PdfMeta) -> None:
    """Venue and year from page-1 lines, the strongest form first: a proceedings or
    "to appear" line, then a journal citation line, then copyright / "Published" lines."""
    found: dict[str, tuple[int | None, str | None]] = {}
    for i, line in enumerate(lines):
        if (m := _PROCEEDINGS.match(line)) and "proceedings" not in found:
            found["proceedings"] = (_year_near(lines, i), _venue_from(m.group(1)))
        elif (m := _TO_APPEAR.match(line)) and re.search(_YEAR, line) and "to appear" not in found:
            found["to appear"] = (_year_near(lines, i, 0), _venue_from(m.group(1)))
        elif (m := _JOURNAL_PAREN.match(line) or _JOURNAL_VOLUME.match(line) or _JOURNAL_PLAIN.search(line)
              or (_JOURNAL_ISSUE.match(line) if i < 15 or i >= len(lines) - 15 else None)) \
                and "journal line" not in found:
            name = re.sub(r"^.*?\bet al\.?\s*", "", m.group(1)).strip()
            found["journal line"] = (plausible_year(m.group(2)), name or None)
        elif (m := _HOW_TO_CITE.match(line)) and "how to cite" not in found:
            found["how to cite"] = (plausible_year(m.group(1)), None)
        elif (m := _ACRONYM_YEAR.match(line)) and len(line) <= 40 and "venue line" not in found:
            found["venue line"] = (plausible_year(m.group(2)), line)
        elif (m := _MEETING.match(line)) and "venue line" not in found:
            found["venue line"] = (plausible_year(m.group(1)), None)
        elif (m := _COPYRIGHT.match(line) or _PUBLISHED.search(line)) and "copyright" not in found:
            found["copyright"] = (plausible_year(m.group(1)), None)
    for rule in ("proceedings", "to appear", "journal line", "how to cite", "venue line", "copyright"):
        year, venue = found.get(rule, (None, None))
        if year and meta.year is None:
            meta.year, meta.evidence["year"] = year, rule
        if venue and meta.venue is None:
            meta.venue, meta.evidence["venue"] = venue, rule


# A meeting's dates on a short line of their own, a range of days ("September 22--24, 2010", "Tokyo,
# Japan, 5-10 June 2011"): a draft or a report is dated by one day, a meeting by its days.
_MEETING_DATES = (rf"^(?:[^.\d]{{0,40}}[,:]\s*)?(?:(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}\s*[-–]+\s*"
                  rf"(?:(?:{_MONTHS})[a-z]*\.?\s+)?\d{{1,2}}|\d{{1,2}}\s*[-–]+\s*\d{{1,2}}\s+(?:{_MONTHS})[a-z]*\.?)"
                  rf",?\s+{_YEAR}\.?$")
# What marks a line as the paper's own dating (a journal citation line, a copyright or history line)
# rather than prose: volume, issue and pages, a copyright sign, a publication step, a month with the year.
_DATED = re.compile(rf"\bvol(?:ume)?\.?\s*\d|\b\d+\s*\(\d+(?:[-–]\d+)?\)\s*[:,;]|"
                    rf"\b\d+\s*[:,]\s*[A-Z]?\d+\s*[-–]\s*[A-Z]?\d+|\({_YEAR}\)\s*(?:[;,]|\d+\s*[-–]\s*\d+)|"
                    rf"©|\bcopyright\b|\b(?:published|accepted|received|cite this)\b|"
                    rf"\b(?:conference|symposium|workshop|proceedings)\b|"
                    rf"\b(?:{_MONTHS})[a-z]*\.?\s+(?:\d{{1,2}},?\s+)?{_YEAR}\b|{_MEETING_DATES}", re.IGNORECASE)
# A line that is a date and nothing else (a draft's or a report's, not the publication's).
_BARE_DATE = re.compile(rf"^(?:\d{{1,2}}\s+)?(?:{_MONTHS})[a-z]*\.?\s+(?:\d{{1,2}},?\s+)?{_YEAR}\.?$", re.IGNORECASE)
# A date that is not the paper's: when a copy was downloaded or a page was looked at.
_NOT_ITS_DATE = re.compile(r"download|upload|accessed|retrieved|current as of|printed on|generated on", re.IGNORECASE)
# A manuscript's history ("Received 12 May 2009; accepted 3 December 2009") dates steps before publication,
# which may fall in the next year: a bound, not the paper's year, unless the line says it was published.
_HISTORY = re.compile(r"\b(?:received|revised|accepted|submitted)\b", re.IGNORECASE)
_PUBLISHED_CUE = re.compile(r"\bpublished\b|\bonline\b|©|\bcopyright\b|\bcite\b", re.IGNORECASE)
# A year inside a citation of another work: "(Tyler, 1995", "et al. 2009", "McKeown (2001)".
# (not a month's name: "August, 2000", as a scan reads "August 1, 2000" or a page prints it)
_CITED_YEAR = re.compile(rf"(?:et al\.?,?|(?!(?:{_MONTHS})[a-z]*,)[A-Z][a-z]+,|[A-Z][a-z]+\s+\()\s*\(?({_YEAR})")


def _dated_year(lines: list[str]) -> int | None:
    """The latest year on page 1's first or last lines (its header and footer, where the journal,
    copyright and history lines sit) that a line's own form says is a date of the paper: in a
    journal citation, copyright or publication line, beside a month; not a download stamp, a year
    of a cited work, nor a history that stops short of publication (received, accepted).  The latest,
    as a history runs received < accepted < published."""
    years = []
    for line in [*lines[:15], *lines[-15:]]:
        if len(line) > 200 or not _DATED.search(line) or _NOT_ITS_DATE.search(line) or _BARE_DATE.match(line) \
                or _HISTORY.search(line) and not _PUBLISHED_CUE.search(line):
            continue
        cited = {m.group(1) for m in _CITED_YEAR.finditer(line)}
        years += [int(y) for y in re.findall(rf"(?<![\d/.-])({_YEAR})(?![\d/])", line)
                  if y not in cited and plausible_year(y)]
    return max(years) if years else None


# A copyright year anywhere on a line ("… abstract. © 2003 Wiley", "Copyright ? 2004 John Wiley", the sign
# lost): a year the page gives as its own paper's, like a journal line's, a "Published" date's, a meeting's.
_OWN_COPYRIGHT = re.compile(rf"(?:©[.,]?|\bCopyright\b\s*(?:©[.,]?|\(c\)|\?)?)\s*({_YEAR})\b(?!\s*[-–]\s*\d)",
                            re.IGNORECASE)
_OWN_YEAR_RULES = ("arxiv stamp", "proceedings", "to appear", "journal line", "how to cite", "venue line",
                   "copyright", "dated line")


def _own_years(lines: list[str]) -> set[int]:
    """The years page 1 prints as its own paper's publication: in a journal citation line, a copyright
    line or sign, a "Published" date, a proceedings, "to appear" or meeting line (not received or
    accepted dates: those come before the publication by any convention)."""
    years = set()
    for i, line in enumerate(lines):
        found = [_JOURNAL_PAREN.match(line), _JOURNAL_VOLUME.match(line), _JOURNAL_PLAIN.search(line),
                 _JOURNAL_ISSUE.match(line) if i < 15 or i >= len(lines) - 15 else None,
                 *_OWN_COPYRIGHT.finditer(line),
                 *_PUBLISHED.finditer(line), _MEETING.match(line)]
        if len(line) <= 40:
            found.append(_ACRONYM_YEAR.match(line))
        years |= {y for m in found if m and (y := plausible_year(m.group(m.lastindex or 1)))}
        span = 2 if _PROCEEDINGS.match(line) else 0 if _TO_APPEAR.match(line) else None  # a proceedings line wraps
        near = _year_near(lines, i, span) if span is not None else None
        years |= {near} if near else set()
    return years


def _unless_two_own_years(first: list[str], meta: PdfMeta, scanned: bool = False) -> None:
    """Drop the year page 1 gave when it prints another year as its own paper's too, unless the file's
    making tells which is the paper's.  An issue is often dated a year after the paper came out
    (online first, or typeset in the autumn for a January issue: "(2004) 271" beside "Published online
    27 November 2003" in a file made in December 2003), and libraries file such a paper under either:
    so when the file was made before the latest of its years, no year.  A file made in the latest year
    or after is the issue's, whose year (a journal line's first) is the paper's ("2005; 24:1185" beside
    "Copyright © 2004", made in March 2005).  An arXiv stamp dates a version, not the paper: beside
    another year of the paper's own, no year; so does a scan's (`scanned`: its file was made when it was
    scanned, and OCR misreads a digit: "(2008)" beside "© 2003").  No other source stands in
    (`PdfMeta.year_unsure`)."""
    rule = meta.evidence.get("year")
    if meta.year is None or rule not in _OWN_YEAR_RULES:
        return
    years = _own_years(first) | {meta.year}
    if len(years) < 2:
        return
    if rule == "arxiv stamp" or scanned or meta.created is not None and meta.created[0] < max(years):
        meta.year, meta.year_unsure = None, True
        meta.evidence["year"] = f"none: page 1 prints {' and '.join(map(str, sorted(years)))} as its own"


# A step of a manuscript's history and its date ("Received 23 February 2008", "…; accepted 11 July 2002",
# "Submitted: 21 November 2014", "revision accepted 10 August 1999"): the step opens the line or a clause of
# it (after ";", ",", "(", "•", "|"), a word or three before it at most; its year within the clause.
_HISTORY_STEP = re.compile(rf"(?:^|[;,(|•·]\s*)(?:[A-Za-z]+\s+){{0,3}}?(?:received|revised|accepted|submitted|"
                           rf"registered)\b[^;.|]{{0,40}}?\b({_YEAR})\b", re.IGNORECASE)


# A copy's own later date, when it was downloaded or looked at ("Downloaded from … on April 29, 2017",
# "Download by: … Date: 29 April 2016", "current as of March 17, 2012"): the paper came out before it.
# A stamp opens its line ("Downloaded from", "Download by:"); prose's "data downloaded in 2013" is no stamp.
_COPY_DATE = re.compile(rf"(?:^download(?:ed)?\s+(?:from|by)\b|\bcurrent as of\b)[^|]{{0,80}}?\b({_YEAR})\b",
                        re.IGNORECASE)


def _outside_page_dates(first: list[str], meta: PdfMeta) -> None:
    """No year when the one read falls outside the dates page 1 prints around the paper: before a step
    of the manuscript's history (received, revised, accepted: a paper is published after it is
    accepted), before the month of the arXiv id the page names (not its stamp, which dates the version
    shown), or after the date the copy was downloaded.  Such a year is another date (a cited work's, a
    data set's, a misread line) and the page disagrees with it: no year is better than a wrong one."""
    if meta.year is None:
        return
    floors = [int(m.group(1)) for line in first for m in _HISTORY_STEP.finditer(line) if plausible_year(m.group(1))]
    if meta.arxiv_id and meta.evidence.get("year") != "arxiv stamp" and re.match(r"\d{4}\.", meta.arxiv_id):
        floors.append(2000 + int(meta.arxiv_id[:2]))
    ceilings = [int(m.group(1)) for line in first for m in _COPY_DATE.finditer(line) if plausible_year(m.group(1))]
    if floors and meta.year < max(floors) or ceilings and meta.year > min(ceilings):
        meta.evidence["year"] = f"none: {meta.year} ({meta.evidence.get('year')}) outside the page's dates " \
                                f"{max(floors, default='-')}..{min(ceilings, default='-')}"
        meta.year, meta.year_unsure = None, True


def running_lines(pages: list[str]) -> list[str]:
    """Lines set at the top or foot of two or more pages (a running header or footer such as
    "NIPS 2011" or "Proceedings of ... 2019"), page numbers aside: a venue line the paper
    prints beyond page 1."""
    seen: dict[str, list[str]] = {}
    for text in pages:
        lines = [clean_line(x) for x in text.splitlines() if x.strip()]
        for line in {*lines[:3], *lines[-3:]}:
            seen.setdefault(re.sub(r"(?<!\d)\d{1,3}(?!\d)", "#", line), []).append(line)
    return [re.sub(r"^\d{1,3}\s+|(?<!\s)\s+\d{1,3}$", "", found[0]) for found in seen.values() if len(found) >= 2]


def _from_info(info: dict, xmp: str | None, meta: PdfMeta) -> None:
    """Document info and document-level XMP: DOI and venue fields only, plus a title that
    looks like one (typesetters often leave "acl07.dvi" or "Microsoft Word - x.doc")."""
    if xmp:
        for tag in ("prism:doi", "pdfx:doi", "crossmark:DOI"):
            m = re.search(rf"<{tag}>\s*(10\.\d{{4,9}}/[^<\s]+)\s*<", xmp)
            if m and not meta.doi:
                meta.doi, meta.evidence["doi"] = strip_doi(m.group(1)), "xmp"
        m = re.search(r"<prism:publicationName>\s*([^<]+?)\s*<", xmp)
        if m and not meta.venue:
            meta.venue, meta.evidence["venue"] = m.group(1), "xmp"
        m = re.search(rf"<prism:(?:coverDate|publicationDate)>\s*({_YEAR})", xmp)
        if m and meta.year is None and not meta.year_unsure and plausible_year(m.group(1)):
            meta.year, meta.evidence["year"] = int(m.group(1)), "xmp"
    subject = clean_line(info.get("Subject") or "")
    if not meta.venue and re.search(rf"\b{_YEAR}\b", subject) and len(subject) <= 120 and \
            re.search(r"[A-Z]{2,}|Proceedings|Conference", subject):
        meta.venue, meta.evidence["venue"] = subject, "document info subject"
    title = clean_line(info.get("Title") or "")
    if len(title.split()) >= 3 and not re.search(r"\.(dvi|docx?|tex|pdf|ps)\b|^Microsoft|^Proceedings|\d{6}", title):
        meta.title = title
    author = clean_line(info.get("Author") or "")
    if author and not re.search(r"Association|Journals|Press|Inc\b|^(anonymous|unknown)$", author, re.IGNORECASE):
        parts = re.split(r"(?:(?<!\s)\s+)?;\s*|(?:(?<!\s)\s+)?,\s*(?:and\s+)?|(?<!\s)\s+and\s+", author)
        meta.authors = [a.strip() for a in parts if a.strip()]


def document_xmp(data: bytes) -> str | None:
    """The XMP packet that describes the document (it names the PDF or prism fields),
    not one of the packets embedded images carry."""
    for m in re.finditer(rb"<x:xmpmeta.*?</x:xmpmeta>", data, re.DOTALL):
        packet = m.group().decode("utf-8", "replace")
        if "prism:" in packet or "pdfx:" in packet or "<pdf:Producer" in packet and "xmpGImg" not in packet:
            return packet
    return None


def _page_text(pdf, index: int, texts: list[str] | None) -> str:
    """The page's pdfium text: from `texts` when the parse has read every page's already."""
    if texts is not None and len(texts) == len(pdf):
        return texts[index]
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            return textpage.get_text_range()
        finally:
            textpage.close()
    finally:
        page.close()


def read_pdf_meta(data: bytes, path: str | None = None, texts: list[str] | None = None,
                  scanned: bool = False) -> PdfMeta:
    """Year, DOI, venue, arXiv id (and title/authors from document info) of a PDF's bytes.
    `texts`: every page's pdfium text, when the caller has read them (`pdf.read_pdf`); `scanned`: page 1
    was read by OCR (the file was made when it was scanned, which says nothing of the print's years)."""
    import pypdfium2 as pdfium

    meta = PdfMeta()
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        return meta
    try:
        n = len(pdf)
        if n == 0:
            return meta
        meta.first_page = _page_text(pdf, 0, texts)
        first = page_lines(meta.first_page)
        last = [clean_line(x) for x in _page_text(pdf, n - 1, texts).splitlines() if x.strip()] if n > 1 else []
        middle = [_page_text(pdf, i, texts) for i in range(1, min(n - 1, 6))]
        info = pdf.get_metadata_dict(skip_empty=True)
    finally:
        pdf.close()
    _from_arxiv(first, meta)
    _from_lines(first, meta)
    if meta.year is None:
        _from_lines(running_lines(middle + ["\n".join(last)]), meta)
    if meta.year is None and (year := _dated_year(first) or _dated_year(running_lines(middle + ["\n".join(last)]))):
        meta.year, meta.evidence["year"] = year, "dated line"
    meta.created = creation_date(info)
    _unless_two_own_years(first, meta, scanned)
    meta.doi, rule = doi_from(first, last, middle)
    if rule:
        meta.evidence["doi"] = rule
    if meta.year is None and not meta.year_unsure and meta.doi and (year := doi_year(meta.doi)):
        meta.year, meta.evidence["year"] = year, "year in the doi"
    _from_info(info, document_xmp(data), meta)
    _outside_page_dates(first, meta)
    meta.authors = confirmed_info_authors(meta.authors, "\n".join(first))
    if meta.year is None and not meta.year_unsure and path:
        _from_file_name(path, meta)
    return meta


# A year as a whole field of a DOI's suffix: "10.5901/mjss.2013.v4n13p867", "10.1098/rspb.2003.2590",
# "10.1016/j.cell.2019.01.002"; not digits inside an article number ("10.1186/1472-6963-14-1").
_DOI_YEAR = re.compile(rf"(?<=[./])({_YEAR})(?=[./])")


def doi_year(doi: str) -> int | None:
    """The year a publisher wrote into the paper's DOI (when it registered it: the paper's own year,
    where the page prints none), or None.  Only one such field, in the suffix, counts."""
    suffix = doi.split("/", 1)[1] if "/" in doi else ""
    years = _DOI_YEAR.findall(f".{suffix}.")
    return plausible_year(years[0]) if len(years) == 1 else None


def _from_file_name(path: str, meta: PdfMeta) -> None:
    """A file saved from arXiv is named by its id ("2305.03393v1.pdf"): YYMM gives the year."""
    m = ARXIV_FILE.match(os.path.basename(path))
    if m and 1 <= int(m.group(2)) <= 12 and int(m.group(1)) >= 7:
        year = plausible_year(2000 + int(m.group(1)))
        if year:
            meta.year, meta.evidence["year"] = year, "arxiv id in file name"
